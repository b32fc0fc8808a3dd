/* What the tunables of the test's GLIBC_TUNABLES (dg-tunables) must
   give: WANT_TP_MUTEX (0 or 1) for a mutex with default attributes,
   WANT_RWLOCK_KIND for an rwlock with default attributes; statically
   initialized locks keep their kind.  */
#include "tpf-check.h"

static pthread_mutex_t static_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t static_rwlock = PTHREAD_RWLOCK_INITIALIZER;

int
main (void)
{
  pthread_mutex_t m;
  EXPECT (pthread_mutex_init (&m, NULL), 0);
  EXPECT ((m.__data.__kind & __PTHREAD_MUTEX_THROUGHPUT_KIND) != 0,
	  WANT_TP_MUTEX);
  EXPECT (pthread_mutex_lock (&m), 0);
  EXPECT (pthread_mutex_trylock (&m), EBUSY);
  EXPECT (pthread_mutex_unlock (&m), 0);
  EXPECT ((static_mutex.__data.__kind & __PTHREAD_MUTEX_THROUGHPUT_KIND)
	  != 0, 0);

  pthread_rwlockattr_t a;
  int kind;
  EXPECT (pthread_rwlockattr_init (&a), 0);
  EXPECT (pthread_rwlockattr_getkind_np (&a, &kind), 0);
  EXPECT (kind, WANT_RWLOCK_KIND);
  pthread_rwlock_t l;
  EXPECT (pthread_rwlock_init (&l, NULL), 0);
  EXPECT (l.__data.__flags, WANT_RWLOCK_KIND);
  EXPECT (pthread_rwlock_wrlock (&l), 0);
  EXPECT (pthread_rwlock_tryrdlock (&l), EBUSY);
  EXPECT (pthread_rwlock_unlock (&l), 0);
  EXPECT (static_rwlock.__data.__flags, PTHREAD_RWLOCK_DEFAULT_NP);
  printf ("tunables: mutex TP %d, rwlock kind %d\n", WANT_TP_MUTEX,
	  WANT_RWLOCK_KIND);
  return 0;
}
