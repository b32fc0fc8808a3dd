/* The tests of the TP locks' concurrency restriction: common parts.
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

/* The tests of the home processor (sysdeps/nptl/tp-home.h) of the TP
   mutex and the rwlocks run with a hand-off threshold of 1 s (so a
   claim's window is 250 ms; nptl/Makefile) on the user-space path, and
   pin their threads to processors 0 and 1; they read the lock's home
   word and the calling thread's count of deferrals.  */

#ifndef TST_TP_HOME_H
#define TST_TP_HOME_H 1

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/rseq.h>
#include <support/check.h>
#include <support/xthread.h>
#include <support/timespec.h>
#include <support/xtime.h>
#include <pthread_mutex_tp_stats.h>
#include <tp-home.h>
#include "tst-tp-pin.h"

/* The window of a claim at the tests' threshold of 1 s, ns.  */
#define WINDOW_NS (INT64_C (1000000000) / TP_HOME_WINDOW_DIV)

/* The home's processor tag expected for processor CPU, 0 without rseq
   (the -norseq variants of the tests).  */
static inline unsigned int
tag_of (int cpu)
{
  return __rseq_size > 0 ? (unsigned int) cpu + 1 : 0;
}

/* The calling thread's deferrals to a home processor.  */
static unsigned long int
deferrals (void)
{
  unsigned long int c[TP_STAT_COUNT];
  TEST_COMPARE (__pthread_mutex_tp_stats (c, TP_STAT_COUNT), TP_STAT_COUNT);
  return c[TP_STAT_HOME_DEFERRALS];
}

static pthread_barrier_t barrier;

/* Start FN, which waits at BARRIER before it locks, let it block on the
   lock that the caller holds, then release the lock with UNLOCK and
   wait for FN to finish.  */
static void
contend_with (void *(*fn) (void *), void (*unlock) (void))
{
  xpthread_barrier_init (&barrier, NULL, 2);
  pthread_t t = xpthread_create (NULL, fn, NULL);
  xpthread_barrier_wait (&barrier);
  /* Let the thread block in its lock call.  */
  usleep (100000);
  unlock ();
  xpthread_join (t);
  xpthread_barrier_destroy (&barrier);
}

/* The tests need the user-space path (the writer role of the
   phase-fair lock always takes it) and two processors; then the main
   thread runs on processor 0.  */
static void
home_test_start (void)
{
  unsigned long int stats[TP_STAT_COUNT];
  __pthread_mutex_tp_stats (stats, TP_STAT_COUNT);
  if (stats[TP_STAT_KERNEL_MODE] != 0)
    FAIL_UNSUPPORTED ("the TP locks use the kernel path here");
  if (sysconf (_SC_NPROCESSORS_ONLN) < 2)
    FAIL_UNSUPPORTED ("needs two processors");
  pinned_tests_one_at_a_time ();
  pin (0);
}

#endif /* tst-tp-home.h */
