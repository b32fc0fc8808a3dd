/* Throughput-optimized (TP) mutex: configuration and kernel probe.
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
#include <atomic.h>
#include <tp-futex.h>

/* The defaults here must match sysdeps/nptl/dl-tunables.list, whose
   values pthread_mutex_tp_tunables.c reads over them.  */
struct pthread_mutex_tp_config __pthread_mutex_tp_config =
{
  .default_protocol = PTHREAD_PRIO_NONE,
  .spin_count = 1000,
  .handoff_us = 5000,
  .force_userspace = 0,
};

int __pthread_mutex_tp_kernel;

__thread unsigned long int __pthread_mutex_tp_counters[TP_STAT_COUNT]
  attribute_tls_model_ie;
__thread int __pthread_tp_spin_budget attribute_tls_model_ie;
__thread int __pthread_tp_spin_grace attribute_tls_model_ie;

bool
__pthread_mutex_tp_probe (void)
{
  int k = -1;
  if (!__pthread_mutex_tp_config.force_userspace && tp_futex_kernel_probe ())
    k = 1;
  /* Relaxed MO: see tp_use_kernel.  */
  atomic_store_relaxed (&__pthread_mutex_tp_kernel, k);
  return k > 0;
}

int
__pthread_mutex_tp_stats (unsigned long int *out, int n)
{
  if (n > TP_STAT_COUNT)
    n = TP_STAT_COUNT;
  for (int i = 0; i < n; i++)
    out[i] = (i == TP_STAT_KERNEL_MODE
	      ? tp_use_kernel ()
	      : __pthread_mutex_tp_counters[i]);
  return n;
}
