/* TP rwlock: fork with the lock read-held, and a pending hand-off
   registration outliving its requester.
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

/* Fork with the lock read-held by the forking thread, alone or with a
   writer of the parent waiting past the hand-off threshold (registered,
   H1 of nptl/pthread_mutex_tp_lock.c, which the TP rwlock shares): in
   the child the forking thread releases its read lock, which must drop
   the stale registration (I6 of nptl/pthread_rwlock_tp.c, H5) instead
   of handing the lock to the absent writer, and the lock must then work
   (a hand-off within the child, readers and writers contending); in the
   parent the writer gets the lock by hand-off.  Then, for a
   process-shared lock in shared memory, a requester process (a writer
   waiting for readers, or a reader waiting for a writer) is killed and
   reaped while registered: the release must drop its registration and a
   new process must get the lock.  Every lock call is bounded by a
   timeout, so that a lock lost to a stale registration fails instead of
   hanging.

   Not tested: fork with the lock write-held.  As for glibc's own rwlock
   kinds, the writer is recognized by its TID (__cur_writer), which the
   forking thread's copy in the child does not have; the child's unlock
   is taken for a reader's and fails with EPERM.  */

#include <stdint.h>
#include <sys/mman.h>
#include <support/xunistd.h>
#include "tst-rwlock-tp-common.h"
#include "tst-tp-handoff.h"

enum { LOCK_LIMIT_S = 20, CHILD_ITERS = 1000 };

/* The lock under test: PRIVATE_LOCK for the fork tests (the child has
   its own copy), a lock in shared memory for the process-shared ones.  */
static pthread_rwlock_t private_lock;
static pthread_rwlock_t *shared_lock;
static pthread_rwlock_t *l;
static bool kernel;
/* The writer keeps the lock until the unlocker has checked that it was
   handed over.  */
static pthread_barrier_t handed;

static const void *
handoff (void)
{
  return &l->__data.__writers;
}

/* Read-lock (READER) or write-lock L, failing if that takes
   LOCK_LIMIT_S.  */
static void
lock_bounded (bool reader)
{
  int r = tst_ho_rwlock_timed (l, reader, LOCK_LIMIT_S);
  if (r != 0)
    FAIL_EXIT1 ("%s lock in %d: %s (word %#x, hand-off %#x)",
		reader ? "read" : "write", (int) gettid (), strerror (r),
		tst_tprw_word (l), tst_ho_load (handoff ()));
}

static void *
writer (void *arg)
{
  tst_ho_requester_started ();
  lock_bounded (false);
  TEST_COMPARE (tst_tprw_word (l) & ~TST_TPRW_WAITERS,
		(unsigned int) gettid ());
  xpthread_barrier_wait (&handed);
  xpthread_rwlock_unlock (l);
  return NULL;
}

/* The last reader's unlock hands L to the registered writer TID.  */
static void
unlock_to (pid_t tid)
{
  xpthread_rwlock_unlock (l);
  TEST_COMPARE (tst_tprw_word (l) & ~TST_TPRW_WAITERS, (unsigned int) tid);
  TEST_COMPARE (pthread_rwlock_tryrdlock (l), EBUSY);
  xpthread_barrier_wait (&handed);
}

/* In the child: the forking thread holds a read lock; STALE is the
   registered writer of the parent, 0 if none.  */
static void
child (pid_t stale)
{
  TEST_COMPARE (pthread_rwlock_trywrlock (l), EBUSY);
  if (stale != 0 && !kernel)
    TEST_COMPARE (tst_ho_reg (handoff ()), (unsigned int) stale);
  TEST_COMPARE (pthread_rwlock_unlock (l), 0);
  TEST_COMPARE (tst_tprw_word (l) & ~TST_TPRW_WAITERS, 0);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (handoff ()), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (l), 0);

  /* A writer of the child registers and is served.  */
  lock_bounded (true);
  pthread_t t;
  pid_t tid = tst_ho_start_requester (&t, writer, handoff (), kernel);
  unlock_to (tid);
  xpthread_join (t);

  /* Contention: two writers and a reader.  */
  volatile unsigned int counter = 0;
  unsigned int violations = 0;
  struct tst_tprw_load load = { l, &counter, &violations, CHILD_ITERS };
  pthread_t w = xpthread_create (NULL, tst_tprw_writer, &load);
  pthread_t r = xpthread_create (NULL, tst_tprw_reader, &load);
  tst_tprw_writer (&load);
  xpthread_join (w);
  xpthread_join (r);
  TEST_COMPARE (counter, 4U * CHILD_ITERS);
  TEST_COMPARE (violations, 0);
  TEST_VERIFY (stale == 0
	       || (tst_ho_reg (handoff ()) & TST_HO_TID_MASK)
		  != (unsigned int) stale);
  tst_tprw_check_idle (l);
}

/* Fork with L read-held by the forking thread, with a registered writer
   if WITH_WRITER.  */
static void
fork_read_held (bool with_writer)
{
  printf ("info: fork read-held, %s\n",
	  with_writer ? "a writer registered" : "no waiter");
  l = &private_lock;
  tst_tprw_init (l, false);
  lock_bounded (true);
  pthread_t t;
  pid_t tid = 0;
  if (with_writer)
    tid = tst_ho_start_requester (&t, writer, handoff (), kernel);
  pid_t pid = tst_ho_fork_child (child, tid);
  if (with_writer)
    {
      unlock_to (tid);
      xpthread_join (t);
    }
  else
    xpthread_rwlock_unlock (l);
  tst_ho_check_exit (pid);
  tst_tprw_check_idle (l);
  xpthread_rwlock_destroy (l);
}

/* A process-shared L is held by this process (for reading unless
   READER, the requester's side, is true) and a child process that
   waits for it (as a reader if READER) registers and is killed.  The
   unlock comes after it was reaped if REAP, else while it is a zombie,
   which the liveness check must see as dead too.  */
static void
requester_death (bool reader, bool reap)
{
  printf ("info: a %s requester process dies, %s before the unlock\n",
	  reader ? "reader" : "writer", reap ? "reaped" : "a zombie");
  l = shared_lock;
  tst_tprw_init (l, true);
  lock_bounded (!reader);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      lock_bounded (reader);
      _exit (0);
    }
  tst_ho_wait_registered (handoff (), pid, pid, kernel);
  tst_ho_kill_child (pid, reap);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (handoff ()) & TST_HO_TID_MASK,
		  (unsigned int) pid);

  xpthread_rwlock_unlock (l);
  TEST_COMPARE (tst_tprw_word (l) & ~TST_TPRW_WAITERS, 0);
  if (!kernel)
    TEST_COMPARE (tst_ho_reg (handoff ()), 0);
  if (!reap)
    tst_ho_kill_child (pid, true);

  /* A new process gets the lock, in both modes.  */
  pid = xfork ();
  if (pid == 0)
    {
      lock_bounded (false);
      xpthread_rwlock_unlock (l);
      lock_bounded (true);
      xpthread_rwlock_unlock (l);
      tst_ho_child_exit ();
    }
  tst_ho_check_exit (pid);
  tst_tprw_check_idle (l);
  xpthread_rwlock_destroy (l);
}

static int
do_test (void)
{
  kernel = tst_ho_kernel_path (TST_HO_OP_RWLOCK);
  printf ("info: %s path, glibc.pthread.mutex_tp_handoff_us %ld\n",
	  kernel ? "kernel" : "user-space", tst_ho_threshold_us ());
  xpthread_barrier_init (&handed, NULL, 2);
  shared_lock = xmmap (NULL, sizeof (*shared_lock), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1);
  fork_read_held (false);
  fork_read_held (true);
  for (int reap = 0; reap < 2; reap++)
    {
      requester_death (false, reap);
      requester_death (true, reap);
    }
  xmunmap (shared_lock, sizeof (*shared_lock));
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
