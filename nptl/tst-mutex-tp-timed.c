/* TP mutex: timedlock and clocklock on both clocks.
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

#include <time.h>
#include <support/timespec.h>
#include <support/xtime.h>
#include "tst-mutex-tp-common.h"

static pthread_mutex_t m;

/* -1 timedlock, else the clock of clocklock.  */
static int
timed (int clk, const struct timespec *ts)
{
  if (clk < 0)
    return pthread_mutex_timedlock (&m, ts);
  return pthread_mutex_clocklock (&m, clk, ts);
}

static void *
waiter (void *arg)
{
  int clk = (intptr_t) arg;
  clockid_t c = clk < 0 ? CLOCK_REALTIME : clk;

  /* Held by the main thread: must time out after >= 100 ms.  */
  struct timespec start = xclock_now (c);
  struct timespec ts = timespec_add (start, make_timespec (0, 100000000));
  TEST_COMPARE (timed (clk, &ts), ETIMEDOUT);
  TEST_TIMESPEC_NOW_OR_AFTER (c, ts);
  TEST_VERIFY (!tst_tp_owned_by_self (&m));

  /* Already expired: ETIMEDOUT at once.  */
  ts = timespec_sub (xclock_now (c), make_timespec (1, 0));
  TEST_COMPARE (timed (clk, &ts), ETIMEDOUT);

  /* Invalid nanoseconds while the mutex is busy: EINVAL.  */
  ts = xclock_now (c);
  ts.tv_nsec = 1000000000;
  TEST_COMPARE (timed (clk, &ts), EINVAL);

  /* The owner unlocks after about 100 ms: success well before the
     deadline.  */
  ts = timespec_add (xclock_now (c), make_timespec (60, 0));
  TEST_COMPARE (timed (clk, &ts), 0);
  TEST_VERIFY (tst_tp_owned_by_self (&m));
  xpthread_mutex_unlock (&m);
  return NULL;
}

/* Unlock M, owned by another thread, after 100 ms.  */
static void *
unlocker (void *arg)
{
  struct timespec d = { 0, 100000000 };
  nanosleep (&d, NULL);
  xpthread_mutex_unlock (&m);
  return NULL;
}

static void
run (int type, int clk)
{
  printf ("info: type %d clock %d\n", type, clk);
  tst_tp_init (&m, type, type == PTHREAD_MUTEX_ERRORCHECK, false);

  /* Free mutex: the timeout is not looked at, even if invalid.  */
  struct timespec bad = { 0, -1 };
  TEST_COMPARE (timed (clk, &bad), 0);
  xpthread_mutex_unlock (&m);

  xpthread_mutex_lock (&m);
  if (type == PTHREAD_MUTEX_ERRORCHECK)
    TEST_COMPARE (timed (clk, &bad), EDEADLK);
  pthread_t t = xpthread_create (NULL, waiter, (void *) (intptr_t) clk);
  /* Let the waiter time out twice and report EINVAL, then release.  */
  struct timespec d = { 0, 300000000 };
  nanosleep (&d, NULL);
  xpthread_mutex_unlock (&m);
  xpthread_join (t);
  TEST_COMPARE (tst_tp_word (&m), 0);

  /* A normal mutex relocked by its owner deadlocks: a timed relock
     times out.  */
  if (type == PTHREAD_MUTEX_NORMAL)
    {
      xpthread_mutex_lock (&m);
      clockid_t c = clk < 0 ? CLOCK_REALTIME : clk;
      struct timespec ts = timespec_add (xclock_now (c),
					 make_timespec (0, 50000000));
      TEST_COMPARE (timed (clk, &ts), ETIMEDOUT);

      /* Unless another thread unlocks it, which a normal mutex allows:
	 the relock then succeeds, well before its deadline (on the
	 kernel path the owner looks at the word at growing intervals,
	 at most 128 ms apart).  */
      pthread_t t = xpthread_create (NULL, unlocker, NULL);
      struct timespec start = xclock_now (c);
      ts = timespec_add (start, make_timespec (60, 0));
      TEST_COMPARE (timed (clk, &ts), 0);
      struct timespec took = timespec_sub (xclock_now (c), start);
      TEST_VERIFY (took.tv_sec < 10);
      TEST_VERIFY (tst_tp_owned_by_self (&m));
      xpthread_join (t);
      xpthread_mutex_unlock (&m);
    }
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  static const int clocks[] = { -1, CLOCK_MONOTONIC, CLOCK_REALTIME };
  for (int i = 0; i < 3; i++)
    {
      run (PTHREAD_MUTEX_NORMAL, clocks[i]);
      run (PTHREAD_MUTEX_ERRORCHECK, clocks[i]);
    }
  /* An unsupported clock.  */
  tst_tp_init (&m, PTHREAD_MUTEX_NORMAL, false, false);
  struct timespec ts = xclock_now (CLOCK_REALTIME);
  TEST_COMPARE (pthread_mutex_clocklock (&m, CLOCK_PROCESS_CPUTIME_ID, &ts),
		EINVAL);
  xpthread_mutex_destroy (&m);
  return 0;
}

#include <support/test-driver.c>
