/* One check of an rwlock kind, used by rwlock-pf.c and rwlock-tp.c:
   the attribute, the static initializer (STATIC_LOCK), shared readers,
   an exclusive writer, and the error codes.  */
#include "tpf-check.h"

static pthread_rwlock_t *lock;

static void *
reader_while_read_locked (void *arg)
{
  EXPECT (pthread_rwlock_tryrdlock (lock), 0);
  EXPECT (pthread_rwlock_trywrlock (lock), EBUSY);
  EXPECT (pthread_rwlock_unlock (lock), 0);
  return NULL;
}

static void *
other_while_write_locked (void *arg)
{
  EXPECT (pthread_rwlock_tryrdlock (lock), EBUSY);
  EXPECT (pthread_rwlock_trywrlock (lock), EBUSY);
  struct timespec t = tpf_in_ms (50);
  EXPECT (pthread_rwlock_timedrdlock (lock, &t), ETIMEDOUT);
  t = tpf_in_ms (50);
  EXPECT (pthread_rwlock_timedwrlock (lock, &t), ETIMEDOUT);
  return NULL;
}

static void
exercise (pthread_rwlock_t *l)
{
  pthread_t t;
  lock = l;
  EXPECT (pthread_rwlock_rdlock (l), 0);
  EXPECT (pthread_create (&t, NULL, reader_while_read_locked, NULL), 0);
  EXPECT (pthread_join (t, NULL), 0);
  EXPECT (pthread_rwlock_unlock (l), 0);
  EXPECT (pthread_rwlock_wrlock (l), 0);
  EXPECT (pthread_create (&t, NULL, other_while_write_locked, NULL), 0);
  EXPECT (pthread_join (t, NULL), 0);
  EXPECT (pthread_rwlock_unlock (l), 0);
}

static int
check_kind (int kind, pthread_rwlock_t *static_lock, const char *name)
{
  pthread_rwlockattr_t a;
  int got;
  EXPECT (pthread_rwlockattr_init (&a), 0);
  EXPECT (pthread_rwlockattr_setkind_np (&a, kind), 0);
  EXPECT (pthread_rwlockattr_getkind_np (&a, &got), 0);
  EXPECT (got, kind);
  /* Kinds that do not exist are refused and change nothing.  */
  EXPECT (pthread_rwlockattr_setkind_np (&a, 5), EINVAL);
  EXPECT (pthread_rwlockattr_setkind_np (&a, -1), EINVAL);
  EXPECT (pthread_rwlockattr_getkind_np (&a, &got), 0);
  EXPECT (got, kind);

  pthread_rwlock_t l;
  EXPECT (pthread_rwlock_init (&l, &a), 0);
  EXPECT (l.__data.__flags, kind);
  exercise (&l);
  EXPECT (pthread_rwlock_destroy (&l), 0);
  EXPECT (pthread_rwlockattr_destroy (&a), 0);

  EXPECT (static_lock->__data.__flags, kind);
  exercise (static_lock);
  printf ("%s: ok\n", name);
  return 0;
}
