/* TP rwlock: readers run concurrently; writers exclude everyone.
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

#include "tst-rwlock-tp-common.h"

enum { NCONC = 4, NWRITERS = 3, NREADERS = 5, ITERS = 20000 };

static pthread_rwlock_t lock;
static pthread_barrier_t inside;

/* Each reader meets all others at a barrier while it holds its read
   lock: this completes only if NCONC read locks are held at once.  */
static void *
concurrent_reader (void *arg)
{
  xpthread_rwlock_rdlock (&lock);
  xpthread_barrier_wait (&inside);
  xpthread_rwlock_unlock (&lock);
  return NULL;
}

static int
do_test (void)
{
  tst_tprw_init (&lock, false);

  xpthread_barrier_init (&inside, NULL, NCONC);
  pthread_t th[NWRITERS + NREADERS];
  for (int i = 0; i < NCONC; i++)
    th[i] = xpthread_create (NULL, concurrent_reader, NULL);
  for (int i = 0; i < NCONC; i++)
    xpthread_join (th[i]);
  xpthread_barrier_destroy (&inside);
  tst_tprw_check_idle (&lock);

  /* Contended mixed load, with every path: fast, spinning, sleeping,
     trylock.  */
  static volatile unsigned int counter;
  static unsigned int violations;
  struct tst_tprw_load load = { &lock, &counter, &violations, ITERS };
  for (int i = 0; i < NWRITERS + NREADERS; i++)
    th[i] = xpthread_create (NULL, i < NWRITERS ? tst_tprw_writer
			     : tst_tprw_reader, &load);
  for (int i = 0; i < NWRITERS + NREADERS; i++)
    xpthread_join (th[i]);
  TEST_COMPARE (violations, 0);
  TEST_COMPARE (counter, 2 * NWRITERS * ITERS);
  tst_tprw_check_idle (&lock);

  TEST_COMPARE (pthread_rwlock_destroy (&lock), 0);
  return 0;
}

#include <support/test-driver.c>
