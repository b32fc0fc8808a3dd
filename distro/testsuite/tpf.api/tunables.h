/* What the tunables of the test's GLIBC_TUNABLES (dg-tunables) must
   give: WANT_TP_MUTEX (0 or 1) for a mutex with default attributes,
   WANT_RWLOCK_KIND for an rwlock with default attributes.  Statically
   initialized locks keep their kind until their first acquisition and
   then take the tunable's kind if it is TP (mutexes) or phase-fair or
   TP (rwlocks); an rwlock whose attribute asks for kind 0 explicitly
   keeps kind 0.  */
#include "tpf-check.h"

/* The kinds are enumerators, not macros: no #if on them.  */
#define WANT_STATIC_RWLOCK_KIND					\
  (WANT_RWLOCK_KIND >= PTHREAD_RWLOCK_PHASE_FAIR_NP			\
   ? WANT_RWLOCK_KIND : PTHREAD_RWLOCK_DEFAULT_NP)

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
  EXPECT (pthread_mutex_lock (&static_mutex), 0);
  EXPECT (pthread_mutex_trylock (&static_mutex), EBUSY);
  EXPECT (pthread_mutex_unlock (&static_mutex), 0);
  EXPECT ((static_mutex.__data.__kind & __PTHREAD_MUTEX_THROUGHPUT_KIND)
	  != 0, WANT_TP_MUTEX);

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
  EXPECT (pthread_rwlock_rdlock (&static_rwlock), 0);
  EXPECT (pthread_rwlock_unlock (&static_rwlock), 0);
  EXPECT (static_rwlock.__data.__flags, WANT_STATIC_RWLOCK_KIND);
  EXPECT (pthread_rwlock_wrlock (&static_rwlock), 0);
  EXPECT (pthread_rwlock_tryrdlock (&static_rwlock), EBUSY);
  EXPECT (pthread_rwlock_unlock (&static_rwlock), 0);

  pthread_rwlock_t k;
  EXPECT (pthread_rwlockattr_setkind_np (&a, PTHREAD_RWLOCK_PREFER_READER_NP),
	  0);
  EXPECT (pthread_rwlock_init (&k, &a), 0);
  EXPECT (pthread_rwlock_rdlock (&k), 0);
  EXPECT (pthread_rwlock_unlock (&k), 0);
  EXPECT (k.__data.__flags, PTHREAD_RWLOCK_PREFER_READER_NP);
  printf ("tunables: mutex TP %d, rwlock kind %d\n", WANT_TP_MUTEX,
	  WANT_RWLOCK_KIND);
  return 0;
}
