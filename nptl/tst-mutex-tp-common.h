/* Helpers for the throughput-optimized (TP) mutex tests.
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

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <support/check.h>
#include <support/xthread.h>

/* The futex word of the TP UAPI: owner TID in bits 0..29.  */
#define TST_TP_TID_MASK 0x3fffffffu

static inline unsigned int
tst_tp_word (pthread_mutex_t *m)
{
  return __atomic_load_n ((unsigned int *) &m->__data.__lock,
			  __ATOMIC_RELAXED);
}

/* True if M is locked by the calling thread with the TP word layout.  */
static inline bool
tst_tp_owned_by_self (pthread_mutex_t *m)
{
  return (tst_tp_word (m) & TST_TP_TID_MASK) == (unsigned int) gettid ();
}

/* Initialize M as a TP mutex of TYPE, robust if ROBUST, process-shared
   if PSHARED.  */
static inline void
tst_tp_init (pthread_mutex_t *m, int type, bool robust, bool pshared)
{
  pthread_mutexattr_t a;
  xpthread_mutexattr_init (&a);
  xpthread_mutexattr_settype (&a, type);
  xpthread_mutexattr_setprotocol (&a, PTHREAD_THROUGHPUT_NP);
  if (robust)
    xpthread_mutexattr_setrobust (&a, PTHREAD_MUTEX_ROBUST);
  if (pshared)
    xpthread_mutexattr_setpshared (&a, PTHREAD_PROCESS_SHARED);
  xpthread_mutex_init (m, &a);
  xpthread_mutexattr_destroy (&a);
}

static const int tst_tp_types[] =
  {
    PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
    PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP
  };
#define TST_TP_NTYPES (sizeof tst_tp_types / sizeof tst_tp_types[0])
