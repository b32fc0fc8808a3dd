/* TP rwlock tests: common helpers.
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

#include <pthread.h>
#include <stdbool.h>
#include <support/check.h>
#include <support/xthread.h>
#include <linux/futex.h>

/* PF_WAIT_UNTIL, pf_sleep_ms.  */
#include "tst-rwlock-pf-common.h"

/* The futex word (layout at the top of nptl/pthread_rwlock_tp.c).  The
   tests read it to check that an idle lock is all zero and to wait until
   another thread has announced itself, never to decide what the lock
   does.  The bits are the kernel's (<linux/futex.h> of the TPF series);
   with kernel headers that lack the reader-owned layout the tests do
   not look at it (TST_TPRW_SHARED undefined).  */
#define TST_TPRW_WAITERS ((unsigned int) FUTEX_WAITERS)
#ifdef FUTEX_SCNT_MASK
# define TST_TPRW_SHARED ((unsigned int) FUTEX_SHARED)
/* The reader count's field, and so the most readers the lock admits.  */
# define TST_TPRW_COUNT_MASK ((unsigned int) FUTEX_SCNT_MASK)
#endif

static inline unsigned int
tst_tprw_word (pthread_rwlock_t *l)
{
  return __atomic_load_n (&l->__data.__readers, __ATOMIC_RELAXED);
}

/* Initialize L as a TP rwlock, process-shared if PSHARED.  */
static inline void
tst_tprw_init (pthread_rwlock_t *l, bool pshared)
{
  pthread_rwlockattr_t a;
  TEST_COMPARE (pthread_rwlockattr_init (&a), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&a, PTHREAD_RWLOCK_TP_NP), 0);
  if (pshared)
    TEST_COMPARE (pthread_rwlockattr_setpshared (&a,
						 PTHREAD_PROCESS_SHARED), 0);
  TEST_COMPARE (pthread_rwlock_init (l, &a), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&a), 0);
}

/* The lock is idle: word and hand-off word zero, a writer gets it.  */
static inline void
tst_tprw_check_idle (pthread_rwlock_t *l)
{
  TEST_COMPARE (tst_tprw_word (l), 0);
  TEST_COMPARE (l->__data.__writers, 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (l), 0);
  TEST_COMPARE (tst_tprw_word (l), 0);
}

/* Mutual exclusion workload: writers bump COUNTER twice per critical
   section (odd while inside); readers check that it is even and does
   not move during their section.  */
struct tst_tprw_load
{
  pthread_rwlock_t *lock;
  volatile unsigned int *counter;
  unsigned int *violations;
  int iters;
};

static inline void
tst_tprw_spin (int n)
{
  for (int j = 0; j < n; j++)
    __asm__ volatile ("" ::: "memory");
}

static __attribute__ ((unused)) void *
tst_tprw_writer (void *arg)
{
  struct tst_tprw_load *w = arg;
  for (int i = 0; i < w->iters; i++)
    {
      /* Every third operation through trywrlock, to mix the paths.  */
      if (i % 3 != 0 || pthread_rwlock_trywrlock (w->lock) != 0)
	xpthread_rwlock_wrlock (w->lock);
      unsigned int c = *w->counter;
      if (c % 2 != 0)
	__atomic_fetch_add (w->violations, 1, __ATOMIC_RELAXED);
      *w->counter = c + 1;
      tst_tprw_spin (20);
      *w->counter = c + 2;
      xpthread_rwlock_unlock (w->lock);
    }
  return NULL;
}

static __attribute__ ((unused)) void *
tst_tprw_reader (void *arg)
{
  struct tst_tprw_load *w = arg;
  for (int i = 0; i < w->iters; i++)
    {
      if (i % 3 != 0 || pthread_rwlock_tryrdlock (w->lock) != 0)
	xpthread_rwlock_rdlock (w->lock);
      unsigned int c = *w->counter;
      tst_tprw_spin (20);
      if (c % 2 != 0 || *w->counter != c)
	__atomic_fetch_add (w->violations, 1, __ATOMIC_RELAXED);
      xpthread_rwlock_unlock (w->lock);
    }
  return NULL;
}
