/* Promela model of the TP rwlock user-space protocol.

   Models nptl/pthread_rwlock_tp.c (tprw_lock_user, tprw_withdraw,
   tprw_release_user, tprw_wrunlock, tprw_rdunlock and the rdlock and
   wrlock fast paths) with the hand-off helpers of sysdeps/nptl/tp-wait.h
   (tp_handoff_replace, tp_handoff_grant, tp_handoff_clear,
   tp_handoff_wait_plan, tp_backoff_due, tp_announce_and_wait), as they
   run on a kernel without the TP futex operations (the user-space
   protocol).  Transition names (A0, A1, A2, R0, R1, R2, H1..H5) and
   invariants (I1..I6) are those of the design comment at the top of
   pthread_rwlock_tp.c; every step below names the C function and the
   transition it stands for.  Keep the two in step.

   Abstractions (see models/README):
   - Memory is sequentially consistent; every C atomic is one Promela
     step, a plain load is a step of its own before the CAS that uses
     it.  A weak CAS never fails spuriously (a spurious failure only
     repeats a loop).  The rdlock fast path (relaxed load, then A1) is
     one step: a CAS that fails because the word changed since the load
     sends the reader to tprw_lock_user, whose first pass loads the word
     again and retries A1, which the model does as well.
   - FUTEX_WAIT (word, v) is one atomic compare-and-block; FUTEX_WAKE
     INT_MAX (R1's wake) wakes all queued threads.  The registered
     requester queues with its own FUTEX_WAIT_BITSET mask (blocked[]
     holds it), the others with another, and R2's FUTEX_WAKE_BITSET INT_MAX with the
     requester's mask wakes the threads queued with it (the requester:
     no requester dies here, so no registration is dropped).
   - Time: "past the hand-off threshold" is a nondeterministic choice
     before each sleep (H1 in tp_handoff_wait_plan); the deadline
     wake-up of a non-requester's bounded sleep may happen only while
     nobody is registered (then it leads to H1; otherwise it would only
     turn lost wake-ups into latency), and not at all with NODEADLINE.
     A user timeout is a nondeterministic give-up of a blocked
     FUTEX_WAIT (or of a back-off sleep) of the threads in RTIMED /
     WTIMED.
   - Back-off (tp_backoff_due, tp_backoff_sleep): a woken waiter that
     finds the word owned goes round the loop once more without A2 (a
     timed sleep on no lock word is a delay without effects), if it is
     not the requester and nobody is registered; at most once per lock
     call (further back-offs are the same step again).
   - Concurrency restriction (tp-home.h, C1..C4): the home word is a
     hint that only delays attempts, so it is not modelled as a
     variable; the deferral it causes (C2) is a nondeterministic step
     of a waiter that is not the requester, while HAND holds no
     registration and the word is owned: a sleep on no lock word, at
     most once per lock call, that a TIMED caller may end with its
     timeout.
   - Spinning (tprw_spin): NSPIN extra A0/A1 attempts (load, CAS) before
     the sleep loop; the spinner bit only limits how many threads spin,
     so leaving it out allows more interleavings, not fewer.  NSPIN 0
     by default: the first pass of the sleep loop makes the same
     attempt.
   - The reader count never reaches TPRW_COUNT_MASK (NR <= 3), so the
     EAGAIN path (tprw_full) is not modelled; nor are tryrdlock,
     trywrlock, EDEADLK, __cur_writer, process-shared futexes, the
     kernel path (SU, FUTEX_LOCK*), and thread death other than a stale
     entry present from the start (STALE, the I6 cases "died" and
     "inherited by fork").

   Configuration (cpp macros, spin -DNAME=value):
     NR, NW     readers (threads 1..NR) and writers (NR+1..NR+NW),
                NR + NW <= 4
     NITER      rounds per thread; 0 = forever (liveness)
     NSPIN      spin attempts before the sleep loop (tprw_spin)
     RTIMED     bit i set: reader i (from 0) uses a timed rdlock
     WTIMED     bit i set: writer i (from 0) uses a timed wrlock
     NODEADLINE no deadline wake-ups of non-requesters (every lost
                wake-up is then an invalid end state)
     STALE      HAND starts with a stale registration of a dead thread
                (1: not granted, 2: granted), dropped by H5
     FIX_RECHECK    (on by default) the fix of Finding 4
                (models/README): after a failed A0/A1 CAS the waiter
                loads the word again and looks for the grant (continue)
                instead of going on with the value the CAS returned
     FIX_R2_MARK    (on by default) the fix of Findings 5 and 6: R2 to a
                reader requester stores SH|1|W|HB, HB = TPRW_GRANTED
                (bit 27 in C); the grant of a reader requires HB besides
                the grant in HAND, and the served requester clears HB
                (an atomic AND; it owns the word, W is set so nobody
                joins) before H4; a waiter that has just registered (H1)
                loads the word again instead of sleeping on the value it
                loaded before (which may be the previous requester's
                marked word).  So the word changes under a requester
                that sleeps (Finding 5), and the requester sees its
                grant only once R2 is done (Finding 6)
     FIX_R2_TOGGLE  (only with BROKEN_R2_TOGGLE) a partial fix, to show
                Finding 6 on its own: R2 to a reader flips HB, and the
                grant ignores it
     NO_R2_ASSERT   leave out the assertion before R2's CAS (to see what
                Finding 6 leads to: a lost lock, an invalid end state)
     NO_BACKOFF leave out the back-off step (for the 3-thread liveness
                check, which exceeds pan's depth bound with it)
     NO_DEFER   leave out the deferral to a home on another processor
                (C2), for the same checks
     LIVENESS   define to get the LTL property "handoff" for thread
                LTL_TID (default 1)
     NO_BIAS    leave out the reader bias (B1..B4), for the checks that
                exceed the suite's bounds with it
   Mutants (each must make a check fail):
     BROKEN_JOIN_W      A1 lets a reader join while W is set
     BROKEN_R1_WAKE1    R1 wakes one waiter instead of all (I2)
     BROKEN_REQ_MASK    the requester sleeps with the waiters' mask, so
                        R2's wake does not match it
     BROKEN_NO_H3       the releaser hands off (R2) without the grant
                        RMW H3 on HAND (I4)
     BROKEN_H2_BLIND    the requester withdraws even if granted (I4)
     BROKEN_GRANT_NOSH  a reader requester takes HAND's grant for a read
                        lock without TPRW_SHARED in the word (I5)
     BROKEN_NO_A2       a waiter sleeps without announcing W (I2)
     BROKEN_NO_RECHECK  Finding 4: the code before FIX_RECHECK
     BROKEN_NO_R2_MARK  Finding 5: the code before FIX_R2_MARK
     BROKEN_R2_TOGGLE   Finding 6: R2 changes the word (a toggled HB) but
                        the grant does not wait for R2
     BROKEN_B1_NO_RELOAD  a reader enters through its slot on the BIAS
                        it loaded before publishing (no second load)
     BROKEN_B3_NO_WAIT  a writer clears BIAS but does not wait for the
                        readers in the slots
     BROKEN_B4_UNLOCKED a reader sets BIAS after releasing its read
                        lock instead of while holding it
     BROKEN_B3_GIVEUP   a writer that gives up in B3 (timeout) leaves
                        BIAS clear: the next writer skips B3 and enters
                        beside a reader still in its slot (found by the
                        check tp_rwlock/2rounds; the C code before the
                        fix)
   The reader bias (B1..B4): BIAS is a variable, each reader has a slot
   of its own (a slot taken by another thread sends the C code's reader
   to the word, which the model's reader may do anyway: B1 is a
   nondeterministic choice); B4, which the C code takes after a race and
   once INHIBIT has passed, is a nondeterministic choice of every reader
   that holds a read lock through the word.  With the fences of B1 and
   B3 the store-buffering pattern behaves as under sequential
   consistency, which the model assumes.  A timed writer may give up
   while it waits for the slots (ETIMEDOUT): it releases the word.
*/

#ifndef NR
#define NR 2
#endif
#ifndef NW
#define NW 1
#endif
#ifndef NITER
#define NITER 1
#endif
#ifndef NSPIN
#define NSPIN 0
#endif
#ifndef RTIMED
#define RTIMED 0
#endif
#ifndef WTIMED
#define WTIMED 0
#endif
#ifndef STALE
#define STALE 0
#endif
#ifndef LTL_TID
#define LTL_TID 1
#endif

#define NT (NR + NW)

/* The C code's fixes of Findings 4..6 are on unless a mutant takes
   them away.  */
#ifndef BROKEN_NO_RECHECK
#define FIX_RECHECK
#endif
#ifdef BROKEN_R2_TOGGLE
#define FIX_R2_TOGGLE
#elif !defined BROKEN_NO_R2_MARK
#define FIX_R2_MARK
#endif

/* WORD (__readers): a writer's TID (1..NT) or, with SH, the reader
   count n in bits 0-2; W = FUTEX_WAITERS.  */
#define LOW 7
#define SH 8            /* TPRW_SHARED */
#define WB 16           /* FUTEX_WAITERS */
#define HB 32           /* FIX_R2_MARK, FIX_R2_TOGGLE only */
/* HAND (__writers): requester TID in bits 0-2, HR =
   TPRW_HANDOFF_READER, HG = TP_HANDOFF_GRANTED.  TID 7 is a thread that
   no longer exists (STALE).  */
#define HTID 7
#define HR 8
#define HG 16
#define DEAD 7

byte word = 0;
byte hand = 0;
byte blocked[5];        /* queued in FUTEX_WAIT on WORD: 0 no, else the
                           bitset mask, WAITER or REQUESTER */
bool bias = 0;          /* BIAS (__writers_futex) */
bool slot[5];           /* reader i's slot of the visible readers' table
                           holds the lock */

/* Ghosts.  */
byte readers_in = 0;    /* readers inside their read section */
byte writers_in = 0;    /* writers inside their write section */
byte wowner = 0;        /* TID of the writer inside */
byte slot_in = 0;       /* readers inside through their slots */
bool incs[5];           /* thread i is inside its critical section */
bool r1_waking = 0;     /* between R1's exchange and its FUTEX_WAKE */
byte deciding = 0;      /* releasers between their load of HAND (in
                           tp_handoff_grant) and their R1/R2 */

#define FREE(v) (((v) & ~WB) == 0)
/* tprw_can_take: A0 on a free word, A1 also onto readers without W.  */
#ifndef BROKEN_JOIN_W
#define CAN_TAKE(v) (FREE (v) || (rd && ((v) & ~LOW) == SH))
#else
#define CAN_TAKE(v) (FREE (v) || (rd && ((v) & SH) != 0))
#endif
/* tprw_taken: the word after A0/A1 on V (W kept, never set).  */
#define TAKEN(v) (FREE (v) -> ((rd -> SH | 1 : me) | ((v) & WB)) : (v) + 1)
/* tprw_granted (I5): a writer by its TID in the word, a reader by the
   grant in HAND together with SH in the word it loaded.  */
#if defined FIX_R2_MARK && !defined BROKEN_GRANT_NOSH
#define GRANTED(v) (rd -> (((v) & (SH | HB)) == (SH | HB) \
                           && hand == (me | HR | HG)) \
                       : (((v) & ~WB) == me))
#elif !defined BROKEN_GRANT_NOSH
#define GRANTED(v) (rd -> (((v) & SH) != 0 && hand == (me | HR | HG)) \
                       : (((v) & ~WB) == me))
#else
#define GRANTED(v) (rd -> (hand == (me | HR | HG)) : (((v) & ~WB) == me))
#endif

#define TIMED (rd -> ((RTIMED >> (me - 1)) & 1) \
                  : ((WTIMED >> (me - NR - 1)) & 1))

/* FUTEX_WAKE (word, INT_MAX).  */
#define WAKE_ALL \
  blocked[1] = 0; blocked[2] = 0; blocked[3] = 0; blocked[4] = 0

/* FUTEX_WAKE_BITSET (word, INT_MAX, the requester's mask).  */
#define WAKE_IF_REQUESTER(t) \
  if :: blocked[t] == REQUESTER -> blocked[t] = 0 :: else -> skip fi
#define WAKE_REQUESTER \
  WAKE_IF_REQUESTER (1); WAKE_IF_REQUESTER (2); WAKE_IF_REQUESTER (3); \
  WAKE_IF_REQUESTER (4)

/* The mask a thread queues with: the requester's, unless the mutant
   has it sleep with the waiters'.  */
#define WAITER 1
#define REQUESTER 2
#ifndef BROKEN_REQ_MASK
#define REQ_MASK(req) ((req) -> REQUESTER : WAITER)
#else
#define REQ_MASK(req) WAITER
#endif

/* tp_handoff_clear (H4): CAS our own entry (whatever its bits) to 0.  */
#define H4_CLEAR \
  atomic { if :: (hand & HTID) == me -> hand = 0 :: else -> skip fi }

proctype thread (byte me)
{
  bool rd = (me <= NR);
  byte v;                 /* a loaded value of WORD */
  byte req;               /* the registration a releaser loaded */
  byte newv;
  byte round = 0;
  byte spins;
  bool requester;         /* hw.requester */
  bool woken;             /* bo.woken */
  bool backed;            /* this lock call has backed off */
  byte i;                 /* B3's scan */

next_round:
  v = 0; req = 0; newv = 0; requester = 0; woken = 0; backed = 0;
  if
  :: NITER > 0 && round >= NITER -> goto done
  :: NITER > 0 && round < NITER -> round++
  :: NITER == 0 -> skip         /* forever; keeps the state space finite */
  fi;

#ifndef NO_BIAS
  /* __pthread_rwlock_tp_rdlock, B1 (tprw_bias_rdlock): BIAS loaded
     (relaxed), the slot's CAS 0 -> lock, the fence, BIAS loaded again
     (acquire); still set: the read lock is ours, else the slot is
     emptied and the word's way taken.  */
  if
  :: rd && bias ->
       slot[me] = 1;
#ifndef BROKEN_B1_NO_RELOAD
       if
       :: bias -> goto slot_acquired
       :: else -> slot[me] = 0
       fi
#else
       goto slot_acquired
#endif
  :: true -> skip
  fi;
#endif

  /* __pthread_rwlock_tp_wrlock: A0, CAS 0 -> tid;
     __pthread_rwlock_tp_rdlock: load, tprw_try_take (A1).  */
  atomic {
    if
    :: CAN_TAKE (word) -> word = TAKEN (word); goto acquired
    :: else -> skip
    fi
  };
  /* (C2: a home on another processor sends the caller to the sleep
     loop without this attempt; the model's attempt may fail anyway, so
     nothing is lost by always making it: the sleep loop's first pass
     makes the same one.)  */

  /* tprw_lock_user: tprw_spin, NSPIN attempts of A0/A1.  */
  spins = 0;
  do
  :: spins < NSPIN ->
       v = word;                                /* relaxed load */
       atomic {                                 /* tprw_try_take */
         if
         :: CAN_TAKE (v) && word == v -> word = TAKEN (v); v = 0;
              goto acquired
         :: else -> skip
         fi
       };
       spins++
  :: else -> break
  od;
  v = 0;

  /* tprw_lock_user: the sleep loop.  */
sleep_loop:
  v = word;                                     /* acquire load */
  if
  :: requester && GRANTED (v) -> goto got       /* R2 served us */
  :: else -> skip
  fi;
#ifndef NO_DEFER
  /* C2: the lock's home is another processor (tp_home_deferred_until,
     a nondeterministic choice here): a waiter that is not the requester
     finds the word owned and nobody registered, so it sleeps on no lock
     word until the home's window ends, unannounced (the code defers
     for a writer's word only if WAITERS is set; the wider choice here
     covers that).  As B1's step
     below, of which it is a variant (a sleep on no lock word, then a
     new look), at most once per lock call, and the two share the
     bound.  */
  if
  :: !backed && !requester && hand == 0 && !FREE (v) ->
       backed = 1;
       if
       :: TIMED -> goto next_round              /* tp_kernel_pause: the
                                                   caller's ETIMEDOUT */
       :: true -> goto sleep_loop
       fi
  :: true -> skip
  fi;
#endif
  atomic {                                      /* tprw_try_take: A0/A1 */
    if
    :: CAN_TAKE (v) && word == v -> word = TAKEN (v); goto got
#ifndef FIX_RECHECK
    :: CAN_TAKE (v) -> v = word                 /* CAS failed: V = word */
#else
    :: CAN_TAKE (v) -> goto sleep_loop          /* CAS failed: continue */
#endif
    :: else -> skip
    fi
  };
  if
  :: FREE (v) -> goto sleep_loop                /* lost a race: continue */
  :: else -> skip
  fi;
#ifndef NO_BACKOFF
  /* B1: woken, but owned again: step back once, unannounced
     (tp_backoff_due: not the requester, HAND holds no registration).  */
  if
  :: woken && !backed && !requester && hand == 0 ->
       woken = 0; backed = 1;
       if
       :: TIMED -> goto next_round              /* tp_backoff_sleep: the
                                                   caller's ETIMEDOUT */
       :: true -> goto sleep_loop
       fi
  :: else -> skip
  fi;
#endif
#ifndef BROKEN_NO_A2
  if
  :: (v & WB) == 0 ->
       atomic {                                 /* A2: CAS v -> v|W */
         if
         :: word == v -> word = v | WB; v = v | WB
         :: else -> goto sleep_loop             /* continue */
         fi
       }
  :: else -> skip
  fi;
#endif
  /* tp_handoff_wait_plan: H1 past the threshold (nondeterministic),
     a CAS of HAND from 0 to tid (| TPRW_HANDOFF_READER).  */
  if
  :: !requester ->
       if
       :: atomic { hand == 0 -> hand = me | (rd -> HR : 0) };
          requester = 1;
#ifdef FIX_R2_MARK
          /* Load the word again before sleeping: a value loaded before
             H1 may be the HB-marked word of the previous requester.  */
          goto sleep_loop
#else
          skip
#endif
       :: true -> skip          /* not past the threshold, or CAS failed */
       fi
  :: else -> skip
  fi;
  /* tp_futex_wait_bitset (word, v, the requester's mask if registered,
     else the waiters'); 0 and EAGAIN set bo.woken.  */
  atomic {
    if
    :: word == v -> blocked[me] = REQ_MASK (requester); v = 0
    :: else -> woken = 1; goto sleep_loop       /* EAGAIN */
    fi
  };
  if
  :: !blocked[me] -> woken = 1                  /* woken by R1/R2 */
#ifndef NODEADLINE
  :: atomic { !requester && blocked[me] && hand == 0 ->
              blocked[me] = 0 }                 /* handoff_sleep: the
                                                   registration deadline */
#endif
  :: atomic { TIMED && blocked[me] -> blocked[me] = 0 };
       /* ETIMEDOUT of the caller's abstime.  */
       if
       :: requester -> goto withdraw
       :: else -> goto next_round
       fi
  fi;
  goto sleep_loop;

  /* tprw_withdraw.  */
withdraw:
#ifndef BROKEN_H2_BLIND
  atomic {                        /* H2: tp_handoff_replace (reg -> 0) */
    if
    :: hand == (me | (rd -> HR : 0)) -> hand = 0; goto next_round
    :: else -> skip
    fi
  };
  /* I4: H2 fails only because H3 succeeded (no requester dies here).  */
  assert (hand == (me | (rd -> HR : 0) | HG));
#else
  H4_CLEAR;
  goto next_round;
#endif
wd_loop:
  v = word;                                     /* acquire load */
  if
  :: GRANTED (v) -> goto got
  :: else -> skip
  fi;
  atomic {                                      /* tprw_try_take */
    if
    :: CAN_TAKE (v) && word == v -> word = TAKEN (v); goto got
#ifndef FIX_RECHECK
    :: CAN_TAKE (v) -> v = word
#else
    :: CAN_TAKE (v) -> goto wd_loop
#endif
    :: else -> skip
    fi
  };
  if
  :: !FREE (v) ->
       /* tp_announce_and_wait: A2 (a failed CAS returns), then an
          untimed wait on v|W with the requester's mask.  */
       if
       :: (v & WB) == 0 ->
            atomic {
              if
              :: word == v -> word = v | WB; v = v | WB
              :: else -> goto wd_loop
              fi
            }
       :: else -> skip
       fi;
       atomic {
         if
         :: word == v -> blocked[me] = REQ_MASK (1); v = 0
         :: else -> goto wd_loop
         fi
       };
       !blocked[me]
  :: else -> skip
  fi;
  goto wd_loop;

got:
#ifdef FIX_R2_MARK
  if
  :: rd && requester -> word = word & ~HB       /* fetch_and ~HB */
  :: else -> skip
  fi;
#endif
  if
  :: requester -> H4_CLEAR                      /* H4 */
  :: else -> skip
  fi;
acquired:
#ifndef NO_BIAS
  if
  :: !rd && bias ->
       /* B3 (tprw_bias_revoke): clear BIAS, the fence, then wait for
          each slot to be empty (acquire loads); a timed writer may give
          up, setting BIAS again and releasing the word (ETIMEDOUT).  */
       bias = 0;
#ifndef BROKEN_B3_NO_WAIT
       i = 1;
       do
       :: i <= NR ->
            if
            :: !slot[i] -> i++
            :: TIMED && slot[i] ->
                 i = 0;
#ifndef BROKEN_B3_GIVEUP
                 bias = 1;      /* the reader may still be inside */
#endif
                 goto wrunlock
            fi
       :: else -> break
       od;
       i = 0
#endif
  :: else -> skip
  fi;
#endif
  atomic {
    v = 0; requester = 0;
    incs[me] = 1;
    if
    :: rd -> readers_in++
    :: else -> writers_in++; wowner = me
    fi;
    /* G1 and I1: see also the monitor below.  */
    assert (writers_in <= 1 && (writers_in == 0 || readers_in == 0))
  };
  atomic {
    incs[me] = 0;
    if
    :: rd -> readers_in--
    :: else -> writers_in--; wowner = 0
    fi
  };

#if !defined NO_BIAS && !defined BROKEN_B4_UNLOCKED
  /* B4 (tprw_bias_enable): a reader holding the word in read mode may
     set BIAS (the C code's race and INHIBIT: a nondeterministic
     choice).  */
  if
  :: rd -> bias = 1
  :: true -> skip
  fi;
#endif
  if
  :: rd -> goto rdunlock
  :: else -> skip
  fi;

  /* tprw_wrunlock: R0, CAS tid -> 0.  */
wrunlock:
  atomic { if :: word == me -> word = 0; goto next_round :: else -> skip fi };
  v = word;                                     /* relaxed load */
  /* I1: R0 failed, so only W was added to our TID.  */
  assert (v == (me | WB));
  goto release_user;

rdunlock:
  /* tprw_rdunlock.  */
  v = word;                                     /* relaxed load */
#if !defined NO_BIAS && defined BROKEN_B4_UNLOCKED
  goto rd_loop;
b4_unlocked:
  if
  :: bias = 1
  :: skip
  fi;
  goto next_round;
#endif
rd_loop:
  assert ((v & SH) != 0 && (v & LOW) != 0);     /* we hold a read lock */
  if
  :: (v & LOW) > 1 || (v & WB) == 0 ->
       atomic {                 /* R0: SH|n -> SH|n-1 (W kept), SH|1 -> 0 */
         if
#if !defined NO_BIAS && defined BROKEN_B4_UNLOCKED
         :: word == v -> word = ((v & LOW) > 1 -> v - 1 : 0); goto b4_unlocked
#else
         :: word == v -> word = ((v & LOW) > 1 -> v - 1 : 0); goto next_round
#endif
         :: else -> v = word; goto rd_loop
         fi
       }
  :: else -> skip                               /* the last reader, W set */
  fi;

  /* tprw_release_user (V: the word we own, with W).  */
release_user:
  atomic { req = hand; deciding++ };      /* tp_handoff_grant: relaxed load */
  if
  :: req == 0 -> goto r1
  :: req != 0 && ((req & HG) != 0 || (req & HTID) == DEAD) ->
       /* H5: a stale entry (granted already, or its thread is gone, I6):
          drop it (CAS to 0; if that fails, the next release serves the
          new entry) and release.  Without STALE a live releaser never
          sees a granted entry (as the mutex's I8).  */
       assert (STALE > 0);
       atomic { if :: hand == req -> hand = 0 :: else -> skip fi };
       goto r1
  :: else -> skip
  fi;
#ifndef BROKEN_NO_H3
  atomic {                        /* H3: tp_handoff_replace (req -> req|G) */
    if
    :: hand == req -> hand = req | HG
    :: else -> goto r1
    fi
  };
#endif
  /* R2: hand on to the requester, a writer its TID, a reader SH|1.  */
#if defined FIX_R2_MARK
  newv = ((req & HR) != 0 -> SH | 1 | HB : (req & HTID)) | WB;
#elif defined FIX_R2_TOGGLE
  newv = ((req & HR) != 0 -> (SH | 1 | (HB & ~v)) : (req & HTID)) | WB;
#else
  newv = ((req & HR) != 0 -> SH | 1 : (req & HTID)) | WB;
#endif
r2:
#ifndef NO_R2_ASSERT
  /* I1: "Only we change the word now (I1); the loop is for spurious CAS
     failures".  */
  assert (word == v);
#endif
  atomic {                        /* R2: CAS v -> newv|W, release */
    if
    :: word == v -> word = newv; deciding--
    :: else -> v = word; goto r2             /* loop: V = word */
    fi
  };
r2_wake:
  atomic { WAKE_REQUESTER; v = 0; req = 0; newv = 0 };
  goto next_round;

r1:
  /* R1: exchange 0, release; then wake all (I2).  */
  atomic { word = 0; r1_waking = 1; deciding-- };
#ifndef BROKEN_R1_WAKE1
  atomic { WAKE_ALL; r1_waking = 0; v = 0; req = 0 };
#else
  atomic {
    if
    :: blocked[1] -> blocked[1] = 0
    :: blocked[2] -> blocked[2] = 0
    :: blocked[3] -> blocked[3] = 0
    :: blocked[4] -> blocked[4] = 0
    :: else -> skip
    fi;
    r1_waking = 0; v = 0; req = 0
  };
#endif
  goto next_round;

#ifndef NO_BIAS
  /* The read section of a reader that came through its slot (B1), and
     its unlock (B2: the slot emptied, release).  */
slot_acquired:
  atomic {
    incs[me] = 1; readers_in++; slot_in++;
    assert (writers_in == 0)
  };
  atomic { incs[me] = 0; readers_in--; slot_in-- };
  slot[me] = 0;
  goto next_round;
#endif

done:
  skip
}

/* The invariants of the design comment that are state predicates,
   checked in every state:
   G1   a writer excludes everyone;
   I1   the word of a writer inside holds its TID, the word of readers
        inside through it (not through their slots, B1) is SH with at
        least their count;
   I2   a thread blocked in FUTEX_WAIT implies W in the word, except
        between R1's exchange and its wake-up;
   I5   a granted reader requester's word is SH|1|W (passed on
        unchanged, no reader joined).  */
#define G1 (writers_in <= 1 && (writers_in == 0 || readers_in == 0))
#define I1 ((writers_in == 0 || (word & ~WB) == wowner) \
            && (readers_in == slot_in \
                || ((word & SH) != 0 \
                    && (word & LOW) >= readers_in - slot_in)))
#define ANYBLOCKED (blocked[1] || blocked[2] || blocked[3] || blocked[4])
#define I2 (!ANYBLOCKED || r1_waking || (word & WB) != 0)
#define I5 (!((hand & (HR | HG)) == (HR | HG) && (word & SH) != 0) \
            || (word & ~HB) == (SH | 1 | WB))

active proctype monitor ()
{
end:
  atomic {
    !(G1 && I1 && I2 && I5) ->
      assert (G1); assert (I1); assert (I2); assert (I5)
  }
}

init {
  byte i = 1;
  atomic {
    hand = (STALE == 1 -> DEAD : (STALE == 2 -> DEAD | HG : 0));
    do
    :: i <= NT -> run thread (i); i++
    :: else -> break
    od
  }
}

#ifdef LIVENESS
/* Hand-off liveness (G3, the starvation bound): once thread LTL_TID is
   registered (not yet granted), W is set, the word is owned by others
   and no releaser is already deciding its release (it may have loaded
   HAND before the registration, or its H3 may fail and fall back to
   R1, as for the mutex, models/README, Findings 3), thread LTL_TID
   eventually enters its critical section.  Weak fairness (pan -a -f).  */
#if LTL_TID <= NR
#define REG (LTL_TID | HR)
#else
#define REG LTL_TID
#endif
#define PREMISE (hand == REG && (word & WB) != 0 && !FREE (word) \
                 && (word & ~WB) != LTL_TID && deciding == 0)
ltl handoff { [] (PREMISE -> <> incs[LTL_TID]) }
#endif
