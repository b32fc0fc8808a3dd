/* How long a cache line takes to go from one processor to another.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: processor-pingpong SECONDS
   Two threads, pinned to processors 0 and 1, pass a counter in one
   cache line back and forth: processor 0 makes it odd, processor 1 even
   again, each waiting for the other's store.  Each second, the mean
   round trip of batches of TRIPS_PER_BATCH trips, the best batch
   counting (a batch that a stall interrupted is longer, and
   processor-stalls measures stalls).  Printed: the best round trip of
   each second, in ns, then their median (min..max).  On a virtual
   machine this moves with where the host runs the two virtual
   processors: a lock's cache line costs that much to change processors,
   and the lock benchmark's ratios move with it (README).  Exits 1 on a
   bad argument, a machine with fewer than two processors, or a failed
   system call.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "machine-probe.h"

#define MAX_SECONDS 600
#define TRIPS_PER_BATCH 10000

static _Alignas (64) atomic_uint ball;
static atomic_int stop;

/* Processor 1: make the counter even again whenever it is odd.  Acquire
   MO on the load and release MO on the store: each trip orders the
   other thread's store before the next one, as a lock hand-over
   would.  */
static void *
returner (void *arg __attribute__ ((unused)))
{
  pin ("processor-pingpong", 1);
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    {
      unsigned int v = atomic_load_explicit (&ball, memory_order_acquire);
      if (v & 1)
	atomic_store_explicit (&ball, v + 1, memory_order_release);
    }
  return NULL;
}

/* Processor 0: TRIPS_PER_BATCH round trips; their mean, ns.  */
static long long
batch (void)
{
  long long start = now_ns ();
  for (int i = 0; i < TRIPS_PER_BATCH; i++)
    {
      unsigned int v = atomic_load_explicit (&ball, memory_order_relaxed);
      atomic_store_explicit (&ball, v + 1, memory_order_release);
      while (atomic_load_explicit (&ball, memory_order_acquire) == v + 1)
	;
    }
  return (now_ns () - start) / TRIPS_PER_BATCH;
}

int
main (int argc, char **argv)
{
  static long long best[MAX_SECONDS];
  cpu_set_t online;
  int seconds = probe_start (argc, argv, "processor-pingpong", MAX_SECONDS,
			     &online);
  need_processors_0_and_1 ("processor-pingpong", &online);
  pin ("processor-pingpong", 0);
  pthread_t thread;
  int err = pthread_create (&thread, NULL, returner, NULL);
  if (err != 0)
    {
      fprintf (stderr, "processor-pingpong: pthread_create: %s\n",
	       strerror (err));
      return 1;
    }
  /* The first batch waits for the returner to start: not counted.  */
  batch ();
  for (int s = 0; s < seconds; s++)
    {
      long long end = now_ns () + 1000000000LL;
      best[s] = batch ();
      while (now_ns () < end)
	{
	  long long b = batch ();
	  if (b < best[s])
	    best[s] = b;
	}
    }
  atomic_store_explicit (&stop, 1, memory_order_relaxed);
  pthread_join (thread, NULL);

  printf ("# a cache line passed between processors 0 and 1, %d s;"
	  " per second: the best mean round trip of batches of %d, ns\n",
	  seconds, TRIPS_PER_BATCH);
  for (int s = 0; s < seconds; s++)
    printf ("%lld%c", best[s], s + 1 < seconds ? ' ' : '\n');
  long long m = median (best, seconds);
  printf ("round trip, ns: median %lld (%lld..%lld)\n", m, best[0],
	  best[seconds - 1]);
  return 0;
}
