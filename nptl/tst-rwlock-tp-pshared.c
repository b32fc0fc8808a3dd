/* TP rwlock: PTHREAD_PROCESS_SHARED between two processes.
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

#include "tst-rwlock-tp-common.h"
#include "tst-rwlock-pshared-run.h"

enum { ITERS = 10000 };

/* Each process runs a writer and a reader thread on the shared lock,
   which needs shared futexes.  */
static void
work (struct tst_pshared *s, int self)
{
  struct tst_tprw_load load = { &s->lock, &s->counter, &s->violations,
				ITERS };
  pthread_t w = xpthread_create (NULL, tst_tprw_writer, &load);
  pthread_t r = xpthread_create (NULL, tst_tprw_reader, &load);
  xpthread_join (w);
  xpthread_join (r);
}

/* The child announces itself (FUTEX_WAITERS) before it sleeps.  */
static bool
child_blocked (pthread_rwlock_t *l)
{
  return (tst_tprw_word (l) & TST_TPRW_WAITERS) != 0;
}

static int
do_test (void)
{
  struct tst_pshared *s = tst_pshared_map ();
  tst_tprw_init (&s->lock, true);
  tst_pshared_run (s, child_blocked, work);
  TEST_COMPARE (s->counter, 2 * 2 * ITERS);
  tst_tprw_check_idle (&s->lock);
  xmunmap (s, sizeof *s);
  return 0;
}

#include <support/test-driver.c>
