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
