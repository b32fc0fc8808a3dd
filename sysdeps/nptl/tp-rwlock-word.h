/* The futex word of the TP rwlock.
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

/* The word's layout and the transitions A0 and A1 on it, described in
   the design comment of nptl/pthread_rwlock_tp.c; used there and by the
   TP core (tp-core.h).  */

#ifndef _TP_RWLOCK_WORD_H
#define _TP_RWLOCK_WORD_H 1

#include <stdbool.h>
#include <sys/types.h>
#include <lowlevellock-futex.h>
#include <tp-futex.h>

/* The reader-owned layout is the kernel's (<linux/futex.h>, through
   tp-futex.h).  */
#define TPRW_SHARED		((unsigned int) TP_FUTEX_WORD_SHARED)
#define TPRW_SHARED_UNLOCK	((unsigned int) TP_FUTEX_WORD_SHARED_UNLOCK)
#define TPRW_COUNT_MASK		((unsigned int) TP_FUTEX_WORD_COUNT_MASK)
/* User-space path: set by R2 to a reader requester together with the
   read lock it hands over (SH|1|W becomes SH|GRANTED|1|W), and cleared
   by that reader once it has seen it.  Without it the word would not
   change at such a hand-off, and the requester could sleep on the very
   value that grants it the lock.  Bit 27 is one of the bits 24..27 that
   the kernel path keeps zero.  */
#define TPRW_GRANTED		0x08000000u
/* In the hand-off word: the registered requester wants a read lock.  */
#define TPRW_HANDOFF_READER	0x40000000u

/* Whether the word V can be taken (A0) or joined (A1) right now.  */
static inline bool
tprw_can_take (unsigned int v, bool reader)
{
  if ((v & ~FUTEX_WAITERS) == 0)
    return true;
  return (reader && (v & ~TPRW_COUNT_MASK) == TPRW_SHARED
	  && (v & TPRW_COUNT_MASK) != TPRW_COUNT_MASK);
}

/* The word after A0 or A1 on V.  */
static inline unsigned int
tprw_taken (unsigned int v, bool reader, pid_t tid)
{
  if ((v & ~FUTEX_WAITERS) != 0)
    return v + 1;
  return (reader ? TPRW_SHARED | 1 : tid) | (v & FUTEX_WAITERS);
}

/* A1 would overflow the reader count.  */
static inline bool
tprw_full (unsigned int v)
{
  return ((v & (TPRW_SHARED | TPRW_COUNT_MASK))
	  == (TPRW_SHARED | TPRW_COUNT_MASK));
}

/* Who holds the lock whose word is V: the writer's TID, TPRW_SHARED
   for the reader group (whose count changes as readers come and go),
   or 0.  */
static inline unsigned int
tprw_holder (unsigned int v)
{
  return (v & TPRW_SHARED) != 0 ? TPRW_SHARED : v & ~FUTEX_WAITERS;
}

#endif /* tp-rwlock-word.h */
