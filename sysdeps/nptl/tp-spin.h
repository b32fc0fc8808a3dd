/* Spin-wait hints for the TP mutex and the new rwlock kinds.  Generic version.
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

#include <atomic.h>

/* A spin-wait loop calls tp_spin_relax once per iteration, while it
   waits for another thread to change a lock word, and tp_spin_done once
   when it leaves the loop, whether it got what it waited for or gave up.
   Architectures override this header to tell the processor about the
   loop (a pause, a lower hardware thread priority that tp_spin_done
   restores).  Neither is an ordering operation: the loops order their
   accesses with the atomics they spin on.  */

static inline void
tp_spin_relax (void)
{
  atomic_spin_nop ();
}

static inline void
tp_spin_done (void)
{
}

#endif /* tp-spin.h */
