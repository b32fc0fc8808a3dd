/* lock-census.so: which kinds of lock a program acquires.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Preloaded (LD_PRELOAD) into the programs of a test run, this library
   interposes the public functions that acquire a mutex or an rwlock,
   calls the real one (dlsym RTLD_NEXT) and, the first time in a process
   that a call acquires a lock of a given class, appends one line
   "PROGRAM CLASS" to the file named by TPF_LOCK_CENSUS (one write with
   O_APPEND: lines of concurrent processes do not mix, and a test that
   ends with _exit or a signal has already written its lines).  The
   classes:

     mutex       any mutex (pthread_mutex_*, mtx_*, and the relock of
                 pthread_cond_wait and its timed forms)
     mutex-tp    a TP mutex (__kind has the TP bit once acquired: a
                 statically initialized mutex adopts it at its first
                 lock)
     mutex-plain a mutex that is neither TP nor priority-inheritance or
                 -protection (which cannot be TP): one the tunable
                 could have made TP
     rwlock      any rwlock
     rwlock-pf   a phase-fair rwlock (__flags 3 once acquired)
     rwlock-tp   a TP rwlock (__flags 4)

   The census costs nothing inside libc: glibc's lock paths are not
   changed for it; a run without the preload does not count.  Calls
   from inside libc (and from statically linked tests) are not seen:
   the census counts what the programs themselves acquire.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

/* The TP bit of a mutex's __kind, its priority-inheritance and
   -protection bits, and the rwlock kinds (the fork's <pthread.h> and
   glibc's ABI fix the values).  */
#define CENSUS_MUTEX_TP 8
#define CENSUS_MUTEX_PI_PP (32 | 64)
#define CENSUS_RWLOCK_PF 3
#define CENSUS_RWLOCK_TP 4

enum census_class
{
  c_mutex, c_mutex_tp, c_mutex_plain, c_rwlock, c_rwlock_pf, c_rwlock_tp,
  c_count
};
static const char *const class_names[c_count] =
  { "mutex", "mutex-tp", "mutex-plain", "rwlock", "rwlock-pf",
    "rwlock-tp" };

/* Set once per class and process; a race writes the line twice at
   worst, which the counting (unique lines) absorbs.  */
static int seen[c_count];

static void
note (enum census_class c)
{
  if (__atomic_load_n (&seen[c], __ATOMIC_RELAXED))
    return;
  __atomic_store_n (&seen[c], 1, __ATOMIC_RELAXED);
  const char *file = getenv ("TPF_LOCK_CENSUS");
  if (file == NULL)
    return;
  char line[4096];
  int n = snprintf (line, sizeof line, "%s %s\n",
		    program_invocation_name, class_names[c]);
  if (n <= 0 || n >= (int) sizeof line)
    return;
  int saved = errno;
  /* open, write and close are cancellation points, and the functions we
     interpose are not: a cancellation request acted upon here would end
     a thread that has just acquired a lock and has not yet pushed the
     cleanup handler that releases it (tst-cond25's waiters then died
     holding their priority-inheritance mutex).  */
  int cancel_state;
  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &cancel_state);
  int fd = open (file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0)
    {
      ssize_t ignored = write (fd, line, n);
      (void) ignored;
      close (fd);
    }
  pthread_setcancelstate (cancel_state, NULL);
  errno = saved;
}

static void
note_mutex (pthread_mutex_t *m)
{
  note (c_mutex);
  int kind = __atomic_load_n (&m->__data.__kind, __ATOMIC_RELAXED);
  if (kind & CENSUS_MUTEX_TP)
    note (c_mutex_tp);
  else if (!(kind & CENSUS_MUTEX_PI_PP))
    note (c_mutex_plain);
}

static void
note_rwlock (pthread_rwlock_t *l)
{
  note (c_rwlock);
  unsigned int kind = __atomic_load_n (&l->__data.__flags, __ATOMIC_RELAXED);
  if (kind == CENSUS_RWLOCK_PF)
    note (c_rwlock_pf);
  else if (kind == CENSUS_RWLOCK_TP)
    note (c_rwlock_tp);
}

/* Every function the census interposes.  */
#define CENSUS_FUNCTIONS(X) \
  X (pthread_mutex_lock) X (pthread_mutex_trylock) \
  X (pthread_mutex_timedlock) X (pthread_mutex_clocklock) \
  X (pthread_cond_wait) X (pthread_cond_timedwait) \
  X (pthread_cond_clockwait) X (mtx_lock) X (mtx_trylock) \
  X (mtx_timedlock) X (cnd_wait) X (cnd_timedwait) \
  X (pthread_rwlock_rdlock) X (pthread_rwlock_wrlock) \
  X (pthread_rwlock_tryrdlock) X (pthread_rwlock_trywrlock) \
  X (pthread_rwlock_timedrdlock) X (pthread_rwlock_timedwrlock) \
  X (pthread_rwlock_clockrdlock) X (pthread_rwlock_clockwrlock)

#define DECLARE_REAL(name) static __typeof (name) *real_##name;
CENSUS_FUNCTIONS (DECLARE_REAL)

/* Look the real functions up when the library is loaded, before the
   program can run a thread.  A lookup at the first call takes the
   dynamic loader's lock, which another thread may hold while it waits
   for the caller: glibc's tst-create1, whose dlopen'ed module creates a
   thread from its constructor, deadlocked so.  */
static void __attribute__ ((constructor))
census_init (void)
{
#define LOOKUP_REAL(name) \
  real_##name = (__typeof (name) *) dlsym (RTLD_NEXT, #name);
  CENSUS_FUNCTIONS (LOOKUP_REAL)
}

/* The real function NAME (looked up now if a call came before the
   constructor ran).  */
#define REAL(name) \
  if (real_##name == NULL) \
    real_##name = (__typeof (name) *) dlsym (RTLD_NEXT, #name); \
  __typeof (name) *real = real_##name; \
  if (real == NULL) \
    abort ()

/* A mutex is acquired when the call returns 0 (EOWNERDEAD: acquired
   too, from a dead owner).  */
#define MUTEX_ACQUIRED(r) ((r) == 0 || (r) == EOWNERDEAD)

int
pthread_mutex_lock (pthread_mutex_t *m)
{
  REAL (pthread_mutex_lock);
  int r = real (m);
  if (MUTEX_ACQUIRED (r))
    note_mutex (m);
  return r;
}

int
pthread_mutex_trylock (pthread_mutex_t *m)
{
  REAL (pthread_mutex_trylock);
  int r = real (m);
  if (MUTEX_ACQUIRED (r))
    note_mutex (m);
  return r;
}

int
pthread_mutex_timedlock (pthread_mutex_t *m, const struct timespec *t)
{
  REAL (pthread_mutex_timedlock);
  int r = real (m, t);
  if (MUTEX_ACQUIRED (r))
    note_mutex (m);
  return r;
}

int
pthread_mutex_clocklock (pthread_mutex_t *m, clockid_t c,
			 const struct timespec *t)
{
  REAL (pthread_mutex_clocklock);
  int r = real (m, c, t);
  if (MUTEX_ACQUIRED (r))
    note_mutex (m);
  return r;
}

/* The condition variable's wait relocks the mutex before it returns
   (cancellation does not return), but for EINVAL: the wait checks its
   arguments (timeout, clock) before it releases the mutex, and returns
   EINVAL without having touched it.  */
#define COND_WAIT_RELOCKED(r) ((r) != EINVAL)

int
pthread_cond_wait (pthread_cond_t *c, pthread_mutex_t *m)
{
  REAL (pthread_cond_wait);
  int r = real (c, m);
  if (COND_WAIT_RELOCKED (r))
    note_mutex (m);
  return r;
}

int
pthread_cond_timedwait (pthread_cond_t *c, pthread_mutex_t *m,
			const struct timespec *t)
{
  REAL (pthread_cond_timedwait);
  int r = real (c, m, t);
  if (COND_WAIT_RELOCKED (r))
    note_mutex (m);
  return r;
}

int
pthread_cond_clockwait (pthread_cond_t *c, pthread_mutex_t *m, clockid_t k,
			const struct timespec *t)
{
  REAL (pthread_cond_clockwait);
  int r = real (c, m, k, t);
  if (COND_WAIT_RELOCKED (r))
    note_mutex (m);
  return r;
}

/* C11: mtx_t holds a pthread_mutex_t.  */
int
mtx_lock (mtx_t *m)
{
  REAL (mtx_lock);
  int r = real (m);
  if (r == thrd_success)
    note_mutex ((pthread_mutex_t *) m);
  return r;
}

int
mtx_trylock (mtx_t *m)
{
  REAL (mtx_trylock);
  int r = real (m);
  if (r == thrd_success)
    note_mutex ((pthread_mutex_t *) m);
  return r;
}

int
mtx_timedlock (mtx_t *restrict m, const struct timespec *restrict t)
{
  REAL (mtx_timedlock);
  int r = real (m, t);
  if (r == thrd_success)
    note_mutex ((pthread_mutex_t *) m);
  return r;
}

int
cnd_wait (cnd_t *c, mtx_t *m)
{
  REAL (cnd_wait);
  int r = real (c, m);
  note_mutex ((pthread_mutex_t *) m);
  return r;
}

int
cnd_timedwait (cnd_t *restrict c, mtx_t *restrict m,
	       const struct timespec *restrict t)
{
  REAL (cnd_timedwait);
  int r = real (c, m, t);
  note_mutex ((pthread_mutex_t *) m);
  return r;
}

#define RWLOCK_FN(name, params, args) \
  int \
  name params \
  { \
    REAL (name); \
    int r = real args; \
    if (r == 0) \
      note_rwlock (l); \
    return r; \
  }

RWLOCK_FN (pthread_rwlock_rdlock, (pthread_rwlock_t *l), (l))
RWLOCK_FN (pthread_rwlock_wrlock, (pthread_rwlock_t *l), (l))
RWLOCK_FN (pthread_rwlock_tryrdlock, (pthread_rwlock_t *l), (l))
RWLOCK_FN (pthread_rwlock_trywrlock, (pthread_rwlock_t *l), (l))
RWLOCK_FN (pthread_rwlock_timedrdlock,
	   (pthread_rwlock_t *l, const struct timespec *t), (l, t))
RWLOCK_FN (pthread_rwlock_timedwrlock,
	   (pthread_rwlock_t *l, const struct timespec *t), (l, t))
RWLOCK_FN (pthread_rwlock_clockrdlock,
	   (pthread_rwlock_t *l, clockid_t c, const struct timespec *t),
	   (l, c, t))
RWLOCK_FN (pthread_rwlock_clockwrlock,
	   (pthread_rwlock_t *l, clockid_t c, const struct timespec *t),
	   (l, c, t))
