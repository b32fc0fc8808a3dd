/* Phase-fair rwlock: writers among themselves.
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
#include <stdint.h>
#include <pthread.h>
#include <semaphore.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>

#include "tst-rwlock-pf-common.h"

static pthread_rwlock_t lock;

/* Writers that all wait while the lock is held get it one at a time,
   each exactly once.  */
enum { NWRITERS = 8 };
static int seen[NWRITERS];
static int norder;
static pid_t tids[NWRITERS];

static void *
writer (void *arg)
{
  int i = (int) (intptr_t) arg;
  pf_note_tid (&tids[i]);
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  seen[i]++;
  norder++;
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

static void
test_all_served (void)
{
  for (int round = 0; round < 3; round++)
    {
      pthread_t th[NWRITERS];
      norder = 0;
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      for (int i = 0; i < NWRITERS; i++)
	{
	  seen[i] = 0;
	  tids[i] = 0;
	  th[i] = xpthread_create (NULL, writer, (void *) (intptr_t) i);
	}
      for (int i = 0; i < NWRITERS; i++)
	pf_wait_blocked (&tids[i]);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      for (int i = 0; i < NWRITERS; i++)
	xpthread_join (th[i]);
      TEST_COMPARE (norder, NWRITERS);
      for (int i = 0; i < NWRITERS; i++)
	TEST_COMPARE (seen[i], 1);
      pf_check_idle (&lock);
    }
}

/* Many writers, some of them timing out: all untimed ones get the lock,
   one at a time.  */
enum { NMANY = 48 };
static unsigned int inside, overlaps, done;

static void *
many_writer (void *arg)
{
  int i = (int) (intptr_t) arg;
  for (int n = 0; n < 50; n++)
    {
      int err;
      if (i % 4 == 0)
	{
	  struct timespec abs = timespec_add (xclock_now (CLOCK_MONOTONIC),
					      make_timespec (0, 100000));
	  err = pthread_rwlock_clockwrlock (&lock, CLOCK_MONOTONIC, &abs);
	  TEST_VERIFY (err == 0 || err == ETIMEDOUT);
	}
      else
	err = pthread_rwlock_wrlock (&lock);
      if (err != 0)
	continue;
      if (__atomic_fetch_add (&inside, 1, __ATOMIC_RELAXED) != 0)
	__atomic_fetch_add (&overlaps, 1, __ATOMIC_RELAXED);
      __atomic_fetch_sub (&inside, 1, __ATOMIC_RELAXED);
      done++;
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
    }
  return NULL;
}

static void
test_many (void)
{
  pthread_t th[NMANY];
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  for (int i = 0; i < NMANY; i++)
    th[i] = xpthread_create (NULL, many_writer, (void *) (intptr_t) i);
  pf_sleep_ms (20);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  for (int i = 0; i < NMANY; i++)
    xpthread_join (th[i]);
  TEST_COMPARE (overlaps, 0);
  TEST_VERIFY (done >= 50 * (NMANY - NMANY / 4));
  pf_check_idle (&lock);
}

/* Bounded writer wait (G3): a writer that has waited past the hand-off
   threshold registers in the hand-off word, and the next release hands
   it the writer role.  The releaser, which would otherwise get the role
   back at once (a running thread relocking before the sleeper has woken
   up), then finds it taken.  */
static pid_t victim_tid;
/* The handshakes go through semaphores, which valgrind's thread
   checkers understand.  */
static sem_t victim_started, victim_may_leave;

static void *
victim (void *arg)
{
  victim_tid = gettid ();
  TEST_COMPARE (sem_post (&victim_started), 0);
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  /* Keep the lock until the releaser has looked.  */
  TEST_COMPARE (sem_wait (&victim_may_leave), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  return NULL;
}

static void
test_handoff (void)
{
  TEST_COMPARE (sem_init (&victim_started, 0, 0), 0);
  TEST_COMPARE (sem_init (&victim_may_leave, 0, 0), 0);
  for (int round = 0; round < 5; round++)
    {
      TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
      pthread_t v = xpthread_create (NULL, victim, NULL);
      TEST_COMPARE (sem_wait (&victim_started), 0);
      pid_t tid = victim_tid;
      PF_WAIT_UNTIL ((PF_T_HANDOFF (&lock) & 0x3fffff) == (unsigned int) tid);
      TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      int err = pthread_rwlock_trywrlock (&lock);
      TEST_COMPARE (err, EBUSY);
      if (err == 0)
	TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
      TEST_COMPARE (sem_post (&victim_may_leave), 0);
      xpthread_join (v);
      pf_check_idle (&lock);
    }
  TEST_COMPARE (sem_destroy (&victim_started), 0);
  TEST_COMPARE (sem_destroy (&victim_may_leave), 0);
}

static int
do_test (void)
{
  pf_init (&lock, PTHREAD_PROCESS_PRIVATE);
  test_all_served ();
  test_many ();
  test_handoff ();
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
