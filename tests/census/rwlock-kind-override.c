/* rwlock-kind-override.so: run glibc's rwlock tests on another kind.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.  */

/* glibc.pthread.rwlock_kind reaches the rwlocks a program initializes
   with default attributes or statically; most of glibc's rwlock tests
   choose their kind through pthread_rwlockattr_setkind_np, which the
   tunable rightly leaves alone.  Preloaded (LD_PRELOAD) into those
   tests, this library replaces the kind every such call asks for by
   the one TPF_RWLOCK_KIND names (3, phase-fair, or 4, TP), so that the
   tests run on the fork's kinds as they would if they had been built
   with them.  Without TPF_RWLOCK_KIND, or with a value that is not a
   kind, the call is passed on unchanged.  For tests only: it changes
   what the program asked for.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static __typeof (pthread_rwlockattr_setkind_np) *real_setkind;

/* Looked up when the library is loaded, before the program can run a
   thread (see lock-census.c).  */
static void __attribute__ ((constructor))
override_init (void)
{
  real_setkind = (__typeof (pthread_rwlockattr_setkind_np) *)
    dlsym (RTLD_NEXT, "pthread_rwlockattr_setkind_np");
}

int
pthread_rwlockattr_setkind_np (pthread_rwlockattr_t *attr, int kind)
{
  if (real_setkind == NULL)
    abort ();
  const char *value = getenv ("TPF_RWLOCK_KIND");
  if (value != NULL && (value[0] == '3' || value[0] == '4')
      && value[1] == '\0')
    kind = value[0] - '0';
  return real_setkind (attr, kind);
}
