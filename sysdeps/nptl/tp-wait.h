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
#include <tp-futex.h>
#include <tp-spin.h>

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

/* The hand-off word of both TP locks (the mutex's 32 bits at __spins,
   the TP rwlock's __writers):
     bits 0..21  TP_HANDOFF_TID_MASK  TID of the registered requester,
		 0 if none (TIDs are below PID_MAX_LIMIT, 2^22)
     bit  29     TP_HANDOFF_SPINNER   a thread spins on the lock word
		 (at most one per lock, see tp_spin_claim)
     bit  30     the TP rwlock's requester wants a read lock
     bit  31     TP_HANDOFF_GRANTED   an unlocker has committed to
		 transfer ownership to the requester
   The registration (H1..H5 of the protocols) is the word without
   TP_HANDOFF_SPINNER; every transition on it keeps that bit as it is,
   and the spinner bit is set and cleared with RMWs that keep the rest,
   so the two never disturb each other's decisions.  */
#define TP_HANDOFF_TID_MASK	0x003fffffu
#define TP_HANDOFF_SPINNER	0x20000000u
#define TP_HANDOFF_GRANTED	0x80000000u

/* The registration held in the hand-off word value H.  */
static inline unsigned int
tp_handoff_reg (unsigned int h)
{
  return h & ~TP_HANDOFF_SPINNER;
}

/* Replace the registration EXPECTED (without the spinner bit) in
   *HANDOFF by NEW, keeping the spinner bit.  Returns false if the
   registration was not EXPECTED (any more).  Relaxed MO: the hand-off
   word carries no data (see the protocols' memory-order notes); H2 and
   H3 are RMWs of this one word, so exactly one of them succeeds.  */
static inline bool
tp_handoff_replace (unsigned int *handoff, unsigned int expected,
		    unsigned int new)
{
  unsigned int h = atomic_load_relaxed (handoff);
  while (tp_handoff_reg (h) == expected)
    if (atomic_compare_exchange_weak_relaxed
	(handoff, &h, (h & TP_HANDOFF_SPINNER) | new))
      return true;
  return false;
}

/* Claim the right to spin on a lock whose hand-off word is *HANDOFF:
   true if no other thread spins on it now.  One spinner per lock: a
   second one could only race the first for the same release, and on a
   machine with more threads than cores it takes a core away from the
   owner.  Relaxed MO: the bit orders nothing.  */
static inline bool
tp_spin_claim (unsigned int *handoff)
{
  return (atomic_fetch_or_relaxed (handoff, TP_HANDOFF_SPINNER)
	  & TP_HANDOFF_SPINNER) == 0;
}

static inline void
tp_spin_release (unsigned int *handoff)
{
  atomic_fetch_and_relaxed (handoff, ~TP_HANDOFF_SPINNER);
}

/* The least spin budget (S4 of the TP mutex) that learning lowers a
   thread's budget to.  */
#define TP_SPIN_MIN_BUDGET	64

/* The longest grace (S3 of the TP mutex): spin rounds a free word must
   stay free before the spinner takes it.  About half a microsecond.  */
#define TP_SPIN_GRACE_MAX	32

/* The calling thread's spin budget and grace (S3, S4 of the TP mutex),
   learnt from its own spins.  The budget: the tunable
   glibc.pthread.mutex_tp_spin_count at most, halved after every spin
   that ended in sleeping anyway, down to TP_SPIN_MIN_BUDGET, and raised
   again by spins that got the lock.  The grace: 1 (take a free word at
   once) to TP_SPIN_GRACE_MAX, halved when the word stayed free for the
   whole grace (its owner had other work to do), doubled when it was
   taken again while the spinner waited (its owner locks again at once).
   Thread-local, so learning costs no shared cache line; 0 until the
   thread first spins.  */
extern __thread int __pthread_tp_spin_budget attribute_hidden
  attribute_tls_model_ie;
extern __thread int __pthread_tp_spin_grace attribute_hidden
  attribute_tls_model_ie;

/* The budget that a thread's learnt budget B (0 if none yet) allows
   its next spin: the tunable at most.  */
static inline int
tp_spin_budget_of (int b)
{
  int max = __pthread_mutex_tp_config.spin_count;
  return b <= 0 || b > max ? max : b;
}

/* S4: the learnt budget after a spin with budget BUDGET that got what
   it waited for after ROUNDS rounds (WON), or ended in sleeping
   anyway.  */
static inline int
tp_spin_budget_learn (int budget, int rounds, bool won)
{
  int max = __pthread_mutex_tp_config.spin_count;
  if (won)
    {
      /* Leave room for twice the rounds this one needed.  */
      int want = 2 * rounds + TP_SPIN_MIN_BUDGET;
      return want > budget ? (want < max ? want : max) : budget;
    }
  return budget / 2 >= TP_SPIN_MIN_BUDGET ? budget / 2 : budget;
}

static inline int
tp_spin_budget (void)
{
  return tp_spin_budget_of (__pthread_tp_spin_budget);
}

static inline int
tp_spin_grace (void)
{
  int g = __pthread_tp_spin_grace;
  return g <= 0 ? TP_SPIN_GRACE_MAX : g;
}

/* A spin of ROUNDS rounds with grace GRACE ended; TOOK: it got the
   lock; FREE_FOR: the rounds the word was last seen free.  */
static inline void
tp_spin_learn (int rounds, int grace, bool took, int free_for)
{
  __pthread_tp_spin_budget = tp_spin_budget_learn (tp_spin_budget (), rounds,
						  took);

  if (took && free_for >= grace && grace > 1)
    /* Nobody came for the free word during the grace.  */
    __pthread_tp_spin_grace = grace / 2;
  else if (!took && free_for > 0 && grace < TP_SPIN_GRACE_MAX)
    /* The word came free and was taken again under us.  */
    __pthread_tp_spin_grace = 2 * grace;
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
      /* H1.  */
      if (tp_handoff_replace (handoff, 0, reg))
	{
	  /* Acquire MO pairs with the release of the previous requester's
	     H4 (tp_handoff_clear): what it did to the lock word before,
	     such as clearing the TP rwlock's TPRW_GRANTED, is visible to
	     our next look at the word.  */
	  atomic_thread_fence_acquire ();
	  w->requester = true;
	  return false;
	}
      /* Someone else is being served: try again soon (B4).  */
      w->register_at = now + (w->threshold >> 3);
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

/* Back-off of a waiter that a release woke but that finds the lock
   owned again (B1..B4 of the TP mutex's design comment).  */
struct tp_backoff
{
  /* Length of the next unannounced sleep, ns, and its upper bound.  */
  int64_t delay;
  int64_t max;
  /* Whether the waiter is backing off: its last sleep on the lock word
     ended in a wake-up, and no back-off since reached its registration
     time.  */
  bool woken;
};

/* The back-off starts at 1/2^TP_BACKOFF_FIRST_SHIFT of the hand-off
   threshold (39 us at the TP mutex's default 5 ms) and doubles up to
   1/2^TP_BACKOFF_MAX_SHIFT of it: long enough for a running owner to do
   many critical sections without a wake-up, short beside the starvation
   bound.  The phase-fair readers' back-off (P6 of
   nptl/pthread_rwlock_pf.c) follows the same schedule.  */
#define TP_BACKOFF_FIRST_SHIFT	7
#define TP_BACKOFF_MAX_SHIFT	2

/* The back-off delay after DELAY, at most MAX.  */
static inline int64_t
tp_backoff_next (int64_t delay, int64_t max)
{
  return delay * 2 < max ? delay * 2 : max;
}

/* Start the back-off of a waiter whose schedule scales with the
   threshold THRESHOLD (ns).  */
static inline void
tp_backoff_init (struct tp_backoff *b, int64_t threshold)
{
  b->delay = threshold >> TP_BACKOFF_FIRST_SHIFT;
  b->max = threshold >> TP_BACKOFF_MAX_SHIFT;
  b->woken = false;
}

/* Whether the waiter, woken and finding the lock owned, is to step back
   instead of announcing itself again: only with hand-off (which bounds
   the wait), never as the requester (B2: it must keep FUTEX_WAITERS set
   so that the next release serves it), and not while another waiter is
   registered (the next release must see FUTEX_WAITERS to serve that
   one, and the woken waiter may be the only one left to set it).  */
static inline bool
tp_backoff_due (const struct tp_backoff *b, const struct tp_handoff_wait *w,
		unsigned int *handoff)
{
  return (b->woken && b->delay > 0 && w->enabled && !w->requester
	  && tp_handoff_reg (atomic_load_relaxed (handoff)) == 0);
}

/* Sleep unannounced (on no lock word: no release wakes us, and no
   FUTEX_WAITERS makes the owner's releases slow) for the back-off
   delay, but never past the moment the waiter may register for
   hand-off nor past the caller's timeout (ABSTIME on CLOCKID, NULL for
   none).  Returns 0, or ETIMEDOUT / EINVAL / EOVERFLOW from the
   caller's timeout.  */
static inline int
tp_backoff_sleep (struct tp_backoff *b, const struct tp_handoff_wait *w,
		  clockid_t clockid, const struct __timespec64 *abstime)
{
  int64_t now = tp_now_ns (CLOCK_MONOTONIC);
  int64_t until = now + b->delay;
  /* Stay in back-off while the lock is owned whenever we look, up to
     the registration time (B1): the last sleep ends there.  */
  if (until >= w->register_at)
    {
      until = w->register_at;
      b->woken = false;
    }
  b->delay = tp_backoff_next (b->delay, b->max);

  const struct __timespec64 *ts = abstime;
  clockid_t ts_clock = clockid;
  struct __timespec64 until_ts;
  bool own_deadline = true;
  if (abstime != NULL)
    {
      int64_t user = tp_ns (abstime);
      if (clockid != CLOCK_MONOTONIC)
	user = now + (user - tp_now_ns (clockid));
      own_deadline = user > until;
    }
  if (own_deadline)
    {
      until_ts.tv_sec = until / 1000000000;
      until_ts.tv_nsec = until % 1000000000;
      ts = &until_ts;
      ts_clock = CLOCK_MONOTONIC;
    }
  /* A private word that nobody changes or wakes: only the timeout (or a
     signal) ends the sleep.  */
  unsigned int never = 0;
  int err = __futex_abstimed_wait64 (&never, 0, ts_clock, ts, FUTEX_PRIVATE);
  if (err == ETIMEDOUT && own_deadline)
    return 0;
  if (err == ETIMEDOUT || err == EINVAL || err == EOVERFLOW)
    return err;
  return 0;
}

/* H4 of both protocols: the requester TID, served, removes its entry
   from the hand-off word.  A CAS, not a store: the entry may have been
   dropped as stale and replaced by another waiter's.  Relaxed MO: the
   hand-off word carries no data.  */
static inline void
tp_handoff_clear (unsigned int *handoff, pid_t tid)
{
  unsigned int h = atomic_load_relaxed (handoff);
  /* Release MO: see H1 in tp_handoff_wait_plan.  */
  while ((h & TP_HANDOFF_TID_MASK) == (unsigned int) tid
	 && !atomic_compare_exchange_weak_release (handoff, &h,
						   h & TP_HANDOFF_SPINNER))
    ;
}

/* Whether the thread TID that registered for hand-off still exists (a
   registration can outlive its thread, see the mutex's I8).  PSHARED:
   the lock is process-shared, so the thread may be in another process;
   otherwise it must be in ours (which also rejects the parent's threads
   in a child after fork).  */
extern bool __pthread_tp_thread_alive (pid_t tid, bool pshared)
  attribute_hidden;

/* H5 and H3 of both protocols, by a releaser that owns the lock word
   and takes its slow path: drop a stale registration (GRANTED already,
   or its thread is gone), then commit to serve a live one.  Returns the
   registration the caller must now hand the lock to (it then performs
   U2/R2 without fail, I4), or 0 if there is none.  */
static inline unsigned int
tp_handoff_grant (unsigned int *handoff, bool pshared)
{
  unsigned int req = tp_handoff_reg (atomic_load_relaxed (handoff));
  if (req == 0)
    return 0;
  if ((req & TP_HANDOFF_GRANTED) != 0
      || !__pthread_tp_thread_alive (req & TP_HANDOFF_TID_MASK, pshared))
    {
      /* H5.  If the CAS fails the entry changed under us: a new
	 registration, which the next release serves.  */
      tp_handoff_replace (handoff, req, 0);
      return 0;
    }
  /* H3.  */
  if (!tp_handoff_replace (handoff, req, req | TP_HANDOFF_GRANTED))
    return 0;
  return req;
}

/* The granted requester, which timed out too late to withdraw, found
   the futex word *WORD owned, with value V: announce itself (set
   FUTEX_WAITERS, so that the release enters its slow path and wakes)
   and sleep as the requester until the grant's transfer (U2, R2) or a
   release, unless the word changed meanwhile.  The caller looks at the
   word again in any case.  Relaxed MO: the flag publishes nothing;
   FUTEX_WAIT_BITSET re-checks the value atomically with queueing.  */
static inline void
tp_announce_and_wait (unsigned int *word, unsigned int v, int private)
{
  if ((v & FUTEX_WAITERS) == 0
      && !atomic_compare_exchange_weak_relaxed (word, &v, v | FUTEX_WAITERS))
    return;
  tp_futex_wait_bitset (word, v | FUTEX_WAITERS, TP_WAIT_REQUESTER,
			CLOCK_MONOTONIC, NULL, private);
}

/* Kernel path
   -----------
   A kernel TP operation can fail for reasons that say nothing about the
   lock: FUTEX_LOCK allocates its per-futex state (ENOMEM), and
   FUTEX_UNLOCK gives up with EAGAIN when a co-user keeps changing the
   word under it (as FUTEX_UNLOCK_PI does).  Neither may reach the
   caller as if the operation had happened, or not happened: a lock
   call that returned EINVAL would let a program that does not check
   (most do not) run its critical section unlocked, and an unlock that
   gave up would leave the lock held for good.  So both retry; the lock
   call sleeps a little first, bounded by the caller's timeout.  Falling
   back to the user-space protocol instead is not safe: its waiters
   sleep in FUTEX_WAIT, which the kernel path's FUTEX_UNLOCK does not
   wake.

   FUTEX_LOCK refuses, as FUTEX_LOCK_PI does, to take a word from an
   owner it cannot vouch for: ESRCH for an owner that exited without
   the robust list marking the word, that it cannot find, or that lives
   in another PID namespace; EPERM for a word naming a kernel thread.
   The lock is then lost for good, and the caller blocks until its
   timeout (forever without one), as glibc does for a PI mutex in that
   state.

   FUTEX_LOCK answers EDEADLK when the word names the caller: a normal
   or adaptive mutex relocked by its owner.  That deadlocks, as with the
   default mutex, unless another thread unlocks the mutex, which glibc
   allows for these kinds.  The kernel refuses that thread's
   FUTEX_UNLOCK (the word does not name it) and it releases the word in
   user space (tp_release_slow), which wakes nobody blocked outside
   FUTEX_LOCK: so the relocking owner looks at the word at growing
   intervals until it no longer names it, and calls FUTEX_LOCK again
   (tp_kernel_wait_unlock).  */

/* Block until ABSTIME on CLOCKID, forever if it is NULL.  Returns
   ETIMEDOUT, or EINVAL / EOVERFLOW for a bad timeout.  */
static inline int
tp_block_until_timeout (clockid_t clockid, const struct __timespec64 *abstime)
{
  for (;;)
    {
      unsigned int never = 0;
      int err = __futex_abstimed_wait64 (&never, 0, clockid, abstime,
					 FUTEX_PRIVATE);
      if (err == ETIMEDOUT || err == EINVAL || err == EOVERFLOW)
	return err;
    }
}

/* Pause of a lock call after ENOMEM, and the first pause of an owner
   that relocked its mutex, ns.  */
#define TP_KERNEL_RETRY_NS	1000000
/* The longest pause of an owner that relocked its mutex, ns: a
   deadlocked thread wakes a few times a second.  */
#define TP_RELOCK_PAUSE_MAX_NS	(128 * TP_KERNEL_RETRY_NS)

/* Sleep for PAUSE ns, or until the caller's timeout (ABSTIME on
   CLOCKID, NULL for none) if that comes first (also the TP rwlock's
   deferral to its home processor, tp_core_defer).  Returns 0 to go on, or
   the timeout's ETIMEDOUT / EINVAL / EOVERFLOW.  */
static inline int
tp_kernel_pause (int64_t pause, clockid_t clockid,
		 const struct __timespec64 *abstime)
{
  int64_t until = tp_now_ns (CLOCK_MONOTONIC) + pause;
  struct __timespec64 until_ts = { until / 1000000000, until % 1000000000 };
  const struct __timespec64 *ts = &until_ts;
  clockid_t ts_clock = CLOCK_MONOTONIC;
  if (abstime != NULL && tp_ns (abstime) - tp_now_ns (clockid) < pause)
    {
      ts = abstime;
      ts_clock = clockid;
    }
  unsigned int never = 0;
  int err = __futex_abstimed_wait64 (&never, 0, ts_clock, ts, FUTEX_PRIVATE);
  if (ts == abstime && (err == ETIMEDOUT || err == EINVAL
			|| err == EOVERFLOW))
    return err;
  return 0;
}

/* FUTEX_LOCK answered EDEADLK: WORD names TID, the caller.  Wait until
   it no longer does (see "Kernel path" above), pausing from
   TP_KERNEL_RETRY_NS up to TP_RELOCK_PAUSE_MAX_NS between looks.
   Returns 0 then, or ETIMEDOUT / EINVAL / EOVERFLOW from the caller's
   timeout (ABSTIME on CLOCKID, NULL for none).  */
static inline int
tp_kernel_wait_unlock (unsigned int *word, pid_t tid, clockid_t clockid,
		       const struct __timespec64 *abstime)
{
  int64_t pause = TP_KERNEL_RETRY_NS;
  /* Relaxed MO: the FUTEX_LOCK that follows orders the lock.  */
  while ((atomic_load_relaxed (word) & FUTEX_TID_MASK) == (unsigned int) tid)
    {
      int err = tp_kernel_pause (pause, clockid, abstime);
      if (err != 0)
	return err;
      if (pause < TP_RELOCK_PAUSE_MAX_NS)
	pause *= 2;
    }
  return 0;
}

/* FUTEX_UNLOCK or FUTEX_UNLOCK_SHARED (OP, with its private flag) on
   WORD, retried while the kernel reports EAGAIN.  Returns the kernel's
   result or negated errno, never -EAGAIN.  */
static inline long int
tp_kernel_unlock (unsigned int *word, int op)
{
  long int r;
  while ((r = tp_futex_syscall (word, op, NULL)) == -EAGAIN)
    tp_spin_relax ();
  /* Restore what tp_spin_relax changed (the SMT priority on POWER).  */
  tp_spin_done ();
  return r;
}

#endif /* tp-wait.h */
