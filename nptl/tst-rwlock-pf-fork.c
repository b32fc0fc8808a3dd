/* Phase-fair rwlock: fork with the lock read-held, and the death of the
   process of a registered writer.
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

/* Fork with the lock read-held by the forking thread: in the child that
   thread releases its read lock and the lock works (writers and readers
   contend); the parent goes on.  Then, for a process-shared lock in
   shared memory held by this process for writing, a writer process
   waits for the writer role past the hand-off threshold, so that it
   holds the role's registration (the TP mutex's H1, tp-core.h), and is
   killed and reaped: the release of the role must drop the stale
   registration (the TP mutex's I8 and H5) instead of handing the role
   to the dead thread, and new processes must get the lock; also with a
   second, live writer waiting, which must then get the lock.  Every
   lock call is bounded by a timeout, so that a role lost to a stale
   registration fails instead of hanging.  The writer role is always
   served by the user-space TP core, whatever the kernel.

   Not tested: fork with the lock write-held, or with a writer of the
   parent holding or waiting for the writer role.  The writer is
   recognized by its TID (__cur_writer), which the forking thread's copy
   in the child does not have, as for glibc's own rwlock kinds; and a
   role or writer phase held by a thread of the parent is never released
   in the child.  So the stale registration of a parent's writer cannot
   be reached by a release in the child.  */

#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <support/xunistd.h>
#include "tst-rwlock-pf-common.h"
#include "tst-tp-handoff.h"

enum { LOCK_LIMIT_S = 20, CHILD_ITERS = 1000 };

/* The lock under test: PRIVATE_LOCK for the fork test (the child has
   its own copy), a lock in shared memory for the process-shared ones.  */
static pthread_rwlock_t private_lock;
static pthread_rwlock_t *shared_lock;
static pthread_rwlock_t *l;

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
    FAIL_EXIT1 ("%s lock in %d: %s (role %#x, hand-off %#x, RIN %#x)",
		reader ? "read" : "write", (int) gettid (), strerror (r),
		PF_T_ROLE (l), tst_ho_load (handoff ()), PF_T_READERS (l));
}

/* Writers bump the counter twice per critical section (odd inside),
   readers check that it is even and stays put.  */
static volatile unsigned int counter;
static unsigned int violations;

static void *
writer_loop (void *arg)
{
  for (int i = 0; i < CHILD_ITERS; i++)
    {
      lock_bounded (false);
      unsigned int c = counter;
      if (c % 2 != 0)
	__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED);
      counter = c + 1;
      if (i % 64 == 0)
	sched_yield ();
      counter = c + 2;
      xpthread_rwlock_unlock (l);
    }
  return NULL;
}

static void *
reader_loop (void *arg)
{
  for (int i = 0; i < CHILD_ITERS; i++)
    {
      lock_bounded (true);
      unsigned int c = counter;
      if (i % 64 == 0)
	sched_yield ();
      if (c % 2 != 0 || counter != c)
	__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED);
      xpthread_rwlock_unlock (l);
    }
  return NULL;
}

static void
fork_read_held (void)
{
  puts ("info: fork read-held");
  l = &private_lock;
  pf_init (l, PTHREAD_PROCESS_PRIVATE);
  lock_bounded (true);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      TEST_COMPARE (pthread_rwlock_trywrlock (l), EBUSY);
      TEST_COMPARE (pthread_rwlock_unlock (l), 0);
      pf_check_idle (l);
      counter = 0;
      pthread_t w = xpthread_create (NULL, writer_loop, NULL);
      pthread_t r = xpthread_create (NULL, reader_loop, NULL);
      writer_loop (NULL);
      xpthread_join (w);
      xpthread_join (r);
      TEST_COMPARE (counter, 4U * CHILD_ITERS);
      TEST_COMPARE (violations, 0);
      pf_check_idle (l);
      tst_ho_child_exit ();
    }
  /* The parent's read lock is its own.  */
  TEST_COMPARE (pthread_rwlock_trywrlock (l), EBUSY);
  xpthread_rwlock_unlock (l);
  tst_ho_check_exit (pid);
  pf_check_idle (l);
  xpthread_rwlock_destroy (l);
}

/* Fork a process that write-locks L, unlocks it, read-locks it,
   unlocks it and exits with the failure status of its checks.  */
static pid_t
fork_writer (void)
{
  pid_t pid = xfork ();
  if (pid == 0)
    {
      lock_bounded (false);
      TEST_COMPARE (pf_role_holder (l), gettid ());
      xpthread_rwlock_unlock (l);
      lock_bounded (true);
      xpthread_rwlock_unlock (l);
      tst_ho_child_exit ();
    }
  return pid;
}

/* This process write-locks the process-shared L; a writer process
   registers for the role and is killed.  If WITH_WAITER, a second
   writer process waits as well.  */
static void
writer_death (bool with_waiter)
{
  printf ("info: a registered writer process dies%s\n",
	  with_waiter ? ", another writer waits" : "");
  l = shared_lock;
  pf_init (l, PTHREAD_PROCESS_SHARED);
  lock_bounded (false);
  pid_t doomed = fork_writer ();
  tst_ho_wait_registered (handoff (), doomed, doomed, false);
  pid_t waiter = 0;
  if (with_waiter)
    {
      waiter = fork_writer ();
      tst_ho_wait_sleeping (waiter, waiter);
    }
  tst_ho_kill_child (doomed, true);
  TEST_COMPARE (tst_ho_reg (handoff ()), (unsigned int) doomed);

  xpthread_rwlock_unlock (l);
  if (with_waiter)
    tst_ho_check_exit (waiter);
  else
    {
      TEST_COMPARE (pf_role_holder (l), 0);
      TEST_COMPARE (tst_ho_reg (handoff ()), 0);
    }
  /* New processes get the lock.  */
  tst_ho_check_exit (fork_writer ());
  pf_check_idle (l);
  xpthread_rwlock_destroy (l);
}

static int
do_test (void)
{
  printf ("info: hand-off threshold %ld us (the writer role's: a fifth)\n",
	  tst_ho_threshold_us ());
  shared_lock = xmmap (NULL, sizeof (*shared_lock), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1);
  fork_read_held ();
  writer_death (false);
  writer_death (true);
  xmunmap (shared_lock, sizeof (*shared_lock));
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
