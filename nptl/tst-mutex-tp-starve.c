/* TP mutex: hand-off bounds the wait of a starving thread.
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

/* A hog thread holds the mutex for about 100 us at a time and relocks it
   at once after every unlock, so a woken waiter (which needs tens of
   microseconds to run) practically never finds it free: without hand-off
   the victim would wait until the hog stops (HOG_SECONDS).  With the
   default hand-off threshold of 5 ms, every victim acquisition must take
   less than the threshold plus a generous margin for noisy machines.
   This part is statistical (a woken victim sometimes finds the mutex
   free during the hog's unlock system call); check_handoff below checks
   the hand-off itself deterministically.  The test assumes the default
   hand-off threshold (5 ms).  */

#include <stdlib.h>
#include <time.h>
#include "tst-mutex-tp-common.h"
#include "tst-tp-clock.h"

enum { HOG_SECONDS = 4, VICTIM_ROUNDS = 20 };
#define MARGIN_NS 1000000000LL	/* 1 s, far below HOG_SECONDS.  */

static pthread_mutex_t m = PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP;
static volatile int stop;
static volatile int hog_running;

static void
busy_ns (int64_t ns)
{
  int64_t start = now_ns ();
  while (now_ns () - start < ns)
    ;
}

static void *
hog (void *arg)
{
  int64_t start = now_ns ();
  unsigned long int rounds = 0;
  xpthread_mutex_lock (&m);
  hog_running = 1;
  while (!stop && now_ns () - start < HOG_SECONDS * INT64_C (1000000000))
    {
      busy_ns (100000);
      xpthread_mutex_unlock (&m);
      xpthread_mutex_lock (&m);
      rounds++;
    }
  xpthread_mutex_unlock (&m);
  printf ("info: hog rounds %lu\n", rounds);
  return NULL;
}

/* Deterministic part: the victim waits far longer than the threshold
   while the main thread holds the mutex, so it has registered for
   hand-off; the unlock must then transfer ownership directly, so that
   right after pthread_mutex_unlock the word already names the victim
   and the unlocking thread cannot take the mutex back (no stealing while
   a hand-off is due).  Without hand-off the word would be 0 or name the
   main thread again.  */
static volatile pid_t victim_tid;
static pthread_barrier_t barrier;

static void *
victim (void *arg)
{
  victim_tid = gettid ();
  xpthread_barrier_wait (&barrier);
  xpthread_mutex_lock (&m);
  TEST_VERIFY (tst_tp_owned_by_self (&m));
  xpthread_barrier_wait (&barrier);
  xpthread_barrier_wait (&barrier);
  xpthread_mutex_unlock (&m);
  return NULL;
}

static void
check_handoff (void)
{
  xpthread_barrier_init (&barrier, NULL, 2);
  xpthread_mutex_lock (&m);
  pthread_t t = xpthread_create (NULL, victim, NULL);
  xpthread_barrier_wait (&barrier);
  /* 40 times the default threshold.  */
  usleep (200000);
  xpthread_mutex_unlock (&m);
  unsigned int word = tst_tp_word (&m);
  TEST_COMPARE (word & TST_TP_TID_MASK, (unsigned int) victim_tid);
  TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
  xpthread_barrier_wait (&barrier);
  TEST_COMPARE (pthread_mutex_trylock (&m), EBUSY);
  xpthread_barrier_wait (&barrier);
  xpthread_join (t);
  xpthread_mutex_lock (&m);
  xpthread_mutex_unlock (&m);
  xpthread_barrier_destroy (&barrier);
}

static int
do_test (void)
{
  const char *env = getenv ("GLIBC_TUNABLES");
  printf ("info: GLIBC_TUNABLES=%s\n", env ? env : "(unset)");

  check_handoff ();

  pthread_t t = xpthread_create (NULL, hog, NULL);
  while (!hog_running)
    usleep (100);

  long long worst = 0;
  for (int i = 0; i < VICTIM_ROUNDS; i++)
    {
      int64_t start = now_ns ();
      xpthread_mutex_lock (&m);
      int64_t waited = now_ns () - start;
      xpthread_mutex_unlock (&m);
      if (waited > worst)
	worst = waited;
      usleep (1000);
    }
  stop = 1;
  xpthread_join (t);
  printf ("info: worst victim wait %lld us\n", worst / 1000);
  /* Default threshold 5 ms plus the margin.  */
  TEST_VERIFY (worst < 5000000LL + MARGIN_NS);
  return 0;
}

#define TIMEOUT 30
#include <support/test-driver.c>
