/* Phase-fair rwlock: glibc.pthread.rwlock_kind selects the default kind.
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

/* Run with GLIBC_TUNABLES set by the Makefile; variants define
   EXPECTED_KIND before including this file.  */

#include <errno.h>
#include <pthread.h>
#include <support/check.h>

#ifndef EXPECTED_KIND
# define EXPECTED_KIND PTHREAD_RWLOCK_PHASE_FAIR_NP
#endif

static int
do_test (void)
{
  /* NULL attributes and fresh attributes follow the tunable.  */
  pthread_rwlock_t l1, l2, l3;
  TEST_COMPARE (pthread_rwlock_init (&l1, NULL), 0);
  TEST_COMPARE (l1.__data.__flags, EXPECTED_KIND);
  pthread_rwlockattr_t attr;
  int kind;
  TEST_COMPARE (pthread_rwlockattr_init (&attr), 0);
  TEST_COMPARE (pthread_rwlockattr_getkind_np (&attr, &kind), 0);
  TEST_COMPARE (kind, EXPECTED_KIND);
  TEST_COMPARE (pthread_rwlock_init (&l2, &attr), 0);
  TEST_COMPARE (l2.__data.__flags, EXPECTED_KIND);
  /* An explicit kind wins.  */
  TEST_COMPARE (pthread_rwlockattr_setkind_np
		(&attr, PTHREAD_RWLOCK_PREFER_READER_NP), 0);
  TEST_COMPARE (pthread_rwlock_init (&l3, &attr), 0);
  TEST_COMPARE (l3.__data.__flags, PTHREAD_RWLOCK_PREFER_READER_NP);
  /* Static initialization does not see the tunable.  */
  pthread_rwlock_t st = PTHREAD_RWLOCK_INITIALIZER;
  TEST_COMPARE (st.__data.__flags, PTHREAD_RWLOCK_PREFER_READER_NP);

  /* The locks work.  */
  pthread_rwlock_t *all[] = { &l1, &l2, &l3, &st };
  for (int i = 0; i < 4; i++)
    {
      TEST_COMPARE (pthread_rwlock_rdlock (all[i]), 0);
      TEST_COMPARE (pthread_rwlock_trywrlock (all[i]), EBUSY);
      TEST_COMPARE (pthread_rwlock_unlock (all[i]), 0);
      TEST_COMPARE (pthread_rwlock_wrlock (all[i]), 0);
      TEST_COMPARE (pthread_rwlock_unlock (all[i]), 0);
      TEST_COMPARE (pthread_rwlock_destroy (all[i]), 0);
    }
  TEST_COMPARE (pthread_rwlockattr_destroy (&attr), 0);
  return 0;
}

#include <support/test-driver.c>
