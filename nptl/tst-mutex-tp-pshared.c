/* TP mutex: process-shared between processes, and fork.
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
#include <sys/single_threaded.h>
#include <sys/wait.h>
#include <support/xunistd.h>
#include "tst-mutex-tp-common.h"

enum { ITERS = 50000 };

struct shared
{
  pthread_mutex_t m;
  volatile unsigned long int counter;
  int errors;
};

static struct shared *sh;

static void
hammer (void)
{
  for (int i = 0; i < ITERS; i++)
    {
      xpthread_mutex_lock (&sh->m);
      if (!tst_tp_owned_by_self (&sh->m))
	__atomic_fetch_add (&sh->errors, 1, __ATOMIC_RELAXED);
      unsigned long int c = sh->counter;
      if (i % 128 == 0)
	sched_yield ();
      sh->counter = c + 1;
      xpthread_mutex_unlock (&sh->m);
    }
}

static void
two_processes (int type, bool robust)
{
  printf ("info: type %d robust %d\n", type, robust);
  tst_tp_init (&sh->m, type, robust, true);
  sh->counter = 0;
  sh->errors = 0;
  pid_t pid = xfork ();
  hammer ();
  if (pid == 0)
    _exit (0);
  int status;
  xwaitpid (pid, &status, 0);
  TEST_COMPARE (status, 0);
  TEST_COMPARE (sh->counter, 2UL * ITERS);
  TEST_COMPARE (sh->errors, 0);
  TEST_COMPARE (tst_tp_word (&sh->m), 0);
  xpthread_mutex_destroy (&sh->m);
}

static void *
contender (void *arg)
{
  pthread_mutex_t *m = arg;
  xpthread_mutex_lock (m);
  xpthread_mutex_unlock (m);
  return NULL;
}

/* Fork while one thread holds a private TP mutex and another waits for
   it.  In the parent, everything goes on.  In the child, only the
   forking thread exists: as with glibc's normal mutexes, it may unlock
   the normal mutex held by the (now absent) parent thread and use it.  */
static void
fork_in_the_middle (void)
{
  puts ("info: fork in the middle");
  static pthread_mutex_t m;
  tst_tp_init (&m, PTHREAD_MUTEX_NORMAL, false, false);
  xpthread_mutex_lock (&m);
  pthread_t t = xpthread_create (NULL, contender, &m);
  usleep (10000);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      /* The word still names the parent thread, and no other thread.  */
      TEST_VERIFY (tst_tp_word (&m) != 0);
      TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
      TEST_COMPARE (pthread_mutex_unlock (&m), 0);
      TEST_COMPARE (pthread_mutex_trylock (&m), 0);
      TEST_VERIFY (tst_tp_owned_by_self (&m));
      xpthread_mutex_unlock (&m);
      xpthread_mutex_lock (&m);
      xpthread_mutex_unlock (&m);
      _exit (support_record_failure_is_failed () ? 1 : 0);
    }
  xpthread_mutex_unlock (&m);
  xpthread_join (t);
  int status;
  xwaitpid (pid, &status, 0);
  TEST_COMPARE (status, 0);
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  sh = xmmap (NULL, sizeof (*sh), PROT_READ | PROT_WRITE,
	      MAP_SHARED | MAP_ANONYMOUS, -1);
  /* Each of the two processes has one thread, so a process-shared
     mutex must not take glibc's single-thread shortcut (plain stores):
     the counter and the owner checks would show it.  */
  TEST_VERIFY_EXIT (__libc_single_threaded);
  for (size_t i = 0; i < TST_TP_NTYPES; i++)
    {
      two_processes (tst_tp_types[i], false);
      two_processes (tst_tp_types[i], true);
    }
  fork_in_the_middle ();
  xmunmap (sh, sizeof (*sh));
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
