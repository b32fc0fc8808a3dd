/* The monotonic clock of the TP lock tests, in nanoseconds.
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

#ifndef TST_TP_CLOCK_H
#define TST_TP_CLOCK_H 1

#include <stdint.h>
#include <time.h>
#include <support/xtime.h>

/* CLOCK_MONOTONIC in nanoseconds, in 64 bits on every ABI.  Not
   support_timespec_ns: it returns a long int, which on 32-bit ABIs
   saturates at 2^31 - 1 ns, so that every time past the first 2.1 s
   of the clock, and every interval computed from two of them, read
   the same.  */
static inline int64_t
now_ns (void)
{
  struct timespec ts = xclock_now (CLOCK_MONOTONIC);
  return ts.tv_sec * INT64_C (1000000000) + ts.tv_nsec;
}

#endif /* tst-tp-clock.h */
