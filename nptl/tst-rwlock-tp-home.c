/* TP rwlock: concurrency restriction to a home processor (C1..C4).
   Copyright (C) 2026 Free Software Foundation, Inc.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* The user-space path of the TP rwlock (nptl/pthread_rwlock_tp.c, C1..C4),
   with threads pinned to processors 0 and 1 and a hand-off threshold of
   1 s for the mutex (so the TP rwlock's is TPRW_HANDOFF_MUL times that,
   and a claim's window a quarter of it, TPRW_WINDOW_NS):
   C1  a writer that waited for the lock on processor 0 claims the home
       word for processor 0;
   C2  a reader on processor 0 joins the read lock without deferring; a
       reader on processor 1 defers (a counted sleep) for the rest of the
       window, then joins; having waited only for the window, and never
       raced, it claims nothing and clears the home word (C1, C4), while
       a reader there whose races have just claimed the home (C5)
       claims it again after such a wait (C1);
   C4  after the window of a new claim for processor 0, a writer on
       processor 1 that finds the lock free takes it without waiting and
       clears the home word;
   C5  two readers on processors 0 and 1 that lock and unlock without a
       pause (or one of them against tryrdlock calls on the other
       processor) race in the fast path, and one of them claims the
       home, also while a third reader holds the lock throughout (their
       races join that reader); two readers with sections of 20 us race
       once in many locks, and never claim.
   The lock is process-shared: a private lock's racing readers would
   set its reader bias (B4) and leave the word alone, so that C5 would
   have no races to count (tst-rwlock-tp-bias tests the bias).  The
   test's GLIBC_TUNABLES (nptl/Makefile) replace any a suite sets.
   With rseq disabled (tst-rwlock-tp-home-norseq) nobody claims or
   defers: the home word stays 0 and the reader on processor 1 joins at
   once.  */

#define TEST_RWLOCK_INITIALIZER PTHREAD_RWLOCK_TP_INITIALIZER_NP
#include "tst-rwlock-home.h"
#include <pthread_rwlock_tp.h>

/* The window of the TP rwlock's claims at the tests' threshold.  */
#define TPRW_WINDOW_NS (WINDOW_NS * TPRW_HANDOFF_MUL)

static unsigned int
home (void)
{
  return __atomic_load_n (&lock.__data.__wrphase_futex, __ATOMIC_RELAXED);
}

/* Processor 1: a reader against the main thread's read lock.  */
static void *
other_reader (void *arg)
{
  pin (1);
  unsigned long int before = deferrals ();
  int64_t start = now_ns ();
  xpthread_rwlock_rdlock (&lock);
  if (__rseq_size > 0)
    {
      /* C2: deferred, for most of the window.  */
      TEST_VERIFY (deferrals () > before);
      TEST_VERIFY (now_ns () - start >= TPRW_WINDOW_NS / 2);
    }
  else
    TEST_COMPARE (deferrals (), before);
  /* It waited only for the window: no claim (C1), and the claim whose
     window has ended is cleared (C4).  */
  TEST_COMPARE (home (), 0);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* C4 on processor 1: a writer that finds the lock free.  */
static void *
other_writer (void *arg)
{
  pin (1);
  xpthread_rwlock_wrlock (&lock);
  TEST_COMPARE (home (), 0);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* C5: read lock and unlock on processor (intptr_t) ARG until the main
   thread says stop, holding the lock for SECTION_NS each time, varied
   by up to a quarter either way so that two readers with sections of
   one length cannot fall into step and race round after round (without
   the variation, on 2026-11-29 with the host's cache-line round trip
   at 106 ns, make bench-pingpong, the check of sections of 20 us below
   failed 11 runs of 12, on the libc of cc15424 as on the next; with
   it, it passed 4 runs of 4 and still caught a rule that claims after
   4 races alone in 3 runs of 3).  Note whether the home word was ever
   set: a claim lasts only until a thread on the other processor takes
   the lock without waiting (C4).  */
static bool stop_racing;
static bool home_seen;
static int64_t section_ns;

/* C5 needs the two racing threads to run at the same time, and the
   host does not always let them: where it ran them in turn (as a
   SCHED_FIFO thread moving between processors 0 and 1 every 2 ms
   does, tests/stalls/processors-in-turn.c, make home-in-turn; or a
   hypervisor that runs both virtual processors on one physical one),
   their locks never raced and no claim came in 10 s, which is
   right.  That would explain the three make checks in which no
   claim came in 10 s while the test passed alone each time after
   (README, "tst-rwlock-tp-home's waits").  So the waits for
   a claim count the time the two ran together: the thread on
   processor 0 counts its rounds in a cache line of its own, and the
   one on processor 1 looks at that count every TOGETHER_ROUNDS rounds
   of its own (at every round with sections, each of which reads the
   clock anyway) and adds the time since its last look to TOGETHER_NS
   when the count has moved, unless that time reached TOGETHER_MAX_NS,
   for then the thread itself was preempted and its partner may have
   run in its place (with that SCHED_FIFO thread, 5 s of 10 were
   counted without this bound).  Each wait still ends, with a failure,
   TOGETHER_CAP times its length after it began.  Relaxed MO
   throughout: the counts only measure, no data is published through
   them, and the main thread reads TOGETHER_NS as a progress hint
   (polling) and for its report after joining the thread.  */
#define TOGETHER_ROUNDS 64
#define TOGETHER_MAX_NS 1000000
#define TOGETHER_CAP 3
/* The hot reader's wait (below).  */
#define HOT_TOGETHER_NS INT64_C (20000000000)
static struct
{
  unsigned long int rounds;
} __attribute__ ((aligned (64))) partner;
static int64_t together_ns;

/* The thread on processor 1's view of its partner's rounds, and the
   time they ran together, which it alone writes to TOGETHER_NS.  */
struct together_meter
{
  int64_t last;
  int64_t together;
  unsigned long int partner_rounds;
  unsigned int rounds;
};

static void
together_start (struct together_meter *m)
{
  m->last = now_ns ();
  m->together = 0;
  m->partner_rounds = __atomic_load_n (&partner.rounds, __ATOMIC_RELAXED);
  m->rounds = 0;
}

/* Called by the thread on processor 1 after each of its rounds;
   returns the time it ran together with its partner so far.  */
static int64_t
together_note (struct together_meter *m)
{
  if (section_ns == 0 && ++m->rounds % TOGETHER_ROUNDS != 0)
    return m->together;
  int64_t t = now_ns ();
  unsigned long int r = __atomic_load_n (&partner.rounds, __ATOMIC_RELAXED);
  if (r != m->partner_rounds && t - m->last < TOGETHER_MAX_NS)
    {
      m->together += t - m->last;
      __atomic_store_n (&together_ns, m->together, __ATOMIC_RELAXED);
    }
  m->last = t;
  m->partner_rounds = r;
  return m->together;
}

/* The thread on processor 0 has done a round.  */
static void
partner_round (void)
{
  __atomic_store_n (&partner.rounds,
		    __atomic_load_n (&partner.rounds, __ATOMIC_RELAXED) + 1,
		    __ATOMIC_RELAXED);
}
/* The racing readers' rounds, in one cache line: with sections, the
   line moving between them at every round makes their locks race now
   and then.  */
static unsigned long int rounds[2];

static void *
racing_reader (void *arg)
{
  pin ((intptr_t) arg);
  xpthread_barrier_wait (&barrier);
  struct together_meter meter;
  if (arg != 0)
    together_start (&meter);
  /* A linear congruential sequence of the thread's own.  */
  uint32_t seed = (uint32_t) (intptr_t) arg * 2654435761u + 1;
  while (!__atomic_load_n (&stop_racing, __ATOMIC_RELAXED))
    {
      xpthread_rwlock_rdlock (&lock);
      if (section_ns > 0)
	{
	  seed = seed * 1103515245u + 12345u;
	  int64_t end = (now_ns () + section_ns * 3 / 4
			 + (int64_t) (seed >> 16) % (section_ns / 2 + 1));
	  while (now_ns () < end)
	    ;
	}
      xpthread_rwlock_unlock (&lock);
      if (section_ns > 0)
	++rounds[(intptr_t) arg];
      if (arg == 0)
	partner_round ();
      else
	together_note (&meter);
      if (home () != 0)
	__atomic_store_n (&home_seen, true, __ATOMIC_RELAXED);
    }
  return NULL;
}

/* C1 after a window: hot_reader and the main thread meet here when
   hot_reader has claimed the home, and again when the main thread has
   claimed it back for processor 0 and holds a read lock.  */
static pthread_barrier_t hot_barrier;

/* Processor 0: change the word as fast as a racing reader, but through
   pthread_rwlock_tryrdlock, which ignores the home and never claims it:
   a partner for hot_reader that cannot win the home from it.  */
static void *
trying_reader (void *arg)
{
  pin (0);
  xpthread_barrier_wait (&barrier);
  while (!__atomic_load_n (&stop_racing, __ATOMIC_RELAXED))
    {
      if (pthread_rwlock_tryrdlock (&lock) == 0)
	xpthread_rwlock_unlock (&lock);
      partner_round ();
    }
  return NULL;
}

/* Processor 1: race against trying_reader on processor 0 until this
   thread (the only one on processor 1) has claimed the home (C5), then,
   when the main thread says so, defer to processor 0's claim, join the
   main thread's read lock and claim the home again (C1).  */
static void *
hot_reader (void *arg)
{
  pin (1);
  xpthread_barrier_wait (&barrier);
  /* It claims within tens of milliseconds here, but once in a make
     check (of 7b53bdd) no claim came in 10 s, and in that of c291ab5
     the claim took 1486 ms, 1459 of them with trying_reader running;
     so it waits for up to HOT_TOGETHER_NS of that (together_note).  */
  struct together_meter meter;
  together_start (&meter);
  int64_t start = meter.last;
  int64_t deadline = start + TOGETHER_CAP * HOT_TOGETHER_NS;
  bool claimed = false;
  int64_t together = 0;
  for (unsigned int i = 1; !claimed; i++)
    {
      xpthread_rwlock_rdlock (&lock);
      xpthread_rwlock_unlock (&lock);
      claimed = (home () & TP_HOME_TAG_MASK) == tag_of (1);
      together = together_note (&meter);
      if (i % 1024 == 0
	  && (together >= HOT_TOGETHER_NS || now_ns () >= deadline))
	break;
    }
  printf ("info: the hot reader %s in %lld ms, %lld ms of them with its"
	  " partner running\n",
	  claimed ? "claimed the home" : "did not claim the home",
	  (long long int) ((now_ns () - start) / 1000000),
	  (long long int) (together / 1000000));
  TEST_VERIFY (claimed);
  xpthread_barrier_wait (&hot_barrier);
  xpthread_barrier_wait (&hot_barrier);
  unsigned long int before = deferrals ();
  xpthread_rwlock_rdlock (&lock);
  TEST_VERIFY (deferrals () > before);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (1));
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Race a reader on processor 1 against PARTNER on processor 0, each
   holding the lock for SECTION ns, until the reader sees the home word
   set, for up to NS of the two running together (within TOGETHER_CAP
   times NS); returns whether it did.  */
static bool
race_against (void *(*partner) (void *), int64_t section, int64_t ns)
{
  section_ns = section;
  __atomic_store_n (&stop_racing, false, __ATOMIC_RELAXED);
  __atomic_store_n (&home_seen, false, __ATOMIC_RELAXED);
  __atomic_store_n (&together_ns, 0, __ATOMIC_RELAXED);
  xpthread_barrier_init (&barrier, NULL, 2);
  int64_t start = now_ns ();
  pthread_t t0 = xpthread_create (NULL, partner, (void *) 0);
  pthread_t t1 = xpthread_create (NULL, racing_reader, (void *) 1);
  int64_t deadline = start + TOGETHER_CAP * ns;
  while (!__atomic_load_n (&home_seen, __ATOMIC_RELAXED)
	 && __atomic_load_n (&together_ns, __ATOMIC_RELAXED) < ns
	 && now_ns () < deadline)
    usleep (10000);
  int64_t end = now_ns ();
  __atomic_store_n (&stop_racing, true, __ATOMIC_RELAXED);
  xpthread_join (t0);
  xpthread_join (t1);
  xpthread_barrier_destroy (&barrier);
  bool seen = __atomic_load_n (&home_seen, __ATOMIC_RELAXED);
  printf ("info: C5 race against %s, sections of %lld ns: %s in %lld ms,"
	  " %lld ms of them together\n",
	  partner == trying_reader ? "tryrdlock" : "rdlock",
	  (long long int) section, seen ? "a claim" : "no claim",
	  (long long int) ((end - start) / 1000000),
	  (long long int) (__atomic_load_n (&together_ns, __ATOMIC_RELAXED)
			   / 1000000));
  return seen;
}

/* C5: race readers, each holding the lock for SECTION ns, until one of
   them sees the home word set, for up to SECONDS of the two running
   together; returns whether one did.  With sections, two rdlock loops;
   without, two rdlock loops for half the time, then, if neither
   claimed, the reader on processor 1 against trying_reader's
   tryrdlock loop, which changes the word as often and never claims,
   for the other half.  (Each pair once saw no claim in 10 s of wall
   time in a make check, the hot reader in 7b53bdd's, the two rdlock
   loops in 47332a5's and 10f2bc0's, before the waits counted only the
   time the two ran together.)  */
static bool
race_readers (int64_t section, int seconds)
{
  int64_t ns = seconds * INT64_C (1000000000);
  if (section > 0)
    return race_against (racing_reader, section, ns);
  return (race_against (racing_reader, 0, ns / 2)
	  || race_against (trying_reader, 0, ns / 2));
}

static int
do_test (void)
{
  home_test_start ();

  /* Process-shared, so that readers keep to the word, whose
     restriction this tests: racing readers would otherwise set the
     reader bias (B4) and leave the word alone from then on.  */
  pthread_rwlockattr_t attr;
  xpthread_rwlockattr_init (&attr);
  xpthread_rwlockattr_setkind_np (&attr, PTHREAD_RWLOCK_TP_NP);
  TEST_COMPARE (pthread_rwlockattr_setpshared (&attr,
					       PTHREAD_PROCESS_SHARED), 0);
  xpthread_rwlock_init (&lock, &attr);
  TEST_COMPARE (pthread_rwlockattr_destroy (&attr), 0);

  /* C1: a writer on processor 0 that had to wait claims the home.  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));

  /* C2: a reader on the home processor joins without deferring.  */
  unsigned long int before = deferrals ();
  xpthread_rwlock_rdlock (&lock);
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (deferrals (), before);
  xpthread_rwlock_unlock (&lock);

  /* C2: a reader on processor 1 defers, then joins.  */
  xpthread_join (xpthread_create (NULL, other_reader, NULL));
  xpthread_rwlock_unlock (&lock);

  /* C2 and C1 for a reader whose races qualify it (C5): it claims
     after waiting for the window.  Only with rseq, without which
     nobody races for a claim.  */
  if (__rseq_size > 0)
    {
      __atomic_store_n (&stop_racing, false, __ATOMIC_RELAXED);
      xpthread_barrier_init (&barrier, NULL, 2);
      xpthread_barrier_init (&hot_barrier, NULL, 2);
      pthread_t partner = xpthread_create (NULL, trying_reader, NULL);
      pthread_t hot = xpthread_create (NULL, hot_reader, NULL);
      xpthread_barrier_wait (&hot_barrier);
      __atomic_store_n (&stop_racing, true, __ATOMIC_RELAXED);
      xpthread_join (partner);
      xpthread_barrier_destroy (&barrier);
      xpthread_rwlock_wrlock (&lock);
      contend (waiting_writer);
      TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));
      xpthread_rwlock_rdlock (&lock);
      xpthread_barrier_wait (&hot_barrier);
      xpthread_join (hot);
      xpthread_barrier_destroy (&hot_barrier);
      xpthread_rwlock_unlock (&lock);
    }

  /* C1 again, then C4: once the window of that claim has ended, a
     writer on processor 1 takes the free lock without waiting and
     clears the home.  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));
  usleep (TPRW_WINDOW_NS / 1000 + 100000);
  xpthread_join (xpthread_create (NULL, other_writer, NULL));

  /* C5: readers only, racing on two processors, claim the home; without
     rseq nobody does (a second is plenty for the races to happen).  */
  TEST_COMPARE (lock.__data.__flags, PTHREAD_RWLOCK_TP_NP);
  TEST_COMPARE (race_readers (0, __rseq_size > 0 ? 20 : 1),
		__rseq_size > 0);

  /* No other thread runs now: clear each case's claim by hand.  */
  __atomic_store_n (&lock.__data.__wrphase_futex, 0, __ATOMIC_RELAXED);

  /* C5 counts the races whether or not readers were inside: with our
     read lock held throughout, every race of the two readers joins it,
     and they still claim (on the libc before this rule only the races
     for a free lock counted, and this check failed).  */
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (race_readers (0, __rseq_size > 0 ? 20 : 1),
		__rseq_size > 0);
  xpthread_rwlock_unlock (&lock);
  __atomic_store_n (&lock.__data.__wrphase_futex, 0, __ATOMIC_RELAXED);

  /* C5 claims only for races that come often among a reader's locks:
     with sections of 20 us (and their rounds counted in one cache line),
     whose locks race far less often than one in 16, nobody claims in
     two seconds, with or without rseq (with a rule that counted 4
     races alone, this check failed in 3 runs of 3; with 64 races alone
     it passed, and with sections of 2 us, which caught that rule, the
     real one claimed in 3 to 5 runs of 10 on this host).  */
  TEST_VERIFY (!race_readers (20000, 2));
  return 0;
}

/* The waits for a claim above add up to 186 s at most (TOGETHER_CAP
   times 20 s for the hot reader and for each of the first two
   race_readers, and times 2 s for the last), the windows to a few
   seconds more.  */
#define TIMEOUT 240
#include <support/test-driver.c>
