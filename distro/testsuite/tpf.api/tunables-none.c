/* { dg-do run } */
/* { dg-output "tunables: mutex TP 0, rwlock kind 0" } */
/* Without GLIBC_TUNABLES, default locks are glibc's defaults.  */
#define WANT_TP_MUTEX 0
#define WANT_RWLOCK_KIND PTHREAD_RWLOCK_DEFAULT_NP
#include "tunables.h"
