/* TP rwlock: reader-count overflow, and a reader that write-locks.
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

/* 1. The TP rwlock counts readers in 24 bits.  With 2^24 - 1 read
      locks held (by one thread: without waiters a TP rwlock takes a
      read lock again), one more read lock must fail with EAGAIN, from
      pthread_rwlock_tryrdlock and from pthread_rwlock_rdlock and its
      timed form, without changing the lock; releasing every read lock
      leaves it free.
   2. A thread that holds a read lock and asks for the write lock: the
      TP and the phase-fair rwlock do not know their readers, so they
      cannot report EDEADLK (the manual says so); the documented
      behaviour is that the request waits like any writer's: trywrlock
      gives EBUSY and timedwrlock ETIMEDOUT, within bounds, and the read
      lock is still held, and its release leaves the lock free.  */

#include "tst-rwlock-tp-common.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <support/timespec.h>
#include <support/xtime.h>

/* The kernel's count field (<linux/futex.h>); with headers that lack
   the reader-owned layout, glibc's own copy of it (tp-futex.h), 24
   bits.  */
#ifdef TST_TPRW_COUNT_MASK
# define READERS_MAX TST_TPRW_COUNT_MASK
#else
# define READERS_MAX ((1u << 24) - 1)
#endif

static void
check_overflow (void)
{
  pthread_rwlock_t l;
  tst_tprw_init (&l, false);
  for (unsigned int i = 0; i < READERS_MAX; i++)
    if (pthread_rwlock_tryrdlock (&l) != 0)
      FAIL_EXIT1 ("read lock %u of %u failed", i + 1, READERS_MAX);
  unsigned int full = tst_tprw_word (&l);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&l), EAGAIN);
  TEST_COMPARE (pthread_rwlock_rdlock (&l), EAGAIN);
  struct timespec ts = timespec_add (xclock_now (CLOCK_REALTIME),
				     make_timespec (1, 0));
  TEST_COMPARE (pthread_rwlock_timedrdlock (&l, &ts), EAGAIN);
  TEST_COMPARE (pthread_rwlock_trywrlock (&l), EBUSY);
  TEST_COMPARE (tst_tprw_word (&l), full);
  for (unsigned int i = 0; i < READERS_MAX; i++)
    if (pthread_rwlock_unlock (&l) != 0)
      FAIL_EXIT1 ("read unlock %u failed", i + 1);
  tst_tprw_check_idle (&l);
  TEST_COMPARE (pthread_rwlock_destroy (&l), 0);
}

static void
check_reader_wrlock (int kind, const char *name)
{
  pthread_rwlockattr_t a;
  pthread_rwlock_t l;
  TEST_COMPARE (pthread_rwlockattr_init (&a), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&a, kind), 0);
  TEST_COMPARE (pthread_rwlock_init (&l, &a), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&a), 0);

  TEST_COMPARE (pthread_rwlock_rdlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (&l), EBUSY);
  struct timespec start = xclock_now (CLOCK_MONOTONIC);
  struct timespec deadline = timespec_add (start,
					   make_timespec (0, 200000000));
  TEST_COMPARE (pthread_rwlock_clockwrlock (&l, CLOCK_MONOTONIC, &deadline),
		ETIMEDOUT);
  struct timespec end = xclock_now (CLOCK_MONOTONIC);
  struct timespec late = timespec_sub (end, deadline);
  TEST_VERIFY (late.tv_sec >= 0);
  const char *f = getenv ("TIMEOUTFACTOR");
  int factor = f != NULL && atoi (f) > 0 ? atoi (f) : 1;
  if (late.tv_sec >= 2 * factor)
    FAIL ("%s: clockwrlock returned %jd s after its deadline", name,
	  (intmax_t) late.tv_sec);
  /* The read lock is still held (a write lock fails at once) and its
     release leaves the lock free: the withdrawn write request left
     nothing behind.  (A read lock tried right after the timeout may
     fail with EBUSY: the waiters mark that the writer set stays until
     the next release, which is allowed, so it is not checked.)  */
  TEST_COMPARE (pthread_rwlock_trywrlock (&l), EBUSY);
  TEST_COMPARE (pthread_rwlock_unlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&l), 0);
  TEST_COMPARE (pthread_rwlock_destroy (&l), 0);
}

static int
do_test (void)
{
  check_overflow ();
  check_reader_wrlock (PTHREAD_RWLOCK_TP_NP, "TP rwlock");
  check_reader_wrlock (PTHREAD_RWLOCK_PHASE_FAIR_NP, "phase-fair rwlock");
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
