/* The TP rwlock's reader bias (B1..B4 of nptl/pthread_rwlock_tp.c).
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

/* With the bias set (BIAS = __writers_futex, set here by hand on an idle
   lock, as B4 sets it while it holds a read lock), a reader takes its
   read lock without touching the word (B1); a writer clears the bias
   and waits for it (B3), while a reader that comes meanwhile waits for
   the writer; a writer that gets EBUSY (trywrlock) or ETIMEDOUT (a
   timed lock) instead sets the bias again, so that the next writer
   waits for the reader too; the reader itself gets EDEADLK; and
   readers and writers exclude each other while the bias comes and
   goes.  Then B4:
   readers on two processors that race on the word of a private lock
   set the bias on the user-space path, never on the kernel path, and
   never for a process-shared lock.  */

#include <errno.h>
#include <unistd.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>
#include <pthread_mutex_tp_stats.h>
#include "tst-rwlock-tp-common.h"
#include "tst-tp-pin.h"

static pthread_rwlock_t lock;

static unsigned int
bias (pthread_rwlock_t *l)
{
  return __atomic_load_n (&l->__data.__writers_futex, __ATOMIC_RELAXED);
}

static void
set_bias (pthread_rwlock_t *l)
{
  __atomic_store_n (&l->__data.__writers_futex, 1, __ATOMIC_RELEASE);
}

/* Whether the process takes the kernel path (the probe of the TP mutex,
   whose operations the TP rwlock's kernel path needs too).  */
static bool
kernel_path (void)
{
  unsigned long int c[TP_STAT_COUNT];
  TEST_COMPARE (__pthread_mutex_tp_stats (c, TP_STAT_COUNT), TP_STAT_COUNT);
  return c[TP_STAT_KERNEL_MODE] != 0;
}

static int writer_state;	/* 1 waiting, 2 in its section, 3 done */

static void *
writer (void *arg)
{
  __atomic_store_n (&writer_state, 1, __ATOMIC_RELEASE);
  xpthread_rwlock_wrlock (&lock);
  __atomic_store_n (&writer_state, 2, __ATOMIC_RELEASE);
  usleep (20000);
  xpthread_rwlock_unlock (&lock);
  __atomic_store_n (&writer_state, 3, __ATOMIC_RELEASE);
  return NULL;
}

static void *
try_writer (void *arg)
{
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);
  return NULL;
}

static void *
timed_writer (void *arg)
{
  struct timespec t = timespec_add (xclock_now (CLOCK_REALTIME),
				    make_timespec (0, 50000000));
  TEST_COMPARE (pthread_rwlock_timedwrlock (&lock, &t), ETIMEDOUT);
  return NULL;
}

static void *
try_reader (void *arg)
{
  TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EBUSY);
  return NULL;
}

/* B1 and B3 on LOCK, with the bias set by hand.  */
static void
check_revocation (void)
{
  tst_tprw_init (&lock, false);

  /* B1: the read lock leaves the word alone; B2: so does its unlock.  */
  set_bias (&lock);
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (tst_tprw_word (&lock), 0);
  TEST_COMPARE (bias (&lock), 1);
  /* B3: a trywrlock finds the reader: EBUSY, the word released, the
     bias set again (the reader is still in its slot).  */
  xpthread_join (xpthread_create (NULL, try_writer, NULL));
  TEST_COMPARE (tst_tprw_word (&lock), 0);
  TEST_COMPARE (bias (&lock), 1);
  /* Our read lock is still the slot's: no word to release.  */
  xpthread_rwlock_unlock (&lock);
  TEST_COMPARE (tst_tprw_word (&lock), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), EPERM);
  tst_tprw_check_idle (&lock);

  /* B3: a writer waits for the reader in the slot; while it does, a
     reader that comes takes no read lock (the bias is gone and the
     writer owns the word).  */
  set_bias (&lock);
  xpthread_rwlock_rdlock (&lock);
  __atomic_store_n (&writer_state, 0, __ATOMIC_RELAXED);
  pthread_t w = xpthread_create (NULL, writer, NULL);
  PF_WAIT_UNTIL (bias (&lock) == 0);
  /* The writer owns the word (its TID) and waits for our slot.  */
  unsigned int v = tst_tprw_word (&lock);
  TEST_VERIFY ((v & ~TST_TPRW_WAITERS) != 0);
#ifdef TST_TPRW_SHARED
  TEST_COMPARE (v & TST_TPRW_SHARED, 0);
#endif
  usleep (50000);
  TEST_COMPARE (__atomic_load_n (&writer_state, __ATOMIC_ACQUIRE), 1);
  xpthread_join (xpthread_create (NULL, try_reader, NULL));
  xpthread_rwlock_unlock (&lock);
  PF_WAIT_UNTIL (__atomic_load_n (&writer_state, __ATOMIC_ACQUIRE) >= 2);
  xpthread_join (w);
  tst_tprw_check_idle (&lock);

  /* B3 with a timeout that passes while the reader stays: ETIMEDOUT,
     the word released and the bias set again, so that the next writer
     waits for the reader too (with the bias left clear, it entered
     beside the reader).  */
  set_bias (&lock);
  xpthread_rwlock_rdlock (&lock);
  xpthread_join (xpthread_create (NULL, timed_writer, NULL));
  TEST_COMPARE (tst_tprw_word (&lock), 0);
  TEST_COMPARE (bias (&lock), 1);
  __atomic_store_n (&writer_state, 0, __ATOMIC_RELAXED);
  w = xpthread_create (NULL, writer, NULL);
  usleep (50000);
  TEST_COMPARE (__atomic_load_n (&writer_state, __ATOMIC_ACQUIRE), 1);
  xpthread_rwlock_unlock (&lock);
  xpthread_join (w);
  TEST_COMPARE (writer_state, 3);
  tst_tprw_check_idle (&lock);

  /* B3 by the reader itself: EDEADLK, instead of waiting for itself.  */
  set_bias (&lock);
  xpthread_rwlock_rdlock (&lock);
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), EDEADLK);
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);
  TEST_COMPARE (tst_tprw_word (&lock), 0);
  xpthread_rwlock_unlock (&lock);
  tst_tprw_check_idle (&lock);
  xpthread_rwlock_destroy (&lock);
}

/* A thread holds read locks of several biased locks: TPRW_BIAS_HELD_MAX
   (4) of them through slots, the others through their words.  The
   locks lie 64 bytes apart within 512 bytes, which gives each of them
   another slot (tprw_visible_slot).  */
enum { n_held = 6 };
static struct
{
  pthread_rwlock_t l;
} __attribute__ ((aligned (64))) held[n_held] __attribute__ ((aligned (512)));

static void
check_held_max (void)
{
  enum { n = n_held };
  pthread_rwlock_t *l[n];
  for (int i = 0; i < n; i++)
    l[i] = &held[i].l;
  for (int i = 0; i < n; i++)
    {
      tst_tprw_init (l[i], false);
      set_bias (l[i]);
      xpthread_rwlock_rdlock (l[i]);
    }
#ifdef TST_TPRW_SHARED
  for (int i = 0; i < n; i++)
    TEST_COMPARE (tst_tprw_word (l[i]),
		  i < 4 ? 0 : TST_TPRW_SHARED | 1);
#endif
  /* Released in another order than taken.  */
  for (int i = n - 1; i >= 0; i -= 2)
    xpthread_rwlock_unlock (l[i]);
  for (int i = 0; i < n; i += 2)
    xpthread_rwlock_unlock (l[i]);
  for (int i = 0; i < n; i++)
    {
      tst_tprw_check_idle (l[i]);
      xpthread_rwlock_destroy (l[i]);
    }
}

/* Exclusion while the bias comes and goes: readers race (and set the
   bias, B4), a writer revokes it now and then.  */
static volatile unsigned int counter;
static unsigned int violations;
static bool stop;
static unsigned int slot_reads;
static unsigned int revocations;

static void *
racing_reader (void *arg)
{
  pin ((intptr_t) arg);
  while (!__atomic_load_n (&stop, __ATOMIC_RELAXED))
    {
      xpthread_rwlock_rdlock (&lock);
      unsigned int c = counter;
      /* A read lock that left the word unowned came through a slot.  */
      if (tst_tprw_word (&lock) == 0)
	__atomic_fetch_add (&slot_reads, 1, __ATOMIC_RELAXED);
      if (c % 2 != 0 || counter != c)
	__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED);
      xpthread_rwlock_unlock (&lock);
    }
  return NULL;
}

static void *
occasional_writer (void *arg)
{
  while (!__atomic_load_n (&stop, __ATOMIC_RELAXED))
    {
      usleep (1000);
      if (bias (&lock) != 0)
	__atomic_fetch_add (&revocations, 1, __ATOMIC_RELAXED);
      xpthread_rwlock_wrlock (&lock);
      unsigned int c = counter;
      if (c % 2 != 0)
	__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED);
      counter = c + 1;
      tst_tprw_spin (20);
      counter = c + 2;
      xpthread_rwlock_unlock (&lock);
    }
  return NULL;
}

/* Race two readers (and the writer, if WITH_WRITER) on LOCK for up to
   SECONDS, until the bias is set (without a writer) or for the whole
   time; returns whether the bias was ever set.  */
static bool
race (bool with_writer, int seconds)
{
  __atomic_store_n (&stop, false, __ATOMIC_RELAXED);
  pthread_t r0 = xpthread_create (NULL, racing_reader, (void *) 0);
  pthread_t r1 = xpthread_create (NULL, racing_reader, (void *) 1);
  pthread_t w = with_writer ? xpthread_create (NULL, occasional_writer,
					       NULL) : 0;
  bool seen = false;
  int64_t end = now_ns () + seconds * INT64_C (1000000000);
  while (now_ns () < end && (with_writer || !seen))
    {
      seen |= bias (&lock) != 0;
      usleep (1000);
    }
  __atomic_store_n (&stop, true, __ATOMIC_RELAXED);
  xpthread_join (r0);
  xpthread_join (r1);
  if (with_writer)
    xpthread_join (w);
  return seen;
}

static int
do_test (void)
{
  if (sysconf (_SC_NPROCESSORS_ONLN) < 2)
    FAIL_UNSUPPORTED ("the races need two processors");
  pinned_tests_one_at_a_time ();

  check_revocation ();
  check_held_max ();

  /* B4: racing readers set the bias of a private lock on the
     user-space path only.  */
  bool kernel = kernel_path ();
  tst_tprw_init (&lock, false);
  TEST_COMPARE (race (false, kernel ? 1 : 10), !kernel);
  tst_tprw_check_idle (&lock);
  xpthread_rwlock_destroy (&lock);

  /* ... and never of a process-shared one.  */
  tst_tprw_init (&lock, true);
  TEST_VERIFY (!race (false, 1));
  tst_tprw_check_idle (&lock);
  xpthread_rwlock_destroy (&lock);

  /* Exclusion while the bias comes and goes.  */
  tst_tprw_init (&lock, false);
  race (true, 2);
  TEST_COMPARE (violations, 0);
  if (!kernel)
    {
      TEST_VERIFY (slot_reads > 0);
      TEST_VERIFY (revocations > 0);
    }
  else
    TEST_COMPARE (slot_reads, 0);
  tst_tprw_check_idle (&lock);
  xpthread_rwlock_destroy (&lock);
  return 0;
}

#include <support/test-driver.c>
