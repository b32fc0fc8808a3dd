/* { dg-do run } */
/* { dg-output "mutex-tp-attr: ok" } */
/* The TP protocol through the mutex attribute: set, read back, refused
   values, and a mutex made from it locks, refuses a second owner and
   reports its errors.  */
#include "tpf-check.h"

static pthread_mutex_t *shared;

static void *
other_thread (void *arg)
{
  /* Not the owner: an error-checking TP mutex refuses the unlock and a
     try-lock finds it busy.  */
  EXPECT (pthread_mutex_unlock (shared), EPERM);
  EXPECT (pthread_mutex_trylock (shared), EBUSY);
  return NULL;
}

int
main (void)
{
  pthread_mutexattr_t a;
  int protocol;
  EXPECT (pthread_mutexattr_init (&a), 0);
  EXPECT (PTHREAD_THROUGHPUT_NP, 3);
  EXPECT (pthread_mutexattr_setprotocol (&a, PTHREAD_THROUGHPUT_NP), 0);
  EXPECT (pthread_mutexattr_getprotocol (&a, &protocol), 0);
  EXPECT (protocol, PTHREAD_THROUGHPUT_NP);
  /* Values that are no protocol leave the attribute as it was.  */
  EXPECT (pthread_mutexattr_setprotocol (&a, 4), EINVAL);
  EXPECT (pthread_mutexattr_setprotocol (&a, -1), EINVAL);
  EXPECT (pthread_mutexattr_getprotocol (&a, &protocol), 0);
  EXPECT (protocol, PTHREAD_THROUGHPUT_NP);

  EXPECT (pthread_mutexattr_settype (&a, PTHREAD_MUTEX_ERRORCHECK), 0);
  pthread_mutex_t m;
  EXPECT (pthread_mutex_init (&m, &a), 0);
  EXPECT ((m.__data.__kind & __PTHREAD_MUTEX_THROUGHPUT_KIND) != 0, 1);
  EXPECT (pthread_mutex_lock (&m), 0);
  EXPECT (pthread_mutex_lock (&m), EDEADLK);
  EXPECT (pthread_mutex_trylock (&m), EBUSY);
  shared = &m;
  pthread_t t;
  EXPECT (pthread_create (&t, NULL, other_thread, NULL), 0);
  EXPECT (pthread_join (t, NULL), 0);
  EXPECT (pthread_mutex_destroy (&m), EBUSY);
  EXPECT (pthread_mutex_unlock (&m), 0);
  EXPECT (pthread_mutex_unlock (&m), EPERM);
  EXPECT (pthread_mutex_destroy (&m), 0);
  EXPECT (pthread_mutexattr_destroy (&a), 0);
  puts ("mutex-tp-attr: ok");
  return 0;
}
