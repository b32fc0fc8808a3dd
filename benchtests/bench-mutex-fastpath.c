/* Cost of an uncontended mutex lock/unlock pair, per protocol.
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

/* Two uses:

   bench-mutex-fastpath
     times PAIRS uncontended pthread_mutex_lock/pthread_mutex_unlock pairs
     of every mutex kind below in one thread and prints the benchout
     function "mutex_fastpath" (ns per pair), as bench-func expects.

   bench-mutex-fastpath --kind KIND --pairs N
     only runs N pairs of KIND inside run_pairs, for an instruction count
     under valgrind --tool=callgrind --toggle-collect=run_pairs: the count
     divided by N is the cost of one pair, lock and unlock together,
     independent of the noise of a shared machine
     (benchtests/scripts/mutex_fastpath_callgrind.py drives this).  */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json-lib.h"

struct mutex_kind
{
  const char *name;
  int type;
  int protocol;
};

static const struct mutex_kind kinds[] =
  {
    { "normal", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE },
    { "adaptive", PTHREAD_MUTEX_ADAPTIVE_NP, PTHREAD_PRIO_NONE },
    { "errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE },
    { "pi", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_INHERIT },
#ifdef PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP
    { "tp", PTHREAD_MUTEX_NORMAL, PTHREAD_THROUGHPUT_NP },
    { "tp-adaptive", PTHREAD_MUTEX_ADAPTIVE_NP, PTHREAD_THROUGHPUT_NP },
#endif
  };
#define NKINDS (sizeof (kinds) / sizeof (kinds[0]))

/* Timed runs: this many pairs per kind.  */
#define TIMED_PAIRS 2000000L

static void
die (const char *what, int err)
{
  fprintf (stderr, "bench-mutex-fastpath: %s: %s\n", what, strerror (err));
  exit (1);
}

static void
init_mutex (pthread_mutex_t *m, const struct mutex_kind *k)
{
  pthread_mutexattr_t attr;
  int err = pthread_mutexattr_init (&attr);
  if (err == 0)
    err = pthread_mutexattr_settype (&attr, k->type);
  if (err == 0)
    err = pthread_mutexattr_setprotocol (&attr, k->protocol);
  if (err == 0)
    err = pthread_mutex_init (m, &attr);
  if (err != 0)
    die (k->name, err);
  pthread_mutexattr_destroy (&attr);
}

/* The measured loop; callgrind collects inside this function only.  The
   result of every call is checked, so a kind that fails cannot look
   cheap.  */
static void __attribute__ ((noinline))
run_pairs (pthread_mutex_t *m, long int pairs)
{
  for (long int i = 0; i < pairs; i++)
    {
      int err = pthread_mutex_lock (m);
      if (err == 0)
	err = pthread_mutex_unlock (m);
      if (err != 0)
	die ("lock/unlock", err);
    }
}

static double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const struct mutex_kind *
find_kind (const char *name)
{
  for (size_t i = 0; i < NKINDS; i++)
    if (strcmp (kinds[i].name, name) == 0)
      return &kinds[i];
  return NULL;
}

static int
usage (void)
{
  fputs ("usage: bench-mutex-fastpath [--document]\n"
	 "       bench-mutex-fastpath --kind KIND --pairs N\n"
	 "       bench-mutex-fastpath --list\n", stderr);
  return 2;
}

int
main (int argc, char **argv)
{
  const struct mutex_kind *only = NULL;
  long int pairs = 0;
  int document = 0;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--list") == 0)
      {
	for (size_t k = 0; k < NKINDS; k++)
	  puts (kinds[k].name);
	return 0;
      }
    else if (strcmp (argv[i], "--document") == 0)
      document = 1;
    else if (strcmp (argv[i], "--kind") == 0 && i + 1 < argc)
      {
	only = find_kind (argv[++i]);
	if (only == NULL)
	  {
	    fprintf (stderr, "bench-mutex-fastpath: unknown kind %s\n",
		     argv[i]);
	    return 2;
	  }
      }
    else if (strcmp (argv[i], "--pairs") == 0 && i + 1 < argc)
      {
	char *end;
	pairs = strtol (argv[++i], &end, 10);
	if (*end != '\0' || pairs <= 0)
	  return usage ();
      }
    else
      return usage ();

  pthread_mutex_t m;
  if (only != NULL || pairs != 0)
    {
      if (only == NULL || pairs == 0)
	return usage ();
      init_mutex (&m, only);
      run_pairs (&m, pairs);
      pthread_mutex_destroy (&m);
      return 0;
    }

  json_ctx_t json;
  json_init (&json, document ? 0 : 2, stdout);
  if (document)
    {
      json_document_begin (&json);
      json_attr_string (&json, "timing_type", "clock_gettime");
      json_attr_object_begin (&json, "functions");
    }
  json_attr_object_begin (&json, "mutex_fastpath");
  for (size_t k = 0; k < NKINDS; k++)
    {
      init_mutex (&m, &kinds[k]);
      /* Warm up the caches and the branch predictors.  */
      run_pairs (&m, TIMED_PAIRS / 10);
      double start = now_ns ();
      run_pairs (&m, TIMED_PAIRS);
      double elapsed = now_ns () - start;
      pthread_mutex_destroy (&m);

      json_attr_object_begin (&json, kinds[k].name);
      json_attr_double (&json, "duration", elapsed);
      json_attr_double (&json, "iterations", TIMED_PAIRS);
      json_attr_double (&json, "mean", elapsed / TIMED_PAIRS);
      json_attr_object_end (&json);
    }
  json_attr_object_end (&json);
  if (document)
    {
      json_attr_object_end (&json);
      json_document_end (&json);
    }
  putchar ('\n');
  return 0;
}
