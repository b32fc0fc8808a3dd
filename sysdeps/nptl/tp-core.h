/* The user-space core of the TP lock protocols.
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

/* The exclusive TP lock on one futex word holding the owner's TID and
   FUTEX_WAITERS, with a hand-off word: the user-space slow paths of the
   TP mutex (nptl/pthread_mutex_tp_lock.c, whose design comment is the
   correctness argument: transitions T1..T3, U1, U2, H1..H5, invariants
   I1..I8, the spin and wake policy S1..S4 and B1..B3, the memory order)
   and of the phase-fair rwlock's writer role
   (nptl/pthread_rwlock_pf.c).  The TP rwlock's word also counts
   readers; it shares the pieces in tp-wait.h instead.  */

#ifndef _TP_CORE_H
#define _TP_CORE_H 1

#include <limits.h>
#include <tp-wait.h>

/* One lock as the core sees it.  */
struct tp_lock_ref
{
  /* The futex word: 0 free, else TID [|FUTEX_WAITERS]; a robust mutex
     may also have FUTEX_OWNER_DIED with TID 0.  */
  unsigned int *word;
  /* The hand-off word (layout in tp-wait.h).  */
  unsigned int *handoff;
  /* FUTEX_PRIVATE or FUTEX_SHARED, for the futex calls.  */
  int private;
  /* Whether the lock has hand-off (and so a spinner bit).  */
  bool handoff_enabled;
  /* Whether the lock may be used by several processes (for the check
     of a registered requester, I8).  */
  bool pshared;
};

/* The requester timed out (ERR): withdraw the registration (H2) unless an
   unlocker has granted the lock (H3), in which case we wait for the
   transfer (U2) and own the lock.  */
static inline int
tp_core_withdraw (const struct tp_lock_ref *l, pid_t tid, int err)
{
  unsigned int *word = l->word;
  unsigned int *handoff = l->handoff;

  /* H2.  */
  if (tp_handoff_replace (handoff, tid, 0))
    return err;

  /* I4: the grant is ours.  Acquire MO pairs with the release of U2.
     If the grant was dropped as stale (I8), take the word when it is
     free (T2).  */
  for (;;)
    {
      unsigned int v = atomic_load_acquire (word);
      if ((v & FUTEX_TID_MASK) == (unsigned int) tid)
	break;
      if ((v & FUTEX_TID_MASK) == 0
	  && atomic_compare_exchange_weak_acquire (word, &v,
						   tid | FUTEX_WAITERS))
	{
	  tp_handoff_clear (handoff, tid);
	  return (v & FUTEX_OWNER_DIED) ? EOWNERDEAD : 0;
	}
      /* T3 before sleeping, as in tp_core_sleep: if the grant was
	 dropped, only an unlock that sees W (I2) will wake us when the
	 word comes free.  */
      tp_announce_and_wait (word, v, l->private);
    }
  tp_handoff_clear (handoff, tid);
  return 0;
}

/* The sleeping part of tp_core_lock.  */
static inline int
tp_core_sleep (const struct tp_lock_ref *l, pid_t tid, clockid_t clockid,
	       const struct __timespec64 *abstime)
{
  unsigned int *word = l->word;
  unsigned int *handoff = l->handoff;
  int private = l->private;
  struct tp_handoff_wait hw;
  struct tp_backoff bo;

  int err = tp_check_abstime (abstime);
  if (err != 0)
    return err;
  tp_handoff_wait_init (&hw, l->handoff_enabled,
			__pthread_mutex_tp_config.handoff_us);
  tp_backoff_init (&bo, &hw);

  for (;;)
    {
      /* Acquire MO pairs with the release CAS of U2 (the grant).  */
      unsigned int v = atomic_load_acquire (word);
      if (hw.requester && (v & FUTEX_TID_MASK) == (unsigned int) tid)
	{
	  /* Granted (U2).  */
	  tp_handoff_clear (handoff, tid);
	  return 0;
	}
      if ((v & FUTEX_TID_MASK) == 0)
	{
	  /* T2.  Acquire MO pairs with U0/U1 of the previous owner.  */
	  if (atomic_compare_exchange_weak_acquire (word, &v,
						    tid | FUTEX_WAITERS))
	    {
	      if (hw.requester)
		tp_handoff_clear (handoff, tid);
	      return (v & FUTEX_OWNER_DIED) ? EOWNERDEAD : 0;
	    }
	  continue;
	}

      /* Woken by a release, but the lock is owned again: a running
	 thread took it (G2).  Step back, unannounced, so that it keeps
	 the lock on its core without a wake-up per release (B1).  */
      bool self = (v & FUTEX_TID_MASK) == (unsigned int) tid;
      if (!self && tp_backoff_due (&bo, &hw, handoff))
	{
	  err = tp_backoff_sleep (&bo, &hw, clockid, abstime);
	  if (err != 0)
	    return err;
	  continue;
	}

      if ((v & FUTEX_WAITERS) == 0)
	{
	  /* T3.  Relaxed MO, see the design comment.  */
	  if (!atomic_compare_exchange_weak_relaxed (word, &v,
						     v | FUTEX_WAITERS))
	    continue;
	  v |= FUTEX_WAITERS;
	}

      /* Decide how long to sleep: H1 once past the threshold (I3), and
	 until then no longer than that (I7).  A normal mutex relocked by
	 its owner deadlocks but must not register (I3).  */
      const struct __timespec64 *until = abstime;
      clockid_t until_clock = clockid;
      struct __timespec64 deadline_ts;
      bool handoff_sleep = false;
      if (!self)
	handoff_sleep = tp_handoff_wait_plan (&hw, handoff, tid, clockid,
					      abstime, &deadline_ts, &until,
					      &until_clock);

      TP_STAT_INC (TP_STAT_USER_SLEEPS);
      err = __futex_abstimed_wait64 (word, v, until_clock, until, private);
      if (err == 0 || err == EAGAIN)
	/* A release woke us, or released the word between our look at it
	   and the sleep (or a spurious wake-up: harmless).  */
	bo.woken = true;
      if (err == ETIMEDOUT && handoff_sleep)
	continue;
      if (err == ETIMEDOUT || err == EINVAL || err == EOVERFLOW)
	return hw.requester ? tp_core_withdraw (l, tid, err) : err;
      /* 0, EAGAIN, EINTR: look at the word again.  */
    }
}

/* Spin on the word while that may pay (S1..S4).  Returns 0 or
   EOWNERDEAD with the word taken, or -1 to sleep.  */
static inline int
tp_core_spin (const struct tp_lock_ref *l, pid_t tid)
{
  unsigned int *word = l->word;
  unsigned int *handoff = l->handoff;
  int budget = tp_spin_budget ();

  /* S1: one spinner per lock (the spinner bit lives in the hand-off
     word, which 32-bit robust mutexes do not have).  */
  if (budget <= 0 || !l->handoff_enabled || !tp_spin_claim (handoff))
    return -1;
  int spins = budget;

  int result = -1;
  unsigned int owner = atomic_load_relaxed (word) & FUTEX_TID_MASK;
  int free_for = 0;
  for (; spins > 0; --spins)
    {
      /* Read before CAS, so that spinning does not steal the cache line
	 from the owner.  */
      unsigned int v = atomic_load_relaxed (word);
      unsigned int now_owner = v & FUTEX_TID_MASK;
      if (now_owner == 0)
	{
	  /* S3: take a free word only once it has stayed free for
	     TP_SPIN_GRACE rounds: an owner that locks again at once keeps
	     the lock (and its cache line) on its core.  T1.  Acquire MO
	     pairs with U0/U1 of the previous owner.  */
	  if (++free_for >= TP_SPIN_GRACE
	      && atomic_compare_exchange_weak_acquire
		   (word, &v, tid | (v & FUTEX_WAITERS)))
	    {
	      result = (v & FUTEX_OWNER_DIED) ? EOWNERDEAD : 0;
	      break;
	    }
	}
      else if (free_for > 0 || (now_owner != owner && owner != 0))
	/* S2: the lock was taken again, or changed hands, under us: the
	   lock is busy where threads run; sleep instead of competing.  */
	break;
      else
	owner = now_owner;
      tp_spin_relax ();
    }
  tp_spin_done ();
  tp_spin_release (handoff);
  tp_spin_learn (budget - spins, result >= 0);
  return result;
}

/* Take the word of L, whose T0 failed, for TID: spin, then sleep.
   Returns 0 or EOWNERDEAD with the word owned by TID (the caller has
   handled TID's own relock before), or ETIMEDOUT, EINVAL or EOVERFLOW
   from ABSTIME on CLOCKID (NULL for no timeout), owning nothing.  */
static inline int
tp_core_lock (const struct tp_lock_ref *l, pid_t tid, clockid_t clockid,
	      const struct __timespec64 *abstime)
{
  int r = tp_core_spin (l, tid);
  if (r >= 0)
    return r;
  return tp_core_sleep (l, tid, clockid, abstime);
}

/* Release the word of L, owned by the caller (or, for a normal or
   adaptive mutex, by another thread), whose U0 failed: U2 to the
   registered requester, else U1.  */
static inline void
tp_core_release (const struct tp_lock_ref *l)
{
  unsigned int *word = l->word;
  int private = l->private;
  unsigned int v = atomic_load_relaxed (word);
  if ((v & FUTEX_WAITERS) != 0 && l->handoff_enabled)
    {
      /* H5 and H3 (I4, I8).  */
      unsigned int req = tp_handoff_grant (l->handoff, l->pshared);
      if (req != 0)
	{
	  /* U2.  Nobody else changes the TID bits while we own the word
	     (I1); others may only add W, hence the loop.  Release MO pairs
	     with the requester's acquire load of the word.  */
	  unsigned int newv = (req & TP_HANDOFF_TID_MASK) | FUTEX_WAITERS;
	  while (!atomic_compare_exchange_weak_release (word, &v, newv))
	    ;
	  TP_STAT_INC (TP_STAT_HANDOFFS);
	  /* I5: make sure the requester is among the woken.  */
	  futex_wake (word, INT_MAX, private);
	  return;
	}
    }
  /* U1.  Release MO pairs with T0/T1/T2 of the next owner.  */
  v = atomic_exchange_release (word, 0);
  if ((v & FUTEX_WAITERS) != 0)
    {
      TP_STAT_INC (TP_STAT_USER_WAKES);
      futex_wake (word, 1, private);
    }
}

/* The core's view of MUTEX, a TP mutex of kind KIND.  */
static inline void
tp_mutex_ref (struct tp_lock_ref *l, pthread_mutex_t *mutex, int kind)
{
  l->word = tp_word (mutex);
  l->handoff = tp_handoff_word (mutex);
  l->private = tp_private (kind);
  l->handoff_enabled = tp_handoff_enabled (kind);
  l->pshared = (kind & PTHREAD_MUTEX_PSHARED_BIT) != 0;
}

#endif /* tp-core.h */
