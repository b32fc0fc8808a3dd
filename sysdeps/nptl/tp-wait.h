/* Timeouts and hand-off deadlines of the TP lock protocols.
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

/* Shared by the TP mutex (nptl/pthread_mutex_tp_lock.c) and the TP
   rwlock (nptl/pthread_rwlock_tp.c): both let a waiter that has waited
   longer than the hand-off threshold register in a hand-off word, and
   both bound every sleep of a waiter that has not registered yet by the
   moment it may register, so that it does (the mutex's I7).  The
   phase-fair rwlock (nptl/pthread_rwlock_pf.c) uses its timeout check.  */

#ifndef _TP_WAIT_H
#define _TP_WAIT_H 1

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <atomic.h>
#include <futex-internal.h>
#include <lowlevellock-futex.h>
#include <struct___timespec64.h>

static inline int64_t
tp_ns (const struct __timespec64 *ts)
{
  if (ts->tv_sec >= INT64_MAX / 1000000000 - 1)
    return INT64_MAX;
  return ts->tv_sec * INT64_C (1000000000) + ts->tv_nsec;
}

static inline int64_t
tp_now_ns (clockid_t clockid)
{
  struct __timespec64 ts;
  __clock_gettime64 (clockid, &ts);
  return tp_ns (&ts);
}

/* Whether the rwlock kinds accept CLOCKID and ABSTIME of a timed or
   clock lock call; if not, the call fails with EINVAL before it changes
   anything, as pthread_rwlock_common.c does.  */
static inline bool
tp_valid_rwlock_timeout (clockid_t clockid,
			 const struct __timespec64 *abstime)
{
  return (abstime == NULL
	  || (futex_abstimed_supported_clockid (clockid)
	      && valid_nanoseconds (abstime->tv_nsec)));
}

/* Check ABSTIME before the first block, as futex waits do: EINVAL for
   an invalid time, ETIMEDOUT for one before the epoch (the kernel's TP
   operations reject negative times, a futex wait has expired then).  */
static inline int
tp_check_abstime (const struct __timespec64 *abstime)
{
  if (abstime == NULL)
    return 0;
  if (! valid_nanoseconds (abstime->tv_nsec))
    return EINVAL;
  if (abstime->tv_sec < 0)
    return ETIMEDOUT;
  return 0;
}

/* A waiter's hand-off state across the iterations of its sleep loop.  */
struct tp_handoff_wait
{
  /* Whether this lock has hand-off.  */
  bool enabled;
  /* Hand-off threshold, ns.  */
  int64_t threshold;
  /* CLOCK_MONOTONIC time at which the waiter may register.  */
  int64_t register_at;
  /* Whether the waiter holds the registration.  */
  bool requester;
};

static inline void
tp_handoff_wait_init (struct tp_handoff_wait *w, bool enabled,
		      int threshold_us)
{
  w->enabled = enabled;
  w->threshold = (int64_t) threshold_us * 1000;
  w->register_at = enabled ? tp_now_ns (CLOCK_MONOTONIC) + w->threshold : 0;
  w->requester = false;
}

/* Before a sleep of a waiter that is not the requester yet: register
   with the value REG in *HANDOFF if the waiter is past the threshold
   (a CAS from 0, so at most one requester; relaxed MO, the hand-off word
   carries no data, see the protocols' memory-order notes).  If it did not
   register, bound the sleep: on return *UNTIL and *UNTIL_CLOCK are the
   earlier of the caller's timeout (ABSTIME on CLOCKID, NULL for none) and
   the registration time, *DEADLINE_TS the storage for the latter, and the
   result is true if the registration time is the earlier (a timeout of
   that sleep is no timeout of the lock call).  Returns false otherwise,
   also when the waiter registered (then w->requester is set and the
   caller sleeps until its own timeout).  */
static inline bool
tp_handoff_wait_plan (struct tp_handoff_wait *w, unsigned int *handoff,
		      unsigned int reg, clockid_t clockid,
		      const struct __timespec64 *abstime,
		      struct __timespec64 *deadline_ts,
		      const struct __timespec64 **until,
		      clockid_t *until_clock)
{
  *until = abstime;
  *until_clock = clockid;
  if (!w->enabled || w->requester)
    return false;

  int64_t now = tp_now_ns (CLOCK_MONOTONIC);
  if (now >= w->register_at)
    {
      unsigned int expected = 0;
      if (atomic_compare_exchange_weak_relaxed (handoff, &expected, reg))
	{
	  w->requester = true;
	  return false;
	}
      /* Someone else is being served; try again later.  */
      w->register_at = now + w->threshold;
    }

  if (abstime != NULL)
    {
      int64_t user = tp_ns (abstime);
      if (clockid != CLOCK_MONOTONIC)
	user = now + (user - tp_now_ns (clockid));
      if (user <= w->register_at)
	return false;
    }
  deadline_ts->tv_sec = w->register_at / 1000000000;
  deadline_ts->tv_nsec = w->register_at % 1000000000;
  *until = deadline_ts;
  *until_clock = CLOCK_MONOTONIC;
  return true;
}

/* H4 of both protocols: the requester TID, served, removes its entry
   from the hand-off word.  A CAS, not a store: the entry may have been
   dropped as stale and replaced by another waiter's.  Relaxed MO: the
   hand-off word carries no data.  */
static inline void
tp_handoff_clear (unsigned int *handoff, pid_t tid)
{
  unsigned int h = atomic_load_relaxed (handoff);
  while ((h & FUTEX_TID_MASK) == (unsigned int) tid
	 && !atomic_compare_exchange_weak_relaxed (handoff, &h, 0))
    ;
}

/* A waiter found the futex word *WORD owned, with value V: announce
   itself (set FUTEX_WAITERS, so that the release enters its slow path
   and wakes) and sleep, unless the word changed meanwhile.  The caller
   looks at the word again in any case.  Relaxed MO: the flag publishes
   nothing; FUTEX_WAIT re-checks the value atomically with queueing.  */
static inline void
tp_announce_and_wait (unsigned int *word, unsigned int v, int private)
{
  if ((v & FUTEX_WAITERS) == 0
      && !atomic_compare_exchange_weak_relaxed (word, &v, v | FUTEX_WAITERS))
    return;
  futex_wait (word, v | FUTEX_WAITERS, private);
}

/* Whether the thread TID that registered for hand-off still exists (a
   registration can outlive its thread, see the mutex's I8).  PSHARED:
   the lock is process-shared, so the thread may be in another process;
   otherwise it must be in ours (which also rejects the parent's threads
   in a child after fork).  */
extern bool __pthread_tp_thread_alive (pid_t tid, bool pshared)
  attribute_hidden;

#endif /* tp-wait.h */
