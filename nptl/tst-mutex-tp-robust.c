/* TP mutex: robust owner death (threads and processes).
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

#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <support/xunistd.h>
#include "tst-mutex-tp-common.h"

static pthread_mutex_t *m;
static pthread_barrier_t barrier;
static int result_of_waiter;

static void *
die_holding (void *arg)
{
  xpthread_mutex_lock (m);
  if (arg != NULL)
    {
      /* Wait until the waiter has very likely gone to sleep on the
	 word (FUTEX_WAITERS set), so that owner death must wake it.  */
      xpthread_barrier_wait (&barrier);
      for (int i = 0; i < 1000 && !(tst_tp_word (m) & 0x80000000u); i++)
	usleep (1000);
      usleep (20000);
    }
  return NULL;			/* Exits holding the mutex.  */
}

/* Check the state after an EOWNERDEAD acquisition by the caller, then
   make the mutex consistent and release it.  */
static void
recover (int type)
{
  TEST_VERIFY (tst_tp_owned_by_self (m));
  TEST_COMPARE (tst_tp_word (m) & 0x40000000u, 0);
  TEST_COMPARE (pthread_mutex_consistent (m), 0);
  if (type == PTHREAD_MUTEX_RECURSIVE)
    {
      TEST_COMPARE (pthread_mutex_lock (m), 0);
      xpthread_mutex_unlock (m);
    }
  xpthread_mutex_unlock (m);
}

static void *
waiter (void *arg)
{
  xpthread_barrier_wait (&barrier);
  result_of_waiter = pthread_mutex_lock (m);
  if (result_of_waiter == EOWNERDEAD)
    recover ((intptr_t) arg);
  return NULL;
}

static void
check_eownerdead (int type, bool sleeping_waiter)
{
  printf ("info: type %d, sleeping waiter %d\n", type, sleeping_waiter);
  tst_tp_init (m, type, true, false);

  if (!sleeping_waiter)
    {
      xpthread_join (xpthread_create (NULL, die_holding, NULL));
      TEST_COMPARE (pthread_mutex_lock (m), EOWNERDEAD);
      recover (type);
    }
  else
    {
      pthread_t w = xpthread_create (NULL, waiter, (void *) (intptr_t) type);
      xpthread_join (xpthread_create (NULL, die_holding, m));
      xpthread_join (w);
      TEST_COMPARE (result_of_waiter, EOWNERDEAD);
    }
  TEST_COMPARE (pthread_mutex_lock (m), 0);
  xpthread_mutex_unlock (m);

  /* Owner death, then unlock without consistent: not recoverable.  */
  xpthread_join (xpthread_create (NULL, die_holding, NULL));
  TEST_COMPARE (pthread_mutex_trylock (m), EOWNERDEAD);
  TEST_COMPARE (pthread_mutex_unlock (m), 0);
  TEST_COMPARE (pthread_mutex_lock (m), ENOTRECOVERABLE);
  TEST_COMPARE (pthread_mutex_trylock (m), ENOTRECOVERABLE);
  TEST_COMPARE (pthread_mutex_consistent (m), EINVAL);
  xpthread_mutex_destroy (m);
}

static void
check_process_death (void)
{
  puts ("info: process-shared, owner process dies");
  tst_tp_init (m, PTHREAD_MUTEX_NORMAL, true, true);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      xpthread_mutex_lock (m);
      _exit (0);
    }
  int status;
  xwaitpid (pid, &status, 0);
  TEST_COMPARE (status, 0);
  TEST_COMPARE (pthread_mutex_lock (m), EOWNERDEAD);
  TEST_COMPARE (pthread_mutex_consistent (m), 0);
  xpthread_mutex_unlock (m);
  xpthread_mutex_destroy (m);
}

static int
do_test (void)
{
  m = xmmap (NULL, sizeof (*m), PROT_READ | PROT_WRITE,
	     MAP_SHARED | MAP_ANONYMOUS, -1);
  xpthread_barrier_init (&barrier, NULL, 2);
  for (size_t i = 0; i < TST_TP_NTYPES; i++)
    {
      check_eownerdead (tst_tp_types[i], false);
      check_eownerdead (tst_tp_types[i], true);
    }
  check_process_death ();
  xpthread_barrier_destroy (&barrier);
  xmunmap (m, sizeof (*m));
  return 0;
}

#include <support/test-driver.c>
