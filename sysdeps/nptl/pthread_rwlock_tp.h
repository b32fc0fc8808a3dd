/* Throughput-optimized (TP) reader/writer lock: internal interface.
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

#ifndef _PTHREAD_RWLOCK_TP_H
#define _PTHREAD_RWLOCK_TP_H 1

#include <pthread.h>
#include <time.h>
#include <struct___timespec64.h>

/* True if RWLOCK is of the TP kind.  The upstream rwlock entry points
   test this, next to PTHREAD_RWLOCK_IS_PHASE_FAIR, and hand the lock to
   nptl/pthread_rwlock_tp.c.  */
#define PTHREAD_RWLOCK_IS_TP(rwlock) \
  ((rwlock)->__data.__flags == PTHREAD_RWLOCK_TP_NP)

/* The TP rwlock's waiters on the user-space path register for hand-off
   after this many times the TP mutex's threshold
   (glibc.pthread.mutex_tp_handoff_us): 20 ms by default.  Its home
   claims last a quarter of that; its waiters' back-off keeps the TP
   mutex's schedule.  Every hand-off, and every end of a waiter's timed
   sleep, costs a wake-up and a context switch: at the mutex's 5 ms, with 16
   threads, long critical sections and half the operations writes, the
   TP rwlock handed off 503-653 times per 10^6 operations, switched
   context 0.012-0.014 times per operation (the default rwlock
   0.0023-0.0037), kept 1.15-1.21 processors busy and ran 0.89
   (0.78-0.92) times the default rwlock; at 20 ms 130-167, 0.0036-0.0043,
   1.04-1.06 and 1.01 (0.93-1.27), its busiest thread 3.1-8.1 times as
   busy as its idlest (2.1-2.7 before; the default rwlock's 5.6-144).
   README has the runs.  */
#define TPRW_HANDOFF_MUL	4

/* As the phase-fair functions (pthread_rwlock_pf.h); rdlock and
   tryrdlock may also return EAGAIN (too many readers), unlock EPERM (the
   caller holds no lock).  */
extern int __pthread_rwlock_tp_rdlock (pthread_rwlock_t *rwlock,
				       clockid_t clockid,
				       const struct __timespec64 *abstime)
  attribute_hidden;
extern int __pthread_rwlock_tp_wrlock (pthread_rwlock_t *rwlock,
				       clockid_t clockid,
				       const struct __timespec64 *abstime)
  attribute_hidden;
extern int __pthread_rwlock_tp_tryrdlock (pthread_rwlock_t *rwlock)
  attribute_hidden;
extern int __pthread_rwlock_tp_trywrlock (pthread_rwlock_t *rwlock)
  attribute_hidden;
extern int __pthread_rwlock_tp_unlock (pthread_rwlock_t *rwlock)
  attribute_hidden;

#endif
