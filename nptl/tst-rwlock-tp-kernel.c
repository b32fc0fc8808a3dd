/* TP rwlock: the path that serves it, kernel or user space.
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

/* tst-mutex-tp-kernel.c with readers and writers of a TP rwlock as the
   contended load, and the shared operations (FUTEX_UNLOCK_SHARED, from
   <linux/futex.h>) as the kernel support that the kernel path needs.  */

#include <pthread.h>
#include <unistd.h>
#include <support/xthread.h>
#include <linux/futex.h>

#ifdef FUTEX_UNLOCK_SHARED
# define TST_TP_PROBE_OP FUTEX_UNLOCK_SHARED
#else
/* Not used: without the TP ops in the headers the probe is skipped.  */
# define TST_TP_PROBE_OP 0
#endif

static pthread_rwlock_t l = PTHREAD_RWLOCK_TP_INITIALIZER_NP;

static void *
worker (void *arg)
{
  for (int i = 0; i < 2000; i++)
    {
      if (i % 2 == 0)
	xpthread_rwlock_wrlock (&l);
      else
	xpthread_rwlock_rdlock (&l);
      usleep (10);
      xpthread_rwlock_unlock (&l);
    }
  return NULL;
}

#include "tst-mutex-tp-kernel.c"
