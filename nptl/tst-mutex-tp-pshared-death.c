/* TP mutex: death of the process of a registered hand-off requester.
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

/* A process-shared TP mutex in shared memory, held by this process.  A
   child process waits for it past the hand-off threshold, so that it
   holds the registration (H1 in nptl/pthread_mutex_tp_lock.c), and is
   killed with SIGKILL and reaped.  The registration has outlived its
   requester (I8): the owner's unlock must drop it (H5) and release the
   mutex (U1) instead of handing it to the dead thread.  Then a new
   process must get the mutex, both uncontended and by a hand-off of its
   own.  Every lock call is bounded by a timeout, so that a mutex lost to
   the dead thread fails instead of hanging.  Normal and robust mutexes:
   the requester owned nothing, so its death is no owner death and no
   one gets EOWNERDEAD.

   The unlock comes both after the requester was reaped and while it is
   still a zombie (killed, not yet waited for): tkill with signal 0
   accepts a zombie, so the liveness check must look at its state as
   well.  */

#include <sys/mman.h>
#include <support/timespec.h>
#include <support/xtime.h>
#include <support/xunistd.h>
#include "tst-mutex-tp-common.h"
#include "tst-tp-handoff.h"

enum { LOCK_LIMIT_S = 20 };

static pthread_mutex_t *m;
static bool kernel;

/* Initialize M as a process-shared TP mutex, robust if ROBUST.  Returns
   false if robust mutexes are not supported (qemu-user has no robust
   list).  */
static bool
init (bool robust)
{
  pthread_mutexattr_t a;
  xpthread_mutexattr_init (&a);
  xpthread_mutexattr_setprotocol (&a, PTHREAD_THROUGHPUT_NP);
  xpthread_mutexattr_setpshared (&a, PTHREAD_PROCESS_SHARED);
  if (robust)
    xpthread_mutexattr_setrobust (&a, PTHREAD_MUTEX_ROBUST);
  int r = pthread_mutex_init (m, &a);
  xpthread_mutexattr_destroy (&a);
  if (r == ENOTSUP && robust)
    {
      puts ("info: robust mutexes not supported, skipped");
      return false;
    }
  TEST_COMPARE (r, 0);
  return r == 0;
}

static int
lock_bounded (void)
{
  struct timespec limit = timespec_add (xclock_now (CLOCK_REALTIME),
					make_timespec (LOCK_LIMIT_S, 0));
  return pthread_mutex_timedlock (m, &limit);
}

/* Fork a process that locks M, unlocks it and exits with the failure
   status of its checks.  If HOLD is not -1, the process keeps M until
   it reads a byte from HOLD.  */
static pid_t
fork_locker (int hold)
{
  pid_t pid = xfork ();
  if (pid == 0)
    {
      int r = lock_bounded ();
      if (r != 0)
	FAIL_EXIT1 ("lock in the child: %s (word %#x, hand-off %#x)",
		    strerror (r), tst_tp_word (m),
		    tst_ho_load (&m->__data.__spins));
      TEST_VERIFY (tst_tp_owned_by_self (m));
      char c;
      if (hold != -1)
	TEST_VERIFY (read (hold, &c, 1) >= 0);
      xpthread_mutex_unlock (m);
      tst_ho_child_exit ();
    }
  return pid;
}

static void
check_requester_death (bool robust, bool reap)
{
  printf ("info: robust %d, requester %s before the unlock\n", robust,
	  reap ? "reaped" : "a zombie");
  if (!init (robust))
    return;

  TEST_COMPARE (lock_bounded (), 0);
  pid_t pid = fork_locker (-1);
  tst_ho_wait_registered (&m->__data.__spins, pid, pid, kernel);
  tst_ho_kill_child (pid, reap);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (&m->__data.__spins), (unsigned int) pid);

  /* The release sees FUTEX_WAITERS (set by the requester before it
     slept) and a registration whose thread is gone or a zombie.  */
  xpthread_mutex_unlock (m);
  TEST_COMPARE (tst_tp_word (m) & TST_TP_TID_MASK, 0);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (&m->__data.__spins), 0);
  if (!reap)
    tst_ho_kill_child (pid, true);

  /* A new process gets the mutex.  */
  tst_ho_check_exit (fork_locker (-1));
  TEST_COMPARE (tst_tp_word (m) & TST_TP_TID_MASK, 0);

  /* A new requester is served by hand-off.  It keeps the mutex until
     it reads from the pipe.  */
  int hold[2];
  xpipe (hold);
  TEST_COMPARE (lock_bounded (), 0);
  pid = fork_locker (hold[0]);
  tst_ho_wait_registered (&m->__data.__spins, pid, pid, kernel);
  xpthread_mutex_unlock (m);
  TEST_COMPARE (tst_tp_word (m) & TST_TP_TID_MASK, (unsigned int) pid);
  TEST_COMPARE (pthread_mutex_trylock (m), EBUSY);
  TEST_COMPARE (write (hold[1], "", 1), 1);
  tst_ho_check_exit (pid);
  xclose (hold[0]);
  xclose (hold[1]);

  /* And this process again.  */
  TEST_COMPARE (lock_bounded (), 0);
  xpthread_mutex_unlock (m);
  TEST_COMPARE (tst_tp_word (m), 0);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (&m->__data.__spins), 0);
  xpthread_mutex_destroy (m);
}

/* The requester is killed while a second waiter of another process also
   sleeps on the mutex: the release that drops the dead registration
   wakes the live waiter, which gets the mutex.  */
static void
check_death_with_waiter (bool robust)
{
  printf ("info: robust %d, with a second waiter\n", robust);
  if (!init (robust))
    return;

  TEST_COMPARE (lock_bounded (), 0);
  pid_t doomed = fork_locker (-1);
  tst_ho_wait_registered (&m->__data.__spins, doomed, doomed, kernel);
  pid_t waiter = fork_locker (-1);
  tst_ho_wait_sleeping (waiter, waiter);
  tst_ho_kill_child (doomed, true);

  xpthread_mutex_unlock (m);
  tst_ho_check_exit (waiter);
  TEST_COMPARE (lock_bounded (), 0);
  xpthread_mutex_unlock (m);
  TEST_COMPARE (tst_tp_word (m), 0);
  xpthread_mutex_destroy (m);
}

static int
do_test (void)
{
  kernel = tst_ho_kernel_path (TST_HO_OP_MUTEX);
  printf ("info: %s path, hand-off threshold %ld us\n",
	  kernel ? "kernel" : "user-space", tst_ho_threshold_us ());
  m = xmmap (NULL, sizeof (*m), PROT_READ | PROT_WRITE,
	     MAP_SHARED | MAP_ANONYMOUS, -1);
  /* On the 32-bit layouts the user-space path has no hand-off for
     robust mutexes (the manual's TP mutex limitations): their hand-off
     word would be the robust list's link.  */
  bool robust_handoff = kernel || __PTHREAD_MUTEX_HAVE_PREV;
  if (!robust_handoff)
    puts ("info: robust: no hand-off for robust mutexes on this layout, "
	  "not checked");
  for (int robust = 0; robust <= robust_handoff; robust++)
    {
      check_requester_death (robust, true);
      check_requester_death (robust, false);
      check_death_with_waiter (robust);
    }
  xmunmap (m, sizeof (*m));
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
