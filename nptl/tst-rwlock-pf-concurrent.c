/* Phase-fair rwlock: readers are concurrent and released together.
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
#include <support/check.h>
#include <support/xthread.h>

#include "tst-rwlock-pf-common.h"

/* Every reader waits at a barrier for all the others while it holds the
   read lock: the test completes only if all NREADERS are inside at
   once.  In the second round they all queue behind a writer first, so
   the end of the writer phase must let all of them in together.  */
enum { NREADERS = 6 };
static pthread_rwlock_t lock;
static pthread_barrier_t inside;

static void *
reader (void *arg)
{
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
  xpthread_barrier_wait (&inside);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

static void
do_round (bool behind_writer)
{
  pthread_t th[NREADERS];
  if (behind_writer)
    TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  for (int i = 0; i < NREADERS; i++)
    th[i] = xpthread_create (NULL, reader, NULL);
  if (behind_writer)
    {
      /* All readers are counted in the entry word, i.e. waiting for
	 this writer phase to end; let them sleep.  */
      PF_WAIT_UNTIL (pf_rin_count (&lock) == NREADERS);
      pf_sleep_ms (50);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
    }
  for (int i = 0; i < NREADERS; i++)
    xpthread_join (th[i]);
  pf_check_idle (&lock);
}

static int
do_test (void)
{
  pf_init (&lock, PTHREAD_PROCESS_PRIVATE);
  xpthread_barrier_init (&inside, NULL, NREADERS);
  do_round (false);
  do_round (true);
  do_round (true);
  xpthread_barrier_destroy (&inside);
  return 0;
}

#define TIMEOUT 20
#include <support/test-driver.c>
