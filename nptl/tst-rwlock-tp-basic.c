/* TP rwlock: kind, initializer, single-thread semantics, error codes.
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

#include <errno.h>
#include <string.h>
#include <time.h>
#include "tst-rwlock-tp-common.h"

static int
do_test (void)
{
  pthread_rwlockattr_t attr;
  int kind;
  TEST_COMPARE (pthread_rwlockattr_init (&attr), 0);
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&attr, PTHREAD_RWLOCK_TP_NP),
		0);
  TEST_COMPARE (pthread_rwlockattr_getkind_np (&attr, &kind), 0);
  TEST_COMPARE (kind, PTHREAD_RWLOCK_TP_NP);
  /* An invalid kind is rejected and changes nothing.  */
  TEST_COMPARE (pthread_rwlockattr_setkind_np (&attr, 5), EINVAL);
  TEST_COMPARE (pthread_rwlockattr_getkind_np (&attr, &kind), 0);
  TEST_COMPARE (kind, PTHREAD_RWLOCK_TP_NP);

  pthread_rwlock_t lock;
  pthread_rwlock_t st = PTHREAD_RWLOCK_TP_INITIALIZER_NP;
  TEST_COMPARE (st.__data.__flags, PTHREAD_RWLOCK_TP_NP);
  TEST_COMPARE (pthread_rwlock_init (&lock, &attr), 0);
  TEST_VERIFY (memcmp (&st, &lock, sizeof st) == 0);
  tst_tprw_check_idle (&lock);

  /* Readers share and count in the word; a writer is excluded.  */
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), 0);
#ifdef TST_TPRW_SHARED
  TEST_COMPARE (tst_tprw_word (&lock), TST_TPRW_SHARED | 2);
#endif
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  /* Unlocking what nobody holds is reported and changes nothing.  */
  TEST_COMPARE (pthread_rwlock_unlock (&lock), EPERM);
  tst_tprw_check_idle (&lock);

  /* A writer holds the word with its TID; it cannot lock again.  */
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), 0);
  TEST_COMPARE (tst_tprw_word (&lock), (unsigned int) gettid ());
  TEST_COMPARE (pthread_rwlock_tryrdlock (&lock), EBUSY);
  TEST_COMPARE (pthread_rwlock_trywrlock (&lock), EBUSY);
  TEST_COMPARE (pthread_rwlock_wrlock (&lock), EDEADLK);
  TEST_COMPARE (pthread_rwlock_rdlock (&lock), EDEADLK);
  struct timespec ts;
  xclock_gettime (CLOCK_MONOTONIC, &ts);
  TEST_COMPARE (pthread_rwlock_clockwrlock (&lock, CLOCK_MONOTONIC, &ts),
		EDEADLK);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  tst_tprw_check_idle (&lock);

  /* Invalid timeouts: EINVAL, nothing taken.  */
  struct timespec bad = { 0, 1000000000 };
  TEST_COMPARE (pthread_rwlock_timedrdlock (&lock, &bad), EINVAL);
  TEST_COMPARE (pthread_rwlock_timedwrlock (&lock, &bad), EINVAL);
  TEST_COMPARE (pthread_rwlock_clockrdlock (&lock, CLOCK_PROCESS_CPUTIME_ID,
					    &ts), EINVAL);
  TEST_COMPARE (pthread_rwlock_clockwrlock (&lock, CLOCK_PROCESS_CPUTIME_ID,
					    &ts), EINVAL);
  tst_tprw_check_idle (&lock);

  /* A free lock is taken even with an expired timeout, on both
     clocks.  */
  struct timespec past = { 0, 0 };
  TEST_COMPARE (pthread_rwlock_clockrdlock (&lock, CLOCK_REALTIME, &past), 0);
  TEST_COMPARE (pthread_rwlock_clockrdlock (&lock, CLOCK_MONOTONIC, &past),
		0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  TEST_COMPARE (pthread_rwlock_timedwrlock (&lock, &past), 0);
  TEST_COMPARE (pthread_rwlock_unlock (&lock), 0);
  tst_tprw_check_idle (&lock);

  TEST_COMPARE (pthread_rwlock_destroy (&lock), 0);
  TEST_COMPARE (pthread_rwlockattr_destroy (&attr), 0);
  return 0;
}

#include <support/test-driver.c>
