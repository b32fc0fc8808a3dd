/* What a reader's arrival by compare-and-swap costs against an atomic add.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: rwlock-read-arrival [SECONDS [ROUNDS]] (defaults 0.2, 7).

   The rwlock sweep's read-only cells with two threads, one pinned to
   each of processors 0 and 1, no gap between operations, with its
   short, medium and long read sections (0, 100 and 1000 iterations of
   its spin loop), run four ways in ROUNDS interleaved rounds of SECONDS
   each:

     default  glibc's default rwlock: a reader arrives with an atomic
	      add to its word, and leaves with a compare-and-swap;
     tp       the fork's TP rwlock (PTHREAD_RWLOCK_TP_NP, by number:
	      this program is built against the system's headers; left
	      out on a libc that refuses the kind): a reader arrives and
	      leaves with a compare-and-swap, because its word may hold a
	      writer's TID, which an add would change into another TID;
     cas      no rwlock, a bare reader count laid out as a
	      pthread_rwlock_t (the count first, a kind word 48 bytes on,
	      which every operation loads first, as the rwlock functions
	      load the lock's kind): arrival and departure by load and
	      compare-and-swap, nothing else;
     add      the same count, arrival by atomic add, departure by load
	      and compare-and-swap: the default rwlock's operations on
	      that word.

   cas and add differ only in the arrival's instruction: their ratio is
   what a compare-and-swap arrival costs when both processors read the
   lock at once (the word's cache line then moves at every arrival and
   departure, and the compare-and-swap fails, and is retried, when the
   other processor wrote the word between its load and it; an add never
   fails).  tp over cas, and default over add, are what each rwlock's
   path costs beyond the bare operations on its word.

   Printed: the median throughput (Mops/s) of each way and section, with
   its spread over the rounds; then per section the medians over the
   rounds of tp, cas and add over default and of cas over add, each from
   the same round.  Exits 1 on a bad argument, a machine without
   processors 0 and 1, a failed call, or a count that did not return to
   zero.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bound-rounds.h"

#define CACHE_LINE 64

enum way { DEFAULT, TP, CAS, ADD, N_WAYS };
static const char *const way_names[] = { "default", "tp", "cas", "add" };
/* PTHREAD_RWLOCK_TP_NP in the fork's <pthread.h>.  */
#define RWLOCK_TP_KIND 4

static const unsigned int sections[] = { 0, 100, 1000 };
static const char *const section_names[] = { "short", "medium", "long" };
#define N_SECTIONS (sizeof sections / sizeof sections[0])

static double seconds = 0.2;
static unsigned int rounds = 7;

/* The bare reader count, laid out as the rwlock's words.  */
static struct
{
  _Alignas (CACHE_LINE) atomic_uint count;
  unsigned int unused[11];
  atomic_uint kind;
} bare;

/* Aligned as bench-lock-contention aligns its lock.  */
static _Alignas (CACHE_LINE) pthread_rwlock_t rwlock;
static unsigned int inside;
static atomic_bool stop;

struct worker
{
  _Alignas (CACHE_LINE) pthread_t thread;
  int cpu;
  enum way way;
  uint64_t ops;
};

/* Relaxed MO on the kind word: it only stands for the rwlock functions'
   load of the lock's kind.  The count's acquire and release MO are a
   reader lock's.  */
static void
bare_arrive (bool add)
{
  if (atomic_load_explicit (&bare.kind, memory_order_relaxed) != 0)
    abort ();
  if (add)
    {
      atomic_fetch_add_explicit (&bare.count, 1, memory_order_acquire);
      return;
    }
  unsigned int v = atomic_load_explicit (&bare.count, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit (&bare.count, &v, v + 1,
						 memory_order_acquire,
						 memory_order_relaxed))
    ;
}

static void
bare_leave (void)
{
  if (atomic_load_explicit (&bare.kind, memory_order_relaxed) != 0)
    abort ();
  unsigned int v = atomic_load_explicit (&bare.count, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit (&bare.count, &v, v - 1,
						 memory_order_release,
						 memory_order_relaxed))
    ;
}

static void *
worker_main (void *arg)
{
  struct worker *w = arg;
  pin_to (w->cpu);
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    {
      if (w->way == CAS || w->way == ADD)
	{
	  bare_arrive (w->way == ADD);
	  spin_work (inside);
	  bare_leave ();
	}
      else
	{
	  pthread_rwlock_rdlock (&rwlock);
	  spin_work (inside);
	  pthread_rwlock_unlock (&rwlock);
	}
      w->ops++;
    }
  return NULL;
}

/* One run of WAY with sections of INSIDE iterations: Mops/s, or -1 if
   the libc refuses the rwlock kind.  */
static double
run (enum way way)
{
  if ((way == DEFAULT || way == TP)
      && !rwlock_of_kind (&rwlock, (way == TP ? RWLOCK_TP_KIND
				    : PTHREAD_RWLOCK_DEFAULT_NP)))
    return -1;
  struct worker workers[2];
  atomic_store_explicit (&stop, false, memory_order_relaxed);
  for (int i = 0; i < 2; i++)
    {
      workers[i] = (struct worker) { .cpu = i, .way = way };
      int err = pthread_create (&workers[i].thread, NULL, worker_main,
				&workers[i]);
      if (err != 0)
	fail ("pthread_create", err);
    }
  long long start = now_ns ();
  sleep_for (seconds);
  atomic_store_explicit (&stop, true, memory_order_relaxed);
  uint64_t ops = 0;
  for (int i = 0; i < 2; i++)
    {
      pthread_join (workers[i].thread, NULL);
      ops += workers[i].ops;
    }
  double elapsed = (now_ns () - start) * 1e-9;
  if (way == DEFAULT || way == TP)
    pthread_rwlock_destroy (&rwlock);
  else if (atomic_load_explicit (&bare.count, memory_order_relaxed) != 0)
    {
      fprintf (stderr, "rwlock-read-arrival: the reader count ended at"
	       " %u\n", atomic_load_explicit (&bare.count,
					      memory_order_relaxed));
      exit (1);
    }
  return ops / elapsed / 1e6;
}

int
main (int argc, char **argv)
{
  bool bad = argc > 3;
  char *end;
  if (argc > 1)
    {
      seconds = strtod (argv[1], &end);
      bad |= end == argv[1] || *end != '\0';
    }
  if (argc > 2)
    {
      rounds = strtoul (argv[2], &end, 10);
      bad |= end == argv[2] || *end != '\0';
    }
  if (bad || !(seconds > 0 && seconds <= 60) || rounds < 1
      || rounds > MAX_ROUNDS)
    {
      fprintf (stderr, "usage: rwlock-read-arrival [SECONDS [ROUNDS]]\n"
	       "  0 < SECONDS <= 60, 1 <= ROUNDS <= %d\n", MAX_ROUNDS);
      return 1;
    }
  cpu_set_t online;
  if (sched_getaffinity (0, sizeof online, &online) != 0)
    fail ("sched_getaffinity", errno);
  if (!CPU_ISSET (0, &online) || !CPU_ISSET (1, &online))
    {
      fprintf (stderr, "rwlock-read-arrival: needs processors 0 and 1\n");
      return 1;
    }

  static double mops[N_SECTIONS][N_WAYS][MAX_ROUNDS];
  printf ("rwlock-read-arrival: 2 threads on processors 0 and 1, reads"
	  " only, no gap, %u rounds of %g s\n", rounds, seconds);
  fflush (stdout);
  for (unsigned int s = 0; s < N_SECTIONS; s++)
    {
      inside = sections[s];
      for (unsigned int r = 0; r < rounds; r++)
	/* Rotate the order by the round, as bench-lock-contention
	   does.  */
	for (unsigned int k = 0; k < N_WAYS; k++)
	  {
	    enum way w = (k + r) % N_WAYS;
	    mops[s][w][r] = run (w);
	  }
    }

  bool have_tp = mops[0][TP][0] >= 0;
  printf ("%-8s %-8s %8s %18s\n", "section", "way", "Mops/s",
	  "rounds min-max");
  for (unsigned int s = 0; s < N_SECTIONS; s++)
    for (enum way w = 0; w < N_WAYS; w++)
      {
	if (w == TP && !have_tp)
	  {
	    printf ("%-8s %-8s (this libc has no such rwlock kind)\n",
		    section_names[s], way_names[w]);
	    continue;
	  }
	double lo, hi;
	spread_of_rounds (mops[s][w], rounds, &lo, &hi);
	printf ("%-8s %-8s %8.3f %8.3f-%.3f\n", section_names[s],
		way_names[w], median_of_rounds (mops[s][w], rounds), lo, hi);
      }
  printf ("\nmedians over the rounds of the ratios in each round\n");
  printf ("%-8s %9s %9s %9s %9s\n", "section", "tp/dflt", "cas/dflt",
	  "add/dflt", "cas/add");
  for (unsigned int s = 0; s < N_SECTIONS; s++)
    {
      double ratio[4][MAX_ROUNDS];
      for (unsigned int r = 0; r < rounds; r++)
	{
	  ratio[0][r] = mops[s][TP][r] / mops[s][DEFAULT][r];
	  ratio[1][r] = mops[s][CAS][r] / mops[s][DEFAULT][r];
	  ratio[2][r] = mops[s][ADD][r] / mops[s][DEFAULT][r];
	  ratio[3][r] = mops[s][CAS][r] / mops[s][ADD][r];
	}
      printf ("%-8s", section_names[s]);
      for (int i = 0; i < 4; i++)
	if (i == 0 && !have_tp)
	  printf (" %9s", "-");
	else
	  printf (" %9.3f", median_of_rounds (ratio[i], rounds));
      printf ("\n");
    }
  return 0;
}
