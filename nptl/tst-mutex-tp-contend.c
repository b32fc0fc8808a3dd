/* TP mutex: mutual exclusion under contention for every kind.
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

/* Every thread increments the counter of one lock with a deliberately
   non-atomic read-delay-write sequence and checks that it owns the word
   inside the critical section.  Lost updates or a foreign owner mean the
   lock failed to exclude.  Lock, trylock, timedlock and clocklock are
   mixed so that all entry points contend with each other.  */

#include <time.h>
#include <support/timespec.h>
#include <support/xtime.h>
#include "tst-mutex-tp-common.h"

enum { NTHREADS = 4, ITERS = 20000 };

static pthread_mutex_t lock;
static volatile unsigned long int counter;
static int errors;
static pthread_barrier_t barrier;

static void
acquire (int i)
{
  struct timespec ts;
  switch (i % 4)
    {
    case 0:
      xpthread_mutex_lock (&lock);
      break;
    case 1:
      while (pthread_mutex_trylock (&lock) != 0)
	;
      break;
    case 2:
      ts = timespec_add (xclock_now (CLOCK_REALTIME), make_timespec (100, 0));
      TEST_COMPARE (pthread_mutex_timedlock (&lock, &ts), 0);
      break;
    case 3:
      ts = timespec_add (xclock_now (CLOCK_MONOTONIC),
			 make_timespec (100, 0));
      TEST_COMPARE (pthread_mutex_clocklock (&lock, CLOCK_MONOTONIC, &ts), 0);
      break;
    }
}

static void *
worker (void *arg)
{
  int recursive = (intptr_t) arg;
  xpthread_barrier_wait (&barrier);
  for (int i = 0; i < ITERS; i++)
    {
      acquire (i);
      if (recursive)
	xpthread_mutex_lock (&lock);
      if (!tst_tp_owned_by_self (&lock))
	__atomic_fetch_add (&errors, 1, __ATOMIC_RELAXED);
      unsigned long int c = counter;
      if (i % 64 == 0)
	sched_yield ();
      counter = c + 1;
      if (recursive)
	xpthread_mutex_unlock (&lock);
      xpthread_mutex_unlock (&lock);
    }
  return NULL;
}

static void
run (int type, bool robust, bool pshared)
{
  printf ("info: type %d robust %d pshared %d\n", type, robust, pshared);
  tst_tp_init (&lock, type, robust, pshared);
  counter = 0;
  errors = 0;
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    t[i] = xpthread_create (NULL, worker,
			    (void *) (intptr_t) (type
						 == PTHREAD_MUTEX_RECURSIVE));
  for (int i = 0; i < NTHREADS; i++)
    xpthread_join (t[i]);
  TEST_COMPARE (counter, (unsigned long int) NTHREADS * ITERS);
  TEST_COMPARE (errors, 0);
  TEST_COMPARE (tst_tp_word (&lock), 0);
  TEST_COMPARE (lock.__data.__nusers, 0);
  xpthread_mutex_destroy (&lock);
}

static int
do_test (void)
{
  xpthread_barrier_init (&barrier, NULL, NTHREADS);
  for (size_t i = 0; i < TST_TP_NTYPES; i++)
    for (int robust = 0; robust < 2; robust++)
      for (int pshared = 0; pshared < 2; pshared++)
	run (tst_tp_types[i], robust, pshared);
  xpthread_barrier_destroy (&barrier);
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
