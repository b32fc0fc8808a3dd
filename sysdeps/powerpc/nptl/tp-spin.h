/* Spin-wait hints for the TP mutex and the new rwlock kinds.  PowerPC version.
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

#ifndef _TP_SPIN_H
#define _TP_SPIN_H 1

/* This directory comes before sysdeps/nptl in the sysdeps search order
   of every powerpc configuration (powerpc64le, powerpc64, powerpc32),
   so it replaces the generic header there.

   While a thread spins it shares its core with the other SMT threads.
   The Power ISA (2.05 and later) lets a problem-state program lower its
   own priority in the Program Priority Register with the no-op form
   `or Rx,Rx,Rx': Rx = 1 is low, Rx = 2 medium, the priority a thread
   normally runs at (see <sys/platform/ppc.h>).  Older processors treat
   both as plain no-ops, so they need no guard.  A spinning thread
   drops to low priority, giving the issue slots to the sibling that may
   be the lock owner, and returns to medium when it leaves the loop, so
   that the critical section it may now run is not slowed down.  The
   yield hint `or 27,27,27' is not used: it only releases resources for
   a moment, where the priority stays low for the whole wait.

   The "memory" clobbers keep the compiler from moving the hints across
   the loads of the lock word that the loop makes; they do not order
   anything for the processor (the hints are no barriers: the loops
   order their accesses with the atomics they spin on).  */

/* One iteration of a spin-wait loop: SMT priority low.  Setting it again
   on every iteration costs one no-op and restores it if the kernel
   reset the register across a context switch.  */
static inline void
tp_spin_relax (void)
{
  __asm__ __volatile__ ("or 1,1,1" ::: "memory");
}

/* After the loop, whatever its outcome: SMT priority back to medium.  */
static inline void
tp_spin_done (void)
{
  __asm__ __volatile__ ("or 2,2,2" ::: "memory");
}

#endif /* tp-spin.h */
