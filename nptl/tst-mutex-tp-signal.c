/* TP mutex, TP and phase-fair rwlocks: signals to blocked waiters.
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

/* A thread blocked in a lock wait receives a burst of signals whose
   handler runs (the wait is interrupted: on the kernel path the futex
   operation returns -EINTR, on the user-space path the futex wait does).
   The wait must resume: the lock call must not return while the lock is
   held, must return 0 once it is released (no lost wake-up), and a timed
   wait must still end with ETIMEDOUT no earlier than its deadline and
   not much later.  Handlers are installed without SA_RESTART, so an
   interrupted system call is not restarted by the kernel: the lock code
   has to resume the wait itself.

   Waits covered: pthread_mutex_lock and pthread_mutex_timedlock on a TP
   mutex; pthread_rwlock_rdlock, wrlock, timedrdlock and timedwrlock on
   a TP and on a phase-fair rwlock (through the public API).  The test
   runs on whatever path the kernel offers (tst-mutex-tp-signal-user
   forces the user-space one), so that the VM covers the kernel path.  */

#include "tst-mutex-tp-common.h"
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <support/xsignal.h>
#include <support/xtime.h>
#include <support/timespec.h>

/* Signals sent to each blocked waiter, 2 ms apart.  */
enum { burst = 20 };

/* Timed waits: the relative timeout, and how much later than the
   deadline the call may return (a loaded machine, TIMEOUTFACTOR
   scales it).  */
#define TIMEOUT_MS 300
#define LATE_MS 2000

static volatile sig_atomic_t handled;

static void
handler (int sig)
{
  handled = handled + 1;
}

enum op
{
  op_mutex_lock, op_mutex_timedlock,
  op_rd, op_wr, op_timedrd, op_timedwr
};

struct waiter
{
  enum op op;
  pthread_mutex_t *mutex;
  pthread_rwlock_t *rwlock;
  struct timespec deadline;	/* For the timed operations.  */
  int result;
  /* Set by the waiter when its call has returned; read by the main
     thread.  Acquire/release: the main thread that sees DONE sees
     RESULT.  */
  int done;
};

static void *
waiter_thread (void *arg)
{
  struct waiter *w = arg;
  int r = -1;
  switch (w->op)
    {
    case op_mutex_lock:
      r = pthread_mutex_lock (w->mutex);
      break;
    case op_mutex_timedlock:
      r = pthread_mutex_timedlock (w->mutex, &w->deadline);
      break;
    case op_rd:
      r = pthread_rwlock_rdlock (w->rwlock);
      break;
    case op_wr:
      r = pthread_rwlock_wrlock (w->rwlock);
      break;
    case op_timedrd:
      r = pthread_rwlock_timedrdlock (w->rwlock, &w->deadline);
      break;
    case op_timedwr:
      r = pthread_rwlock_timedwrlock (w->rwlock, &w->deadline);
      break;
    }
  w->result = r;
  __atomic_store_n (&w->done, 1, __ATOMIC_RELEASE);
  if (r == 0)
    {
      if (w->mutex != NULL)
	xpthread_mutex_unlock (w->mutex);
      else
	xpthread_rwlock_unlock (w->rwlock);
    }
  return NULL;
}

/* -1, 0 or 1 as A is before, at or after B.  */
static int
ts_cmp (struct timespec a, struct timespec b)
{
  if (a.tv_sec != b.tv_sec)
    return a.tv_sec < b.tv_sec ? -1 : 1;
  if (a.tv_nsec != b.tv_nsec)
    return a.tv_nsec < b.tv_nsec ? -1 : 1;
  return 0;
}

static int
timeout_factor (void)
{
  const char *s = getenv ("TIMEOUTFACTOR");
  int f = s != NULL ? atoi (s) : 1;
  return f > 0 ? f : 1;
}

/* Send the burst to T while it waits; it must not return meanwhile.  */
static void
bombard (pthread_t t, struct waiter *w)
{
  int before = handled;
  for (int i = 0; i < burst; i++)
    {
      xpthread_kill (t, SIGUSR1);
      usleep (2000);
    }
  /* The waiter handles the signals (they merge while one is pending:
     at least one is handled, in practice most).  On a busy machine the
     waiter may not have run yet: give it up to 10 s per TIMEOUTFACTOR,
     while it still holds off its lock call.  */
  struct timespec end = timespec_add (xclock_now (CLOCK_MONOTONIC),
				      make_timespec (10 * timeout_factor (),
						     0));
  while (handled == before
	 && ts_cmp (xclock_now (CLOCK_MONOTONIC), end) <= 0)
    usleep (1000);
  TEST_VERIFY (handled > before);
  TEST_COMPARE (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE), 0);
}

/* Wait until W is done; fail (rather than hang) after 10 s per
   TIMEOUTFACTOR: a lost wake-up.  */
static void
await_done (struct waiter *w, const char *what)
{
  struct timespec end = timespec_add (xclock_now (CLOCK_MONOTONIC),
				      make_timespec (10 * timeout_factor (),
						     0));
  while (!__atomic_load_n (&w->done, __ATOMIC_ACQUIRE))
    {
      if (ts_cmp (xclock_now (CLOCK_MONOTONIC), end) > 0)
	FAIL_EXIT1 ("%s: waiter not woken after the lock was released"
		    " (lost wake-up)", what);
      usleep (1000);
    }
}

/* An untimed wait: blocked while the lock is held, through the signals;
   acquires once it is released.  RELEASE releases the lock.  */
static void
check_untimed (struct waiter *w, const char *what, void (*release) (void *),
	       void *lock)
{
  w->done = 0;
  handled = 0;
  pthread_t t = xpthread_create (NULL, waiter_thread, w);
  usleep (20000);		/* Let it block.  */
  bombard (t, w);
  release (lock);
  await_done (w, what);
  TEST_COMPARE (w->result, 0);
  xpthread_join (t);
  printf ("%s: %d signals handled while blocked, then acquired\n", what,
	  (int) handled);
}

/* A timed wait on a lock that stays held: ETIMEDOUT, not before the
   deadline, not later than LATE_MS after it.  */
static void
check_timed (struct waiter *w, const char *what)
{
  w->done = 0;
  handled = 0;
  w->deadline = timespec_add (xclock_now (CLOCK_REALTIME),
			      make_timespec (0, TIMEOUT_MS * 1000000));
  pthread_t t = xpthread_create (NULL, waiter_thread, w);
  usleep (20000);
  bombard (t, w);
  xpthread_join (t);
  struct timespec now = xclock_now (CLOCK_REALTIME);
  TEST_COMPARE (w->result, ETIMEDOUT);
  TEST_VERIFY (ts_cmp (now, w->deadline) >= 0);
  struct timespec late = timespec_sub (now, w->deadline);
  long int late_ms = late.tv_sec * 1000 + late.tv_nsec / 1000000;
  if (late_ms > LATE_MS * timeout_factor ())
    FAIL ("%s: returned %ld ms after its deadline (limit %d ms)", what,
	  late_ms, LATE_MS * timeout_factor ());
  printf ("%s: ETIMEDOUT %ld ms after the deadline, %d signals handled\n",
	  what, late_ms, (int) handled);
}

static void
release_mutex (void *m)
{
  xpthread_mutex_unlock (m);
}

static void
release_rwlock (void *l)
{
  xpthread_rwlock_unlock (l);
}

static void
check_rwlock_kind (int kind, const char *name)
{
  pthread_rwlockattr_t a;
  pthread_rwlock_t l;
  TEST_COMPARE (pthread_rwlockattr_init (&a), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&a, kind), 0);
  TEST_COMPARE (pthread_rwlock_init (&l, &a), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&a), 0);
  char what[64];

  struct waiter w = { .rwlock = &l };

  /* A reader waits for a writer.  */
  w.op = op_rd;
  xpthread_rwlock_wrlock (&l);
  snprintf (what, sizeof what, "%s rdlock", name);
  check_untimed (&w, what, release_rwlock, &l);

  /* A writer waits for a reader.  */
  w.op = op_wr;
  xpthread_rwlock_rdlock (&l);
  snprintf (what, sizeof what, "%s wrlock", name);
  check_untimed (&w, what, release_rwlock, &l);

  /* A writer waits for a writer.  */
  xpthread_rwlock_wrlock (&l);
  snprintf (what, sizeof what, "%s wrlock after writer", name);
  check_untimed (&w, what, release_rwlock, &l);

  /* Timed waits time out through the signals.  */
  xpthread_rwlock_wrlock (&l);
  w.op = op_timedrd;
  snprintf (what, sizeof what, "%s timedrdlock", name);
  check_timed (&w, what);
  w.op = op_timedwr;
  snprintf (what, sizeof what, "%s timedwrlock", name);
  check_timed (&w, what);
  xpthread_rwlock_unlock (&l);

  /* The lock is still usable.  */
  TEST_COMPARE (pthread_rwlock_trywrlock (&l), 0);
  xpthread_rwlock_unlock (&l);
  TEST_COMPARE (pthread_rwlock_destroy (&l), 0);
}

static int
do_test (void)
{
  struct sigaction sa = { .sa_handler = handler };
  sigemptyset (&sa.sa_mask);
  /* No SA_RESTART: see the comment at the top.  */
  sa.sa_flags = 0;
  xsigaction (SIGUSR1, &sa, NULL);

  for (size_t i = 0; i < TST_TP_NTYPES; i++)
    {
      pthread_mutex_t m;
      tst_tp_init (&m, tst_tp_types[i], false, false);
      struct waiter w = { .mutex = &m };
      char what[64];

      w.op = op_mutex_lock;
      xpthread_mutex_lock (&m);
      snprintf (what, sizeof what, "TP mutex type %d lock", tst_tp_types[i]);
      check_untimed (&w, what, release_mutex, &m);

      xpthread_mutex_lock (&m);
      w.op = op_mutex_timedlock;
      snprintf (what, sizeof what, "TP mutex type %d timedlock",
		tst_tp_types[i]);
      check_timed (&w, what);
      xpthread_mutex_unlock (&m);

      TEST_COMPARE (pthread_mutex_trylock (&m), 0);
      xpthread_mutex_unlock (&m);
      xpthread_mutex_destroy (&m);
    }

  check_rwlock_kind (PTHREAD_RWLOCK_TP_NP, "TP rwlock");
  check_rwlock_kind (PTHREAD_RWLOCK_PHASE_FAIR_NP, "phase-fair rwlock");
  return 0;
}

#define TIMEOUT 60
#include <support/test-driver.c>
