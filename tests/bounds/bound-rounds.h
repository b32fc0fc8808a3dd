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

/* The spin loop of bench-lock-contention's sections, the clock of a
   run, and the median of a configuration's rounds.  */

#ifndef BOUND_ROUNDS_H
#define BOUND_ROUNDS_H 1

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ROUNDS 64

/* bench-lock-contention's spin loop: N iterations the compiler cannot
   remove.  */
static void
spin_work (unsigned int n)
{
  for (unsigned int i = 0; i < n; i++)
    __asm__ __volatile__ ("" : : "r" (i) : "memory");
}

/* CLOCK_MONOTONIC, s.  */
static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median of the N (at most MAX_ROUNDS) values V, left unchanged.  */
static double
median (const double *v, unsigned int n)
{
  double s[MAX_ROUNDS];
  memcpy (s, v, n * sizeof *v);
  qsort (s, n, sizeof *s, compare_double);
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

#endif /* bound-rounds.h */
