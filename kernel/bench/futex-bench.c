// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * futex-bench - mutex and rwlock throughput of wait-wake, PI and TP futexes
 *
 * In the style of "perf bench futex mutex": N threads lock and unlock one
 * shared mutex for a fixed run time.  Inside the critical section each
 * thread runs "lock latency" units of work, outside it "load latency"
 * units (one unit is one dependent load from a thread-local buffer plus a
 * pause).  Lock types, all using the same user space fast path shape:
 *
 *   ww   wait-wake futex mutex (0 free, 1 locked, 2 contended; FUTEX_WAIT
 *        and FUTEX_WAKE), the protocol of glibc's lowlevellock
 *   pi   PI futex (cmpxchg 0 -> TID, FUTEX_LOCK_PI / FUTEX_UNLOCK_PI)
 *   tp   TP futex (cmpxchg 0 -> TID, FUTEX_LOCK / FUTEX_UNLOCK)
 *
 * and reader/writer locks, where even-numbered threads read and odd ones
 * write (1:1 readers:writers; a reader's critical section reads the data
 * the writers update):
 *
 *   rwww  wait-wake futex rwlock: reader count, writer bit and waiters bit
 *         in one word, FUTEX_WAIT on it, FUTEX_WAKE of all waiters by the
 *         unlock that clears the waiters bit (reader-preferring, as
 *         glibc's default kind)
 *   rwtp  TP rwlock: writers as tp, readers by the shared TP word protocol
 *         (FUTEX_LOCK_SHARED / FUTEX_UNLOCK_SHARED, tp-futex.rst)
 *
 * A lock or unlock slow path is a futex syscall made by the lock or unlock
 * side.  For tp and rwtp, hand-offs are counted from the FUTEX_LOCK(_SHARED)
 * status.
 *
 * Usage: futex-bench [-t threads[,threads...]] [-r seconds] [-l load]
 *                    [-w lock] [-f ww,pi,tp,rwww,rwtp] [-n repeats] [-j]
 * -n repeats the whole set of runs, interleaving the lock types, so that a
 * drift in the load of a shared host does not favour one type.
 * -j adds one JSON object per run on lines prefixed "JSON ".
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The TP futex ABI (operations, the reader-owned word layout, the
 * status of FUTEX_LOCK) comes from the TPF kernel's UAPI header only:
 * this file is built with -I on the headers that `make kernel-headers'
 * installs, and refuses to build against a header without them.
 */
#if !defined(FUTEX_LOCK) || !defined(FUTEX_LOCK_SHARED) || \
    !defined(FUTEX_SCNT_MASK) || !defined(FUTEX_LOCK_SLEEPS_SHIFT)
#error "<linux/futex.h> lacks the TP futex ABI: build against the TPF kernel's headers (make kernel-headers)"
#endif
/* rwww word: reader count, writer bit, waiters bit. */
#define RW_WRITER		0x40000000
#define RW_WAITERS		0x80000000

enum lock_type { LOCK_WW, LOCK_PI, LOCK_TP, LOCK_RWWW, LOCK_RWTP,
		 NR_LOCK_TYPES };
static const char *const lock_names[] = { "ww", "pi", "tp", "rwww", "rwtp" };

struct worker {
	pthread_t thread;
	unsigned long ops;
	unsigned long lock_slow;
	unsigned long unlock_slow;
	unsigned long handoffs;
	unsigned long sleeps;
	unsigned long errors;
	int reader;
	uint32_t tid;
	char pad[64];
} __attribute__((aligned(64)));

static uint32_t mutex __attribute__((aligned(64)));
static volatile int start_flag, stop_flag;
static enum lock_type type;
static int load_lat = 10, lock_lat = 1;
static unsigned long shared_counter;	/* written under mutex */

static long sys_futex(uint32_t *uaddr, int op, uint32_t val,
		      const struct timespec *ts)
{
	return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

static inline uint32_t cas(uint32_t *p, uint32_t old, uint32_t new)
{
	__atomic_compare_exchange_n(p, &old, new, 0, __ATOMIC_ACQ_REL,
				    __ATOMIC_RELAXED);
	return old;
}

static void work(volatile unsigned long *buf, int units)
{
	unsigned long idx = 0;
	int i;

	for (i = 0; i < units; i++) {
		idx = buf[idx & 63];
		__builtin_ia32_pause();
	}
}

/* ww: Drepper's "mutex2" as glibc's lowlevellock. */
static void ww_lock(struct worker *w)
{
	uint32_t c = cas(&mutex, 0, 1);

	if (!c)
		return;
	if (c != 2)
		c = __atomic_exchange_n(&mutex, 2, __ATOMIC_ACQUIRE);
	while (c) {
		w->lock_slow++;
		sys_futex(&mutex, FUTEX_WAIT_PRIVATE, 2, NULL);
		c = __atomic_exchange_n(&mutex, 2, __ATOMIC_ACQUIRE);
	}
}

static void ww_unlock(struct worker *w)
{
	if (__atomic_exchange_n(&mutex, 0, __ATOMIC_RELEASE) != 1) {
		w->unlock_slow++;
		sys_futex(&mutex, FUTEX_WAKE_PRIVATE, 1, NULL);
	}
}

static void pi_lock(struct worker *w)
{
	if (!cas(&mutex, 0, w->tid))
		return;
	w->lock_slow++;
	if (sys_futex(&mutex, FUTEX_LOCK_PI_PRIVATE, 0, NULL))
		w->errors++;
}

static void pi_unlock(struct worker *w)
{
	if (cas(&mutex, w->tid, 0) == w->tid)
		return;
	w->unlock_slow++;
	if (sys_futex(&mutex, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL))
		w->errors++;
}

static void tp_lock(struct worker *w)
{
	long ret;

	if (!cas(&mutex, 0, w->tid))
		return;
	w->lock_slow++;
	ret = sys_futex(&mutex, FUTEX_LOCK | FUTEX_PRIVATE_FLAG, 0, NULL);
	if (ret < 0) {
		w->errors++;
		return;
	}
	if ((ret & FUTEX_LOCK_HOW_MASK) == FUTEX_LOCK_HANDOFF)
		w->handoffs++;
	w->sleeps += (ret >> FUTEX_LOCK_SLEEPS_SHIFT) & FUTEX_LOCK_SLEEPS_MASK;
}

static void tp_unlock(struct worker *w)
{
	if (cas(&mutex, w->tid, 0) == w->tid)
		return;
	w->unlock_slow++;
	if (sys_futex(&mutex, FUTEX_UNLOCK | FUTEX_PRIVATE_FLAG, 0, NULL) < 0)
		w->errors++;
}

static void tp_status(struct worker *w, long ret)
{
	if (ret < 0) {
		w->errors++;
		return;
	}
	if ((ret & FUTEX_LOCK_HOW_MASK) == FUTEX_LOCK_HANDOFF)
		w->handoffs++;
	w->sleeps += (ret >> FUTEX_LOCK_SLEEPS_SHIFT) & FUTEX_LOCK_SLEEPS_MASK;
}

/* rwww: sleep on the word with the waiters bit set until it changes. */
static void rwww_wait(struct worker *w, uint32_t v)
{
	if (!(v & RW_WAITERS) && cas(&mutex, v, v | RW_WAITERS) != v)
		return;
	w->lock_slow++;
	sys_futex(&mutex, FUTEX_WAIT_PRIVATE, v | RW_WAITERS, NULL);
}

static void rwww_rdlock(struct worker *w)
{
	for (;;) {
		uint32_t v = __atomic_load_n(&mutex, __ATOMIC_RELAXED);

		if (!(v & RW_WRITER)) {
			if (cas(&mutex, v, v + 1) == v)
				return;
			continue;
		}
		rwww_wait(w, v);
	}
}

static void rwww_wrlock(struct worker *w)
{
	for (;;) {
		uint32_t v = __atomic_load_n(&mutex, __ATOMIC_RELAXED);

		if (!(v & ~RW_WAITERS)) {
			if (cas(&mutex, v, v | RW_WRITER) == v)
				return;
			continue;
		}
		rwww_wait(w, v);
	}
}

/* The unlock that leaves the word free with waiters wakes them all. */
static void rwww_unlock(struct worker *w)
{
	uint32_t v;

	if (w->reader)
		v = __atomic_sub_fetch(&mutex, 1, __ATOMIC_RELEASE);
	else
		v = __atomic_and_fetch(&mutex, ~RW_WRITER, __ATOMIC_RELEASE);
	if (v == RW_WAITERS && cas(&mutex, RW_WAITERS, 0) == RW_WAITERS) {
		w->unlock_slow++;
		sys_futex(&mutex, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL);
	}
}

static void rwtp_rdlock(struct worker *w)
{
	uint32_t v = __atomic_load_n(&mutex, __ATOMIC_RELAXED), n;

	for (;;) {
		if (v == 0)
			n = FUTEX_SHARED | 1;
		else if ((v & ~FUTEX_SCNT_MASK) == FUTEX_SHARED &&
			 (v & FUTEX_SCNT_MASK) < FUTEX_SCNT_MASK)
			n = v + 1;
		else
			break;
		if (__atomic_compare_exchange_n(&mutex, &v, n, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
	w->lock_slow++;
	tp_status(w, sys_futex(&mutex, FUTEX_LOCK_SHARED | FUTEX_PRIVATE_FLAG,
			       0, NULL));
}

static void rwtp_rdunlock(struct worker *w)
{
	uint32_t v = __atomic_load_n(&mutex, __ATOMIC_RELAXED), n;

	do {
		if ((v & FUTEX_SCNT_MASK) > 1)
			n = v - 1;
		else if (!(v & FUTEX_WAITERS))
			n = 0;
		else
			n = (v - 1) | FUTEX_SHARED_UNLOCK;
	} while (!__atomic_compare_exchange_n(&mutex, &v, n, 0,
					      __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	if (!(n & FUTEX_SHARED_UNLOCK))
		return;
	w->unlock_slow++;
	if (sys_futex(&mutex, FUTEX_UNLOCK_SHARED | FUTEX_PRIVATE_FLAG, 0,
		      NULL) < 0)
		w->errors++;
}

static void do_lock(struct worker *w)
{
	switch (type) {
	case LOCK_WW:
		ww_lock(w);
		break;
	case LOCK_PI:
		pi_lock(w);
		break;
	case LOCK_RWWW:
		if (w->reader)
			rwww_rdlock(w);
		else
			rwww_wrlock(w);
		break;
	case LOCK_RWTP:
		if (w->reader)
			rwtp_rdlock(w);
		else
			tp_lock(w);
		break;
	default:
		tp_lock(w);
		break;
	}
}

static void do_unlock(struct worker *w)
{
	switch (type) {
	case LOCK_WW:
		ww_unlock(w);
		break;
	case LOCK_PI:
		pi_unlock(w);
		break;
	case LOCK_RWWW:
		rwww_unlock(w);
		break;
	case LOCK_RWTP:
		if (w->reader)
			rwtp_rdunlock(w);
		else
			tp_unlock(w);
		break;
	default:
		tp_unlock(w);
		break;
	}
}

static void *worker_fn(void *arg)
{
	volatile unsigned long buf[64];
	struct worker *w = arg;
	int i;

	for (i = 0; i < 64; i++)
		buf[i] = (i * 7 + 3) & 63;
	w->tid = syscall(SYS_gettid);
	while (!start_flag)
		__builtin_ia32_pause();
	while (!stop_flag) {
		do_lock(w);
		if (w->reader) {
			/* A writer inside would make the two reads differ. */
			unsigned long a = shared_counter;

			work(buf, lock_lat);
			if (*(volatile unsigned long *)&shared_counter != a)
				w->errors++;
		} else {
			shared_counter++;
			work(buf, lock_lat);
		}
		do_unlock(w);
		w->ops++;
		work(buf, load_lat);
	}
	return NULL;
}

static int run(int nthreads, int runtime, int json, int rep)
{
	unsigned long total = 0, tmin = ~0UL, tmax = 0, ls = 0, us = 0;
	unsigned long ho = 0, sl = 0, err = 0, rd = 0;
	struct worker *ws = calloc(nthreads, sizeof(*ws));
	struct timespec t0, t1;
	double secs;
	int i;

	if (!ws)
		return 1;
	mutex = 0;
	shared_counter = 0;
	start_flag = stop_flag = 0;
	for (i = 0; i < nthreads; i++) {
		ws[i].reader = (type == LOCK_RWWW || type == LOCK_RWTP) &&
			       i % 2 == 0;
		if (pthread_create(&ws[i].thread, NULL, worker_fn, &ws[i]))
			return 1;
	}
	usleep(10000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	start_flag = 1;
	sleep(runtime);
	stop_flag = 1;
	for (i = 0; i < nthreads; i++)
		pthread_join(ws[i].thread, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	for (i = 0; i < nthreads; i++) {
		total += ws[i].ops;
		tmin = ws[i].ops < tmin ? ws[i].ops : tmin;
		tmax = ws[i].ops > tmax ? ws[i].ops : tmax;
		ls += ws[i].lock_slow;
		us += ws[i].unlock_slow;
		ho += ws[i].handoffs;
		sl += ws[i].sleeps;
		err += ws[i].errors;
		if (ws[i].reader)
			rd += ws[i].ops;
	}
	if (shared_counter != total - rd || mutex)
		err++;	/* mutual exclusion broken, or the lock not free */
	printf("%-4s %3d %12lu %12.0f %10lu %10lu %10lu %10lu %8lu %6lu\n",
	       lock_names[type], nthreads, total, total / secs, tmin, tmax,
	       ls, us, ho, err);
	if (json)
		printf("JSON {\"rep\": %d, \"lock\": \"%s\", \"threads\": %d, \"runtime_s\": %.3f, \"load_latency\": %d, \"lock_latency\": %d, \"total_ops\": %lu, \"ops_per_sec\": %.1f, \"thread_min_ops\": %lu, \"thread_max_ops\": %lu, \"lock_slowpaths\": %lu, \"unlock_slowpaths\": %lu, \"handoffs\": %lu, \"sleeps\": %lu, \"errors\": %lu, \"reader_ops\": %lu}\n",
		       rep, lock_names[type], nthreads, secs, load_lat, lock_lat,
		       total, total / secs, tmin, tmax, ls, us, ho, sl, err, rd);
	fflush(stdout);
	free(ws);
	return err != 0;
}

int main(int argc, char **argv)
{
	char *threads = "2,4", *types = "ww,pi,tp";
	int runtime = 5, json = 0, opt, ret = 0, reps = 1, rep;
	char *tl, *tok, *save1, *save2;

	while ((opt = getopt(argc, argv, "t:r:l:w:f:n:j")) != -1) {
		switch (opt) {
		case 't':
			threads = optarg;
			break;
		case 'r':
			runtime = atoi(optarg);
			break;
		case 'l':
			load_lat = atoi(optarg);
			break;
		case 'w':
			lock_lat = atoi(optarg);
			break;
		case 'f':
			types = optarg;
			break;
		case 'n':
			reps = atoi(optarg);
			break;
		case 'j':
			json = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-t n[,n...]] [-r s] [-l load] [-w lock] [-f ww,pi,tp,rwww,rwtp] [-n reps] [-j]\n",
				argv[0]);
			return 2;
		}
	}
	printf("# runtime %d s, load latency %d, lock latency %d\n", runtime,
	       load_lat, lock_lat);
	printf("%-4s %3s %12s %12s %10s %10s %10s %10s %8s %6s\n", "lock",
	       "thr", "total_ops", "ops/s", "thr_min", "thr_max", "lock_slow",
	       "unlk_slow", "handoff", "errors");
	for (rep = 0; rep < reps; rep++) {
		tl = strdup(threads);
		for (tok = strtok_r(tl, ",", &save1); tok;
		     tok = strtok_r(NULL, ",", &save1)) {
			char *ty = strdup(types), *t2;

			for (t2 = strtok_r(ty, ",", &save2); t2;
			     t2 = strtok_r(NULL, ",", &save2)) {
				for (type = 0; type < NR_LOCK_TYPES; type++)
					if (!strcmp(t2, lock_names[type]))
						break;
				if (type == NR_LOCK_TYPES) {
					fprintf(stderr, "unknown lock type %s\n",
						t2);
					return 2;
				}
				ret |= run(atoi(tok), runtime, json, rep);
			}
			free(ty);
		}
		free(tl);
	}
	return ret;
}
