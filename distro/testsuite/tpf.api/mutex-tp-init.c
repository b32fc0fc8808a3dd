/* { dg-do run } */
/* { dg-output "mutex-tp-init: 4 x 50000 = 200000" } */
/* PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP: a statically initialized TP
   mutex keeps four threads' updates of a counter apart (no update
   lost), and times out with ETIMEDOUT while another thread holds it.  */
#include "tpf-check.h"

static pthread_mutex_t m = PTHREAD_THROUGHPUT_MUTEX_INITIALIZER_NP;
static long counter;
enum { THREADS = 4, ROUNDS = 50000 };

static void *
worker (void *arg)
{
  for (int i = 0; i < ROUNDS; i++)
    {
      EXPECT (pthread_mutex_lock (&m), 0);
      long v = counter;
      __asm__ volatile ("" ::: "memory");
      counter = v + 1;
      EXPECT (pthread_mutex_unlock (&m), 0);
    }
  return NULL;
}

static void *
timed_waiter (void *arg)
{
  struct timespec t = tpf_in_ms (50);
  EXPECT (pthread_mutex_timedlock (&m, &t), ETIMEDOUT);
  return NULL;
}

int
main (void)
{
  EXPECT ((m.__data.__kind & __PTHREAD_MUTEX_THROUGHPUT_KIND) != 0, 1);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    EXPECT (pthread_create (&t[i], NULL, worker, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    EXPECT (pthread_join (t[i], NULL), 0);
  printf ("mutex-tp-init: %d x %d = %ld\n", THREADS, ROUNDS, counter);
  EXPECT (counter == (long) THREADS * ROUNDS, 1);

  EXPECT (pthread_mutex_lock (&m), 0);
  EXPECT (pthread_create (&t[0], NULL, timed_waiter, NULL), 0);
  EXPECT (pthread_join (t[0], NULL), 0);
  EXPECT (pthread_mutex_unlock (&m), 0);
  return 0;
}
