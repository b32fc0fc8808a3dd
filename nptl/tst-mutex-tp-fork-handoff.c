/* TP mutex: fork while a hand-off registration is pending.
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

/* The main thread holds a process-private TP mutex and a requester
   thread waits for it past the hand-off threshold, so that it holds the
   registration (H1 in nptl/pthread_mutex_tp_lock.c).  Then a thread
   forks: the owner itself, or a third thread.  The child inherits the
   registration of a thread that does not exist in it (I8).  In the
   child, the forking thread unlocks the mutex held by the parent's
   owner (a normal or adaptive mutex may be unlocked by any thread, as
   glibc's own), which must drop the stale registration (H5) instead of
   handing the mutex to the absent requester; then the mutex must work:
   trylock, a hand-off to a requester of the child, and contention
   between two threads, every lock bounded by a timeout so that a lost
   mutex fails instead of hanging.  In the parent the registration is
   live: the owner's unlock hands the mutex to the requester.  */

#include <sched.h>
#include <stdint.h>
#include <sys/wait.h>
#include <support/timespec.h>
#include <support/xtime.h>
#include <support/xunistd.h>
#include "tst-mutex-tp-common.h"
#include "tst-tp-handoff.h"

/* The limit of every lock call in the child: a mutex that was handed to
   a thread that does not exist is never released.  */
enum { LOCK_LIMIT_S = 20, CHILD_ITERS = 2000 };

static pthread_mutex_t m;
static bool kernel;
/* The requester keeps the mutex until the unlocker has checked that it
   was handed over.  */
static pthread_barrier_t handed;

/* The hand-off word of M.  */
static const void *
handoff (void)
{
  return &m.__data.__spins;
}

/* Lock M, failing if that takes LOCK_LIMIT_S.  */
static void
lock_bounded (void)
{
  struct timespec limit = timespec_add (xclock_now (CLOCK_REALTIME),
					make_timespec (LOCK_LIMIT_S, 0));
  int r = pthread_mutex_timedlock (&m, &limit);
  if (r != 0)
    FAIL_EXIT1 ("lock in %d: %s (word %#x, hand-off %#x)", (int) gettid (),
		strerror (r), tst_tp_word (&m), tst_ho_load (handoff ()));
}

static void *
requester (void *arg)
{
  tst_ho_requester_started ();
  lock_bounded ();
  TEST_VERIFY (tst_tp_owned_by_self (&m));
  xpthread_barrier_wait (&handed);
  xpthread_mutex_unlock (&m);
  return NULL;
}

/* The owner of M hands it to the registered requester TID: right after
   the unlock the word names TID and the unlocker cannot take M back.  */
static void
unlock_to (pid_t tid)
{
  xpthread_mutex_unlock (&m);
  TEST_COMPARE (tst_tp_word (&m) & TST_TP_TID_MASK, (unsigned int) tid);
  TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
  xpthread_barrier_wait (&handed);
}

static void *
contender (void *arg)
{
  unsigned long int *counter = arg;
  for (int i = 0; i < CHILD_ITERS; i++)
    {
      lock_bounded ();
      unsigned long int c = *counter;
      if (i % 64 == 0)
	sched_yield ();
      *counter = c + 1;
      xpthread_mutex_unlock (&m);
    }
  return NULL;
}

/* In the child: the parent's owner holds M, and the hand-off word names
   STALE, a thread of the parent.  */
static void
child (pid_t stale)
{
  TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (handoff ()), (unsigned int) stale);

  /* The forking thread releases the parent owner's hold: the release
     sees FUTEX_WAITERS (the requester announced itself) and the
     registration, whose thread is not in this process.  */
  TEST_COMPARE (pthread_mutex_unlock (&m), 0);
  TEST_COMPARE (tst_tp_word (&m) & TST_TP_TID_MASK, 0);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (handoff ()), 0);
  TEST_COMPARE (pthread_mutex_trylock (&m), 0);
  TEST_VERIFY (tst_tp_owned_by_self (&m));

  /* A requester of the child registers and is served.  */
  pthread_t t;
  pid_t tid = tst_ho_start_requester (&t, requester, handoff (), kernel);
  unlock_to (tid);
  xpthread_join (t);

  /* Contention.  */
  unsigned long int counter = 0;
  t = xpthread_create (NULL, contender, &counter);
  contender (&counter);
  xpthread_join (t);
  TEST_COMPARE (counter, 2UL * CHILD_ITERS);
  TEST_COMPARE (tst_tp_word (&m), 0);
  TEST_VERIFY ((tst_ho_reg (handoff ()) & TST_HO_TID_MASK)
	       != (unsigned int) stale);
  lock_bounded ();
  xpthread_mutex_unlock (&m);
}

static void *
forker (void *arg)
{
  pid_t stale = (pid_t) (intptr_t) arg;
  return (void *) (intptr_t) tst_ho_fork_child (child, stale);
}

/* The owner forks (OWNER_FORKS) or a third thread does.  */
static void
fork_with_requester (int type, bool owner_forks)
{
  printf ("info: type %d, %s forks\n", type,
	  owner_forks ? "the owner" : "a third thread");
  tst_tp_init (&m, type, false, false);
  xpthread_mutex_lock (&m);
  pthread_t t;
  pid_t tid = tst_ho_start_requester (&t, requester, handoff (), kernel);

  pid_t pid;
  if (owner_forks)
    pid = tst_ho_fork_child (child, tid);
  else
    pid = (pid_t) (intptr_t) xpthread_join
      (xpthread_create (NULL, forker, (void *) (intptr_t) tid));

  /* The parent goes on: the registration is live, the requester gets
     the mutex.  */
  TEST_COMPARE (tst_ho_reg (handoff ()) & TST_HO_TID_MASK,
		kernel ? 0 : (unsigned int) tid);
  unlock_to (tid);
  xpthread_join (t);
  tst_ho_check_exit (pid);
  lock_bounded ();
  xpthread_mutex_unlock (&m);
  TEST_COMPARE (tst_tp_word (&m), 0);
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  kernel = tst_ho_kernel_path (TST_HO_OP_MUTEX);
  printf ("info: %s path, hand-off threshold %ld us\n",
	  kernel ? "kernel" : "user-space", tst_ho_threshold_us ());
  xpthread_barrier_init (&handed, NULL, 2);
  static const int types[] =
    { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_ADAPTIVE_NP };
  for (int i = 0; i < 2; i++)
    {
      fork_with_requester (types[i], true);
      fork_with_requester (types[i], false);
    }
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
