/* { dg-do run } */
/* { dg-tunables "glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3" } */
/* { dg-output "tunables: mutex TP 1, rwlock kind 3" } */
/* Every default mutex TP, every default rwlock phase-fair.  */
#define WANT_TP_MUTEX 1
#define WANT_RWLOCK_KIND PTHREAD_RWLOCK_PHASE_FAIR_NP
#include "tunables.h"
