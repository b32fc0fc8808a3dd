/* Phase-fair rwlock: timeouts on both clocks, and writers giving up.
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
#include <stdint.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>

#include "tst-rwlock-pf-common.h"

static pthread_rwlock_t lock;

/* The ways to wait with a timeout.  */
enum how { TIMED, CLOCK_RT, CLOCK_MONO, NHOW };
static const clockid_t how_clock[NHOW] =
  { CLOCK_REALTIME, CLOCK_REALTIME, CLOCK_MONOTONIC };

struct req
{
  bool write;
  enum how how;
  int ms;			/* Timeout; negative: wait forever.  */
  int result;
  pid_t tid;			/* Set by the thread before it locks.  */
};

/* Lock as R says; if that succeeds, unlock at once.  A timeout must not
   come early, nor more than a generous 2 s late.  */
static void *
locker (void *arg)
{
  struct req *r = arg;
  pf_note_tid (&r->tid);
  clockid_t c = how_clock[r->how];
  struct timespec start = xclock_now (c);
  struct timespec abs = timespec_add (start,
				      make_timespec (r->ms / 1000,
						     (r->ms % 1000) * 1000000L));
  if (r->ms < 0)
    r->result = r->write ? pthread_rwlock_wrlock (&lock)
			 : pthread_rwlock_rdlock (&lock);
  else if (r->how == TIMED)
    r->result = r->write ? pthread_rwlock_timedwrlock (&lock, &abs)
			 : pthread_rwlock_timedrdlock (&lock, &abs);
  else
    r->result = r->write ? pthread_rwlock_clockwrlock (&lock, c, &abs)
			 : pthread_rwlock_clockrdlock (&lock, c, &abs);
  struct timespec end = xclock_now (c);
  if (r->result == ETIMEDOUT)
    {
      TEST_VERIFY (timespec_sub (end, abs).tv_sec >= 0);
      TEST_VERIFY (timespec_sub (end, abs).tv_sec < 2);
    }
  if (r->result == 0)
    TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

static int
run (bool write, enum how how, int ms)
{
  struct req r = { write, how, ms, -1, 0 };
  xpthread_join (xpthread_create (NULL, locker, &r));
  return r.result;
}

static pthread_t
start (struct req *r)
{
  return xpthread_create (NULL, locker, r);
}

static int
do_test (void)
{
  pf_init (&lock, PTHREAD_PROCESS_PRIVATE);

  /* Invalid timeouts and clocks.  */
  struct timespec bad = { 0, -1 };
  TEST_COMPARE (pthread_rwlock_timedrdlock (&lock, &bad), EINVAL);
  TEST_COMPARE (pthread_rwlock_timedwrlock (&lock, &bad), EINVAL);
  struct timespec now = xclock_now (CLOCK_REALTIME);
  TEST_COMPARE (pthread_rwlock_clockrdlock (&lock, CLOCK_PROCESS_CPUTIME_ID,
					    &now), EINVAL);
  TEST_COMPARE (pthread_rwlock_clockwrlock (&lock, CLOCK_PROCESS_CPUTIME_ID,
					    &now), EINVAL);
  /* An expired timeout on a free lock still succeeds.  */
  TEST_COMPARE (pthread_rwlock_timedwrlock (&lock, &now), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_timedrdlock (&lock, &now), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);

  for (enum how how = 0; how < NHOW; how++)
    {
      /* A writer holds: readers and writers time out (waiting for the
	 phase, and waiting for the writer role, past the hand-off
	 threshold so that the writer registers and must withdraw).  */
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      TEST_COMPARE (run (false, how, 100), ETIMEDOUT);
      TEST_COMPARE (run (true, how, 100), ETIMEDOUT);
      TEST_COMPARE (pf_role_holder (&lock), gettid ());
      TEST_COMPARE (PF_T_HANDOFF (&lock), 0);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      pf_check_idle (&lock);

      /* A reader holds: a writer times out while draining.  Its phase
	 goes on until the drain completes (I6), so the reader that
	 arrived in it still waits; our unlock, the last of the drain,
	 ends the phase and lets that reader in.  */
      TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
      struct req w = { true, how, 300, -1, 0 };
      struct req r = { false, how, 20000, -1, 0 };
      pthread_t tw = start (&w);
      PF_WAIT_UNTIL ((PF_T_READERS (&lock) & 1) != 0);
      pthread_t tr = start (&r);
      xpthread_join (tw);
      TEST_COMPARE (w.result, ETIMEDOUT);
      TEST_COMPARE (pf_role_holder (&lock), 0);
      TEST_VERIFY ((PF_T_READERS (&lock) & 1) != 0);
      TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EBUSY);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      xpthread_join (tr);
      TEST_COMPARE (r.result, 0);
      pf_check_idle (&lock);
    }

  /* Writers giving up among waiting writers: a writer holds, then
     NTIMED timed writers wait, then one untimed writer, then a reader.
     When the timed ones have given up (one of them registered for the
     hand-off and withdrew) and the holder unlocks, the untimed writer
     and the reader must get the lock.  */
  enum { NTIMED = 5 };
  for (int rnd = 0; rnd < 20; rnd++)
    {
      enum how how = rnd % NHOW;
      struct req tw[NTIMED];
      pthread_t th[NTIMED];
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      for (int i = 0; i < NTIMED; i++)
	{
	  tw[i] = (struct req) { true, how, 100 + 20 * i, -1, 0 };
	  th[i] = start (&tw[i]);
	  pf_wait_blocked (&tw[i].tid);
	}
      struct req last = { true, CLOCK_MONO, 10000, -1, 0 };
      pthread_t tl = start (&last);
      pf_wait_blocked (&last.tid);
      struct req rd = { false, CLOCK_MONO, 10000, -1, 0 };
      pthread_t tr = start (&rd);
      for (int i = 0; i < NTIMED; i++)
	{
	  xpthread_join (th[i]);
	  TEST_COMPARE (tw[i].result, ETIMEDOUT);
	}
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      xpthread_join (tl);
      TEST_COMPARE (last.result, 0);
      xpthread_join (tr);
      TEST_COMPARE (rd.result, 0);
      pf_check_idle (&lock);
    }

  /* Writers timing out while the role passes to them: timeouts racing
     with unlocks, checked by the invariant that the lock ends idle.  */
  for (int rnd = 0; rnd < 200; rnd++)
    {
      struct req tw[3];
      pthread_t th[3];
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      for (int i = 0; i < 3; i++)
	{
	  tw[i] = (struct req) { true, i % NHOW, 1 + rnd % 3, -1, 0 };
	  th[i] = start (&tw[i]);
	}
      pf_sleep_ms (rnd % 4);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      for (int i = 0; i < 3; i++)
	{
	  xpthread_join (th[i]);
	  TEST_VERIFY (tw[i].result == 0 || tw[i].result == ETIMEDOUT);
	}
      pf_check_idle (&lock);
    }
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
