/* How long the machine takes each processor away from a running thread.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: processor-stalls SECONDS
   Two phases of SECONDS seconds each, one thread per online processor,
   pinned to it, in both.

   Running: each thread reads CLOCK_MONOTONIC in a loop and never
   blocks.  An interval between two consecutive reads longer than the
   loop's few tens of ns is time in which the thread did not run: the
   processor served an interrupt or another task, or, on a virtual
   machine, the host did not run the virtual processor at all.  Printed
   per processor: the longest such stall in each second (median, min
   and max over the seconds) and the number of stalls over 1 ms per
   second (median).

   Sleeping: each thread sleeps until 1 ms after it last woke (an
   absolute CLOCK_MONOTONIC deadline), again and again, with nothing
   else of ours running; how much later than its deadline it runs again
   is the machine's wake-up lateness: the timer's slack, the time to
   bring an idle processor back (on a virtual machine, until the host
   runs the virtual processor again), and any task the processor runs
   meanwhile.  Printed per processor: the latest wake-up in each second
   (median, min and max) and the number of wake-ups over 1 ms late per
   second (median).

   A lock call whose waiter, or the holder it waits for, is stalled
   waits at least as long as the stall, and a waiter that sleeps even
   once waits at least as long as its wake-up is late, whatever the lock
   protocol; so these figures are what the worst waits of the lock
   benchmark's 1 s rounds are to be read against (make bench runs this
   after the lock passes).  Exits 1 on a bad argument or a failed system
   call.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "machine-probe.h"

#define MAX_SECONDS 600
/* A stall, or a wake-up this much late, counts as long.  */
#define LONG_STALL_NS 1000000
/* The sleeping phase's period.  */
#define SLEEP_NS 1000000

struct probe
{
  pthread_t thread;
  int cpu;
  int seconds;
  /* Whether this is the sleeping phase.  */
  bool sleeping;
  /* Per second: the longest stall or the latest wake-up, and how many
     were over LONG_STALL_NS.  */
  long long longest[MAX_SECONDS];
  long long long_stalls[MAX_SECONDS];
};

/* Record the stall or lateness GAP seen at T, START being the phase's
   start; returns false once the phase is over.  */
static bool
probe_record (struct probe *p, long long start, long long t, long long gap)
{
  long long second = (t - start) / 1000000000LL;
  if (second >= p->seconds)
    return false;
  if (gap > p->longest[second])
    p->longest[second] = gap;
  if (gap > LONG_STALL_NS)
    p->long_stalls[second]++;
  return true;
}

static void *
probe_main (void *arg)
{
  struct probe *p = arg;
  pin ("processor-stalls", p->cpu);
  long long start = now_ns ();
  long long prev = start;
  for (;;)
    {
      long long t;
      if (p->sleeping)
	{
	  long long deadline = prev + SLEEP_NS;
	  struct timespec ts = { deadline / 1000000000LL,
				 deadline % 1000000000LL };
	  int err = clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				     NULL);
	  if (err == EINTR)
	    /* Sleep again to the same deadline.  */
	    continue;
	  if (err != 0)
	    {
	      fprintf (stderr, "processor-stalls: clock_nanosleep: %s\n",
		       strerror (err));
	      exit (1);
	    }
	  t = now_ns ();
	  if (!probe_record (p, start, t, t - deadline))
	    break;
	}
      else
	{
	  t = now_ns ();
	  if (!probe_record (p, start, t, t - prev))
	    break;
	}
      prev = t;
    }
  return NULL;
}

/* Run one phase (SLEEPING or not) on the processors of ONLINE for
   SECONDS seconds and print its table.  */
static void
run_phase (const cpu_set_t *online, int seconds, bool sleeping)
{
  int count = CPU_COUNT (online);
  struct probe *probes = calloc (count, sizeof *probes);
  if (probes == NULL)
    {
      perror ("processor-stalls: calloc");
      exit (1);
    }
  for (int cpu = 0, i = 0; i < count; cpu++)
    if (CPU_ISSET (cpu, online))
      {
	probes[i].cpu = cpu;
	probes[i].seconds = seconds;
	probes[i].sleeping = sleeping;
	int err = pthread_create (&probes[i].thread, NULL, probe_main,
				  &probes[i]);
	if (err != 0)
	  {
	    fprintf (stderr, "processor-stalls: pthread_create: %s\n",
		     strerror (err));
	    exit (1);
	  }
	i++;
      }
  for (int i = 0; i < count; i++)
    pthread_join (probes[i].thread, NULL);

  printf ("# one thread pinned to each processor, %s, %d s; per second: %s\n",
	  sleeping ? "sleeping 1 ms at a time" : "never blocking", seconds,
	  (sleeping ? "its latest wake-up and its wake-ups over 1 ms late"
	   : "its longest stall and its stalls over 1 ms"));
  printf ("%-9s  %-36s  %s\n", "processor",
	  (sleeping ? "late wake-up, us: median (min..max)"
	   : "longest stall, us: median (min..max)"),
	  sleeping ? "late > 1 ms, median" : "stalls > 1 ms, median");
  for (int i = 0; i < count; i++)
    {
      struct probe *p = &probes[i];
      long long longest_median = median (p->longest, seconds);
      char longest[64];
      snprintf (longest, sizeof longest, "%lld (%lld..%lld)",
		longest_median / 1000, p->longest[0] / 1000,
		p->longest[seconds - 1] / 1000);
      printf ("%-9d  %-36s  %lld\n", p->cpu, longest,
	      median (p->long_stalls, seconds));
    }
  free (probes);
}

int
main (int argc, char **argv)
{
  cpu_set_t online;
  int seconds = probe_start (argc, argv, "processor-stalls", MAX_SECONDS,
			     &online);
  run_phase (&online, seconds, false);
  printf ("\n");
  run_phase (&online, seconds, true);
  return 0;
}
