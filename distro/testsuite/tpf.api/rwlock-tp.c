/* { dg-do run } */
/* { dg-output "rwlock-tp: ok" } */
/* PTHREAD_RWLOCK_TP_NP and its static initializer.  */
#include "rwlock-common.h"

static pthread_rwlock_t st = PTHREAD_RWLOCK_TP_INITIALIZER_NP;

int
main (void)
{
  EXPECT (PTHREAD_RWLOCK_TP_NP, 4);
  return check_kind (PTHREAD_RWLOCK_TP_NP, &st, "rwlock-tp");
}
