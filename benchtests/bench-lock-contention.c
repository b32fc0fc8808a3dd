/* Lock throughput, fairness and wait times under contention.
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

/* What this measures
   ==================

   Every lock kind of KINDS[] below runs the same loop in N threads for a
   fixed wall-clock time:

     take the lock          (timed: the wait of this operation)
     critical section       (INSIDE iterations of spin_work)
     release the lock
     non-critical section   (OUTSIDE iterations of spin_work)

   INSIDE is the "load latency" and OUTSIDE the "lock latency" of the
   perf-bench futex microbenchmarks, both counted in iterations of a loop
   the compiler cannot remove.  The critical-section presets are
   short = 0, medium = L and long = 10 * L iterations, where L is
   --load-latency (default 100); OUTSIDE is --lock-latency (default 100)
   for every preset.  For a reader/writer lock each operation is a read
   with probability --read-pct percent (default 50), else a write.

   The threads start together at a barrier and stop when the main thread
   raises a flag after --duration seconds (default 0.5).  The sweep is
   kinds x threads {1,2,4,8} x critical sections {short,medium,long}.

   Per run we keep, per thread: operation counts, a log-bucket histogram
   of the wait (clock_gettime (CLOCK_MONOTONIC) before and after the lock
   call; reads and writes apart) and the voluntary context switches
   (getrusage (RUSAGE_THREAD)), which stand in for futex sleeps.  The
   histograms are fixed-size, so the memory does not grow with the number
   of operations, and are merged after the threads have been joined.
   The second clock_gettime call runs while the lock is held and so
   lengthens every critical section by its cost (tens of ns);
   --no-wait-timing leaves both calls out, for throughput without that
   probe effect, and then no wait statistics are reported.

   Invariant (the benchmark is also a smoke test)
   ==============================================

   The lock protects struct protected_data: a plain, non-atomic counter
   and its bitwise complement.  A writer (every mutex operation) reads the
   counter, does the critical-section work, then stores counter + 1 and
   its complement.  A reader checks that the pair is consistent and does
   not change during its critical section.  At the end of each run:

     I1. counter == sum over threads of write operations;
     I2. check == ~counter;
     I3. no reader and no writer saw an inconsistent pair.

   A violation prints a message and exits with status 1.  The "busted"
   control kind takes no lock at all; it is not part of the default sweep
   and must fail with two threads or more and cs=medium or long, which
   shows that the check works (with cs=short the race window is a few
   instructions wide, and a short run may miss it).

   Output
   ======

   glibc's benchout format (benchtests/scripts/benchout.schema.json).  The
   schema allows only a fixed set of properties per variant, so the run
   parameters live in the variant name, "<kind>-t<threads>-<cs>", and the
   measurements are spread over five functions:

     lock_contention           per run: duration (ns, wall clock),
			       iterations (operations, all threads), mean
			       (ns per operation, duration / iterations),
			       wall-sec, throughput (operations per second),
			       min-throughput and max-throughput (slowest
			       and fastest thread, operations per second),
			       stdev (of the per-thread operations per
			       second) and timings (operations of each
			       thread, in thread order).
     lock_contention_wait      per run and statistic, variant
			       "<run>,<class>=<stat>" with class wait (all
			       operations), rd-wait or wr-wait (rwlocks
			       only) and stat p50, p99, p99.9 or max:
			       latency (ns), iterations (operations in
			       that class), duration (their total wait,
			       ns).
     lock_contention_ctxsw     per run: mean (voluntary context switches
			       per operation), min and max (the same for
			       the least and most switching thread),
			       duration and iterations as above.
     lock_contention_slowpath  for kinds that count slow-path events
			       (the TP mutex), per run and event,
			       variant "<run>,<event>" with event
			       lock-syscalls (FUTEX_LOCK or FUTEX_WAIT),
			       unlock-syscalls (FUTEX_UNLOCK or
			       FUTEX_WAKE), handoffs, or kernel-path (1 if
			       the kernel's TP operations served it):
			       iterations (the count) and mean (per
			       operation).
     lock_contention_config    one variant naming the parameters,
			       "load-latency=L,lock-latency=O,read-pct=R",
			       with ",wait-timing=off" appended (and no
			       lock_contention_wait variants) under
			       --no-wait-timing: duration (requested run
			       time, ns) and iterations (number of runs).

   By default the program prints a complete document; --fragment prints
   only the functions, which is what the benchtests "bench" target splices
   into its bench.out.  Building with -DLOCK_CONTENTION_FRAGMENT makes the
   fragment the default, for that target, which runs the program without
   arguments.  */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "json-lib.h"

/* Inside the fork's tree the TP mutex counts its slow-path events.  */
#if defined PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP \
    && __has_include (<pthread_mutex_tp_stats.h>)
# include <pthread_mutex_tp_stats.h>
# define HAVE_TP_STATS 1
#endif

/* Padding that keeps the lock, the shared counter and each thread's
   state on cache lines of their own: POWER's lines are 128 bytes, the
   other targets' 64.  */
#ifdef __powerpc64__
# define CACHE_LINE 128
#else
# define CACHE_LINE 64
#endif
#define MAX_THREADS 256
#define NAME_MAX_LEN 160

/* Exit statuses: a failed invariant or a lock call that failed is 1, a
   bad command line is 2.  */
#define EXIT_INVARIANT 1
#define EXIT_USAGE 2


/* Lock kinds.  */

union bench_lock
{
  pthread_mutex_t mutex;
  pthread_rwlock_t rwlock;
};

struct lock_kind;

/* The lock operations of a kind.  Every call returns 0 or an error
   number, as the pthread functions do.  RDLOCK is NULL for a mutex.  */
struct lock_ops
{
  int (*init) (union bench_lock *, const struct lock_kind *);
  int (*destroy) (union bench_lock *);
  int (*lock) (union bench_lock *);
  int (*rdlock) (union bench_lock *);
  int (*unlock) (union bench_lock *);
};

/* Slow-path events of a run, for kinds that count them (the TP mutex):
   system calls on the lock and unlock sides, and ownership hand-offs.  */
struct slowpath
{
  uint64_t lock_syscalls;
  uint64_t unlock_syscalls;
  uint64_t handoffs;
  bool kernel_path;
};

struct lock_kind
{
  const char *name;
  const struct lock_ops *ops;
  /* Attribute values handed to INIT: the mutex type and protocol, or the
     rwlock kind (PARAM2 unused).  */
  int param1;
  int param2;
  /* Left out of the default sweep: selected by --kinds only.  */
  bool control;
  /* Reads the process-wide slow-path counters, or NULL.  */
  void (*slowpath) (struct slowpath *);
};

static int
mutex_init (union bench_lock *l, const struct lock_kind *k)
{
  pthread_mutexattr_t attr;
  int err = pthread_mutexattr_init (&attr);
  if (err == 0)
    err = pthread_mutexattr_settype (&attr, k->param1);
  if (err == 0)
    err = pthread_mutexattr_setprotocol (&attr, k->param2);
  if (err == 0)
    err = pthread_mutex_init (&l->mutex, &attr);
  pthread_mutexattr_destroy (&attr);
  return err;
}

static int
mutex_destroy (union bench_lock *l)
{
  return pthread_mutex_destroy (&l->mutex);
}

static int
mutex_lock (union bench_lock *l)
{
  return pthread_mutex_lock (&l->mutex);
}

static int
mutex_unlock (union bench_lock *l)
{
  return pthread_mutex_unlock (&l->mutex);
}

static int
rwlock_init (union bench_lock *l, const struct lock_kind *k)
{
  pthread_rwlockattr_t attr;
  int err = pthread_rwlockattr_init (&attr);
  if (err == 0)
    err = pthread_rwlockattr_setkind_np (&attr, k->param1);
  if (err == 0)
    err = pthread_rwlock_init (&l->rwlock, &attr);
  pthread_rwlockattr_destroy (&attr);
  return err;
}

static int
rwlock_destroy (union bench_lock *l)
{
  return pthread_rwlock_destroy (&l->rwlock);
}

static int
rwlock_wrlock (union bench_lock *l)
{
  return pthread_rwlock_wrlock (&l->rwlock);
}

static int
rwlock_rdlock (union bench_lock *l)
{
  return pthread_rwlock_rdlock (&l->rwlock);
}

static int
rwlock_unlock (union bench_lock *l)
{
  return pthread_rwlock_unlock (&l->rwlock);
}

static int
busted_init (union bench_lock *l, const struct lock_kind *k)
{
  (void) l;
  (void) k;
  return 0;
}

static int
busted_nop (union bench_lock *l)
{
  (void) l;
  return 0;
}

static const struct lock_ops mutex_ops =
  { mutex_init, mutex_destroy, mutex_lock, NULL, mutex_unlock };
static const struct lock_ops rwlock_ops =
  { rwlock_init, rwlock_destroy, rwlock_wrlock, rwlock_rdlock,
    rwlock_unlock };
static const struct lock_ops busted_ops =
  { busted_init, busted_nop, busted_nop, NULL, busted_nop };

#define MUTEX_KIND(name, type, protocol) \
  { name, &mutex_ops, type, protocol, false, NULL }
#define RWLOCK_KIND(name, kind) \
  { name, &rwlock_ops, kind, 0, false, NULL }

#ifdef HAVE_TP_STATS
static void
tp_slowpath (struct slowpath *s)
{
  unsigned long int c[TP_STAT_COUNT];
  __pthread_mutex_tp_stats (c, TP_STAT_COUNT);
  s->lock_syscalls = c[TP_STAT_KERNEL_LOCKS] + c[TP_STAT_USER_SLEEPS];
  s->unlock_syscalls = c[TP_STAT_KERNEL_UNLOCKS] + c[TP_STAT_USER_WAKES];
  s->handoffs = c[TP_STAT_HANDOFFS];
  s->kernel_path = c[TP_STAT_KERNEL_MODE] != 0;
}
#endif

/* One row per kind, in the order of the default sweep.  A new mutex
   protocol or rwlock kind is one more MUTEX_KIND or RWLOCK_KIND row.  */
static const struct lock_kind kinds[] =
  {
    MUTEX_KIND ("mutex-normal", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE),
    MUTEX_KIND ("mutex-adaptive", PTHREAD_MUTEX_ADAPTIVE_NP,
		PTHREAD_PRIO_NONE),
    MUTEX_KIND ("mutex-pi", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_INHERIT),
    RWLOCK_KIND ("rwlock-default", PTHREAD_RWLOCK_PREFER_READER_NP),
    RWLOCK_KIND ("rwlock-prefer-writer",
		 PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP),
    /* The fork's kinds, where the headers have them.  */
#ifdef HAVE_TP_STATS
    { "mutex-tp", &mutex_ops, PTHREAD_MUTEX_NORMAL, PTHREAD_THROUGHPUT_NP,
      false, tp_slowpath },
#elif defined PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP
    MUTEX_KIND ("mutex-tp", PTHREAD_MUTEX_NORMAL, PTHREAD_THROUGHPUT_NP),
#endif
#ifdef PTHREAD_RWLOCK_PHASE_FAIR_INITIALIZER_NP
    RWLOCK_KIND ("rwlock-phase-fair", PTHREAD_RWLOCK_PHASE_FAIR_NP),
#endif
#if defined HAVE_TP_STATS && defined PTHREAD_RWLOCK_TP_INITIALIZER_NP
    { "rwlock-tp", &rwlock_ops, PTHREAD_RWLOCK_TP_NP, 0, false,
      tp_slowpath },
#elif defined PTHREAD_RWLOCK_TP_INITIALIZER_NP
    RWLOCK_KIND ("rwlock-tp", PTHREAD_RWLOCK_TP_NP),
#endif
    /* Control: no mutual exclusion at all; the invariant must fail.  */
    { "busted", &busted_ops, 0, 0, true, NULL },
  };
#define NKINDS (sizeof (kinds) / sizeof (kinds[0]))

static bool
kind_is_rwlock (const struct lock_kind *k)
{
  return k->ops->rdlock != NULL;
}


/* Critical-section presets.  */

enum cs_preset
  {
    CS_SHORT,
    CS_MEDIUM,
    CS_LONG,
    CS_COUNT
  };

static const char *const cs_names[CS_COUNT] = { "short", "medium", "long" };


/* Wait-time histogram.  Values (ns) below HIST_SUB have a bucket each;
   above, every power of two is split into HIST_SUB buckets, so a bucket
   is at most 1/HIST_SUB (12.5%) wide relative to its values.  Values of
   2^(HIST_MAX_EXP + 1) ns (about 78 hours) and more share the last
   bucket.  */

#define HIST_SUB_BITS 3
#define HIST_SUB (1U << HIST_SUB_BITS)
#define HIST_MAX_EXP 47
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_EXP - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist
{
  uint64_t count;
  uint64_t sum;
  uint64_t max;
  uint64_t bucket[HIST_BUCKETS];
};

static unsigned int
hist_index (uint64_t v)
{
  if (v < HIST_SUB)
    return (unsigned int) v;
  unsigned int e = 63 - __builtin_clzll (v);
  if (e > HIST_MAX_EXP)
    return HIST_BUCKETS - 1;
  return (HIST_SUB + (e - HIST_SUB_BITS) * HIST_SUB
	  + ((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1)));
}

/* The largest value that falls into bucket I.  */
static uint64_t
hist_bucket_top (unsigned int i)
{
  if (i < HIST_SUB)
    return i;
  unsigned int k = i - HIST_SUB;
  unsigned int shift = k / HIST_SUB;
  uint64_t low = (uint64_t) (HIST_SUB + k % HIST_SUB) << shift;
  return low + ((uint64_t) 1 << shift) - 1;
}

static inline void
hist_add (struct hist *h, uint64_t v)
{
  h->count++;
  h->sum += v;
  if (v > h->max)
    h->max = v;
  h->bucket[hist_index (v)]++;
}

static void
hist_merge (struct hist *to, const struct hist *from)
{
  to->count += from->count;
  to->sum += from->sum;
  if (from->max > to->max)
    to->max = from->max;
  for (unsigned int i = 0; i < HIST_BUCKETS; i++)
    to->bucket[i] += from->bucket[i];
}

/* The value below which a fraction Q of the samples fall, as the top of
   its bucket but never above the largest sample.  0 if empty.  */
static uint64_t
hist_quantile (const struct hist *h, double q)
{
  if (h->count == 0)
    return 0;
  uint64_t rank = (uint64_t) ceil (q * (double) h->count);
  if (rank < 1)
    rank = 1;
  uint64_t seen = 0;
  for (unsigned int i = 0; i < HIST_BUCKETS; i++)
    {
      seen += h->bucket[i];
      if (seen >= rank)
	{
	  uint64_t top = hist_bucket_top (i);
	  return top < h->max ? top : h->max;
	}
    }
  return h->max;
}


/* Shared state of one run.  */

/* The data the lock protects; see the invariant at the top.  Its own
   cache line, so that waiters polling the lock word do not slow down
   the owner's stores.  */
struct protected_data
{
  _Alignas (CACHE_LINE) uint64_t counter;
  uint64_t check;
};

static _Alignas (CACHE_LINE) union bench_lock the_lock;
static struct protected_data data;

struct run_config
{
  const struct lock_kind *kind;
  unsigned int threads;
  unsigned int inside;
  unsigned int outside;
  /* Whether to time each lock call (see --no-wait-timing).  */
  bool time_waits;
  /* An rwlock operation is a read if a 32-bit random number is below
     this.  */
  uint64_t read_threshold;
  pthread_barrier_t barrier;
  /* Raised by the main thread to end the run.  Relaxed MO on both sides:
     it carries no data, the workers only have to see it eventually, and
     pthread_join orders their results before the main thread reads
     them.  */
  atomic_int stop;
};

/* Per-thread state, written only by its thread while the run lasts.  */
struct worker
{
  _Alignas (CACHE_LINE) pthread_t thread;
  struct run_config *cfg;
  uint64_t rng;
  uint64_t reads;
  uint64_t writes;
  /* Critical sections that saw the protected data inconsistent.  */
  uint64_t bad_sections;
  /* The first failing lock or unlock call, if any.  */
  int lock_error;
  long nvcsw;
  struct timespec start;
  struct timespec end;
  struct hist rd_wait;
  struct hist wr_wait;
};

/* Work the compiler can neither remove nor merge: the empty asm takes
   the loop counter as an input and clobbers memory.  */
static inline void
spin_work (unsigned int n)
{
  for (unsigned int i = 0; i < n; i++)
    __asm__ __volatile__ ("" : : "r" (i) : "memory");
}

/* Makes the compiler load the protected data again after it; the lock,
   not this, orders the accesses between threads.  */
#define reload_barrier() __asm__ __volatile__ ("" : : : "memory")

static inline int64_t
ts_diff_ns (const struct timespec *a, const struct timespec *b)
{
  return ((int64_t) (b->tv_sec - a->tv_sec) * 1000000000
	  + (b->tv_nsec - a->tv_nsec));
}

static inline uint64_t
next_random (uint64_t *state)
{
  /* xorshift64.  */
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *state = x;
  return x;
}

static inline bool
pair_consistent (uint64_t counter, uint64_t check)
{
  return check == ~counter;
}

static inline void
write_section (struct worker *w, unsigned int inside)
{
  uint64_t c = data.counter;
  if (!pair_consistent (c, data.check))
    w->bad_sections++;
  /* Work between the load and the store: without mutual exclusion,
     another writer's increment in between is lost and I1 fails.  */
  spin_work (inside);
  data.counter = c + 1;
  data.check = ~(c + 1);
}

static inline void
read_section (struct worker *w, unsigned int inside)
{
  uint64_t c1 = data.counter;
  uint64_t k1 = data.check;
  spin_work (inside);
  reload_barrier ();
  uint64_t c2 = data.counter;
  uint64_t k2 = data.check;
  if (!pair_consistent (c1, k1) || c2 != c1 || k2 != k1)
    w->bad_sections++;
}

/* One lock operation; returns false if a lock call failed.  */
static inline bool
one_op (struct worker *w, const struct lock_ops *ops, bool read)
{
  const struct run_config *cfg = w->cfg;
  bool timed = cfg->time_waits;
  struct timespec t0 = { 0, 0 }, t1 = { 0, 0 };
  int err;

  if (timed)
    clock_gettime (CLOCK_MONOTONIC, &t0);
  err = read ? ops->rdlock (&the_lock) : ops->lock (&the_lock);
  /* Taken while holding the lock, so it lengthens every critical
     section by the cost of one clock_gettime call.  */
  if (timed)
    clock_gettime (CLOCK_MONOTONIC, &t1);
  if (err != 0)
    {
      w->lock_error = err;
      return false;
    }
  if (read)
    read_section (w, cfg->inside);
  else
    write_section (w, cfg->inside);
  err = ops->unlock (&the_lock);
  if (err != 0)
    {
      w->lock_error = err;
      return false;
    }

  int64_t wait = ts_diff_ns (&t0, &t1);
  if (wait < 0)
    wait = 0;
  if (read)
    {
      if (timed)
	hist_add (&w->rd_wait, wait);
      w->reads++;
    }
  else
    {
      if (timed)
	hist_add (&w->wr_wait, wait);
      w->writes++;
    }
  spin_work (cfg->outside);
  return true;
}

static void *
worker_main (void *arg)
{
  struct worker *w = arg;
  struct run_config *cfg = w->cfg;
  const struct lock_ops *ops = cfg->kind->ops;
  bool rw = ops->rdlock != NULL;
  struct rusage ru0, ru1;

  pthread_barrier_wait (&cfg->barrier);
  getrusage (RUSAGE_THREAD, &ru0);
  clock_gettime (CLOCK_MONOTONIC, &w->start);

  while (!atomic_load_explicit (&cfg->stop, memory_order_relaxed))
    {
      bool read = rw && (next_random (&w->rng) >> 32) < cfg->read_threshold;
      if (!one_op (w, ops, read))
	break;
    }

  clock_gettime (CLOCK_MONOTONIC, &w->end);
  getrusage (RUSAGE_THREAD, &ru1);
  w->nvcsw = ru1.ru_nvcsw - ru0.ru_nvcsw;
  return NULL;
}


/* Results.  */

enum wait_class
  {
    WAIT_ALL,
    WAIT_RD,
    WAIT_WR,
    WAIT_CLASSES
  };

static const char *const wait_class_names[WAIT_CLASSES] =
  { "wait", "rd-wait", "wr-wait" };

struct wait_stats
{
  uint64_t count;
  uint64_t sum;
  uint64_t p50;
  uint64_t p99;
  uint64_t p999;
  uint64_t max;
};

struct result
{
  const struct lock_kind *kind;
  unsigned int threads;
  enum cs_preset cs;
  bool timed;
  uint64_t elapsed_ns;
  uint64_t ops;
  uint64_t *thread_ops;
  uint64_t thread_ops_min;
  uint64_t thread_ops_max;
  double thread_ops_stdev;
  uint64_t nvcsw;
  double csw_per_op_min;
  double csw_per_op_max;
  struct wait_stats wait[WAIT_CLASSES];
  /* Valid if kind->slowpath: the events of this run.  */
  struct slowpath slow;
};

static void
wait_stats_from (struct wait_stats *s, const struct hist *h)
{
  s->count = h->count;
  s->sum = h->sum;
  s->p50 = hist_quantile (h, 0.50);
  s->p99 = hist_quantile (h, 0.99);
  s->p999 = hist_quantile (h, 0.999);
  s->max = h->max;
}

static void
run_name (char *buf, size_t len, const struct result *r)
{
  snprintf (buf, len, "%s-t%u-%s", r->kind->name, r->threads,
	    cs_names[r->cs]);
}


/* Running one configuration.  */

static void
fatal_errno (const char *what, int err)
{
  fprintf (stderr, "bench-lock-contention: %s: %s\n", what, strerror (err));
  exit (EXIT_INVARIANT);
}

static void
sleep_seconds (double s)
{
  struct timespec ts;
  int err;

  ts.tv_sec = (time_t) s;
  ts.tv_nsec = (long) ((s - (double) ts.tv_sec) * 1e9);
  /* On EINTR, TS holds the time still to sleep.  */
  do
    err = clock_nanosleep (CLOCK_MONOTONIC, 0, &ts, &ts);
  while (err == EINTR);
}

/* Checks I1-I3 and the lock calls; exits with status 1 on failure.  */
static void
check_invariant (const struct result *r, const struct worker *w)
{
  char name[NAME_MAX_LEN];
  uint64_t writes = 0, bad = 0;
  bool ok = true;

  run_name (name, sizeof name, r);
  for (unsigned int i = 0; i < r->threads; i++)
    {
      if (w[i].lock_error != 0)
	{
	  fprintf (stderr, "error: %s: thread %u: lock call failed: %s\n",
		   name, i, strerror (w[i].lock_error));
	  ok = false;
	}
      writes += w[i].writes;
      bad += w[i].bad_sections;
    }
  if (data.counter != writes)
    {
      fprintf (stderr, "error: %s: protected counter is %" PRIu64
	       " but the threads made %" PRIu64 " writes (I1)\n",
	       name, data.counter, writes);
      ok = false;
    }
  if (!pair_consistent (data.counter, data.check))
    {
      fprintf (stderr, "error: %s: protected counter and its check word"
	       " disagree (I2)\n", name);
      ok = false;
    }
  if (bad != 0)
    {
      fprintf (stderr, "error: %s: %" PRIu64 " critical sections saw the"
	       " protected data change under them (I3)\n", name, bad);
      ok = false;
    }
  if (!ok)
    exit (EXIT_INVARIANT);
}

static void
summarize (struct result *r, const struct worker *w)
{
  struct timespec first = w[0].start, last = w[0].end;
  struct hist *merged = calloc (WAIT_CLASSES, sizeof (struct hist));
  double sum = 0, sumsq = 0;

  if (merged == NULL)
    fatal_errno ("calloc", ENOMEM);
  r->thread_ops = calloc (r->threads, sizeof (uint64_t));
  if (r->thread_ops == NULL)
    fatal_errno ("calloc", ENOMEM);

  r->ops = 0;
  r->nvcsw = 0;
  r->thread_ops_min = UINT64_MAX;
  r->thread_ops_max = 0;
  r->csw_per_op_min = INFINITY;
  r->csw_per_op_max = 0;
  for (unsigned int i = 0; i < r->threads; i++)
    {
      uint64_t ops = w[i].reads + w[i].writes;
      double csw = ops > 0 ? (double) w[i].nvcsw / (double) ops : 0;

      if (ts_diff_ns (&w[i].start, &first) > 0)
	first = w[i].start;
      if (ts_diff_ns (&last, &w[i].end) > 0)
	last = w[i].end;
      r->thread_ops[i] = ops;
      r->ops += ops;
      r->nvcsw += w[i].nvcsw;
      if (ops < r->thread_ops_min)
	r->thread_ops_min = ops;
      if (ops > r->thread_ops_max)
	r->thread_ops_max = ops;
      if (csw < r->csw_per_op_min)
	r->csw_per_op_min = csw;
      if (csw > r->csw_per_op_max)
	r->csw_per_op_max = csw;
      sum += (double) ops;
      sumsq += (double) ops * (double) ops;
      hist_merge (&merged[WAIT_RD], &w[i].rd_wait);
      hist_merge (&merged[WAIT_WR], &w[i].wr_wait);
    }
  hist_merge (&merged[WAIT_ALL], &merged[WAIT_RD]);
  hist_merge (&merged[WAIT_ALL], &merged[WAIT_WR]);
  for (unsigned int c = 0; c < WAIT_CLASSES; c++)
    wait_stats_from (&r->wait[c], &merged[c]);
  free (merged);

  /* Population standard deviation: the threads are all there is.  */
  double n = r->threads;
  double var = sumsq / n - (sum / n) * (sum / n);
  r->thread_ops_stdev = var > 0 ? sqrt (var) : 0;

  int64_t elapsed = ts_diff_ns (&first, &last);
  r->elapsed_ns = elapsed > 0 ? elapsed : 1;
}

static void
run_one (struct result *r, double duration, unsigned int inside,
	 unsigned int outside, unsigned int read_pct)
{
  struct run_config cfg;
  struct worker *w;
  size_t wsize = r->threads * sizeof (struct worker);
  int err;

  cfg.kind = r->kind;
  cfg.threads = r->threads;
  cfg.inside = inside;
  cfg.outside = outside;
  cfg.time_waits = r->timed;
  cfg.read_threshold = ((uint64_t) read_pct << 32) / 100;
  atomic_init (&cfg.stop, 0);

  w = aligned_alloc (CACHE_LINE, wsize);
  if (w == NULL)
    fatal_errno ("aligned_alloc", ENOMEM);
  memset (w, 0, wsize);

  err = r->kind->ops->init (&the_lock, r->kind);
  if (err != 0)
    fatal_errno (r->kind->name, err);
  data.counter = 0;
  data.check = ~(uint64_t) 0;

  err = pthread_barrier_init (&cfg.barrier, NULL, r->threads + 1);
  if (err != 0)
    fatal_errno ("pthread_barrier_init", err);
  for (unsigned int i = 0; i < r->threads; i++)
    {
      w[i].cfg = &cfg;
      /* Any nonzero seed works for xorshift; distinct per thread.  */
      w[i].rng = 0x9e3779b97f4a7c15ULL * (i + 1);
      err = pthread_create (&w[i].thread, NULL, worker_main, &w[i]);
      if (err != 0)
	fatal_errno ("pthread_create", err);
    }

  struct slowpath before, after;
  if (r->kind->slowpath != NULL)
    r->kind->slowpath (&before);
  pthread_barrier_wait (&cfg.barrier);
  sleep_seconds (duration);
  atomic_store_explicit (&cfg.stop, 1, memory_order_relaxed);
  for (unsigned int i = 0; i < r->threads; i++)
    {
      err = pthread_join (w[i].thread, NULL);
      if (err != 0)
	fatal_errno ("pthread_join", err);
    }
  if (r->kind->slowpath != NULL)
    {
      r->kind->slowpath (&after);
      r->slow.lock_syscalls = after.lock_syscalls - before.lock_syscalls;
      r->slow.unlock_syscalls = after.unlock_syscalls - before.unlock_syscalls;
      r->slow.handoffs = after.handoffs - before.handoffs;
      r->slow.kernel_path = after.kernel_path;
    }
  pthread_barrier_destroy (&cfg.barrier);

  summarize (r, w);
  check_invariant (r, w);
  err = r->kind->ops->destroy (&the_lock);
  if (err != 0)
    fatal_errno ("destroying the lock", err);
  free (w);
}


/* JSON output.  */

static void
emit_wait (json_ctx_t *js, const struct result *r, enum wait_class c,
	   const char *stat, uint64_t value)
{
  char run[NAME_MAX_LEN], name[NAME_MAX_LEN + 32];

  run_name (run, sizeof run, r);
  snprintf (name, sizeof name, "%s,%s=%s", run, wait_class_names[c], stat);
  json_attr_object_begin (js, name);
  json_attr_uint (js, "duration", r->wait[c].sum);
  json_attr_uint (js, "iterations", r->wait[c].count);
  json_attr_uint (js, "latency", value);
  json_attr_object_end (js);
}

/* Variant "<run>,<event>": iterations is the event count of the run,
   mean the count per lock operation.  */
static void
emit_slowpath (json_ctx_t *js, const struct result *r, const char *event,
	       uint64_t count)
{
  char run[NAME_MAX_LEN], name[NAME_MAX_LEN + 32];

  run_name (run, sizeof run, r);
  snprintf (name, sizeof name, "%s,%s", run, event);
  json_attr_object_begin (js, name);
  json_attr_uint (js, "duration", r->elapsed_ns);
  json_attr_uint (js, "iterations", count);
  json_attr_double (js, "mean", r->ops > 0 ? (double) count / r->ops : 0);
  json_attr_object_end (js);
}

static void
emit_json (FILE *fp, bool fragment, const struct result *res, size_t nres,
	   double duration, unsigned int load_latency,
	   unsigned int lock_latency, unsigned int read_pct, bool time_waits)
{
  json_ctx_t js;
  char name[NAME_MAX_LEN];

  if (fragment)
    json_init (&js, 2, fp);
  else
    {
      json_init (&js, 0, fp);
      json_document_begin (&js);
      json_attr_string (&js, "timing_type", "clock_gettime");
      json_attr_object_begin (&js, "functions");
    }

  json_attr_object_begin (&js, "lock_contention");
  for (size_t i = 0; i < nres; i++)
    {
      const struct result *r = &res[i];
      double secs = (double) r->elapsed_ns / 1e9;

      run_name (name, sizeof name, r);
      json_attr_object_begin (&js, name);
      json_attr_uint (&js, "duration", r->elapsed_ns);
      json_attr_uint (&js, "iterations", r->ops);
      json_attr_double (&js, "mean", r->ops > 0
			? (double) r->elapsed_ns / (double) r->ops : 0);
      json_attr_double (&js, "wall-sec", secs);
      json_attr_double (&js, "throughput", (double) r->ops / secs);
      json_attr_double (&js, "min-throughput",
			(double) r->thread_ops_min / secs);
      json_attr_double (&js, "max-throughput",
			(double) r->thread_ops_max / secs);
      json_attr_double (&js, "stdev", r->thread_ops_stdev / secs);
      json_array_begin (&js, "timings");
      for (unsigned int t = 0; t < r->threads; t++)
	json_element_uint (&js, r->thread_ops[t]);
      json_array_end (&js);
      json_attr_object_end (&js);
    }
  json_attr_object_end (&js);

  json_attr_object_begin (&js, "lock_contention_wait");
  for (size_t i = 0; i < nres; i++)
    {
      const struct result *r = &res[i];
      unsigned int first = WAIT_ALL, last = WAIT_ALL;

      if (!r->timed)
	continue;
      if (kind_is_rwlock (r->kind))
	last = WAIT_WR;
      for (unsigned int c = first; c <= last; c++)
	{
	  emit_wait (&js, r, c, "p50", r->wait[c].p50);
	  emit_wait (&js, r, c, "p99", r->wait[c].p99);
	  emit_wait (&js, r, c, "p99.9", r->wait[c].p999);
	  emit_wait (&js, r, c, "max", r->wait[c].max);
	}
    }
  json_attr_object_end (&js);

  json_attr_object_begin (&js, "lock_contention_ctxsw");
  for (size_t i = 0; i < nres; i++)
    {
      const struct result *r = &res[i];

      run_name (name, sizeof name, r);
      json_attr_object_begin (&js, name);
      json_attr_uint (&js, "duration", r->elapsed_ns);
      json_attr_uint (&js, "iterations", r->ops);
      json_attr_double (&js, "mean", r->ops > 0
			? (double) r->nvcsw / (double) r->ops : 0);
      json_attr_double (&js, "min", r->csw_per_op_min);
      json_attr_double (&js, "max", r->csw_per_op_max);
      json_attr_object_end (&js);
    }
  json_attr_object_end (&js);

  json_attr_object_begin (&js, "lock_contention_slowpath");
  for (size_t i = 0; i < nres; i++)
    if (res[i].kind->slowpath != NULL)
      {
	emit_slowpath (&js, &res[i], "lock-syscalls",
		       res[i].slow.lock_syscalls);
	emit_slowpath (&js, &res[i], "unlock-syscalls",
		       res[i].slow.unlock_syscalls);
	emit_slowpath (&js, &res[i], "handoffs", res[i].slow.handoffs);
	emit_slowpath (&js, &res[i], "kernel-path", res[i].slow.kernel_path);
      }
  json_attr_object_end (&js);

  json_attr_object_begin (&js, "lock_contention_config");
  snprintf (name, sizeof name,
	    "load-latency=%u,lock-latency=%u,read-pct=%u%s",
	    load_latency, lock_latency, read_pct,
	    time_waits ? "" : ",wait-timing=off");
  json_attr_object_begin (&js, name);
  json_attr_double (&js, "duration", duration * 1e9);
  json_attr_uint (&js, "iterations", nres);
  json_attr_object_end (&js);
  json_attr_object_end (&js);

  if (!fragment)
    {
      json_attr_object_end (&js);
      json_document_end (&js);
    }
  fputc ('\n', fp);
}


/* Command line.  */

struct options
{
  bool kind_sel[NKINDS];
  unsigned int threads[MAX_THREADS];
  size_t nthreads;
  bool cs_sel[CS_COUNT];
  double duration;
  unsigned int read_pct;
  unsigned int load_latency;
  unsigned int lock_latency;
  const char *output;
  bool fragment;
  bool no_wait_timing;
};

static void __attribute__ ((noreturn, format (printf, 1, 2)))
usage_error (const char *fmt, ...)
{
  va_list ap;

  fputs ("bench-lock-contention: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputs ("\nTry --help.\n", stderr);
  exit (EXIT_USAGE);
}

static void
usage (FILE *fp)
{
  fputs ("\
Usage: bench-lock-contention [OPTION]...\n\
Measure lock throughput, fairness and wait times under contention.\n\
\n\
  --kinds LIST          lock kinds, comma-separated (default: all but\n\
                        controls; see --list)\n\
  --threads LIST        thread counts (default 1,2,4,8)\n\
  --cs LIST             critical sections: short,medium,long (default all)\n\
  --duration SECONDS    length of each run (default 0.5)\n\
  --read-pct N          percent of rwlock operations that read (default 50)\n\
  --load-latency N      loop iterations inside the lock for cs=medium;\n\
                        long is 10 times that, short is 0 (default 100)\n\
  --lock-latency N      loop iterations outside the lock (default 100)\n\
  --no-wait-timing      do not time the lock calls: no wait statistics,\n\
                        but no clock_gettime cost inside the lock\n\
  --output FILE         write the JSON to FILE instead of standard output\n\
  --fragment            print only the functions, for benchtests bench.out\n\
  --document            print a complete document (the default)\n\
  --list                list the lock kinds and exit\n\
  --help                print this help and exit\n\
\n\
Exit status: 0 success, 1 a lock call failed or the invariant check\n\
failed, 2 bad command line.\n", fp);
}

/* Parses a decimal unsigned integer in [LO, HI] or exits.  */
static unsigned int
parse_uint (const char *opt, const char *s, unsigned long lo,
	    unsigned long hi)
{
  char *end;
  unsigned long v;

  errno = 0;
  v = strtoul (s, &end, 10);
  if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < lo
      || v > hi)
    usage_error ("%s: '%s' is not an integer in [%lu, %lu]", opt, s, lo, hi);
  return (unsigned int) v;
}

/* Calls ITEM for each comma-separated element of LIST, which it modifies.
   Rejects empty elements.  */
static void
split_list (const char *opt, char *list, void (*item) (const char *,
						       const char *, void *),
	    void *closure)
{
  char *save = NULL;
  char *tok;

  if (*list == '\0' || list[strlen (list) - 1] == ','
      || strstr (list, ",,") != NULL || *list == ',')
    usage_error ("%s: empty element in '%s'", opt, list);
  for (tok = strtok_r (list, ",", &save); tok != NULL;
       tok = strtok_r (NULL, ",", &save))
    item (opt, tok, closure);
}

static void
add_kind (const char *opt, const char *s, void *closure)
{
  struct options *o = closure;

  for (size_t i = 0; i < NKINDS; i++)
    if (strcmp (s, kinds[i].name) == 0)
      {
	if (o->kind_sel[i])
	  usage_error ("%s: kind '%s' given twice", opt, s);
	o->kind_sel[i] = true;
	return;
      }
  usage_error ("%s: unknown lock kind '%s' (see --list)", opt, s);
}

static void
add_threads (const char *opt, const char *s, void *closure)
{
  struct options *o = closure;
  unsigned int n = parse_uint (opt, s, 1, MAX_THREADS);

  for (size_t i = 0; i < o->nthreads; i++)
    if (o->threads[i] == n)
      usage_error ("%s: thread count %u given twice", opt, n);
  if (o->nthreads == MAX_THREADS)
    usage_error ("%s: too many thread counts", opt);
  o->threads[o->nthreads++] = n;
}

static void
add_cs (const char *opt, const char *s, void *closure)
{
  struct options *o = closure;

  for (unsigned int i = 0; i < CS_COUNT; i++)
    if (strcmp (s, cs_names[i]) == 0)
      {
	if (o->cs_sel[i])
	  usage_error ("%s: '%s' given twice", opt, s);
	o->cs_sel[i] = true;
	return;
      }
  usage_error ("%s: unknown critical section '%s' (short, medium, long)",
	       opt, s);
}

static double
parse_duration (const char *s)
{
  char *end;
  double d;

  errno = 0;
  d = strtod (s, &end);
  if (end == s || *end != '\0' || errno != 0 || !(d >= 0.01 && d <= 3600))
    usage_error ("--duration: '%s' is not a number of seconds in"
		 " [0.01, 3600]", s);
  return d;
}

enum
  {
    OPT_KINDS = 256,
    OPT_THREADS,
    OPT_CS,
    OPT_DURATION,
    OPT_READ_PCT,
    OPT_LOAD_LATENCY,
    OPT_LOCK_LATENCY,
    OPT_NO_WAIT_TIMING,
    OPT_OUTPUT,
    OPT_FRAGMENT,
    OPT_DOCUMENT,
    OPT_LIST,
    OPT_HELP
  };

static const struct option long_options[] =
  {
    { "kinds", required_argument, NULL, OPT_KINDS },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "cs", required_argument, NULL, OPT_CS },
    { "duration", required_argument, NULL, OPT_DURATION },
    { "read-pct", required_argument, NULL, OPT_READ_PCT },
    { "load-latency", required_argument, NULL, OPT_LOAD_LATENCY },
    { "lock-latency", required_argument, NULL, OPT_LOCK_LATENCY },
    { "no-wait-timing", no_argument, NULL, OPT_NO_WAIT_TIMING },
    { "output", required_argument, NULL, OPT_OUTPUT },
    { "fragment", no_argument, NULL, OPT_FRAGMENT },
    { "document", no_argument, NULL, OPT_DOCUMENT },
    { "list", no_argument, NULL, OPT_LIST },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 }
  };

static void
list_kinds (void)
{
  for (size_t i = 0; i < NKINDS; i++)
    printf ("%-24s %s%s\n", kinds[i].name,
	    kind_is_rwlock (&kinds[i]) ? "rwlock" : "mutex",
	    kinds[i].control ? " (control, not in the default sweep)" : "");
}

static void
parse_options (int argc, char **argv, struct options *o)
{
  bool any_kind = false, any_cs = false;
  int c;

  memset (o, 0, sizeof *o);
  o->duration = 0.5;
  o->read_pct = 50;
  o->load_latency = 100;
  o->lock_latency = 100;
#ifdef LOCK_CONTENTION_FRAGMENT
  o->fragment = true;
#endif

  /* "-d" is what the benchtests bench target passes for DETAILED=1;
     there is nothing more to detail, so it is accepted and ignored.  */
  while ((c = getopt_long (argc, argv, "d", long_options, NULL)) != -1)
    switch (c)
      {
      case 'd':
	break;
      case OPT_KINDS:
	memset (o->kind_sel, 0, sizeof o->kind_sel);
	split_list ("--kinds", optarg, add_kind, o);
	any_kind = true;
	break;
      case OPT_THREADS:
	o->nthreads = 0;
	split_list ("--threads", optarg, add_threads, o);
	break;
      case OPT_CS:
	memset (o->cs_sel, 0, sizeof o->cs_sel);
	split_list ("--cs", optarg, add_cs, o);
	any_cs = true;
	break;
      case OPT_DURATION:
	o->duration = parse_duration (optarg);
	break;
      case OPT_READ_PCT:
	o->read_pct = parse_uint ("--read-pct", optarg, 0, 100);
	break;
      case OPT_LOAD_LATENCY:
	/* The long preset is ten times this.  */
	o->load_latency = parse_uint ("--load-latency", optarg, 0,
				      100000000);
	break;
      case OPT_LOCK_LATENCY:
	o->lock_latency = parse_uint ("--lock-latency", optarg, 0,
				      1000000000);
	break;
      case OPT_NO_WAIT_TIMING:
	o->no_wait_timing = true;
	break;
      case OPT_OUTPUT:
	o->output = optarg;
	break;
      case OPT_FRAGMENT:
	o->fragment = true;
	break;
      case OPT_DOCUMENT:
	o->fragment = false;
	break;
      case OPT_LIST:
	list_kinds ();
	exit (EXIT_SUCCESS);
      case OPT_HELP:
	usage (stdout);
	exit (EXIT_SUCCESS);
      default:
	/* getopt_long has printed the reason.  */
	fputs ("Try --help.\n", stderr);
	exit (EXIT_USAGE);
      }
  if (optind < argc)
    usage_error ("unexpected argument '%s'", argv[optind]);

  if (!any_kind)
    for (size_t i = 0; i < NKINDS; i++)
      o->kind_sel[i] = !kinds[i].control;
  if (!any_cs)
    for (unsigned int i = 0; i < CS_COUNT; i++)
      o->cs_sel[i] = true;
  if (o->nthreads == 0)
    {
      static const unsigned int defaults[] = { 1, 2, 4, 8 };
      for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
	o->threads[o->nthreads++] = defaults[i];
    }
}

static unsigned int
cs_inside (const struct options *o, enum cs_preset cs)
{
  switch (cs)
    {
    case CS_SHORT:
      return 0;
    case CS_MEDIUM:
      return o->load_latency;
    default:
      return 10 * o->load_latency;
    }
}

int
main (int argc, char **argv)
{
  struct options o;
  FILE *out = stdout;
  struct result *res;
  size_t nres = 0, total = 0;

  parse_options (argc, argv, &o);

  /* Open the output first: a bad path should not cost a whole sweep.  */
  if (o.output != NULL)
    {
      out = fopen (o.output, "w");
      if (out == NULL)
	{
	  fprintf (stderr, "bench-lock-contention: %s: %s\n", o.output,
		   strerror (errno));
	  return EXIT_USAGE;
	}
    }

  for (size_t k = 0; k < NKINDS; k++)
    for (unsigned int c = 0; c < CS_COUNT; c++)
      if (o.kind_sel[k] && o.cs_sel[c])
	total += o.nthreads;
  res = calloc (total, sizeof *res);
  if (res == NULL)
    fatal_errno ("calloc", ENOMEM);

  for (size_t k = 0; k < NKINDS; k++)
    {
      if (!o.kind_sel[k])
	continue;
      for (unsigned int c = 0; c < CS_COUNT; c++)
	{
	  if (!o.cs_sel[c])
	    continue;
	  for (size_t t = 0; t < o.nthreads; t++)
	    {
	      struct result *r = &res[nres++];

	      r->kind = &kinds[k];
	      r->threads = o.threads[t];
	      r->cs = c;
	      r->timed = !o.no_wait_timing;
	      run_one (r, o.duration, cs_inside (&o, c), o.lock_latency,
		       o.read_pct);
	      fprintf (stderr, "[%zu/%zu] %s threads=%u cs=%s ... %.3f Mops/s,"
		       " max/min %.2f",
		       nres, total, r->kind->name, r->threads, cs_names[c],
		       (double) r->ops * 1e3 / (double) r->elapsed_ns,
		       r->thread_ops_min > 0
		       ? (double) r->thread_ops_max
			 / (double) r->thread_ops_min : INFINITY);
	      if (r->timed)
		fprintf (stderr, ", wait p99 %.1f us",
			 (double) r->wait[WAIT_ALL].p99 / 1e3);
	      fputc ('\n', stderr);
	    }
	}
    }

  emit_json (out, o.fragment, res, nres, o.duration, o.load_latency,
	     o.lock_latency, o.read_pct, !o.no_wait_timing);
  if (fflush (out) != 0 || ferror (out)
      || (out != stdout && fclose (out) != 0))
    {
      fprintf (stderr, "bench-lock-contention: error writing the output\n");
      return EXIT_INVARIANT;
    }

  for (size_t i = 0; i < nres; i++)
    free (res[i].thread_ops);
  free (res);
  return EXIT_SUCCESS;
}
