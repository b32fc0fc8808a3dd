/* Throughput-optimized (TP) mutex: the glibc.pthread.mutex_* tunables.
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

#if HAVE_TUNABLES
# define TUNABLE_NAMESPACE pthread
# include <elf/dl-tunables.h>
#endif

/* Apart from the configuration it fills (pthread_mutex_tp_conf.c), so
   that the TP mutex builds and works with its compiled-in defaults
   before and without the tunables.  */
void
__pthread_mutex_tp_tunables_init (void)
{
#if HAVE_TUNABLES
  /* The tunables framework has already rejected values outside the
     ranges in dl-tunables.list (the default is kept then).  Of the
     protocol values, only "none" and "throughput" are accepted.  */
  int32_t protocol = TUNABLE_GET (mutex_protocol, int32_t, NULL);
  if (protocol == PTHREAD_PRIO_NONE || protocol == PTHREAD_THROUGHPUT_NP)
    __pthread_mutex_tp_config.default_protocol = protocol;
  __pthread_mutex_tp_config.spin_count
    = TUNABLE_GET (mutex_tp_spin_count, int32_t, NULL);
  __pthread_mutex_tp_config.handoff_us
    = TUNABLE_GET (mutex_tp_handoff_us, int32_t, NULL);
  __pthread_mutex_tp_config.force_userspace
    = TUNABLE_GET (mutex_tp_userspace, int32_t, NULL);
#endif
}
