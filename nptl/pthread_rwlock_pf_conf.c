/* Phase-fair reader/writer lock: the default rwlock kind tunable.
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

#include <stdint.h>
#include <pthreadP.h>
#include <pthread_rwlock_pf.h>

#if HAVE_TUNABLES
# define TUNABLE_NAMESPACE pthread
# include <elf/dl-tunables.h>
#endif

/* Kept in a file of its own so that static programs, which call
   __pthread_rwlock_pf_tunables_init from early initialization, do not
   link the lock itself unless they use it.  */
int __pthread_rwlock_default_kind = PTHREAD_RWLOCK_DEFAULT_NP;

void
__pthread_rwlock_pf_tunables_init (void)
{
#if HAVE_TUNABLES
  /* glibc.pthread.rwlock_kind: the tunables framework rejects values
     outside the range that dl-tunables.list gives it and keeps the
     default then.  Every value of that range is a kind that
     pthread_rwlockattr_setkind_np accepts, so whatever the framework
     passes on is taken as is (and this file does not change when a
     kind is added: only the range does).  */
  int32_t kind = TUNABLE_GET (rwlock_kind, int32_t, NULL);
  if (kind >= PTHREAD_RWLOCK_PREFER_READER_NP)
    __pthread_rwlock_default_kind = kind;
#endif
}
