/* What the bound programs share with the lock benchmark and each other.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* The spin loop of bench-lock-contention's sections, an rwlock of a
   given kind, a run's length, and the median and spread of a
   configuration's rounds; the clock and the pinning are the machine
   probes' (machine-probe.h).  Errors exit 1 with a message that names
   the program.  */

#ifndef BOUND_ROUNDS_H
#define BOUND_ROUNDS_H 1

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../stalls/machine-probe.h"

#define MAX_ROUNDS 64

static inline void
fail (const char *what, int err)
{
  fprintf (stderr, "%s: %s: %s\n", program_invocation_short_name, what,
	   strerror (err));
  exit (1);
}

/* Run the calling thread on processor CPU only.  */
static inline void
pin_to (int cpu)
{
  pin (program_invocation_short_name, cpu);
}

/* bench-lock-contention's spin loop: N iterations the compiler cannot
   remove.  */
static inline void
spin_work (unsigned int n)
{
  for (unsigned int i = 0; i < n; i++)
    __asm__ __volatile__ ("" : : "r" (i) : "memory");
}

/* Initialize RWLOCK as one of kind KIND (pthread_rwlockattr_setkind_np);
   false if the libc refuses the kind.  */
static inline bool
rwlock_of_kind (pthread_rwlock_t *rwlock, int kind)
{
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init (&attr);
  int err = pthread_rwlockattr_setkind_np (&attr, kind);
  if (err == 0)
    err = pthread_rwlock_init (rwlock, &attr);
  pthread_rwlockattr_destroy (&attr);
  if (err == EINVAL)
    return false;
  if (err != 0)
    fail ("pthread_rwlock_init", err);
  return true;
}

/* Sleep SECONDS, through interruptions.  */
static inline void
sleep_for (double seconds)
{
  struct timespec ts = { (time_t) seconds,
			 (long int) ((seconds - (time_t) seconds) * 1e9) };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

static inline int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median of the N (at most MAX_ROUNDS) rounds V, left unchanged.  */
static inline double
median_of_rounds (const double *v, unsigned int n)
{
  double s[MAX_ROUNDS];
  memcpy (s, v, n * sizeof *v);
  qsort (s, n, sizeof *s, compare_double);
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The least and the greatest of the N rounds V.  */
static inline void
spread_of_rounds (const double *v, unsigned int n, double *lo, double *hi)
{
  *lo = *hi = v[0];
  for (unsigned int r = 1; r < n; r++)
    {
      *lo = v[r] < *lo ? v[r] : *lo;
      *hi = v[r] > *hi ? v[r] : *hi;
    }
}

#endif /* bound-rounds.h */
