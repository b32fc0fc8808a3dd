/* TP mutex: attributes, static initializer, single-thread semantics.
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
#include <string.h>
#include "tst-mutex-tp-common.h"

static pthread_mutex_t static_tp = PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP;

static void *
trylock_thread (void *arg)
{
  pthread_mutex_t *m = arg;
  TEST_COMPARE (pthread_mutex_trylock (m), EBUSY);
  return NULL;
}

static void *
unlock_thread (void *arg)
{
  return (void *) (intptr_t) pthread_mutex_unlock (arg);
}

static void
check_attr (void)
{
  pthread_mutexattr_t a;
  int protocol;
  xpthread_mutexattr_init (&a);
  TEST_COMPARE (pthread_mutexattr_getprotocol (&a, &protocol), 0);
  TEST_COMPARE (protocol, PTHREAD_PRIO_NONE);
  TEST_COMPARE (PTHREAD_THROUGHPUT_NP, 3);
  TEST_COMPARE (pthread_mutexattr_setprotocol (&a, PTHREAD_THROUGHPUT_NP), 0);
  TEST_COMPARE (pthread_mutexattr_getprotocol (&a, &protocol), 0);
  TEST_COMPARE (protocol, PTHREAD_THROUGHPUT_NP);
  /* Invalid values leave the attribute unchanged.  */
  TEST_COMPARE (pthread_mutexattr_setprotocol (&a, 4), EINVAL);
  TEST_COMPARE (pthread_mutexattr_setprotocol (&a, -1), EINVAL);
  TEST_COMPARE (pthread_mutexattr_getprotocol (&a, &protocol), 0);
  TEST_COMPARE (protocol, PTHREAD_THROUGHPUT_NP);

  /* A TP mutex has no priority ceiling.  */
  pthread_mutex_t m;
  xpthread_mutex_init (&m, &a);
  int ceiling;
  TEST_COMPARE (pthread_mutex_getprioceiling (&m, &ceiling), EINVAL);
  TEST_COMPARE (pthread_mutex_setprioceiling (&m, 1, &ceiling), EINVAL);
  xpthread_mutex_destroy (&m);

  /* TP and robust combine (PP and robust do not).  */
  xpthread_mutexattr_setrobust (&a, PTHREAD_MUTEX_ROBUST);
  TEST_COMPARE (pthread_mutex_init (&m, &a), 0);
  xpthread_mutex_destroy (&m);
  xpthread_mutexattr_destroy (&a);
}

static void
check_type (int type)
{
  pthread_mutex_t m;
  tst_tp_init (&m, type, false, false);
  printf ("info: type %d\n", type);

  TEST_COMPARE (tst_tp_word (&m), 0);
  xpthread_mutex_lock (&m);
  /* The word holds the owner TID: this is a TP mutex.  */
  TEST_COMPARE (tst_tp_word (&m), (unsigned int) gettid ());

  pthread_t t = xpthread_create (NULL, trylock_thread, &m);
  xpthread_join (t);

  switch (type)
    {
    case PTHREAD_MUTEX_RECURSIVE:
      TEST_COMPARE (pthread_mutex_lock (&m), 0);
      TEST_COMPARE (pthread_mutex_trylock (&m), 0);
      TEST_COMPARE (m.__data.__count, 3);
      xpthread_mutex_unlock (&m);
      xpthread_mutex_unlock (&m);
      TEST_VERIFY (tst_tp_owned_by_self (&m));
      break;
    case PTHREAD_MUTEX_ERRORCHECK:
      TEST_COMPARE (pthread_mutex_lock (&m), EDEADLK);
      TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
      break;
    default:
      TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
      break;
    }

  /* Unlock by a thread that does not own the mutex.  */
  t = xpthread_create (NULL, unlock_thread, &m);
  int r = (intptr_t) xpthread_join (t);
  if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK)
    {
      TEST_COMPARE (r, EPERM);
      xpthread_mutex_unlock (&m);
    }
  else
    /* Like glibc's normal mutexes.  */
    TEST_COMPARE (r, 0);
  TEST_COMPARE (tst_tp_word (&m), 0);

  if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK)
    TEST_COMPARE (pthread_mutex_unlock (&m), EPERM);

  TEST_COMPARE (pthread_mutex_trylock (&m), 0);
  TEST_COMPARE (tst_tp_word (&m), (unsigned int) gettid ());
  TEST_COMPARE (pthread_mutex_destroy (&m), EBUSY);
  xpthread_mutex_unlock (&m);
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  check_attr ();

  for (size_t i = 0; i < TST_TP_NTYPES; i++)
    check_type (tst_tp_types[i]);

  /* The static initializer.  */
  xpthread_mutex_lock (&static_tp);
  TEST_COMPARE (tst_tp_word (&static_tp), (unsigned int) gettid ());
  TEST_COMPARE (pthread_mutex_trylock (&static_tp), EBUSY);
  xpthread_mutex_unlock (&static_tp);
  TEST_COMPARE (tst_tp_word (&static_tp), 0);

  /* The default mutex does not use the TP word, unless the tunable
     glibc.pthread.mutex_protocol=3 is set (the whole test suite may run
     with it).  */
  const char *tunables = getenv ("GLIBC_TUNABLES");
  bool tp_default = (tunables != NULL
		     && strstr (tunables, "glibc.pthread.mutex_protocol=3"));
  pthread_mutex_t plain;
  xpthread_mutex_init (&plain, NULL);
  xpthread_mutex_lock (&plain);
  TEST_COMPARE (tst_tp_word (&plain),
		tp_default ? (unsigned int) gettid () : 1);
  xpthread_mutex_unlock (&plain);
  return 0;
}

#include <support/test-driver.c>
