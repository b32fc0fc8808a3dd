/* Throughput-optimized (TP) futex operations of the TPF kernel series.
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

#ifndef _TP_FUTEX_H
#define _TP_FUTEX_H 1

#include <sysdep.h>
#include <lowlevellock-futex.h>
#include <struct___timespec64.h>

/* Our own copy of the operation numbers, so that glibc builds against
   any kernel headers (as lowlevellock-futex.h does for the mainline
   operations).  Mainline Linux uses 0..13; the TPF kernel series takes
   the block 64..67, which no mainline kernel uses and which stays below
   FUTEX_PRIVATE_FLAG.  Each may be ORed with FUTEX_PRIVATE_FLAG, and
   TP_FUTEX_LOCK also with FUTEX_CLOCK_REALTIME.  */
#define TP_FUTEX_LOCK		64
#define TP_FUTEX_UNLOCK		65
#define TP_FUTEX_LOCK_SHARED	66
#define TP_FUTEX_UNLOCK_SHARED	67

/* The non-negative result of TP_FUTEX_LOCK: how the lock was acquired
   in bits 0..7, how often the waiter slept in bits 16..30.  */
#define TP_FUTEX_STATUS_HOW_MASK	0xff
#define TP_FUTEX_STATUS_STOLEN		0
#define TP_FUTEX_STATUS_TOP_WAITER	1
#define TP_FUTEX_STATUS_HANDOFF		2
#define TP_FUTEX_STATUS_SLEEP_SHIFT	16
#define TP_FUTEX_STATUS_SLEEP_MASK	0x7fff

/* Issue OP (one of the TP_FUTEX_* values, already combined with the
   private and clock flags) on WORD.  ABSTIME is the absolute timeout or
   NULL.  Returns the non-negative result of the kernel or a negated
   errno value.  */
static __always_inline long int
tp_futex_syscall (unsigned int *word, int op,
		  const struct __timespec64 *abstime)
{
#if __TIMESIZE != 64 && defined __NR_futex_time64
  long int r = INTERNAL_SYSCALL_CALL (futex_time64, word, op, 0, abstime,
				      NULL, 0);
#else
  long int r = INTERNAL_SYSCALL_CALL (futex, word, op, 0, abstime, NULL, 0);
#endif
  return INTERNAL_SYSCALL_ERROR_P (r) ? -INTERNAL_SYSCALL_ERRNO (r) : r;
}

/* Return true if the running kernel implements the TP operations.
   TP_FUTEX_UNLOCK on a word the caller does not own fails with EPERM
   on a TP kernel and with ENOSYS on every other kernel.  */
static inline bool
tp_futex_kernel_probe (void)
{
  unsigned int word = 0;
  return tp_futex_syscall (&word, TP_FUTEX_UNLOCK | FUTEX_PRIVATE_FLAG,
			   NULL) == -EPERM;
}

/* Return true if the running kernel also implements the shared (reader)
   operations, which a kernel may lack while it has TP_FUTEX_LOCK and
   TP_FUTEX_UNLOCK.  TP_FUTEX_UNLOCK_SHARED on a word that is not
   reader-owned fails with EPERM where it is implemented.  */
static inline bool
tp_futex_kernel_probe_shared (void)
{
  unsigned int word = 0;
  return tp_futex_syscall (&word,
			   TP_FUTEX_UNLOCK_SHARED | FUTEX_PRIVATE_FLAG,
			   NULL) == -EPERM;
}

#endif /* tp-futex.h */
