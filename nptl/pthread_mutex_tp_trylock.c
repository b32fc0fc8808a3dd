/* Throughput-optimized (TP) mutex: trylock.
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

/* The protocol (transitions T0, T1 and the invariants) is described at
   the top of pthread_mutex_tp_lock.c.  Trylock never blocks and never
   enters the kernel; it may steal the lock from a registered hand-off
   requester (G2), exactly like a spinner.  */

#include <errno.h>
#include <pthreadP.h>
#include <atomic.h>
#include <stap-probe.h>

int
__pthread_mutex_tp_trylock (pthread_mutex_t *mutex)
{
  /* See concurrency notes regarding __kind in struct __pthread_mutex_s
     in sysdeps/nptl/bits/thread-shared-types.h.  */
  int kind = atomic_load_relaxed (&mutex->__data.__kind);
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);
  unsigned int *word = tp_word (mutex);
  bool robust = (kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) != 0;

  if (robust)
    {
      if (__glibc_unlikely (mutex->__data.__owner
			    == PTHREAD_MUTEX_NOTRECOVERABLE))
	return ENOTRECOVERABLE;
      THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending,
		     (void *) &mutex->__data.__list.__next);
      __asm ("" ::: "memory");
    }

  unsigned int v = atomic_load_relaxed (word);
  int result = EBUSY;
  for (;;)
    {
      if ((v & FUTEX_TID_MASK) == 0)
	{
	  /* T0, or T1 on a word left by a dead owner.  Acquire MO pairs
	     with U0/U1/U2 of the previous owner.  */
	  if (atomic_compare_exchange_weak_acquire (word, &v,
						    tid | (v & FUTEX_WAITERS)))
	    {
	      result = (v & FUTEX_OWNER_DIED) ? EOWNERDEAD : 0;
	      break;
	    }
	  continue;
	}
      if ((v & FUTEX_TID_MASK) == (unsigned int) tid
	  && (kind & PTHREAD_MUTEX_KIND_MASK_NP) == PTHREAD_MUTEX_RECURSIVE_NP)
	{
	  /* Relock by the owner (I1).  */
	  result = EAGAIN;
	  if (mutex->__data.__count + 1 != 0)
	    {
	      ++mutex->__data.__count;
	      result = 0;
	    }
	  if (robust)
	    THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending, NULL);
	  return result;
	}
      if (robust)
	THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending, NULL);
      return EBUSY;
    }

  if (robust)
    return __pthread_mutex_tp_robust_acquired (mutex, kind, tid, result,
					       true);

  mutex->__data.__count = 1;
  mutex->__data.__owner = tid;
  ++mutex->__data.__nusers;
  LIBC_PROBE (mutex_acquired, 1, mutex);
  return 0;
}
