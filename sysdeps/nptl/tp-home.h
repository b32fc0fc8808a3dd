/* The home processor of a saturated TP lock.
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

/* Concurrency restriction (the TP rwlock's C1..C4, nptl/pthread_rwlock_tp.c,
   and the phase-fair rwlock's P1..P5, nptl/pthread_rwlock_pf.c):
   a lock that threads had to wait for belongs, for a window, to the
   processor of the thread that got it after waiting; threads on other
   processors leave it alone until the window ends, so that its word and
   its data stay in one processor's cache.  The home word records the
   processor and the time of the claim:

     0                     no home: every thread takes the lock as usual
     TIME << 12 | TAG      TAG = (processor number & 2047) + 1 (bits 0..11),
			   TIME = CLOCK_MONOTONIC at the claim in units
			   of 2^16 ns (bits 12..31, wrapping every 68 s)

   The home word is a hint: it never decides who owns the lock, only
   whether a thread tries now or a little later, so every access is
   relaxed, and a stale or torn view costs at most one cache-line
   transfer or one short sleep.  Without rseq (the processor number
   unknown) a thread neither claims nor defers.  */

#ifndef _TP_HOME_H
#define _TP_HOME_H 1

#include <stdbool.h>
#include <stdint.h>
#include <atomic.h>
#include <tls.h>

/* The window of a claim is this fraction of the hand-off threshold
   (glibc.pthread.mutex_tp_handoff_us): 1.25 ms at the default 5 ms.  */
#define TP_HOME_WINDOW_DIV	4

#define TP_HOME_TAG_MASK	0xfffu
#define TP_HOME_CPU_MASK	0x7ffu
#define TP_HOME_TIME_SHIFT	12
#define TP_HOME_UNIT_SHIFT	16
#define TP_HOME_TIME_MASK	0xfffffu

/* The calling thread's processor tag, 0 if unknown.  A mask, not a
   remainder: the fast paths compute the tag whenever the lock has a
   home, and the remainder by 4095 was a 14-instruction multiply
   sequence there (a third of the TP rwlock's wrlock samples with 16
   threads, medium sections, perf; the throughput change is within the
   noise, README).  Processors 2048 apart share a tag, which only makes
   the hint wrong for them.  */
static inline unsigned int
tp_home_tag (void)
{
  int cpu = THREAD_GETMEM_VOLATILE (THREAD_SELF, rseq_area.cpu_id);
  return cpu >= 0 ? ((unsigned int) cpu & TP_HOME_CPU_MASK) + 1 : 0;
}

/* Fast paths: whether the lock has a home on another processor than
   the caller's (in its window or not: the slow path tells).  */
static inline bool
tp_home_elsewhere (unsigned int *home)
{
  unsigned int h = atomic_load_relaxed (home);
  if (__glibc_likely (h == 0))
    return false;
  unsigned int tag = tp_home_tag ();
  return tag != 0 && (h & TP_HOME_TAG_MASK) != tag;
}

/* If the lock's home is another processor and its window of WINDOW ns
   has not ended at NOW (CLOCK_MONOTONIC, ns), the time it ends;
   otherwise 0.  */
static inline int64_t
tp_home_deferred_until (unsigned int *home, int64_t window, int64_t now)
{
  unsigned int h = atomic_load_relaxed (home);
  unsigned int tag = tp_home_tag ();
  if (h == 0 || tag == 0 || (h & TP_HOME_TAG_MASK) == tag)
    return 0;
  unsigned int claimed = h >> TP_HOME_TIME_SHIFT;
  unsigned int age = (((unsigned int) (now >> TP_HOME_UNIT_SHIFT) - claimed)
		      & TP_HOME_TIME_MASK);
  int64_t age_ns = (int64_t) age << TP_HOME_UNIT_SHIFT;
  return age_ns < window ? now - age_ns + window : 0;
}

/* The caller got the lock after waiting for it, at NOW: the lock's
   home is the caller's processor from now on.  */
static inline void
tp_home_claim (unsigned int *home, int64_t now)
{
  unsigned int tag = tp_home_tag ();
  if (tag == 0)
    return;
  unsigned int h = ((((unsigned int) (now >> TP_HOME_UNIT_SHIFT))
		     & TP_HOME_TIME_MASK) << TP_HOME_TIME_SHIFT) | tag;
  atomic_store_relaxed (home, h);
}

/* The caller got the lock without waiting although the home named
   another processor (its window had ended): the lock is no longer
   saturated, drop the home so that the fast paths stop deferring.  */
static inline void
tp_home_drop (unsigned int *home)
{
  if (atomic_load_relaxed (home) != 0)
    atomic_store_relaxed (home, 0);
}

#endif /* tp-home.h */
