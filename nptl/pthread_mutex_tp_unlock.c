/* Throughput-optimized (TP) mutex: unlock.
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

/* The protocol (states U0, U1, U2, H3 and the invariants cited here) is
   described at the top of pthread_mutex_tp_lock.c.  */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <_itoa.h>
#include <sysdep.h>
#include <pthreadP.h>
#include <atomic.h>
#include <futex-internal.h>
#include <tp-futex.h>
#include <tp-wait.h>
#include <tp-core.h>
#include <stap-probe.h>
#include <single-thread.h>

/* Whether the thread TID has exited but not been reaped: the main
   thread of a process that was killed and that its parent has not yet
   waited for.  Such a thread still exists for tkill, but its state in
   /proc/TID/stat ("TID (COMM) S ...", where COMM may contain ')' but no
   later field does) is Z, or X while it is being reaped (x before
   Linux 3.14).  If /proc cannot tell (not mounted, no descriptor left)
   the answer is no: the thread is then treated as alive, which may
   leave the lock locked but never gives it to two owners.  Direct
   system calls, so that a lock release never changes errno.  */
static bool
tp_thread_unreaped (pid_t tid)
{
  char digits[3 * sizeof (pid_t)];
  char *first = _itoa_word (tid, digits + sizeof digits, 10, 0);
  char path[sizeof "/proc/" + sizeof digits + sizeof "/stat"];
  char *p = __mempcpy (path, "/proc/", strlen ("/proc/"));
  p = __mempcpy (p, first, digits + sizeof digits - first);
  strcpy (p, "/stat");

  long int fd = INTERNAL_SYSCALL_CALL (openat, AT_FDCWD, path,
				       O_RDONLY | O_CLOEXEC);
  if (INTERNAL_SYSCALL_ERROR_P (fd))
    return false;
  /* TID, COMM (at most 15 bytes, TASK_COMM_LEN) and the state fit.  */
  char stat[64];
  long int n = INTERNAL_SYSCALL_CALL (read, fd, stat, sizeof stat - 1);
  INTERNAL_SYSCALL_CALL (close, fd);
  if (INTERNAL_SYSCALL_ERROR_P (n))
    return false;
  stat[n] = '\0';
  char *paren = strrchr (stat, ')');
  if (paren == NULL || paren[1] != ' ')
    return false;
  return paren[2] == 'Z' || paren[2] == 'X' || paren[2] == 'x';
}

/* See tp-wait.h.  Uses signal 0, which checks for existence only.  Only
   called when a hand-off is about to happen, at most once per threshold
   and requester.  A thread of our own process cannot be unreaped while
   it is registered (it would have to exit inside the lock call), so
   only a process-shared lock's requester is checked for that.  */
bool
__pthread_tp_thread_alive (pid_t tid, bool pshared)
{
  long int r;
  if (!pshared)
    r = INTERNAL_SYSCALL_CALL (tgkill, __getpid (), tid, 0);
  else
    r = INTERNAL_SYSCALL_CALL (tkill, tid, 0);
  if (INTERNAL_SYSCALL_ERROR_P (r) && INTERNAL_SYSCALL_ERRNO (r) == ESRCH)
    return false;
  return !(pshared && tp_thread_unreaped (tid));
}

/* U0 failed: waiters, hand-off, or the kernel path.  */
static void __attribute_noinline__
tp_release_slow (pthread_mutex_t *mutex, int kind)
{
  int private = tp_private (kind);

  if (tp_use_kernel ())
    {
      TP_STAT_INC (TP_STAT_KERNEL_UNLOCKS);
      long int r = tp_kernel_unlock (tp_word (mutex),
				     __lll_private_flag (TP_FUTEX_UNLOCK,
							 private));
      if (r >= 0)
	return;
      if (r == -ENOSYS)
	atomic_store_relaxed (&__pthread_mutex_tp_kernel, -1);
      else if (r != -EPERM)
	return;
      /* ENOSYS, or EPERM: the caller does not own the word (a normal or
	 adaptive mutex unlocked by another thread).  Release it the
	 user-space way.  */
    }
  struct tp_lock_ref l;
  tp_mutex_ref (&l, mutex, kind);
  tp_core_release (&l);
}

void
__pthread_mutex_tp_release (pthread_mutex_t *mutex, int kind)
{
  unsigned int expected = THREAD_GETMEM (THREAD_SELF, tid);
  /* U0.  Release MO pairs with T0/T1/T2 of the next owner.  */
  if (!atomic_compare_exchange_weak_release (tp_word (mutex), &expected, 0))
    tp_release_slow (mutex, kind);
}

static int
tp_unlock_robust (pthread_mutex_t *mutex, int kind, int decr)
{
  int newowner = 0;
  if (__glibc_unlikely (mutex->__data.__owner == PTHREAD_MUTEX_INCONSISTENT))
    {
      /* Unlocked without pthread_mutex_consistent: the mutex becomes
	 unusable (the whole recursion is released).  */
      newowner = PTHREAD_MUTEX_NOTRECOVERABLE;
      mutex->__data.__count = 0;
    }
  else if (--mutex->__data.__count != 0)
    /* A recursive mutex still locked (__count is 1 for other types).  */
    return 0;

  /* Written before the releasing U0/U1/U2; read by the next owner after
     its acquiring T0/T1/T2.  */
  mutex->__data.__owner = newowner;
  if (decr)
    --mutex->__data.__nusers;

  /* Announce the operation to the kernel (K) while we leave the list and
     release the word, as pthread_mutex_unlock.c does.  */
  THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending,
		 (void *) &mutex->__data.__list.__next);
  __asm ("" ::: "memory");
  DEQUEUE_MUTEX (mutex);
  __pthread_mutex_tp_release (mutex, kind);
  __asm ("" ::: "memory");
  THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending, NULL);

  LIBC_PROBE (mutex_release, 1, mutex);
  return 0;
}

/* Everything but the uncontended unlock of a non-robust mutex owned by
   the caller.  */
static int __attribute_noinline__
tp_unlock_slow (pthread_mutex_t *mutex, int kind, pid_t tid, int decr)
{
  /* Relaxed MO suffices to recognise our own TID (I1).  */
  if ((atomic_load_relaxed (tp_word (mutex)) & FUTEX_TID_MASK)
      != (unsigned int) tid)
    {
      /* Like glibc's normal and adaptive mutexes, a non-robust TP mutex
	 of those types may be unlocked by a thread that does not own it;
	 every other kind reports EPERM.  */
      int type = kind & (PTHREAD_MUTEX_KIND_MASK_NP
			 | PTHREAD_MUTEX_ROBUST_NORMAL_NP);
      if (type != PTHREAD_MUTEX_TIMED_NP && type != PTHREAD_MUTEX_ADAPTIVE_NP)
	return EPERM;
      mutex->__data.__owner = 0;
      if (decr)
	--mutex->__data.__nusers;
      tp_release_slow (mutex, kind);
      LIBC_PROBE (mutex_release, 1, mutex);
      return 0;
    }

  if ((kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) != 0)
    return tp_unlock_robust (mutex, kind, decr);

  if (--mutex->__data.__count != 0)
    return 0;

  mutex->__data.__owner = 0;
  if (decr)
    --mutex->__data.__nusers;
  __pthread_mutex_tp_release (mutex, kind);
  LIBC_PROBE (mutex_release, 1, mutex);
  return 0;
}

int
__pthread_mutex_tp_unlock (pthread_mutex_t *mutex, int decr)
{
  /* See concurrency notes regarding __kind in struct __pthread_mutex_s
     in sysdeps/nptl/bits/thread-shared-types.h.  */
  int kind = atomic_load_relaxed (&mutex->__data.__kind);
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);
  unsigned int *word = tp_word (mutex);

  /* The fast path, for a non-robust mutex that names us its owner and
     is not recursively locked: U0.  Every other case is a tail call.
     The owner and user count are updated before U0, so that they are
     ordered before the next owner's updates by the release MO of U0; if
     U0 fails (a waiter set W, or the CAS failed spuriously), the slow
     release follows.  __owner, which our lock wrote after taking the
     word, is the test rather than a load of the word: with that load
     before U0's CAS, an uncontended lock and unlock took 1.10-1.16
     times the normal mutex's time, 1.01-1.08 without (bench-lock-
     contention --kinds mutex-normal,mutex-tp --threads 1 --cs short
     --lock-latency 0 --repeat 9, three runs of each build).  The two
     tests differ only for a normal or adaptive mutex that another
     thread unlocked (allowed for those types, as for glibc's): then
     __owner may name us while the word does not, U0 fails, and the
     slow release runs as tp_unlock_slow would have run it.  */
  if (__glibc_likely ((kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) == 0
		      && mutex->__data.__owner == tid
		      && mutex->__data.__count == 1))
    {
      /* __count stays 1: it only means something while locked.  */
      mutex->__data.__owner = 0;
      /* Only the condition variable's release does not count.  */
      if (__glibc_likely (decr))
	--mutex->__data.__nusers;
      /* U0.  In a process with one thread, a plain store releases the
	 word of a private mutex, as T0 took it (tp_lock_fast): nobody
	 can have set W, and no other thread can have unlocked the mutex
	 for us, so __owner proves the word ours.  (A process never has
	 one thread again once it had two; the child of a fork does, but
	 with its own TID, which no __owner copied from the parent
	 holds.)  Expected to fail, as in tp_lock_fast.  */
      if (__glibc_unlikely (SINGLE_THREAD_P)
	  && (kind & PTHREAD_MUTEX_PSHARED_BIT) == 0)
	{
	  atomic_store_relaxed (word, 0);
	  LIBC_PROBE (mutex_release, 1, mutex);
	  return 0;
	}
      unsigned int expected = tid;
      /* U0.  Release MO pairs with T0/T1/T2 of the next owner.  */
      if (__glibc_likely (atomic_compare_exchange_weak_release
			  (word, &expected, 0)))
	{
	  LIBC_PROBE (mutex_release, 1, mutex);
	  return 0;
	}
      /* A waiter set W (or a spurious failure): we still own the word,
	 and the release slow path handles it; or another thread
	 unlocked it for us (see above), and the slow path releases as
	 tp_unlock_slow does for a word that is not ours.  */
      tp_release_slow (mutex, kind);
      LIBC_PROBE (mutex_release, 1, mutex);
      return 0;
    }
  return tp_unlock_slow (mutex, kind, tid, decr);
}
