/* Phase-fair reader/writer lock: internal interface.
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

#ifndef _PTHREAD_RWLOCK_PF_H
#define _PTHREAD_RWLOCK_PF_H 1

#include <pthread.h>
#include <time.h>
#include <struct___timespec64.h>

/* True if RWLOCK is of the phase-fair kind.  The upstream rwlock entry
   points test this once, first thing, and hand the lock to
   nptl/pthread_rwlock_pf.c.  */
#define PTHREAD_RWLOCK_IS_PHASE_FAIR(rwlock) \
  ((rwlock)->__data.__flags == PTHREAD_RWLOCK_PHASE_FAIR_NP)

/* Core acquisition functions: ABSTIME == NULL waits forever, otherwise
   ABSTIME is absolute on CLOCKID.  Return 0, EINVAL, EDEADLK or
   ETIMEDOUT, and for a reader also EAGAIN (too many readers).  */
extern int __pthread_rwlock_pf_rdlock (pthread_rwlock_t *rwlock,
				       clockid_t clockid,
				       const struct __timespec64 *abstime)
  attribute_hidden;
extern int __pthread_rwlock_pf_wrlock (pthread_rwlock_t *rwlock,
				       clockid_t clockid,
				       const struct __timespec64 *abstime)
  attribute_hidden;
extern int __pthread_rwlock_pf_tryrdlock (pthread_rwlock_t *rwlock)
  attribute_hidden;
extern int __pthread_rwlock_pf_trywrlock (pthread_rwlock_t *rwlock)
  attribute_hidden;
extern int __pthread_rwlock_pf_unlock (pthread_rwlock_t *rwlock)
  attribute_hidden;

/* The kind given to rwlocks initialized with default attributes (a NULL
   attribute, or one fresh from pthread_rwlockattr_init).  Set once from
   the glibc.pthread.rwlock_kind tunable during early initialization,
   read-only afterwards.  */
extern int __pthread_rwlock_default_kind attribute_hidden;

extern void __pthread_rwlock_pf_tunables_init (void) attribute_hidden;

#endif
