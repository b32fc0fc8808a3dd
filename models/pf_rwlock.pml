/* Promela model of the phase-fair rwlock, nptl/pthread_rwlock_pf.c.

   Words as in the C design comment: RIN (PRES bit 0, PHID bit 1, RWAIT
   bit 2, reader count above), ROUT (WDRAIN bit 0, DRAIN_ABANDONED bit
   1, exit count above) and the writer role WROLE.  The counts are
   scaled down (RIN count in bits 3-7, ROUT count in bits 2-7) and wrap
   like the C counts do (modulo 2^5 and 2^6 here, 2^24 in C).  Step
   names refer to the C functions (pf_role_lock, pf_role_unlock,
   pf_start_phase, pf_drain, pf_phase_end, pf_rdlock_slow,
   pf_rd_retract, pf_drain_abandon, pf_drain_complete,
   pf_reader_unlock), invariants to I1..I4 and M1..M6 of the C comment.

   Abstractions (see models/README):
   - Sequential consistency; each C atomic is one Promela step.
   - FUTEX_WAIT is an atomic compare-and-block on the whole word;
     FUTEX_WAKE 1 wakes one queued thread chosen nondeterministically,
     FUTEX_WAKE INT_MAX all of them.  Spinning is not modelled (a spin
     is a re-load, which the sleep loop already does).
   - The writer role is an abstract lock: taken atomically when free,
     a blocking wait otherwise, and a timed writer may give up waiting
     at any moment (case (a)).  Its protocol (spin, sleep, hand-off,
     withdrawal, the deferral to the home processor) is the TP core's,
     checked by tp_mutex.pml and tp_rwlock.pml.
   - Concurrency restriction (P1..P5): the home word is a hint that
     only delays attempts, so it is not modelled as a variable.  A
     reader's deferral (P2) comes before its arrival, while it is in no
     count: a delay, which the interleavings already contain, except
     that a timed reader may time out in it (modelled: it returns having
     changed nothing).
   - A reader's back-off from a writer phase (P6) is modelled: a
     reader that waits for a writer phase may retract its arrival (the
     CAS of pf_rd_retract, only while RIN's phase bits are still those
     it saw, else it holds the lock), sleep on no lock word (a delay; a
     timed reader may time out in it, having changed nothing) and arrive
     again; at most NBACKOFF times per lock call, the bound that the
     hand-off threshold puts on it in C.  A backed-off reader is in no
     count, so G2 is checked for its last arrival.
   - Writer timeouts: cases (a), (b) and (c) fully (case (c): the drain
     is abandoned, PF_DRAIN_ABANDONED replaces WDRAIN, the phase stays
     on and the reader that completes the drain ends it).
   - trywrlock, tryrdlock, the reader limit (G6, the counts are scaled
     down) and EDEADLK detection are not modelled (trywrlock gives up a
     phase with pf_drain_abandon, as case (c)).

   Configuration: NR readers, NW writers, NITER rounds each; NBACKOFF
   back-offs (P6) per read lock call at most;
   RTIMED/WTIMED: masks, bit i set: reader i / writer i (counting the
   writers from 0) may time out (1: the first one, 3: the first two).
   Ghosts: readers_in, writers_in (mutual exclusion, G1); gphase, the
   number of the current writer phase, and waitph[r], the phase during
   which reader r arrived and still waits (phase fairness, G2).
   Mutants:
     BROKEN_PF_NODRAIN        the writer does not wait for readers
     BROKEN_PF_NOWAKE         the writer's unlock does not wake RIN
     BROKEN_PF_READER_RETRY   a reader that meets a writer phase backs
                              out and retries after it once it has no
                              back-off left (P6 without its bound: not
                              phase fair)
     BROKEN_PF_BACKOFF_BLIND  the back-off (P6) retracts the arrival
                              without checking that the phase bits are
                              still those the reader saw
     BROKEN_PF_ABANDON_ENDS_PHASE  case (c) as before the fix: the
                              writer clears WDRAIN, releases the role and
                              ends its phase itself (PHID ABA, deadlock)
     BROKEN_PF_IGNORE_PRES    the holder of the role starts its phase
                              without waiting for the previous one to end
*/

#ifndef NR
#define NR 2
#endif
#ifndef NW
#define NW 2
#endif
#ifndef NITER
#define NITER 1
#endif
#ifndef RTIMED
#define RTIMED 0
#endif
#ifndef WTIMED
#define WTIMED 0
#endif
#ifndef NBACKOFF
#define NBACKOFF 1
#endif

#define NP (NR + NW)

/* RIN */
#define PRES 1
#define PHID 2
#define RWAIT 4
#define WBITS 3
#define RINC 8
/* ROUT */
#define WDRAIN 1
#define ABANDONED 2     /* PF_DRAIN_ABANDONED */
#define ROINC 4
byte rin = 0, rout = 0;
byte wrole = 0;                        /* 0 free, else the holder + 1 */

bool qrin[NP], qrout[NP];              /* FUTEX_WAIT queues */

byte readers_in = 0, writers_in = 0;
byte gphase = 0;
byte waitph[NR];

#define WAIT_ON(w, q, val, AGAIN) \
  atomic { if :: (w) == (val) -> q[me] = 1 :: else -> goto AGAIN fi }

#define WAKE_ALL(q) \
  atomic { k_ = 0; do :: k_ < NP -> q[k_] = 0; k_++ :: else -> break od; k_ = 0 }

#define WAKE_ONE(q) \
  atomic { \
    if \
    :: q[0] -> q[0] = 0 \
    :: q[1] -> q[1] = 0 \
    :: NP > 2 && q[(NP > 2 -> 2 : 0)] -> q[(NP > 2 -> 2 : 0)] = 0 \
    :: NP > 3 && q[(NP > 3 -> 3 : 0)] -> q[(NP > 3 -> 3 : 0)] = 0 \
    :: NP > 4 && q[(NP > 4 -> 4 : 0)] -> q[(NP > 4 -> 4 : 0)] = 0 \
    :: else -> skip \
    fi }

proctype reader (byte me)
{
  byte r, w, n, k_, round = 0, backoffs;
  bool timed = ((RTIMED >> me) & 1);

next:
  if :: round >= NITER -> goto done :: else -> round++ fi;
  backoffs = 0;
  /* P2, pf_rd_defer: before it arrives, a reader on another processor
     than the lock's home may sleep, on no lock word, for a bounded
     time.  Only its timeout changes the course of events: a timed
     reader may give up there, having changed nothing.  */
  if
  :: timed -> goto next                             /* ETIMEDOUT */
  :: true -> skip
  fi;
again:
  /* __pthread_rwlock_pf_rdlock: RIN += RINC (acquire, M1).  */
  atomic {
    r = rin; rin = rin + RINC;
    if
    :: (r & PRES) != 0 && waitph[me] == 0 -> waitph[me] = gphase
    :: else -> skip
    fi
  };
  if :: (r & PRES) == 0 -> goto cs :: else -> skip fi;
  w = r & WBITS;
#ifdef BROKEN_PF_READER_RETRY
  /* Back out (as pf_rd_retract: only while the bits are still W) with
     no back-off left, wait for the writer phase to end, arrive again.  */
  if
  :: backoffs >= NBACKOFF ->
       atomic {
         if
         :: (rin & WBITS) == w -> rin = rin - RINC
         :: else -> goto cs
         fi
       };
       (rin & PRES) == 0;
       goto again
  :: else -> skip
  fi;
#endif
  /* pf_rdlock_slow: wait until RIN's PRES/PHID differ from W.  */
rwait_loop:
  r = rin;                                          /* acquire load */
  if :: (r & WBITS) != w -> goto cs :: else -> skip fi;
  /* P6, pf_rd_wait_phase and pf_rdlock_slow: the spin ended with the
     phase still on; while back-offs are left, retract the arrival
     (pf_rd_retract: only while the bits are still W; otherwise the
     phase has ended and we hold the lock), sleep on no lock word, and
     arrive again.  */
  if
  :: backoffs < NBACKOFF ->
       atomic {
         if
#ifndef BROKEN_PF_BACKOFF_BLIND
         :: (rin & WBITS) == w ->
#else
         :: true ->
#endif
              rin = rin - RINC; waitph[me] = 0; backoffs++
         :: else -> goto cs
         fi
       };
       if
       :: timed -> goto next                         /* ETIMEDOUT */
       :: true -> goto again
       fi
  :: true -> skip
  fi;
  if
  :: (r & RWAIT) == 0 ->                            /* pf_set_flag */
       atomic {
         if :: rin == r -> rin = r | RWAIT; r = r | RWAIT
         :: else -> goto rwait_loop
         fi
       }
  :: else -> skip
  fi;
  WAIT_ON (rin, qrin, r, rwait_loop);               /* pf_wait */
  if
  :: !qrin[me] -> goto rwait_loop
  :: atomic { timed && qrin[me] -> qrin[me] = 0 };
       /* pf_rd_retract: CAS RIN - RINC while the bits are still W.  */
       atomic {
         if
         :: (rin & WBITS) == w -> rin = rin - RINC; waitph[me] = 0;
              goto next                              /* ETIMEDOUT */
         :: else -> skip                              /* admitted: 0 */
         fi
       };
       goto cs
  fi;

cs:
  atomic {
    readers_in++;
    assert (writers_in == 0);                       /* G1 */
    waitph[me] = 0
  };
  readers_in--;
  /* pf_reader_unlock: ROUT += RINC (fetch_add, release, M2).  */
  atomic { rout = rout + ROINC; n = rout };
  assert ((n & (WDRAIN | ABANDONED)) != (WDRAIN | ABANDONED));
  if
  :: (n & WDRAIN) != 0 && (n / ROINC) == 0 ->
       /* pf_drain_complete: the last reader of the drain wakes the
          draining writer.  */
       WAKE_ONE (qrout)
  :: (n & ABANDONED) != 0 && (n / ROINC) == 0 ->
       /* pf_reader_unlock: last reader of an abandoned drain ends the
          phase (pf_drain_complete, I4).  First clear ABANDONED
          (fetch_and, M6), then pf_phase_end: clear PRES and RWAIT
          (release, M1), wake all of RIN.  */
       rout = rout & ~ABANDONED;
       atomic { r = rin; rin = rin & ~(PRES | RWAIT) };
#ifndef BROKEN_PF_NOWAKE
       if :: (r & RWAIT) != 0 -> WAKE_ALL (qrin) :: else -> skip fi
#else
       skip
#endif
  :: else -> skip
  fi;
  goto next;
done:
  skip
}

proctype writer (byte me)
{
  byte o, r, n, a, k_, myphase, round = 0;
  bool timed = ((WTIMED >> (me - NR)) & 1);

next:
  if :: round >= NITER -> goto done :: else -> round++ fi;

  /* pf_role_lock (T0, then tp_core_lock; acquire, M3).  */
  if
  :: atomic { wrole == 0 -> wrole = me + 1 }
  :: timed -> goto next                           /* case (a) */
  fi;

  /* pf_start_phase: once PRES is clear, set it, flip PHID, zero the
     count (I1); then ROUT -= A (pf_hand_over, I2).  */
start:
  r = rin;                                          /* relaxed load */
phase_loop:
  if
  :: (r & PRES) == 0 ->
       atomic {
         if
         :: rin == r ->
              rin = ((r & PHID) ^ PHID) | PRES;
              /* An abandoned drain ends its phase (clears PRES) only
                 after clearing DRAIN_ABANDONED.  */
              assert ((rout & (WDRAIN | ABANDONED)) == 0);
              assert (wrole == me + 1);             /* I1 */
              gphase++; myphase = gphase
         :: else -> r = rin; goto phase_loop
         fi
       }
  :: else ->
#ifdef BROKEN_PF_IGNORE_PRES
       atomic { rin = ((rin & PHID) ^ PHID) | PRES; r = 0;
                gphase++; myphase = gphase };
       goto handed
#endif
       if
       :: (r & RWAIT) == 0 ->
            atomic {
              if :: rin == r -> rin = r | RWAIT; r = r | RWAIT
              :: else -> r = rin; goto phase_loop
              fi
            }
       :: else -> skip
       fi;
       WAIT_ON (rin, qrin, r, start);
       if
       :: !qrin[me] -> goto start
       :: atomic { timed && qrin[me] -> qrin[me] = 0 };
            goto give_up                            /* case (b) */
       fi
  fi;
#ifdef BROKEN_PF_IGNORE_PRES
handed:
#endif
  a = r / RINC;
  if
  :: a != 0 -> rout = rout - a * ROINC               /* relaxed RMW, M5 */
  :: else -> skip
  fi;

  /* pf_drain: until ROUT's count is 0 (acquire, M2).  */
drain_loop:
#ifndef BROKEN_PF_NODRAIN
  o = rout;
  if
  :: (o / ROINC) == 0 ->
       if
       :: (o & WDRAIN) != 0 -> rout = rout & ~WDRAIN
       :: else -> skip
       fi;
       goto wcs
  :: else -> skip
  fi;
  if
  :: (o & WDRAIN) == 0 ->
       atomic {
         if :: rout == o -> rout = o | WDRAIN; o = o | WDRAIN
         :: else -> goto drain_loop
         fi
       }
  :: else -> skip
  fi;
  WAIT_ON (rout, qrout, o, drain_loop);
  if
  :: !qrout[me] -> goto drain_loop
  :: atomic { timed && qrout[me] -> qrout[me] = 0 };
#ifndef BROKEN_PF_ABANDON_ENDS_PHASE
       /* pf_drain timeout: CAS WDRAIN->ABANDONED (pf_drain_abandon, a
          CAS loop in C, one RMW here; I3, I4).  If the count is already
          0 the drain completed: clear WDRAIN and own the lock (in C a
          load and a fetch_and; nobody else writes ROUT then).
          Otherwise replace WDRAIN by DRAIN_ABANDONED and give up (case
          (c)): release the role only; the phase stays on (PRES, PHID
          unchanged) until the last reader ends it.  */
       atomic {
         if
         :: (rout / ROINC) == 0 -> rout = rout & ~WDRAIN; goto wcs
         :: else -> rout = (rout & ~WDRAIN) | ABANDONED
         fi
       };
       goto give_up                                 /* ETIMEDOUT */
#else
       rout = rout & ~WDRAIN;                       /* old case (c): I3 */
       goto unlock                                  /* role, phase end */
#endif
  fi;
#endif

wcs:
  atomic {
    writers_in++;
    assert (writers_in == 1 && readers_in == 0);    /* G1 */
    /* G2: no reader that arrived during an earlier writer phase is
       still waiting when this phase's critical section begins.  */
    n = 0;
    do
    :: n < NR ->
         assert (waitph[n] == 0 || waitph[n] == myphase); n++
    :: else -> break
    od
  };
  writers_in--;

unlock:
  /* __pthread_rwlock_pf_unlock, writer: pf_role_unlock (release, M3),
     then pf_phase_end.  */
  wrole = 0;
  atomic { o = rin; rin = rin & ~(PRES | RWAIT) };  /* release, M1 */
#ifndef BROKEN_PF_NOWAKE
  if :: (o & RWAIT) != 0 -> WAKE_ALL (qrin) :: else -> skip fi;
#endif
  goto next;

give_up:
  /* Cases (b) and (c): pf_role_unlock only.  */
  wrole = 0;
  goto next;

done:
  skip
}

init {
  byte i;
  atomic {
    i = 0;
    do :: i < NR -> run reader (i); i++ :: else -> break od;
    do :: i < NP -> run writer (i); i++ :: else -> break od
  }
}
