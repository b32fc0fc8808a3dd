/* Uncontended lock/unlock pairs, for instruction counts under callgrind.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* Usage: lock-fastpath KIND PAIRS
   Runs PAIRS uncontended acquire/release pairs of KIND inside the
   function run_pairs (for callgrind --toggle-collect=run_pairs).  KIND:
     mutex-static    PTHREAD_MUTEX_INITIALIZER, lock/unlock
     mutex-init      pthread_mutex_init (NULL), lock/unlock
     mutex-trylock   PTHREAD_MUTEX_INITIALIZER, trylock/unlock
     recursive       PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP, lock/unlock
     rwlock-rd       PTHREAD_RWLOCK_INITIALIZER, rdlock/unlock
     rwlock-wr       PTHREAD_RWLOCK_INITIALIZER, wrlock/unlock
     rwlock-tryrd    PTHREAD_RWLOCK_INITIALIZER, tryrdlock/unlock
     rwlock-trywr    PTHREAD_RWLOCK_INITIALIZER, trywrlock/unlock
   Every result is checked: a pair that fails ends the program with
   status 1.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t recursive = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;

enum kind
{
  k_mutex, k_mutex_trylock, k_rwlock_rd, k_rwlock_wr, k_rwlock_tryrd,
  k_rwlock_trywr
};

static void __attribute__ ((noinline))
run_pairs (enum kind kind, pthread_mutex_t *m, long int pairs)
{
  int bad = 0;
  for (long int i = 0; i < pairs; i++)
    switch (kind)
      {
      case k_mutex:
	bad |= pthread_mutex_lock (m) | pthread_mutex_unlock (m);
	break;
      case k_mutex_trylock:
	bad |= pthread_mutex_trylock (m) | pthread_mutex_unlock (m);
	break;
      case k_rwlock_rd:
	bad |= pthread_rwlock_rdlock (&rwlock) | pthread_rwlock_unlock (&rwlock);
	break;
      case k_rwlock_wr:
	bad |= pthread_rwlock_wrlock (&rwlock) | pthread_rwlock_unlock (&rwlock);
	break;
      case k_rwlock_tryrd:
	bad |= (pthread_rwlock_tryrdlock (&rwlock)
		| pthread_rwlock_unlock (&rwlock));
	break;
      case k_rwlock_trywr:
	bad |= (pthread_rwlock_trywrlock (&rwlock)
		| pthread_rwlock_unlock (&rwlock));
	break;
      }
  if (bad)
    {
      fputs ("lock-fastpath: a lock operation failed\n", stderr);
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fputs ("usage: lock-fastpath KIND PAIRS\n", stderr);
      return 2;
    }
  const char *name = argv[1];
  long int pairs = atol (argv[2]);
  pthread_mutex_t dynamic;
  pthread_mutex_init (&dynamic, NULL);
  pthread_mutex_t *m = &mutex;
  enum kind kind = k_mutex;
  if (strcmp (name, "mutex-static") == 0)
    ;
  else if (strcmp (name, "mutex-init") == 0)
    m = &dynamic;
  else if (strcmp (name, "mutex-trylock") == 0)
    kind = k_mutex_trylock;
  else if (strcmp (name, "recursive") == 0)
    m = &recursive;
  else if (strcmp (name, "rwlock-rd") == 0)
    kind = k_rwlock_rd;
  else if (strcmp (name, "rwlock-wr") == 0)
    kind = k_rwlock_wr;
  else if (strcmp (name, "rwlock-tryrd") == 0)
    kind = k_rwlock_tryrd;
  else if (strcmp (name, "rwlock-trywr") == 0)
    kind = k_rwlock_trywr;
  else
    {
      fprintf (stderr, "lock-fastpath: unknown kind %s\n", name);
      return 2;
    }
  run_pairs (kind, m, pairs);
  return 0;
}
