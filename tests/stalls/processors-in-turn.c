/* Make the threads pinned to processors 0 and 1 run in turn.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: processors-in-turn SECONDS
   A SCHED_FIFO thread that runs for SLICE_NS on processor 0, then
   SLICE_NS on processor 1, and so on, busy all the time: while it is on
   one processor, no thread of the normal policy can run there, so two
   such threads pinned to processors 0 and 1 run one at a time, as on a
   host that runs both virtual processors on one physical processor.
   It reproduces what tst-rwlock-tp-home's C5 waits measure (README,
   "tst-rwlock-tp-home's waits").  Printed at the end: the slices run on
   each processor, and the time on each as a share of the run.  Needs
   the right to SCHED_FIFO (root, or CAP_SYS_NICE).  Exits 1 on a bad
   argument, a machine without processors 0 and 1, or a failed system
   call.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "machine-probe.h"

#define MAX_SECONDS 600
#define SLICE_NS 2000000LL

int
main (int argc, char **argv)
{
  cpu_set_t online;
  int seconds = probe_start (argc, argv, "processors-in-turn", MAX_SECONDS,
			     &online);
  need_processors_0_and_1 ("processors-in-turn", &online);
  /* The lowest real-time priority is enough to keep every thread of
     the normal policy off the processor.  */
  struct sched_param param = { .sched_priority = 1 };
  int err = pthread_setschedparam (pthread_self (), SCHED_FIFO, &param);
  if (err != 0)
    {
      fprintf (stderr, "processors-in-turn: SCHED_FIFO: %s\n",
	       strerror (err));
      return 1;
    }

  long long slices[2] = { 0, 0 };
  long long busy[2] = { 0, 0 };
  long long start = now_ns ();
  long long end = start + seconds * 1000000000LL;
  for (int cpu = 0; now_ns () < end; cpu ^= 1)
    {
      pin ("processors-in-turn", cpu);
      long long t0 = now_ns ();
      long long slice_end = t0 + SLICE_NS;
      long long t = t0;
      while (t < slice_end)
	t = now_ns ();
      slices[cpu]++;
      busy[cpu] += t - t0;
    }
  long long total = now_ns () - start;

  printf ("# a SCHED_FIFO thread moved between processors 0 and 1 every"
	  " %lld us for %d s\n", SLICE_NS / 1000, seconds);
  for (int cpu = 0; cpu < 2; cpu++)
    printf ("processor %d: %lld slices, %.1f %% of the run\n", cpu,
	    slices[cpu], 100.0 * busy[cpu] / total);
  return 0;
}
