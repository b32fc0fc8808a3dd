/* Phase-fair rwlock: writers are served in arrival order.
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
#include <stdint.h>
#include <pthread.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>

#include "tst-rwlock-pf-common.h"

enum { NWRITERS = 8 };
static pthread_rwlock_t lock;
static int order[NWRITERS];
static int norder;

static void *
writer (void *arg)
{
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  order[norder++] = (int) (intptr_t) arg;
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

/* More writers than the 32 places of the queue, some of them timing
   out: all untimed ones get the lock, one at a time.  */
enum { NMANY = 48 };
static unsigned int inside, overlaps, done;

static void *
many_writer (void *arg)
{
  int i = (int) (intptr_t) arg;
  for (int n = 0; n < 50; n++)
    {
      int err;
      if (i % 4 == 0)
	{
	  struct timespec abs = timespec_add (xclock_now (CLOCK_MONOTONIC),
					      make_timespec (0, 100000));
	  err = pthread_rwlock_clockwrlock (&lock, CLOCK_MONOTONIC, &abs);
	  TEST_VERIFY (err == 0 || err == ETIMEDOUT);
	}
      else
	err = pthread_rwlock_wrlock (&lock);
      if (err != 0)
	continue;
      if (__atomic_fetch_add (&inside, 1, __ATOMIC_RELAXED) != 0)
	__atomic_fetch_add (&overlaps, 1, __ATOMIC_RELAXED);
      __atomic_fetch_sub (&inside, 1, __ATOMIC_RELAXED);
      done++;
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
    }
  return NULL;
}

static void
test_many (void)
{
  pthread_t th[NMANY];
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  for (int i = 0; i < NMANY; i++)
    th[i] = xpthread_create (NULL, many_writer, (void *) (intptr_t) i);
  /* The queue fills up to its bound (timed writers leave it now and
     then); the others wait outside.  */
  PF_WAIT_UNTIL (pf_queued_writers (&lock) >= 28);
  for (int i = 0; i < 20; i++)
    {
      TEST_VERIFY (pf_queued_writers (&lock) <= 32);
      pf_sleep_ms (1);
    }
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  for (int i = 0; i < NMANY; i++)
    xpthread_join (th[i]);
  TEST_COMPARE (overlaps, 0);
  TEST_VERIFY (done >= 50 * (NMANY - NMANY / 4));
  pf_check_idle (&lock);
}

static int
do_test (void)
{
  pf_init (&lock, PTHREAD_PROCESS_PRIVATE);
  for (int round = 0; round < 3; round++)
    {
      pthread_t th[NWRITERS];
      norder = 0;
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      /* Start writer I only once writer I-1 holds its ticket.  */
      for (int i = 0; i < NWRITERS; i++)
	{
	  th[i] = xpthread_create (NULL, writer, (void *) (intptr_t) i);
	  PF_WAIT_UNTIL (pf_queued_writers (&lock) == i + 2);
	}
      /* Let them all fall asleep, so the wake-up order is the kernel's
	 and only the tickets keep the order.  */
      pf_sleep_ms (50);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      for (int i = 0; i < NWRITERS; i++)
	xpthread_join (th[i]);
      TEST_COMPARE (norder, NWRITERS);
      for (int i = 0; i < NWRITERS; i++)
	TEST_COMPARE (order[i], i);
      pf_check_idle (&lock);
    }
  test_many ();
  return 0;
}

#include <support/test-driver.c>
