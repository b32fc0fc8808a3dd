/* The most a reader/writer lock can give the rwlock sweep's writer cells.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: rwlock-read-pairing [INSIDE [READ_PCT [SECONDS [ROUNDS]]]]
   (defaults 1000, 50, 0.2, 5: make bench's long sections, 50 % reads).

   bench-lock-contention's rwlock operations (its critical section: the
   same spin loop and the same check of a counter and its complement)
   run here in three ways, in ROUNDS interleaved rounds of SECONDS each:

     default-tN  glibc's default rwlock with N threads (1, 3, 4, 8, 16),
		 as the benchmark runs it, no gap between operations;
     tp-tN       the same with the fork's TP rwlock (left out on a libc
		 that refuses the kind);
     alone       one thread, no lock: the whole stream of operations on
		 one processor, data always in its cache;
     alone-rmw   the same with two atomic read-modify-writes of a lock
		 word around each operation, inline (a reader adds and
		 subtracts 1, a writer swaps the word in and out): the
		 least that a lock which takes and releases its word by
		 read-modify-writes costs (glibc's rwlocks do), without
		 glibc's function calls and checks;
     pairing     two threads, one pinned to each processor, no lock: the
		 schedule that uses the second processor as well as any
		 lock can.  Writes exclude everything, so only reads can
		 run at the same time; each round, the thread on processor
		 0 runs its writes up to its next read, then the thread on
		 processor 1 does, then both run that read together.  Every
		 read is paired with a read of the other processor.  The
		 two threads hand over through plain stores and loads of
		 three words (no read-modify-write), less than any lock
		 word's traffic;
     switch      two threads pinned to processor 0 hand a word to each
		 other through FUTEX_WAIT and FUTEX_WAKE: one thread
		 switch per hand-over (its "Mops/s" is switches).

   A lock can run only the operations of the threads that are running,
   at most one per processor: it runs them on one processor at a time
   (alone, at best), or on both with reads paired (pairing, at best), or
   a mix of the two.  Taking up the operation of a thread that is not
   running means a thread switch, which costs more than a whole long
   operation (the switch line against alone's).  So the better of alone
   and pairing, run with no lock at all, is above what any lock achieves
   in that workload: if it is below 1.5 times the default rwlock's
   throughput, the TP rwlock's 1.5x target for that cell is beyond this
   machine.

   Printed: each configuration's median throughput (Mops/s) and its
   spread over the rounds; the time of one operation alone and of one
   thread switch; then for tp, alone, alone-rmw and pairing the median
   over the rounds of their throughput over the default rwlock's with
   each thread count in the same round, and the same for tp-t1, the TP
   rwlock's one thread: what the TP rwlock reaches with every operation
   on one processor if contention costs it nothing.
   Exits 1 on a failed system call or if an operation saw the protected
   data torn (the schedule's own check).  */

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
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include "bound-rounds.h"

#define CACHE_LINE 64
#define MAX_THREADS 16

static const unsigned int lock_threads[] = { 1, 3, 4, 8, 16 };
#define N_THREAD_COUNTS (sizeof lock_threads / sizeof lock_threads[0])

/* The rwlock kinds that run the operations: glibc's default, and the
   fork's TP rwlock (PTHREAD_RWLOCK_TP_NP, by number: this program is
   built against the system's headers), which a stock libc refuses.  */
static const int lock_kinds[] = { PTHREAD_RWLOCK_DEFAULT_NP, 4 };
static const char *const lock_names[] = { "default", "tp" };
#define N_KINDS (sizeof lock_kinds / sizeof lock_kinds[0])
#define N_LOCKED (N_KINDS * N_THREAD_COUNTS)

/* Configurations 0 .. N_LOCKED - 1 are kind C / N_THREAD_COUNTS with
   lock_threads[C % N_THREAD_COUNTS] threads.  */
enum config { ALONE = N_LOCKED, ALONE_RMW, PAIRING, SWITCH, N_CONFIGS };

/* The TP rwlock's one-thread configuration (lock_threads[0] is 1).  */
#define TP_T1 N_THREAD_COUNTS

static unsigned int inside = 1000;
static unsigned int read_pct = 50;
static double seconds = 0.2;
static unsigned int rounds = 5;

/* The benchmark's protected data and spin loop.  */
struct protected_data
{
  _Alignas (CACHE_LINE) uint64_t counter;
  uint64_t check;
};
static struct protected_data data;

#define reload_barrier() __asm__ __volatile__ ("" : : : "memory")

static atomic_bool torn;

static void
write_section (void)
{
  uint64_t c = data.counter;
  spin_work (inside);
  data.counter = c + 1;
  data.check = ~(c + 1);
}

static void
read_section (void)
{
  uint64_t c1 = data.counter;
  uint64_t k1 = data.check;
  spin_work (inside);
  reload_barrier ();
  if (k1 != ~c1 || data.counter != c1 || data.check != k1)
    atomic_store_explicit (&torn, true, memory_order_relaxed);
}

/* xorshift64: the operation stream of one thread.  */
static bool
next_is_read (uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s % 100 < read_pct;
}

static atomic_bool stop;

struct worker
{
  _Alignas (CACHE_LINE) pthread_t thread;
  unsigned int index;
  uint64_t seed;
  uint64_t ops;
  pthread_rwlock_t *rwlock;
};

static void *
locked_main (void *arg)
{
  struct worker *w = arg;
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    {
      if (next_is_read (&w->seed))
	{
	  pthread_rwlock_rdlock (w->rwlock);
	  read_section ();
	}
      else
	{
	  pthread_rwlock_wrlock (w->rwlock);
	  write_section ();
	}
      pthread_rwlock_unlock (w->rwlock);
      w->ops++;
    }
  return NULL;
}

/* ALONE's loop, and with WITH_RMW ALONE_RMW's, whose lock word is a
   count of readers, or WORD_WRITER.  Inlined into each with WITH_RMW
   constant, so that ALONE runs no test of it.  */
static _Alignas (CACHE_LINE) _Atomic unsigned int rmw_word;
#define WORD_WRITER 0x80000000u

static __attribute__ ((always_inline)) inline void
alone_loop (struct worker *w, bool with_rmw)
{
  pin_to (0);
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    {
      /* Acquire and release MO, as a lock's; alone, the RMWs never
	 fail and the word is never contended.  */
      if (next_is_read (&w->seed))
	{
	  if (with_rmw)
	    atomic_fetch_add_explicit (&rmw_word, 1, memory_order_acquire);
	  read_section ();
	  if (with_rmw)
	    atomic_fetch_sub_explicit (&rmw_word, 1, memory_order_release);
	}
      else
	{
	  if (with_rmw)
	    atomic_exchange_explicit (&rmw_word, WORD_WRITER,
				      memory_order_acquire);
	  write_section ();
	  if (with_rmw)
	    atomic_exchange_explicit (&rmw_word, 0, memory_order_release);
	}
      w->ops++;
    }
}

static void *
alone_main (void *arg)
{
  alone_loop (arg, false);
  return NULL;
}

static void *
alone_rmw_main (void *arg)
{
  alone_loop (arg, true);
  return NULL;
}

/* The pairing schedule's hand-over words, each on its own line: the
   round whose writes of processor 0 are done (A_WRITTEN), whose writes
   of processor 1 are done (B_WRITTEN), whose read of processor 1 is
   done (B_READ).  A_WRITTEN == UINT64_MAX: processor 0 has stopped.
   Release stores and acquire loads order the protected data's accesses
   of one side before those of the other side that wait for them.  */
struct handover
{
  _Alignas (CACHE_LINE) _Atomic uint64_t word;
};
static struct handover a_written, b_written, b_read;

static bool
wait_for (struct handover *h, uint64_t round)
{
  uint64_t v;
  while ((v = atomic_load_explicit (&h->word, memory_order_acquire)) < round)
    {
#if defined __x86_64__ || defined __i386__
      __builtin_ia32_pause ();
#endif
    }
  return v != UINT64_MAX;
}

/* Run the writes of W's stream up to its next read, then leave that
   read pending (the caller runs it); or up to the end of the run, for a
   stream without reads (READ_PCT 0).  */
static void
writes_until_read (struct worker *w)
{
  while (!next_is_read (&w->seed)
	 && !atomic_load_explicit (&stop, memory_order_relaxed))
    {
      write_section ();
      w->ops++;
    }
}

static void *
pairing_a_main (void *arg)
{
  struct worker *w = arg;
  pin_to (0);
  for (uint64_t round = 1;; round++)
    {
      /* Processor 1's read of the round before has ended.  */
      wait_for (&b_read, round - 1);
      if (atomic_load_explicit (&stop, memory_order_relaxed))
	{
	  atomic_store_explicit (&a_written.word, UINT64_MAX,
				 memory_order_release);
	  return NULL;
	}
      writes_until_read (w);
      atomic_store_explicit (&a_written.word, round, memory_order_release);
      wait_for (&b_written, round);
      read_section ();
      w->ops++;
    }
}

static void *
pairing_b_main (void *arg)
{
  struct worker *w = arg;
  pin_to (1);
  for (uint64_t round = 1;; round++)
    {
      if (!wait_for (&a_written, round))
	return NULL;
      writes_until_read (w);
      atomic_store_explicit (&b_written.word, round, memory_order_release);
      read_section ();
      w->ops++;
      atomic_store_explicit (&b_read.word, round, memory_order_release);
    }
}

/* The switch pair's word: the hand-overs so far.  Worker 0 runs while it
   is even, worker 1 while it is odd.  */
static _Alignas (CACHE_LINE) _Atomic unsigned int switch_word;

static void
switch_futex (int op, unsigned int val)
{
  syscall (SYS_futex, &switch_word, op, val, NULL, NULL, 0);
}

static void *
switch_main (void *arg)
{
  struct worker *w = arg;
  pin_to (0);
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    {
      unsigned int v = atomic_load_explicit (&switch_word,
					     memory_order_acquire);
      if ((v & 1) != w->index)
	{
	  switch_futex (FUTEX_WAIT_PRIVATE, v);
	  continue;
	}
      atomic_store_explicit (&switch_word, v + 1, memory_order_release);
      switch_futex (FUTEX_WAKE_PRIVATE, 1);
      w->ops++;
    }
  /* Change the word, keeping whose turn it is, so that the other one
     does not sleep on, and wake it: it sees the stop too.  */
  atomic_fetch_add (&switch_word, 2);
  switch_futex (FUTEX_WAKE_PRIVATE, 1);
  return NULL;
}

/* One run of configuration C: its throughput in Mops/s, or -1 if the
   libc refuses its lock kind.  */
static double
run (enum config c, uint64_t seed)
{
  static struct worker workers[MAX_THREADS];
  pthread_rwlock_t rwlock;
  unsigned int n;
  void *(*main_of[2]) (void *);
  if (c < N_LOCKED)
    {
      n = lock_threads[c % N_THREAD_COUNTS];
      main_of[0] = main_of[1] = locked_main;
      if (!rwlock_of_kind (&rwlock, lock_kinds[c / N_THREAD_COUNTS]))
	return -1;
    }
  else if (c == ALONE || c == ALONE_RMW)
    {
      n = 1;
      main_of[0] = c == ALONE ? alone_main : alone_rmw_main;
    }
  else if (c == SWITCH)
    {
      n = 2;
      main_of[0] = main_of[1] = switch_main;
      atomic_store (&switch_word, 0);
    }
  else
    {
      n = 2;
      main_of[0] = pairing_a_main;
      main_of[1] = pairing_b_main;
      atomic_store (&a_written.word, 0);
      atomic_store (&b_written.word, 0);
      atomic_store (&b_read.word, 0);
    }
  data.counter = 0;
  data.check = ~(uint64_t) 0;
  atomic_store (&stop, false);
  for (unsigned int i = 0; i < n; i++)
    {
      workers[i].index = i;
      workers[i].seed = seed + 0x9e3779b97f4a7c15ULL * (i + 1);
      workers[i].ops = 0;
      workers[i].rwlock = &rwlock;
    }
  long long start = now_ns ();
  for (unsigned int i = 0; i < n; i++)
    {
      int err = pthread_create (&workers[i].thread, NULL,
				main_of[i < 2 ? i : 0], &workers[i]);
      if (err != 0)
	fail ("pthread_create", err);
    }
  sleep_for (seconds);
  atomic_store (&stop, true);
  uint64_t ops = 0;
  for (unsigned int i = 0; i < n; i++)
    {
      pthread_join (workers[i].thread, NULL);
      ops += workers[i].ops;
    }
  double elapsed = (now_ns () - start) * 1e-9;
  if (c < N_LOCKED)
    pthread_rwlock_destroy (&rwlock);
  if (atomic_load (&torn))
    {
      fprintf (stderr, "rwlock-read-pairing: a reader saw torn data\n");
      exit (1);
    }
  return ops / elapsed / 1e6;
}

/* One line of ratios to the default rwlock with each thread count, in
   the same round: of configuration FIRST + the thread count's index
   (PER_THREAD), or of FIRST alone.  */
static void
print_ratios (const char *label, double mops[][MAX_ROUNDS], enum config first,
	      bool per_thread)
{
  printf ("%-12s", label);
  for (unsigned int t = 0; t < N_THREAD_COUNTS; t++)
    {
      double ratio[MAX_ROUNDS];
      enum config other = per_thread ? first + t : first;
      for (unsigned int r = 0; r < rounds; r++)
	ratio[r] = mops[other][r] / mops[t][r];
      printf (" t%-2u %5.2f", lock_threads[t],
	      median_of_rounds (ratio, rounds));
    }
  printf ("\n");
}

static const char *
name_of (enum config c, char *buf, size_t len)
{
  if (c < N_LOCKED)
    snprintf (buf, len, "%s-t%u", lock_names[c / N_THREAD_COUNTS],
	      lock_threads[c % N_THREAD_COUNTS]);
  else
    snprintf (buf, len, "%s", (c == ALONE ? "alone"
			       : c == ALONE_RMW ? "alone-rmw"
			       : c == PAIRING ? "pairing" : "switch"));
  return buf;
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    inside = strtoul (argv[1], NULL, 10);
  if (argc > 2)
    read_pct = strtoul (argv[2], NULL, 10);
  if (argc > 3)
    seconds = strtod (argv[3], NULL);
  if (argc > 4)
    rounds = strtoul (argv[4], NULL, 10);
  if (argc > 5 || read_pct > 100 || !(seconds > 0 && seconds <= 60)
      || rounds < 1 || rounds > MAX_ROUNDS)
    {
      fprintf (stderr, "usage: rwlock-read-pairing [INSIDE [READ_PCT"
	       " [SECONDS [ROUNDS]]]]\n  READ_PCT <= 100, 0 < SECONDS <= 60,"
	       " 1 <= ROUNDS <= %d\n", MAX_ROUNDS);
      return 1;
    }

  double mops[N_CONFIGS][MAX_ROUNDS];
  printf ("rwlock-read-pairing: %u iterations inside, %u %% reads, "
	  "%u rounds of %g s\n", inside, read_pct, rounds, seconds);
  fflush (stdout);
  for (unsigned int r = 0; r < rounds; r++)
    /* Rotate the order by the round, as bench-lock-contention does.  */
    for (unsigned int k = 0; k < N_CONFIGS; k++)
      {
	enum config c = (k + r) % N_CONFIGS;
	mops[c][r] = run (c, 0x2545f4914f6cdd1dULL * (r + 1) + c);
      }

  char buf[32];
  printf ("%-12s %8s %18s\n", "config", "Mops/s", "rounds min-max");
  for (enum config c = 0; c < N_CONFIGS; c++)
    {
      if (mops[c][0] < 0)
	{
	  printf ("%-12s (this libc has no such rwlock kind)\n",
		  name_of (c, buf, sizeof buf));
	  continue;
	}
      double lo, hi;
      spread_of_rounds (mops[c], rounds, &lo, &hi);
      printf ("%-12s %8.3f %8.3f-%-8.3f\n", name_of (c, buf, sizeof buf),
	      median_of_rounds (mops[c], rounds), lo, hi);
    }
  printf ("\none operation alone %.3f us, one thread switch %.3f us\n",
	  1 / median_of_rounds (mops[ALONE], rounds),
	  1 / median_of_rounds (mops[SWITCH], rounds));
  printf ("\nover the default rwlock, per round as lock_bench_report.py"
	  " does (the TP rwlock's target: 1.5)\n");
  if (mops[TP_T1][0] >= 0)
    {
      print_ratios ("tp", mops, TP_T1, true);
      print_ratios ("tp-t1", mops, TP_T1, false);
    }
  for (enum config c = ALONE; c < SWITCH; c++)
    print_ratios (name_of (c, buf, sizeof buf), mops, c, false);
  return 0;
}
