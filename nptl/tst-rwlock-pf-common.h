/* Phase-fair rwlock tests: shared helpers.
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

#ifndef TST_RWLOCK_PF_COMMON_H
#define TST_RWLOCK_PF_COMMON_H 1

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>

/* The tests look at the lock words (layout documented at the top of
   nptl/pthread_rwlock_pf.c) only to check a state the test has set up,
   never to decide what the lock does.  */
#define PF_T_READERS(l)	__atomic_load_n (&(l)->__data.__readers, \
					 __ATOMIC_RELAXED)
#define PF_T_ROLE(l)	__atomic_load_n (&(l)->__data.__writers_futex, \
					 __ATOMIC_RELAXED)
#define PF_T_HANDOFF(l)	__atomic_load_n (&(l)->__data.__writers, \
					 __ATOMIC_RELAXED)

/* TID of the holder of the writer role, 0 if it is free.  */
static inline pid_t
pf_role_holder (pthread_rwlock_t *l)
{
  return PF_T_ROLE (l) & 0x3fffffff;
}

/* Number of readers counted in the reader entry word since the last
   writer phase started.  */
static inline unsigned int
pf_rin_count (pthread_rwlock_t *l)
{
  return PF_T_READERS (l) >> 8;
}

static inline void
pf_sleep_ms (int ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  nanosleep (&ts, NULL);
}

/* Wait until COND holds, failing the test after 20 s.  */
#define PF_WAIT_UNTIL(cond)						\
  do									\
    {									\
      int __n = 0;							\
      while (!(cond))							\
	{								\
	  if (++__n > 20000)						\
	    FAIL_EXIT1 ("timed out waiting for " #cond);		\
	  pf_sleep_ms (1);						\
	}								\
    }									\
  while (0)

/* Wait until the thread that stores its TID in *TIDP (0 until then)
   sleeps, that is, has blocked in the lock after storing it, or has
   already exited (a timed locker may have given up meanwhile).  */
static inline void
pf_wait_blocked (pid_t *tidp)
{
  PF_WAIT_UNTIL (__atomic_load_n (tidp, __ATOMIC_ACQUIRE) != 0);
  char path[64];
  snprintf (path, sizeof path, "/proc/self/task/%d/stat", (int) *tidp);
  for (int n = 0; ; n++)
    {
      FILE *f = fopen (path, "r");
      if (f == NULL)
	return;
      /* The state follows the command name in parentheses.  */
      char buf[512];
      size_t len = fread (buf, 1, sizeof buf - 1, f);
      fclose (f);
      buf[len] = '\0';
      char *p = strrchr (buf, ')');
      if (p == NULL || p[1] == '\0' || p[2] == 'S')
	return;
      if (n > 20000)
	FAIL_EXIT1 ("thread %d did not block", (int) *tidp);
      pf_sleep_ms (1);
    }
}

/* Store the caller's TID for pf_wait_blocked.  */
static inline void
pf_note_tid (pid_t *tidp)
{
  __atomic_store_n (tidp, gettid (), __ATOMIC_RELEASE);
}

/* The lock is free: a writer gets it at once, and afterwards neither
   the writer role nor its hand-off word is left taken.  */
static inline void
pf_check_idle (pthread_rwlock_t *l)
{
  TEST_COMPARE (pthread_rwlock_trywrlock (l), 0);
  TEST_COMPARE (pthread_rwlock_unlock (l), 0);
  TEST_COMPARE (PF_T_ROLE (l), 0);
  TEST_COMPARE (PF_T_HANDOFF (l), 0);
}

static inline void
pf_init (pthread_rwlock_t *l, int pshared)
{
  pthread_rwlockattr_t attr;
  TEST_COMPARE (pthread_rwlockattr_init (&attr), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&attr,
					       PTHREAD_RWLOCK_PHASE_FAIR_NP), 0);
  TEST_COMPARE (pthread_rwlockattr_setpshared (&attr, pshared), 0);
  TEST_COMPARE (pthread_rwlock_init (l, &attr), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&attr), 0);
}

#endif /* tst-rwlock-pf-common.h */
