/* Throughput-optimized (TP) reader/writer lock (PTHREAD_RWLOCK_TP_NP).
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
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthreadP.h>
#include <atomic.h>
#include <futex-internal.h>
#include <tp-futex.h>
#include <tp-spin.h>
#include <tp-wait.h>
#include <tp-core.h>
#include <tp-fence.h>
#include <pthread_rwlock_tp.h>

/* A reader/writer lock on one futex word in the shared layout of the TP
   futex: writers use the TP mutex protocol (pthread_mutex_tp_lock.c),
   readers a count in the same word.  With a kernel that has the TP
   operations (FUTEX_LOCK, FUTEX_UNLOCK, FUTEX_LOCK_SHARED,
   FUTEX_UNLOCK_SHARED; probed once) the slow paths are the kernel's;
   otherwise a user-space protocol on the same word serves them.

   Guarantees
   ----------
   G1  Mutual exclusion: a writer excludes everyone; readers share.
   G2  Throughput: like the TP mutex, a lock that comes free goes to
       whoever takes it first (no FIFO, lock stealing by running threads).
   G3  No starvation: a reader does not join a reader-owned lock while
       a waiter has announced itself (FUTEX_WAITERS), so a stream of
       readers cannot keep a waiting writer out; and a waiter of either
       kind that has waited longer than the hand-off threshold gets
       the lock from the next release (user-space path: TPRW_HANDOFF_MUL
       times the tunable glibc.pthread.mutex_tp_handoff_us, 20 ms by
       default) or from the kernel's hand-off (kernel path), so a stream
       of writers cannot keep a reader out either.
   G4  Timed and clock variants on CLOCK_REALTIME and CLOCK_MONOTONIC.
   G5  No pointers in the lock: PTHREAD_PROCESS_SHARED works (futex
       operations are shared then).  Every process that uses a shared
       lock must take the same path: do not set
       glibc.pthread.mutex_tp_userspace in only some of them.
   Not provided: recursive read locking (a reader that read-locks again
   while a waiter has announced itself waits for that waiter, which may
   wait for the first read lock: deadlock, as for
   PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP), elision.  EDEADLK for a
   writer that locks again either way, through __cur_writer, and for a
   reader that holds its read lock through a slot (B3) and write-locks;
   one that holds it through the word waits for itself, as before.

   Words
   -----
     WORD = __readers   the futex word
	    0                    free
	    TID [|W]             write-locked by TID
	    SH | n [|W]          read-locked by n >= 1 readers
	    SH | SU [|W]         (kernel path only) the last reader has
				 left and FUTEX_UNLOCK_SHARED releases
	    W  = FUTEX_WAITERS (bit 31): the release must enter the slow
		 path (a waiter may sleep, or asks for hand-off);
	    SH = TPRW_SHARED (bit 29), SU = TPRW_SHARED_UNLOCK (bit 28),
	    G = TPRW_GRANTED (bit 27, user-space path only, see R2),
	    n in bits 0..23 (TPRW_COUNT_MASK), bits 24..26 zero.  TIDs are
	    below 2^22 (PID_MAX_LIMIT), so a TID never has SH or SU set.
     HAND = __writers   hand-off word, user-space path only: the TID of
			the registered requester in bits 0..29, bit 30
			TPRW_HANDOFF_READER if it wants a read lock, bit 31
			TP_HANDOFF_GRANTED once a releaser committed to it
     HOME = __wrphase_futex
			the lock's home processor and the time of its
			claim, user-space path only (tp-home.h, C1..C4)
     __cur_writer       TID of the writer, 0 if none
     __shared           nonzero for a process-shared lock
   Other fields are unused and stay zero; the all-zero lock (plus
   __flags) is the idle lock, so PTHREAD_RWLOCK_TP_INITIALIZER_NP works.

   User-space protocol (t = caller's TID, r = requester)
   -----------------------------------------------------
     A0  0 -> t                  writer takes a free word (fast path,
				 spinner, or woken waiter; W is kept if
				 there, never set: see I2)
     A1  0 -> SH|1, SH|n -> SH|n+1
				 reader takes a free word (keeping W, as
				 A0) or joins readers, never while W or SU
				 is set
     A2  v -> v|W                a waiter announces itself before it
				 sleeps (v owned, i.e. v & ~W != 0)
     R0  t -> 0, SH|1 -> 0, SH|n -> SH|n-1 (n > 1, W kept)
				 release without slow path
     R1  t|W -> 0, SH|1|W -> 0   slow release: exchange, wake all
     R2  t|W -> r|W or SH|G|1|W, SH|1|W -> r|W or SH|G|1|W
				 hand-off to the requester r (a writer gets
				 the word, a reader a read lock of its own,
				 marked G), then wake the requester
				 without the other waiters (it sleeps with
				 its own FUTEX_WAIT_BITSET mask, I5 of the
				 TP mutex); a reader
				 requester that sees G clears it with an
				 atomic AND before it clears HAND (H4)
     H1..H5 on HAND             as the TP mutex's H1..H5 (register past
				 the threshold, withdraw on timeout, grant,
				 clear once served, drop a stale entry)

   Invariants
   ----------
   I1  Only the owner (the writer, or the last reader) releases the word
       (R1, R2) other than by R0's count decrement; A2 only adds W.  While
       W is set no reader joins (A1), so the count of a word with W set
       only decreases, and the reader that takes it from 1 is the last.
   I2  W is set whenever a waiter may sleep on the word: a waiter sleeps
       only with the expected value v|W (A2 first), and R1 wakes all
       sleepers, so a release that clears W strands no one: each woken
       waiter re-announces itself before sleeping again.  Hence A0/A1
       need not set W.  R2 keeps W and wakes only the requester: the
       others, still announced, are woken by the release that ends the
       requester's ownership (readers could not join a word with W set
       anyway, A1).
   I3  A registered requester sleeps only with W set (A2 before H1 in
       every iteration), so the release that ends the current ownership
       takes the slow path and sees the registration: it grants (H3) and
       hands off (R2), or drops a stale entry (H5) and releases (R1).
       A requester that finds the word free takes it itself (A0/A1 allow
       it) and clears its registration.
   I4  H2 and H3 are RMWs of HAND: exactly one succeeds; after H3 the
       releaser performs R2 (it owns the word).  A requester that times
       out either withdraws or waits for the grant and succeeds.
   I5  A reader requester is granted when HAND holds its TID with
       TPRW_HANDOFF_READER and TP_HANDOFF_GRANTED and the word is SH|G:
       G, not the grant in HAND, shows that R2 has happened (H3 comes
       before R2, and between the two the word may already be SH|1|W, the
       releasing last reader's own).  Only R2 sets G and only the served
       requester clears it, before H4, so G is clear when the next
       requester registers.
   I7  Every R2 changes the word (a writer's TID, or G), and a requester
       that has just registered (H1) loads the word again before it
       sleeps, so it never sleeps on the value that grants it the lock:
       its FUTEX_WAIT either fails with EAGAIN or is woken by R2's wake,
       which matches the mask it sleeps with (TP_WAIT_REQUESTER) and no
       other waiter's.
       (Found by models/tp_rwlock.pml: without G the last reader's R2
       left SH|1|W unchanged, and a requester that had loaded it slept
       through its grant; and a requester that took the registration in
       HAND for proof acted before R2, whose retry loop then wrote a
       read lock into a word freed meanwhile.)  H4 is release and H1 is
       followed by an acquire fence (tp-wait.h), so that the reload sees
       the previous requester's G cleared.
   I6  Stale registrations (the requester died, or the lock was
       inherited by fork) are dropped by the next slow release, as for
       the mutex (I8 there), with the check of tp-wait.h.

   The user-space slow paths are the TP core's (tp-core.h), with the
   mutex's spin, back-off and hand-off policy, and with concurrency
   restriction.

   Concurrency restriction (user-space path)
   -----------------------------------------
   With more threads than processors and no gap between operations,
   every running reader joins the read lock, so the word's cache line
   (and the data's) moves between the processors at every rdlock and
   unlock: the same threads pinned to one processor run 1.07-1.80 times
   the default rwlock's throughput on two, and on two 0.57-1.11 times
   (make bench-rwlock-profile).  So a saturated lock is given to one
   processor at a time, for a window, through the home word HOME =
   __wrphase_futex (tp-home.h: the processor and the time of a claim):
     C1  A thread that takes the word in the slow path after waiting
	 for it (the word was owned when its lock call began, or it
	 slept or backed off) claims HOME for its processor; so does a
	 served requester.  A reader that waited only for the window of
	 another processor's claim (C2) claims only if its own last races
	 qualified it for a claim (C5); otherwise it takes the word as in
	 C4, so that among readers whose races are rare a claim lasts one
	 window, instead of passing from processor to processor.
     C2  A thread on another processor, within the window (a quarter
	 of the lock's hand-off threshold, 5 ms by default) of the last
	 claim, takes no fast path and does not spin; in the sleep
	 loop, if it is not the requester, the word is owned by
	 readers (even ones it could join) or by a writer that another
	 waiter sleeps for (FUTEX_WAITERS), and nobody is registered,
	 it sleeps on no lock word until the window ends, but not past
	 its registration time nor its timeout.  A free word it takes
	 at once (nobody's cache line is lost by it).  A writer's word
	 that nobody sleeps for is no queue: the thread sleeps on the
	 word, so that the release wakes it, instead of leaving its
	 processor idle for the window (figures at the phase-fair
	 rwlock's P2, which shares the rule).
     C3  The requester ignores HOME: hand-off rotates the lock to the
	 other processors at least once per threshold.
     C4  A thread that takes the word in the slow path without having
	 waited, while HOME names another processor (it found the word
	 free, or the window had ended), clears HOME: the lock is not
	 saturated, and the fast paths stop sending threads to the slow
	 path.
     C5  A reader whose fast-path CAS failed (the word changed between
	 its load and its CAS: another processor is using it) counts the
	 race when it gets the read lock.  When its last
	 TPRW_RACES_TO_CLAIM races came within TPRW_OPS_PER_RACE times as
	 many of its fast-path read locks, it claims HOME as C1.  Readers
	 never wait for readers, so without C5 a read-only lock had no
	 home, and both processors moved its word at every lock and
	 unlock: 0.81-0.91 of the default rwlock's throughput at 100 %
	 reads without a gap, short and medium sections (make bench),
	 whose reader arrives with an atomic add that never fails.  What
	 tells the sections that lose to those moves from the ones that
	 gain from a second processor is the share of read locks that
	 race, not their rate: with no restriction (glibc.pthread.rseq=0,
	 100 % reads, no gap, 2 to 8 threads) 0.18-0.23 of them raced
	 with short sections and 0.0001-0.0023 with medium ones.  The
	 rule before counted 16 races for a free lock within 32 us, and a
	 reader that deferred claimed when it joined, so one claim kept
	 the restriction going: at 100 % reads, medium sections, no gap,
	 the TP rwlock read 0.73-0.80 of the default at 2 and 3 threads
	 in make bench, where two processors reading at once are 1.3
	 times as fast as one.  An A/B run of the two libcs (4
	 processes each, 100 % reads, no gap, 2 to 16 threads, README),
	 before -> after: medium sections 0.80-1.26 -> 0.89-1.07 of the
	 default rwlock, medians 0.92-1.02 -> 0.97 at every thread count;
	 short ones 1.73-3.64 -> 0.89-3.46, medians 2.91-3.40 ->
	 2.38-3.11: in one process of four (and in one of four of a
	 second run) no claim came, and short sections read 0.89-1.28:
	 the readers' CASes seldom failed there although the word moved
	 (not explained).  Without the claim after a window among readers
	 that race often, short sections at 8 and 16 threads fell to
	 0.9-1.4: the restriction lives on those claims.
   HOME is a hint: it delays attempts, and decides no ownership, so all
   its accesses are relaxed.  Readers claim it only by C5, and by C1
   after waiting for a writer, or for a window while C5 qualifies
   them.  Without
   rseq (the processor unknown) nobody claims or defers.  The deferral
   sleeps are on no futex word, so I2 is untouched, and they end at the
   registration time, so the starvation bound below holds as before.

   Reader bias (user-space path)
   -----------------------------
   Restriction keeps the word on one processor; with only readers
   that still costs the second processor's work, and each read lock
   and unlock still writes the word.  The reader bias (after BRAVO,
   Dice and Kogan, USENIX ATC 2019) lets readers leave the word alone
   while no writer comes:
     BIAS    = __writers_futex  1 while readers may read-lock through
			       the table, else 0
     INHIBIT = __pad3, __pad4   the CLOCK_MONOTONIC time (ns; low and
			       high half) before which no reader sets
			       BIAS again
     VISIBLE                    the process's table of visible readers:
			       TPRW_VISIBLE_SLOTS slots, one per 64
			       bytes, each 0 or the address of a lock
			       that a reader holds through it; a thread
			       uses slot (TID + hash of the lock's
			       address) mod TPRW_VISIBLE_SLOTS, so that
			       threads with nearby TIDs never share one
			       for the same lock
     B1  A reader that finds BIAS set publishes the lock in its slot
	 (CAS 0 -> lock), then loads BIAS again: still set, it holds a
	 read lock and never touched the word; clear, it empties the
	 slot and takes the word's way.  The thread records the slot (at
	 most TPRW_BIAS_HELD_MAX at once; with more, or with its slot
	 taken by another thread, it takes the word's way too).
     B2  Its unlock empties the slot.
     B3  A writer that owns the word (A0, by any path) and finds BIAS
	 set clears it and waits until no slot holds the lock (spinning,
	 then yielding: the reader may wait for our processor); then it
	 sets INHIBIT to the end of the wait plus TPRW_BIAS_INHIBIT times
	 its length.  A writer that holds such a read lock itself gets
	 EDEADLK (trywrlock EBUSY), a trywrlock that would wait EBUSY, a
	 timed writer whose time passes ETIMEDOUT; each sets BIAS again
	 (a reader may still be in its slot, and only a writer that sees
	 BIAS waits for it) and releases the word (R0 or the slow
	 release).
     B4  A reader that got the read lock after its fast-path CAS on the
	 word failed (a race: another processor uses the word, as in C5)
	 sets BIAS if INHIBIT has passed, for a private lock on the
	 user-space path.  So a lock that one thread uses never pays
	 B1's work (it never races); a process-shared lock never has
	 BIAS (another process's readers are not in our table); and the
	 kernel path keeps the word, which is the kernel's interface.
   G1 holds: B1 and B3 are the store-buffering pattern (reader: CAS its
   slot, full fence, load BIAS; writer: store BIAS = 0, full fence, load
   each slot), so at least one sees the other's store: the reader sees
   BIAS clear and backs out, or the writer sees the slot and waits for
   B2.  BIAS is set only by B4, by a reader that owns the word in read
   mode, or again by a writer that gives up in B3, before it releases
   the word; so a reader that sees it set after a revocation read it
   from a store that came after that writer's release of the word, or
   from the writer that gave up and never entered.  And BIAS is clear
   only while a writer waits in B3 or no slot holds a reader of the
   lock: the next writer skips B3 only then.  G3 holds: a writer waits only for the slot
   readers that published before its revocation (later ones back out
   and wait for the word it owns), and INHIBIT bounds the share of time
   that writers spend revoking to about 1/(TPRW_BIAS_INHIBIT + 1)
   (BRAVO's bound).  A thread that exits or forks while it holds a read
   lock through a slot leaves the lock read-locked, as through the
   word.

   Starvation bound: a waiter registers after the threshold (its sleeps
   are bounded so that it does, as the mutex's I7); then the current
   owner's release grants it the lock (I3), or, for a reader-owned lock,
   the release of the last of the present readers, none of which can be
   joined (W is set).  One requester at a time; the others register after
   it has been served.

   Kernel path
   -----------
   The same transitions are the kernel's, on the same word: writers
   call FUTEX_LOCK (after A0 failed) and FUTEX_UNLOCK (after R0 failed);
   readers call FUTEX_LOCK_SHARED after A1 failed, and the last reader of
   a word with W set replaces SH|1|W by SH|SU|W (count 0) and calls
   FUTEX_UNLOCK_SHARED, so that no reader joins a lock that is being
   released.  The kernel queues waiters (readers as a group), spins while
   a writer owner runs and for a bounded time on a reader-owned word, and
   hands off after its own threshold.  HAND is not used.

   Memory order
   ------------
   - A0 and A1 CAS, acquire: pair with the release of R0/R1/R2 of the
     previous owner (for a joining reader: with the release RMW that
     ended the last write phase, extended by the readers' RMWs, which
     continue its release sequence).
   - R0 CAS, R1 exchange and R2 CAS, release: pair with A0/A1 and with
     the requester's acquire load of the word.
   - A2 relaxed: it publishes nothing; FUTEX_WAIT re-checks the value.
   - HAND relaxed, as the mutex's hand-off word (tp-wait.h): a reader
     requester relies on a grant only together with TPRW_SHARED in a
     word it loaded with acquire, and the word is reader-owned then only
     by R2 (release) or by the releasing last reader, whose read section
     need not be ordered before ours; a writer requester's grant is its
     TID in the word, stored by R2 (release).  H2 and H3 are RMWs of
     HAND, so exactly one succeeds (I4).  The spinner bit is set and
     cleared by relaxed RMWs that keep the other bits.
   - Kernel calls: the kernel's cmpxchg on the word is a full barrier; an
     acquire fence after FUTEX_LOCK/FUTEX_LOCK_SHARED returns makes the
     pairing explicit, and the SU CAS before FUTEX_UNLOCK_SHARED is
     release.
   - __cur_writer is written and read only by the writer while it owns
     the lock (relaxed), as in pthread_rwlock_common.c.
   - HOME relaxed: a hint (C1..C4), never read to decide ownership.
   - B1: the slot's CAS acquire, then tp_fence_after_rmw (tp-fence.h: a
     seq_cst fence, which x86_64's locked CAS already is), then BIAS
     loaded with acquire MO, which pairs with B4's release store: the
     writer that last owned the word released it before the B4 reader
     took its read lock, so its section happens before ours.  The first
     load of BIAS is relaxed: a hint, checked again.  Emptying the slot
     after a failed B1 is relaxed: no read section to publish.
   - B2 release store: pairs with B3's acquire loads of the slot, so
     our read section happens before the writer's section.
   - B3: relaxed store of BIAS, then a seq_cst fence (the other half of
     the store-buffering pattern), then acquire loads of the slots.
     Its load of BIAS before that is relaxed: a B4 store was made by a
     reader that released the word before we took it (A0 acquire).
   - INHIBIT relaxed: written by a writer owning the word, read by B4
     owning it in read mode; the word orders them.  */

#define TPRW_WORD(l)	(&(l)->__data.__readers)
#define TPRW_HAND(l)	(&(l)->__data.__writers)
#define TPRW_HOME(l)	(&(l)->__data.__wrphase_futex)

static inline int
tprw_private (pthread_rwlock_t *rwlock)
{
  return rwlock->__data.__shared != 0 ? FUTEX_SHARED : FUTEX_PRIVATE;
}

static inline bool
tprw_self_is_writer (pthread_rwlock_t *rwlock, pid_t tid)
{
  return atomic_load_relaxed (&rwlock->__data.__cur_writer) == tid;
}

/* Kernel support for all four operations: 0 not probed, 1 yes, -1 no
   (or the user-space path forced).  */
static int tprw_kernel;

static bool
tprw_use_kernel (void)
{
  /* Relaxed MO: as tp_use_kernel.  */
  int k = atomic_load_relaxed (&tprw_kernel);
  if (__glibc_likely (k != 0))
    return k > 0;
  k = tp_use_kernel () && tp_futex_kernel_probe_shared () ? 1 : -1;
  atomic_store_relaxed (&tprw_kernel, k);
  return k > 0;
}

/* A0 or A1 once.  Acquire MO: see the design comment.  */
static inline bool
tprw_try_take (unsigned int *word, unsigned int *v, bool reader, pid_t tid)
{
  return (tprw_can_take (*v, reader)
	  && atomic_compare_exchange_weak_acquire (word, v,
						   tprw_taken (*v, reader,
							       tid)));
}

/* C5: a reader claims HOME when its last TPRW_RACES_TO_CLAIM races came
   within TPRW_OPS_PER_RACE times as many read locks.  */
#define TPRW_RACES_TO_CLAIM 64
#define TPRW_OPS_PER_RACE 16

/* The calling thread's read locks on the user-space path's fast paths,
   and its recent races (C5): their count, and the read locks counted
   when the first of them came.  The thread's own, so that counting them
   moves no cache line.  */
static __thread struct
{
  unsigned int ops;
  unsigned int count;
  unsigned int since;
  /* Whether the last TPRW_RACES_TO_CLAIM races qualified for a claim:
     then the thread also claims when it takes the word after waiting
     only for another processor's window (C1).  */
  bool hot;
} tprw_races;

/* The TP core's view of RWLOCK, for a reader (READER) or a writer.  */
static inline void
tprw_ref (struct tp_lock_ref *l, pthread_rwlock_t *rwlock, bool reader)
{
  l->word = TPRW_WORD (rwlock);
  l->handoff = TPRW_HAND (rwlock);
  l->private = tprw_private (rwlock);
  l->handoff_enabled = true;
  l->handoff_us = TPRW_HANDOFF_MUL * __pthread_mutex_tp_config.handoff_us;
  l->backoff_us = __pthread_mutex_tp_config.handoff_us;
  l->home_window = TPRW_HANDOFF_MUL * tp_core_home_window ();
  l->pshared = rwlock->__data.__shared != 0;
  l->rwlock = true;
  l->reader = reader;
  l->home = TPRW_HOME (rwlock);
  l->claim_after_window = !reader || tprw_races.hot;
  l->probe_home = false;
}

/* The user-space slow path of rdlock (READER) and wrlock: the TP core
   (tp-core.h), which never returns EOWNERDEAD for an rwlock word (only
   the kernel path sets FUTEX_OWNER_DIED, and the core takes no word
   that has it).  */
static int
tprw_lock_user (pthread_rwlock_t *rwlock, bool reader, pid_t tid,
		clockid_t clockid, const struct __timespec64 *abstime)
{
  struct tp_lock_ref l;
  tprw_ref (&l, rwlock, reader);
  return tp_core_lock (&l, tid, clockid, abstime);
}

/* The kernel slow path of rdlock (READER) and wrlock.  Returns 1 if the
   kernel turned out not to have the operations (the caller then takes
   the user-space path).  */
static int
tprw_lock_kernel (pthread_rwlock_t *rwlock, bool reader, pid_t tid,
		  clockid_t clockid, const struct __timespec64 *abstime)
{
  int op = __lll_private_flag (reader ? TP_FUTEX_LOCK_SHARED : TP_FUTEX_LOCK,
			       tprw_private (rwlock));
  int r = tp_kernel_lock (TPRW_WORD (rwlock), op, !reader, tid, clockid,
			  abstime);
  switch (r)
    {
    case EOWNERDEAD:
      /* A writer died holding the lock (undefined behaviour for a
	 rwlock); the kernel gave us the word.  */
      return 0;
    case ENOSYS:
      atomic_store_relaxed (&tprw_kernel, -1);
      return 1;
    default:
      return r;
    }
}

static int
tprw_lock_slow (pthread_rwlock_t *rwlock, bool reader, pid_t tid,
		clockid_t clockid, const struct __timespec64 *abstime)
{
  if (tprw_use_kernel ())
    {
      int r = tprw_lock_kernel (rwlock, reader, tid, clockid, abstime);
      if (r != 1)
	return r;
    }
  return tprw_lock_user (rwlock, reader, tid, clockid, abstime);
}

/* C5: the caller took a read lock of RWLOCK after its CAS had failed (a
   race).  Only on the user-space path, which alone defers to HOME and
   clears it (C2, C4).  */
static inline void
tprw_note_race (pthread_rwlock_t *rwlock)
{
  if (tprw_use_kernel ())
    return;
  if (tprw_races.count++ == 0)
    tprw_races.since = tprw_races.ops;
  if (tprw_races.count >= TPRW_RACES_TO_CLAIM)
    {
      tprw_races.count = 0;
      tprw_races.hot = (tprw_races.ops - tprw_races.since
			<= TPRW_RACES_TO_CLAIM * TPRW_OPS_PER_RACE);
      if (tprw_races.hot)
	tp_home_claim (TPRW_HOME (rwlock), tp_now_ns (CLOCK_MONOTONIC));
    }
}

/* The reader bias (B1..B4 in the design comment).  */
#define TPRW_BIAS(l)		(&(l)->__data.__writers_futex)
#define TPRW_INHIBIT_LOW(l)	(&(l)->__data.__pad3)
#define TPRW_INHIBIT_HIGH(l)	(&(l)->__data.__pad4)

/* The visible readers' table: enough slots that the threads of a
   process with consecutive TIDs never share one for the same lock up
   to this many threads, and few enough that B3 scans it in about a
   microsecond.  */
#define TPRW_VISIBLE_SLOTS	256
/* The read locks a thread may hold through slots at once.  */
#define TPRW_BIAS_HELD_MAX	4
/* After a revocation, no bias for this many times its duration.  */
#define TPRW_BIAS_INHIBIT	16
/* B3 spins this many rounds on a slot before it yields.  */
#define TPRW_BIAS_SPIN_ROUNDS	256

/* One slot per 64 bytes, so that a reader's slot shares its cache line
   with no other slot (on powerpc64, with one other).  */
static struct
{
  uintptr_t lock;
  char pad[64 - sizeof (uintptr_t)];
} tprw_visible[TPRW_VISIBLE_SLOTS] __attribute__ ((aligned (64)));

/* The slots through which the calling thread holds read locks.  */
static __thread struct
{
  unsigned int count;
  unsigned short int slot[TPRW_BIAS_HELD_MAX];
} tprw_bias_held;

/* The slot of the thread TID for RWLOCK: threads with consecutive TIDs
   get consecutive slots, and so do locks next to each other in memory
   (a lock is 8-byte aligned; the page bits are mixed in so that locks
   a multiple of 2 KiB apart get different slots too).  */
static inline unsigned int
tprw_visible_slot (pthread_rwlock_t *rwlock, pid_t tid)
{
  uintptr_t a = (uintptr_t) rwlock;
  return (((unsigned int) tid + (unsigned int) ((a >> 3) ^ (a >> 12)))
	  % TPRW_VISIBLE_SLOTS);
}

/* B1: try to read-lock RWLOCK, whose BIAS the caller found set, through
   the calling thread's slot.  */
static inline bool
tprw_bias_rdlock (pthread_rwlock_t *rwlock)
{
  unsigned int n = tprw_bias_held.count;
  if (__glibc_unlikely (n == TPRW_BIAS_HELD_MAX))
    return false;
  unsigned int i = tprw_visible_slot (rwlock,
				      THREAD_GETMEM (THREAD_SELF, tid));
  uintptr_t expected = 0;
  /* Relaxed MO would do for the CAS itself: the fence after it orders
     it before the load of BIAS (the store-buffering pattern with B3),
     and that load's acquire MO orders our read section.  */
  if (!atomic_compare_exchange_weak_acquire (&tprw_visible[i].lock,
					     &expected, (uintptr_t) rwlock))
    return false;
  tp_fence_after_rmw ();
  /* Acquire MO pairs with the release store of B4.  */
  if (__glibc_unlikely (atomic_load_acquire (TPRW_BIAS (rwlock)) == 0))
    {
      /* A writer revoked the bias: we entered no read section, so the
	 slot publishes nothing (relaxed MO).  */
      atomic_store_relaxed (&tprw_visible[i].lock, 0);
      return false;
    }
  tprw_bias_held.slot[n] = i;
  tprw_bias_held.count = n + 1;
  return true;
}

/* The index in tprw_bias_held of the caller's slot that holds RWLOCK,
   or -1.  A slot that we filled holds what we stored until we empty it
   (relaxed MO: our own store).  */
static inline int
tprw_bias_held_index (pthread_rwlock_t *rwlock)
{
  for (unsigned int j = 0; j < tprw_bias_held.count; j++)
    if (atomic_load_relaxed (&tprw_visible[tprw_bias_held.slot[j]].lock)
	== (uintptr_t) rwlock)
      return j;
  return -1;
}

static int tprw_wrunlock (pthread_rwlock_t *rwlock, pid_t tid);

/* B3: the writer TID owns the word of RWLOCK and found BIAS set.
   Returns 0 once no slot holds RWLOCK, with TID recorded as the writer;
   else, with the word released, EDEADLK if TID holds a slot (EBUSY if
   TRY); EBUSY if another thread does and TRY; ETIMEDOUT if another
   thread still does at ABSTIME on CLOCKID (NULL: no timeout).  */
static int __attribute_noinline__
tprw_bias_revoke (pthread_rwlock_t *rwlock, pid_t tid, clockid_t clockid,
		  const struct __timespec64 *abstime, bool try)
{
  if (tprw_bias_held_index (rwlock) >= 0)
    {
      tprw_wrunlock (rwlock, tid);
      return try ? EBUSY : EDEADLK;
    }
  /* Relaxed MO, then a seq_cst fence: the store-buffering pattern with
     B1's CAS, fence and load of BIAS.  */
  atomic_store_relaxed (TPRW_BIAS (rwlock), 0);
  atomic_thread_fence_seq_cst ();
  int64_t start = tp_now_ns (CLOCK_MONOTONIC);
  int r = 0;
  for (unsigned int i = 0; i < TPRW_VISIBLE_SLOTS && r == 0; i++)
    /* Acquire MO pairs with the release store of B2.  */
    for (int round = 0;
	 atomic_load_acquire (&tprw_visible[i].lock) == (uintptr_t) rwlock;
	 round++)
      {
	if (try)
	  {
	    r = EBUSY;
	    break;
	  }
	if (round < TPRW_BIAS_SPIN_ROUNDS)
	  {
	    tp_spin_relax ();
	    continue;
	  }
	if (abstime != NULL && tp_now_ns (clockid) >= tp_ns (abstime))
	  {
	    r = ETIMEDOUT;
	    break;
	  }
	/* The reader may wait for our processor.  */
	__sched_yield ();
      }
  tp_spin_done ();
  if (r != 0)
    {
      /* A reader may still be in its slot: set BIAS again, so that the
	 next writer waits for it too (without this, a writer after a
	 timed-out one took the word with BIAS clear and entered beside
	 the reader: models/tp_rwlock.pml, mutant BROKEN_B3_GIVEUP).  We
	 own the word, as B4's readers do.  Release MO: see B4.  */
      atomic_store_release (TPRW_BIAS (rwlock), 1);
      tprw_wrunlock (rwlock, tid);
      return r;
    }
  /* The word orders INHIBIT between its writers and the readers of B4
     (relaxed MO).  */
  int64_t end = tp_now_ns (CLOCK_MONOTONIC);
  uint64_t until = end + TPRW_BIAS_INHIBIT * (end - start);
  atomic_store_relaxed (TPRW_INHIBIT_LOW (rwlock), (unsigned int) until);
  atomic_store_relaxed (TPRW_INHIBIT_HIGH (rwlock),
			(unsigned int) (until >> 32));
  atomic_store_relaxed (&rwlock->__data.__cur_writer, tid);
  return 0;
}

/* B4: the caller holds a read lock of RWLOCK through the word, taken
   after a race.  */
static void
tprw_bias_enable (pthread_rwlock_t *rwlock)
{
  if (atomic_load_relaxed (TPRW_BIAS (rwlock)) != 0
      || rwlock->__data.__shared != 0 || tprw_use_kernel ())
    return;
  uint64_t until
    = ((uint64_t) atomic_load_relaxed (TPRW_INHIBIT_HIGH (rwlock)) << 32
       | atomic_load_relaxed (TPRW_INHIBIT_LOW (rwlock)));
  if ((uint64_t) tp_now_ns (CLOCK_MONOTONIC) >= until)
    /* Release MO: see B1.  */
    atomic_store_release (TPRW_BIAS (rwlock), 1);
}

/* rdlock's way when the word cannot be joined now.  */
static int
tprw_rdlock_slow (pthread_rwlock_t *rwlock, pid_t tid, clockid_t clockid,
		  const struct __timespec64 *abstime)
{
  if (tprw_self_is_writer (rwlock, tid))
    return EDEADLK;
  return tprw_lock_slow (rwlock, true, tid, clockid, abstime);
}

/* rdlock's CAS failed, and the word is now V.  A1 while the word stays
   joinable: a CAS that another reader's arrival or departure made fail
   is retried here, not sent to the slow path (at 100 % reads without
   gaps that took the TP rwlock from 0.87-0.96 of the default rwlock's
   throughput to 0.95-1.06 in make bench, when it still timed each lock
   call), and the race counted (C5).  Out of line, as the clock's time
   structure (read for a claim) would give the fast path a frame.
   Acquire MO: see the design comment.  */
static int __attribute_noinline__
tprw_rdlock_raced (pthread_rwlock_t *rwlock, unsigned int v, pid_t tid,
		   clockid_t clockid, const struct __timespec64 *abstime)
{
  while (tprw_can_take (v, true)
	 && !tp_home_elsewhere (TPRW_HOME (rwlock)))
    if (atomic_compare_exchange_weak_acquire (TPRW_WORD (rwlock), &v,
					      tprw_taken (v, true, tid)))
      {
	++tprw_races.ops;
	tprw_note_race (rwlock);
	tprw_bias_enable (rwlock);
	return 0;
      }
  return tprw_rdlock_slow (rwlock, tid, clockid, abstime);
}

int
__pthread_rwlock_tp_rdlock (pthread_rwlock_t *rwlock, clockid_t clockid,
			    const struct __timespec64 *abstime)
{
  if (__glibc_unlikely (!tp_valid_rwlock_timeout (clockid, abstime)))
    return EINVAL;
  /* B1.  Relaxed MO: a hint, loaded again after the slot's CAS.
     Expected clear, so that the word's path, that of every lock no
     reader races for, falls through; the slot's path costs more than
     a taken branch anyway.  */
  if (__glibc_unlikely (atomic_load_relaxed (TPRW_BIAS (rwlock)) != 0)
      && tprw_bias_rdlock (rwlock))
    return 0;
  unsigned int v = atomic_load_relaxed (TPRW_WORD (rwlock));
  /* A1.  Acquire MO: see the design comment.  A reader's A1 does not
     store our TID, so the fast path leaves it to the slow ones (one
     register less: no frame).  */
  if (!tprw_can_take (v, true) || tp_home_elsewhere (TPRW_HOME (rwlock)))
    return tprw_rdlock_slow (rwlock, THREAD_GETMEM (THREAD_SELF, tid),
			     clockid, abstime);
  if (atomic_compare_exchange_weak_acquire (TPRW_WORD (rwlock), &v,
					    tprw_taken (v, true, 0)))
    {
      ++tprw_races.ops;
      return 0;
    }
  return tprw_rdlock_raced (rwlock, v, THREAD_GETMEM (THREAD_SELF, tid),
			    clockid, abstime);
}

/* The writer TID has taken the word of RWLOCK: B3 if BIAS is set (as
   tprw_bias_revoke), then TID is recorded as the writer.  */
static __always_inline int
tprw_wrlock_taken (pthread_rwlock_t *rwlock, pid_t tid, clockid_t clockid,
		   const struct __timespec64 *abstime, bool try)
{
  /* Relaxed MO: B4 stored BIAS while it owned the word, which we own
     now.  */
  if (__glibc_unlikely (atomic_load_relaxed (TPRW_BIAS (rwlock)) != 0))
    return tprw_bias_revoke (rwlock, tid, clockid, abstime, try);
  atomic_store_relaxed (&rwlock->__data.__cur_writer, tid);
  return 0;
}

/* wrlock's way when A0 failed or the lock's home is another processor.
   Out of line, with every other call of wrlock a tail call, so that the
   fast path saves no register (it saved six, and before hook patch 0021
   pthread_rwlock_wrlock saved six more on the way to us: 109
   instructions per uncontended pair, 72 now; callgrind as below).  */
static int __attribute_noinline__
tprw_wrlock_slow (pthread_rwlock_t *rwlock, pid_t tid, clockid_t clockid,
		  const struct __timespec64 *abstime)
{
  if (tprw_self_is_writer (rwlock, tid))
    return EDEADLK;
  int r = tprw_lock_slow (rwlock, false, tid, clockid, abstime);
  if (r != 0)
    return r;
  return tprw_wrlock_taken (rwlock, tid, clockid, abstime, false);
}

int
__pthread_rwlock_tp_wrlock (pthread_rwlock_t *rwlock, clockid_t clockid,
			    const struct __timespec64 *abstime)
{
  if (__glibc_unlikely (!tp_valid_rwlock_timeout (clockid, abstime)))
    return EINVAL;
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);
  unsigned int expected = 0;
  /* A0.  Acquire MO, see the design comment.  */
  if (tp_home_elsewhere (TPRW_HOME (rwlock))
      || !atomic_compare_exchange_weak_acquire (TPRW_WORD (rwlock),
						&expected, tid))
    return tprw_wrlock_slow (rwlock, tid, clockid, abstime);
  return tprw_wrlock_taken (rwlock, tid, clockid, abstime, false);
}

int
__pthread_rwlock_tp_tryrdlock (pthread_rwlock_t *rwlock)
{
  unsigned int *word = TPRW_WORD (rwlock);
  /* B1, as in rdlock.  */
  if (__glibc_unlikely (atomic_load_relaxed (TPRW_BIAS (rwlock)) != 0)
      && tprw_bias_rdlock (rwlock))
    return 0;
  unsigned int v = atomic_load_relaxed (word);
  for (;;)
    {
      if (tprw_try_take (word, &v, true, 0))
	return 0;
      if (tprw_full (v))
	return EAGAIN;
      if (!tprw_can_take (v, true))
	return EBUSY;
      /* The CAS failed: V is the new value, try again.  */
    }
}

int
__pthread_rwlock_tp_trywrlock (pthread_rwlock_t *rwlock)
{
  unsigned int *word = TPRW_WORD (rwlock);
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);
  unsigned int v = atomic_load_relaxed (word);
  for (;;)
    {
      if (tprw_try_take (word, &v, false, tid))
	/* B3, as in wrlock, but without waiting.  */
	return tprw_wrlock_taken (rwlock, tid, 0, NULL, true);
      if (!tprw_can_take (v, false))
	return EBUSY;
    }
}

/* R1 or R2 of the word, which we own (as the writer or the last reader)
   with W set: user-space path, the TP core.  */
static void
tprw_release_user (pthread_rwlock_t *rwlock)
{
  struct tp_lock_ref l;
  tprw_ref (&l, rwlock, false);
  tp_core_release (&l);
}

/* The slow paths of the unlocks are out of line, so that their fast
   paths (R0) set up no frame, neither for the core's lock reference nor
   for the kernel path's registers (with the stack protector, 107
   instructions per uncontended read lock and unlock when the user-space
   release was inline, 100 with it out of line and C5's single CAS, 90
   with every slow path out of line and no TID in the read lock's fast
   path, 90 with the word loaded in the unlock (82 with a guess of it,
   given up: tprw_rdunlock); the default rwlock 94: callgrind on
   tests/callgrind/lock-fastpath.c rwlock-rd with
   GLIBC_TUNABLES=glibc.pthread.rwlock_kind=4).  The reader bias's two
   tests on the word's path (BIAS in the read lock, the thread's count
   of slots in the unlock) took that to 99, with B2 inline, for which
   the unlock saved a register; with B2 out of line (tprw_bias_rdunlock)
   it is 98, and 90 since pthread_rwlock_rdlock saves no registers
   before its dispatch to us (the default rwlock 95).  */

/* The writer's release of the word after R0's CAS failed: W is set (or
   the CAS failed spuriously: then the release is merely slower).  */
static void __attribute_noinline__
tprw_wrunlock_slow (pthread_rwlock_t *rwlock)
{
  if (tprw_use_kernel ())
    {
      TP_STAT_INC (TP_STAT_KERNEL_UNLOCKS);
      tp_kernel_unlock (TPRW_WORD (rwlock),
			__lll_private_flag (TP_FUTEX_UNLOCK,
					    tprw_private (rwlock)));
      return;
    }
  tprw_release_user (rwlock);
}

static int
tprw_wrunlock (pthread_rwlock_t *rwlock, pid_t tid)
{
  unsigned int expected = tid;

  atomic_store_relaxed (&rwlock->__data.__cur_writer, 0);
  /* R0.  Release MO pairs with A0/A1.  */
  if (!atomic_compare_exchange_weak_release (TPRW_WORD (rwlock), &expected,
					     0))
    tprw_wrunlock_slow (rwlock);
  return 0;
}

/* The last reader's release of the word, which was V (SH|1|W).
   Returns 0, or -1 if the word changed meanwhile: look again.  */
static int __attribute_noinline__
tprw_rdunlock_last (pthread_rwlock_t *rwlock, unsigned int v)
{
  if (tprw_use_kernel ())
    {
      /* SH|1|W -> SH|SU|W, then the kernel releases.  Release MO as
	 for R0.  */
      if (!atomic_compare_exchange_weak_release
	  (TPRW_WORD (rwlock), &v, (v - 1) | TPRW_SHARED_UNLOCK))
	return -1;
      TP_STAT_INC (TP_STAT_KERNEL_UNLOCKS);
      tp_kernel_unlock (TPRW_WORD (rwlock),
			__lll_private_flag (TP_FUTEX_UNLOCK_SHARED,
					    tprw_private (rwlock)));
      return 0;
    }
  tprw_release_user (rwlock);
  return 0;
}

static __always_inline int
tprw_rdunlock (pthread_rwlock_t *rwlock)
{
  unsigned int *word = TPRW_WORD (rwlock);
  /* The word, loaded rather than guessed.  The dispatcher's load of the
     lock's kind and our load of __cur_writer have already brought the
     line here (unless the lock straddles two lines), so the load costs
     no transfer; a guess of the lone reader's word (SH|1) saved 8
     instructions per uncontended pair but failed whenever readers
     shared the lock, and its failed CAS, a third atomic operation per
     read, took the line from the other processor once more: with both
     processors reading (100 % reads, long sections, no gap) the TP
     rwlock ran at 0.976-0.981 of the default rwlock with the guess and
     0.996-1.013 without it, at 2 to 16 threads, while 5*10^7
     uncontended pairs took 0.69 s either way (the default 0.74-0.77):
     see README.  Relaxed MO: the value is only the expected one of R0's
     CAS, which orders.  */
  unsigned int v = atomic_load_relaxed (word);

  for (;;)
    {
      if ((v & TPRW_SHARED) == 0 || (v & TPRW_COUNT_MASK) == 0)
	/* Not read-locked: the caller holds no lock.  */
	return EPERM;
      if ((v & TPRW_COUNT_MASK) > 1 || (v & FUTEX_WAITERS) == 0)
	{
	  /* R0.  Release MO: our read section happens before the next
	     writer's critical section (A0 acquire).  */
	  unsigned int n = (v & TPRW_COUNT_MASK) > 1 ? v - 1 : 0;
	  if (atomic_compare_exchange_weak_release (word, &v, n))
	    return 0;
	  continue;
	}
      if (tprw_rdunlock_last (rwlock, v) == 0)
	return 0;
      v = atomic_load_relaxed (word);
    }
}

/* The read unlock of a thread that holds read locks through slots: B2
   if one of them is of RWLOCK, else R0..R2 on the word.  Out of line,
   so that the unlock of a thread without slots, which releases the
   word, saves no register for the call.  */
static int __attribute_noinline__
tprw_bias_rdunlock (pthread_rwlock_t *rwlock)
{
  int j = tprw_bias_held_index (rwlock);
  if (j < 0)
    return tprw_rdunlock (rwlock);
  unsigned int n = tprw_bias_held.count - 1;
  /* B2.  Release MO: our read section happens before the section of
     the writer whose acquire load in B3 sees the slot empty.  */
  atomic_store_release (&tprw_visible[tprw_bias_held.slot[j]].lock, 0);
  tprw_bias_held.slot[j] = tprw_bias_held.slot[n];
  tprw_bias_held.count = n;
  return 0;
}

int
__pthread_rwlock_tp_unlock (pthread_rwlock_t *rwlock)
{
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);
  /* As in pthread_rwlock_unlock.c: only we can have stored our TID.  */
  if (tprw_self_is_writer (rwlock, tid))
    return tprw_wrunlock (rwlock, tid);
  if (__glibc_unlikely (tprw_bias_held.count != 0))
    return tprw_bias_rdunlock (rwlock);
  return tprw_rdunlock (rwlock);
}
