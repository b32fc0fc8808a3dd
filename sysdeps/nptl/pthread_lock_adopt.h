/* Statically initialized locks take the kind the tunables select.
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

#ifndef _PTHREAD_LOCK_ADOPT_H
#define _PTHREAD_LOCK_ADOPT_H 1

/* glibc.pthread.mutex_protocol and glibc.pthread.rwlock_kind give their
   kind to the locks that pthread_mutex_init and pthread_rwlock_init
   initialize with default attributes.  A lock initialized statically
   (PTHREAD_MUTEX_INITIALIZER and its recursive, error-checking and
   adaptive siblings; PTHREAD_RWLOCK_INITIALIZER) or by zero-filling
   never passes through those functions, so the kind is given to it at
   its first acquisition instead: every acquiring entry point (lock,
   trylock, timed and clock lock, the condition variable's relock; for
   rwlocks the read and write lock and their try, timed and clock forms)
   calls the functions below before it looks at the lock's kind, in the
   way FORCE_ELISION turns a kind-0 mutex into an elided one.

   Which locks adopt the kind:
     mutex   __kind is one of the four static kinds (0-3), with no
	     other bit: not robust, not PI or PP, not process-shared (a
	     statically initialized lock is always process-private), not
	     already TP and not elided.
     rwlock  the tunable selects phase-fair or TP, __flags is 0
	     (PTHREAD_RWLOCK_PREFER_READER_NP, the static initializer's
	     kind), __shared is 0, and the lock is not marked
	     PTHREAD_RWLOCK_KIND_KEPT: pthread_rwlock_init sets that mark
	     when an attribute asked for kind 0 explicitly while the
	     tunable selects another kind, so an explicit choice stands.

   Why the adoption needs no more than relaxed MO.  The tunables are
   read once, during early initialization, before the program can run a
   thread or touch a lock, and are constant afterwards.  So while the
   tunable is set, every acquisition of a lock of the adopting kind runs
   the adoption first, and the adoption always writes the same value
   (the static kind with the tunable's kind added).  Two threads that
   adopt at once store equal values; a thread that reads the stale kind
   adopts too and then takes the new kind's path without reading the
   kind again.  No thread can thus operate on the lock under the old
   protocol once the tunable is set; the store only records the kind for
   the operations that do not adopt (unlock, the condition variable's
   unlock, destroy), and those run in a thread that has acquired the lock
   and so has adopted it itself or read the adopted kind through the
   acquire MO of the lock's own protocol.  Nothing else is published by
   the store.

   The cost on the fast path is one compare of a constant in memory
   with an immediate and one conditional branch, taken only when the
   tunable is set (benchtests/scripts/lock_adopt_callgrind.py measures
   it).  */

#include <pthreadP.h>
#include <pthread_mutex_tp.h>
#include <pthread_rwlock_pf.h>

/* True if the glibc.pthread.mutex_protocol tunable selects TP.  */
#define PTHREAD_MUTEX_ADOPT_TP_WANTED() \
  __glibc_unlikely (__pthread_mutex_tp_config.default_protocol \
		    == PTHREAD_THROUGHPUT_NP)

/* Give MUTEX the TP protocol if it is of an adopting kind.  Return true
   if MUTEX is (now) a TP mutex, false if it keeps its kind.  Called only
   when PTHREAD_MUTEX_ADOPT_TP_WANTED.  Out of line and cold: inlined,
   its address computations were hoisted onto the fast path of
   pthread_mutex_trylock.  */
static __attribute_noinline__ __attribute__ ((cold, unused)) bool
__pthread_mutex_adopt_tp (pthread_mutex_t *mutex)
{
  int kind = atomic_load_relaxed (&mutex->__data.__kind);
  if ((kind & ~PTHREAD_MUTEX_KIND_MASK_NP) != 0)
    return PTHREAD_MUTEX_KIND_IS_TP (kind);
  /* Relaxed MO: see the comment at the top of this file.  */
  atomic_store_relaxed (&mutex->__data.__kind,
			kind | PTHREAD_MUTEX_THROUGHPUT_NP);
  return true;
}

/* __rwelision is unused by glibc's rwlock: it holds this mark on a lock
   that keeps kind 0 although the tunable selects another kind.  */
#define PTHREAD_RWLOCK_KIND_KEPT 1

/* True if the glibc.pthread.rwlock_kind tunable selects one of the
   fork's kinds, phase-fair (3) or TP (4).  The stock writer-preferring
   kinds (1, 2) do not reach static locks: the test against a non-zero
   bound compiles to one compare with a memory operand and a branch,
   where a test against zero costs a load, a test and a branch.  */
#define PTHREAD_RWLOCK_ADOPT_WANTED() \
  __glibc_unlikely (__pthread_rwlock_default_kind \
		    >= PTHREAD_RWLOCK_PHASE_FAIR_NP)

/* Give RWLOCK the tunable's kind if it is of the adopting kind.  Called
   only when PTHREAD_RWLOCK_ADOPT_WANTED; the caller then dispatches on
   __flags as usual.  Inline: a call would make the try functions, leaf
   functions otherwise, save registers on their fast path.  */
static __always_inline void
__pthread_rwlock_adopt (pthread_rwlock_t *rwlock)
{
  /* Relaxed MO for the loads and the store: see the comment at the
     top of this file.  The atomic accesses also keep the compiler from
     sharing them with the kind dispatch's plain load of __flags, which
     would pull this cold path's work onto the fast path.  */
  if (atomic_load_relaxed (&rwlock->__data.__flags)
      == PTHREAD_RWLOCK_PREFER_READER_NP
      && rwlock->__data.__shared == 0
      && rwlock->__data.__rwelision != PTHREAD_RWLOCK_KIND_KEPT)
    atomic_store_relaxed (&rwlock->__data.__flags,
			  atomic_load_relaxed (&__pthread_rwlock_default_kind));
}

#endif
