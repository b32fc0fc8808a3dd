/* Slow-path counters of the throughput-optimized mutex (for tests).
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

#ifndef _PTHREAD_MUTEX_TP_STATS_H
#define _PTHREAD_MUTEX_TP_STATS_H 1

/* Indices into the array filled by __pthread_mutex_tp_stats.  The
   counters count slow-path events only (never the fast path) of the
   calling thread, in thread-local storage; they are a debugging and test
   aid.  A program that wants process-wide figures reads them in each of
   its threads and adds them up.  */
enum
{
  /* 1 if TP mutexes use the kernel's FUTEX_LOCK/FUTEX_UNLOCK, 0 if they
     use the user-space protocol (stock kernel, or forced by the tunable
     glibc.pthread.mutex_tp_userspace).  Probes the kernel if needed.  */
  TP_STAT_KERNEL_MODE,
  /* FUTEX_LOCK and FUTEX_UNLOCK system calls issued.  */
  TP_STAT_KERNEL_LOCKS,
  TP_STAT_KERNEL_UNLOCKS,
  /* User-space protocol: futex waits, futex wakes, ownership
     hand-offs granted by an unlocker.  */
  TP_STAT_USER_SLEEPS,
  TP_STAT_USER_WAKES,
  TP_STAT_HANDOFFS,
  /* TP rwlock (user-space protocol) and phase-fair rwlock: sleeps of a
     waiter that left the lock to its home processor (C2 in
     nptl/pthread_rwlock_tp.c, P2 in nptl/pthread_rwlock_pf.c).  */
  TP_STAT_HOME_DEFERRALS,
  TP_STAT_COUNT
};

/* Store min (N, TP_STAT_COUNT) counters of the calling thread into OUT
   (TP_STAT_KERNEL_MODE is process-wide); return how many.
   GLIBC_PRIVATE: for glibc's own tests and benchmarks only.  */
extern int __pthread_mutex_tp_stats (unsigned long int *__out, int __n);

#endif /* pthread_mutex_tp_stats.h */
