/* { dg-do run } */
/* { dg-tunables "glibc.pthread.mutex_protocol=2:glibc.pthread.rwlock_kind=9" } */
/* { dg-output "tunables: mutex TP 0, rwlock kind 0" } */
/* Values outside the tunables' ranges (rwlock_kind 9) or that are no
   protocol the tunable gives (mutex_protocol 2, PTHREAD_PRIO_PROTECT)
   keep the defaults.  */
#define WANT_TP_MUTEX 0
#define WANT_RWLOCK_KIND PTHREAD_RWLOCK_DEFAULT_NP
#include "tunables.h"
