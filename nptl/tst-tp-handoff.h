/* Helpers for the tests of hand-off registrations of the TP locks.
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

/* A waiter of a TP mutex, of a TP rwlock or of the phase-fair rwlock's
   writer role that has waited past the hand-off threshold registers its
   TID in the lock's hand-off word (user-space path; layout in
   sysdeps/nptl/tp-wait.h).  These tests bring a lock into that state on
   purpose, so they read the hand-off word to know when the state is
   reached, and to check that a stale registration was dropped; they
   never use it to decide what the lock should do.  On the kernel path
   (TP mutex and TP rwlock with a kernel that has the TP operations) the
   hand-off state is the kernel's: the tests then wait until the waiter
   sleeps and for well past the kernel's fixed threshold.  */

#ifndef TST_TP_HANDOFF_H
#define TST_TP_HANDOFF_H 1

#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <support/check.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>
#include <support/xunistd.h>

/* The operations whose presence gives the kernel path, from the
   kernel's <linux/futex.h> (of the TPF series).  With headers that lack
   them glibc was built without the kernel path (tp-futex.h), and so is
   the probe below.  */
#ifdef FUTEX_LOCK
# define TST_HO_OP_MUTEX FUTEX_UNLOCK
# define TST_HO_OP_RWLOCK FUTEX_UNLOCK_SHARED
#else
# define TST_HO_OP_MUTEX (-1)
# define TST_HO_OP_RWLOCK (-1)
#endif

/* The hand-off word: the registration is everything but the spinner
   bit; its TID is in the low 22 bits, with the TP rwlock's reader bit
   and the grant bit above.  */
#define TST_HO_SPINNER	0x20000000u
#define TST_HO_TID_MASK	0x003fffffu
#define TST_HO_READER	0x40000000u
#define TST_HO_GRANTED	0x80000000u

/* Upper bound of every wait for a state the test set up: far above what
   a loaded machine or the TCG VM needs, far below the test timeout.  */
#define TST_HO_WAIT_MS	20000

static inline unsigned int
tst_ho_load (const void *word)
{
  typedef unsigned int __attribute__ ((__may_alias__)) alias_uint;
  return __atomic_load_n ((const alias_uint *) word, __ATOMIC_RELAXED);
}

/* The registration in the hand-off word at WORD.  */
static inline unsigned int
tst_ho_reg (const void *word)
{
  return tst_ho_load (word) & ~TST_HO_SPINNER;
}

static inline void
tst_ho_sleep_ms (int ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* The hand-off threshold in microseconds that the lock uses: the value
   of glibc.pthread.mutex_tp_handoff_us in GLIBC_TUNABLES if it is in
   range, else the default (manual/tunables.texi).  */
static inline long int
tst_ho_threshold_us (void)
{
  static const char name[] = "glibc.pthread.mutex_tp_handoff_us=";
  long int us = 5000;
  const char *env = getenv ("GLIBC_TUNABLES");
  const char *p = env == NULL ? NULL : strstr (env, name);
  if (p != NULL)
    {
      char *end;
      long int v = strtol (p + sizeof name - 1, &end, 10);
      if (end != p + sizeof name - 1 && (*end == ':' || *end == '\0')
	  && v >= 0 && v <= 1000000)
	us = v;
    }
  return us;
}

/* Whether the TP mutex and the TP rwlock take the kernel path: the
   kernel has the TP futex operation OP (TST_HO_OP_MUTEX, FUTEX_UNLOCK,
   for the mutex, TST_HO_OP_RWLOCK, FUTEX_UNLOCK_SHARED, for the rwlock:
   an unlock of a word we do not own fails with EPERM) and
   glibc.pthread.mutex_tp_userspace=1 does not force the user-space
   path.  */
static inline bool
tst_ho_kernel_path (int op)
{
  if (op < 0)
    return false;
  unsigned int word = 0;
  long int r = syscall (SYS_futex, &word, op | FUTEX_PRIVATE_FLAG, 0, NULL,
			NULL, 0);
  if (!(r == -1 && errno == EPERM))
    return false;
  const char *env = getenv ("GLIBC_TUNABLES");
  return env == NULL || strstr (env, "mutex_tp_userspace=1") == NULL;
}

/* Wait until the thread TID of process PID (0: this process) sleeps,
   which the tests take to mean that it is blocked in the lock call it
   makes next.  A thread that no longer exists fails the test.  */
static inline void
tst_ho_wait_sleeping (pid_t pid, pid_t tid)
{
  char path[64];
  if (pid == 0)
    snprintf (path, sizeof path, "/proc/self/task/%d/stat", (int) tid);
  else
    snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) pid,
	      (int) tid);
  for (int n = 0; ; n++)
    {
      FILE *f = fopen (path, "r");
      if (f == NULL)
	FAIL_EXIT1 ("thread %d is gone before it blocked", (int) tid);
      char buf[512];
      size_t len = fread (buf, 1, sizeof buf - 1, f);
      fclose (f);
      buf[len] = '\0';
      /* The state follows the command name in parentheses.  */
      char *p = strrchr (buf, ')');
      if (p != NULL && p[1] == ' ' && p[2] == 'S')
	return;
      if (n > TST_HO_WAIT_MS)
	FAIL_EXIT1 ("thread %d did not block", (int) tid);
      tst_ho_sleep_ms (1);
    }
}

/* Wait until the thread TID of process PID (0: this process), blocked
   in a lock call, holds the hand-off registration in the hand-off word
   at HANDOFF (user-space path), or, on the kernel path (KERNEL), until
   it sleeps and then for 200 ms, forty times the kernel's threshold.
   Returns the time waited in ms after the thread was first seen
   asleep.  */
static inline long int
tst_ho_wait_registered (const void *handoff, pid_t pid, pid_t tid,
			bool kernel)
{
  tst_ho_wait_sleeping (pid, tid);
  if (kernel)
    {
      tst_ho_sleep_ms (200);
      return 200;
    }
  for (long int n = 0; ; n++)
    {
      /* A reader requester of the TP rwlock has bit 30 set as well.  */
      unsigned int reg = tst_ho_reg (handoff);
      if ((reg & TST_HO_TID_MASK) == (unsigned int) tid
	  && (reg & TST_HO_GRANTED) == 0)
	return n;
      if (n > TST_HO_WAIT_MS)
	FAIL_EXIT1 ("thread %d did not register for hand-off (word %#x)",
		    (int) tid, tst_ho_load (handoff));
      tst_ho_sleep_ms (1);
    }
}

/* The TID of the thread tst_ho_start_requester started, which stores it
   (tst_ho_requester_started) before it blocks.  */
static pid_t tst_ho_requester_tid;

static inline void
tst_ho_requester_started (void)
{
  /* Release MO: pairs with the acquire load in tst_ho_start_requester.  */
  __atomic_store_n (&tst_ho_requester_tid, gettid (), __ATOMIC_RELEASE);
}

/* Start a thread that runs FN, which calls tst_ho_requester_started and
   then blocks in a lock call on the lock whose hand-off word is at
   HANDOFF, and wait until the thread holds the hand-off registration
   (see tst_ho_wait_registered for KERNEL).  Returns its TID.  */
static inline pid_t
tst_ho_start_requester (pthread_t *t, void *(*fn) (void *),
			const void *handoff, bool kernel)
{
  __atomic_store_n (&tst_ho_requester_tid, 0, __ATOMIC_RELAXED);
  *t = xpthread_create (NULL, fn, NULL);
  while (__atomic_load_n (&tst_ho_requester_tid, __ATOMIC_ACQUIRE) == 0)
    tst_ho_sleep_ms (1);
  pid_t tid = tst_ho_requester_tid;
  tst_ho_wait_registered (handoff, 0, tid, kernel);
  return tid;
}

/* End a child process of the test: status 1 if a check failed, else 0.
   The failure flag lives in memory the test shares with its children,
   so a failure of the parent before the fork counts too.  */
static inline void __attribute__ ((noreturn))
tst_ho_child_exit (void)
{
  _exit (support_record_failure_is_failed () ? 1 : 0);
}

/* Fork a child process that runs FN (ARG) and then tst_ho_child_exit.
   Returns its PID.  */
static inline pid_t
tst_ho_fork_child (void (*fn) (pid_t), pid_t arg)
{
  pid_t pid = xfork ();
  if (pid == 0)
    {
      fn (arg);
      tst_ho_child_exit ();
    }
  return pid;
}

/* Read-lock (READER) or write-lock L with a timeout of LIMIT_S seconds.
   Returns the lock call's result.  */
static inline int
tst_ho_rwlock_timed (pthread_rwlock_t *l, bool reader, int limit_s)
{
  struct timespec limit = timespec_add (xclock_now (CLOCK_REALTIME),
					make_timespec (limit_s, 0));
  return (reader ? pthread_rwlock_timedrdlock (l, &limit)
	  : pthread_rwlock_timedwrlock (l, &limit));
}

/* Kill the child process PID with SIGKILL and wait until it has died;
   reap it if REAP, else leave it a zombie (killed, not yet waited for:
   reap it later with tst_ho_kill_child (PID, true)).  */
static inline void
tst_ho_kill_child (pid_t pid, bool reap)
{
  /* Fails with ESRCH only once reaped; a zombie accepts the signal.  */
  TEST_COMPARE (kill (pid, SIGKILL), 0);
  siginfo_t info;
  TEST_COMPARE (waitid (P_PID, pid, &info,
			WEXITED | (reap ? 0 : WNOWAIT)), 0);
  TEST_COMPARE (info.si_code, CLD_KILLED);
  TEST_COMPARE (info.si_status, SIGKILL);
}

/* Reap the child process PID, which must have exited with status 0.  */
static inline void
tst_ho_check_exit (pid_t pid)
{
  int status;
  xwaitpid (pid, &status, 0);
  TEST_VERIFY (WIFEXITED (status));
  TEST_COMPARE (status, 0);
}

#endif /* tst-tp-handoff.h */
