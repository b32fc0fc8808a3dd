/* TP rwlock: PTHREAD_PROCESS_SHARED between two processes.
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

#include <sys/mman.h>
#include <sys/wait.h>
#include <support/xunistd.h>
#include "tst-rwlock-tp-common.h"

/* The lock and its counter live in a MAP_SHARED mapping; parent and
   child each run a writer and a reader thread on it, and they block on
   each other, which needs shared futexes.  */
struct shared
{
  pthread_rwlock_t lock;
  volatile unsigned int counter;
  unsigned int violations;
  unsigned int child_waiting;
};

enum { ITERS = 10000 };

static void
work (struct shared *s)
{
  struct tst_tprw_load load = { &s->lock, &s->counter, &s->violations,
				ITERS };
  pthread_t w = xpthread_create (NULL, tst_tprw_writer, &load);
  pthread_t r = xpthread_create (NULL, tst_tprw_reader, &load);
  xpthread_join (w);
  xpthread_join (r);
}

static int
do_test (void)
{
  struct shared *s = xmmap (NULL, sizeof *s, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1);
  tst_tprw_init (&s->lock, true);

  /* Sleeping across processes: the parent holds the write lock while
     the child blocks in rdlock and then wrlock.  */
  TEST_COMPARE (pthread_rwlock_wrlock (&s->lock), 0);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      __atomic_store_n (&s->child_waiting, 1, __ATOMIC_RELAXED);
      TEST_COMPARE (pthread_rwlock_rdlock (&s->lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
      TEST_COMPARE (pthread_rwlock_wrlock (&s->lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
      work (s);
      _exit (support_record_failure_is_failed () ? 1 : 0);
    }
  PF_WAIT_UNTIL (__atomic_load_n (&s->child_waiting, __ATOMIC_RELAXED));
  /* The child announces itself (FUTEX_WAITERS) before it sleeps.  */
  PF_WAIT_UNTIL ((tst_tprw_word (&s->lock) & TST_TPRW_WAITERS) != 0);
  pf_sleep_ms (100);
  TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
  work (s);
  int status;
  xwaitpid (pid, &status, 0);
  TEST_VERIFY (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  TEST_COMPARE (s->violations, 0);
  TEST_COMPARE (s->counter, 2 * 2 * ITERS);
  tst_tprw_check_idle (&s->lock);
  xmunmap (s, sizeof *s);
  return 0;
}

#include <support/test-driver.c>
