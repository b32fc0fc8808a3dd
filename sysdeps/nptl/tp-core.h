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

/* The user-space core of the TP locks: one futex word, owned by a
   thread's TID, with FUTEX_WAITERS, and a hand-off word (tp-wait.h).  It
   runs the slow paths of the TP mutex (nptl/pthread_mutex_tp_lock.c,
   whose design comment is the correctness argument: transitions T1..T3,
   U1, U2, H1..H5, invariants I1..I8, the spin and wake policy S1..S4 and
   B1..B3, the memory order), of the TP rwlock (nptl/pthread_rwlock_tp.c,
   whose word may instead hold a count of readers: its A0..A2, R1, R2
   are the same steps on that word) and of the phase-fair rwlock's writer
   role (nptl/pthread_rwlock_pf.c, a mutex word).  The word's layout
   decides three things, in tp_core_can_take, tp_core_taken and
   tp_core_granted; everything else is common.  */

#ifndef _TP_CORE_H
#define _TP_CORE_H 1

#include <limits.h>
#include <tp-wait.h>
#include <tp-rwlock-word.h>
#include <tp-home.h>

/* One lock as the core sees it.  */
struct tp_lock_ref
{
  /* The futex word.  A mutex word is 0 free, else TID [|FUTEX_WAITERS];
     a robust mutex may also have FUTEX_OWNER_DIED with TID 0.  An
     rwlock word (tp-rwlock-word.h) may also be TPRW_SHARED with a count
     of readers.  */
  unsigned int *word;
  /* The hand-off word (layout in tp-wait.h).  */
  unsigned int *handoff;
  /* FUTEX_PRIVATE or FUTEX_SHARED, for the futex calls.  */
  int private;
  /* Whether the lock has hand-off (and so a spinner bit), and after how
     long a waiter registers for it (us).  */
  bool handoff_enabled;
  int handoff_us;
  /* The threshold (us) that the back-off schedule of the lock's waiters
     scales with (B1 of the TP mutex, tp-wait.h): the lock's hand-off
     threshold, but the TP mutex's for the TP rwlock, whose waiters
     register later (TPRW_HANDOFF_MUL).  */
  int backoff_us;
  /* The window of the lock's home claims (tp-home.h), ns.  */
  int64_t home_window;
  /* Whether the lock may be used by several processes (for the check
     of a registered requester, I8).  */
  bool pshared;
  /* Whether the word is an rwlock word, and whether the caller wants a
     read lock of it.  */
  bool rwlock;
  bool reader;
  /* The home word (tp-home.h), or NULL for a lock without concurrency
     restriction.  */
  unsigned int *home;
  /* Whether a caller that waited only for the window of another
     processor's claim (C2) claims the home when it takes the word (C1):
     always for a mutex and a writer; for a reader of the TP rwlock,
     only while its own races are frequent (C5 there).  */
  bool claim_after_window;
  /* Whether a caller that finds the home on another processor first
     looks whether that processor keeps the lock busy (C6 of the TP
     mutex, tp_core_probe_home): for the mutex only.  */
  bool probe_home;
};

/* Whether the word V of L can be taken for the caller now: T1/T2 of the
   mutex, A0/A1 of the rwlock.  */
static inline bool
tp_core_can_take (const struct tp_lock_ref *l, unsigned int v)
{
  if (l->rwlock)
    return tprw_can_take (v, l->reader);
  return (v & FUTEX_TID_MASK) == 0;
}

/* The word after TID took V.  A mutex waiter that has slept takes the
   word with FUTEX_WAITERS (T2: others may still sleep, and U1 wakes only
   one); a spinner keeps the bit as it is (T1).  An rwlock keeps it in
   every case (its releases wake all sleepers, I2 there).  */
static inline unsigned int
tp_core_taken (const struct tp_lock_ref *l, unsigned int v, pid_t tid,
	       bool slept)
{
  if (l->rwlock)
    return tprw_taken (v, l->reader, tid);
  return tid | (slept ? FUTEX_WAITERS : v & FUTEX_WAITERS);
}

/* Take the word of L, whose value is *V, for TID, if it can be taken:
   returns 0, or EOWNERDEAD for a robust mutex whose owner died, with the
   word taken, or -1 if it cannot be taken or the CAS failed (*V is then
   the current value).  Acquire MO pairs with the release of the
   previous owner (U0/U1/U2, R0/R1/R2).  */
static inline int
tp_core_try_take (const struct tp_lock_ref *l, unsigned int *v, pid_t tid,
		  bool slept)
{
  if (!tp_core_can_take (l, *v)
      || !atomic_compare_exchange_weak_acquire (l->word, v,
						tp_core_taken (l, *v, tid,
							       slept)))
    return -1;
  return (*v & FUTEX_OWNER_DIED) != 0 ? EOWNERDEAD : 0;
}

/* Whether the requester TID has been handed the lock, given the word V
   just loaded with acquire MO: the word holds its TID (U2, R2 to a
   writer), or, for a reader requester, R2 has marked the reader-owned
   word TPRW_GRANTED and the hand-off word holds its granted registration
   (I5 of the rwlock).  The mark, not the registration alone, is the
   proof: the registration is granted (H3) before R2 stores the word.  */
static inline bool
tp_core_granted (const struct tp_lock_ref *l, unsigned int v, pid_t tid)
{
  if (!l->rwlock || !l->reader)
    return (v & FUTEX_TID_MASK) == (unsigned int) tid;
  return ((v & (TPRW_SHARED | TPRW_GRANTED)) == (TPRW_SHARED | TPRW_GRANTED)
	  && (tp_handoff_reg (atomic_load_relaxed (l->handoff))
	      == (tid | TPRW_HANDOFF_READER | TP_HANDOFF_GRANTED)));
}

/* The requester TID, granted the lock, takes it over: a reader clears
   the mark of R2, then (H4) the registration.  Relaxed MO for the mark:
   we own the word and nobody else clears the bit; tp_handoff_clear's
   release orders it before the next registration (tp-wait.h).  */
static inline void
tp_core_accept_grant (const struct tp_lock_ref *l, pid_t tid)
{
  if (l->rwlock && l->reader)
    atomic_fetch_and_relaxed (l->word, ~TPRW_GRANTED);
  tp_handoff_clear (l->handoff, tid);
}

/* The registration of TID in the hand-off word (H1).  */
static inline unsigned int
tp_core_reg (const struct tp_lock_ref *l, pid_t tid)
{
  return tid | (l->rwlock && l->reader ? TPRW_HANDOFF_READER : 0);
}

/* Who holds the word V: the owner's TID, TPRW_SHARED for the readers of
   an rwlock, 0 if it is free.  */
static inline unsigned int
tp_core_holder (const struct tp_lock_ref *l, unsigned int v)
{
  if (l->rwlock)
    return tprw_holder (v);
  return v & FUTEX_TID_MASK;
}

/* The requester timed out (ERR): withdraw the registration (H2) unless an
   unlocker has granted the lock (H3), in which case we wait for the
   transfer (U2) and own the lock.  */
static inline int
tp_core_withdraw (const struct tp_lock_ref *l, pid_t tid, int err)
{
  unsigned int *word = l->word;
  unsigned int *handoff = l->handoff;

  /* H2.  */
  if (tp_handoff_replace (handoff, tp_core_reg (l, tid), 0))
    return err;

  /* I4: the grant is ours.  Acquire MO pairs with the release of U2.
     If the grant was dropped as stale (I8), take the word when it is
     free (T2).  */
  for (;;)
    {
      unsigned int v = atomic_load_acquire (word);
      if (tp_core_granted (l, v, tid))
	{
	  tp_core_accept_grant (l, tid);
	  return 0;
	}
      if (tp_core_can_take (l, v))
	{
	  int r = tp_core_try_take (l, &v, tid, true);
	  if (r >= 0)
	    {
	      tp_handoff_clear (handoff, tid);
	      return r;
	    }
	  continue;
	}
      /* T3 before sleeping, as in tp_core_sleep: if the grant was
	 dropped, only an unlock that sees W (I2) will wake us when the
	 word comes free.  */
      tp_announce_and_wait (word, v, l->private);
    }
}

/* The window of a home claim (tp-home.h) of the TP mutex and of the
   phase-fair rwlock's writer role, ns: a quarter of the TP mutex's
   hand-off threshold, whatever threshold the lock's waiters register
   after (the writer role's is shorter).  The TP rwlock's is longer, as
   its threshold is (TPRW_HANDOFF_MUL).  */
static inline int64_t
tp_core_home_window (void)
{
  return ((int64_t) __pthread_mutex_tp_config.handoff_us * 1000
	  / TP_HOME_WINDOW_DIV);
}

/* C2 of the TP mutex and the TP rwlock (P2 of the phase-fair rwlock's
   writer role): the waiter (not the requester) found the word owned,
   with value V, while the lock's home is another processor: sleep, on
   no lock word, until the home's window ends, but no later than the
   waiter's registration time (I7) nor its timeout (ABSTIME on CLOCKID).
   A word that a writer (or a mutex's owner) holds with nobody asleep
   for it is no queue: the waiter announces itself and sleeps on the
   word instead, so that the release wakes it (the other processor may
   have nothing else to run).  Returns -1 if there was no reason to
   defer, else 0 after the sleep or the timeout's ETIMEDOUT / EINVAL /
   EOVERFLOW.  */
static inline int
tp_core_defer (const struct tp_lock_ref *l, const struct tp_handoff_wait *hw,
	       unsigned int v, clockid_t clockid,
	       const struct __timespec64 *abstime)
{
  unsigned int holder = tp_core_holder (l, v);
  if (l->home == NULL || hw->requester || holder == 0)
    return -1;
  /* A writer's word (a mutex-like word's is always one) without
     FUTEX_WAITERS: no queue.  */
  bool readers = l->rwlock && holder == TPRW_SHARED;
  if (!readers && (v & FUTEX_WAITERS) == 0)
    return -1;
  int64_t now = tp_now_ns (CLOCK_MONOTONIC);
  int64_t until = tp_home_deferred_until (l->home, l->home_window, now);
  /* B2: never while a registration exists.  */
  if (until == 0 || now >= hw->register_at
      || tp_handoff_reg (atomic_load_relaxed (l->handoff)) != 0)
    return -1;
  if (until > hw->register_at)
    until = hw->register_at;
  TP_STAT_INC (TP_STAT_HOME_DEFERRALS);
  return tp_kernel_pause (until - now, clockid, abstime);
}

/* C1 and C4 of the TP mutex and the TP rwlock (P1 and P4 of the
   phase-fair rwlock's writer role): the caller took the word of L in its
   sleep loop, after waiting for it (WAITED) or not.  */
static inline void
tp_core_note_taken (const struct tp_lock_ref *l, bool waited)
{
  if (l->home == NULL)
    return;
  if (waited)
    tp_home_claim (l->home, tp_now_ns (CLOCK_MONOTONIC));
  else if (tp_home_elsewhere (l->home))
    tp_home_drop (l->home);
}

/* The sleeping part of tp_core_lock.  CONTENDED: the word was owned
   when the caller's lock call began, or when C6's probe looked.  */
static inline int
tp_core_sleep (const struct tp_lock_ref *l, pid_t tid, clockid_t clockid,
	       const struct __timespec64 *abstime, bool contended)
{
  unsigned int *word = l->word;
  unsigned int *handoff = l->handoff;
  int private = l->private;
  struct tp_handoff_wait hw;
  struct tp_backoff bo;

  int err = tp_check_abstime (abstime);
  if (err != 0)
    return err;
  tp_handoff_wait_init (&hw, l->handoff_enabled, l->handoff_us);
  tp_backoff_init (&bo, (int64_t) l->backoff_us * 1000);
  /* Whether the caller has had to wait (C1), and whether for the word
     itself, not only for the window of another processor's claim
     (C2).  */
  bool waited = contended;
  bool waited_for_word = contended;

  for (;;)
    {
      /* Acquire MO pairs with the release CAS of U2 (the grant).  */
      unsigned int v = atomic_load_acquire (word);
      if (hw.requester && tp_core_granted (l, v, tid))
	{
	  /* Granted (U2).  */
	  tp_core_accept_grant (l, tid);
	  tp_core_note_taken (l, true);
	  return 0;
	}
      err = tp_core_defer (l, &hw, v, clockid, abstime);
      if (err >= 0)
	{
	  if (err != 0)
	    return err;
	  waited = true;
	  continue;
	}
      if (tp_core_can_take (l, v))
	{
	  /* T2.  */
	  int r = tp_core_try_take (l, &v, tid, true);
	  if (r >= 0)
	    {
	      if (hw.requester)
		tp_handoff_clear (handoff, tid);
	      tp_core_note_taken (l, (waited_for_word
				      || (waited && l->claim_after_window)));
	      return r;
	    }
	  continue;
	}
      if (l->rwlock && l->reader && tprw_full (v)
	  && (v & FUTEX_WAITERS) == 0)
	/* Too many readers, and no release to wait for.  */
	return hw.requester ? tp_core_withdraw (l, tid, EAGAIN) : EAGAIN;

      /* Woken by a release, but the lock is owned again: a running
	 thread took it (G2).  Step back, unannounced, so that it keeps
	 the lock on its core without a wake-up per release (B1).  */
      bool self = (v & FUTEX_TID_MASK) == (unsigned int) tid;
      if (!self && tp_backoff_due (&bo, &hw, handoff))
	{
	  err = tp_backoff_sleep (&bo, &hw, clockid, abstime);
	  if (err != 0)
	    return err;
	  waited = waited_for_word = true;
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
	{
	  bool was_requester = hw.requester;
	  handoff_sleep = tp_handoff_wait_plan (&hw, handoff,
						tp_core_reg (l, tid), clockid,
						abstime, &deadline_ts, &until,
						&until_clock);
	  if (hw.requester && !was_requester)
	    /* Registered just now (H1): look at the word again before
	       sleeping on it, so that the value we sleep on is one that
	       the release granting us (U2, R2) changes.  */
	    continue;
	}

      /* The requester sleeps with its own mask, so that the release
	 granting it the lock (U2, R2) wakes it alone (I5).  */
      TP_STAT_INC (TP_STAT_USER_SLEEPS);
      err = tp_futex_wait_bitset (word, v,
				  (hw.requester ? TP_WAIT_REQUESTER
				   : TP_WAIT_WAITER),
				  until_clock, until, private);
      waited = waited_for_word = true;
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

/* C6 of the TP mutex: how long the word must stay free, in cache-line
   transfers, before tp_core_probe_home concludes that the home
   processor leaves the lock idle between its operations.  The home
   processor's own relock needs the line back from the prober, so a busy
   home leaves the word free for about one transfer as the prober sees
   it; the prober's longest round is the one whose load missed, a
   transfer plus a round.  make bench-free-stretch measures it: with a
   52 ns round trip, a home that relocked at once left the word free
   for 0.85-1.75 times the round that saw it come free (5th and 95th
   percentiles), one 270 ns idle between its operations (about 1000
   iterations of bench-lock-contention) for 3.8-5.7 times, one 800 ns
   idle for 11-14 times; with a 300 ns round trip the 270 ns gap reads
   1.2-2.4 times (too short to be worth sharing there) and the 800 ns
   one 3.8-5.5 (README).  Four transfers missed the 270 ns gap with the
   52 ns round trip and lost the throughput C6 is for there.  */
#define TP_HOME_IDLE_TRANSFERS	2

/* C6 of the TP mutex: the caller found the lock's home on another
   processor (C2).  Before leaving the lock to that processor, look
   whether it keeps the lock busy, as the lock's one spinner (S1) and
   for at most the spin budget, even with W set (S1 heeds W so as not
   to take a processor from the owner or a woken waiter; the probe runs
   on a processor whose threads leave the lock to the home processor).
   If the word stays free for TP_HOME_IDLE_TRANSFERS times the longest
   round so far, the home processor leaves it idle between its
   operations, for long enough that this processor can use it: take the
   word (T1) and drop the home (C4), so that both processors work.  If
   the word is taken again sooner, or stays owned, the home processor
   keeps the lock busy, and the caller defers.  Returns 0 or EOWNERDEAD
   with the word taken, or -1; sets *SAW_OWNED if it found the word
   owned at some time (the caller has waited for it, C1).  */
static inline int
tp_core_probe_home (const struct tp_lock_ref *l, pid_t tid, bool *saw_owned)
{
  unsigned int *word = l->word;
  int rounds = tp_spin_budget ();

  /* Relaxed MO for the spinner bit: as in tp_core_spin.  */
  if (!l->probe_home || rounds <= 0 || !l->handoff_enabled
      || !tp_spin_claim (l->handoff))
    return -1;
  int result = -1;
  /* Since when the word has been free, or -1: CLOCK_MONOTONIC is never
     negative.  */
  int64_t free_since = -1;
  int64_t longest_round = 0;
  int64_t round_start = tp_now_ns (CLOCK_MONOTONIC);
  for (; rounds > 0; --rounds)
    {
      /* Relaxed MO: the CAS of T1 acquires.  The clock is only a
	 measure: the vDSO's clock on x86_64 reads the time stamp
	 counter only once the load has its value, so the round that
	 missed is a transfer long; a clock that does not wait makes the
	 rounds shorter and the probe quicker to drop the home, never
	 wrong about who owns the word.  */
      unsigned int v = atomic_load_relaxed (word);
      int64_t now = tp_now_ns (CLOCK_MONOTONIC);
      if (now - round_start > longest_round)
	longest_round = now - round_start;
      round_start = now;
      if (tp_core_can_take (l, v))
	{
	  if (free_since < 0)
	    free_since = now;
	  else if (now - free_since >= TP_HOME_IDLE_TRANSFERS * longest_round
		   && (result = tp_core_try_take (l, &v, tid, false)) >= 0)
	    break;
	}
      else
	{
	  *saw_owned = true;
	  if (free_since >= 0)
	    /* Taken again soon: the home processor keeps it busy.  */
	    break;
	}
      tp_spin_relax ();
    }
  tp_spin_done ();
  tp_spin_release (l->handoff);
  if (result >= 0)
    tp_home_drop (l->home);
  return result;
}

/* Spin on the word while that may pay (S1..S4).  Returns 0 or
   EOWNERDEAD with the word taken, or -1 to sleep.  */
static inline int
tp_core_spin (const struct tp_lock_ref *l, pid_t tid)
{
  unsigned int *word = l->word;
  unsigned int *handoff = l->handoff;
  int budget = tp_spin_budget ();
  int grace = tp_spin_grace ();

  /* S1: one spinner per lock (the spinner bit lives in the hand-off
     word, which 32-bit robust mutexes do not have), and none while
     waiters sleep announced: more threads want the lock than run.
     Relaxed MO: W is only a hint here; a stale value makes us spin or
     sleep, and either path re-reads the word before acting on it.  */
  if (budget <= 0 || !l->handoff_enabled
      || (atomic_load_relaxed (word) & FUTEX_WAITERS) != 0
      || !tp_spin_claim (handoff))
    return -1;
  int spins = budget;

  int result = -1;
  unsigned int owner = tp_core_holder (l, atomic_load_relaxed (word));
  int free_for = 0;
  for (; spins > 0; --spins)
    {
      /* Read before CAS, so that spinning does not steal the cache line
	 from the owner.  */
      unsigned int v = atomic_load_relaxed (word);
      unsigned int now_owner = tp_core_holder (l, v);
      if (now_owner == 0)
	++free_for;
      /* S3: take a free word once it has stayed free for the grace
	 (an owner that locks again at once keeps the lock, and its
	 cache line, on its core); a reader joins readers at once: that
	 moves no lock away from anyone.  T1.  */
      if ((now_owner != 0 || free_for >= grace)
	  && (result = tp_core_try_take (l, &v, tid, false)) >= 0)
	break;
      if (now_owner != 0)
	{
	  if (free_for > 0 || (now_owner != owner && owner != 0))
	    /* S2: the lock was taken again, or changed hands, under us:
	       the lock is busy where threads run; sleep instead of
	       competing.  */
	    break;
	  owner = now_owner;
	}
      tp_spin_relax ();
    }
  tp_spin_done ();
  tp_spin_release (handoff);
  tp_spin_learn (budget - spins, grace, result >= 0, free_for);
  return result;
}

/* Take the word of L, whose fast path failed, for TID: spin, then sleep.
   Returns 0 or EOWNERDEAD with the word taken (the caller has handled
   TID's own relock of a mutex before), or ETIMEDOUT, EINVAL or EOVERFLOW
   from ABSTIME on CLOCKID (NULL for no timeout), or EAGAIN for a reader
   of an rwlock with too many readers, owning nothing.  */
static inline int
tp_core_lock (const struct tp_lock_ref *l, pid_t tid, clockid_t clockid,
	      const struct __timespec64 *abstime)
{
  /* C2: no spinning on a lock whose home is another processor, only
     the mutex's probe (C6).  C1: a word owned now, or when the probe
     looks, makes the caller a waiter.  Relaxed MO: both are hints
     (tp-home.h).  */
  bool deferred = l->home != NULL && tp_home_elsewhere (l->home);
  bool contended = (l->home != NULL
		    && !tp_core_can_take (l, atomic_load_relaxed (l->word)));
  int r = (deferred ? tp_core_probe_home (l, tid, &contended)
	   : tp_core_spin (l, tid));
  if (r >= 0)
    return r;
  return tp_core_sleep (l, tid, clockid, abstime, contended);
}

/* Release the word of L, owned by the caller (for a normal or adaptive
   mutex, possibly by another thread; for an rwlock, as the writer or the
   last reader), whose fast release failed: U2 (R2) to the registered
   requester, else U1 (R1).  */
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
	  /* U2: a writer requester gets the word, a reader requester a
	     read lock of its own.  Nobody else changes the owner bits
	     while we own the word (I1); others may only add W, hence the
	     loop.  Release MO pairs with the requester's acquire load of
	     the word.  */
	  unsigned int newv = ((l->rwlock && (req & TPRW_HANDOFF_READER) != 0)
			       ? TPRW_SHARED | TPRW_GRANTED | 1
			       : req & TP_HANDOFF_TID_MASK);
	  while (!atomic_compare_exchange_weak_release (word, &v,
							newv | FUTEX_WAITERS))
	    ;
	  TP_STAT_INC (TP_STAT_HANDOFFS);
	  /* I5: wake the requester, which sleeps with its own mask, and
	     none of the waiters, which would find the word owned.  All
	     of that mask: a requester whose registration H5 dropped may
	     sleep with it too, and must not take this wake-up.  */
	  tp_futex_wake_bitset (word, INT_MAX, TP_WAIT_REQUESTER, private);
	  return;
	}
    }
  /* U1.  Release MO pairs with T0/T1/T2 of the next owner.  A mutex
     wakes one waiter (a woken waiter that takes the word sets W again,
     T2); an rwlock wakes all, readers being served as a group.  */
  v = atomic_exchange_release (word, 0);
  if ((v & FUTEX_WAITERS) != 0)
    {
      TP_STAT_INC (TP_STAT_USER_WAKES);
      futex_wake (word, l->rwlock ? INT_MAX : 1, private);
    }
}

/* The kernel path's lock call of TID: FUTEX_LOCK, or FUTEX_LOCK_SHARED,
   as OP (with its private flag) on WORD, with the timeout ABSTIME on CLOCKID
   (NULL for none), retried as "Kernel path" in tp-wait.h says.  Returns
   0 with the word taken; EOWNERDEAD with the word taken exclusively
   (EXCLUSIVE) from an owner that died, FUTEX_OWNER_DIED cleared; ENOSYS
   if the kernel lacks the operation (the caller takes the user-space
   path); EAGAIN from FUTEX_LOCK_SHARED with the reader count full;
   ETIMEDOUT, EINVAL or EOVERFLOW from the timeout; or EINVAL for a word
   the kernel does not accept (EFAULT, EINVAL).  */
static inline int
tp_kernel_lock (unsigned int *word, int op, bool exclusive, pid_t tid,
		clockid_t clockid, const struct __timespec64 *abstime)
{
  int err = tp_check_abstime (abstime);
  if (err != 0)
    return err;
  if (abstime != NULL && clockid == CLOCK_REALTIME)
    op |= FUTEX_CLOCK_REALTIME;

  for (;;)
    {
      TP_STAT_INC (TP_STAT_KERNEL_LOCKS);
      long int r = tp_futex_syscall (word, op, abstime);
      if (r >= 0)
	{
	  /* Pairs with the release of the previous owner's unlock (its
	     user-space release or FUTEX_UNLOCK); the kernel's cmpxchg is
	     a full barrier.  */
	  atomic_thread_fence_acquire ();
	  if (!exclusive
	      || (atomic_load_relaxed (word) & FUTEX_OWNER_DIED) == 0)
	    return 0;
	  /* Keep OD set only while the owner bits are 0 (see the word's
	     layout).  Relaxed MO: we own the word; others only add W.  */
	  atomic_fetch_and_relaxed (word, ~FUTEX_OWNER_DIED);
	  return EOWNERDEAD;
	}
      switch (-r)
	{
	case EINTR:
	  continue;
	case ENOMEM:
	  err = tp_kernel_pause (TP_KERNEL_RETRY_NS, clockid, abstime);
	  if (err != 0)
	    return err;
	  continue;
	case ETIMEDOUT:
	case EAGAIN:
	case ENOSYS:
	  return -r;
	case EDEADLK:
	  /* A normal or adaptive mutex relocked by its owner.  (A writer
	     cannot get it: the rwlock checks __cur_writer first.)  */
	  err = tp_kernel_wait_unlock (word, tid, clockid, abstime);
	  if (err != 0)
	    return err;
	  continue;
	case ESRCH:
	case EPERM:
	  return tp_block_until_timeout (clockid, abstime);
	default:
	  return EINVAL;
	}
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
  l->handoff_us = __pthread_mutex_tp_config.handoff_us;
  l->backoff_us = l->handoff_us;
  l->home_window = tp_core_home_window ();
  l->pshared = (kind & PTHREAD_MUTEX_PSHARED_BIT) != 0;
  l->rwlock = false;
  l->reader = false;
  l->home = tp_home_word (mutex, kind);
  l->claim_after_window = true;
  l->probe_home = true;
}

#endif /* tp-core.h */
