/* The tests of the rwlocks' concurrency restriction: common parts.
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

/* tst-rwlock-tp-home.c and tst-rwlock-pf-home.c (see tst-tp-home.h).
   Each defines TEST_RWLOCK_INITIALIZER, the kind of the lock under
   test, before it includes this file.  */

#ifndef TST_RWLOCK_HOME_H
#define TST_RWLOCK_HOME_H 1

#include "tst-tp-home.h"

static pthread_rwlock_t lock = TEST_RWLOCK_INITIALIZER;

/* Processor 0: waits for the write lock (for the phase-fair kind, for
   the writer role), which the main thread holds, so claims the home
   when it gets it.  */
static void *
waiting_writer (void *arg)
{
  pin (0);
  xpthread_barrier_wait (&barrier);
  xpthread_rwlock_wrlock (&lock);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

static void
unlock_lock (void)
{
  xpthread_rwlock_unlock (&lock);
}

/* Start FN, let it block on the lock that the main thread holds, then
   release the lock and wait for FN to finish.  */
static void
contend (void *(*fn) (void *))
{
  contend_with (fn, unlock_lock);
}

#endif /* tst-rwlock-home.h */
