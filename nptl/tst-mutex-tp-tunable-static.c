/* The tunables reach statically initialized mutexes and rwlocks.
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

/* Runs with GLIBC_TUNABLES=glibc.pthread.mutex_protocol=3 and
   glibc.pthread.rwlock_kind=TST_RWLOCK_KIND (3 here, 4 in
   tst-mutex-tp-tunable-static4; see the Makefile).  A lock initialized
   by an initializer macro takes the tunable's kind at its first
   acquisition, through each acquiring entry point, also when several
   threads acquire it first at the same time; the locks that must keep
   their kind (process-shared, explicitly chosen) keep it.  */

#include "tst-mutex-tp-common.h"
#include <time.h>
#include <support/timespec.h>
#include <support/xtime.h>

#ifndef TST_RWLOCK_KIND
# define TST_RWLOCK_KIND PTHREAD_RWLOCK_PHASE_FAIR_NP
#endif

/* The TP bit of __kind (PTHREAD_MUTEX_THROUGHPUT_NP inside glibc).  */
#define TST_KIND_TP __PTHREAD_MUTEX_THROUGHPUT_KIND

static struct timespec
in_one_second (void)
{
  return timespec_add (xclock_now (CLOCK_REALTIME), make_timespec (1, 0));
}

/* Each acquiring entry point, on a mutex of each static kind.  */
static void
check_mutex_entry_points (void)
{
  pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
  xpthread_mutex_lock (&m1);
  TEST_VERIFY (tst_tp_owned_by_self (&m1));
  TEST_VERIFY (m1.__data.__kind & TST_KIND_TP);
  xpthread_mutex_unlock (&m1);
  TEST_COMPARE (tst_tp_word (&m1), 0);

  pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
  TEST_COMPARE (pthread_mutex_trylock (&m2), 0);
  TEST_VERIFY (tst_tp_owned_by_self (&m2));
  TEST_COMPARE (pthread_mutex_trylock (&m2), EBUSY);
  xpthread_mutex_unlock (&m2);

  pthread_mutex_t m3 = PTHREAD_MUTEX_INITIALIZER;
  struct timespec ts = in_one_second ();
  TEST_COMPARE (pthread_mutex_timedlock (&m3, &ts), 0);
  TEST_VERIFY (tst_tp_owned_by_self (&m3));
  xpthread_mutex_unlock (&m3);

  pthread_mutex_t m4 = PTHREAD_MUTEX_INITIALIZER;
  ts = timespec_add (xclock_now (CLOCK_MONOTONIC), make_timespec (1, 0));
  TEST_COMPARE (pthread_mutex_clocklock (&m4, CLOCK_MONOTONIC, &ts), 0);
  TEST_VERIFY (tst_tp_owned_by_self (&m4));
  xpthread_mutex_unlock (&m4);

  /* The other static types keep their type and become TP.  */
  pthread_mutex_t r = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
  xpthread_mutex_lock (&r);
  xpthread_mutex_lock (&r);
  TEST_VERIFY (tst_tp_owned_by_self (&r));
  TEST_VERIFY (r.__data.__kind & TST_KIND_TP);
  xpthread_mutex_unlock (&r);
  TEST_VERIFY (tst_tp_owned_by_self (&r));
  xpthread_mutex_unlock (&r);
  TEST_COMPARE (tst_tp_word (&r), 0);

  pthread_mutex_t e = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
  xpthread_mutex_lock (&e);
  TEST_VERIFY (tst_tp_owned_by_self (&e));
  TEST_COMPARE (pthread_mutex_lock (&e), EDEADLK);
  xpthread_mutex_unlock (&e);
  TEST_COMPARE (pthread_mutex_unlock (&e), EPERM);

  pthread_mutex_t a = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
  xpthread_mutex_lock (&a);
  TEST_VERIFY (tst_tp_owned_by_self (&a));
  xpthread_mutex_unlock (&a);

  /* A process-shared normal mutex (the kind a pthread_mutex_init in a
     process without the tunable leaves in shared memory) keeps the
     normal protocol: its word is 1 when locked without waiters.  */
  pthread_mutex_t p = PTHREAD_MUTEX_INITIALIZER;
  p.__data.__kind = 128;	/* PTHREAD_MUTEX_PSHARED_BIT.  */
  xpthread_mutex_lock (&p);
  TEST_COMPARE (tst_tp_word (&p), 1);
  xpthread_mutex_unlock (&p);
}

/* Several threads acquire one static mutex for the first time at once:
   they must all adopt it the same way (a thread on the normal protocol
   beside one on TP would break exclusion).  */
enum { nthreads = 4, rounds = 20000 };
static pthread_mutex_t race_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t race_rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t barrier;
static unsigned long int counter;
static volatile int inside;

static void *
race_thread (void *arg)
{
  bool use_rwlock = arg != NULL;
  xpthread_barrier_wait (&barrier);
  for (int i = 0; i < rounds; i++)
    {
      if (use_rwlock)
	xpthread_rwlock_wrlock (&race_rwlock);
      else
	xpthread_mutex_lock (&race_mutex);
      TEST_COMPARE (inside, 0);
      inside = 1;
      counter++;
      inside = 0;
      if (use_rwlock)
	xpthread_rwlock_unlock (&race_rwlock);
      else
	xpthread_mutex_unlock (&race_mutex);
    }
  return NULL;
}

static void
check_race (bool use_rwlock)
{
  pthread_t t[nthreads];
  counter = 0;
  xpthread_barrier_init (&barrier, NULL, nthreads);
  for (int i = 0; i < nthreads; i++)
    t[i] = xpthread_create (NULL, race_thread, use_rwlock ? &counter : NULL);
  for (int i = 0; i < nthreads; i++)
    xpthread_join (t[i]);
  xpthread_barrier_destroy (&barrier);
  TEST_COMPARE (counter, (unsigned long int) nthreads * rounds);
  if (use_rwlock)
    TEST_COMPARE (race_rwlock.__data.__flags, TST_RWLOCK_KIND);
  else
    TEST_VERIFY (race_mutex.__data.__kind & TST_KIND_TP);
}

/* A static mutex and condition variable: the wait unlocks and relocks
   the adopted mutex.  */
static pthread_mutex_t cond_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool ready;

static void *
cond_thread (void *arg)
{
  xpthread_mutex_lock (&cond_mutex);
  ready = true;
  xpthread_cond_signal (&cond);
  xpthread_mutex_unlock (&cond_mutex);
  return NULL;
}

static void
check_cond (void)
{
  xpthread_mutex_lock (&cond_mutex);
  pthread_t t = xpthread_create (NULL, cond_thread, NULL);
  while (!ready)
    xpthread_cond_wait (&cond, &cond_mutex);
  TEST_VERIFY (tst_tp_owned_by_self (&cond_mutex));
  xpthread_mutex_unlock (&cond_mutex);
  xpthread_join (t);
}

/* Each acquiring rwlock entry point adopts the tunable's kind.  */
static void
check_rwlock_entry_points (void)
{
  pthread_rwlock_t l[6];
  for (int i = 0; i < 6; i++)
    {
      pthread_rwlock_t init = PTHREAD_RWLOCK_INITIALIZER;
      l[i] = init;
    }
  struct timespec rt = in_one_second ();
  struct timespec mt = timespec_add (xclock_now (CLOCK_MONOTONIC),
				     make_timespec (1, 0));
  TEST_COMPARE (pthread_rwlock_rdlock (&l[0]), 0);
  TEST_COMPARE (pthread_rwlock_wrlock (&l[1]), 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&l[2]), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (&l[3]), 0);
  TEST_COMPARE (pthread_rwlock_timedrdlock (&l[4], &rt), 0);
  TEST_COMPARE (pthread_rwlock_clockwrlock (&l[5], CLOCK_MONOTONIC, &mt), 0);
  for (int i = 0; i < 6; i++)
    {
      TEST_COMPARE (l[i].__data.__flags, TST_RWLOCK_KIND);
      /* Held in either mode: a write lock must fail.  */
      TEST_COMPARE (pthread_rwlock_trywrlock (&l[i]), EBUSY);
      TEST_COMPARE (pthread_rwlock_unlock (&l[i]), 0);
      TEST_COMPARE (pthread_rwlock_trywrlock (&l[i]), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&l[i]), 0);
    }

  /* An rwlock whose attribute asked for kind 0 keeps it, with its
     recursive readers.  */
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init (&attr);
  TEST_COMPARE (pthread_rwlockattr_setkind_np
		(&attr, PTHREAD_RWLOCK_PREFER_READER_NP), 0);
  pthread_rwlock_t kept;
  TEST_COMPARE (pthread_rwlock_init (&kept, &attr), 0);
  TEST_COMPARE (pthread_rwlock_rdlock (&kept), 0);
  TEST_COMPARE (pthread_rwlock_rdlock (&kept), 0);
  TEST_COMPARE (kept.__data.__flags, PTHREAD_RWLOCK_PREFER_READER_NP);
  TEST_COMPARE (pthread_rwlock_unlock (&kept), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&kept), 0);
  TEST_COMPARE (pthread_rwlock_destroy (&kept), 0);
  pthread_rwlockattr_destroy (&attr);
}

static int
do_test (void)
{
  check_mutex_entry_points ();
  check_cond ();
  check_race (false);
  check_rwlock_entry_points ();
  check_race (true);
  return 0;
}

#include <support/test-driver.c>
