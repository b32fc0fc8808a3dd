/* { dg-do run } */
/* { dg-tunables "glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=4:glibc.pthread.mutex_tp_spin_count=10:glibc.pthread.mutex_tp_handoff_us=100:glibc.pthread.mutex_tp_userspace=1" } */
/* { dg-output "tunables: mutex TP 1, rwlock kind 4" } */
/* Every default rwlock TP; the TP mutex's other tunables accepted.  */
#define WANT_TP_MUTEX 1
#define WANT_RWLOCK_KIND PTHREAD_RWLOCK_TP_NP
#include "tunables.h"
