/* tpf-stress: a mixed mutex / rwlock / condition-variable workload that
   checks its own invariants.  Used as the contention stress program run
   under valgrind (tests/valgrind/run-valgrind.sh) and as the soak
   (tests/soak/run-soak.sh).

   It is an ordinary POSIX program: it is built with the host compiler
   against Debian's headers and only initializes its locks with default
   attributes, so the fork's tunables decide what they are:
     GLIBC_TUNABLES=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3
   makes every mutex a TP mutex and every rwlock phase-fair.  --expect
   asserts which kind the library actually gave (by looking at the kind
   fields of glibc's lock structures), so a run that silently fell back
   to stock locks cannot pass as a TP run.

   Roles (THREADS is split, each role has at least one thread):
     mutex workers  lock one of NACCOUNTS accounts (lock, trylock or
		    timedlock) and update its value V and complement NV;
		    on entry NV must be ~V and the owner field empty.
     writers        take the table's rwlock for writing (wrlock,
		    trywrlock or clockwrlock) and bump every slot of the
		    table from G to G + 1, one slot at a time.
     readers        take it for reading (rdlock, tryrdlock or
		    clockrdlock); every slot must hold the same G, and G
		    never goes back.
     producers and  a bounded FIFO queue under a mutex and two condition
     consumers      variables (wait or timedwait); every consumer sees
		    each producer's sequence numbers strictly increasing,
		    and in the end as many items, with the same sum, were
		    consumed as produced.
   At the end: each account's V equals the number of updates the
   workers counted for it, the table's G equals the writes counted.

   Options: --threads N (24; at least 5), --seconds S or --ops N (per
   thread; the valgrind runs use --ops, which never reads the stop flag
   the main thread writes), --expect tp|stock, --progress SECS (a line
   on standard error every SECS seconds of a --seconds run).

   --control=unlocked makes the mutex workers skip the account lock: the
   invariants must then break (and helgrind/drd must report the race).
   Exit status 0 if every check held, 1 if one failed, 2 on usage or
   setup errors.  */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NACCOUNTS = 4, NSLOTS = 16, QUEUE_CAP = 8 };

/* A trylock that keeps failing falls back to the blocking call after
   this many tries (a phase-fair tryrdlock fails while writers wait, so
   an unbounded retry loop could starve).  */
enum { MAX_TRIES = 64 };

/* Glibc's kind values as the fork defines them (nptl/pthreadP.h,
   sysdeps/nptl/pthread.h of the fork); Debian's headers do not have
   them.  */
#define TP_MUTEX_KIND_BIT 8		/* PTHREAD_MUTEX_THROUGHPUT_NP.  */
#define PI_PP_KIND_BITS (16 | 32 | 64)	/* PRIO_INHERIT / PRIO_PROTECT.  */
#define PHASE_FAIR_RWLOCK_FLAGS 3	/* PTHREAD_RWLOCK_PHASE_FAIR_NP.  */

struct account
{
  pthread_mutex_t lock;
  unsigned long int value;
  unsigned long int complement;
  int owner;			/* Role index + 1 of the holder, 0 if free.  */
} __attribute__ ((aligned (64)));

static struct account accounts[NACCOUNTS];

static pthread_rwlock_t table_lock;
static unsigned long int table[NSLOTS];

static pthread_mutex_t queue_lock;
static pthread_cond_t queue_not_empty, queue_not_full;
static unsigned long int queue[QUEUE_CAP];
static unsigned int queue_head, queue_count;
static bool queue_closed;

/* Options.  */
static int nthreads = 24;
static double seconds = 0;
static unsigned long int ops_per_thread = 0;
static bool control_unlocked;
static const char *expect;
static int progress_interval;

/* Set by the main thread when --seconds have passed.  Read with an
   atomic load only when --seconds is given (the valgrind runs use --ops
   and never touch it).  */
static int stop_flag;

enum role { MUTEX_WORKER, WRITER, READER, PRODUCER, CONSUMER, NROLES };
static const char *const role_names[NROLES] =
  { "mutex", "writer", "reader", "producer", "consumer" };

struct thread
{
  pthread_t handle;
  enum role role;
  int id;			/* Index among all threads.  */
  int producer_id;		/* For producers.  */
  unsigned int seed;
  /* Results, read by the main thread after pthread_join (or, for
     --progress, with relaxed atomic loads).  */
  unsigned long int ops;
  unsigned long int checks;
  unsigned long int failures;
  unsigned long int per_account[NACCOUNTS];
  unsigned long int sum;	/* Producers: sum of the items.  */
  unsigned long int *last_seq;	/* Consumers: per producer.  */
} __attribute__ ((aligned (64)));

static struct thread *threads;
static int nproducers;

static void
fail (struct thread *t, const char *what)
{
  t->failures++;
  if (t->failures <= 5)
    {
      if (t->id < 0)
	fprintf (stderr, "tpf-stress: final check: %s\n", what);
      else
	fprintf (stderr, "tpf-stress: thread %d (%s): %s\n", t->id,
		 role_names[t->role], what);
    }
}

static void
check (struct thread *t, bool ok, const char *what)
{
  t->checks++;
  if (!ok)
    fail (t, what);
}

static unsigned int
rnd (struct thread *t)
{
  t->seed = t->seed * 1103515245u + 12345u;
  return t->seed >> 16;
}

static bool
keep_going (struct thread *t)
{
  if (ops_per_thread != 0 && t->ops >= ops_per_thread)
    return false;
  if (seconds > 0 && __atomic_load_n (&stop_flag, __ATOMIC_RELAXED))
    return false;
  return true;
}

static void
count_op (struct thread *t)
{
  __atomic_store_n (&t->ops, t->ops + 1, __ATOMIC_RELAXED);
}

static struct timespec
deadline (clockid_t clock, int secs)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  ts.tv_sec += secs;
  return ts;
}

static void
must (struct thread *t, int err, const char *what)
{
  if (err != 0)
    {
      char buf[128];
      snprintf (buf, sizeof buf, "%s failed: %s", what, strerror (err));
      fail (t, buf);
    }
}

/* Widen the windows in which missing exclusion would show.  */
static void
maybe_yield (struct thread *t)
{
  if (rnd (t) % 16 == 0)
    sched_yield ();
}

static void
mutex_worker (struct thread *t)
{
  while (keep_going (t))
    {
      unsigned int a = rnd (t) % NACCOUNTS;
      struct account *acc = &accounts[a];
      unsigned int how = rnd (t) % 3;
      if (!control_unlocked)
	{
	  if (how == 0)
	    must (t, pthread_mutex_lock (&acc->lock), "pthread_mutex_lock");
	  else if (how == 1)
	    {
	      int err;
	      for (int tries = 0;
		   (err = pthread_mutex_trylock (&acc->lock)) == EBUSY; tries++)
		if (tries == MAX_TRIES)
		  {
		    err = pthread_mutex_lock (&acc->lock);
		    break;
		  }
		else
		  sched_yield ();
	      must (t, err, "pthread_mutex_trylock");
	    }
	  else
	    {
	      struct timespec ts = deadline (CLOCK_REALTIME, 60);
	      must (t, pthread_mutex_timedlock (&acc->lock, &ts),
		    "pthread_mutex_timedlock");
	    }
	}
      check (t, acc->owner == 0, "account owned by another thread on entry");
      acc->owner = t->id + 1;
      unsigned long int v = acc->value;
      check (t, acc->complement == ~v, "torn account: complement != ~value");
      acc->value = v + 1;
      maybe_yield (t);
      acc->complement = ~(v + 1);
      check (t, acc->owner == t->id + 1, "account owner changed while held");
      acc->owner = 0;
      if (!control_unlocked)
	must (t, pthread_mutex_unlock (&acc->lock), "pthread_mutex_unlock");
      t->per_account[a]++;
      count_op (t);
    }
}

static void
writer (struct thread *t)
{
  while (keep_going (t))
    {
      unsigned int how = rnd (t) % 3;
      if (how == 0)
	must (t, pthread_rwlock_wrlock (&table_lock), "pthread_rwlock_wrlock");
      else if (how == 1)
	{
	  int err;
	  for (int tries = 0;
	       (err = pthread_rwlock_trywrlock (&table_lock)) == EBUSY; tries++)
	    if (tries == MAX_TRIES)
	      {
		err = pthread_rwlock_wrlock (&table_lock);
		break;
	      }
	    else
	      sched_yield ();
	  must (t, err, "pthread_rwlock_trywrlock");
	}
      else
	{
	  struct timespec ts = deadline (CLOCK_MONOTONIC, 60);
	  must (t, pthread_rwlock_clockwrlock (&table_lock, CLOCK_MONOTONIC,
					       &ts),
		"pthread_rwlock_clockwrlock");
	}
      unsigned long int g = table[0];
      bool same = true;
      for (int i = 1; i < NSLOTS; i++)
	same &= table[i] == g;
      check (t, same, "writer found a torn table");
      for (int i = 0; i < NSLOTS; i++)
	{
	  table[i] = g + 1;
	  if (i == NSLOTS / 2)
	    maybe_yield (t);
	}
      must (t, pthread_rwlock_unlock (&table_lock), "pthread_rwlock_unlock");
      count_op (t);
    }
}

static void
reader (struct thread *t)
{
  unsigned long int last = 0;
  while (keep_going (t))
    {
      unsigned int how = rnd (t) % 3;
      if (how == 0)
	must (t, pthread_rwlock_rdlock (&table_lock), "pthread_rwlock_rdlock");
      else if (how == 1)
	{
	  int err;
	  for (int tries = 0;
	       (err = pthread_rwlock_tryrdlock (&table_lock)) == EBUSY; tries++)
	    if (tries == MAX_TRIES)
	      {
		err = pthread_rwlock_rdlock (&table_lock);
		break;
	      }
	    else
	      sched_yield ();
	  must (t, err, "pthread_rwlock_tryrdlock");
	}
      else
	{
	  struct timespec ts = deadline (CLOCK_MONOTONIC, 60);
	  must (t, pthread_rwlock_clockrdlock (&table_lock, CLOCK_MONOTONIC,
					       &ts),
		"pthread_rwlock_clockrdlock");
	}
      unsigned long int g = table[0];
      bool same = true;
      for (int i = 1; i < NSLOTS; i++)
	{
	  same &= table[i] == g;
	  if (i == NSLOTS / 2)
	    maybe_yield (t);
	}
      check (t, same, "reader saw a torn table (writer inside)");
      check (t, g >= last, "reader saw the generation go back");
      last = g;
      must (t, pthread_rwlock_unlock (&table_lock), "pthread_rwlock_unlock");
      count_op (t);
    }
}

static int
queue_wait (struct thread *t, pthread_cond_t *cond)
{
  if (rnd (t) % 2 == 0)
    return pthread_cond_wait (cond, &queue_lock);
  struct timespec ts = deadline (CLOCK_REALTIME, 60);
  return pthread_cond_timedwait (cond, &queue_lock, &ts);
}

static void
producer (struct thread *t)
{
  unsigned long int seq = 0;
  while (keep_going (t))
    {
      unsigned long int item = ((unsigned long int) t->producer_id << 40)
			       | ++seq;
      must (t, pthread_mutex_lock (&queue_lock), "pthread_mutex_lock");
      while (queue_count == QUEUE_CAP)
	must (t, queue_wait (t, &queue_not_full), "pthread_cond_wait");
      queue[(queue_head + queue_count) % QUEUE_CAP] = item;
      queue_count++;
      must (t, pthread_cond_signal (&queue_not_empty), "pthread_cond_signal");
      must (t, pthread_mutex_unlock (&queue_lock), "pthread_mutex_unlock");
      t->sum += item;
      count_op (t);
    }
}

static void
consumer (struct thread *t)
{
  for (;;)
    {
      must (t, pthread_mutex_lock (&queue_lock), "pthread_mutex_lock");
      while (queue_count == 0 && !queue_closed)
	must (t, queue_wait (t, &queue_not_empty), "pthread_cond_wait");
      if (queue_count == 0)
	{
	  must (t, pthread_mutex_unlock (&queue_lock), "pthread_mutex_unlock");
	  break;
	}
      unsigned long int item = queue[queue_head];
      queue_head = (queue_head + 1) % QUEUE_CAP;
      queue_count--;
      must (t, pthread_cond_signal (&queue_not_full), "pthread_cond_signal");
      must (t, pthread_mutex_unlock (&queue_lock), "pthread_mutex_unlock");
      unsigned long int p = item >> 40, seq = item & ((1ul << 40) - 1);
      check (t, p < (unsigned long int) nproducers,
	     "consumer got an item from no producer");
      if (p < (unsigned long int) nproducers)
	{
	  check (t, seq > t->last_seq[p],
		 "consumer got a producer's items out of order");
	  t->last_seq[p] = seq;
	}
      t->sum += item;
      count_op (t);
    }
}

static void *
thread_main (void *arg)
{
  struct thread *t = arg;
  switch (t->role)
    {
    case MUTEX_WORKER: mutex_worker (t); break;
    case WRITER: writer (t); break;
    case READER: reader (t); break;
    case PRODUCER: producer (t); break;
    case CONSUMER: consumer (t); break;
    default: abort ();
    }
  return NULL;
}

static bool
mutex_is_tp (pthread_mutex_t *m)
{
  int kind = m->__data.__kind;
  return (kind & TP_MUTEX_KIND_BIT) != 0 && (kind & PI_PP_KIND_BITS) == 0;
}

static bool
rwlock_is_phase_fair (pthread_rwlock_t *rw)
{
  return rw->__data.__flags == PHASE_FAIR_RWLOCK_FLAGS;
}

static void
usage (void)
{
  fputs ("usage: tpf-stress [--threads N] [--seconds S | --ops N]\n"
	 "                  [--expect tp|stock] [--control=unlocked]\n"
	 "                  [--progress SECS]\n", stderr);
  exit (2);
}

static void
sum_role (enum role r, unsigned long int *ops)
{
  *ops = 0;
  for (int i = 0; i < nthreads; i++)
    if (threads[i].role == r)
      *ops += __atomic_load_n (&threads[i].ops, __ATOMIC_RELAXED);
}

static void
run_clock (void)
{
  struct timespec start, now;
  clock_gettime (CLOCK_MONOTONIC, &start);
  for (;;)
    {
      clock_gettime (CLOCK_MONOTONIC, &now);
      double done = (now.tv_sec - start.tv_sec)
		    + (now.tv_nsec - start.tv_nsec) / 1e9;
      if (done >= seconds)
	break;
      double left = seconds - done;
      double nap = progress_interval > 0 && left > progress_interval
		   ? progress_interval : left;
      struct timespec ts = { (time_t) nap,
			     (long) ((nap - (time_t) nap) * 1e9) };
      nanosleep (&ts, NULL);
      if (progress_interval > 0 && nap < left)
	{
	  unsigned long int total = 0, o;
	  for (int r = 0; r < NROLES; r++)
	    {
	      sum_role (r, &o);
	      total += o;
	    }
	  fprintf (stderr, "tpf-stress: %.0f of %.0f s, %lu operations\n",
		   done + nap, seconds, total);
	}
    }
  __atomic_store_n (&stop_flag, 1, __ATOMIC_RELAXED);
}

int
main (int argc, char **argv)
{
  static const struct option options[] =
    {
      { "threads", required_argument, NULL, 't' },
      { "seconds", required_argument, NULL, 's' },
      { "ops", required_argument, NULL, 'o' },
      { "expect", required_argument, NULL, 'e' },
      { "control", required_argument, NULL, 'c' },
      { "progress", required_argument, NULL, 'p' },
      { NULL, 0, NULL, 0 }
    };
  int c;
  while ((c = getopt_long (argc, argv, "", options, NULL)) != -1)
    switch (c)
      {
      case 't': nthreads = atoi (optarg); break;
      case 's': seconds = atof (optarg); break;
      case 'o': ops_per_thread = strtoul (optarg, NULL, 10); break;
      case 'e': expect = optarg; break;
      case 'p': progress_interval = atoi (optarg); break;
      case 'c':
	if (strcmp (optarg, "unlocked") != 0)
	  usage ();
	control_unlocked = true;
	break;
      default: usage ();
      }
  if (optind != argc || nthreads < 5 || (seconds <= 0) == (ops_per_thread == 0)
      || (expect != NULL && strcmp (expect, "tp") != 0
	  && strcmp (expect, "stock") != 0))
    usage ();

  /* Default attributes everywhere: the tunables choose the kind.  */
  for (int i = 0; i < NACCOUNTS; i++)
    {
      pthread_mutex_init (&accounts[i].lock, NULL);
      accounts[i].complement = ~0ul;
    }
  pthread_rwlock_init (&table_lock, NULL);
  pthread_mutex_init (&queue_lock, NULL);
  pthread_cond_init (&queue_not_empty, NULL);
  pthread_cond_init (&queue_not_full, NULL);

  bool tp = mutex_is_tp (&queue_lock);
  bool pf = rwlock_is_phase_fair (&table_lock);
  for (int i = 0; i < NACCOUNTS; i++)
    if (mutex_is_tp (&accounts[i].lock) != tp)
      {
	fputs ("tpf-stress: mutexes of different kinds\n", stderr);
	return 1;
      }
  printf ("locks: mutex %s, rwlock %s\n", tp ? "TP" : "stock",
	  pf ? "phase-fair" : "stock");
  if (expect != NULL
      && (strcmp (expect, "tp") == 0 ? !(tp && pf) : (tp || pf)))
    {
      printf ("FAIL: expected %s locks\n", expect);
      return 1;
    }

  /* Split the threads into the roles.  */
  int count[NROLES];
  count[MUTEX_WORKER] = nthreads * 3 / 8;
  count[READER] = nthreads / 4;
  count[WRITER] = nthreads / 8;
  for (int r = 0; r < PRODUCER; r++)
    if (count[r] < 1)
      count[r] = 1;
  int rest = nthreads - count[MUTEX_WORKER] - count[READER] - count[WRITER];
  count[PRODUCER] = rest / 2;
  count[CONSUMER] = rest - rest / 2;
  if (count[PRODUCER] < 1)
    usage ();
  nproducers = count[PRODUCER];

  threads = calloc (nthreads, sizeof *threads);
  if (threads == NULL)
    return 2;
  int n = 0;
  for (int r = 0; r < NROLES; r++)
    for (int i = 0; i < count[r]; i++, n++)
      {
	threads[n].role = r;
	threads[n].id = n;
	threads[n].producer_id = i;
	threads[n].seed = 2654435761u * (n + 1);
	if (r == CONSUMER)
	  {
	    threads[n].last_seq = calloc (nproducers, sizeof (unsigned long));
	    if (threads[n].last_seq == NULL)
	      return 2;
	  }
      }
  printf ("threads: %d (mutex %d, writer %d, reader %d, producer %d,"
	  " consumer %d)\n", nthreads, count[MUTEX_WORKER], count[WRITER],
	  count[READER], count[PRODUCER], count[CONSUMER]);
  fflush (stdout);

  for (int i = 0; i < nthreads; i++)
    if (pthread_create (&threads[i].handle, NULL, thread_main,
			&threads[i]) != 0)
      {
	fputs ("tpf-stress: pthread_create failed\n", stderr);
	return 2;
      }
  if (seconds > 0)
    run_clock ();

  /* Producers first, then close the queue so the consumers drain it.  */
  for (int i = 0; i < nthreads; i++)
    if (threads[i].role != CONSUMER)
      pthread_join (threads[i].handle, NULL);
  pthread_mutex_lock (&queue_lock);
  queue_closed = true;
  pthread_cond_broadcast (&queue_not_empty);
  pthread_mutex_unlock (&queue_lock);
  for (int i = 0; i < nthreads; i++)
    if (threads[i].role == CONSUMER)
      pthread_join (threads[i].handle, NULL);

  /* Final checks.  */
  unsigned long int checks = 0, failures = 0, ops[NROLES] = { 0 };
  unsigned long int produced_sum = 0, consumed_sum = 0;
  unsigned long int per_account[NACCOUNTS] = { 0 };
  for (int i = 0; i < nthreads; i++)
    {
      struct thread *t = &threads[i];
      checks += t->checks;
      failures += t->failures;
      ops[t->role] += t->ops;
      if (t->role == PRODUCER)
	produced_sum += t->sum;
      if (t->role == CONSUMER)
	consumed_sum += t->sum;
      for (int a = 0; a < NACCOUNTS; a++)
	per_account[a] += t->per_account[a];
    }
  struct thread final = { .id = -1, .role = NROLES - 1 };
  for (int a = 0; a < NACCOUNTS; a++)
    {
      check (&final, accounts[a].value == per_account[a],
	     "an account's value differs from its counted updates"
	     " (lost update)");
      check (&final, accounts[a].complement == ~accounts[a].value,
	     "an account's complement is not ~value at the end");
    }
  check (&final, table[0] == ops[WRITER],
	 "the table's generation differs from the counted writes");
  check (&final, ops[PRODUCER] == ops[CONSUMER],
	 "items produced and consumed differ");
  check (&final, produced_sum == consumed_sum,
	 "the sums of items produced and consumed differ");
  checks += final.checks;
  failures += final.failures;

  unsigned long int total = 0;
  for (int r = 0; r < NROLES; r++)
    total += ops[r];
  printf ("operations: %lu (mutex %lu, write %lu, read %lu, produce %lu,"
	  " consume %lu)\n", total, ops[MUTEX_WORKER], ops[WRITER],
	  ops[READER], ops[PRODUCER], ops[CONSUMER]);
  printf ("checks: %lu invariant checks, %lu failed\n", checks, failures);
  printf ("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
