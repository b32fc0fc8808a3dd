/* TP mutex: condition variables (wait, timedwait, broadcast).
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

/* A bounded queue of one slot between producers and consumers, which
   exercises __pthread_mutex_cond_lock (the NO_INCR lock used after a
   wait) and the unlock inside pthread_cond_wait.  The sum of consumed
   items and __nusers at the end are checked.  */

#include <time.h>
#include <support/timespec.h>
#include <support/xtime.h>
#include "tst-mutex-tp-common.h"

enum { NPROD = 2, NCONS = 2, ITEMS = 5000 };

static pthread_mutex_t m;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int slot;
static bool full;
static unsigned long int sum;
static int consumed;

static void *
producer (void *arg)
{
  for (int i = 1; i <= ITEMS; i++)
    {
      xpthread_mutex_lock (&m);
      while (full)
	xpthread_cond_wait (&cv, &m);
      TEST_VERIFY (tst_tp_owned_by_self (&m));
      slot = i;
      full = true;
      TEST_COMPARE (pthread_cond_broadcast (&cv), 0);
      xpthread_mutex_unlock (&m);
    }
  return NULL;
}

static void *
consumer (void *arg)
{
  for (;;)
    {
      xpthread_mutex_lock (&m);
      while (!full && consumed < NPROD * ITEMS)
	{
	  /* Alternate plain and timed waits on both clocks.  */
	  struct timespec ts = timespec_add (xclock_now (CLOCK_MONOTONIC),
					     make_timespec (0, 1000000));
	  int r = pthread_cond_clockwait (&cv, &m, CLOCK_MONOTONIC, &ts);
	  TEST_VERIFY (r == 0 || r == ETIMEDOUT);
	  TEST_VERIFY (tst_tp_owned_by_self (&m));
	}
      if (consumed == NPROD * ITEMS)
	{
	  xpthread_mutex_unlock (&m);
	  return NULL;
	}
      sum += slot;
      full = false;
      consumed++;
      TEST_COMPARE (pthread_cond_broadcast (&cv), 0);
      xpthread_mutex_unlock (&m);
    }
}

static void
run (int type)
{
  printf ("info: type %d\n", type);
  tst_tp_init (&m, type, false, false);
  sum = 0;
  consumed = 0;
  full = false;
  pthread_t p[NPROD], c[NCONS];
  for (int i = 0; i < NCONS; i++)
    c[i] = xpthread_create (NULL, consumer, NULL);
  for (int i = 0; i < NPROD; i++)
    p[i] = xpthread_create (NULL, producer, NULL);
  for (int i = 0; i < NPROD; i++)
    xpthread_join (p[i]);
  xpthread_mutex_lock (&m);
  TEST_COMPARE (pthread_cond_broadcast (&cv), 0);
  xpthread_mutex_unlock (&m);
  for (int i = 0; i < NCONS; i++)
    xpthread_join (c[i]);
  TEST_COMPARE (sum, (unsigned long int) NPROD * ITEMS * (ITEMS + 1) / 2);
  TEST_COMPARE (m.__data.__nusers, 0);

  /* pthread_cond_timedwait with a TP mutex times out and relocks.  */
  xpthread_mutex_lock (&m);
  struct timespec ts = timespec_add (xclock_now (CLOCK_REALTIME),
				     make_timespec (0, 20000000));
  TEST_COMPARE (pthread_cond_timedwait (&cv, &m, &ts), ETIMEDOUT);
  TEST_VERIFY (tst_tp_owned_by_self (&m));
  TEST_COMPARE (m.__data.__nusers, 1);
  xpthread_mutex_unlock (&m);
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  run (PTHREAD_MUTEX_NORMAL);
  run (PTHREAD_MUTEX_ERRORCHECK);
  run (PTHREAD_MUTEX_ADAPTIVE_NP);
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
