/* Spin-wait hints for the TP mutex and the new rwlock kinds.  x86_64 version.
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

/* sysdeps/x86_64/nptl comes before sysdeps/nptl in the sysdeps search
   order of x86_64-linux-gnu, so this replaces the generic header.  */

/* One iteration of a spin-wait loop: `pause' tells the processor that
   this is a spin-wait, so it does not speculate ahead into a flood of
   loads of the lock word (avoiding the memory-order machine clear when
   the word changes), lets the sibling hyperthread run, and saves
   power.  It is no barrier; the "memory" clobber only keeps the
   compiler from moving it across the loop's loads.  */
static inline void
tp_spin_relax (void)
{
  __asm__ __volatile__ ("pause" ::: "memory");
}

/* After the loop, whatever its outcome: x86 has no state to restore.  */
static inline void
tp_spin_done (void)
{
}

#endif /* tp-spin.h */
