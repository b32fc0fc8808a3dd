/* { dg-do run } */
/* { dg-tunables "glibc.pthread.rwlock_kind=1" } */
/* { dg-output "tunables: mutex TP 0, rwlock kind 1" } */
/* A stock kind (prefer writers) for default rwlocks: it does not reach
   statically initialized ones.  */
#define WANT_TP_MUTEX 0
#define WANT_RWLOCK_KIND PTHREAD_RWLOCK_PREFER_WRITER_NP
#include "tunables.h"
