/* Phase-fair rwlock: phase-fair bound and no writer starvation.
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
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>

#include "tst-rwlock-pf-common.h"

static pthread_rwlock_t lock;
static int order[4];
static int norder;
static int w2_inside;
static pid_t w2_tid;

static void
record (int who)
{
  order[__atomic_fetch_add (&norder, 1, __ATOMIC_RELAXED)] = who;
}

static void *
second_writer (void *arg)
{
  pf_note_tid (&w2_tid);
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  __atomic_store_n (&w2_inside, 1, __ATOMIC_RELAXED);
  record (2);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

static void *
late_reader (void *arg)
{
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
  record (1);
  /* The waiting writer must stay out while we read.  */
  pf_sleep_ms (100);
  TEST_COMPARE (__atomic_load_n (&w2_inside, __ATOMIC_RELAXED), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

/* A writer holds the lock and a second writer waits; a reader arriving
   now waits for the first writer phase only and gets in before the
   second writer.  */
static void
test_one_phase (void)
{
  norder = 0;
  w2_inside = 0;
  w2_tid = 0;
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  pthread_t w2 = xpthread_create (NULL, second_writer, NULL);
  pf_wait_blocked (&w2_tid);
  pthread_t r = xpthread_create (NULL, late_reader, NULL);
  PF_WAIT_UNTIL (pf_rin_count (&lock) == 1);
  pf_sleep_ms (20);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  xpthread_join (r);
  xpthread_join (w2);
  TEST_COMPARE (norder, 2);
  TEST_COMPARE (order[0], 1);
  TEST_COMPARE (order[1], 2);
  pf_check_idle (&lock);
}

/* Readers whose critical sections overlap keep the lock read-held all
   the time; a writer still gets in, after the readers present when it
   arrived have left.  A reader-preferring lock fails this.  */
enum { NSTREAM = 4 };
static int stop;
static unsigned long int reads;

static void *
stream_reader (void *arg)
{
  while (!__atomic_load_n (&stop, __ATOMIC_RELAXED))
    {
      TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
      pf_sleep_ms (2);
      __atomic_fetch_add (&reads, 1, __ATOMIC_RELAXED);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
    }
  return NULL;
}

static void
test_no_starvation (void)
{
  pthread_t th[NSTREAM];
  for (int i = 0; i < NSTREAM; i++)
    th[i] = xpthread_create (NULL, stream_reader, NULL);
  PF_WAIT_UNTIL (__atomic_load_n (&reads, __ATOMIC_RELAXED) > 20);
  for (int i = 0; i < 20; i++)
    {
      /* Generous margin: the writer waits for a few 2 ms sections.  */
      struct timespec abs = timespec_add (xclock_now (CLOCK_MONOTONIC),
					  make_timespec (5, 0));
      TEST_COMPARE (pthread_rwlock_clockwrlock (&lock, CLOCK_MONOTONIC,
						&abs), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      pf_sleep_ms (5);
    }
  __atomic_store_n (&stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < NSTREAM; i++)
    xpthread_join (th[i]);
  pf_check_idle (&lock);
}

static int
do_test (void)
{
  pf_init (&lock, PTHREAD_PROCESS_PRIVATE);
  for (int i = 0; i < 3; i++)
    test_one_phase ();
  test_no_starvation ();
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
