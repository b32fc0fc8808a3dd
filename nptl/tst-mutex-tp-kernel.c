/* TP mutex: the kernel path is used exactly when the kernel has it.
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

/* Probes the kernel for FUTEX_UNLOCK itself and checks that
   glibc's cached probe agrees (unless the user-space path is forced, as
   in tst-mutex-tp-kernel-user), then contends a mutex and checks through
   the slow-path counters (GLIBC_PRIVATE __pthread_mutex_tp_stats, which
   are per thread: each worker reports its own) which path served it.  On a stock kernel this checks the user-space path; in
   the TPF test VM, the kernel path (TST_TP_EXPECT_KERNEL set).  */

#include <stdlib.h>
#include <support/support.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <sys/single_threaded.h>
#include <pthread_mutex_tp_stats.h>
#include "tst-mutex-tp-common.h"

#ifndef TST_TP_FORCE_USER
# define TST_TP_FORCE_USER 0
#endif

/* A test that includes this file may bring its own contended WORKER and
   the kernel operation whose presence it needs (tst-rwlock-tp-kernel.c:
   FUTEX_UNLOCK_SHARED).  The operation numbers are the kernel's
   (<linux/futex.h>); kernel headers without them built a glibc without
   the kernel path (tp-futex.h), which this test then expects.  */
#ifndef TST_TP_PROBE_OP
# define TST_TP_PROBE_OP FUTEX_UNLOCK

static pthread_mutex_t m = PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP;

static void *
worker (void *arg)
{
  for (int i = 0; i < 2000; i++)
    {
      xpthread_mutex_lock (&m);
      usleep (10);
      xpthread_mutex_unlock (&m);
    }
  return NULL;
}
#endif

/* Run WORKER and return the slow-path events it caused, in a
   malloc'ed array of TP_STAT_COUNT counters.  */
static void *
counted_worker (void *arg)
{
  unsigned long int before[TP_STAT_COUNT];
  unsigned long int *delta = xmalloc (sizeof before);
  TEST_COMPARE (__pthread_mutex_tp_stats (before, TP_STAT_COUNT),
		TP_STAT_COUNT);
  worker (arg);
  __pthread_mutex_tp_stats (delta, TP_STAT_COUNT);
  for (int i = 0; i < TP_STAT_COUNT; i++)
    if (i != TP_STAT_KERNEL_MODE)
      delta[i] -= before[i];
  return delta;
}

static void *
transition_waiter (void *arg)
{
  xpthread_mutex_lock (arg);
  TEST_VERIFY (tst_tp_owned_by_self (arg));
  xpthread_mutex_unlock (arg);
  return NULL;
}

/* A TP mutex locked while the process has one thread (when the lock
   and unlock skip atomic operations, as glibc's normal mutex does) and
   unlocked after a second thread has gone to sleep waiting for it: the
   unlock must be the slow release that wakes or hands over to the
   waiter (a plain store would leave it asleep until its own timeout).
   Before any other thread exists.  */
static void
check_single_thread_transition (void)
{
  TEST_VERIFY_EXIT (__libc_single_threaded);
  pthread_mutex_t m;
  tst_tp_init (&m, PTHREAD_MUTEX_NORMAL, false, false);
  xpthread_mutex_lock (&m);
  TEST_VERIFY (tst_tp_owned_by_self (&m));
  pthread_t t = xpthread_create (NULL, transition_waiter, &m);
  /* The waiter announces itself with FUTEX_WAITERS before it sleeps,
     on either path.  */
  while ((tst_tp_word (&m) & FUTEX_WAITERS) == 0)
    usleep (1000);
  unsigned long int before[TP_STAT_COUNT], after[TP_STAT_COUNT];
  __pthread_mutex_tp_stats (before, TP_STAT_COUNT);
  xpthread_mutex_unlock (&m);
  __pthread_mutex_tp_stats (after, TP_STAT_COUNT);
  TEST_VERIFY (after[TP_STAT_KERNEL_UNLOCKS] + after[TP_STAT_USER_WAKES]
	       + after[TP_STAT_HANDOFFS]
	       > before[TP_STAT_KERNEL_UNLOCKS] + before[TP_STAT_USER_WAKES]
	       + before[TP_STAT_HANDOFFS]);
  xpthread_join (t);
  TEST_COMPARE (tst_tp_word (&m), 0);
  xpthread_mutex_destroy (&m);
}

static int
do_test (void)
{
  check_single_thread_transition ();

#ifdef FUTEX_LOCK
  unsigned int word = 0;
  long int r = syscall (__NR_futex, &word,
			TST_TP_PROBE_OP | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
  bool kernel_has_tp = r == -1 && errno == EPERM;
#else
  puts ("info: built against kernel headers without the TP futex ops");
  bool kernel_has_tp = false;
#endif
  printf ("info: kernel has TP futex ops: %d\n", kernel_has_tp);
  /* The TPF test VM runs a kernel with the TP operations and sets this,
     so that a kernel that lost them fails instead of testing the
     user-space path.  */
  if (getenv ("TST_TP_EXPECT_KERNEL") != NULL)
    TEST_VERIFY (kernel_has_tp);

  unsigned long int mode[TP_STAT_COUNT];
  TEST_COMPARE (__pthread_mutex_tp_stats (mode, TP_STAT_COUNT),
		TP_STAT_COUNT);
  bool expect_kernel = kernel_has_tp && !TST_TP_FORCE_USER;
  TEST_COMPARE (mode[TP_STAT_KERNEL_MODE], expect_kernel);

  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    t[i] = xpthread_create (NULL, counted_worker, NULL);
  /* The main thread's own counters from here on.  Not from before the
     workers were created: a pthread_create wrapper may lock a mutex of
     its own (valgrind's drd waits for the new thread on a mutex and a
     condition variable that it initializes with default attributes, so
     TP under this test's tunables), and may sleep on it.  */
  unsigned long int main_before[TP_STAT_COUNT];
  __pthread_mutex_tp_stats (main_before, TP_STAT_COUNT);
  unsigned long int sum[TP_STAT_COUNT] = { 0 };
  for (int i = 0; i < 3; i++)
    {
      unsigned long int *delta = xpthread_join (t[i]);
      TEST_COMPARE (delta[TP_STAT_KERNEL_MODE], expect_kernel);
      for (int j = 0; j < TP_STAT_COUNT; j++)
	if (j != TP_STAT_KERNEL_MODE)
	  sum[j] += delta[j];
      free (delta);
    }

  /* While the workers ran, the main thread only joined them, so its own
     counters stay as they were: nothing is counted process-wide.  */
  unsigned long int main_after[TP_STAT_COUNT];
  __pthread_mutex_tp_stats (main_after, TP_STAT_COUNT);
  for (int i = 0; i < TP_STAT_COUNT; i++)
    {
      printf ("info: counter %d: %lu\n", i, sum[i]);
      TEST_COMPARE (main_after[i], main_before[i]);
    }
  if (expect_kernel)
    {
      TEST_VERIFY (sum[TP_STAT_KERNEL_LOCKS] > 0);
      TEST_COMPARE (sum[TP_STAT_USER_SLEEPS], 0);
    }
  else
    {
      TEST_COMPARE (sum[TP_STAT_KERNEL_LOCKS], 0);
      TEST_COMPARE (sum[TP_STAT_KERNEL_UNLOCKS], 0);
      TEST_VERIFY (sum[TP_STAT_USER_SLEEPS] > 0);
    }
  return 0;
}

#include <support/test-driver.c>
