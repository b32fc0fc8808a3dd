/* TP rwlock: timed and clock variants on both clocks.
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

#include <errno.h>
#include <time.h>
#include <support/timespec.h>
#include "tst-rwlock-tp-common.h"

static pthread_rwlock_t lock;

/* What the other thread does: take the lock (for writing if WRITE) and
   try the opposite kind (or, for a read lock, a write lock) with a
   timeout of TIMEOUT_MS on CLOCK (-1: pthread_rwlock_timed*).  */
struct attempt
{
  bool write;
  clockid_t clock;
  int timeout_ms;
  int result;
  struct timespec waited;
};

static void *
attempt_thread (void *arg)
{
  struct attempt *a = arg;
  clockid_t c = a->clock == -1 ? CLOCK_REALTIME : a->clock;
  struct timespec start = xclock_now (c);
  struct timespec until
    = timespec_add (start, make_timespec (a->timeout_ms / 1000,
					  (a->timeout_ms % 1000) * 1000000L));
  if (a->clock == -1)
    a->result = (a->write ? pthread_rwlock_timedwrlock (&lock, &until)
		 : pthread_rwlock_timedrdlock (&lock, &until));
  else
    a->result = (a->write
		 ? pthread_rwlock_clockwrlock (&lock, a->clock, &until)
		 : pthread_rwlock_clockrdlock (&lock, a->clock, &until));
  a->waited = timespec_sub (xclock_now (c), start);
  if (a->result == 0)
    xpthread_rwlock_unlock (&lock);
  return NULL;
}

/* Hold the lock (for writing if HOLD_WRITE) while another thread tries
   A; the attempt must time out after at least its timeout.  */
static void
expect_timeout (bool hold_write, struct attempt a)
{
  if (hold_write)
    xpthread_rwlock_wrlock (&lock);
  else
    xpthread_rwlock_rdlock (&lock);
  pthread_t th = xpthread_create (NULL, attempt_thread, &a);
  xpthread_join (th);
  xpthread_rwlock_unlock (&lock);
  TEST_COMPARE (a.result, ETIMEDOUT);
  TEST_VERIFY (a.waited.tv_sec * 1000 + a.waited.tv_nsec / 1000000
	       >= a.timeout_ms - 1);
  /* The timed-out waiter left nothing behind.  */
  tst_tprw_check_idle (&lock);
}

static int
do_test (void)
{
  tst_tprw_init (&lock, false);
  static const clockid_t clocks[] = { -1, CLOCK_REALTIME, CLOCK_MONOTONIC };
  for (int c = 0; c < 3; c++)
    {
      /* Short: the waiter times out before it may ask for hand-off.
	 Long: past the hand-off threshold (20 ms on the user-space
	 path: TPRW_HANDOFF_MUL times the TP mutex's 5 ms), the waiter
	 has registered and must withdraw.  */
      for (int t = 0; t < 2; t++)
	{
	  int ms = t == 0 ? 2 : 60;
	  expect_timeout (true, (struct attempt) { false, clocks[c], ms });
	  expect_timeout (true, (struct attempt) { true, clocks[c], ms });
	  expect_timeout (false, (struct attempt) { true, clocks[c], ms });
	}
    }

  /* A timed lock that does not time out: the holder releases first.  */
  xpthread_rwlock_wrlock (&lock);
  struct attempt a = { false, CLOCK_MONOTONIC, 10000 };
  pthread_t th = xpthread_create (NULL, attempt_thread, &a);
  pf_sleep_ms (50);
  xpthread_rwlock_unlock (&lock);
  xpthread_join (th);
  TEST_COMPARE (a.result, 0);
  tst_tprw_check_idle (&lock);

  TEST_COMPARE (pthread_rwlock_destroy (&lock), 0);
  return 0;
}

#include <support/test-driver.c>
