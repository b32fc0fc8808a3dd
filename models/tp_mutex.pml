/* Promela model of the TP mutex user-space protocol.

   Models nptl/pthread_mutex_tp_lock.c, pthread_mutex_tp_unlock.c,
   pthread_mutex_tp_trylock.c and their core, sysdeps/nptl/tp-core.h,
   as they run on a kernel without FUTEX_LOCK/FUTEX_UNLOCK (the
   user-space protocol), for a non-robust, non-recursive mutex.
   Transition names (T0..T3, U0..U2, H1..H5) and invariants (I1..I8)
   are those of the design comment at the top of
   pthread_mutex_tp_lock.c; every step below names the C function and
   transition it stands for.  Keep the two in step.

   Abstractions (see models/README):
   - Memory is sequentially consistent; every C atomic is one Promela
     step, plain loads are separate steps from the CAS that follows them.
     Weak CAS never fails spuriously (a spurious failure only retries, or
     for H3/H5 falls back to U1, which is also a modelled outcome).
   - FUTEX_WAIT(word, v) is one atomic compare-and-block: it queues the
     caller iff word == v, else returns EAGAIN.  FUTEX_WAKE 1 wakes one
     queued thread chosen nondeterministically (a superset of the
     kernel's order); FUTEX_WAKE INT_MAX wakes all.  The registered
     requester queues with its own FUTEX_WAIT_BITSET mask (blocked[]
     holds it), the other waiters with another; U2's FUTEX_WAKE_BITSET INT_MAX with
     the requester's mask wakes the threads queued with it (the
     requester; with DEATH also one whose registration H5 dropped),
     U1's FUTEX_WAKE 1 and the kernel's wake at an owner's death match
     every mask.
   - Time: "past the hand-off threshold" is a nondeterministic choice at
     each pass of the sleep loop; the hand-off deadline sleep of a
     non-requester (handoff_sleep) may end only while no requester is
     registered, i.e. when it leads to an H1 (otherwise the wake-up would
     only hide lost wake-ups, see README).  A user timeout (abstime) is a
     nondeterministic give-up of a blocked FUTEX_WAIT, for the threads
     selected by TIMED_MASK.
   - Spinning: NSPIN failed load/CAS attempts (T1), then sleep.  The
     spinner bit (S1), the grace (S3) and the budget (S4) only decide
     when a spinner tries and when it stops, which NSPIN and the
     interleavings already cover.  So does the probe of C6
     (tp_core_probe_home), which a thread makes instead of spinning
     when the home is on another processor: T1 attempts, then the sleep
     loop.
   - Back-off (B1, B2): a waiter that was woken, or whose FUTEX_WAIT
     found the word changed, and that finds the word owned by another
     thread, goes round the loop once more without announcing itself
     (tp_backoff_sleep: a timed sleep on no lock word, so a delay
     without effects), provided hand-off is on, it is not the requester
     and nobody is registered.  Modelled once per lock call: the
     further back-offs of B1 (while the word stays owned, until the
     registration time) change nothing shared and are the same step
     again.  NO_BACKOFF leaves it out: the
     3-thread liveness check needs that to stay within pan's depth bound
     (with it, 2*10^8 states at depth 4*10^6 and still going); back-off
     is in the safety, death and 2-thread liveness checks.
   - Deferral to a home on another processor (C2, tp_core_defer): a
     waiter that is not the requester finds the word owned by another
     thread with W set while nobody is registered, and sleeps on no lock
     word until the home's window ends (whether the home is elsewhere
     and its window open is a nondeterministic choice here), then looks
     again; a timed lock may time out in that sleep (ETIMEDOUT).  A
     variant of B1's step (a sleep on no lock word, then a new look), at
     most once per lock call, sharing B1's bound, as in tp_rwlock.pml.
     The home word itself is a hint that no transition reads to decide
     ownership, so it is not modelled.  NO_DEFER leaves the step out.
   - Not modelled: robust mutexes and owner death (OD bit, K, H5 for dead
     requesters), recursive/errorcheck relock, the kernel path, the
     bookkeeping fields (__owner, __count, __nusers).

   Configuration (cpp macros, spin -DNAME=value):
     NT         number of threads (2 or 3)
     NITER      lock/unlock rounds per thread; 0 = forever (liveness)
     NSPIN      spin attempts before sleeping (T1)
     HANDOFF    1: hand-off enabled (tp_handoff_enabled), 0: disabled
     TIMED_MASK bit i set: thread i uses a timed lock (abstime != NULL)
     TRY_MASK   bit i set: thread i may also use trylock
     LIVENESS   define to get the LTL property "handoff"
     NO_DEFER   leave out the deferral to a home (C2)
   Mutants (each must make a check fail):
     BROKEN_U1_NOWAKE   U1 does not FUTEX_WAKE when W was set
     BROKEN_T3_NOW      waiter sleeps without announcing W (no T3)
     BROKEN_U2_WAKE1    U2 wakes one waiter of any mask instead of the
                        requester (I5)
     BROKEN_REQ_MASK    the requester sleeps with the waiters' mask, so
                        U2's wake (I5) does not match it
     BROKEN_H2_BLIND    requester withdraws even if granted (breaks I4)
     BROKEN_NO_H3       unlocker ignores the registration (no hand-off)
     BROKEN_WITHDRAW_NO_T3  tp_core_withdraw sleeps on the word as
                        loaded, without T3 (the C code before the fix; loses a
                        wake-up with DEATH)
   Extension:
     DEATH      one granting unlocker may die between H3 and U2 (I8: a
                robust, process-shared mutex); exercises H5 and the
                dropped-grant path of tp_core_withdraw
*/

#ifndef NT
#define NT 3
#endif
#ifndef NITER
#define NITER 2
#endif
#ifndef NSPIN
#define NSPIN 1
#endif
#ifndef HANDOFF
#define HANDOFF 1
#endif
#ifndef TIMED_MASK
#define TIMED_MASK 0
#endif
#ifndef TRY_MASK
#define TRY_MASK 0
#endif

/* The futex word: TID in bits 0-1 (threads are 1..NT), FUTEX_WAITERS.  */
#define TIDM 3
#define WBIT 4
#define ODBIT 8         /* FUTEX_OWNER_DIED, only with DEATH */
#define TID(x) ((x) & TIDM)

byte word = 0;          /* __lock */
byte ho = 0;            /* hand-off word: requester TID, 0 if none ...  */
bool granted = 0;       /* ... and TP_HANDOFF_GRANTED */
byte blocked[NT + 1];   /* queued in FUTEX_WAIT on the word: 0 no, else
                           the bitset mask, WAITER or REQUESTER */

/* Ghosts.  */
byte owners = 0;        /* threads inside the critical section */
byte deciding = 0;      /* unlockers between their load of the hand-off
                           word and their U1/U2 */
bool died = 0;          /* DEATH: one granting unlocker died */

#define TIMED(t) ((TIMED_MASK >> (t)) & 1)
#define TRYER(t) ((TRY_MASK >> (t)) & 1)

/* The mask a thread queues with: the requester's, unless the mutant
   has it sleep with the waiters'.  */
#define WAITER 1
#define REQUESTER 2
#ifndef BROKEN_REQ_MASK
#define REQ_MASK(req) ((req) -> REQUESTER : WAITER)
#else
#define REQ_MASK(req) WAITER
#endif

/* FUTEX_WAIT_BITSET (word, v, MASK): atomic compare-and-block; EAGAIN
   -> goto AGAIN.  */
#define FUTEX_WAIT_OR(v, req, AGAIN) \
  atomic { if :: word == (v) -> blocked[me] = REQ_MASK (req) \
           :: else -> goto AGAIN fi }

/* FUTEX_WAKE (word, 1).  */
#define FUTEX_WAKE_ONE \
  atomic { \
    if \
    :: blocked[1] -> blocked[1] = 0 \
    :: blocked[2] -> blocked[2] = 0 \
    :: NT > 2 && blocked[NT] -> blocked[NT] = 0 \
    :: else -> skip \
    fi }

/* FUTEX_WAKE_BITSET (word, INT_MAX, the requester's mask).  */
#define WAKE_IF_REQUESTER(t) \
  if :: blocked[t] == REQUESTER -> blocked[t] = 0 :: else -> skip fi
#define FUTEX_WAKE_REQUESTER \
  atomic { WAKE_IF_REQUESTER (1); WAKE_IF_REQUESTER (2); \
           WAKE_IF_REQUESTER (NT) }

/* tp_handoff_clear (H4): CAS the requester's own entry to 0.  */
#define H4_CLEAR \
  atomic { if :: ho == me -> ho = 0; granted = 0 :: else -> skip fi }

proctype thread (byte me)
{
  byte v;         /* a loaded value of the word */
  byte r;         /* a loaded value of the hand-off word (TID) */
  bool g;         /* ... and its GRANTED bit */
  byte spins;
  byte round = 0;
  bool requester;
  bool woken;     /* the last FUTEX_WAIT woke or found the word changed */
  bool backed;    /* this lock call has backed off */

next_round:
  if
  :: NITER > 0 && round >= NITER -> goto done
  :: NITER > 0 && round < NITER -> round++
  :: NITER == 0 -> skip         /* forever; keep the state space finite */
  fi;

  /* __pthread_mutex_tp_trylock: T0, or T1 keeping W (may steal from a
     requester, G2).  Never blocks.  */
  if
  :: TRYER (me) ->
       atomic {
         if
         :: TID (word) == 0 -> word = me | (word & WBIT); goto acquired
         :: else -> skip
         fi
       };
       goto next_round              /* EBUSY */
  :: true -> skip
  fi;

  /* tp_lock_fast: T0, CAS 0 -> tid.  */
  atomic { if :: word == 0 -> word = me; goto acquired :: else -> skip fi };

  /* tp_lock_user: spin, T1 (keeps W).  */
  spins = 0;
  do
  :: spins < NSPIN ->
       v = word;                                /* relaxed load */
       if
       :: TID (v) == 0 ->
            atomic {                            /* T1 CAS */
              if
              :: word == v -> word = me | (v & WBIT); goto acquired
              :: else -> skip
              fi
            }
       :: else -> skip
       fi;
       spins++
  :: else -> break
  od;

  /* tp_core_sleep.  */
  requester = 0;
  woken = 0;
  backed = 0;
sleep_loop:
  v = word;                                     /* acquire load */
  if
  :: requester && TID (v) == me ->              /* granted by U2 */
       H4_CLEAR;                                /* H4 */
       goto acquired
  :: else -> skip
  fi;
#ifndef NO_DEFER
  /* C2: sleep unannounced until the home's window ends.  */
  if
  :: HANDOFF && !backed && !requester && ho == 0 && (v & WBIT) != 0 &&
     TID (v) != 0 && TID (v) != me ->
       backed = 1;
       if
       :: TIMED (me) -> goto next_round         /* ETIMEDOUT */
       :: true -> goto sleep_loop
       fi
  :: true -> skip
  fi;
#endif
  if
  :: TID (v) == 0 ->
       atomic {                                 /* T2: set W */
         if
         :: word == v -> word = me | WBIT
         :: else -> goto sleep_loop
         fi
       };
       if
       :: requester -> H4_CLEAR                 /* H4 */
       :: else -> skip
       fi;
       goto acquired
  :: else -> skip
  fi;
#ifndef NO_BACKOFF
  /* B1, B2: step back once, unannounced (tp_backoff_due).  */
  if
  :: HANDOFF && woken && !backed && !requester && ho == 0 && TID (v) != me ->
       woken = 0; backed = 1; goto sleep_loop
  :: else -> skip
  fi;
#endif
#ifndef BROKEN_T3_NOW
  if
  :: (v & WBIT) == 0 ->
       atomic {                                 /* T3: announce W */
         if
         :: word == v -> word = v | WBIT; v = v | WBIT
         :: else -> goto sleep_loop
         fi
       }
  :: else -> skip
  fi;
#endif
  /* H1 (I3): past the threshold, register if nobody is registered.  */
  if
  :: HANDOFF && !requester && TID (v) != me ->
       if
       :: atomic { ho == 0 -> ho = me; granted = 0 }; requester = 1
       :: true -> skip          /* not past the threshold, or CAS failed */
       fi
  :: else -> skip
  fi;
  /* tp_futex_wait_bitset (word, v, the requester's mask if registered,
     else the waiters', ...); EAGAIN counts as woken.  */
  atomic {
    if :: word == v -> blocked[me] = REQ_MASK (requester)
    :: else -> woken = 1; goto sleep_loop fi
  };
  if
  :: !blocked[me] -> woken = 1                  /* woken */
  :: atomic { HANDOFF && !requester && blocked[me] && ho == 0 ->
              blocked[me] = 0 }    /* handoff_sleep deadline:
                                                   continue */
  :: atomic { TIMED (me) && blocked[me] -> blocked[me] = 0 };
       /* ETIMEDOUT: a requester withdraws, others return the error.  */
       if
       :: requester -> goto withdraw
       :: else -> goto next_round
       fi
  fi;
  goto sleep_loop;                              /* 0, EAGAIN, EINTR */

  /* tp_core_withdraw.  */
withdraw:
#ifndef BROKEN_H2_BLIND
  atomic {                                      /* H2: CAS tid -> 0 */
    if
    :: ho == me && !granted -> ho = 0; goto next_round   /* ETIMEDOUT */
    :: else -> skip
    fi
  };
#else
  atomic { if :: ho == me -> ho = 0; granted = 0 :: else -> skip fi };
  goto next_round;
#endif
  /* I4: granted; wait for U2 (or a free word if the grant was dropped).  */
wd_loop:
  v = word;                                     /* acquire load */
  if
  :: TID (v) == me -> H4_CLEAR; goto acquired
  :: TID (v) == 0 ->
       atomic {                                 /* T2 */
         if
         :: word == v -> word = me | WBIT
         :: else -> goto wd_loop
         fi
       };
       H4_CLEAR;
       goto acquired
  :: else -> skip
  fi;
#ifndef BROKEN_WITHDRAW_NO_T3
  /* tp_core_withdraw: announce W (T3, CAS from V, retry on failure)
     before sleeping, as tp_core_sleep does (I2); sleep on V|W.  */
  if
  :: (v & WBIT) == 0 ->
       atomic {
         if
         :: word == v -> word = v | WBIT; v = v | WBIT
         :: else -> goto wd_loop
         fi
       }
  :: else -> skip
  fi;
#endif
  /* Without T3 (the mutant, the C code before the fix) the sleep on V
     as loaded loses the wake-up with DEATH (see README, "Findings").  */
  FUTEX_WAIT_OR (v, 1, wd_loop);                /* untimed, as requester */
  !blocked[me];
  goto wd_loop;

acquired:
  atomic {
    owners++;
    assert (owners == 1);                       /* G1: mutual exclusion */
    assert (TID (word) == me)                   /* I1 */
  };
  owners--;

  /* __pthread_mutex_tp_unlock: U0, CAS tid -> 0.  */
  atomic { if :: word == me -> word = 0; goto next_round :: else -> skip fi };

  /* tp_core_release.  */
  v = word;                                     /* relaxed load */
  assert (TID (v) == me && (v & WBIT) != 0);    /* U0 failed: only W added */
  if
  :: HANDOFF && (v & WBIT) != 0 ->
       atomic {
         r = ho; g = granted;                   /* relaxed load */
#ifdef BROKEN_NO_H3
         r = 0;
#endif
         deciding++
       };
       /* H5: a GRANTED registration is always stale (I8).  With no
          thread dying an unlocker must never see one; with DEATH it
          drops it (CAS to 0) and releases with U1.  */
#ifndef DEATH
       assert (!(r != 0 && g));
#else
       if
       :: r != 0 && g ->
            atomic {
              if :: ho == r && granted -> ho = 0; granted = 0
              :: else -> skip
              fi;
              r = 0
            }
       :: else -> skip
       fi;
#endif
       if
       :: r != 0 ->
            atomic {                            /* H3: CAS r -> r|GRANTED */
              if
              :: ho == r && !granted -> granted = 1
              :: else -> goto u1
              fi
            };
#ifdef DEATH
            /* The granting unlocker's process dies between H3 and U2
               (I8); the kernel's robust-list handling (K) frees the word
               with OWNER_DIED, keeps W and wakes one waiter.  */
            if
            :: atomic { !died -> word = (word & WBIT) | ODBIT; died = 1;
                        if :: (word & WBIT) != 0 -> FUTEX_WAKE_ONE
                        :: else -> skip fi };
               goto done
            :: true -> skip
            fi;
#endif
            /* U2: owned by us, others only add W: store r|W.  */
            assert (r != me);                   /* I3 */
            atomic { word = r | WBIT; deciding-- };
#ifndef BROKEN_U2_WAKE1
            FUTEX_WAKE_REQUESTER;               /* I5 */
#else
            FUTEX_WAKE_ONE;
#endif
            goto next_round
       :: else -> skip
       fi
  :: else -> deciding++
  fi;
u1:
  /* U1: exchange 0, then FUTEX_WAKE 1 if W was set.  */
  atomic { v = word; word = 0; deciding-- };
#ifndef BROKEN_U1_NOWAKE
  if
  :: (v & WBIT) != 0 -> FUTEX_WAKE_ONE
  :: else -> skip
  fi;
#endif
  goto next_round;

done:
  skip
}

init {
  atomic {
    run thread (1);
    run thread (2);
#if NT > 2
    run thread (3);
#endif
  }
}

#ifdef LIVENESS
/* G3 (I7): once thread 1 is registered, W is set, the word is owned by
   another thread and no unlocker is already deciding its release (has
   loaded the hand-off word, possibly before the registration), thread 1
   eventually owns the mutex.  Checked with weak fairness (pan -a -f).
   Without the "deciding" condition the property is false: an unlocker
   whose H3 CAS fails (the requester it read withdrew and thread 1
   registered meanwhile) falls back to U1, and an awake requester can
   lose every T2/T3 CAS to stealers forever (see README).  */
#define PREMISE (ho == 1 && !granted && (word & WBIT) != 0 \
                 && TID (word) != 0 && TID (word) != 1 && deciding == 0)
ltl handoff { [] (PREMISE -> <> (TID (word) == 1)) }
#endif
