/* Promela model of the phase-fair rwlock, nptl/pthread_rwlock_pf.c.

   Words as in the C design comment: RIN (PRES bit 0, PHID bit 1, RWAIT
   bit 2, reader count above), ROUT (WDRAIN bit 0, DRAIN_ABANDONED bit
   1, exit count above), WIN (next ticket, step 2) and WOUT (turn, WWAIT
   bit 0).  The counts are scaled down (RIN count in bits 3-7, ROUT
   count in bits 2-7) and wrap like the C counts do (modulo 2^5 and 2^6
   here, 2^24 in C).  Step names refer to the C functions
   (pf_take_ticket, pf_wait_turn, pf_start_phase, pf_drain,
   pf_pass_turn, pf_phase_end, pf_rdlock_slow, pf_rd_retract,
   pf_drain_abandon, pf_drain_complete; "pf_reader_unlock" is the reader
   branch of __pthread_rwlock_pf_unlock), invariants to I1..I6 and
   M1..M8 of the C comment.

   Abstractions (see models/README):
   - Sequential consistency; each C atomic is one Promela step.
   - FUTEX_WAIT is an atomic compare-and-block on the whole word;
     FUTEX_WAKE 1 wakes one queued thread chosen nondeterministically,
     FUTEX_WAKE INT_MAX all of them.  Spinning is not modelled (a spin
     is a re-load, which the sleep loop already does).
   - pf_take_ticket is an atomic fetch-add: with NW <= 32 writers the
     queue bound of I3 never blocks.
   - Writer timeouts: cases (c) and (d) fully (case (d): the drain is
     abandoned, PF_DRAIN_ABANDONED replaces WDRAIN, the phase stays on
     and the reader that completes the drain ends it); case (b) only by
     retracting the last ticket (WIN == T + 2).  The abandonment bitmap
     WAB (I4, M4) is not modelled: its store-buffering argument needs
     the seq_cst fences of a weak memory model to mean anything, and
     with SC it is a plain RMW race.  Case (a) cannot happen.
   - trywrlock, tryrdlock and EDEADLK detection are not modelled
     (trywrlock gives up a phase with pf_drain_abandon, as case (d)).

   Configuration: NR readers, NW writers, NITER rounds each;
   RTIMED/WTIMED: masks, bit i set: reader i / writer i (counting the
   writers from 0) may time out (1: the first one, 3: the first two).
   Ghosts: readers_in, writers_in (mutual exclusion, G1); gphase, the
   number of the current writer phase, and waitph[r], the phase during
   which reader r arrived and still waits (phase fairness, G2).
   Mutants:
     BROKEN_PF_NODRAIN        the writer does not wait for readers
     BROKEN_PF_NOWAKE         the writer's unlock does not wake RIN
     BROKEN_PF_READER_RETRY   a reader that meets a writer phase backs
                              out and retries after it (not phase fair)
     BROKEN_PF_ABANDON_ENDS_PHASE  case (d) as before the fix: the
                              writer clears WDRAIN, passes the turn and
                              ends its phase itself (PHID ABA, deadlock)
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
/* WOUT */
#define WWAIT 1
#define TICKET 2

byte rin = 0, rout = 0, win = 0, wout = 0;

bool qrin[NP], qrout[NP], qwout[NP];   /* FUTEX_WAIT queues */

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
  byte r, w, n, k_, round = 0;
  bool timed = ((RTIMED >> me) & 1);

next:
  if :: round >= NITER -> goto done :: else -> round++ fi;
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
  /* Back out (as pf_rd_retract: only while the bits are still W), wait
     for the writer phase to end, arrive again.  */
  atomic {
    if
    :: (rin & WBITS) == w -> rin = rin - RINC
    :: else -> goto cs
    fi
  };
  (rin & PRES) == 0;
  goto again;
#endif
  /* pf_rdlock_slow: wait until RIN's PRES/PHID differ from W.  */
rwait_loop:
  r = rin;                                          /* acquire load */
  if :: (r & WBITS) != w -> goto cs :: else -> skip fi;
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
          phase (pf_drain_complete, I6).  First clear ABANDONED
          (fetch_and, M8), then pf_phase_end: clear PRES and RWAIT
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
  byte t, o, r, n, a, k_, myphase, round = 0;
  bool timed = ((WTIMED >> (me - NR)) & 1);

next:
  if :: round >= NITER -> goto done :: else -> round++ fi;

  /* pf_take_ticket (the queue is never full, see above).  */
  atomic { t = win; win = win + TICKET };

  /* pf_wait_turn: until WOUT == T (acquire, M3).  */
turn_loop:
  o = wout;
  if :: (o & ~WWAIT) == t -> goto start :: else -> skip fi;
  if
  :: (o & WWAIT) == 0 ->
       atomic {
         if :: wout == o -> wout = o | WWAIT; o = o | WWAIT
         :: else -> goto turn_loop
         fi
       }
  :: else -> skip
  fi;
  WAIT_ON (wout, qwout, o, turn_loop);
  if
  :: !qwout[me] -> goto turn_loop
  :: atomic { timed && qwout[me] && win == t + TICKET ->
              qwout[me] = 0; win = t };             /* case (b): retract */
       goto next
  fi;

  /* pf_start_phase: once PRES is clear, set it, flip PHID, zero the
     count (I1); then ROUT -= A (I2).  */
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
              gphase++; myphase = gphase
         :: else -> r = rin; goto phase_loop
         fi
       }
  :: else ->
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
            goto pass_c                             /* case (c) */
       fi
  fi;
  a = r / RINC;
  if
  :: a != 0 -> rout = rout - a * ROINC               /* relaxed RMW, M7 */
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
          CAS loop in C, one RMW here; I5, I6).  If the count is already
          0 the drain completed: clear WDRAIN and own the lock (in C a
          load and a fetch_and; nobody else writes ROUT then).
          Otherwise replace WDRAIN by DRAIN_ABANDONED and give up (case
          (d)): pass the turn only; the phase stays on (PRES, PHID
          unchanged) until the last reader ends it.  */
       atomic {
         if
         :: (rout / ROINC) == 0 -> rout = rout & ~WDRAIN; goto wcs
         :: else -> rout = (rout & ~WDRAIN) | ABANDONED
         fi
       };
       goto pass_c                                  /* ETIMEDOUT */
#else
       rout = rout & ~WDRAIN;                       /* old case (d): I5 */
       goto unlock                                  /* pass, phase end */
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
  /* __pthread_rwlock_pf_unlock, writer: pf_pass_turn, then
     pf_phase_end.  */
  atomic { o = wout; wout = t + TICKET };           /* release, M3 */
  if :: (o & WWAIT) != 0 -> WAKE_ALL (qwout) :: else -> skip fi;
  atomic { o = rin; rin = rin & ~(PRES | RWAIT) };  /* release, M1 */
#ifndef BROKEN_PF_NOWAKE
  if :: (o & RWAIT) != 0 -> WAKE_ALL (qrin) :: else -> skip fi;
#endif
  goto next;

pass_c:
  /* Cases (c) and (d): pf_pass_turn only.  */
  atomic { o = wout; wout = t + TICKET };
  if :: (o & WWAIT) != 0 -> WAKE_ALL (qwout) :: else -> skip fi;
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
