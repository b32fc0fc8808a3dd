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
#include <tp-core.h>

/* A phase-fair reader/writer lock after the PF-T lock of Brandenburg
   and Anderson, extended with futex sleeping, timeouts and process
   sharing, whose writers compete for the writer role (a TP lock)
   instead of taking tickets.

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
       all sleepers).  Before it arrives for good, a reader may defer to
       the lock's home processor (P2 below) and back off from writer
       phases (P6), both counted from the start of its lock call and
       together for at most the hand-off threshold; so its wait is
       bounded by the threshold plus one writer phase.
   G3. Bounded writer wait.  Writers compete for the writer role, a TP
       lock (tp-core.h) with the TP mutex's spin, wake and hand-off
       policy: the role stays with writers that are running, and a
       writer that has waited longer than a fifth of the hand-off
       threshold (glibc.pthread.mutex_tp_handoff_us; PF_ROLE_HANDOFF_DIV)
       registers and is handed the role by the next release (the TP
       mutex's G3 and I7; one registration at a time).  Holding the
       role, a writer waits for the end of the previous writer phase and
       then for at most the readers present when its own phase starts,
       so a continuous stream of readers cannot starve it.  Writers are
       not served in arrival order: strict order makes every writer wait
       for the one thread whose turn it is, which on a machine with more
       threads than processors is often not running.  The role's
       deferral to the home processor (P2) ends by the writer's
       registration time, so it leaves this bound as it is.
   G4. Timed and clock variants return ETIMEDOUT promptly on both
       CLOCK_REALTIME and CLOCK_MONOTONIC.  A timed-out reader, or a
       writer that times out before its phase starts, leaves the lock as
       if it had never arrived.  A writer that times out while its phase
       drains the previous readers leaves the phase to end when they
       have left (I4), as if it had taken the lock and released it at
       once.
   G5. No pointers in the lock: PTHREAD_PROCESS_SHARED works; futex
       operations use FUTEX_SHARED then.
   G6. At most 2^23 - 1 readers may hold the lock at once, and at most
       2^23 - 1 wait for one writer phase to end; a read lock beyond
       that fails with EAGAIN and changes nothing.

   Not provided: recursive read locking (a reader that read-locks again
   while a writer waits deadlocks, because the writer waits for the first
   read lock and the second waits for the writer; as for
   PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP; likewise while the phase
   of a writer that timed out in its drain is still on), cancellation
   points, elision.  A writer that read-locks what it write-locked gets
   EDEADLK, a writer that write-locks it again gets EDEADLK (via
   __cur_writer, as the upstream kinds).

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
     WROLE = __writers_futex  the writer role: 0 free, else the holder's
			      TID, with FUTEX_WAITERS when a writer may
			      sleep on it (the TP lock word of tp-core.h)
     WHO   = __writers        the writer role's hand-off word (layout in
			      tp-wait.h)
     __cur_writer             TID of the writer in its critical section
     HOME  = __pad3           the lock's home processor and the time of
			      its claim (tp-home.h, P1..P5)
     __pad4                   unused, zero

   Transitions
     reader arrives   RIN += RINC; if PRES was set it waits until RIN's
		      PRES/PHID bits differ from what it saw.
     reader leaves    ROUT += RINC (release); wakes the writer if it was
		      the last one the writer waits for.
     writer arrives   takes the role (tp-core.h: spin, sleep, hand-off),
		      then, once PRES is clear, one CAS on RIN sets PRES,
		      flips PHID and zeroes the count A; ROUT -= A*RINC;
		      waits until ROUT's count is 0.
     writer leaves    releases the role, then clears PRES and RWAIT in
		      RIN (release) and wakes all of RIN's sleepers.

   Invariants
   ----------
   I1. Only the holder of the role sets PRES, while it holds the role.
       PRES is cleared once per phase: by the writer that set it, after
       it released the role, or, if that writer abandoned its drain, by
       the reader whose exit completes the drain (I4).  PF_RWAIT implies
       PF_PRES.  The role itself is a TP lock: its word holds the TID of
       its holder, set and cleared only by that thread or by the release
       that hands it over (the TP mutex's I1..I8).
   I2. count(RIN) - count(ROUT) (modulo 2^24) equals the number of
       readers that have added to RIN and not yet left (admitted readers
       inside their critical section plus readers waiting for a writer
       phase to end).  Readers add RINC to RIN on arrival and to ROUT on
       leaving, a reader that gives up waiting (or finds the lock full,
       G6) subtracts RINC from RIN, and a writer starting its phase
       subtracts the same A from both.  Hence, when a writer has started
       its phase, ROUT's count is minus the number of readers still
       inside, and it reaches 0 exactly when the last of them has left.
       The reader limit G6 keeps that number below 2^24 (fewer than 2^23
       inside, fewer than 2^23 waiting), so the difference is never
       ambiguous.
   I3. PF_WDRAIN is set only by the role holder during its drain and
       cleared by it before it enters its critical section, or replaced
       by PF_DRAIN_ABANDONED in the same RMW when it gives up.
   I4. A writer phase ends only when its drain is complete (ROUT's count
       is 0): the writer that completed it unlocks, or, if the writer
       abandoned the drain, the reader whose exit brings the count to 0
       clears PF_DRAIN_ABANDONED and ends the phase.  Exactly one reader
       exit makes the count 0, because during a phase ROUT's count only
       grows (readers that arrive in the phase are counted in RIN).
       Hence a phase that waits for a reader lasts until that reader has
       entered and left, which the phase-fairness argument needs.

   Phase fairness
   --------------
   A reader R arriving while writer phase P is on saw bits W =
   PRES|PHID of P in its RIN RMW, so R is not in P's drain count: P
   never waits for R.  P ends by clearing PRES (RIN's low bits change
   from W), and R proceeds.  The next writer P' sets PRES with PHID
   flipped, so the low bits differ from W whether or not R saw the gap
   between P and P'; R was counted in RIN before P' zeroed the count, so
   P' waits for R (I2), and P' does not end before R has left, even if
   its writer gives up (I4): PHID cannot flip back to R's value while R
   waits.  Hence R waits for at most one writer phase.  A writer whose
   phase starts waits for the readers counted in RIN at its CAS, all of
   whom arrived before; every later reader waits for its phase.  Among
   themselves writers compete for the role (G3).

   Concurrency restriction
   -----------------------
   With more threads than processors and no gap between operations,
   both processors run threads that take the lock, so RIN, ROUT and the
   data move between their caches at every operation, while glibc's
   default rwlock lets its waiters fall asleep until one thread at a time
   runs it from a hot cache (make bench-rwlock-profile: the same threads
   pinned to one processor run 0.95-1.40 times the default rwlock's
   throughput on two at 50 % reads, on two 0.48-0.90 times).  So, as the
   TP rwlock (its C1..C4), a saturated lock belongs for a window (a
   quarter of the hand-off threshold) to the processor of the last thread
   that had to wait for it, through the home word HOME (tp-home.h):
     P1  A writer that gets the role after waiting for it (in the TP
	 core, C1 there), a reader that waited for a writer phase to end,
	 and a reader that deferred (P2) and then joins other readers
	 claim HOME for their processor.
     P2  A reader on another processor, within the window, that finds
	 the lock not idle (a writer phase on, the role held, or readers
	 inside: pf_looks_idle) sleeps, on no lock word and before it
	 arrives, until the window ends, and for at most the hand-off
	 threshold in all, or until its timeout; then it arrives as
	 usual.  A writer there takes no
	 fast path for the role and does not spin for it; the TP core
	 defers it as it defers a TP rwlock waiter (C2), until its
	 registration time at the latest, but only while another writer
	 sleeps for the role (FUTEX_WAITERS in WROLE): a role whose
	 holder nobody else waits for is no queue, and the writer sleeps
	 on the role's word instead, so that the release wakes it.  With
	 2 and 4 threads, 50 % reads, medium sections and a gap of 1000,
	 the timed deferral left the writer's processor idle while the
	 other thread ran on (1.39 and 1.49 processors busy, 0.82 and
	 0.92 of the default rwlock's throughput); with this rule 1.79-1.97
	 and 1.83-1.98 busy, 0.82-1.02 and 0.86-1.14 (medians of three
	 runs of bench-lock-contention --no-wait-timing --threads 2,4,8
	 --cs medium --lock-latency 0,1000 --repeat 5), and the
	 saturated workloads (no gap) keep their restriction.
     P3  A writer registered for the role ignores HOME (the TP core's
	 C3), so the role still rotates between the processors.
     P4  A thread that takes the lock (a reader) or the role (a
	 writer) without waiting, while HOME names another processor,
	 clears HOME: the lock is no longer saturated.
     P5  A reader during whose P2 sleep nobody claimed HOME (it is
	 still the claim it deferred to, or 0) does not defer again for
	 twice the window, and twice as long again after each further
	 such sleep in a row, up to 2^PF_DEFER_BACKOFF_MAX windows; a
	 sleep during which HOME was claimed ends the back-off.  The
	 state is the thread's own (TLS), not the lock's.
     P6  A reader that arrived during a writer phase spins for its own
	 learnt budget (the TP mutex's S4, in TLS: halved after a spin
	 that did not see the phase end, raised by one that did).  If
	 the phase is still on, it retracts its arrival as a timed-out
	 reader does (pf_rd_retract: only while RIN's phase bits are
	 unchanged; otherwise the phase has ended and it holds the lock),
	 sleeps on no lock word for a back-off delay (1/128 of the
	 hand-off threshold, doubling up to a quarter of it) and arrives
	 again.  It backs off only while the sleep would end within the
	 threshold from the start of its lock call (the bound P2 counts
	 from too); then it stays counted and sleeps on RIN until the
	 phase ends.  This one needs no home: it holds without rseq.
   A deferred or backed-off reader has not arrived: it is in no count,
   and no writer waits for it, so I1..I4 and the phase-fairness argument
   are about the readers that arrived and hold as before; the deferral
   and the back-off only add to a reader's wait, by at most the
   threshold together (G2).  Readers that never wait (100 % reads) never
   claim HOME.  Without rseq nobody claims or defers.
   Why P2 defers to readers and P6 backs off: with more threads than
   processors and no time between operations, the threads that are not
   running are mostly inside their read critical sections, holding the
   lock.  A writer phase then drains readers that wait for a processor,
   every reader that arrives meanwhile waits, and when the phase ends
   they are released together, hold the lock while they wait for a
   processor in turn, and the next writer phase drains them all: at 16
   threads, 90 % reads, long sections, the threads ran for 17-25 us
   between futex waits (perf sched timehist), 0.07 context switches per
   operation, and the lock ran 0.30-0.44 times the default rwlock's
   throughput.  So a reader on the other processor defers to readers
   inside too (P2 once deferred only to a writer at the lock), and a
   reader that a writer phase holds up steps out of the counts instead
   of waiting in them (P6): the next writer does not wait for it, and
   its sleep leaves the processor to threads that can run.  A/B of the
   two libcs (3 alternated processes of bench-lock-contention
   --no-wait-timing --kinds rwlock-default,rwlock-phase-fair --threads
   2,3,4,8,16 --read-pct 90,50 --repeat 1 --duration 0.15, medians of
   the ratios to the default rwlock, before -> after): 90 % reads, long
   sections, 8 and 16 threads, no gap 0.62 -> 0.97 and 0.32 -> 0.80, at
   16 threads with a gap of 1000 0.41 -> 0.92; the lowest cell at 90 %
   0.32 -> 0.80, at 50 % 0.82 -> 0.89; at 90 % with short and medium
   sections and 3 to 8 threads, no gap, 1.35-2.06 -> 1.18-1.81.  A
   deferred reader that finds the
   lock free does not claim it: a claim by each deferred reader would
   make the two processors defer to each other in turn (make bench, 2
   and 3 threads with time between operations).  P5 is for the same
   workloads: with 2 threads and time between operations a deferral
   leaves the reader's processor idle while the other thread, which
   does not wait, renews no claim (0.65-0.77 of the default rwlock's
   throughput at 50 % reads without P5, 0.87-0.91 with it), while a
   saturated lock's home processor keeps claiming.  P5 is not applied
   to the writer role's deferral: applied there too, it raised those
   2-thread figures only to 1.04-1.06, but lowered the saturated
   workloads (no gap, 3 to 16 threads) from 0.90-1.36 to 0.65-1.22;
   there P2's rule that a writer defers only to a queue for the role
   does that job.  A narrower rule for readers (defer only while a
   thread sleeps on RIN or for the role) lowered 90 % reads at 16
   threads without a gap, short and medium sections, from 1.12 and 0.86
   to 0.57 and 0.57: readers rarely sleep there.

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
   M3. The writer role is taken with acquire and released with release
       MO (tp-core.h, the TP mutex's memory-order notes), so a write
       critical section happens before the next writer's whatever RIN
       does.  The role carries nothing else: the phase itself is ordered
       by M1, M2 and M6.
   M4. Futex flags (RWAIT in RIN, WDRAIN in ROUT) are set by a relaxed
       CAS from the very value the waiter then passes to futex_wait, and
       cleared by the RMW that changes the condition; since both are
       RMWs on the futex word itself, the waker either sees the flag and
       wakes, or the waiter's CAS or futex_wait sees the changed word.
       No ordering with other locations is needed.
   M5. The fetch_sub on ROUT that hands the count over (pf_hand_over)
       counts; what is counted is fixed by RIN's modification order, and
       the writer's critical section is ordered after readers by M2.  It
       is release only for the reader limit (G6), which estimates the
       readers present from the RIN value of the reader's arrival and a
       relaxed load of ROUT, while no writer phase is on (during one,
       only RIN's count, the readers waiting for it, is limited).  The
       estimate can be far off: exits of readers that arrived later make
       it wrap below zero, and a ROUT that already has a hand-over that
       the RIN value predates makes it too high by the whole handed-over
       count.  So an estimate over the limit is counted again
       (pf_readers_full_recheck) from an acquire load of ROUT and then a
       load of RIN, which pairs with the hand-over's release: if the ROUT
       load read the hand-over (or a later exit, which continues its
       release sequence), the RIN load sees the phase bits that the
       hand-over's CAS changed, and the recheck gives up; if the bits are
       unchanged, there is no hand-over newer than the arrival in either
       value, and each exit in ROUT is of a reader counted in the later
       RIN, so the count errs only upwards, by the readers that arrive
       between the two loads.  The bits cannot return to the old value
       while the reader is counted: the phase that changed them waits
       for it (I4).  So tryrdlock, too, judges the limit only after it
       has arrived, and undoes the arrival if the lock is full: judged
       from a value it had merely loaded, two writer phases between the
       loads could restore the bits, and a ROUT from before a hand-over
       with a RIN from after it gave a count below zero, a wrong EAGAIN
       (upstream tst-rwlock-tryrdlock-stall, 28 writers and 4 readers
       on two processors, hit it).
       __cur_writer is relaxed as in pthread_rwlock_common.c.
   M6. The writer's CAS on RIN that starts its phase is acquire; it
       pairs with the release RMW of pf_phase_end, so that everything
       before the end of the previous phase, in particular the clearing
       of PF_DRAIN_ABANDONED by the reader that ended an abandoned phase
       (relaxed, before its pf_phase_end), precedes our accesses to
       ROUT.  Setting PF_DRAIN_ABANDONED is relaxed: it publishes
       nothing but itself (I4 is about one word's modification order).
   M7. HOME, and the loads of RIN, WROLE and ROUT that decide a deferral
       (P2) or a claim (P1), are relaxed: they are hints that delay an
       attempt and decide no ownership (tp-home.h).

   Timeouts and abandonment
   ------------------------
   A reader that times out while counted in RIN retracts with a CAS that
   subtracts RINC only if RIN's PRES/PHID bits are still W; if they
   changed, the phase ended and the reader owns a read lock after all
   and returns 0 (POSIX permits success despite expiry).  This keeps I2.

   A writer may time out
   (a) while waiting for the role: the TP core withdraws its hand-off
       registration, unless it was granted the role meanwhile (then it
       holds the role and goes on as in (b));
   (b) holding the role, before starting its phase: it releases the
       role;
   (c) during its drain: if the drain completed meanwhile it owns the
       lock and returns 0; otherwise it replaces WDRAIN by
       PF_DRAIN_ABANDONED and releases the role, but leaves PRES set:
       the last reader of the drain ends the phase (I4).  Ending it at
       once would let the next writers flip PHID back to the value that
       a reader of this phase, not yet scheduled, still waits to see
       change, and that reader and the writer waiting for it would wait
       for each other forever (found by models/pf_rwlock.pml).
   trywrlock gives up a phase in which it finds readers the same way.

   Destruction: pf_phase_end's RMW on RIN is the last store of a write
   unlock (the role is released before it); only futex_wake calls
   follow, which are harmless on a destroyed or reused word.  Readers'
   last store is their ROUT RMW, except for the reader that ends an
   abandoned phase, whose last store is the pf_phase_end RMW that lets
   the next owners in.

   Wake-ups: all sleepers on RIN (readers of the ending writer phase and
   the role holder waiting for PRES to clear) are woken together; the
   role wakes one waiting writer per release, or the one it hands the
   role to (tp-core.h).  */


/* RIN.  */
#define PF_PRES		1u
#define PF_PHID		2u
#define PF_RWAIT	4u
#define PF_WBITS	(PF_PRES | PF_PHID)
#define PF_COUNT_SHIFT	8
#define PF_RINC		(1u << PF_COUNT_SHIFT)
#define PF_COUNT_MASK	(UINT_MAX >> PF_COUNT_SHIFT)
/* The reader limit, G6.  */
#define PF_MAX_READERS	(PF_COUNT_MASK >> 1)
/* ROUT.  */
#define PF_WDRAIN	1u
#define PF_DRAIN_ABANDONED 2u

#define PF_RIN(l)	(&(l)->__data.__readers)
#define PF_ROUT(l)	(&(l)->__data.__wrphase_futex)
#define PF_WROLE(l)	(&(l)->__data.__writers_futex)
#define PF_WHO(l)	(&(l)->__data.__writers)
#define PF_HOME(l)	(&(l)->__data.__pad3)

static inline unsigned int
pf_count (unsigned int w)
{
  return w >> PF_COUNT_SHIFT;
}

static inline int
pf_private (pthread_rwlock_t *rwlock)
{
  return rwlock->__data.__shared != 0 ? FUTEX_SHARED : FUTEX_PRIVATE;
}

/* Spin budget of readers and of the role holder before they sleep: the
   TP mutex's, tunable glibc.pthread.mutex_tp_spin_count.  Every spin
   loop calls tp_spin_relax per iteration and tp_spin_done when it stops
   spinning: before it sleeps (pf_wait) or when it got what it waited
   for.  */
static inline int
pf_spin_budget (void)
{
  return __pthread_mutex_tp_config.spin_count;
}

static inline pid_t
pf_self (void)
{
  return THREAD_GETMEM (THREAD_SELF, tid);
}

static inline bool
pf_self_is_writer (pthread_rwlock_t *rwlock)
{
  return atomic_load_relaxed (&rwlock->__data.__cur_writer) == pf_self ();
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
   may sleep on it (M4).  Returns false if *WORD changed; *VAL is then
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
   VAL: spin while *SPINS lasts, then set FLAG in *WORD (M4) and sleep
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


/* The writer role (G3, I1, M3).  */

/* The role's hand-off threshold is this fraction of the TP locks'
   (1 ms at the default 5 ms), since the wait for the role is what a
   writer's wait is made of.  At 4 and 8 threads, half of them writers,
   no gap between operations (make bench's fairness pass), the worst
   writer wait was 5.8-6.6 ms with the whole threshold, 3.0-4.0 ms with
   a fifth, at the same throughput; a twentieth brought it only to
   2.1-2.7 ms, lost a fifth of the throughput at 16 threads and 90 %
   reads, and still waited 2.4-3.0 ms for the role.  The rest is about
   what any sleeping thread of the process waits for a processor under
   that load: 1.2-2.4 ms at the default threshold by
   bench-lock-contention --timer-probe (make bench's hand-off passes).  */
#define PF_ROLE_HANDOFF_DIV 5

static inline void
pf_role_ref (struct tp_lock_ref *l, pthread_rwlock_t *rwlock, int private)
{
  l->word = PF_WROLE (rwlock);
  l->handoff = PF_WHO (rwlock);
  l->private = private;
  l->handoff_enabled = true;
  l->handoff_us = __pthread_mutex_tp_config.handoff_us / PF_ROLE_HANDOFF_DIV;
  l->backoff_us = l->handoff_us;
  l->home_window = tp_core_home_window ();
  l->pshared = private != FUTEX_PRIVATE;
  l->rwlock = false;
  l->reader = false;
  l->home = PF_HOME (rwlock);
  l->claim_after_window = true;
  l->probe_home = false;
}

/* Take the role for TID: T0, then the TP core's spin and sleep.  Returns
   0, or ETIMEDOUT, EINVAL or EOVERFLOW holding nothing (case (a)).  The
   core's EOWNERDEAD cannot happen: nothing sets FUTEX_OWNER_DIED in
   WROLE.  */
static int
pf_role_lock (pthread_rwlock_t *rwlock, pid_t tid, clockid_t clockid,
	      const struct __timespec64 *abstime, int private)
{
  unsigned int expected = 0;
  /* T0, unless HOME names another processor (P2: the core decides
     then).  Acquire MO: M3; relaxed for HOME: M7.  */
  if (!tp_home_elsewhere (PF_HOME (rwlock))
      && atomic_compare_exchange_weak_acquire (PF_WROLE (rwlock), &expected,
					       tid))
    return 0;
  struct tp_lock_ref l;
  pf_role_ref (&l, rwlock, private);
  return tp_core_lock (&l, tid, clockid, abstime);
}

/* Take the role only if it is free (trywrlock).  */
static bool
pf_role_trylock (pthread_rwlock_t *rwlock, pid_t tid)
{
  unsigned int expected = 0;
  /* Acquire MO: M3.  */
  while (!atomic_compare_exchange_weak_acquire (PF_WROLE (rwlock), &expected,
						tid))
    if (expected != 0)
      return false;
  return true;
}

/* The role's word has FUTEX_WAITERS, or U0's weak CAS failed: the
   core's U1 or U2.  Out of line, so that the callers' fast paths need
   no frame for its struct tp_lock_ref (nor a stack-protector check).  */
static void __attribute__ ((noinline))
pf_role_release_slow (pthread_rwlock_t *rwlock, int private)
{
  struct tp_lock_ref l;
  pf_role_ref (&l, rwlock, private);
  tp_core_release (&l);
}

/* Release the role, held by TID: U0, else the core's U1 or U2.  */
static __always_inline void
pf_role_unlock (pthread_rwlock_t *rwlock, pid_t tid, int private)
{
  unsigned int expected = tid;
  /* U0.  Release MO: M3.  */
  if (!atomic_compare_exchange_weak_release (PF_WROLE (rwlock), &expected, 0))
    pf_role_release_slow (rwlock, private);
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

/* Our drain is complete (ROUT was O, with a count of 0): clear our
   futex flag (I3).  */
static inline void
pf_drain_end (unsigned int *rout, unsigned int o)
{
  if ((o & PF_WDRAIN) != 0)
    atomic_fetch_and_relaxed (rout, ~PF_WDRAIN);
}

/* Give up our drain (case (c), or trywrlock) with ERR: return 0 if it
   completed meanwhile (we own the lock), else leave the end of the phase
   to the last reader (I3, I4) and return ERR; the caller then releases
   the role.  */
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
      /* Relaxed MO: M6.  */
      if (atomic_compare_exchange_weak_relaxed
	  (rout, &o, (o & ~PF_WDRAIN) | PF_DRAIN_ABANDONED))
	return err;
    }
}

/* Wait until the readers handed over at the start of our phase have
   left (ROUT's count is 0, I2).  */
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

/* Hand RIN's count R, taken over by the CAS that started our phase,
   over to ROUT (I2).  Release MO: M5.  */
static inline void
pf_hand_over (pthread_rwlock_t *rwlock, unsigned int r)
{
  if (pf_count (r) != 0)
    atomic_fetch_add_release (PF_ROUT (rwlock),
			      0u - (pf_count (r) << PF_COUNT_SHIFT));
}

/* The CAS on RIN, whose value is *R with PRES clear, that starts our
   phase: set PRES, flip PHID, zero the count (I1, I2).  Acquire MO:
   M6.  */
static inline bool
pf_phase_cas (pthread_rwlock_t *rwlock, unsigned int *r)
{
  unsigned int n = ((*r & PF_PHID) ^ PF_PHID) | PF_PRES;
  return atomic_compare_exchange_weak_acquire (PF_RIN (rwlock), r, n);
}

/* Holding the role, start our phase once PRES is clear.  Returns 0, or
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
	  /* RWAIT is clear too (I1).  */
	  if (pf_phase_cas (rwlock, &r))
	    {
	      tp_spin_done ();
	      break;
	    }
	  continue;
	}
      /* The previous holder of the role has released it but not yet
	 ended its phase, or the last reader of an abandoned drain has
	 not left yet.  */
      int err = pf_spin_or_sleep (rin, r, PF_RWAIT, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return err;
      r = atomic_load_relaxed (rin);
    }
  pf_hand_over (rwlock, r);
  return 0;
}

/* Retract a reader whose arrival found RIN's phase bits at W, and which
   gives up with ERR.  While the bits are still W nobody has counted the
   reader (a writer phase that starts after its arrival waits for it and
   cannot end), so it subtracts itself again.  Returns ERR then, or 0 if
   the bits changed: the phase the reader waited for ended, or a writer
   started a phase that counts it; either way it holds a read lock.  */
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

/* The readers present (I2) as seen from RIN at R and ROUT at O.  */
static inline unsigned int
pf_readers_present (unsigned int r, unsigned int o)
{
  return (pf_count (r) - pf_count (o)) & PF_COUNT_MASK;
}

/* pf_readers_full's estimate found too many readers at R, a RIN value
   with PRES clear: count them again, consistently (M5), from ROUT and
   then RIN.  If RIN's phase bits are still those of R, no writer has
   handed RIN's count over to ROUT since R, and every exit in ROUT is of
   a reader counted in the later RIN, so the two give the readers
   present, the caller one of them; otherwise a writer phase started
   (and counts the caller): no reader limit is judged then.  */
static bool __attribute__ ((noinline))
pf_readers_full_recheck (pthread_rwlock_t *rwlock, unsigned int r)
{
  /* Acquire MO: M5, pairs with the release of pf_hand_over.  */
  unsigned int o = atomic_load_acquire (PF_ROUT (rwlock));
  unsigned int r2 = atomic_load_relaxed (PF_RIN (rwlock));
  if (((r2 ^ r) & PF_WBITS) != 0)
    return false;
  return pf_readers_present (r2, o) - 1 >= PF_MAX_READERS;
}

/* True if the reader whose arrival RMW (in rdlock or tryrdlock) found
   RIN at R is one too many (G6).  */
static inline bool
pf_readers_full (pthread_rwlock_t *rwlock, unsigned int r)
{
  /* During a writer phase, RIN counts the readers that wait for it; the
     readers still inside are limited by the check they passed before
     the phase, and ROUT may not have the phase's hand-over yet.  */
  if ((r & PF_PRES) != 0)
    return pf_count (r) >= PF_MAX_READERS;
  /* Relaxed MO: an estimate, confirmed before it fails anyone (M5).  */
  unsigned int o = atomic_load_relaxed (PF_ROUT (rwlock));
  if (__glibc_likely (pf_readers_present (r, o) < PF_MAX_READERS))
    return false;
  return pf_readers_full_recheck (rwlock, r);
}

/* Our reader exit made ROUT N, with a count of 0: wake the writer that
   drains, or end the phase whose writer abandoned its drain (I4).  */
static void
pf_drain_complete (pthread_rwlock_t *rwlock, unsigned int n, int private)
{
  if ((n & PF_WDRAIN) != 0)
    futex_wake (PF_ROUT (rwlock), 1, private);
  else
    {
      /* Relaxed MO: M6.  */
      atomic_fetch_and_relaxed (PF_ROUT (rwlock), ~PF_DRAIN_ABANDONED);
      pf_phase_end (rwlock, private);
    }
}

/* A reader leaves.  Inlined, so that the unlock entry point itself
   holds the release RMW (tests/test-ppc-barriers.sh checks it).  */
static __always_inline void
pf_reader_unlock (pthread_rwlock_t *rwlock, int private)
{
  /* Release MO: M2.  */
  unsigned int n = atomic_fetch_add_release (PF_ROUT (rwlock), PF_RINC)
		   + PF_RINC;
  if (__glibc_unlikely ((n & (PF_WDRAIN | PF_DRAIN_ABANDONED)) != 0)
      && pf_count (n) == 0)
    pf_drain_complete (rwlock, n, private);
}

/* The reader whose arrival found RIN at R is one too many (G6): undo
   its arrival and fail with EAGAIN.  */
static int __attribute__ ((noinline))
pf_rd_overflow (pthread_rwlock_t *rwlock, unsigned int r)
{
  if (pf_rd_retract (rwlock, r & PF_WBITS, EAGAIN) == 0)
    pf_reader_unlock (rwlock, pf_private (rwlock));
  return EAGAIN;
}

/* The calling thread's learnt spin budget for writer phases (P6), as
   the TP core's per-thread budget (tp_spin_budget_learn) but of its
   own: a phase ends when its writer leaves, a different event from the
   writer role coming free.  0 until the thread first waits.  */
static __thread int pf_rd_spin_budget attribute_tls_model_ie;

/* pf_rd_wait_phase's result when the reader retracted its arrival to
   back off (P6).  */
#define PF_RD_BACK_OFF	(-1)

/* A reader that arrived during the writer phase W waits for its end:
   spins for its learnt budget (P6), then, if MAY_BACK_OFF, retracts its
   arrival and returns PF_RD_BACK_OFF, else sleeps on RIN.  Returns 0
   holding a read lock, or an error holding nothing.  */
static inline int
pf_rd_wait_phase (pthread_rwlock_t *rwlock, unsigned int w,
		  bool may_back_off, clockid_t clockid,
		  const struct __timespec64 *abstime)
{
  /* W is the phase of a writer; if that is us, waiting would deadlock.  */
  if (pf_self_is_writer (rwlock))
    return pf_rd_retract (rwlock, w, EDEADLK);
  unsigned int *rin = PF_RIN (rwlock);
  int private = pf_private (rwlock);
  int budget = tp_spin_budget_of (pf_rd_spin_budget);
  int spins = budget;
  bool learnt = false;
  for (;;)
    {
      /* Acquire MO: M1.  */
      unsigned int r = atomic_load_acquire (rin);
      if ((r & PF_WBITS) != w)
	{
	  tp_spin_done ();
	  if (!learnt)
	    pf_rd_spin_budget = tp_spin_budget_learn (budget, budget - spins,
						      true);
	  return 0;
	}
      if (spins == 0 && !learnt)
	{
	  tp_spin_done ();
	  pf_rd_spin_budget = tp_spin_budget_learn (budget, budget, false);
	  learnt = true;
	  if (may_back_off)
	    return pf_rd_retract (rwlock, w, PF_RD_BACK_OFF);
	}
      int err = pf_spin_or_sleep (rin, r, PF_RWAIT, &spins, clockid,
				  abstime, private);
      if (err != 0)
	return pf_rd_retract (rwlock, w, err);
    }
}

/* P5: the calling thread's deferral back-off.  */
#define PF_DEFER_BACKOFF_MAX	6

struct pf_defer_backoff
{
  /* No P2 deferral before this time (CLOCK_MONOTONIC, ns); 0 if none.  */
  int64_t resume_at;
  /* P2 sleeps in a row during which nobody claimed HOME, at most
     PF_DEFER_BACKOFF_MAX.  */
  unsigned int unclaimed;
};

static __thread struct pf_defer_backoff pf_defer_backoff
  attribute_tls_model_ie;

/* A P2 sleep that began when HOME was H, with a window of WINDOW ns,
   ended at NOW.  Relaxed MO: M7.  */
static void
pf_defer_backoff_note (pthread_rwlock_t *rwlock, unsigned int h,
		       int64_t now, int64_t window)
{
  struct pf_defer_backoff *b = &pf_defer_backoff;
  unsigned int h_now = atomic_load_relaxed (PF_HOME (rwlock));
  if (h_now != h && h_now != 0)
    {
      b->unclaimed = 0;
      return;
    }
  if (b->unclaimed < PF_DEFER_BACKOFF_MAX)
    b->unclaimed++;
  b->resume_at = now + (window << b->unclaimed);
}

/* The hand-off threshold, ns: the bound of a reader's waits before it
   arrives for good (P2, P6).  */
static inline int64_t
pf_threshold_ns (void)
{
  return (int64_t) __pthread_mutex_tp_config.handoff_us * 1000;
}

/* P2: whether the lock looks idle to a reader that has not arrived: no
   writer phase on, the writer role free and no reader inside.  Relaxed
   loads (M7): they decide nothing but whether the reader sleeps, and a
   count from two unordered loads may be off (even wrap), which costs at
   most one deferral or one cache-line transfer.  */
static inline bool
pf_looks_idle (pthread_rwlock_t *rwlock)
{
  unsigned int r = atomic_load_relaxed (PF_RIN (rwlock));
  return ((r & PF_PRES) == 0
	  && atomic_load_relaxed (PF_WROLE (rwlock)) == 0
	  && pf_readers_present (r, atomic_load_relaxed (PF_ROUT (rwlock)))
	     == 0);
}

/* P2: a reader that has not arrived yet, on another processor than the
   lock's home: while the home's window lasts and the lock does not look
   idle, sleep, but not past START (the start of its lock call) plus the
   hand-off threshold.  Returns 0 (and whether it slept in *SLEPT) or
   the timeout's error.  */
static int __attribute__ ((noinline))
pf_rd_defer (pthread_rwlock_t *rwlock, int64_t start, clockid_t clockid,
	     const struct __timespec64 *abstime, bool *slept)
{
  *slept = false;
  /* A writer that read-locks its own lock gets EDEADLK at once.  */
  if (pf_self_is_writer (rwlock))
    return 0;
  int64_t threshold = pf_threshold_ns ();
  int64_t window = tp_core_home_window ();
  int64_t now = start;
  /* P5.  */
  if (now < pf_defer_backoff.resume_at)
    return 0;
  for (;;)
    {
      unsigned int h = atomic_load_relaxed (PF_HOME (rwlock));
      int64_t until = tp_home_deferred_until (PF_HOME (rwlock), window, now);
      if (until == 0 || now >= start + threshold || pf_looks_idle (rwlock))
	return 0;
      if (until > start + threshold)
	until = start + threshold;
      TP_STAT_INC (TP_STAT_HOME_DEFERRALS);
      int err = tp_kernel_pause (until - now, clockid, abstime);
      if (err != 0)
	return err;
      *slept = true;
      now = tp_now_ns (CLOCK_MONOTONIC);
      pf_defer_backoff_note (rwlock, h, now, window);
    }
}

/* A reader that arrived during the writer phase W: wait for its end,
   backing off (P6) while its lock call, which began at START (0: now),
   is within the hand-off threshold; then claim HOME (P1).  */
static int __attribute__ ((noinline))
pf_rdlock_slow (pthread_rwlock_t *rwlock, unsigned int w, int64_t start,
		clockid_t clockid, const struct __timespec64 *abstime)
{
  int64_t threshold = pf_threshold_ns ();
  int64_t now = tp_now_ns (CLOCK_MONOTONIC);
  if (start == 0)
    start = now;
  /* The TP core's back-off schedule (tp-wait.h).  */
  int64_t delay = threshold >> TP_BACKOFF_FIRST_SHIFT;
  int64_t delay_max = threshold >> TP_BACKOFF_MAX_SHIFT;
  int err;
  for (;;)
    {
      err = pf_rd_wait_phase (rwlock, w, now + delay < start + threshold,
			      clockid, abstime);
      if (err != PF_RD_BACK_OFF)
	break;
      /* Not counted now: a timeout leaves the lock as it was (G4).  */
      err = tp_kernel_pause (delay, clockid, abstime);
      if (err != 0)
	return err;
      delay = tp_backoff_next (delay, delay_max);
      /* Arrive again, as in pf_rd_arrive.  Acquire MO: M1.  */
      unsigned int r = atomic_fetch_add_acquire (PF_RIN (rwlock), PF_RINC);
      if (__glibc_unlikely (pf_readers_full (rwlock, r)))
	return pf_rd_overflow (rwlock, r);
      if ((r & PF_PRES) == 0)
	break;
      w = r & PF_WBITS;
      now = tp_now_ns (CLOCK_MONOTONIC);
    }
  if (err == 0)
    tp_home_claim (PF_HOME (rwlock), tp_now_ns (CLOCK_MONOTONIC));
  return err;
}

/* A reader arrives and takes the lock.  ELSEWHERE: HOME named another
   processor when it came, at START; DEFERRED: it then slept (P2).
   Inlined with both false and START 0 into the fast path, where the
   HOME cases fold away.  */
static __always_inline int
pf_rd_arrive (pthread_rwlock_t *rwlock, clockid_t clockid,
	      const struct __timespec64 *abstime, bool elsewhere,
	      int64_t start, bool deferred)
{
  /* Acquire MO: M1.  */
  unsigned int r = atomic_fetch_add_acquire (PF_RIN (rwlock), PF_RINC);
  if (__glibc_unlikely (pf_readers_full (rwlock, r)))
    return pf_rd_overflow (rwlock, r);
  if (__glibc_unlikely ((r & PF_PRES) != 0))
    return pf_rdlock_slow (rwlock, r & PF_WBITS, start, clockid, abstime);
  /* P1 after a deferral into a lock that other readers hold, else P4
     (looking at HOME again: a deferral leaves time for a claim by our
     own processor).  Relaxed MO: M7.  */
  if (deferred
      && pf_readers_present (r, atomic_load_relaxed (PF_ROUT (rwlock))))
    tp_home_claim (PF_HOME (rwlock), tp_now_ns (CLOCK_MONOTONIC));
  else if (elsewhere && tp_home_elsewhere (PF_HOME (rwlock)))
    tp_home_drop (PF_HOME (rwlock));
  return 0;
}

/* A reader that found HOME naming another processor: P2, then arrive.
   Out of line, so that the fast path has no frame for SLEPT.  */
static int __attribute__ ((noinline))
pf_rdlock_elsewhere (pthread_rwlock_t *rwlock, clockid_t clockid,
		     const struct __timespec64 *abstime)
{
  bool slept;
  int64_t start = tp_now_ns (CLOCK_MONOTONIC);
  int err = pf_rd_defer (rwlock, start, clockid, abstime, &slept);
  if (err != 0)
    return err;
  return pf_rd_arrive (rwlock, clockid, abstime, true, start, slept);
}

/* The read lock's and the unlock's entry points, which hold the
   uncontended paths, start a cache line (PF_FAST_PATH_ALIGN), so that
   a change elsewhere in libc does not move them across line
   boundaries: with the same instructions at other offsets (a build of
   aa04c5b), 1 and 3 threads at 100 % reads, medium sections, no gap,
   ran 0.78 and 0.87 times the default rwlock on the AMD host, against
   1.03 and 1.04 for an earlier build whose entry points happened to
   start lines, and 1.00 and 1.02 aligned (4 alternated processes of 3
   rounds of bench-lock-contention --no-wait-timing --kinds
   rwlock-default,rwlock-prefer-writer,rwlock-phase-fair,rwlock-tp
   --threads 1,3 --cs medium --lock-latency 0 --read-pct 100).  */
#define PF_FAST_PATH_ALIGN	__attribute__ ((aligned (64)))

int PF_FAST_PATH_ALIGN
__pthread_rwlock_pf_rdlock (pthread_rwlock_t *rwlock, clockid_t clockid,
			    const struct __timespec64 *abstime)
{
  if (__glibc_unlikely (!tp_valid_rwlock_timeout (clockid, abstime)))
    return EINVAL;
  /* P2.  Relaxed MO: M7.  */
  if (__glibc_unlikely (tp_home_elsewhere (PF_HOME (rwlock))))
    return pf_rdlock_elsewhere (rwlock, clockid, abstime);
  return pf_rd_arrive (rwlock, clockid, abstime, false, 0, false);
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
  /* The reader limit is judged after the arrival, as in rdlock (M5).  */
  if (__glibc_unlikely (pf_readers_full (rwlock, r)))
    return pf_rd_overflow (rwlock, r);
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
  pid_t tid = pf_self ();
  int err = pf_role_lock (rwlock, tid, clockid, abstime, private);
  if (err != 0)
    return err;					/* Case (a).  */
  err = pf_start_phase (rwlock, clockid, abstime, private);
  if (err == 0)
    err = pf_drain (rwlock, clockid, abstime, private);
  if (err != 0)
    {
      pf_role_unlock (rwlock, tid, private);	/* Cases (b), (c).  */
      return err;
    }
  atomic_store_relaxed (&rwlock->__data.__cur_writer, tid);
  return 0;
}

int
__pthread_rwlock_pf_trywrlock (pthread_rwlock_t *rwlock)
{
  /* A failing trylock need not synchronize memory: relaxed MO except
     where we acquire (M3, M2, M6).  Check first that the lock looks idle
     so that we rarely take the role, or start a phase, only to give it
     up.  */
  unsigned int *rin = PF_RIN (rwlock);
  unsigned int r = atomic_load_relaxed (rin);
  unsigned int ro = atomic_load_relaxed (PF_ROUT (rwlock));
  if ((r & PF_PRES) != 0 || pf_count (r) != pf_count (ro))
    return EBUSY;
  pid_t tid = pf_self ();
  if (!pf_role_trylock (rwlock, tid))
    return EBUSY;
  int private = pf_private (rwlock);
  r = atomic_load_relaxed (rin);
  do
    if ((r & PF_PRES) != 0)
      {
	pf_role_unlock (rwlock, tid, private);
	return EBUSY;
      }
  while (!pf_phase_cas (rwlock, &r));
  pf_hand_over (rwlock, r);
  /* A reader may have slipped in after our check: then give the phase
     up as in case (c).  */
  if (pf_drain_abandon (rwlock, EBUSY) != 0)
    {
      pf_role_unlock (rwlock, tid, private);
      return EBUSY;
    }
  atomic_store_relaxed (&rwlock->__data.__cur_writer, tid);
  return 0;
}

int PF_FAST_PATH_ALIGN
__pthread_rwlock_pf_unlock (pthread_rwlock_t *rwlock)
{
  int private = pf_private (rwlock);
  /* As in pthread_rwlock_unlock.c: only we can have stored our TID.  */
  if (pf_self_is_writer (rwlock))
    {
      atomic_store_relaxed (&rwlock->__data.__cur_writer, 0);
      pf_role_unlock (rwlock, pf_self (), private);
      pf_phase_end (rwlock, private);
    }
  else
    pf_reader_unlock (rwlock, private);
  return 0;
}
