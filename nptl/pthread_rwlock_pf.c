/* Phase-fair reader/writer lock (PTHREAD_RWLOCK_PHASE_FAIR_NP).
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
#include <limits.h>
#include <stdbool.h>
#include <pthreadP.h>
#include <atomic.h>
#include <futex-internal.h>
#include <pthread_rwlock_pf.h>
#include <tp-spin.h>
#include <tp-wait.h>

/* A phase-fair reader/writer lock after the PF-T ticket lock of
   Brandenburg and Anderson, extended with futex sleeping, timeouts and
   process sharing.

   Guarantees
   ----------
   G1. Mutual exclusion: a write critical section never overlaps another
       critical section.  Writers synchronize with all earlier critical
       sections, readers with all earlier write critical sections.
   G2. Phase fairness: read phases and write phases alternate.  A reader
       that arrives while a writer holds the lock or has started its phase
       waits for the end of that one writer phase only; writers that
       arrive later do not delay it.  When a writer phase ends, every
       reader that waits for it is released at once (one FUTEX_WAKE of
       all sleepers).
   G3. Writers are served in the order in which they took a ticket
       (FIFO), see the queue bound under "Abandonment" below.  A writer
       waits for at most the readers present when its phase starts, so a
       continuous stream of readers cannot starve it.
   G4. Timed and clock variants return ETIMEDOUT promptly on both
       CLOCK_REALTIME and CLOCK_MONOTONIC.  A timed-out reader, or a
       writer that times out in the queue, leaves the lock as if it had
       never arrived (no stalled queue).  A writer that times out while
       its phase drains the previous readers leaves the phase to end when
       they have left (case (d), I6), as if it had taken the lock and
       released it at once.
   G5. No pointers in the lock: PTHREAD_PROCESS_SHARED works; futex
       operations use FUTEX_SHARED then.

   Not provided: recursive read locking (a reader that read-locks again
   while a writer waits deadlocks, because the writer waits for the first
   read lock and the second waits for the writer; as for
   PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP; likewise while the phase
   of a writer that timed out in its drain is still on), cancellation points,
   elision.  A writer that read-locks what it write-locked gets EDEADLK, a
   writer that write-locks it again gets EDEADLK (via __cur_writer, as the
   upstream kinds).

   Words
   -----
   The lock uses the fields of the upstream struct under other names;
   sizeof (pthread_rwlock_t) and the position of __flags (the kind) are
   unchanged, and the all-zero state (plus __flags) is the idle lock, so
   PTHREAD_RWLOCK_PHASE_FAIR_INITIALIZER_NP works.

     RIN   = __readers        reader entry word
	     bit 0     PF_PRES   a writer phase is on
	     bit 1     PF_PHID   phase id, flipped by every writer phase
	     bit 2     PF_RWAIT  somebody may sleep on RIN
	     bits 3-7  zero
	     bits 8-31 readers admitted since the last writer phase began
		       (modulo 2^24), added in units of PF_RINC
     ROUT  = __wrphase_futex  reader exit word
	     bit 0     PF_WDRAIN the writer may sleep on ROUT
	     bit 1     PF_DRAIN_ABANDONED  the writer gave up its drain;
		       the reader whose exit completes it ends the phase
	     bits 2-7  zero
	     bits 8-31 reader exits, minus the readers handed over by every
		       writer phase (modulo 2^24, see I2)
     WIN   = __writers        next writer ticket; tickets step by
			      PF_TICKET (2), bit 0 is always zero
     WOUT  = __writers_futex  ticket being served (the "turn"); bit 0 is
			      PF_WWAIT, somebody may sleep on WOUT
     WAB   = __pad3           abandoned-ticket bitmap: bit (T / 2) % 32
			      set means that ticket T timed out and must be
			      skipped
     __cur_writer             TID of the writer in its critical section
     __pad4                   unused, zero

   States (of RIN's low bits, WOUT and WIN)

     #  PRES  WOUT vs WIN  meaning
     1  0     WOUT == WIN  idle or read phase, no writer
     2  0     WOUT != WIN  a writer holds the turn and is about to start
			   its phase (or the previous one is ending it)
     3  1     WOUT != WIN  writer phase: the turn holder drains the
			   readers of the previous read phase (ROUT count
			   != 0) or is in its critical section

   Transitions
     reader arrives   RIN += RINC; in state 3 it waits until RIN's
		      PRES/PHID bits differ from what it saw.
     reader leaves    ROUT += RINC (release); wakes the writer if it was
		      the last one the writer waits for.
     writer arrives   takes ticket T (WIN += 2), waits until WOUT == T
		      (state 2), then, once PRES is clear, one CAS on RIN
		      sets PRES, flips PHID and zeroes the count A; ROUT -=
		      A*RINC; waits until ROUT's count is 0 (state 3).
     writer leaves    passes the turn (WOUT = next live ticket), then
		      clears PRES and RWAIT in RIN (release) and wakes all
		      of RIN's sleepers: back to state 1 or 2.

   Invariants
   ----------
   I1. Only the turn holder (the thread whose ticket equals WOUT) sets
       PRES, while it holds the turn.  PRES is cleared once per phase:
       by the writer that set it, after it passed the turn on, or, if
       that writer abandoned its drain, by the reader whose exit
       completes the drain (I6).  PF_RWAIT implies PF_PRES.
   I2. count(RIN) - count(ROUT) (modulo 2^24) equals the number of
       readers that have added to RIN and not yet left (admitted readers
       inside their critical section plus readers waiting for a writer
       phase to end).  Readers add RINC to RIN on arrival and to ROUT on
       leaving, a reader that gives up waiting subtracts RINC from RIN,
       and a writer starting its phase subtracts the same A from both.
       Hence, when a writer has started its phase, ROUT's count is minus
       the number of readers still inside, and it reaches 0 exactly when
       the last of them has left.  At most 2^23 readers may be inside or
       waiting at once.
   I3. Tickets: WOUT <= WIN (in ticket order, modulo 2^32), WIN - WOUT <
       32 * PF_TICKET at all times (the queue bound, enforced when a
       ticket is taken), so the 32 pending tickets have distinct bits in
       WAB.
   I4. A bit of WAB is set only by the owner of a pending ticket that
       timed out, and cleared exactly once: by the turn holder that skips
       the ticket or by the owner itself if it finds it was handed the
       turn.  Whoever clears it (the RMW that sees the bit set) passes
       the turn on.
   I5. PF_WDRAIN is set only by the turn holder during its drain and
       cleared by it before it enters its critical section, or replaced
       by PF_DRAIN_ABANDONED in the same RMW when it gives up.
   I6. A writer phase ends only when its drain is complete (ROUT's count
       is 0): the writer that completed it unlocks, or, if the writer
       abandoned the drain, the reader whose exit brings the count to 0
       clears PF_DRAIN_ABANDONED and ends the phase.  Exactly one reader
       exit makes the count 0, because during a phase ROUT's count only
       grows (readers that arrive in the phase are counted in RIN).
       Hence a phase that waits for a reader lasts until that reader has
       entered and left, which the phase-fairness argument needs.

   Phase fairness
   --------------
   A reader R arriving in state 3 saw bits W = PRES|PHID of writer phase
   P in its RIN RMW, so R is not in P's drain count: P never waits for R.
   P ends by clearing PRES (RIN's low bits change from W), and R
   proceeds.  The next writer P' sets PRES with PHID flipped, so the low
   bits differ from W whether or not R saw the gap between P and P'; R
   was counted in RIN before P' zeroed the count, so P' waits for R
   (I2), and P' does not end before R has left, even if its writer
   gives up (I6): PHID cannot flip back to R's value while R waits.
   Hence R waits for at most one writer phase.  A writer W whose
   turn comes waits for the readers counted in RIN at its CAS, all of
   whom arrived before W started its phase; every later reader waits for
   W (G3).  Writers among themselves are ordered by tickets.

   Memory order (each atomic and its partner)
   ------------------------------------------
   M1. Reader arrival RMW on RIN is acquire; it pairs with the release
       RMW that clears PRES in pf_phase_end, so the previous write
       critical section happens before the reader's.  The reader's wait
       loop load of RIN (acquire) and tryrdlock's CAS (acquire) pair with
       it likewise.
   M2. Reader exit RMW on ROUT is release; it pairs with the writer's
       acquire load of ROUT in pf_drain (and in trywrlock), so read
       critical sections happen before the next write critical section
       (RMWs by other readers continue the release sequence).
   M3. Passing the turn (exchange on WOUT) is release; it pairs with the
       acquire load of WOUT in pf_wait_turn and trywrlock, so a write
       critical section happens before the next writer's.
   M4. Abandonment uses a store-buffering pattern: the turn holder
       publishes ticket N in WOUT, then reads N's bit in WAB; the owner of
       N sets its bit in WAB, then reads WOUT.  A seq_cst fence between
       the two steps on both sides guarantees that at least one sees the
       other's store; the fetch_and on WAB then decides which of the two
       passes the turn (I4).  The fetch_and is acquire so that the skipper
       synchronizes with the ticket taken by the abandoner (needed for
       the WOUT-before-WIN load order in pf_take_ticket, M6).
   M5. Futex flags (RWAIT in RIN, WDRAIN in ROUT, WWAIT in WOUT) are set
       by a relaxed CAS from the very value the waiter then passes to
       futex_wait, and cleared by the RMW that changes the condition;
       since both are RMWs on the futex word itself, the waker either
       sees the flag and wakes, or the waiter's CAS or futex_wait sees
       the changed word.  No ordering with other locations is needed.
   M6. pf_take_ticket loads WOUT (acquire) before WIN: whoever published
       WOUT = S happens after the taking of every ticket below S (M3,
       M4), so the WIN read is >= S and WIN - S is a true queue length,
       never a wrapped-around negative one.
   M7. The fetch_sub on ROUT that hands the count over is relaxed: it
       only counts; what is counted is fixed by RIN's modification order,
       and the writer's critical section is ordered after readers by M2.
       __cur_writer is relaxed as in pthread_rwlock_common.c.
   M8. The writer's CAS on RIN that starts its phase is acquire; it
       pairs with the release RMW of pf_phase_end, so that everything
       before the end of the previous phase, in particular the clearing
       of PF_DRAIN_ABANDONED by the reader that ended an abandoned phase
       (relaxed, before its pf_phase_end), precedes our accesses to
       ROUT.  Setting PF_DRAIN_ABANDONED is relaxed: it publishes
       nothing but itself (I6 is about one word's modification order).

   Timeouts and abandonment
   ------------------------
   A reader that times out while counted in RIN retracts with a CAS that
   subtracts RINC only if RIN's PRES/PHID bits are still W; if they
   changed, the phase ended and the reader owns a read lock after all
   and returns 0 (POSIX permits success despite expiry).  This keeps I2.

   A writer may time out
   (a) while waiting for a free queue slot: it holds nothing;
   (b) while waiting for its turn with ticket T: if T is the last ticket
       (WIN == T + 2) it retracts it with a CAS on WIN; otherwise it sets
       T's bit in WAB and, after the M4 fence, checks WOUT: if it was
       handed the turn and still owns the bit, it clears the bit and
       passes the turn on itself; otherwise the turn holder that reaches
       T skips it.  Nobody ever waits for an abandoned ticket;
   (c) holding the turn, before starting its phase: it passes the turn;
   (d) during its drain: if the drain completed meanwhile it owns the
       lock and returns 0; otherwise it replaces WDRAIN by
       PF_DRAIN_ABANDONED and passes the turn, but leaves PRES set: the
       last reader of the drain ends the phase (I6).  Ending it at once
       would let the next writers flip PHID back to the value that a
       reader of this phase, not yet scheduled, still waits to see
       change, and that reader and the writer waiting for it would wait
       for each other forever (found by models/pf_rwlock.pml).
   trywrlock gives up a phase in which it finds readers the same way.
   The bound: at most 32 writers hold tickets; a 33rd waits unordered,
   without a ticket, for a slot (on WOUT, with its timeout).  So FIFO
   order holds among the first 32 waiting writers; writers beyond that
   enter the queue in the order they win the race for a freed slot.
   The bound never blocks a timeout.

   Destruction: pf_phase_end's RMW on RIN is the last store of an
   unlock; only futex_wake calls follow, which are harmless on a
   destroyed or reused word.  Readers' last store is their ROUT RMW,
   except for the reader that ends an abandoned phase, whose last store
   is the pf_phase_end RMW that lets the next owners in.

   Wake-ups: all sleepers on RIN (readers of the ending writer phase and
   the next writer waiting for PRES to clear) are woken together; all
   sleepers on WOUT are woken when the turn passes (the futex cannot
   target one ticket; the queue is at most 32 deep).  */


/* RIN.  */
#define PF_PRES		1u
#define PF_PHID		2u
#define PF_RWAIT	4u
#define PF_WBITS	(PF_PRES | PF_PHID)
#define PF_COUNT_SHIFT	8
#define PF_RINC		(1u << PF_COUNT_SHIFT)
/* ROUT.  */
#define PF_WDRAIN	1u
#define PF_DRAIN_ABANDONED 2u
/* WIN and WOUT.  */
#define PF_WWAIT	1u
#define PF_TICKET	2u
#define PF_QUEUE_MAX	32u

#define PF_RIN(l)	(&(l)->__data.__readers)
#define PF_ROUT(l)	(&(l)->__data.__wrphase_futex)
#define PF_WIN(l)	(&(l)->__data.__writers)
#define PF_WOUT(l)	(&(l)->__data.__writers_futex)
#define PF_WAB(l)	(&(l)->__data.__pad3)

static inline unsigned int
pf_count (unsigned int w)
{
  return w >> PF_COUNT_SHIFT;
}

static inline unsigned int
pf_ab_bit (unsigned int ticket)
{
  return 1u << ((ticket / PF_TICKET) % PF_QUEUE_MAX);
}

static inline int
pf_private (pthread_rwlock_t *rwlock)
{
  return rwlock->__data.__shared != 0 ? FUTEX_SHARED : FUTEX_PRIVATE;
}

/* Spin budget before sleeping: the TP mutex's, tunable
   glibc.pthread.mutex_tp_spin_count.  Every spin loop calls
   tp_spin_relax per iteration and tp_spin_done when it stops spinning:
   before it sleeps (pf_wait) or when it got what it waited for.  */
static inline int
pf_spin_budget (void)
{
  return __pthread_mutex_tp_config.spin_count;
}

static inline bool
pf_self_is_writer (pthread_rwlock_t *rwlock)
{
  return (atomic_load_relaxed (&rwlock->__data.__cur_writer)
	  == THREAD_GETMEM (THREAD_SELF, tid));
}

/* Sleep on WORD while it is VAL.  Returns 0 (woken, value changed,
   signal: the caller re-checks) or ETIMEDOUT / EOVERFLOW.  */
static int
pf_wait (unsigned int *word, unsigned int val, clockid_t clockid,
	 const struct __timespec64 *abstime, int private)
{
  tp_spin_done ();
  int err = __futex_abstimed_wait64 (word, val, clockid, abstime, private);
  return (err == ETIMEDOUT || err == EOVERFLOW) ? err : 0;
}

/* Set FLAG in *WORD, whose current value is *VAL, so that the caller
   may sleep on it (M5).  Returns false if *WORD changed; *VAL is then
   the new value.  */
static inline bool
pf_set_flag (unsigned int *word, unsigned int *val, unsigned int flag)
{
  if ((*val & flag) != 0)
    return true;
  if (!atomic_compare_exchange_weak_relaxed (word, val, *val | flag))
    return false;
  *val |= flag;
  return true;
}

/* One round of a wait loop whose condition does not hold while *WORD is
   VAL: spin while *SPINS lasts, then set FLAG in *WORD (M5) and sleep
   on it.  Returns 0 when the caller is to look at its condition again,
   or ETIMEDOUT / EOVERFLOW.  */
static int
pf_spin_or_sleep (unsigned int *word, unsigned int val, unsigned int flag,
		  int *spins, clockid_t clockid,
		  const struct __timespec64 *abstime, int private)
{
  if (*spins > 0)
    {
      --*spins;
      tp_spin_relax ();
      return 0;
    }
  if (!pf_set_flag (word, &val, flag))
    return 0;
  return pf_wait (word, val, clockid, abstime, private);
}


/* End the current writer phase: clear PRES and RWAIT and release every
   sleeper on RIN at once.  Release MO pairs with M1.  This is the last
   store of an unlock.  */
static void
pf_phase_end (pthread_rwlock_t *rwlock, int private)
{
  unsigned int o = atomic_fetch_and_release (PF_RIN (rwlock),
					     ~(PF_PRES | PF_RWAIT));
  if ((o & PF_RWAIT) != 0)
    futex_wake (PF_RIN (rwlock), INT_MAX, private);
}

/* Pass the turn from ticket S, skipping abandoned tickets (I4, M4).  */
static void
pf_pass_turn (pthread_rwlock_t *rwlock, unsigned int s, int private)
{
  unsigned int *wout = PF_WOUT (rwlock);
  unsigned int *wab = PF_WAB (rwlock);
  unsigned int n = s + PF_TICKET;
  bool wake = false;
  for (;;)
    {
      /* Release MO: M3.  */
      if ((atomic_exchange_release (wout, n) & PF_WWAIT) != 0)
	wake = true;
      /* M4: publish N, then look at N's abandonment bit.  Pairs with the
	 fence in pf_abandon.  */
      atomic_thread_fence_seq_cst ();
      unsigned int bit = pf_ab_bit (n);
      if ((atomic_load_relaxed (wab) & bit) == 0)
	break;
      /* Acquire MO: M4.  If the owner of N cleared its bit first, it was
	 handed the turn and passes it on itself.  */
      if ((atomic_fetch_and_acquire (wab, ~bit) & bit) == 0)
	break;
      n += PF_TICKET;
    }
  if (wake)
    futex_wake (wout, INT_MAX, private);
}

/* Give up ticket T, whose turn may or may not have come (case (b)).  */
static void
pf_abandon (pthread_rwlock_t *rwlock, unsigned int t, int private)
{
  unsigned int *win = PF_WIN (rwlock);
  unsigned int *wab = PF_WAB (rwlock);
  /* Retract if last.  Relaxed MO: the ticket carries no data; whoever
     takes T next synchronizes through WOUT (M3).  */
  unsigned int i = atomic_load_relaxed (win);
  while (i == t + PF_TICKET)
    if (atomic_compare_exchange_weak_relaxed (win, &i, t))
      return;
  unsigned int bit = pf_ab_bit (t);
  /* Relaxed RMW followed by the M4 fence; pairs with pf_pass_turn.  */
  atomic_fetch_or_relaxed (wab, bit);
  atomic_thread_fence_seq_cst ();
  /* Acquire MO: if we hold the turn we pass it on, which must happen
     after the previous holder's critical section (M3).  */
  if ((atomic_load_acquire (PF_WOUT (rwlock)) & ~PF_WWAIT) != t)
    return;
  if ((atomic_fetch_and_acquire (wab, ~bit) & bit) == 0)
    return;
  pf_pass_turn (rwlock, t, private);
}

/* Take a ticket, waiting (unordered, holding nothing) while 32 writers
   hold tickets (I3).  */
static int
pf_take_ticket (pthread_rwlock_t *rwlock, unsigned int *ticket,
		clockid_t clockid, const struct __timespec64 *abstime,
		int private)
{
  unsigned int *win = PF_WIN (rwlock);
  unsigned int *wout = PF_WOUT (rwlock);
  int spins = pf_spin_budget ();
  for (;;)
    {
      /* Acquire MO, and WOUT before WIN: M6.  */
      unsigned int o = atomic_load_acquire (wout);
      unsigned int i = atomic_load_relaxed (win);
      if (i - (o & ~PF_WWAIT) < PF_QUEUE_MAX * PF_TICKET)
	{
	  /* Relaxed MO: M7 (the turn is acquired through WOUT).  */
	  if (atomic_compare_exchange_weak_relaxed (win, &i, i + PF_TICKET))
	    {
	      tp_spin_done ();
	      *ticket = i;
	      return 0;
	    }
	  continue;
	}
      int err = pf_spin_or_sleep (wout, o, PF_WWAIT, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return err;
    }
}

/* Wait until WOUT == T.  */
static int
pf_wait_turn (pthread_rwlock_t *rwlock, unsigned int t, clockid_t clockid,
	      const struct __timespec64 *abstime, int private)
{
  unsigned int *wout = PF_WOUT (rwlock);
  int spins = pf_spin_budget ();
  for (;;)
    {
      /* Acquire MO: M3.  */
      unsigned int o = atomic_load_acquire (wout);
      if ((o & ~PF_WWAIT) == t)
	{
	  tp_spin_done ();
	  return 0;
	}
      int err = pf_spin_or_sleep (wout, o, PF_WWAIT, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return err;
    }
}

/* Wait until the readers handed over at the start of our phase have
   left (ROUT's count is 0, I2).  */
/* Our drain is complete (ROUT was O, with a count of 0): clear our
   futex flag (I5).  */
static inline void
pf_drain_end (unsigned int *rout, unsigned int o)
{
  if ((o & PF_WDRAIN) != 0)
    atomic_fetch_and_relaxed (rout, ~PF_WDRAIN);
}

/* Give up our drain (case (d), or trywrlock) with ERR: return 0 if it
   completed meanwhile (we own the lock), else leave the end of the phase
   to the last reader (I5, I6) and return ERR; the caller then passes the
   turn.  */
static int
pf_drain_abandon (pthread_rwlock_t *rwlock, int err)
{
  unsigned int *rout = PF_ROUT (rwlock);
  for (;;)
    {
      /* Acquire MO: M2, for the case that the drain completed.  */
      unsigned int o = atomic_load_acquire (rout);
      if (pf_count (o) == 0)
	{
	  pf_drain_end (rout, o);
	  return 0;
	}
      /* Relaxed MO: M8.  */
      if (atomic_compare_exchange_weak_relaxed
	  (rout, &o, (o & ~PF_WDRAIN) | PF_DRAIN_ABANDONED))
	return err;
    }
}

static int
pf_drain (pthread_rwlock_t *rwlock, clockid_t clockid,
	  const struct __timespec64 *abstime, int private)
{
  unsigned int *rout = PF_ROUT (rwlock);
  int spins = pf_spin_budget ();
  for (;;)
    {
      /* Acquire MO: M2.  */
      unsigned int o = atomic_load_acquire (rout);
      if (pf_count (o) == 0)
	{
	  tp_spin_done ();
	  pf_drain_end (rout, o);
	  return 0;
	}
      int err = pf_spin_or_sleep (rout, o, PF_WDRAIN, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return pf_drain_abandon (rwlock, err);
    }
}

/* Holding the turn, start our phase: once PRES is clear, set it, flip
   PHID and hand RIN's count over to ROUT (I1, I2).  Returns 0, or
   ETIMEDOUT / EOVERFLOW (nothing changed then).  */
static int
pf_start_phase (pthread_rwlock_t *rwlock, clockid_t clockid,
		const struct __timespec64 *abstime, int private)
{
  unsigned int *rin = PF_RIN (rwlock);
  unsigned int r = atomic_load_relaxed (rin);
  int spins = pf_spin_budget ();
  for (;;)
    {
      if ((r & PF_PRES) == 0)
	{
	  /* RWAIT is clear too (I1).  Acquire MO: M8.  */
	  unsigned int n = ((r & PF_PHID) ^ PF_PHID) | PF_PRES;
	  if (atomic_compare_exchange_weak_acquire (rin, &r, n))
	    {
	      tp_spin_done ();
	      break;
	    }
	  continue;
	}
      /* The previous turn holder has passed us the turn but not yet
	 cleared PRES.  */
      int err = pf_spin_or_sleep (rin, r, PF_RWAIT, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return err;
      r = atomic_load_relaxed (rin);
    }
  /* Relaxed MO: M7.  */
  if (pf_count (r) != 0)
    atomic_fetch_add_relaxed (PF_ROUT (rwlock),
			      0u - (pf_count (r) << PF_COUNT_SHIFT));
  return 0;
}

/* Retract a reader that waited for writer phase bits W and gave up.
   Returns 0 if the phase ended first (the reader holds the lock).  */
static int
pf_rd_retract (pthread_rwlock_t *rwlock, unsigned int w, int err)
{
  unsigned int *rin = PF_RIN (rwlock);
  unsigned int r = atomic_load_relaxed (rin);
  while ((r & PF_WBITS) == w)
    /* Relaxed MO: we never entered.  */
    if (atomic_compare_exchange_weak_relaxed (rin, &r, r - PF_RINC))
      return err;
  /* Acquire MO: M1, we now hold a read lock.  */
  atomic_thread_fence_acquire ();
  return 0;
}

static int __attribute__ ((noinline))
pf_rdlock_slow (pthread_rwlock_t *rwlock, unsigned int w, clockid_t clockid,
		const struct __timespec64 *abstime)
{
  /* W is the phase of a writer; if that is us, waiting would deadlock.  */
  if (pf_self_is_writer (rwlock))
    return pf_rd_retract (rwlock, w, EDEADLK);
  unsigned int *rin = PF_RIN (rwlock);
  int private = pf_private (rwlock);
  int spins = pf_spin_budget ();
  for (;;)
    {
      /* Acquire MO: M1.  */
      unsigned int r = atomic_load_acquire (rin);
      if ((r & PF_WBITS) != w)
	{
	  tp_spin_done ();
	  return 0;
	}
      int err = pf_spin_or_sleep (rin, r, PF_RWAIT, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return pf_rd_retract (rwlock, w, err);
    }
}

int
__pthread_rwlock_pf_rdlock (pthread_rwlock_t *rwlock, clockid_t clockid,
			    const struct __timespec64 *abstime)
{
  if (__glibc_unlikely (!tp_valid_rwlock_timeout (clockid, abstime)))
    return EINVAL;
  /* Acquire MO: M1.  */
  unsigned int r = atomic_fetch_add_acquire (PF_RIN (rwlock), PF_RINC);
  if (__glibc_likely ((r & PF_PRES) == 0))
    return 0;
  return pf_rdlock_slow (rwlock, r & PF_WBITS, clockid, abstime);
}

int
__pthread_rwlock_pf_tryrdlock (pthread_rwlock_t *rwlock)
{
  unsigned int *rin = PF_RIN (rwlock);
  unsigned int r = atomic_load_relaxed (rin);
  do
    if ((r & PF_PRES) != 0)
      return EBUSY;
  /* Acquire MO: M1.  */
  while (!atomic_compare_exchange_weak_acquire (rin, &r, r + PF_RINC));
  return 0;
}

int
__pthread_rwlock_pf_wrlock (pthread_rwlock_t *rwlock, clockid_t clockid,
			    const struct __timespec64 *abstime)
{
  if (__glibc_unlikely (!tp_valid_rwlock_timeout (clockid, abstime)))
    return EINVAL;
  if (__glibc_unlikely (pf_self_is_writer (rwlock)))
    return EDEADLK;
  int private = pf_private (rwlock);
  unsigned int t;
  int err = pf_take_ticket (rwlock, &t, clockid, abstime, private);
  if (err != 0)
    return err;				/* Case (a).  */
  err = pf_wait_turn (rwlock, t, clockid, abstime, private);
  if (err != 0)
    {
      pf_abandon (rwlock, t, private);	/* Case (b).  */
      return err;
    }
  err = pf_start_phase (rwlock, clockid, abstime, private);
  if (err != 0)
    {
      pf_pass_turn (rwlock, t, private);	/* Case (c).  */
      return err;
    }
  err = pf_drain (rwlock, clockid, abstime, private);
  if (err != 0)
    {
      pf_pass_turn (rwlock, t, private);	/* Case (d).  */
      return err;
    }
  atomic_store_relaxed (&rwlock->__data.__cur_writer,
			THREAD_GETMEM (THREAD_SELF, tid));
  return 0;
}

int
__pthread_rwlock_pf_trywrlock (pthread_rwlock_t *rwlock)
{
  /* A failing trylock need not synchronize memory: relaxed MO except
     where we acquire (M3, M2).  Check first that the lock looks idle so
     that we rarely start and abort a phase.  */
  unsigned int s = atomic_load_acquire (PF_WOUT (rwlock)) & ~PF_WWAIT;
  unsigned int r = atomic_load_relaxed (PF_RIN (rwlock));
  unsigned int ro = atomic_load_relaxed (PF_ROUT (rwlock));
  if ((r & PF_PRES) != 0 || pf_count (r) != pf_count (ro))
    return EBUSY;
  /* Take ticket S only if nobody holds a ticket (WIN == WOUT).  */
  unsigned int i = s;
  while (!atomic_compare_exchange_weak_relaxed (PF_WIN (rwlock), &i,
						s + PF_TICKET))
    if (i != s)
      return EBUSY;
  /* We hold the turn.  */
  int private = pf_private (rwlock);
  unsigned int *rin = PF_RIN (rwlock);
  r = atomic_load_relaxed (rin);
  for (;;)
    {
      if ((r & PF_PRES) != 0)
	{
	  pf_pass_turn (rwlock, s, private);
	  return EBUSY;
	}
      unsigned int n = ((r & PF_PHID) ^ PF_PHID) | PF_PRES;
      /* Acquire MO: M8.  */
      if (atomic_compare_exchange_weak_acquire (rin, &r, n))
	break;
    }
  if (pf_count (r) != 0)
    atomic_fetch_add_relaxed (PF_ROUT (rwlock),
			      0u - (pf_count (r) << PF_COUNT_SHIFT));
  /* A reader may have slipped in after our check: then give the phase
     up as in case (d).  */
  if (pf_drain_abandon (rwlock, EBUSY) != 0)
    {
      pf_pass_turn (rwlock, s, private);
      return EBUSY;
    }
  atomic_store_relaxed (&rwlock->__data.__cur_writer,
			THREAD_GETMEM (THREAD_SELF, tid));
  return 0;
}

/* Our reader exit made ROUT N, with a count of 0: wake the writer that
   drains, or end the phase whose writer abandoned its drain (I6).  */
static void
pf_drain_complete (pthread_rwlock_t *rwlock, unsigned int n, int private)
{
  if ((n & PF_WDRAIN) != 0)
    futex_wake (PF_ROUT (rwlock), 1, private);
  else
    {
      /* Relaxed MO: M8.  */
      atomic_fetch_and_relaxed (PF_ROUT (rwlock), ~PF_DRAIN_ABANDONED);
      pf_phase_end (rwlock, private);
    }
}

int
__pthread_rwlock_pf_unlock (pthread_rwlock_t *rwlock)
{
  int private = pf_private (rwlock);
  /* As in pthread_rwlock_unlock.c: only we can have stored our TID.  */
  if (pf_self_is_writer (rwlock))
    {
      atomic_store_relaxed (&rwlock->__data.__cur_writer, 0);
      unsigned int s = atomic_load_relaxed (PF_WOUT (rwlock)) & ~PF_WWAIT;
      pf_pass_turn (rwlock, s, private);
      pf_phase_end (rwlock, private);
    }
  else
    {
      /* Release MO: M2.  */
      unsigned int n = atomic_fetch_add_release (PF_ROUT (rwlock), PF_RINC)
		       + PF_RINC;
      if (__glibc_unlikely ((n & (PF_WDRAIN | PF_DRAIN_ABANDONED)) != 0)
	  && pf_count (n) == 0)
	pf_drain_complete (rwlock, n, private);
    }
  return 0;
}
