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

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/file.h>
#include <support/check.h>
#include "tst-tp-clock.h"

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

/* The tests that pin threads to processors 0 and 1 need both to
   themselves: their readers must race on the lock word, their windows
   end on time.  make check runs two tests at once, and two such tests
   side by side failed there (tst-rwlock-tp-home claimed no home in 30
   s, tst-mutex-tp-home's busy home was dropped too often), so each
   holds an exclusive lock on one file for its whole run (the kernel
   drops it when the process ends).  That keeps them from each other
   only; where the tests to run are named
   (scripts/check-glibc-subset.sh), the ones that include this file run
   after the others, one at a time.  Where the file cannot be made (no
   /tmp) or locked (no file locks in the kernel), the test runs without
   it.  */
static inline void
pinned_tests_one_at_a_time (void)
{
  int fd = open ("/tmp/tpf-pinned-tests.lock",
		 O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      printf ("info: no /tmp/tpf-pinned-tests.lock: %m\n");
      return;
    }
  /* A kernel without file locks (the test VM's) has nobody to share
     the processors with either.  */
  if (flock (fd, LOCK_EX) != 0)
    printf ("info: flock: %m\n");
}

#endif /* tst-tp-pin.h */
