/* TP rwlock: neither readers nor writers starve.
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

/* A stream of overlapping readers keeps the lock read-locked all the
   time: a writer gets in only because readers do not join a lock whose
   waiter has announced itself.  A stream of writers that re-lock at
   once keeps the lock write-locked nearly all the time: a reader gets
   in only through hand-off (the user-space path's, or the kernel's).
   Both waits must stay within the hand-off threshold (20 ms by default)
   plus a margin that is generous for a loaded machine; without the
   mechanisms they last as long as the streams do (the test runs the
   streams for the whole wait, so a starved waiter fails here).  */

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <support/timespec.h>
#include "tst-rwlock-tp-common.h"

enum { NSTREAM = 3, ROUNDS = 5 };
/* The bound for one wait: threshold + margin.  */
static const int64_t bound_ms = 1000;

static pthread_rwlock_t lock;
static volatile int stop;

static void *
reader_stream (void *arg)
{
  while (!stop)
    {
      xpthread_rwlock_rdlock (&lock);
      tst_tprw_spin (2000);
      xpthread_rwlock_unlock (&lock);
    }
  return NULL;
}

static void *
writer_stream (void *arg)
{
  while (!stop)
    {
      xpthread_rwlock_wrlock (&lock);
      tst_tprw_spin (2000);
      xpthread_rwlock_unlock (&lock);
    }
  return NULL;
}

static int64_t
ms_since (struct timespec start)
{
  struct timespec d = timespec_sub (xclock_now (CLOCK_MONOTONIC), start);
  return d.tv_sec * INT64_C (1000) + d.tv_nsec / 1000000;
}

/* Run NSTREAM threads of STREAM and, ROUNDS times, time one lock of the
   other kind (WRITER) by the main thread.  Returns the longest wait.  */
static int64_t
worst_wait (void *(*stream) (void *), bool writer)
{
  pthread_t th[NSTREAM];
  stop = 0;
  for (int i = 0; i < NSTREAM; i++)
    th[i] = xpthread_create (NULL, stream, NULL);
  int64_t worst = 0;
  for (int r = 0; r < ROUNDS; r++)
    {
      pf_sleep_ms (20);
      struct timespec start = xclock_now (CLOCK_MONOTONIC);
      if (writer)
	xpthread_rwlock_wrlock (&lock);
      else
	xpthread_rwlock_rdlock (&lock);
      int64_t waited = ms_since (start);
      xpthread_rwlock_unlock (&lock);
      if (waited > worst)
	worst = waited;
    }
  stop = 1;
  for (int i = 0; i < NSTREAM; i++)
    xpthread_join (th[i]);
  return worst;
}

static int
do_test (void)
{
  tst_tprw_init (&lock, false);

  int64_t w = worst_wait (reader_stream, true);
  printf ("writer against %d readers: worst wait %lld ms\n", NSTREAM,
	  (long long int) w);
  TEST_VERIFY (w <= bound_ms);
  tst_tprw_check_idle (&lock);

  int64_t r = worst_wait (writer_stream, false);
  printf ("reader against %d writers: worst wait %lld ms\n", NSTREAM,
	  (long long int) r);
  TEST_VERIFY (r <= bound_ms);
  tst_tprw_check_idle (&lock);

  TEST_COMPARE (pthread_rwlock_destroy (&lock), 0);
  return 0;
}

#include <support/test-driver.c>
