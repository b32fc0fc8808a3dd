// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * futex-bench - mutex throughput of wait-wake, PI and TP futexes
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
 * A lock or unlock slow path is a futex syscall made by the lock or unlock
 * side.  For tp, hand-offs are counted from the FUTEX_LOCK status.
 *
 * Usage: futex-bench [-t threads[,threads...]] [-r seconds] [-l load]
 *                    [-w lock] [-f ww,pi,tp] [-n repeats] [-j]
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

#ifndef FUTEX_LOCK
#define FUTEX_LOCK		64
#define FUTEX_UNLOCK		65
#endif
#define TP_HOW_MASK		0xff
#define TP_HOW_HANDOFF		2
#define TP_SLEEPS_SHIFT		16
#define TP_SLEEPS_MASK		0x7fff

enum lock_type { LOCK_WW, LOCK_PI, LOCK_TP, NR_LOCK_TYPES };
static const char *const lock_names[] = { "ww", "pi", "tp" };

struct worker {
	pthread_t thread;
	unsigned long ops;
	unsigned long lock_slow;
	unsigned long unlock_slow;
	unsigned long handoffs;
	unsigned long sleeps;
	unsigned long errors;
	uint32_t tid;
	char pad[64];
} __attribute__((aligned(64)));

static uint32_t mutex __attribute__((aligned(64)));
static volatile int start_flag, stop_flag;
static enum lock_type type;
static int load_lat = 10, lock_lat = 1;
static unsigned long shared_counter;	/* protected by mutex */

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
	if ((ret & TP_HOW_MASK) == TP_HOW_HANDOFF)
		w->handoffs++;
	w->sleeps += (ret >> TP_SLEEPS_SHIFT) & TP_SLEEPS_MASK;
}

static void tp_unlock(struct worker *w)
{
	if (cas(&mutex, w->tid, 0) == w->tid)
		return;
	w->unlock_slow++;
	if (sys_futex(&mutex, FUTEX_UNLOCK | FUTEX_PRIVATE_FLAG, 0, NULL) < 0)
		w->errors++;
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
		switch (type) {
		case LOCK_WW:
			ww_lock(w);
			break;
		case LOCK_PI:
			pi_lock(w);
			break;
		default:
			tp_lock(w);
			break;
		}
		shared_counter++;
		work(buf, lock_lat);
		switch (type) {
		case LOCK_WW:
			ww_unlock(w);
			break;
		case LOCK_PI:
			pi_unlock(w);
			break;
		default:
			tp_unlock(w);
			break;
		}
		w->ops++;
		work(buf, load_lat);
	}
	return NULL;
}

static int run(int nthreads, int runtime, int json, int rep)
{
	unsigned long total = 0, tmin = ~0UL, tmax = 0, ls = 0, us = 0;
	unsigned long ho = 0, sl = 0, err = 0;
	struct worker *ws = calloc(nthreads, sizeof(*ws));
	struct timespec t0, t1;
	double secs;
	int i;

	if (!ws)
		return 1;
	mutex = 0;
	shared_counter = 0;
	start_flag = stop_flag = 0;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&ws[i].thread, NULL, worker_fn, &ws[i]))
			return 1;
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
	}
	if (shared_counter != total)
		err++;	/* mutual exclusion broken */
	printf("%-4s %3d %12lu %12.0f %10lu %10lu %10lu %10lu %8lu %6lu\n",
	       lock_names[type], nthreads, total, total / secs, tmin, tmax,
	       ls, us, ho, err);
	if (json)
		printf("JSON {\"rep\": %d, \"lock\": \"%s\", \"threads\": %d, \"runtime_s\": %.3f, \"load_latency\": %d, \"lock_latency\": %d, \"total_ops\": %lu, \"ops_per_sec\": %.1f, \"thread_min_ops\": %lu, \"thread_max_ops\": %lu, \"lock_slowpaths\": %lu, \"unlock_slowpaths\": %lu, \"handoffs\": %lu, \"sleeps\": %lu, \"errors\": %lu}\n",
		       rep, lock_names[type], nthreads, secs, load_lat, lock_lat,
		       total, total / secs, tmin, tmax, ls, us, ho, sl, err);
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
			fprintf(stderr, "usage: %s [-t n[,n...]] [-r s] [-l load] [-w lock] [-f ww,pi,tp] [-n reps] [-j]\n",
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
