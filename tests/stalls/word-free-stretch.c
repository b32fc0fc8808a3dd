/* How long a lock word stays free as another processor sees it.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: word-free-stretch SECONDS
   The measurement behind TP_HOME_IDLE_TRANSFERS (C6 of the TP mutex,
   sysdeps/nptl/tp-core.h).  An owner pinned to processor 1 takes a lock
   word, holds it, frees it and waits, again and again, as a lock's home
   processor would; a prober pinned to processor 0 watches the word as
   tp_core_probe_home does, one load and one clock read a round, with a
   pause between rounds.  For each probe that starts with the word owned
   and sees it come free and be taken again, it records how long the
   word stayed free and how long the round that saw it come free took
   (that round's load took the line from processor 1: a transfer).
   Three owners, SECONDS each: one that relocks at once (the busy home
   of tst-mutex-tp-home), one that holds 270 ns and waits 270 ns (about
   bench-lock-contention's cs=long lock-latency=1000), one that holds
   500 ns and waits 800 ns.  Printed for each: the 5th, 50th, 95th and
   99th percentiles of the free stretch, of the round, in ns, and of
   their ratio, in hundredths.  Exits 1 on a bad argument, a machine
   without processors 0 and 1, a failed system call, or an owner that
   no probe saw.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "machine-probe.h"

#define MAX_SECONDS 60
#define MAX_PROBES 100000
/* A probe that sees no change within this many rounds gives up.  */
#define PROBE_ROUNDS 400

static _Alignas (64) atomic_uint word;
static atomic_int stop;
static long long hold_ns;
static long long gap_ns;

static void
busy_ns (long long ns)
{
  long long end = now_ns () + ns;
  while (now_ns () < end)
    ;
}

/* Processor 1.  Acquire MO on the taking CAS and release MO on the
   freeing store, as a lock's; the prober only loads.  */
static void *
owner (void *arg __attribute__ ((unused)))
{
  pin ("word-free-stretch", 1);
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    {
      unsigned int expected = 0;
      while (!atomic_compare_exchange_weak_explicit (&word, &expected, 1,
						     memory_order_acquire,
						     memory_order_relaxed))
	expected = 0;
      busy_ns (hold_ns);
      atomic_store_explicit (&word, 0, memory_order_release);
      busy_ns (gap_ns);
    }
  return NULL;
}

/* One probe from processor 0: 1 with the free stretch in *STRETCH and
   the round that saw the word come free in *ROUND, or 0 if the word was
   free when it began or did not change both ways within PROBE_ROUNDS.
   Relaxed MO: the prober only watches the word.  */
static int
probe (long long *stretch, long long *round)
{
  if (atomic_load_explicit (&word, memory_order_relaxed) == 0)
    return 0;
  long long round_start = now_ns ();
  long long free_since = -1;
  for (int r = 0; r < PROBE_ROUNDS; r++)
    {
      unsigned int v = atomic_load_explicit (&word, memory_order_relaxed);
      long long now = now_ns ();
      if (v == 0 && free_since < 0)
	{
	  free_since = now;
	  *round = now - round_start;
	}
      else if (v != 0 && free_since >= 0)
	{
	  *stretch = now - free_since;
	  return 1;
	}
      round_start = now;
      __builtin_ia32_pause ();
    }
  return 0;
}

static long long
percentile (const long long *sorted, int n, int pct)
{
  return sorted[(long long) (n - 1) * pct / 100];
}

static void
print_row (const char *what, long long *v, int n)
{
  qsort (v, n, sizeof v[0], compare);
  printf ("  %-14s p5 %lld  p50 %lld  p95 %lld  p99 %lld\n", what,
	  percentile (v, n, 5), percentile (v, n, 50), percentile (v, n, 95),
	  percentile (v, n, 99));
}

/* Run the owner with HOLD and GAP for SECONDS and print what the probes
   saw; 0, or 1 if no probe saw the word come free and be taken.  */
static int
measure (long long hold, long long gap, int seconds)
{
  static long long stretch[MAX_PROBES], round[MAX_PROBES],
    ratio[MAX_PROBES];
  hold_ns = hold;
  gap_ns = gap;
  atomic_store_explicit (&stop, 0, memory_order_relaxed);
  pthread_t thread;
  int err = pthread_create (&thread, NULL, owner, NULL);
  if (err != 0)
    {
      fprintf (stderr, "word-free-stretch: pthread_create: %s\n",
	       strerror (err));
      exit (1);
    }
  int n = 0;
  long long end = now_ns () + seconds * 1000000000LL;
  for (int i = 0; n < MAX_PROBES && now_ns () < end; i++)
    {
      if (probe (&stretch[n], &round[n]))
	{
	  ratio[n] = stretch[n] * 100 / (round[n] > 0 ? round[n] : 1);
	  n++;
	}
      /* Land at another point of the owner's cycle next time.  */
      busy_ns (5000 + 700 * (i % 7));
    }
  atomic_store_explicit (&stop, 1, memory_order_relaxed);
  pthread_join (thread, NULL);
  printf ("owner holds %lld ns, waits %lld ns: %d probes\n", hold, gap, n);
  if (n == 0)
    return 1;
  print_row ("free, ns", stretch, n);
  print_row ("round, ns", round, n);
  print_row ("free/round %", ratio, n);
  return 0;
}

int
main (int argc, char **argv)
{
  cpu_set_t online;
  int seconds = probe_start (argc, argv, "word-free-stretch", MAX_SECONDS,
			     &online);
  need_processors_0_and_1 ("word-free-stretch", &online);
  pin ("word-free-stretch", 0);
  printf ("# a word owned on processor 1, watched from processor 0, %d s"
	  " per owner\n", seconds);
  int failed = measure (0, 0, seconds);
  failed |= measure (270, 270, seconds);
  failed |= measure (500, 800, seconds);
  return failed;
}
