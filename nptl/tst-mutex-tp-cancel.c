/* TP mutex, TP and phase-fair rwlocks: cancellation of waiters.
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

/* 1. pthread_cond_wait and pthread_cond_timedwait are cancellation
      points.  A thread cancelled while it waits on a condition variable
      with a TP mutex runs its cleanup handlers with the mutex locked
      again (POSIX), here with the TP word holding its TID; the handler
      unlocks it, and the mutex is then free and usable.  Every mutex
      type is checked.
   2. pthread_mutex_lock and the rwlock lock functions are not
      cancellation points.  A cancellation request sent to a thread
      blocked in one of them (on the kernel path, a signal that
      interrupts FUTEX_LOCK; on the user-space path, the futex wait)
      must not end the wait nor lose the lock: the thread acquires the
      lock once it is released, and acts on the request only at its next
      cancellation point.  */

#include "tst-mutex-tp-common.h"
#include <stdint.h>
#include <support/xtime.h>
#include <support/timespec.h>

static pthread_mutex_t mutex;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t barrier;

/* Set by the cleanup handler: the mutex was owned by the cancelled
   thread when the handler ran.  */
static int owned_in_cleanup;
static int cleanup_ran;

static void
cleanup (void *arg)
{
  cleanup_ran = 1;
  owned_in_cleanup = tst_tp_owned_by_self (&mutex);
  xpthread_mutex_unlock (&mutex);
}

static void *
cond_waiter (void *arg)
{
  bool timed = arg != NULL;
  xpthread_mutex_lock (&mutex);
  pthread_cleanup_push (cleanup, NULL);
  xpthread_barrier_wait (&barrier);
  struct timespec ts = timespec_add (xclock_now (CLOCK_REALTIME),
				     make_timespec (3600, 0));
  /* No predicate: only the cancellation ends this.  */
  while (1)
    if (timed)
      pthread_cond_timedwait (&cond, &mutex, &ts);
    else
      pthread_cond_wait (&cond, &mutex);
  pthread_cleanup_pop (0);
  return NULL;
}

static void
check_cond_cancel (int type, bool timed)
{
  tst_tp_init (&mutex, type, false, false);
  xpthread_barrier_init (&barrier, NULL, 2);
  cleanup_ran = owned_in_cleanup = 0;
  pthread_t t = xpthread_create (NULL, cond_waiter, timed ? &mutex : NULL);
  xpthread_barrier_wait (&barrier);
  /* The waiter has the mutex until it waits: once we get it, the
     waiter is in the condition wait (or about to be, past the unlock,
     where the cancellation acts all the same).  */
  xpthread_mutex_lock (&mutex);
  xpthread_mutex_unlock (&mutex);
  xpthread_cancel (t);
  TEST_VERIFY (xpthread_join (t) == PTHREAD_CANCELED);
  TEST_COMPARE (cleanup_ran, 1);
  TEST_COMPARE (owned_in_cleanup, 1);
  /* The handler released it: free, and usable.  */
  TEST_COMPARE (tst_tp_word (&mutex), 0);
  TEST_COMPARE (pthread_mutex_trylock (&mutex), 0);
  xpthread_mutex_unlock (&mutex);
  xpthread_barrier_destroy (&barrier);
  xpthread_mutex_destroy (&mutex);
}

/* Part 2.  */
enum op { op_mutex, op_rd, op_wr };
static pthread_rwlock_t rwlock;
/* Set by the blocked thread once it holds the lock; read by the main
   thread after the join (ordered by it).  */
static int acquired;

static void *
lock_waiter (void *arg)
{
  enum op op = (enum op) (uintptr_t) arg;
  xpthread_barrier_wait (&barrier);
  if (op == op_mutex)
    TEST_COMPARE (pthread_mutex_lock (&mutex), 0);
  else if (op == op_rd)
    TEST_COMPARE (pthread_rwlock_rdlock (&rwlock), 0);
  else
    TEST_COMPARE (pthread_rwlock_wrlock (&rwlock), 0);
  acquired = 1;
  if (op == op_mutex)
    xpthread_mutex_unlock (&mutex);
  else
    xpthread_rwlock_unlock (&rwlock);
  /* The pending request acts here.  */
  pthread_testcancel ();
  FAIL_EXIT1 ("cancellation request lost");
  return NULL;
}

static void
check_lock_cancel (enum op op, const char *what)
{
  xpthread_barrier_init (&barrier, NULL, 2);
  acquired = 0;
  pthread_t t = xpthread_create (NULL, lock_waiter, (void *) (uintptr_t) op);
  xpthread_barrier_wait (&barrier);
  usleep (50000);		/* Let it block.  */
  xpthread_cancel (t);
  usleep (50000);		/* The request arrives during the wait.  */
  if (op == op_mutex)
    xpthread_mutex_unlock (&mutex);
  else
    xpthread_rwlock_unlock (&rwlock);
  TEST_VERIFY (xpthread_join (t) == PTHREAD_CANCELED);
  TEST_COMPARE (acquired, 1);
  xpthread_barrier_destroy (&barrier);
  printf ("%s: cancellation request during the wait: acquired, then"
	  " cancelled at the next cancellation point\n", what);
}

static void
check_rwlock_cancel (int kind, const char *name)
{
  pthread_rwlockattr_t a;
  TEST_COMPARE (pthread_rwlockattr_init (&a), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&a, kind), 0);
  TEST_COMPARE (pthread_rwlock_init (&rwlock, &a), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&a), 0);
  char what[64];
  xpthread_rwlock_wrlock (&rwlock);
  snprintf (what, sizeof what, "%s rdlock", name);
  check_lock_cancel (op_rd, what);
  xpthread_rwlock_rdlock (&rwlock);
  snprintf (what, sizeof what, "%s wrlock", name);
  check_lock_cancel (op_wr, what);
  TEST_COMPARE (pthread_rwlock_trywrlock (&rwlock), 0);
  xpthread_rwlock_unlock (&rwlock);
  TEST_COMPARE (pthread_rwlock_destroy (&rwlock), 0);
}

static int
do_test (void)
{
  for (size_t i = 0; i < TST_TP_NTYPES; i++)
    {
      check_cond_cancel (tst_tp_types[i], false);
      check_cond_cancel (tst_tp_types[i], true);
    }

  tst_tp_init (&mutex, PTHREAD_MUTEX_NORMAL, false, false);
  xpthread_mutex_lock (&mutex);
  check_lock_cancel (op_mutex, "TP mutex lock");
  TEST_COMPARE (pthread_mutex_trylock (&mutex), 0);
  xpthread_mutex_unlock (&mutex);
  xpthread_mutex_destroy (&mutex);

  check_rwlock_cancel (PTHREAD_RWLOCK_TP_NP, "TP rwlock");
  check_rwlock_cancel (PTHREAD_RWLOCK_PHASE_FAIR_NP, "phase-fair rwlock");
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
