/* Phase-fair rwlock: concurrency restriction to a home processor.
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

/* The user-space path of the phase-fair rwlock's concurrency restriction
   (nptl/pthread_rwlock_pf.c, P1..P5), with threads pinned to processors
   0 and 1 and a hand-off threshold of 1 s (so a claim's window is
   250 ms):
   P1  a writer that waited for the writer role on processor 0 claims the
       home word for processor 0; a reader that waited for a writer phase
       on processor 1 claims it for processor 1; a reader on processor 1
       that deferred and then joins another reader claims it;
   P2  a reader on the home processor joins the read lock without
       deferring; a reader on the other processor takes an idle lock
       without deferring, but defers (a counted sleep) while readers or
       a writer hold it, until the window ends;
   P4  a reader that takes the lock without deferring while the home is
       the other processor clears the home word; after the window, so
       does a writer on processor 0 that finds the lock free, and a
       reader;
   P5  a reader on processor 1 during whose deferral nobody claimed the
       home does not defer again for two windows: it waits for the
       writer phase instead, and then claims the home (P1);
   P2  for the role: a writer on processor 1 that finds the role held
       by a writer nobody else waits for sleeps until the release,
       without deferring; a second one, which finds the first asleep,
       defers;
   G3  a writer waiting for the writer role registers for hand-off
       after a fifth of the threshold (200 ms), well before the whole
       threshold.
   With rseq disabled (tst-rwlock-pf-home-norseq) nobody claims or
   defers: the home word stays 0.  */

#define TEST_RWLOCK_INITIALIZER PTHREAD_RWLOCK_PHASE_FAIR_INITIALIZER_NP
#include <stdio.h>
#include "tst-rwlock-home.h"

/* The tests' hand-off threshold, ns.  */
#define THRESHOLD_NS (WINDOW_NS * TP_HOME_WINDOW_DIV)

/* The home word: __pad3 (PF_HOME in pthread_rwlock_pf.c).  */
static unsigned int
home (void)
{
  return __atomic_load_n (&lock.__data.__pad3, __ATOMIC_RELAXED);
}

/* Processor 1: a reader that finds the lock idle within the window of
   processor 0's claim takes it without deferring and drops the home
   (P2, P4).  */
static void *
idle_reader (void *arg)
{
  pin (1);
  unsigned long int before = deferrals ();
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (deferrals (), before);
  TEST_COMPARE (home (), 0);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Processor 1: a reader that finds the main thread's read lock within
   the window of processor 0's claim: readers inside, so it defers until
   the window ends (P2), then joins them and claims the home (P1).  */
static void *
joining_reader (void *arg)
{
  pin (1);
  unsigned long int before = deferrals ();
  int64_t start = now_ns ();
  xpthread_rwlock_rdlock (&lock);
  if (__rseq_size > 0)
    {
      TEST_VERIFY (deferrals () > before);
      TEST_VERIFY (now_ns () - start >= WINDOW_NS / 2);
    }
  else
    TEST_COMPARE (deferrals (), before);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (1));
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Processor 0: a reader that waits for the main thread's writer phase,
   then holds its read lock until the deferred reader has joined.  */
static pthread_barrier_t joined;
static void *
held_reader (void *arg)
{
  pin (0);
  xpthread_barrier_wait (&barrier);
  xpthread_rwlock_rdlock (&lock);
  xpthread_barrier_wait (&joined);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Processor 1: a reader that arrives while the main thread holds the
   write lock within the window of processor 0's claim: it defers until
   the window ends (P2), then joins the held reader and claims the home
   (P1).  */
static void *
deferred_reader (void *arg)
{
  pin (1);
  unsigned long int before = deferrals ();
  int64_t start = now_ns ();
  xpthread_barrier_wait (&barrier);
  xpthread_rwlock_rdlock (&lock);
  if (__rseq_size > 0)
    {
      TEST_VERIFY (deferrals () > before);
      TEST_VERIFY (now_ns () - start >= WINDOW_NS / 2);
    }
  else
    TEST_COMPARE (deferrals (), before);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (1));
  xpthread_barrier_wait (&joined);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Processor 1: a reader that waits for the main thread's writer phase,
   so claims the home when the phase ends (P1).  */
static void *
phase_reader (void *arg)
{
  pin (1);
  xpthread_barrier_wait (&barrier);
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (1));
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Processor 1: a reader that defers while nobody claims the home, so
   backs off (P5): its next read lock, within two windows, waits for the
   main thread's writer phase without deferring.  */
static pthread_barrier_t step;
static void *
backoff_reader (void *arg)
{
  pin (1);
  unsigned long int before = deferrals ();
  xpthread_barrier_wait (&step);
  xpthread_rwlock_rdlock (&lock);
  if (__rseq_size > 0)
    TEST_VERIFY (deferrals () > before);
  xpthread_rwlock_unlock (&lock);
  xpthread_barrier_wait (&step);
  xpthread_barrier_wait (&step);
  before = deferrals ();
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (deferrals (), before);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (1));
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* P2 for the role: processor 1's writers for the role that the main
   thread holds within the window of processor 0's claim.  The first
   (ARG 0) finds nobody asleep for the role, so sleeps until the
   release without deferring; the second (ARG 1) finds the first asleep
   and defers.  */
static void *
role_writer (void *arg)
{
  pin (1);
  unsigned long int before = deferrals ();
  xpthread_rwlock_wrlock (&lock);
  if (arg != NULL && __rseq_size > 0)
    TEST_VERIFY (deferrals () > before);
  else
    TEST_COMPARE (deferrals (), before);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* The registration in the role's hand-off word: __writers (PF_WHO in
   pthread_rwlock_pf.c), the TID in its low bits (FUTEX_TID_MASK,
   tp-wait.h).  */
static unsigned int
role_requester (void)
{
  return (__atomic_load_n (&lock.__data.__writers, __ATOMIC_RELAXED)
	  & 0x3fffffffu);
}

/* Processor 0: waits for the writer role, which the main thread holds
   past the role's hand-off threshold.  */
static void *
registering_writer (void *arg)
{
  pin (0);
  xpthread_rwlock_wrlock (&lock);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

static int
do_test (void)
{
  home_test_start ();

  /* P1: a writer on processor 0 that had to wait for the role claims
     the home.  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));

  /* P2: a reader on the other processor takes the idle lock without
     deferring, and drops the home (P4).  */
  xpthread_join (xpthread_create (NULL, idle_reader, NULL));

  /* P1 again; P2: a reader on the home processor joins without
     deferring; one on the other processor defers to our read lock until
     the window ends, then joins it and claims the home (P1).  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));
  unsigned long int before = deferrals ();
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (deferrals (), before);
  xpthread_join (xpthread_create (NULL, joining_reader, NULL));
  xpthread_rwlock_unlock (&lock);

  /* P1 again for processor 0, then P2: a reader on processor 1 defers
     while we hold the write lock; a reader on processor 0 waits for our
     phase.  Release the phase well within the window: the held reader
     gets the lock, and when the window ends the deferred reader joins
     it.  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));
  xpthread_rwlock_wrlock (&lock);
  xpthread_barrier_init (&barrier, NULL, 3);
  xpthread_barrier_init (&joined, NULL, 2);
  pthread_t held = xpthread_create (NULL, held_reader, NULL);
  pthread_t deferred = xpthread_create (NULL, deferred_reader, NULL);
  xpthread_barrier_wait (&barrier);
  usleep (100000);
  xpthread_rwlock_unlock (&lock);
  xpthread_join (deferred);
  xpthread_join (held);
  xpthread_barrier_destroy (&joined);
  xpthread_barrier_destroy (&barrier);

  /* P4: once the window of processor 1's claim has ended, a writer on
     processor 0 takes the free lock without waiting and clears the
     home.  */
  usleep (WINDOW_NS / 1000 + 100000);
  xpthread_rwlock_wrlock (&lock);
  TEST_COMPARE (home (), 0);

  /* P1: a reader on processor 1 that waits for our writer phase claims
     the home for processor 1 when the phase ends.  */
  contend (phase_reader);

  /* P4: a reader on processor 0 that finds the lock free after the
     window clears the home too.  */
  usleep (WINDOW_NS / 1000 + 100000);
  before = deferrals ();
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (home (), 0);
  TEST_COMPARE (deferrals (), before);
  xpthread_rwlock_unlock (&lock);

  /* P5: processor 0 claims the home, and a reader on processor 1 defers
     while we hold the write lock; nobody claims during its sleep, so
     after we have claimed again (about 100 ms later: well within two
     windows) its next read lock does not defer.  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  xpthread_rwlock_wrlock (&lock);
  xpthread_barrier_init (&step, NULL, 2);
  pthread_t backoff = xpthread_create (NULL, backoff_reader, NULL);
  xpthread_barrier_wait (&step);
  usleep (100000);
  xpthread_rwlock_unlock (&lock);
  xpthread_barrier_wait (&step);
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));
  xpthread_rwlock_wrlock (&lock);
  xpthread_barrier_wait (&step);
  /* Let the reader block in its lock call, waiting for our phase.  */
  usleep (100000);
  xpthread_rwlock_unlock (&lock);
  xpthread_join (backoff);
  xpthread_barrier_destroy (&step);

  /* P2 for the role: processor 0 claims the home and holds the write
     lock; the first writer on processor 1 sleeps for the role (its
     FUTEX_WAITERS shows in the role's word, __writers_futex), the
     second defers.  Both have waited well under the role's threshold
     (200 ms) when we release, so neither registers.  */
  xpthread_rwlock_wrlock (&lock);
  contend (waiting_writer);
  TEST_COMPARE (home () & TP_HOME_TAG_MASK, tag_of (0));
  xpthread_rwlock_wrlock (&lock);
  pthread_t first = xpthread_create (NULL, role_writer, NULL);
  while ((__atomic_load_n (&lock.__data.__writers_futex, __ATOMIC_RELAXED)
	  & 0x80000000u) == 0)
    usleep (1000);
  pthread_t second = xpthread_create (NULL, role_writer, (void *) 1);
  usleep (80000);
  xpthread_rwlock_unlock (&lock);
  xpthread_join (first);
  xpthread_join (second);

  /* G3: the writer role's hand-off threshold is a fifth of the TP
     locks' (1 s here).  */
  xpthread_rwlock_wrlock (&lock);
  int64_t start = now_ns ();
  pthread_t registering = xpthread_create (NULL, registering_writer, NULL);
  while (role_requester () == 0 && now_ns () - start < 2 * THRESHOLD_NS)
    usleep (1000);
  int64_t registered = now_ns () - start;
  TEST_VERIFY (role_requester () != 0);
  TEST_VERIFY (registered >= THRESHOLD_NS / 5);
  TEST_VERIFY (registered < THRESHOLD_NS);
  printf ("info: the writer registered after %lld ms\n",
	  (long long int) registered / 1000000);
  xpthread_rwlock_unlock (&lock);
  xpthread_join (registering);
  return 0;
}

#include <support/test-driver.c>
