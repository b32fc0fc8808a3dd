/* { dg-do run } */
/* { dg-output "rwlock-pf: ok" } */
/* PTHREAD_RWLOCK_PHASE_FAIR_NP and its static initializer.  */
#include "rwlock-common.h"

static pthread_rwlock_t st = PTHREAD_RWLOCK_PHASE_FAIR_INITIALIZER_NP;

int
main (void)
{
  EXPECT (PTHREAD_RWLOCK_PHASE_FAIR_NP, 3);
  return check_kind (PTHREAD_RWLOCK_PHASE_FAIR_NP, &st, "rwlock-pf");
}
