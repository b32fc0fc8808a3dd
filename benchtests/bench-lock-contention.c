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
   fixed wall-clock time (a "run"):

     take the lock          (timed: the wait of this operation)
     critical section       (INSIDE iterations of spin_work)
     release the lock
     non-critical section   (OUTSIDE iterations of spin_work)

   INSIDE is the "load latency" and OUTSIDE the "lock latency" of the
   perf-bench futex microbenchmarks, both counted in iterations of a loop
   the compiler cannot remove (about 0.5-2 ns each on the 2-core project
   machine, where one filler call of glibc's bench-pthread-mutex-locks
   costs about 40 of them).  The critical-section presets are short = 0,
   medium = L and long = 10 * L iterations, where L is --load-latency
   (default 100); OUTSIDE takes each value of --lock-latency (default
   0, 1000 and 5000: none, and about the 32 and 128 filler calls of
   bench-pthread-mutex-locks).  For a reader/writer lock each operation
   is a read with probability R percent, for each R of --read-pct
   (default 100, 90 and 50), else a write.

   A workload is one combination of thread count, critical section,
   lock latency and, for rwlocks, read percentage; the default sweep
   is threads {1,2,3,4,8,16} x the three critical sections x the three
   lock latencies (x the three read percentages for rwlocks).

   The machines this runs on are shared and their figures move by 2x
   from one second to the next, so no figure comes from a single run.
   The kinds of one family (mutexes, or rwlocks) that share a workload
   form a group, which is measured on its own:

     warm-up   one run of --warmup seconds (default 0.05) of every kind,
	       not recorded: thread stacks, caches and page tables are
	       warm before the first recorded run;
     rounds    --repeat rounds (default 5) of one --duration run
	       (default 0.2 s) of every kind.  Round r runs the kinds in
	       the order rotated by r, so that no kind always runs first
	       or right after a particular other one.

   The kinds of a group thus take turns within a few seconds, and a
   figure of one kind is comparable with the same figure of another kind
   from the same round: lock_bench_report.py divides the throughputs of
   the same round, and reports the median and the extremes of these
   ratios.  Every figure below is reported as the median over the
   rounds, with its minimum, maximum and per-round values.

   Per run we keep, per thread: operation counts, log-bucket histograms
   of the wait (clock_gettime (CLOCK_MONOTONIC) before and after the lock
   call; reads and writes apart) and of the hold (from after the lock
   call to before the unlock call), the voluntary context switches
   (which stand in for futex sleeps) and the processor time
   (getrusage (RUSAGE_THREAD)), and for the TP kinds the change of the
   slow-path counters of __pthread_mutex_tp_stats across the thread's
   measured loop.  Those counters are the calling thread's own (no
   shared cache line on the lock paths); the run's figure is the sum
   over its threads.  The histograms are fixed-size, so the memory does
   not grow with the number of operations, and are merged after the
   threads have been joined.  The second and the third clock_gettime
   call run while the lock is held and so lengthen every critical
   section by their cost (tens of ns); --no-wait-timing leaves all three
   calls out, for throughput without that probe effect, and then no wait
   or hold statistics are reported.

   With --timer-probe, one more thread sleeps for 1 ms at a time while
   the run lasts (clock_nanosleep) and keeps the worst lateness of its
   sleeps: how long a thread that a timer wakes waits beyond its timeout
   on this machine under this load, before it runs.  That is the share
   of a worst wait that no lock protocol in user space controls (a
   waiter that sleeps until its hand-off registration time, say, waits
   that long beyond it).  The probe is one more thread waking a thousand
   times a second, so the option is for the passes that study worst
   waits, not for throughput.

   Invariant (the benchmark is also a smoke test)
   ==============================================

   The lock protects struct protected_data: a plain, non-atomic counter
   and its bitwise complement.  A writer (every mutex operation) reads the
   counter, does the critical-section work, then stores counter + 1 and
   its complement.  A reader checks that the pair is consistent and does
   not change during its critical section.  At the end of each run,
   warm-up runs included:

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
   schema allows only a fixed set of properties per variant, so the
   workload lives in the variant name, "<kind>-t<threads>-<cs>-o<lock
   latency>" with "-r<read percentage>" appended for rwlocks, and the
   measurements are spread over several functions.  In each variant,
   "timings" lists the figure's value in every round, in round order (the
   same order for every kind of a group), the central field (throughput,
   latency or mean) holds their median, and min and max their extremes:

     lock_contention           per kind and workload: throughput
			       (operations per second, all threads),
			       min, max, timings; the medians over the
			       rounds of the slowest and the fastest
			       thread's operations per second
			       (min-throughput, max-throughput) and of
			       the standard deviation of the threads'
			       (stdev); duration (ns, wall clock, all
			       rounds), iterations (operations, all
			       rounds), mean (ns per operation, duration /
			       iterations), wall-sec (duration in
			       seconds).
     lock_contention_fairness  per kind and workload: mean, min, max,
			       timings of the operations of the busiest
			       thread divided by those of the idlest (a
			       thread that made none counts as one);
			       duration and iterations as above.
     lock_contention_wait      per kind, workload and statistic, variant
			       "<run>,<class>=<stat>" with class wait (all
			       operations), rd-wait or wr-wait (rwlocks
			       only), or hold (all operations: from the
			       return of the lock call to the call of the
			       unlock, a time for which a waiter that
			       came meanwhile had to wait), and stat p50,
			       p99, p99.9 or max (the worst of a round):
			       latency (ns), min, max, timings;
			       iterations (operations in that class, all
			       rounds), duration (their total time, ns).
     lock_contention_ctxsw     per kind and workload: mean, min, max,
			       timings of the voluntary context switches
			       per operation; duration and iterations as
			       above.
     lock_contention_cpu       per kind and workload: mean, min, max,
			       timings of the processors the threads
			       kept busy (their user and system time,
			       getrusage (RUSAGE_THREAD), over the run's
			       wall-clock time; at most the number of
			       processors); duration and iterations as
			       above.
     lock_contention_timer     under --timer-probe, per kind and
			       workload: mean, min, max, timings of the
			       probe's worst lateness in the run (ns);
			       iterations (the probe's sleeps, all
			       rounds), duration as above.
     lock_contention_slowpath  for kinds that count slow-path events
			       (the TP mutex and TP rwlock), per kind,
			       workload and event, variant
			       "<run>,<event>" with event lock-syscalls
			       (FUTEX_LOCK or FUTEX_WAIT),
			       unlock-syscalls (FUTEX_UNLOCK or
			       FUTEX_WAKE) or handoffs: mean, min, max,
			       timings of the events per operation,
			       iterations (events, all rounds), duration;
			       and kernel-path: iterations and mean 1 if
			       the kernel's TP operations served the
			       lock, else 0.
     lock_contention_config    one variant naming the parameters,
			       "load-latency=L,rounds=N,warmup=S", with
			       ",wait-timing=off" appended (and no
			       lock_contention_wait variants) under
			       --no-wait-timing, and ",timer-probe=on"
			       under --timer-probe: duration (requested run
			       time, ns) and iterations (number of
			       recorded runs).

   By default the program prints a complete document; --fragment prints
   only the functions, which is what the benchtests "bench" target splices
   into its bench.out.  Building with -DLOCK_CONTENTION_FRAGMENT makes the
   fragment the default, for that target, which runs the program without
   arguments.  Progress goes to standard error: a line per group, with
   the median throughput of every kind, the time spent and an estimate
   of the time left.  */

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
#include <stddef.h>
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

/* Slow-path events, for kinds that count them (the TP mutex and TP
   rwlock): system calls on the lock and unlock sides, and ownership
   hand-offs.  */
enum slow_event
  {
    SLOW_LOCK_SYSCALLS,
    SLOW_UNLOCK_SYSCALLS,
    SLOW_HANDOFFS,
    SLOW_EVENTS
  };

static const char *const slow_event_names[SLOW_EVENTS] =
  { "lock-syscalls", "unlock-syscalls", "handoffs" };

struct slowpath
{
  uint64_t count[SLOW_EVENTS];
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
  /* Reads the calling thread's slow-path counters, or NULL.  */
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
  s->count[SLOW_LOCK_SYSCALLS] = (c[TP_STAT_KERNEL_LOCKS]
				  + c[TP_STAT_USER_SLEEPS]);
  s->count[SLOW_UNLOCK_SYSCALLS] = (c[TP_STAT_KERNEL_UNLOCKS]
				    + c[TP_STAT_USER_WAKES]);
  s->count[SLOW_HANDOFFS] = c[TP_STAT_HANDOFFS];
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




/* Workloads, runs and their shared state.  */

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

/* Everything about a run but the lock kind.  */
struct workload
{
  unsigned int threads;
  enum cs_preset cs;
  /* Iterations of spin_work inside and outside the lock.  */
  unsigned int inside;
  unsigned int outside;
  /* The family of the kinds that run it.  For rwlocks, the percentage of
     operations that read (unused for mutexes).  */
  bool rwlock;
  unsigned int read_pct;
};

struct run_config
{
  const struct lock_kind *kind;
  const struct workload *wl;
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
  /* Processor time of the measured loop, user and system, ns.  */
  uint64_t cpu_ns;
  /* The slow-path events of this thread's measured loop, for kinds that
     count them.  */
  struct slowpath slow;
  struct timespec start;
  struct timespec end;
  struct hist rd_wait;
  struct hist wr_wait;
  struct hist hold;
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
  struct timespec t0 = { 0, 0 }, t1 = { 0, 0 }, t2 = { 0, 0 };
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
    read_section (w, cfg->wl->inside);
  else
    write_section (w, cfg->wl->inside);
  /* Before the release: the hold is the time the lock was surely held.
     After it, the unlock's wake-up could count too, and a woken thread
     that preempts the caller would count in full.  Like T1, this
     lengthens the section by one clock_gettime call.  */
  if (timed)
    clock_gettime (CLOCK_MONOTONIC, &t2);
  err = ops->unlock (&the_lock);
  if (err != 0)
    {
      w->lock_error = err;
      return false;
    }

  if (timed)
    {
      int64_t wait = ts_diff_ns (&t0, &t1);
      int64_t hold = ts_diff_ns (&t1, &t2);
      hist_add (read ? &w->rd_wait : &w->wr_wait, wait > 0 ? wait : 0);
      hist_add (&w->hold, hold > 0 ? hold : 0);
    }
  if (read)
    w->reads++;
  else
    w->writes++;
  spin_work (cfg->wl->outside);
  return true;
}

static uint64_t
rusage_ns (const struct timeval *tv)
{
  return (uint64_t) tv->tv_sec * 1000000000 + (uint64_t) tv->tv_usec * 1000;
}

static void *
worker_main (void *arg)
{
  struct worker *w = arg;
  struct run_config *cfg = w->cfg;
  const struct lock_kind *kind = cfg->kind;
  const struct lock_ops *ops = kind->ops;
  bool rw = ops->rdlock != NULL;
  struct rusage ru0, ru1;
  struct slowpath slow0;

  pthread_barrier_wait (&cfg->barrier);
  /* The counters are read in this thread: they are the thread's own
     (with counters kept per process, each thread's difference also
     holds the other threads' events of the same time).  */
  if (kind->slowpath != NULL)
    kind->slowpath (&slow0);
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
  w->cpu_ns = (rusage_ns (&ru1.ru_utime) + rusage_ns (&ru1.ru_stime)
	       - rusage_ns (&ru0.ru_utime) - rusage_ns (&ru0.ru_stime));
  if (kind->slowpath != NULL)
    {
      kind->slowpath (&w->slow);
      for (unsigned int e = 0; e < SLOW_EVENTS; e++)
	w->slow.count[e] -= slow0.count[e];
    }
  return NULL;
}

/* The timer probe's sleep, ns.  */
#define TIMER_PROBE_NS 1000000

/* The timer probe's thread (--timer-probe), written only by it while
   the run lasts.  */
struct timer_probe
{
  pthread_t thread;
  struct run_config *cfg;
  uint64_t sleeps;
  uint64_t late_max_ns;
  /* The first failing clock_nanosleep, if any.  */
  int error;
};

static void *
timer_probe_main (void *arg)
{
  struct timer_probe *p = arg;
  struct run_config *cfg = p->cfg;
  const struct timespec period = { 0, TIMER_PROBE_NS };

  pthread_barrier_wait (&cfg->barrier);
  while (!atomic_load_explicit (&cfg->stop, memory_order_relaxed))
    {
      struct timespec before, after;
      clock_gettime (CLOCK_MONOTONIC, &before);
      int err = clock_nanosleep (CLOCK_MONOTONIC, 0, &period, NULL);
      clock_gettime (CLOCK_MONOTONIC, &after);
      if (err == EINTR)
	continue;
      if (err != 0)
	{
	  p->error = err;
	  break;
	}
      int64_t late = ts_diff_ns (&before, &after) - TIMER_PROBE_NS;
      if (late > 0 && (uint64_t) late > p->late_max_ns)
	p->late_max_ns = late;
      p->sleeps++;
    }
  return NULL;
}


/* Results.  */

enum wait_class
  {
    WAIT_ALL,
    WAIT_RD,
    WAIT_WR,
    WAIT_HOLD,
    WAIT_CLASSES
  };

static const char *const wait_class_names[WAIT_CLASSES] =
  { "wait", "rd-wait", "wr-wait", "hold" };

/* The statistics of a wait class, as quantiles of its histogram: the
   quantile 1 is the largest wait (see hist_quantile).  */
enum wait_stat
  {
    STAT_P50,
    STAT_P99,
    STAT_P999,
    STAT_MAX,
    WAIT_STATS
  };

static const char *const wait_stat_names[WAIT_STATS] =
  { "p50", "p99", "p99.9", "max" };
static const double wait_stat_quantiles[WAIT_STATS] =
  { 0.50, 0.99, 0.999, 1.0 };

struct wait_stats
{
  uint64_t count;
  uint64_t sum;
  uint64_t stat[WAIT_STATS];
};

/* The results of one run.  */
struct result
{
  uint64_t elapsed_ns;
  uint64_t ops;
  uint64_t thread_ops_min;
  uint64_t thread_ops_max;
  /* Population standard deviation of the per-thread operations.  */
  double thread_ops_stdev;
  uint64_t nvcsw;
  /* Processor time of all threads, ns.  */
  uint64_t cpu_ns;
  /* The timer probe's completed sleeps and their worst lateness, ns.  */
  uint64_t probe_sleeps;
  uint64_t probe_late_max_ns;
  struct wait_stats wait[WAIT_CLASSES];
  /* Valid if the kind counts slow-path events: the sum over the
     threads.  */
  struct slowpath slow;
};

/* A lock kind on a workload: its runs, one per round.  */
struct cell
{
  const struct lock_kind *kind;
  const struct workload *wl;
  unsigned int rounds;
  struct result *round;
};

static void
run_name (char *buf, size_t len, const struct cell *c)
{
  int n = snprintf (buf, len, "%s-t%u-%s-o%u", c->kind->name, c->wl->threads,
		    cs_names[c->wl->cs], c->wl->outside);
  if (c->wl->rwlock && n >= 0 && (size_t) n < len)
    snprintf (buf + n, len - n, "-r%u", c->wl->read_pct);
}


/* Running one workload.  */

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

static double
seconds_since (const struct timespec *t0)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (double) ts_diff_ns (t0, &now) / 1e9;
}

/* Checks I1-I3 and the lock calls; exits with status 1 on failure.  */
static void
check_invariant (const struct cell *c, const struct worker *w)
{
  char name[NAME_MAX_LEN];
  uint64_t writes = 0, bad = 0;
  bool ok = true;

  run_name (name, sizeof name, c);
  for (unsigned int i = 0; i < c->wl->threads; i++)
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
summarize (struct result *r, unsigned int threads, const struct worker *w)
{
  struct timespec first = w[0].start, last = w[0].end;
  struct hist *merged = calloc (WAIT_CLASSES, sizeof (struct hist));
  double sum = 0, sumsq = 0;

  if (merged == NULL)
    fatal_errno ("calloc", ENOMEM);
  memset (r, 0, sizeof *r);
  r->thread_ops_min = UINT64_MAX;
  r->slow.kernel_path = w[0].slow.kernel_path;
  for (unsigned int i = 0; i < threads; i++)
    {
      uint64_t ops = w[i].reads + w[i].writes;

      if (ts_diff_ns (&w[i].start, &first) > 0)
	first = w[i].start;
      if (ts_diff_ns (&last, &w[i].end) > 0)
	last = w[i].end;
      r->ops += ops;
      r->nvcsw += w[i].nvcsw;
      r->cpu_ns += w[i].cpu_ns;
      if (ops < r->thread_ops_min)
	r->thread_ops_min = ops;
      if (ops > r->thread_ops_max)
	r->thread_ops_max = ops;
      sum += (double) ops;
      sumsq += (double) ops * (double) ops;
      for (unsigned int e = 0; e < SLOW_EVENTS; e++)
	r->slow.count[e] += w[i].slow.count[e];
      hist_merge (&merged[WAIT_RD], &w[i].rd_wait);
      hist_merge (&merged[WAIT_WR], &w[i].wr_wait);
      hist_merge (&merged[WAIT_HOLD], &w[i].hold);
    }
  hist_merge (&merged[WAIT_ALL], &merged[WAIT_RD]);
  hist_merge (&merged[WAIT_ALL], &merged[WAIT_WR]);
  for (unsigned int c = 0; c < WAIT_CLASSES; c++)
    {
      r->wait[c].count = merged[c].count;
      r->wait[c].sum = merged[c].sum;
      for (unsigned int s = 0; s < WAIT_STATS; s++)
	r->wait[c].stat[s] = hist_quantile (&merged[c],
					    wait_stat_quantiles[s]);
    }
  free (merged);

  /* Population standard deviation: the threads are all there is.  */
  double n = threads;
  double var = sumsq / n - (sum / n) * (sum / n);
  r->thread_ops_stdev = var > 0 ? sqrt (var) : 0;

  int64_t elapsed = ts_diff_ns (&first, &last);
  r->elapsed_ns = elapsed > 0 ? elapsed : 1;
}

/* Runs kind C->kind on workload C->wl for DURATION seconds, checks the
   invariant and stores the results in R.  TIME_WAITS: time the lock
   calls; TIMER_PROBE: run the timer probe beside the workers.  */
static void
run_one (const struct cell *c, struct result *r, double duration,
	 bool time_waits, bool timer_probe)
{
  unsigned int threads = c->wl->threads;
  struct run_config cfg;
  struct worker *w;
  size_t wsize = threads * sizeof (struct worker);
  struct timer_probe probe;
  int err;

  cfg.kind = c->kind;
  cfg.wl = c->wl;
  cfg.time_waits = time_waits;
  cfg.read_threshold = ((uint64_t) c->wl->read_pct << 32) / 100;
  atomic_init (&cfg.stop, 0);

  w = aligned_alloc (CACHE_LINE, wsize);
  if (w == NULL)
    fatal_errno ("aligned_alloc", ENOMEM);
  memset (w, 0, wsize);

  err = c->kind->ops->init (&the_lock, c->kind);
  if (err != 0)
    fatal_errno (c->kind->name, err);
  data.counter = 0;
  data.check = ~(uint64_t) 0;

  err = pthread_barrier_init (&cfg.barrier, NULL,
			      threads + 1 + (timer_probe ? 1 : 0));
  if (err != 0)
    fatal_errno ("pthread_barrier_init", err);
  memset (&probe, 0, sizeof probe);
  if (timer_probe)
    {
      probe.cfg = &cfg;
      err = pthread_create (&probe.thread, NULL, timer_probe_main, &probe);
      if (err != 0)
	fatal_errno ("pthread_create", err);
    }
  for (unsigned int i = 0; i < threads; i++)
    {
      w[i].cfg = &cfg;
      /* Any nonzero seed works for xorshift; distinct per thread.  */
      w[i].rng = 0x9e3779b97f4a7c15ULL * (i + 1);
      err = pthread_create (&w[i].thread, NULL, worker_main, &w[i]);
      if (err != 0)
	fatal_errno ("pthread_create", err);
    }

  pthread_barrier_wait (&cfg.barrier);
  sleep_seconds (duration);
  atomic_store_explicit (&cfg.stop, 1, memory_order_relaxed);
  for (unsigned int i = 0; i < threads; i++)
    {
      err = pthread_join (w[i].thread, NULL);
      if (err != 0)
	fatal_errno ("pthread_join", err);
    }
  if (timer_probe)
    {
      err = pthread_join (probe.thread, NULL);
      if (err != 0)
	fatal_errno ("pthread_join", err);
      if (probe.error != 0)
	fatal_errno ("clock_nanosleep", probe.error);
    }
  pthread_barrier_destroy (&cfg.barrier);

  summarize (r, threads, w);
  r->probe_sleeps = probe.sleeps;
  r->probe_late_max_ns = probe.late_max_ns;
  check_invariant (c, w);
  err = c->kind->ops->destroy (&the_lock);
  if (err != 0)
    fatal_errno ("destroying the lock", err);
  free (w);
}


/* Figures: one number per run, summarized over the rounds.  */

/* A figure of run R; ARG selects one where a function computes several
   (a wait class and statistic, a slow-path event).  */
typedef double figure_fn (const struct result *r, unsigned int arg);

static double
per_second (const struct result *r, uint64_t count)
{
  return (double) count * 1e9 / (double) r->elapsed_ns;
}

static double
per_op (const struct result *r, uint64_t count)
{
  return r->ops > 0 ? (double) count / (double) r->ops : 0;
}

static double
fig_throughput (const struct result *r, unsigned int arg)
{
  (void) arg;
  return per_second (r, r->ops);
}

static double
fig_slowest_thread (const struct result *r, unsigned int arg)
{
  (void) arg;
  return per_second (r, r->thread_ops_min);
}

static double
fig_fastest_thread (const struct result *r, unsigned int arg)
{
  (void) arg;
  return per_second (r, r->thread_ops_max);
}

static double
fig_thread_stdev (const struct result *r, unsigned int arg)
{
  (void) arg;
  return r->thread_ops_stdev * 1e9 / (double) r->elapsed_ns;
}

/* Operations of the busiest thread per operation of the idlest; a
   starved thread counts as one operation, which keeps the figure
   finite (JSON has no infinity) and still huge.  */
static double
fig_fairness (const struct result *r, unsigned int arg)
{
  (void) arg;
  return ((double) r->thread_ops_max
	  / (double) (r->thread_ops_min > 0 ? r->thread_ops_min : 1));
}

static double
fig_ctxsw (const struct result *r, unsigned int arg)
{
  (void) arg;
  return per_op (r, r->nvcsw);
}

/* Processors kept busy by the run's threads: their processor time over
   the run's wall-clock time.  */
static double
fig_cpus_busy (const struct result *r, unsigned int arg)
{
  (void) arg;
  return (double) r->cpu_ns / (double) r->elapsed_ns;
}

/* The timer probe's worst lateness, ns.  */
static double
fig_timer_late (const struct result *r, unsigned int arg)
{
  (void) arg;
  return r->probe_late_max_ns;
}

/* ARG is class * WAIT_STATS + statistic.  */
static double
fig_wait (const struct result *r, unsigned int arg)
{
  return r->wait[arg / WAIT_STATS].stat[arg % WAIT_STATS];
}

/* ARG is the slow-path event.  */
static double
fig_slowpath (const struct result *r, unsigned int arg)
{
  return per_op (r, r->slow.count[arg]);
}

/* The median and the extremes of a figure over the rounds.  */
struct spread
{
  double median;
  double min;
  double max;
};

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Stores figure F (ARG) of every round of C into VALUES (C->rounds
   elements) and returns their spread.  */
static struct spread
cell_spread (const struct cell *c, figure_fn *f, unsigned int arg,
	     double *values)
{
  unsigned int n = c->rounds;
  double sorted[n];
  struct spread s;

  for (unsigned int i = 0; i < n; i++)
    sorted[i] = values[i] = f (&c->round[i], arg);
  qsort (sorted, n, sizeof sorted[0], compare_doubles);
  s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  s.min = sorted[0];
  s.max = sorted[n - 1];
  return s;
}

static double
cell_median (const struct cell *c, figure_fn *f, unsigned int arg)
{
  double values[c->rounds];
  return cell_spread (c, f, arg, values).median;
}

/* The total over the rounds of C of the uint64_t member of struct
   result at OFFSET.  */
static uint64_t
cell_total (const struct cell *c, size_t offset)
{
  uint64_t sum = 0;
  for (unsigned int i = 0; i < c->rounds; i++)
    sum += *(const uint64_t *) ((const char *) &c->round[i] + offset);
  return sum;
}

static uint64_t
cell_elapsed_ns (const struct cell *c)
{
  return cell_total (c, offsetof (struct result, elapsed_ns));
}

static uint64_t
cell_ops (const struct cell *c)
{
  return cell_total (c, offsetof (struct result, ops));
}

static uint64_t
cell_probe_sleeps (const struct cell *c)
{
  return cell_total (c, offsetof (struct result, probe_sleeps));
}


/* JSON output.  */

/* Writes figure F (ARG) of C into the open variant: FIELD holds the
   median, min and max the extremes, timings the value of each round.  */
static void
emit_spread (json_ctx_t *js, const char *field, const struct cell *c,
	     figure_fn *f, unsigned int arg)
{
  double values[c->rounds];
  struct spread s = cell_spread (c, f, arg, values);

  json_attr_double (js, field, s.median);
  json_attr_double (js, "min", s.min);
  json_attr_double (js, "max", s.max);
  json_array_begin (js, "timings");
  for (unsigned int i = 0; i < c->rounds; i++)
    json_element_double (js, values[i]);
  json_array_end (js);
}

/* Variant NAME: DURATION and ITERATIONS, then figure F (ARG) of C with
   its median in FIELD.  */
static void
emit_figure (json_ctx_t *js, const char *name, const struct cell *c,
	     uint64_t duration, uint64_t iterations, const char *field,
	     figure_fn *f, unsigned int arg)
{
  json_attr_object_begin (js, name);
  json_attr_uint (js, "duration", duration);
  json_attr_uint (js, "iterations", iterations);
  emit_spread (js, field, c, f, arg);
  json_attr_object_end (js);
}

/* Function FUNCTION: per cell of CELLS, its figure F (ARG 0) with the
   median in "mean", the cell's duration, and ITERATIONS of the cell.  */
static void
emit_mean_function (json_ctx_t *js, const char *function,
		    const struct cell *cells, size_t ncells, figure_fn *f,
		    uint64_t (*iterations) (const struct cell *))
{
  char name[NAME_MAX_LEN];

  json_attr_object_begin (js, function);
  for (size_t i = 0; i < ncells; i++)
    {
      run_name (name, sizeof name, &cells[i]);
      emit_figure (js, name, &cells[i], cell_elapsed_ns (&cells[i]),
		   iterations (&cells[i]), "mean", f, 0);
    }
  json_attr_object_end (js);
}

static void
emit_throughput (json_ctx_t *js, const struct cell *c)
{
  char name[NAME_MAX_LEN];
  uint64_t elapsed = cell_elapsed_ns (c), ops = cell_ops (c);

  run_name (name, sizeof name, c);
  json_attr_object_begin (js, name);
  json_attr_uint (js, "duration", elapsed);
  json_attr_uint (js, "iterations", ops);
  json_attr_double (js, "mean", ops > 0 ? (double) elapsed / ops : 0);
  json_attr_double (js, "wall-sec", (double) elapsed / 1e9);
  emit_spread (js, "throughput", c, fig_throughput, 0);
  json_attr_double (js, "min-throughput",
		    cell_median (c, fig_slowest_thread, 0));
  json_attr_double (js, "max-throughput",
		    cell_median (c, fig_fastest_thread, 0));
  json_attr_double (js, "stdev", cell_median (c, fig_thread_stdev, 0));
  json_attr_object_end (js);
}

static void
emit_waits (json_ctx_t *js, const struct cell *c)
{
  char run[NAME_MAX_LEN], name[NAME_MAX_LEN + 32];

  run_name (run, sizeof run, c);
  for (unsigned int cls = 0; cls < WAIT_CLASSES; cls++)
    {
      uint64_t count = 0, sum = 0;

      if (!c->wl->rwlock && (cls == WAIT_RD || cls == WAIT_WR))
	continue;

      for (unsigned int i = 0; i < c->rounds; i++)
	{
	  count += c->round[i].wait[cls].count;
	  sum += c->round[i].wait[cls].sum;
	}
      for (unsigned int s = 0; s < WAIT_STATS; s++)
	{
	  snprintf (name, sizeof name, "%s,%s=%s", run, wait_class_names[cls],
		    wait_stat_names[s]);
	  emit_figure (js, name, c, sum, count, "latency", fig_wait,
		       cls * WAIT_STATS + s);
	}
    }
}

static void
emit_slowpath (json_ctx_t *js, const struct cell *c)
{
  char run[NAME_MAX_LEN], name[NAME_MAX_LEN + 32];
  uint64_t elapsed = cell_elapsed_ns (c);

  run_name (run, sizeof run, c);
  for (unsigned int e = 0; e < SLOW_EVENTS; e++)
    {
      uint64_t count = 0;

      for (unsigned int i = 0; i < c->rounds; i++)
	count += c->round[i].slow.count[e];
      snprintf (name, sizeof name, "%s,%s", run, slow_event_names[e]);
      emit_figure (js, name, c, elapsed, count, "mean", fig_slowpath, e);
    }
  /* A property of the process, the same in every round.  */
  snprintf (name, sizeof name, "%s,kernel-path", run);
  json_attr_object_begin (js, name);
  json_attr_uint (js, "duration", elapsed);
  json_attr_uint (js, "iterations", c->round[0].slow.kernel_path);
  json_attr_double (js, "mean", c->round[0].slow.kernel_path);
  json_attr_object_end (js);
}

static void
emit_json (FILE *fp, bool fragment, const struct cell *cells, size_t ncells,
	   double duration, double warmup, unsigned int load_latency,
	   bool time_waits, bool timer_probe)
{
  json_ctx_t js;
  char name[NAME_MAX_LEN];
  uint64_t runs = 0;

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
  for (size_t i = 0; i < ncells; i++)
    emit_throughput (&js, &cells[i]);
  json_attr_object_end (&js);

  emit_mean_function (&js, "lock_contention_fairness", cells, ncells,
		      fig_fairness, cell_ops);

  json_attr_object_begin (&js, "lock_contention_wait");
  if (time_waits)
    for (size_t i = 0; i < ncells; i++)
      emit_waits (&js, &cells[i]);
  json_attr_object_end (&js);

  emit_mean_function (&js, "lock_contention_ctxsw", cells, ncells,
		      fig_ctxsw, cell_ops);

  emit_mean_function (&js, "lock_contention_cpu", cells, ncells,
		      fig_cpus_busy, cell_ops);

  if (timer_probe)
    emit_mean_function (&js, "lock_contention_timer", cells, ncells,
			fig_timer_late, cell_probe_sleeps);

  json_attr_object_begin (&js, "lock_contention_slowpath");
  for (size_t i = 0; i < ncells; i++)
    if (cells[i].kind->slowpath != NULL)
      emit_slowpath (&js, &cells[i]);
  json_attr_object_end (&js);

  json_attr_object_begin (&js, "lock_contention_config");
  for (size_t i = 0; i < ncells; i++)
    runs += cells[i].rounds;
  snprintf (name, sizeof name, "load-latency=%u,rounds=%u,warmup=%g%s%s",
	    load_latency, ncells > 0 ? cells[0].rounds : 0, warmup,
	    time_waits ? "" : ",wait-timing=off",
	    timer_probe ? ",timer-probe=on" : "");
  json_attr_object_begin (&js, name);
  json_attr_double (&js, "duration", duration * 1e9);
  json_attr_uint (&js, "iterations", runs);
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

/* Room for the elements of a list option.  */
#define MAX_LIST 64

struct uint_list
{
  unsigned int value[MAX_LIST];
  size_t n;
};

struct options
{
  bool kind_sel[NKINDS];
  struct uint_list threads;
  bool cs_sel[CS_COUNT];
  struct uint_list lock_latency;
  struct uint_list read_pct;
  double duration;
  double warmup;
  unsigned int repeat;
  unsigned int load_latency;
  const char *output;
  bool fragment;
  bool no_wait_timing;
  bool timer_probe;
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
  --threads LIST        thread counts (default 1,2,3,4,8,16)\n\
  --cs LIST             critical sections: short,medium,long (default all)\n\
  --lock-latency LIST   loop iterations outside the lock, between two\n\
                        operations of a thread (default 0,1000,5000)\n\
  --read-pct LIST       percentages of rwlock operations that read\n\
                        (default 100,90,50)\n\
  --load-latency N      loop iterations inside the lock for cs=medium;\n\
                        long is 10 times that, short is 0 (default 100)\n\
  --duration SECONDS    length of each run (default 0.2)\n\
  --repeat N            rounds: runs of every kind on each workload,\n\
                        the kinds interleaved (default 5)\n\
  --warmup SECONDS      length of the unrecorded run of every kind\n\
                        before the rounds of a workload; 0 for none\n\
                        (default 0.05)\n\
  --no-wait-timing      do not time the lock calls: no wait statistics,\n\
                        but no clock_gettime cost inside the lock\n\
  --timer-probe         run one more thread that sleeps 1 ms at a time\n\
                        and report its worst lateness per run (what a\n\
                        timer wake-up waits for a processor)\n\
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

/* Parses a number of seconds in [LO, HI] or exits.  */
static double
parse_seconds (const char *opt, const char *s, double lo, double hi)
{
  char *end;
  double d;

  errno = 0;
  d = strtod (s, &end);
  if (end == s || *end != '\0' || errno != 0 || !(d >= lo && d <= hi))
    usage_error ("%s: '%s' is not a number of seconds in [%g, %g]", opt, s,
		 lo, hi);
  return d;
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

/* Closure of add_uint: the list and the bounds of its elements.  */
struct uint_list_spec
{
  struct uint_list *list;
  unsigned long lo;
  unsigned long hi;
};

static void
add_uint (const char *opt, const char *s, void *closure)
{
  struct uint_list_spec *spec = closure;
  struct uint_list *l = spec->list;
  unsigned int v = parse_uint (opt, s, spec->lo, spec->hi);

  for (size_t i = 0; i < l->n; i++)
    if (l->value[i] == v)
      usage_error ("%s: %u given twice", opt, v);
  if (l->n == MAX_LIST)
    usage_error ("%s: more than %d elements", opt, MAX_LIST);
  l->value[l->n++] = v;
}

/* Replaces L with the integers in [LO, HI] of the list ARG.  */
static void
parse_uint_list (const char *opt, char *arg, struct uint_list *l,
		 unsigned long lo, unsigned long hi)
{
  struct uint_list_spec spec = { l, lo, hi };

  l->n = 0;
  split_list (opt, arg, add_uint, &spec);
}

/* Sets L to the N values of DEFAULTS if no option set it.  */
static void
default_uint_list (struct uint_list *l, const unsigned int *defaults,
		   size_t n)
{
  if (l->n != 0)
    return;
  memcpy (l->value, defaults, n * sizeof defaults[0]);
  l->n = n;
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

enum
  {
    OPT_KINDS = 256,
    OPT_THREADS,
    OPT_CS,
    OPT_LOCK_LATENCY,
    OPT_READ_PCT,
    OPT_LOAD_LATENCY,
    OPT_DURATION,
    OPT_REPEAT,
    OPT_WARMUP,
    OPT_NO_WAIT_TIMING,
    OPT_TIMER_PROBE,
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
    { "lock-latency", required_argument, NULL, OPT_LOCK_LATENCY },
    { "read-pct", required_argument, NULL, OPT_READ_PCT },
    { "load-latency", required_argument, NULL, OPT_LOAD_LATENCY },
    { "duration", required_argument, NULL, OPT_DURATION },
    { "repeat", required_argument, NULL, OPT_REPEAT },
    { "warmup", required_argument, NULL, OPT_WARMUP },
    { "no-wait-timing", no_argument, NULL, OPT_NO_WAIT_TIMING },
    { "timer-probe", no_argument, NULL, OPT_TIMER_PROBE },
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
  static const unsigned int default_threads[] = { 1, 2, 3, 4, 8, 16 };
  static const unsigned int default_lock_latency[] = { 0, 1000, 5000 };
  static const unsigned int default_read_pct[] = { 100, 90, 50 };
  bool any_kind = false, any_cs = false;
  int c;

  memset (o, 0, sizeof *o);
  o->duration = 0.2;
  o->warmup = 0.05;
  o->repeat = 5;
  o->load_latency = 100;
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
	parse_uint_list ("--threads", optarg, &o->threads, 1, MAX_THREADS);
	break;
      case OPT_CS:
	memset (o->cs_sel, 0, sizeof o->cs_sel);
	split_list ("--cs", optarg, add_cs, o);
	any_cs = true;
	break;
      case OPT_LOCK_LATENCY:
	parse_uint_list ("--lock-latency", optarg, &o->lock_latency, 0,
			 1000000000);
	break;
      case OPT_READ_PCT:
	parse_uint_list ("--read-pct", optarg, &o->read_pct, 0, 100);
	break;
      case OPT_LOAD_LATENCY:
	/* The long preset is ten times this.  */
	o->load_latency = parse_uint ("--load-latency", optarg, 0,
				      100000000);
	break;
      case OPT_DURATION:
	o->duration = parse_seconds ("--duration", optarg, 0.01, 3600);
	break;
      case OPT_REPEAT:
	o->repeat = parse_uint ("--repeat", optarg, 1, 1000);
	break;
      case OPT_WARMUP:
	o->warmup = parse_seconds ("--warmup", optarg, 0, 3600);
	break;
      case OPT_NO_WAIT_TIMING:
	o->no_wait_timing = true;
	break;
      case OPT_TIMER_PROBE:
	o->timer_probe = true;
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
  default_uint_list (&o->threads, default_threads,
		     sizeof default_threads / sizeof default_threads[0]);
  default_uint_list (&o->lock_latency, default_lock_latency,
		     sizeof default_lock_latency
		     / sizeof default_lock_latency[0]);
  default_uint_list (&o->read_pct, default_read_pct,
		     sizeof default_read_pct / sizeof default_read_pct[0]);
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


/* The sweep.  */

/* The kinds of one family on one workload, measured together: CELLS
   (NCELLS of them, one per kind) of the sweep's array.  */
struct group
{
  struct workload wl;
  struct cell *cells;
  size_t ncells;
};

/* Builds the groups of the sweep that O asks for: for each family with a
   selected kind, each read percentage (rwlocks only), critical section,
   lock latency and thread count.  Returns the number of groups; *CELLS
   and *GROUPS are allocated, *NCELLS set.  */
static size_t
plan_sweep (const struct options *o, struct group **groups,
	    struct cell **cells, size_t *ncells)
{
  size_t nkinds[2] = { 0, 0 }, ngroups = 0, total_groups;

  for (size_t k = 0; k < NKINDS; k++)
    if (o->kind_sel[k])
      nkinds[kind_is_rwlock (&kinds[k])]++;
  /* The workloads of each family (and each read percentage).  */
  size_t per_family = 0;
  for (unsigned int c = 0; c < CS_COUNT; c++)
    per_family += o->cs_sel[c];
  per_family *= o->lock_latency.n * o->threads.n;
  total_groups = ((nkinds[0] > 0) + (nkinds[1] > 0) * o->read_pct.n)
		 * per_family;
  *groups = calloc (total_groups, sizeof **groups);
  *cells = calloc (per_family * (nkinds[0] + nkinds[1] * o->read_pct.n),
		   sizeof **cells);
  if (*groups == NULL || *cells == NULL)
    fatal_errno ("calloc", ENOMEM);

  *ncells = 0;
  for (unsigned int family = 0; family < 2; family++)
    {
      if (nkinds[family] == 0)
	continue;
      size_t nread = family ? o->read_pct.n : 1;
      for (size_t rp = 0; rp < nread; rp++)
	for (unsigned int cs = 0; cs < CS_COUNT; cs++)
	  {
	    if (!o->cs_sel[cs])
	      continue;
	    for (size_t ll = 0; ll < o->lock_latency.n; ll++)
	      for (size_t t = 0; t < o->threads.n; t++)
		{
		  struct group *g = &(*groups)[ngroups++];

		  g->wl.threads = o->threads.value[t];
		  g->wl.cs = cs;
		  g->wl.inside = cs_inside (o, cs);
		  g->wl.outside = o->lock_latency.value[ll];
		  g->wl.rwlock = family;
		  g->wl.read_pct = family ? o->read_pct.value[rp] : 0;
		  g->cells = &(*cells)[*ncells];
		  for (size_t k = 0; k < NKINDS; k++)
		    if (o->kind_sel[k] && kind_is_rwlock (&kinds[k]) == family)
		      {
			struct cell *c = &(*cells)[(*ncells)++];

			c->kind = &kinds[k];
			c->wl = &g->wl;
			c->rounds = o->repeat;
			c->round = calloc (o->repeat, sizeof *c->round);
			if (c->round == NULL)
			  fatal_errno ("calloc", ENOMEM);
			g->ncells++;
		      }
		}
	  }
    }
  return ngroups;
}

/* Formats S seconds as "1h02m", "3m05s" or "12s".  */
static const char *
format_seconds (char *buf, size_t len, double s)
{
  unsigned long n = (unsigned long) (s + 0.5);

  if (n >= 3600)
    snprintf (buf, len, "%luh%02lum", n / 3600, n / 60 % 60);
  else if (n >= 60)
    snprintf (buf, len, "%lum%02lus", n / 60, n % 60);
  else
    snprintf (buf, len, "%lus", n);
  return buf;
}

/* When the last progress line was printed: a long group prints one
   after a run when PROGRESS_INTERVAL seconds have passed.  */
static struct timespec progress_mark;
#define PROGRESS_INTERVAL 20

/* Measures group G, the I-th of N: a warm-up run of every kind, then
   O->repeat rounds of every kind in rotated order.  */
static void
run_group (const struct options *o, struct group *g, size_t i, size_t n)
{
  struct result scratch;
  bool timed = !o->no_wait_timing;

  if (o->warmup > 0)
    for (size_t k = 0; k < g->ncells; k++)
      run_one (&g->cells[k], &scratch, o->warmup, timed, o->timer_probe);
  for (unsigned int r = 0; r < o->repeat; r++)
    for (size_t p = 0; p < g->ncells; p++)
      {
	struct cell *c = &g->cells[(p + r) % g->ncells];
	run_one (c, &c->round[r], o->duration, timed, o->timer_probe);
	if (seconds_since (&progress_mark) >= PROGRESS_INTERVAL)
	  {
	    fprintf (stderr, "[%zu/%zu] ... round %u of %u, %s\n", i, n,
		     r + 1, o->repeat, c->kind->name);
	    clock_gettime (CLOCK_MONOTONIC, &progress_mark);
	  }
      }
}

/* One line on standard error after group G, the I-th of N: the median
   throughput of every kind, the time spent since START and an estimate
   of the time left (from the planned times DONE and LEFT).  */
static void
report_group (const struct group *g, size_t i, size_t n,
	      const struct timespec *start, double done, double left)
{
  char t1[32], t2[32];
  double spent = seconds_since (start);

  fprintf (stderr, "[%zu/%zu] threads=%u cs=%s lock-latency=%u",
	   i, n, g->wl.threads, cs_names[g->wl.cs], g->wl.outside);
  if (g->wl.rwlock)
    fprintf (stderr, " read-pct=%u", g->wl.read_pct);
  fputs (", Mops/s:", stderr);
  for (size_t k = 0; k < g->ncells; k++)
    fprintf (stderr, " %s %.3f", g->cells[k].kind->name,
	     cell_median (&g->cells[k], fig_throughput, 0) / 1e6);
  fprintf (stderr, " (%s, about %s left)\n",
	   format_seconds (t1, sizeof t1, spent),
	   format_seconds (t2, sizeof t2, left * spent / done));
  clock_gettime (CLOCK_MONOTONIC, &progress_mark);
}

int
main (int argc, char **argv)
{
  struct options o;
  FILE *out = stdout;
  struct group *groups;
  struct cell *cells;
  size_t ngroups, ncells;
  struct timespec start;
  double planned, done = 0;

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

  ngroups = plan_sweep (&o, &groups, &cells, &ncells);
  double per_cell = o.warmup + o.repeat * o.duration;
  planned = per_cell * ncells;
  char t[32];
  fprintf (stderr, "bench-lock-contention: %zu workloads, %zu runs of a"
	   " kind on a workload, %u rounds of %g s each: about %s\n",
	   ngroups, ncells, o.repeat, o.duration,
	   format_seconds (t, sizeof t, planned));

  clock_gettime (CLOCK_MONOTONIC, &start);
  progress_mark = start;
  for (size_t i = 0; i < ngroups; i++)
    {
      run_group (&o, &groups[i], i + 1, ngroups);
      done += per_cell * groups[i].ncells;
      report_group (&groups[i], i + 1, ngroups, &start, done,
		    planned - done);
    }

  emit_json (out, o.fragment, cells, ncells, o.duration, o.warmup,
	     o.load_latency, !o.no_wait_timing, o.timer_probe);
  if (fflush (out) != 0 || ferror (out)
      || (out != stdout && fclose (out) != 0))
    {
      fprintf (stderr, "bench-lock-contention: error writing the output\n");
      return EXIT_INVARIANT;
    }

  for (size_t i = 0; i < ncells; i++)
    free (cells[i].round);
  free (cells);
  free (groups);
  return EXIT_SUCCESS;
}
