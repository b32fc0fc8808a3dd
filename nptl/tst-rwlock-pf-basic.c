/* Phase-fair rwlock: kind, single-thread semantics, exclusion invariant.
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

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <support/check.h>
#include <support/xthread.h>

#include "tst-rwlock-pf-common.h"

/* Mutual exclusion: writers bump a counter twice per critical section
   (odd while inside); readers check that it is even and does not move
   during their section.  Any overlap of a writer with anyone is seen.  */
enum { NWRITERS = 3, NREADERS = 5, ITERS = 20000 };
static pthread_rwlock_t lock;
static volatile unsigned int counter;
static unsigned int violations;

static void *
writer (void *arg)
{
  for (int i = 0; i < ITERS; i++)
    {
      xpthread_rwlock_wrlock (&lock);
      unsigned int c = counter;
      if (c % 2 != 0)
	__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED);
      counter = c + 1;
      for (int j = 0; j < 20; j++)
	__asm__ volatile ("" ::: "memory");
      counter = c + 2;
      xpthread_rwlock_unlock (&lock);
    }
  return NULL;
}

static void *
reader (void *arg)
{
  for (int i = 0; i < ITERS; i++)
    {
      xpthread_rwlock_rdlock (&lock);
      unsigned int c = counter;
      for (int j = 0; j < 20; j++)
	__asm__ volatile ("" ::: "memory");
      if (c % 2 != 0 || counter != c)
	__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED);
      xpthread_rwlock_unlock (&lock);
    }
  return NULL;
}

/* The reader limit: with 2^23 - 1 readers counted (set up in the words
   as that many read locks would leave them), every read lock fails with
   EAGAIN and changes nothing; one reader fewer and it succeeds.  */
static void
test_reader_limit (void)
{
  const unsigned int limit = (1u << 23) - 1;
  for (int phase = 0; phase < 2; phase++)
    {
      /* Without and with the exit counter away from 0.  */
      unsigned int out = phase == 0 ? 0 : 0x123456u << 8;
      lock.__data.__wrphase_futex = out;
      lock.__data.__readers = out + (limit << 8);
      pthread_rwlock_t before = lock;
      struct timespec abs = { 0, 0 };
      TEST_COMPARE (pthread_rwlock_rdlock (&lock), EAGAIN);
      TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EAGAIN);
      TEST_COMPARE (pthread_rwlock_timedrdlock (&lock, &abs), EAGAIN);
      TEST_VERIFY (memcmp (&before, &lock, sizeof lock) == 0);
      TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);

      lock.__data.__readers = out + ((limit - 1) << 8);
      TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
      TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EAGAIN);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
    }
  /* During a writer phase, the readers that wait for it are limited
     likewise (PRES set, that many arrivals in the phase).  */
  lock.__data.__wrphase_futex = 0;
  lock.__data.__readers = (limit << 8) | 1;
  pthread_rwlock_t before = lock;
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), EAGAIN);
  TEST_VERIFY (memcmp (&before, &lock, sizeof lock) == 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EBUSY);

  lock.__data.__readers = 0;
  lock.__data.__wrphase_futex = 0;
  pf_check_idle (&lock);
}

static int
do_test (void)
{
  /* Kinds: the new one is accepted and read back; invalid ones are
     rejected and leave the attribute unchanged.  */
  pthread_rwlockattr_t attr;
  int kind;
  TEST_COMPARE (pthread_rwlockattr_init (&attr), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&attr,
					       PTHREAD_RWLOCK_PHASE_FAIR_NP), 0);
  TEST_COMPARE (pthread_rwlockattr_getkind_np (&attr, &kind), 0);
  TEST_COMPARE (kind, PTHREAD_RWLOCK_PHASE_FAIR_NP);
  static const int bad[] = { -1, 5, 255, 256, 0x10003 };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      TEST_COMPARE (pthread_rwlockattr_setkind_np (&attr, bad[i]), EINVAL);
      TEST_COMPARE (pthread_rwlockattr_getkind_np (&attr, &kind), 0);
      TEST_COMPARE (kind, PTHREAD_RWLOCK_PHASE_FAIR_NP);
    }

  /* The static initializer gives the same lock as init with the kind.  */
  pthread_rwlock_t st = PTHREAD_RWLOCK_PHASE_FAIR_INITIALIZER_NP;
  TEST_COMPARE (st.__data.__flags, PTHREAD_RWLOCK_PHASE_FAIR_NP);
  TEST_COMPARE (pthread_rwlock_init (&lock, &attr), 0);
  TEST_VERIFY (memcmp (&st, &lock, sizeof st) == 0);

  /* Single thread: read locks share, write lock excludes.  */
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EBUSY);
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);
  /* EDEADLK for the writer that locks again, either way.  */
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), EDEADLK);
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), EDEADLK);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  /* The EDEADLK reader left no trace: the lock is free.  */
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  pf_check_idle (&lock);

  /* Many phases, to wrap the phase id many times.  */
  for (int i = 0; i < 1000; i++)
    {
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
    }
  pf_check_idle (&lock);

  /* Contended, then again with the reader counters just below their
     wrap-around point (the words are set as a long history without
     writers would leave them: equal reader counts), so that the counters
     wrap while threads use the lock.  */
  for (int wrap = 0; wrap < 2; wrap++)
    {
      if (wrap)
	{
	  lock.__data.__readers = 0xffffff00u - 7 * 0x100;
	  lock.__data.__wrphase_futex = 0xffffff00u - 7 * 0x100;
	  pf_check_idle (&lock);
	}
      counter = 0;
      pthread_t th[NWRITERS + NREADERS];
      for (int i = 0; i < NWRITERS + NREADERS; i++)
	th[i] = xpthread_create (NULL, i < NWRITERS ? writer : reader, NULL);
      for (int i = 0; i < NWRITERS + NREADERS; i++)
	xpthread_join (th[i]);
      TEST_COMPARE (violations, 0);
      TEST_COMPARE (counter, 2 * NWRITERS * ITERS);
      pf_check_idle (&lock);
      if (wrap)
	/* The writer phases started counting afresh.  */
	TEST_VERIFY (pf_rin_count (&lock) < 0xfffff9u);
    }

  test_reader_limit ();

  TEST_COMPARE (pthread_rwlock_destroy (&lock), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&attr), 0);
  return 0;
}

#include <support/test-driver.c>
