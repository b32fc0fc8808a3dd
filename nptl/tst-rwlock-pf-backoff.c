/* Phase-fair rwlock: readers back off from a writer phase (P6).
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

/* With a hand-off threshold of 1 s (the test's environment), a reader
   that arrives during a writer phase that does not end:
   P6  retracts its arrival and backs off: for most of the threshold it
       is in no count of the reader entry word, so a writer phase that
       started then would not wait for it;
   G2  arrives for good before the threshold has passed (counted, it
       waits for the phase's end), and gets the lock when the phase
       ends;
   G4  a timed reader whose timeout expires while it backs off returns
       ETIMEDOUT and leaves the lock as it was.  */

#include <errno.h>
#include <stdint.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>

#include "tst-rwlock-pf-common.h"

/* The hand-off threshold set by the test's environment, ms.  */
#define THRESHOLD_MS 1000

/* How long a reader that arrived for good must have stayed counted
   when the test looks: far longer than a spin of its back-off (P6).  */
#define STAY_MS 50

static pthread_rwlock_t lock;

static int64_t
now_ms (void)
{
  struct timespec ts = xclock_now (CLOCK_MONOTONIC);
  return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int reader_done;

static void *
reader (void *arg)
{
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
  __atomic_store_n (&reader_done, 1, __ATOMIC_RELEASE);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

static void *
timed_reader (void *arg)
{
  struct timespec abs = timespec_add (xclock_now (CLOCK_MONOTONIC),
				      make_timespec (0, 300 * 1000000L));
  TEST_COMPARE (pthread_rwlock_clockrdlock (&lock, CLOCK_MONOTONIC, &abs),
		ETIMEDOUT);
  return NULL;
}

/* P6 and G2: while we hold the write lock, a reader is counted in at
   most a few of the looks during the first half of the threshold (only
   between an arrival and the end of its spin), then for good before the
   threshold has passed.  */
static void
test_back_off (void)
{
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  int64_t start = now_ms ();
  pthread_t r = xpthread_create (NULL, reader, NULL);
  int looks = 0, counted = 0;
  while (now_ms () - start < THRESHOLD_MS / 2)
    {
      looks++;
      counted += pf_rin_count (&lock) != 0;
      pf_sleep_ms (2);
    }
  printf ("info: counted in %d of %d looks\n", counted, looks);
  TEST_VERIFY (looks >= 100);
  TEST_VERIFY (counted * 10 < looks);
  /* For good: counted, and still counted STAY_MS later.  A reader that
     arrives to spin before it backs off again is counted for its spin
     too, and under emulation (qemu-user, the ppc64le-tp suite) that
     spin was once seen at 749 ms, before the last back-off, and the
     reader was gone 100 ms later.  */
  int64_t arrived;
  for (;;)
    {
      PF_WAIT_UNTIL (pf_rin_count (&lock) == 1);
      arrived = now_ms () - start;
      bool stayed = true;
      for (int i = 0; stayed && i < STAY_MS / 2; i++)
	{
	  pf_sleep_ms (2);
	  stayed = pf_rin_count (&lock) == 1;
	}
      if (stayed)
	break;
      printf ("info: counted at %lld ms, then not\n",
	      (long long int) arrived);
      if (now_ms () - start > 10 * THRESHOLD_MS)
	FAIL_EXIT1 ("the reader never stayed counted");
    }
  printf ("info: arrived for good after %lld ms\n", (long long int) arrived);
  /* Scheduling may delay the last arrival a little past the
     threshold.  */
  TEST_VERIFY (arrived < THRESHOLD_MS + 200);
  /* Counted, it stays until the phase ends.  */
  pf_sleep_ms (100);
  TEST_COMPARE (pf_rin_count (&lock), 1);
  TEST_COMPARE (__atomic_load_n (&reader_done, __ATOMIC_ACQUIRE), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  xpthread_join (r);
  TEST_COMPARE (reader_done, 1);
  pf_check_idle (&lock);
}

/* G4: a reader that times out in its back-off is in no count.  */
static void
test_timeout_in_back_off (void)
{
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  xpthread_join (xpthread_create (NULL, timed_reader, NULL));
  TEST_COMPARE (pf_rin_count (&lock), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  pf_check_idle (&lock);
}

static int
do_test (void)
{
  pf_init (&lock, PTHREAD_PROCESS_PRIVATE);
  test_back_off ();
  test_timeout_in_back_off ();
  return 0;
}

#define TIMEOUT 30
#include <support/test-driver.c>
