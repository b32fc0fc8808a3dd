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

#include <errno.h>
#include <time.h>
#include <sysdep.h>
#include <futex-internal.h>
#include <lowlevellock-futex.h>
#include <struct___timespec64.h>

/* The TP futex ABI has one source: the kernel's UAPI header
   <linux/futex.h> of the TPF kernel series, which glibc is configured
   to build against (--with-headers=DIR, DIR from `make kernel-headers',
   or the linux-libc-dev that `make deb-kernel' builds).  This header
   only gives its names a TP_FUTEX_ prefix, as enumerators.

   One name of that header cannot be seen here as is: its FUTEX_SHARED
   (the reader-owned bit of a TP word) has the name of glibc's internal
   process-shared flag (FUTEX_SHARED in futex-internal.h).  So the
   kernel's definition is read with glibc's saved and set aside, copied
   into an enumerator, and glibc's restored; the order in which this
   header and futex-internal.h are included does not matter.  The
   mainline names the kernel header also defines (FUTEX_WAIT ...,
   FUTEX_WAITERS, FUTEX_TID_MASK) are the same tokens as glibc's own
   definitions in lowlevellock-futex.h and pthreadP.h.  Its structures
   robust_list and robust_list_head are glibc's too (descr.h), so their
   tags are renamed while the header is read.  */
#pragma push_macro ("FUTEX_SHARED")
#undef FUTEX_SHARED
#define robust_list __tp_uapi_robust_list
#define robust_list_head __tp_uapi_robust_list_head
#include <linux/futex.h>
#undef robust_list
#undef robust_list_head

#ifdef FUTEX_LOCK
/* The operations.  Each may be ORed with FUTEX_PRIVATE_FLAG, and
   TP_FUTEX_LOCK and TP_FUTEX_LOCK_SHARED also with FUTEX_CLOCK_REALTIME.  */
# define TP_FUTEX_HAVE_OPS 1
enum
  {
    TP_FUTEX_LOCK = FUTEX_LOCK,
    TP_FUTEX_UNLOCK = FUTEX_UNLOCK,
    TP_FUTEX_LOCK_SHARED = FUTEX_LOCK_SHARED,
    TP_FUTEX_UNLOCK_SHARED = FUTEX_UNLOCK_SHARED
  };
#else
/* Kernel headers without the TP operations (a stock linux-libc-dev, or
   a cross build's headers).  As glibc does for a system call that its
   kernel headers do not name (#ifdef __NR_...), the kernel path is
   compiled out: tp_futex_syscall fails with ENOSYS without entering the
   kernel, the probes below report no TP kernel, and TP locks use the
   user-space protocol on every kernel.  The names exist only so that
   their callers compile; no value of theirs reaches the kernel.  */
# define TP_FUTEX_HAVE_OPS 0
enum
  {
    TP_FUTEX_LOCK = -1,
    TP_FUTEX_UNLOCK = -1,
    TP_FUTEX_LOCK_SHARED = -1,
    TP_FUTEX_UNLOCK_SHARED = -1
  };
#endif

/* The reader-owned layout of a TP word (the TP rwlock's, shared with
   the kernel's FUTEX_LOCK_SHARED): the SHARED bit, the SHARED_UNLOCK bit
   set by the last reader before FUTEX_UNLOCK_SHARED, and the reader
   count.  The user-space protocol needs the layout on every kernel, so
   where the headers lack it glibc keeps its own copy, as it does for
   other kernel constants newer than its minimum headers; with the TPF
   headers the kernel's values are used.  */
#ifdef FUTEX_SCNT_MASK
enum
  {
    TP_FUTEX_WORD_SHARED = FUTEX_SHARED,
    TP_FUTEX_WORD_SHARED_UNLOCK = FUTEX_SHARED_UNLOCK,
    TP_FUTEX_WORD_COUNT_MASK = FUTEX_SCNT_MASK
  };
#else
enum
  {
    TP_FUTEX_WORD_SHARED = 0x20000000,
    TP_FUTEX_WORD_SHARED_UNLOCK = 0x10000000,
    TP_FUTEX_WORD_COUNT_MASK = 0x00ffffff
  };
#endif

#undef FUTEX_SHARED
#pragma pop_macro ("FUTEX_SHARED")

/* The futex system call with a 64-bit ABSTIME: futex_time64 where
   time_t has 32 bits and the kernel headers name it, futex elsewhere.
   Returns the raw result (INTERNAL_SYSCALL_ERROR_P tells an error).  */
static __always_inline long int
tp_futex_call64 (unsigned int *word, int op, unsigned int val,
		 const struct __timespec64 *abstime, unsigned int val3)
{
#if __TIMESIZE != 64 && defined __NR_futex_time64
  return INTERNAL_SYSCALL_CALL (futex_time64, word, op, val, abstime, NULL,
				val3);
#else
  return INTERNAL_SYSCALL_CALL (futex, word, op, val, abstime, NULL, val3);
#endif
}

/* Issue OP (one of the TP_FUTEX_* values, already combined with the
   private and clock flags) on WORD.  ABSTIME is the absolute timeout or
   NULL.  Returns the non-negative result of the kernel or a negated
   errno value.  A kernel without futex_time64 (before 5.1) has no TP
   operations either: its ENOSYS means just that.  */
static __always_inline long int
tp_futex_syscall (unsigned int *word, int op,
		  const struct __timespec64 *abstime)
{
#if !TP_FUTEX_HAVE_OPS
  return -ENOSYS;
#else
  long int r = tp_futex_call64 (word, op, 0, abstime, 0);
  return INTERNAL_SYSCALL_ERROR_P (r) ? -INTERNAL_SYSCALL_ERRNO (r) : r;
#endif
}

/* The FUTEX_WAIT_BITSET masks of the user-space protocol's sleepers on
   a TP lock word.  The registered hand-off requester sleeps with a mask
   of its own, so that the release that grants it the lock (U2 of the
   mutex, R2 of the rwlock) wakes it and none of the waiters; every
   other waiter sleeps with TP_WAIT_WAITER.  A wake for any waiter (U1, R1, the
   kernel's at an owner's death) matches both: FUTEX_WAKE is
   FUTEX_WAKE_BITSET with FUTEX_BITSET_MATCH_ANY.  */
#define TP_WAIT_WAITER		1u
#define TP_WAIT_REQUESTER	2u

/* FUTEX_WAIT_BITSET on WORD with the mask BITSET: sleep while WORD holds
   VAL, until a matching wake or ABSTIME on CLOCKID (NULL: no timeout).
   PRIVATE is FUTEX_PRIVATE or FUTEX_SHARED, as for futex_wait.  Returns
   0 (woken, possibly spuriously), EAGAIN (WORD did not hold VAL),
   EINTR, ETIMEDOUT, EINVAL for a clock that futexes cannot measure or
   an invalid ABSTIME, or EOVERFLOW for an ABSTIME that a kernel without
   64-bit time cannot take.  Not a cancellation point.  */
static inline int
tp_futex_wait_bitset (unsigned int *word, unsigned int val,
		      unsigned int bitset, clockid_t clockid,
		      const struct __timespec64 *abstime, int private)
{
  if (clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC)
    return EINVAL;
  int op = __lll_private_flag (FUTEX_WAIT_BITSET
			       | (clockid == CLOCK_REALTIME
				  ? FUTEX_CLOCK_REALTIME : 0), private);
  long int r = tp_futex_call64 (word, op, val, abstime, bitset);
#if (__TIMESIZE != 64 && defined __NR_futex_time64 \
     && !defined __ASSUME_TIME64_SYSCALLS)
  if (INTERNAL_SYSCALL_ERROR_P (r) && INTERNAL_SYSCALL_ERRNO (r) == ENOSYS)
    {
      /* A kernel older than 5.1: its futex takes 32-bit times.  */
      struct timespec ts32;
      if (abstime != NULL)
	{
	  if (! in_time_t_range (abstime->tv_sec))
	    return EOVERFLOW;
	  ts32 = valid_timespec64_to_timespec (*abstime);
	}
      r = INTERNAL_SYSCALL_CALL (futex, word, op, val,
				 abstime != NULL ? &ts32 : NULL, NULL, bitset);
    }
#endif
  if (!INTERNAL_SYSCALL_ERROR_P (r))
    return 0;
  switch (INTERNAL_SYSCALL_ERRNO (r))
    {
    case EAGAIN:
    case EINTR:
    case ETIMEDOUT:
    case EINVAL:
      return INTERNAL_SYSCALL_ERRNO (r);
    default:
      /* EFAULT, ENOSYS: the word or the kernel is not what glibc
	 relies on, as futex_wait says.  */
      futex_fatal_error ();
    }
}

/* FUTEX_WAKE_BITSET: wake up to NR threads sleeping on WORD with a mask
   that shares a bit with BITSET.  */
static inline void
tp_futex_wake_bitset (unsigned int *word, int nr, unsigned int bitset,
		      int private)
{
  long int r = INTERNAL_SYSCALL_CALL (futex, word,
				      __lll_private_flag (FUTEX_WAKE_BITSET,
							  private),
				      nr, NULL, NULL, bitset);
  /* EFAULT and EINVAL may come from a lock whose memory was freed or
     reused once the new owner could see its release: the wake has
     nobody left to wake (futex_wake ignores them for the same reason).  */
  if (INTERNAL_SYSCALL_ERROR_P (r)
      && INTERNAL_SYSCALL_ERRNO (r) != EFAULT
      && INTERNAL_SYSCALL_ERRNO (r) != EINVAL)
    futex_fatal_error ();
}

/* Return true if the running kernel implements the TP operations.
   TP_FUTEX_UNLOCK on a word the caller does not own fails with EPERM
   on a TP kernel and with ENOSYS on every other kernel (and without
   entering the kernel when glibc was built without the operations).  */
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
