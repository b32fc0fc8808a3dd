/* Throughput-optimized (TP) mutex: the common lock operation.
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
#include <stdint.h>
#include <time.h>
#include <pthreadP.h>
#include <atomic.h>
#include <futex-internal.h>
#include <tp-futex.h>
#include <tp-spin.h>
#include <tp-wait.h>
#include <tp-core.h>
#include <stap-probe.h>
#include <single-thread.h>

/* A mutex whose __kind has PTHREAD_MUTEX_THROUGHPUT_NP set (protocol
   PTHREAD_THROUGHPUT_NP) is a TP mutex.  The lock and unlock fast paths
   of pthread_mutex_lock.c and pthread_mutex_unlock.c see a kind bit that
   is not a plain type and take their out-of-line branch, where one
   dispatch line sends TP mutexes to __pthread_mutex_tp_lock (or
   __pthread_mutex_tp_cond_lock for the condition variable's relock) and
   __pthread_mutex_tp_unlock, before __pthread_mutex_lock_full and its
   prologue.  Trylock dispatches in the default case of its switch and
   clocklock at the top of __pthread_mutex_clocklock_common.

   Guarantees
   ----------
   G1  Mutual exclusion, for every type (normal, recursive, errorcheck,
       adaptive), robust or not, process-private or process-shared.
   G2  Throughput: a lock that comes free may be taken by whichever thread
       gets there first (lock stealing): by a thread arriving on the fast
       path, by a spinning thread, or by a woken waiter.  No FIFO order.
   G3  Bounded starvation: a thread that has waited longer than the
       hand-off threshold (tunable glibc.pthread.mutex_tp_handoff_us,
       default 5000 us) registers as the hand-off requester; the next
       unlock that enters its slow path transfers ownership directly to
       it, so no thread can take the lock in between.  One requester at
       a time; other starving waiters register after it is served.
   G4  Robust mutexes: the death of the owner is reported as EOWNERDEAD
       to exactly one later locker, through the kernel's robust list;
       no waiter sleeps forever on a dead owner (see I6).
   G5  The word has the layout of the TP futex UAPI, so with a kernel
       that has FUTEX_LOCK/FUTEX_UNLOCK (probed once, see
       pthread_mutex_tp_conf.c) the same mutex is served by the kernel
       instead of the user-space protocol below.

   The futex word (__lock)
   -----------------------
     bits 0..29  FUTEX_TID_MASK    TID of the owner, 0 if free
     bit  30     FUTEX_OWNER_DIED  the owner died (set by the kernel)
     bit  31     FUTEX_WAITERS     a waiter may be asleep in the kernel
   In the user-space protocol OWNER_DIED is only ever set together with a
   zero TID: we clear it when we take such a word (the kernel path clears
   it right after FUTEX_LOCK returns).

   The hand-off word (the 32 bits at __spins; see tp_handoff_word)
   ---------------------------------------------------------------
     bits 0..21  TID of the registered hand-off requester, 0 if none
     bit  29     TP_HANDOFF_SPINNER  a thread spins on the word (S1)
     bit  31     TP_HANDOFF_GRANTED  an unlocker has committed to transfer
                 ownership to the requester
   Used only by the user-space protocol; the layout is tp-wait.h's.  Other fields: __owner is the
   owner's TID while locked (or the robust markers), __count the
   recursion depth while locked (1 for the non-recursive types too, so
   that unlock needs no type test), __nusers as for every mutex, __list
   the robust list linkage of a robust mutex, whose first 32 bits are
   the home word of any other (C1..C4, C6).  A TP mutex uses nothing else.

   States of the word (user-space protocol; T = some TID, t = caller)
   ------------------------------------------------------------------
     0        free
     T        owned by T, nobody sleeps
     T|W      owned by T, waiters may sleep (unlock must enter U1/U2)
     OD|[W]   free, previous owner died (robust only); next taker gets
              EOWNERDEAD

   Transitions
     T0  0 -> t               fast path CAS (lock, trylock)
     T1  0|[OD|W] -> t|[W]    spinner takes a free word (keeps W)
     T2  0|[OD|W] -> t|W      woken waiter takes a free word; it sets W
                              because other waiters may still sleep
     T3  T -> T|W             waiter announces itself before FUTEX_WAIT
     U0  t -> 0               unlock fast path CAS
     U1  t|W -> 0             unlock slow path exchange, then FUTEX_WAKE 1
     U2  t|W -> r|W           hand-off: ownership goes to the requester r,
                              then FUTEX_WAKE_BITSET of the requester's
                              mask (I5)
     K   T|[W] -> OD|[W]      the kernel's robust-list handling on T's
                              death; if W was set it issues one FUTEX_WAKE
   Hand-off word transitions
     H1  0 -> r               a waiter past the threshold registers
     H2  r -> 0               the requester withdraws (timeout); fails if
                              H3 happened first
     H3  r -> r|GRANTED       an unlocker in its slow path commits to U2
     H4  r|[GRANTED] -> 0     the requester, once it owns the lock (CAS:
                              the entry may meanwhile be someone else's)
     H5  r|[GRANTED] -> 0     an unlocker drops a stale registration (I8)

   Invariants
   ----------
   I1  Only the owner writes a TID into the word other than through
       T0/T1/T2 on a word whose TID is 0; T3 only adds W.  Hence a word
       holding the caller's TID means the caller owns the mutex.
   I2  W is set whenever a thread may be blocked in FUTEX_WAIT on the
       word: a waiter sleeps only with the expected value v|W (T3 first),
       so a release that does not see W (U0) cannot strand a sleeper;
       U1 clears W but wakes one waiter, which sets W again (T2).
   I3  At most one requester: H1 is a CAS from 0.  A thread never
       registers while it owns the mutex (self-deadlock of a normal
       mutex), so a grant never targets the owner.
   I4  After H3 succeeds the granting unlocker performs U2 (it owns the
       mutex, so nothing else can change the TID bits).  After H2
       succeeds no unlocker performs U2 for that registration.  So a
       requester that times out either withdraws cleanly or waits for the
       grant it can no longer refuse and returns success.
   I5  U2 wakes the requester and none of the waiters.  FUTEX_WAKE 1
       would wake whichever waiter the kernel queued first, so the
       requester sleeps with a FUTEX_WAIT_BITSET mask of its own
       (TP_WAIT_REQUESTER, in tp_core_sleep and tp_core_withdraw) and
       every other waiter with TP_WAIT_WAITER; U2 wakes the threads of
       the requester's mask.  At most one thread is registered (I3), so
       that is the requester if it sleeps; if it does not, it is about
       to look at the word, which U2 has changed to its TID (a FUTEX_WAIT
       on the old value fails).  All of that mask, not one: a requester
       whose GRANTED registration H5 dropped (I8: its granter died
       before U2) still sleeps with it until it gets the lock, and a
       wake of one could go to it, which finds the word owned by the new
       requester and sleeps again, while the new requester, which owns
       the mutex now, sleeps on.  The others stay asleep and announced
       (U2 keeps W): each would only find the word owned and sleep
       again, one context switch each, and with 16 threads on 2
       processors that herd cost every hand-off 15 wake-ups.  U1 and
       the kernel's wake at an owner's death match every mask.
   I6  Owner death (K) with waiters wakes one waiter; it finds TID 0 with
       OD set, takes the word (T2, EOWNERDEAD) and eventually releases it
       with U1 or U2, which wakes the next one; a sleeping requester is
       therefore woken at the latest by that grant or release.  Every
       waiter of a robust mutex waits with a shared futex, because the
       kernel's wake is shared.
   I8  A registration can outlive its requester: in the child after
       fork (the requester was another thread of the parent), or if the
       requester's process died (process-shared mutex), or if a granting
       unlocker's process died between H3 and U2.  An owner that sees a
       registration in its release therefore checks it (H5): a GRANTED
       one is always stale (a live requester clears H before it returns
       from the lock, H4, so before the current owner could get the
       lock), and one whose thread no longer exists (tgkill/tkill with
       signal 0 fails with ESRCH) or, for a process-shared mutex, is a
       zombie (its process was killed and not yet reaped: tkill accepts
       it, /proc/TID/stat shows it) is stale.  It drops it and releases
       normally (U1).  A requester whose registration was dropped while
       it waits for its grant accepts a free word as well (tp_core_withdraw).
       Limitations: for a robust mutex created process-private, the check
       cannot tell the parent's threads from the child's and a stale
       registration survives in the child after fork; and without /proc
       a zombie requester counts as alive, so an unlock before its
       reaping grants it the mutex, which then stays locked.
   I7  A registered requester that does not get woken (it may be the
       one FUTEX_WAKE 1 skipped) is still served: U1/U2 are taken by every
       unlock while W is set, and W stays set while the requester sleeps
       (I2); a non-requester bounds its sleep by its hand-off deadline so
       that it gets to register.

   Spin and wake policy (user-space protocol)
   ------------------------------------------
   Throughput on a contended lock comes from keeping the lock, and the
   data it protects, on the core that is running: every change of owner
   moves both cache lines, and every wake-up of a waiter that then finds
   the lock taken costs the owner a FUTEX_WAKE.  With more threads than
   cores, a spinner also takes a core from a thread that could run.
   S1  At most one thread spins on a lock: it claims TP_HANDOFF_SPINNER
       in the hand-off word first (tp_spin_claim); others go straight to
       sleep.  Nobody spins while W is set: waiters sleep announced, so
       more threads want the lock than run, and a spinner would take a
       core from the owner (or from the thread a wake-up makes runnable)
       and steal the lock in the window of the owner's waking release.
   S2  The spinner stops as soon as the lock changed hands under it, or
       came free and was taken again: the lock is busy where threads
       run, and competing for it would move it at every release.
   S3  The spinner takes a free word only once it has stayed free for
       the thread's grace, so that an owner that locks again at once
       keeps it (and a thread that got the lock by hand-off keeps it for
       more than one operation, which is what makes the hand-off fair).
       The grace is learnt per thread (tp_spin_learn): halved, down to
       taking the word at once, when the word stayed free for the whole
       grace (the owner had other work to do: waiting only left the lock
       idle), doubled, up to TP_SPIN_GRACE_MAX rounds, when the word was
       taken again while the spinner waited.  A fixed grace of 32 rounds
       cost 0.55-0.69x glibc's normal mutex at 4-16 threads with long
       critical sections and 1000 iterations between operations; none
       at all made the threads' shares of a no-gap run 2.5-7x apart.
   S4  The spin budget is the tunable at most, per thread: halved after
       each spin that ended in sleeping, raised by spins that won
       (tp_spin_budget, tp_spin_learn).
   B1  A waiter that a release woke (or whose FUTEX_WAIT found the word
       changed) and that finds the lock owned by another thread again
       does not announce itself at once: it sleeps for a back-off delay
       on no lock word (tp_backoff_sleep), starting at 1/128 of the
       hand-off threshold and doubling up to 1/4 of it, without setting
       W, so the owner's releases meanwhile stay on the fast path (U0).
       Then it looks again: it takes a free word (T2), and backs off
       again, twice as long, while the lock is owned, until its
       registration time (I7), when it announces itself (T3).  This
       replaces the convoy in which every release woke a waiter that
       went back to sleep at once; announcing after each back-off
       instead cost the owner a wake-up per back-off of every waiter,
       which with more threads than cores was most of its time.
   B2  Back-off never delays hand-off: its sleeps end at the waiter's
       registration time (I7); the registered requester never backs off
       (it keeps W set, I3); and no waiter backs off while a
       registration exists, because a woken waiter may be the only one
       left to set W again after U1 cleared it.
   B3  A waiter in back-off is in no futex queue of the word, so I2 is
       untouched; the announced sleepers that U1 left with W clear are
       bounded by their registration time (I7), after which they set W
       (T3) and register.  A free word that no release announces to
       anyone is found by the first back-off that ends (at most a
       quarter of the threshold later).
   B4  A waiter that finds the registration held by another tries again
       an eighth of the threshold later, not a whole threshold: the
       longest waiters then take the registration in turn, and newer
       waiters, whose registration time comes later, do not pass them.
   C1  A thread that takes the word in its slow path after waiting (it
       slept or deferred, or found the word owned when it began) makes
       its processor the mutex's home for a window of a quarter of the
       hand-off threshold (tp_core_note_taken; tp-home.h).
   C2  A thread on another processor that finds the word owned with W
       set within that window neither spins (but for C6's probe) nor
       announces itself: it sleeps on no word until the window ends, but
       no later than its registration time (I7), and never while a
       registration exists (tp_core_defer).  Meanwhile the owner's
       processor runs the lock, and the data it protects, from its own
       cache, and the owner's releases wake nobody for it.  A word owned
       without W has nobody asleep for it: the waiter sleeps on it as
       usual, so that the release wakes it (the home processor may have
       nothing else to run).
   C3  The fast paths ignore the home: a free word is taken wherever the
       caller runs, and an uncontended mutex pays nothing for C1..C6.
   C4  A thread that takes the word in its slow path without having
       waited clears a home of another processor.
   C6  Before C2, the thread on the other processor looks whether the
       home processor keeps the lock busy (tp_core_probe_home; C5 is the
       TP rwlock's): as the one spinner (S1, whatever W says), for at
       most its spin budget, it watches the word, timing each round.  If
       the word stays free for twice the longest round so far
       (TP_HOME_IDLE_TRANSFERS; the longest round is the one whose load
       took the line from the home processor, a cache-line transfer),
       the home processor leaves the lock idle between its operations,
       for long enough that a second processor can use it: the thread
       takes the word (T1) and drops the home, and both processors work.
       If the word is taken again sooner, or stays owned, the thread
       defers (C2), and having found the word owned it has waited (C1):
       if it then takes the word in its sleep loop, it claims the home
       rather than dropping it (C4), since the probe has just seen the
       home processor keep the lock busy.  With no time between
       operations the home processor relocks within about one transfer,
       and C6 leaves its claim alone.  Measuring in transfers, not in a
       fixed count of rounds, keeps the verdict where the host places
       the processors far apart: with a 123 ns round trip, a probe that
       took the word after four rounds (about 100 ns), and C4 after a
       probe that had not, dropped 67 of 80 busy homes in
       tst-mutex-tp-home (README).
       Without C6, with 1000 iterations in the critical section and
       1000 between two operations (bench-lock-contention cs=long
       lock-latency=1000), the home kept one processor idle (cpus busy
       0.92-1.17) and the mutex ran 0.76-1.05x glibc's normal mutex at 2
       to 16 threads; with it, 1.48-1.91 processors were busy and it
       ran 0.97-1.21x (medians of 3 processes in each of two A/B runs,
       README).
   The home word is a hint: it never decides who owns the mutex, so
   G1..G5 and I1..I8 hold whatever it says, and every access to it is
   relaxed.  A robust mutex has none (its __list is the robust list
   linkage), nor has a thread that does not know its processor (no
   rseq).  The TP rwlock and the phase-fair rwlock's writer role keep a
   home the same way (their C1..C4 and P1..P4).
   Together: a running owner keeps the lock for up to the hand-off
   threshold while the waiters sleep; then the longest waiter gets it by
   hand-off (G3).

   Memory order
   ------------
   - T0, T1, T2 CAS with acquire MO: pairs with the release MO of U0, U1
     or U2 of the previous owner, so the critical sections are ordered.
   - U0 CAS and U1 exchange with release MO: pair with T0/T1/T2.
   - U2 CAS with release MO: pairs with the acquire load of the word by
     the requester in its wait loop (tp_core_sleep / tp_core_withdraw).
   - T3 CAS relaxed: it publishes nothing; FUTEX_WAIT re-checks the value
     atomically with queueing, and the kernel orders FUTEX_WAKE after the
     unlocker's store (the usual futex argument, as for lll_lock).
   - H1..H5 relaxed but for H4 (release) and an acquire fence after a
     successful H1, which only the TP rwlock needs (its mark TPRW_GRANTED,
     cleared by a served reader before H4, must look clear to the next
     requester's reload after H1; nptl/pthread_rwlock_tp.c, I7).  For
     the mutex the hand-off word carries no data; the only ordering
     needed is that of the ownership transfer itself, which U2 (release)
     and the requester's acquire load of the word provide.  H2 and H3 are
     read-modify-writes of the same location, so exactly one of them
     succeeds whatever the memory order (I4).  The spinner bit (S1) is
     set and cleared with relaxed RMWs that keep the other bits, and the
     H transitions keep it (tp_handoff_replace): it orders nothing.
   - The kernel path: FUTEX_LOCK stores our TID with a full barrier; we
     still issue an acquire fence after it returns so that the pairing
     with the previous owner's release (U0 CAS or FUTEX_UNLOCK) is
     explicit.
   - The home word (C1..C4, C6) relaxed: a hint, never read to decide
     ownership (tp-home.h).
   - __owner, __count and __nusers are only written by the owner while it
     owns the mutex; their accesses are ordered by the word.  The robust
     markers in __owner (INCONSISTENT, NOTRECOVERABLE) are written before
     the releasing U0/U1/U2 and read after T0/T1/T2.

   Lock order: none; a TP mutex operation takes no other lock.  */

/* Returned by tp_lock_slow when a recursive mutex was relocked.  */
#define TP_RELOCKED (-1)

/* The caller's T0 failed: handle a mutex the caller already owns.
   Returns TP_RELOCKED, EAGAIN, EDEADLK, or 0 to go on locking (normal and
   adaptive mutexes deadlock, as POSIX requires for PTHREAD_MUTEX_NORMAL;
   a timed lock then times out).  */
static int
tp_lock_owned (pthread_mutex_t *mutex, int kind, pid_t tid)
{
  /* Relaxed MO: by I1 the word can only hold our TID if we stored it.  */
  unsigned int v = atomic_load_relaxed (tp_word (mutex));
  if ((v & FUTEX_TID_MASK) != (unsigned int) tid)
    return 0;
  switch (kind & PTHREAD_MUTEX_KIND_MASK_NP)
    {
    case PTHREAD_MUTEX_RECURSIVE_NP:
      if (__glibc_unlikely (mutex->__data.__count + 1 == 0))
	return EAGAIN;
      ++mutex->__data.__count;
      return TP_RELOCKED;
    case PTHREAD_MUTEX_ERRORCHECK_NP:
      return EDEADLK;
    default:
      return 0;
    }
}

/* The user-space slow path: the TP core (tp-core.h).  */
static int
tp_lock_user (pthread_mutex_t *mutex, int kind, pid_t tid,
	      clockid_t clockid, const struct __timespec64 *abstime)
{
  struct tp_lock_ref l;
  tp_mutex_ref (&l, mutex, kind);
  return tp_core_lock (&l, tid, clockid, abstime);
}

/* The kernel slow path: FUTEX_LOCK.  */
static int
tp_lock_kernel (pthread_mutex_t *mutex, int kind, pid_t tid,
		clockid_t clockid, const struct __timespec64 *abstime)
{
  int r = tp_kernel_lock (tp_word (mutex),
			  __lll_private_flag (TP_FUTEX_LOCK, tp_private (kind)),
			  true, tid, clockid, abstime);
  if (r != ENOSYS)
    return r;
  /* The kernel lost the operations (cannot happen after a successful
     probe, but be safe): use the user-space path.  */
  atomic_store_relaxed (&__pthread_mutex_tp_kernel, -1);
  return tp_lock_user (mutex, kind, tid, clockid, abstime);
}

/* T0 failed.  Returns 0 or EOWNERDEAD with the word owned by the caller,
   TP_RELOCKED, or an error.  */
static int
tp_lock_slow (pthread_mutex_t *mutex, int kind, pid_t tid,
	      clockid_t clockid, const struct __timespec64 *abstime)
{
  int r = tp_lock_owned (mutex, kind, tid);
  if (r != 0)
    return r;
  if (tp_use_kernel ())
    return tp_lock_kernel (mutex, kind, tid, clockid, abstime);
  return tp_lock_user (mutex, kind, tid, clockid, abstime);
}

/* The new owner's bookkeeping after it took the word (T0, T1 or T2):
   written while it owns the mutex, so ordered for the next owner by the
   word's release/acquire pairs.  OWNER is the caller's TID, or a robust
   marker.  __count only matters for recursive mutexes.  */
static __always_inline void
tp_note_owner (pthread_mutex_t *mutex, int owner, bool count_user)
{
  mutex->__data.__count = 1;
  mutex->__data.__owner = owner;
  if (count_user)
    ++mutex->__data.__nusers;
  LIBC_PROBE (mutex_acquired, 1, mutex);
}

int
__pthread_mutex_tp_robust_acquired (pthread_mutex_t *mutex, int kind,
				    pid_t tid, int result, bool count_user)
{
  if (__glibc_unlikely (mutex->__data.__owner
			== PTHREAD_MUTEX_NOTRECOVERABLE))
    {
      /* Unlocked without pthread_mutex_consistent while we waited.  Pass
	 the word on, so that every waiter learns it (I6).  */
      __pthread_mutex_tp_release (mutex, kind);
      THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending, NULL);
      return ENOTRECOVERABLE;
    }

  ENQUEUE_MUTEX (mutex);
  /* The list must be complete before list_op_pending is cleared; the
     kernel reads both only when this thread dies, so program order (a
     compiler barrier) is what we need, as in pthread_mutex_lock.c.  */
  __asm ("" ::: "memory");
  THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending, NULL);

  tp_note_owner (mutex, (result == EOWNERDEAD
			 ? PTHREAD_MUTEX_INCONSISTENT : tid), count_user);
  return result;
}

static int
tp_lock_robust (pthread_mutex_t *mutex, int kind, pid_t tid,
		clockid_t clockid, const struct __timespec64 *abstime,
		bool count_user)
{
  if (__glibc_unlikely (mutex->__data.__owner
			== PTHREAD_MUTEX_NOTRECOVERABLE))
    return ENOTRECOVERABLE;

  /* Announce the operation to the kernel before the word can hold our
     TID, so that our death at any point is repaired (K).  */
  THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending,
		 (void *) &mutex->__data.__list.__next);
  __asm ("" ::: "memory");

  int result = 0;
  unsigned int expected = 0;
  /* T0.  */
  if (!atomic_compare_exchange_weak_acquire (tp_word (mutex), &expected,
					     tid))
    result = tp_lock_slow (mutex, kind, tid, clockid, abstime);
  if (result != 0 && result != EOWNERDEAD)
    {
      THREAD_SETMEM (THREAD_SELF, robust_head.list_op_pending, NULL);
      return result == TP_RELOCKED ? 0 : result;
    }
  return __pthread_mutex_tp_robust_acquired (mutex, kind, tid, result,
					     count_user);
}

/* Everything but the uncontended lock of a non-robust mutex.  */
static int __attribute_noinline__
tp_lock_contended (pthread_mutex_t *mutex, int kind, pid_t tid,
		   clockid_t clockid, const struct __timespec64 *abstime,
		   bool count_user)
{
  if ((kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) != 0)
    return tp_lock_robust (mutex, kind, tid, clockid, abstime, count_user);

  int r = tp_lock_slow (mutex, kind, tid, clockid, abstime);
  if (r != 0)
    return r == TP_RELOCKED ? 0 : r;
  tp_note_owner (mutex, tid, count_user);
  return 0;
}

/* T0 and the new owner's bookkeeping, the fast path of every lock entry
   point.  Returns true if the caller now owns MUTEX.  */
static __always_inline bool
tp_lock_fast (pthread_mutex_t *mutex, int kind, pid_t tid, bool count_user)
{
  unsigned int *word = tp_word (mutex);
  unsigned int expected = 0;

  if (__glibc_unlikely ((kind & PTHREAD_MUTEX_ROBUST_NORMAL_NP) != 0))
    return false;
  /* T0.  In a process with one thread, no other thread can reach the
     word of a private mutex, so a plain store takes it when it is free,
     as glibc's normal mutex does (lll_mutex_lock_optimized): a
     lock-unlock pair cost 23-25 ns with the two atomic operations,
     11-16 ns with the plain stores, 7-12 ns for the normal mutex
     (tests/callgrind/lock-fastpath.c mutex-init, 10^8 pairs).  It adds
     instructions (79 a pair against 72 by callgrind, whose programs
     have one thread; the normal mutex 75).  No ordering is needed: a
     thread that pthread_create adds later sees the store through the
     creation, and from then on every lock and release is atomic (a
     process never has one thread again).  Otherwise acquire MO pairs
     with the release in U0/U1/U2.  The one-thread test is expected to
     fail, so that a process with threads, the one whose locks matter,
     falls through to the CAS: with the test laid out the other way,
     lock and unlock each took a branch to it and one back, and one
     thread with empty sections ran 0.90 of the normal mutex's
     throughput against 0.98 this way (bench-lock-contention, six
     processes of each build; README).  */
  if (__glibc_unlikely (SINGLE_THREAD_P)
      && (kind & PTHREAD_MUTEX_PSHARED_BIT) == 0
      && atomic_load_relaxed (word) == 0)
    atomic_store_relaxed (word, tid);
  else if (__glibc_unlikely (!atomic_compare_exchange_weak_acquire
			     (word, &expected, tid)))
    return false;
  tp_note_owner (mutex, tid, count_user);
  return true;
}

int
__pthread_mutex_tp_lock_common (pthread_mutex_t *mutex, clockid_t clockid,
				const struct __timespec64 *abstime,
				bool count_user)
{
  /* See concurrency notes regarding __kind in struct __pthread_mutex_s
     in sysdeps/nptl/bits/thread-shared-types.h.  */
  int kind = atomic_load_relaxed (&mutex->__data.__kind);
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);

  if (tp_lock_fast (mutex, kind, tid, count_user))
    return 0;
  return tp_lock_contended (mutex, kind, tid, clockid, abstime, count_user);
}

/* pthread_mutex_lock: __pthread_mutex_tp_lock_common without a timeout,
   specialized so that the fast path is a short leaf function with no
   arguments to set up, everything else a tail call.  */
int
__pthread_mutex_tp_lock (pthread_mutex_t *mutex)
{
  int kind = atomic_load_relaxed (&mutex->__data.__kind);
  pid_t tid = THREAD_GETMEM (THREAD_SELF, tid);

  if (tp_lock_fast (mutex, kind, tid, true))
    return 0;
  return tp_lock_contended (mutex, kind, tid, CLOCK_MONOTONIC, NULL, true);
}

/* __pthread_mutex_cond_lock: relock after a condition variable wait,
   which does not count __nusers.  */
int
__pthread_mutex_tp_cond_lock (pthread_mutex_t *mutex)
{
  return __pthread_mutex_tp_lock_common (mutex, CLOCK_MONOTONIC, NULL, false);
}
