/* Process-shared rwlock tests: two processes that block on each other.
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

#ifndef TST_RWLOCK_PSHARED_RUN_H
#define TST_RWLOCK_PSHARED_RUN_H 1

#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <support/check.h>
#include <support/xunistd.h>
#include "tst-rwlock-pf-common.h"

/* What the two processes share, in a MAP_SHARED mapping: the lock, the
   counter its critical sections update, the number of inconsistencies
   seen inside them, and the child's "about to block" flag.  */
struct tst_pshared
{
  pthread_rwlock_t lock;
  volatile unsigned int counter;
  unsigned int violations;
  unsigned int child_waiting;
};

static struct tst_pshared *
tst_pshared_map (void)
{
  return xmmap (NULL, sizeof (struct tst_pshared), PROT_READ | PROT_WRITE,
		MAP_SHARED | MAP_ANONYMOUS, -1);
}

/* Run the two processes on S, whose lock the caller initialized as
   PTHREAD_PROCESS_SHARED.  First they sleep on each other: the parent
   holds the write lock while the child blocks in rdlock, then in
   wrlock; the parent unlocks once CHILD_BLOCKED (&S->lock) says the
   child waits, and 100 ms more so that it sleeps.  Then both run
   WORK (S, SELF), SELF being 0 in the parent and 1 in the child, and the
   child's result becomes part of the test's.  */
static void
tst_pshared_run (struct tst_pshared *s,
		 bool (*child_blocked) (pthread_rwlock_t *),
		 void (*work) (struct tst_pshared *, int))
{
  TEST_COMPARE (pthread_rwlock_wrlock (&s->lock), 0);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      __atomic_store_n (&s->child_waiting, 1, __ATOMIC_RELAXED);
      TEST_COMPARE (pthread_rwlock_rdlock (&s->lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
      TEST_COMPARE (pthread_rwlock_wrlock (&s->lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
      work (s, 1);
      _exit (support_record_failure_is_failed () ? 1 : 0);
    }
  PF_WAIT_UNTIL (__atomic_load_n (&s->child_waiting, __ATOMIC_RELAXED));
  PF_WAIT_UNTIL (child_blocked (&s->lock));
  pf_sleep_ms (100);
  TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
  work (s, 0);
  int status;
  xwaitpid (pid, &status, 0);
  TEST_VERIFY (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  TEST_COMPARE (s->violations, 0);
}

#endif /* tst-rwlock-pshared-run.h */
