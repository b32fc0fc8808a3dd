/* Phase-fair rwlock: process-shared between two processes.
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
#include <support/check.h>

#include "tst-rwlock-pf-common.h"
#include "tst-rwlock-pshared-run.h"

enum { ITERS = 20000 };

/* Each process runs writers and readers on the shared lock, which
   needs shared futexes.  */
static void
work (struct tst_pshared *s, int self)
{
  for (int i = 0; i < ITERS; i++)
    if ((i + self) % 3 == 0)
      {
	TEST_COMPARE (pthread_rwlock_wrlock (&s->lock), 0);
	unsigned int c = s->counter;
	if (c % 2 != 0)
	  __atomic_fetch_add (&s->violations, 1, __ATOMIC_RELAXED);
	s->counter = c + 1;
	__asm__ volatile ("" ::: "memory");
	s->counter = c + 2;
	TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
      }
    else
      {
	TEST_COMPARE (pthread_rwlock_rdlock (&s->lock), 0);
	unsigned int c = s->counter;
	for (int j = 0; j < 100; j++)
	  __asm__ volatile ("" ::: "memory");
	if (c % 2 != 0 || s->counter != c)
	  __atomic_fetch_add (&s->violations, 1, __ATOMIC_RELAXED);
	TEST_COMPARE (pthread_rwlock_unlock (&s->lock), 0);
      }
}

/* The child has added itself to the reader entry word.  */
static bool
child_blocked (pthread_rwlock_t *l)
{
  return pf_rin_count (l) == 1;
}

static int
do_test (void)
{
  struct tst_pshared *s = tst_pshared_map ();
  pf_init (&s->lock, PTHREAD_PROCESS_SHARED);
  tst_pshared_run (s, child_blocked, work);
  /* Each process writes ITERS / 3 times, rounded by its offset.  */
  unsigned int writes = 0;
  for (int self = 0; self < 2; self++)
    for (int i = 0; i < ITERS; i++)
      writes += (i + self) % 3 == 0;
  TEST_COMPARE (s->counter, 2 * writes);
  pf_check_idle (&s->lock);
  xmunmap (s, sizeof *s);
  return 0;
}

#include <support/test-driver.c>
