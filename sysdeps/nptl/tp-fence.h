/* A full barrier after a read-modify-write.  Generic version.
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

#ifndef _TP_FENCE_H
#define _TP_FENCE_H 1

#include <atomic.h>

/* Order the read-modify-write that the caller has just done before all
   of its later loads and stores, as the store-buffering pattern of the
   TP rwlock's reader bias needs (B1 in nptl/pthread_rwlock_tp.c): a
   seq_cst fence (sync on powerpc64).  */
static inline void
tp_fence_after_rmw (void)
{
  atomic_thread_fence_seq_cst ();
}

#endif /* tp-fence.h */
