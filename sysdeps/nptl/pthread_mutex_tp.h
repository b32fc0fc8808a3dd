/* Internal interface of the throughput-optimized (TP) mutex.
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

/* Included at the end of pthreadP.h.  The protocol itself is described
   at the top of nptl/pthread_mutex_tp_lock.c.  */

#ifndef _PTHREAD_MUTEX_TP_H
#define _PTHREAD_MUTEX_TP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <atomic.h>
#include <struct___timespec64.h>
#include <pthread_mutex_tp_stats.h>

/* Process-wide configuration, read from the glibc.pthread tunables at
   startup (pthread_mutex_tp_conf.c) and constant afterwards.  */
struct pthread_mutex_tp_config
{
  /* Protocol given to mutexes whose attribute says PTHREAD_PRIO_NONE
     (that includes a NULL attribute): PTHREAD_PRIO_NONE or
     PTHREAD_THROUGHPUT_NP.  Tunable glibc.pthread.mutex_protocol.  */
  int default_protocol;
  /* Iterations of the user-space spin loop before sleeping.  Tunable
     glibc.pthread.mutex_tp_spin_count.  */
  int spin_count;
  /* A waiter that has waited this many microseconds asks for hand-off.
     Tunable glibc.pthread.mutex_tp_handoff_us.  */
  int handoff_us;
  /* Nonzero: never use the kernel's TP operations.  Tunable
     glibc.pthread.mutex_tp_userspace.  */
  int force_userspace;
};
extern struct pthread_mutex_tp_config __pthread_mutex_tp_config
  attribute_hidden;

/* Kernel support, probed once: 0 not probed yet, 1 the kernel has
   FUTEX_LOCK/FUTEX_UNLOCK and we use them, -1 user-space protocol.  */
extern int __pthread_mutex_tp_kernel attribute_hidden;
extern bool __pthread_mutex_tp_probe (void) attribute_hidden;

static inline bool
tp_use_kernel (void)
{
  /* Relaxed MO is enough: the value depends only on the kernel and the
     tunables, every thread that probes computes the same value, and it
     does not publish any other data.  */
  int k = atomic_load_relaxed (&__pthread_mutex_tp_kernel);
  if (__glibc_likely (k != 0))
    return k > 0;
  return __pthread_mutex_tp_probe ();
}

/* Slow-path counters (see pthread_mutex_tp_stats.h).  They are
   thread-local, so counting is a plain increment of a line that no other
   thread touches: a process-wide counter would be one more cache line
   bouncing between exactly the threads that contend.  */
extern __thread unsigned long int __pthread_mutex_tp_counters[TP_STAT_COUNT]
  attribute_hidden attribute_tls_model_ie;
#define TP_STAT_INC(idx) (++__pthread_mutex_tp_counters[idx])

/* The futex word (see the layout in pthread_mutex_tp_lock.c).  */
static inline unsigned int *
tp_word (pthread_mutex_t *mutex)
{
  return (unsigned int *) &mutex->__data.__lock;
}

/* The hand-off word.  A TP mutex never uses __spins (TP does its own
   spinning with a process-wide budget) or __elision (TP mutexes are never
   elided), so we use the 32 bits starting at __spins.  On layouts where
   these bits overlap the robust list (32-bit ABIs) hand-off is not
   available for robust mutexes; tp_handoff_enabled says so.  */
typedef unsigned int __attribute__ ((__may_alias__)) tp_alias_uint;

static inline unsigned int *
tp_handoff_word (pthread_mutex_t *mutex)
{
  _Static_assert (offsetof (struct __pthread_mutex_s, __spins) % 4 == 0,
		  "hand-off word must be aligned");
#if __PTHREAD_MUTEX_HAVE_PREV
  _Static_assert (offsetof (struct __pthread_mutex_s, __list)
		  - offsetof (struct __pthread_mutex_s, __spins) >= 4,
		  "hand-off word must not overlap the robust list");
#endif
  return (unsigned int *) (tp_alias_uint *) &mutex->__data.__spins;
}

static inline bool
tp_handoff_enabled (int kind)
{
  return (__PTHREAD_MUTEX_HAVE_PREV
	  || (kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) == 0);
}

/* The home word of the concurrency restriction (tp-home.h) of a mutex
   of kind KIND, or NULL if it has none.  Only a robust mutex uses
   __list (it links the mutex into its owner's robust list), so every
   other TP mutex keeps its home in the 32 bits at the start of __list;
   where __list is a single pointer (32-bit ABIs) it has no room for it.
   pthread_mutex_init and the static initializers leave it 0 (no
   home).  */
static inline unsigned int *
tp_home_word (pthread_mutex_t *mutex, int kind)
{
#if __PTHREAD_MUTEX_HAVE_PREV
  _Static_assert (offsetof (struct __pthread_mutex_s, __list) % 4 == 0,
		  "home word must be aligned");
  if ((kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) == 0)
    return (unsigned int *) (tp_alias_uint *) &mutex->__data.__list;
#endif
  return NULL;
}

/* The futex private/shared flag.  The kernel wakes waiters of robust
   mutexes on owner death with a shared FUTEX_WAKE, so robust mutexes
   must wait shared.  */
static inline int
tp_private (int kind)
{
  if ((kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) != 0)
    return LLL_SHARED;
  return (kind & PTHREAD_MUTEX_PSHARED_BIT) ? LLL_SHARED : LLL_PRIVATE;
}

/* Lock MUTEX, a TP mutex: the core of every lock operation.  ABSTIME is
   NULL for no timeout, else on clock CLOCKID; COUNT_USER false for the
   condition variable's relock, which does not count __nusers.  Used
   directly by pthread_mutex_timedlock and pthread_mutex_clocklock.  */
extern int __pthread_mutex_tp_lock_common (pthread_mutex_t *mutex,
					   clockid_t clockid,
					   const struct __timespec64 *abstime,
					   bool count_user) attribute_hidden;
/* pthread_mutex_lock and __pthread_mutex_cond_lock of a TP mutex.  */
extern int __pthread_mutex_tp_lock (pthread_mutex_t *mutex) attribute_hidden;
extern int __pthread_mutex_tp_cond_lock (pthread_mutex_t *mutex)
  attribute_hidden;
extern int __pthread_mutex_tp_trylock (pthread_mutex_t *mutex)
  attribute_hidden;
/* DECR as for __pthread_mutex_unlock_usercnt.  */
extern int __pthread_mutex_tp_unlock (pthread_mutex_t *mutex, int decr)
  attribute_hidden;
/* Release the lock word of MUTEX, owned by the caller: the part of unlock
   that hands off or wakes.  KIND is the mutex's __kind.  */
extern void __pthread_mutex_tp_release (pthread_mutex_t *mutex, int kind)
  attribute_hidden;
/* Finish a robust lock operation that acquired the word (RESULT is 0
   or EOWNERDEAD) with list_op_pending pointing at MUTEX: robust list,
   __owner, __count, __nusers.  Returns RESULT or ENOTRECOVERABLE.  */
extern int __pthread_mutex_tp_robust_acquired (pthread_mutex_t *mutex,
					       int kind, pid_t tid,
					       int result, bool count_user)
  attribute_hidden;
/* Read the tunables; called from __pthread_tunables_init.  */
extern void __pthread_mutex_tp_tunables_init (void) attribute_hidden;

#endif /* pthread_mutex_tp.h */
