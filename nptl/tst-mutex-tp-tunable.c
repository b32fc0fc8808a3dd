/* TP mutex: glibc.pthread.mutex_protocol makes default mutexes TP.
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

/* Run with GLIBC_TUNABLES=glibc.pthread.mutex_protocol=3 (see the
   Makefile).  TST_TP_EXPECT_TP is 1: a default mutex holds the owner TID
   in its word (the observable mark of a TP mutex).  tst-mutex-tp-tunable2
   includes this file with TST_TP_EXPECT_TP 0 and runs with the rejected
   value 2 (PTHREAD_PRIO_PROTECT): the default is kept.  */

#include "tst-mutex-tp-common.h"

#ifndef TST_TP_EXPECT_TP
# define TST_TP_EXPECT_TP 1
#endif

static void
check (const pthread_mutexattr_t *attr, bool expect_tp)
{
  pthread_mutex_t m;
  xpthread_mutex_init (&m, attr);
  xpthread_mutex_lock (&m);
  if (expect_tp)
    TEST_VERIFY (tst_tp_owned_by_self (&m));
  else
    TEST_VERIFY (!tst_tp_owned_by_self (&m));
  xpthread_mutex_unlock (&m);
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  /* NULL attribute.  */
  check (NULL, TST_TP_EXPECT_TP);

  /* Default attribute, and other types with the default protocol.  */
  pthread_mutexattr_t a;
  xpthread_mutexattr_init (&a);
  check (&a, TST_TP_EXPECT_TP);
  xpthread_mutexattr_settype (&a, PTHREAD_MUTEX_RECURSIVE);
  check (&a, TST_TP_EXPECT_TP);

  /* An explicit protocol wins over the tunable.  */
  xpthread_mutexattr_setprotocol (&a, PTHREAD_PRIO_INHERIT);
  pthread_mutex_t m;
  if (pthread_mutex_init (&m, &a) == 0)
    {
      xpthread_mutex_lock (&m);
      /* PI mutexes also store the TID; the kind tells them apart.  */
      TEST_COMPARE (m.__data.__kind & 8, 0);
      xpthread_mutex_unlock (&m);
      xpthread_mutex_destroy (&m);
    }
  xpthread_mutexattr_destroy (&a);

  /* A statically initialized mutex takes the tunable's protocol at its
     first lock (tst-mutex-tp-tunable-static checks the other entry
     points); with the rejected value it stays a normal mutex, whose
     word is 1 when locked without waiters.  */
  pthread_mutex_t s = PTHREAD_MUTEX_INITIALIZER;
  xpthread_mutex_lock (&s);
  if (TST_TP_EXPECT_TP)
    TEST_VERIFY (tst_tp_owned_by_self (&s));
  else
    TEST_COMPARE (tst_tp_word (&s), 1);
  xpthread_mutex_unlock (&s);
  return 0;
}

#include <support/test-driver.c>
