/* Processors and time for the TP lock tests that pin their threads.
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

#ifndef TST_TP_PIN_H
#define TST_TP_PIN_H 1

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xtime.h>

/* Run the calling thread on processor CPU only.  */
static inline void
pin (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  int r = pthread_setaffinity_np (pthread_self (), sizeof set, &set);
  if (r != 0)
    FAIL_UNSUPPORTED ("cannot run on processor %d: %d", cpu, r);
  TEST_COMPARE (sched_getcpu (), cpu);
}

static inline int64_t
now_ns (void)
{
  return support_timespec_ns (xclock_now (CLOCK_MONOTONIC));
}

#endif /* tst-tp-pin.h */
