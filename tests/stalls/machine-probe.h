/* Helpers of the programs that measure the machine under the lock
   benchmark (processor-stalls.c, processor-pingpong.c; the clock and
   the pinning serve tests/bounds too).
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

#ifndef MACHINE_PROBE_H
#define MACHINE_PROBE_H 1

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline long long
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int
compare (const void *a, const void *b)
{
  long long x = *(const long long *) a;
  long long y = *(const long long *) b;
  return x < y ? -1 : x > y;
}

/* The median of the N values V, which it sorts.  */
static inline long long
median (long long *v, int n)
{
  qsort (v, n, sizeof v[0], compare);
  return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

/* SECONDS, the one argument, or 0 if it is not a whole number from 1 to
   MAX.  */
static inline int
parse_seconds (int argc, char **argv, int max)
{
  if (argc != 2)
    return 0;
  char *end;
  errno = 0;
  long int v = strtol (argv[1], &end, 10);
  if (errno != 0 || end == argv[1] || *end != '\0' || v < 1 || v > max)
    return 0;
  return v;
}

/* The start of program NAME: its SECONDS argument (1 to MAX), and the
   processors it may run on in *ONLINE.  Exits 1 with a message on a bad
   argument or a failed system call.  */
static inline int
probe_start (int argc, char **argv, const char *name, int max,
	     cpu_set_t *online)
{
  int seconds = parse_seconds (argc, argv, max);
  if (seconds == 0)
    {
      fprintf (stderr, "usage: %s SECONDS (1 to %d)\n", name, max);
      exit (1);
    }
  if (sched_getaffinity (0, sizeof *online, online) != 0)
    {
      fprintf (stderr, "%s: sched_getaffinity: %m\n", name);
      exit (1);
    }
  return seconds;
}

/* Run the calling thread of program NAME on processor CPU only; exit 1
   with a message if that fails.  */
static inline void
pin (const char *name, int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  int err = pthread_setaffinity_np (pthread_self (), sizeof set, &set);
  if (err != 0)
    {
      fprintf (stderr, "%s: processor %d: %s\n", name, cpu, strerror (err));
      exit (1);
    }
}

/* Exit 1 with a message of program NAME unless processors 0 and 1 are
   among ONLINE (probe_start's).  */
static inline void
need_processors_0_and_1 (const char *name, const cpu_set_t *online)
{
  if (!CPU_ISSET (0, online) || !CPU_ISSET (1, online))
    {
      fprintf (stderr, "%s: needs processors 0 and 1\n", name);
      exit (1);
    }
}

#endif /* machine-probe.h */
