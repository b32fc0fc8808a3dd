/* tpf-lockprobe.so: an LD_PRELOAD shim that tells which kinds of locks an
   unmodified program got from the library.  It wraps pthread_mutex_init
   and pthread_rwlock_init, calls the real functions, and looks at the
   kind fields the fork's libc set:
     mutex  __data.__kind has PTHREAD_MUTEX_THROUGHPUT_NP (8) set and no
	    priority-inheritance / priority-protection bit: TP;
     rwlock __data.__flags == PTHREAD_RWLOCK_PHASE_FAIR_NP (3): phase-fair.
   At exit it appends one line to the file named by TPF_LOCKPROBE_OUT
   (standard error if unset):
     tpf-lockprobe: PID mutexes N tp M rwlocks N phase-fair M
   Locks set up with static initializers are not seen (they never pass
   through the init functions).  Built with the host compiler against
   Debian's headers (tests/reliability.mk).  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TP_MUTEX_KIND_BIT 8
#define PI_PP_KIND_BITS (16 | 32 | 64)
#define PHASE_FAIR_RWLOCK_FLAGS 3

static unsigned long int mutexes, tp_mutexes, rwlocks, pf_rwlocks;

typedef int mutex_init_fn (pthread_mutex_t *, const pthread_mutexattr_t *);
typedef int rwlock_init_fn (pthread_rwlock_t *,
			    const pthread_rwlockattr_t *);

int
pthread_mutex_init (pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
  static mutex_init_fn *real;
  if (real == NULL)
    real = (mutex_init_fn *) dlsym (RTLD_NEXT, "pthread_mutex_init");
  int err = real (m, a);
  if (err == 0)
    {
      int kind = m->__data.__kind;
      __atomic_fetch_add (&mutexes, 1, __ATOMIC_RELAXED);
      if ((kind & TP_MUTEX_KIND_BIT) != 0 && (kind & PI_PP_KIND_BITS) == 0)
	__atomic_fetch_add (&tp_mutexes, 1, __ATOMIC_RELAXED);
    }
  return err;
}

int
pthread_rwlock_init (pthread_rwlock_t *rw, const pthread_rwlockattr_t *a)
{
  static rwlock_init_fn *real;
  if (real == NULL)
    real = (rwlock_init_fn *) dlsym (RTLD_NEXT, "pthread_rwlock_init");
  int err = real (rw, a);
  if (err == 0)
    {
      __atomic_fetch_add (&rwlocks, 1, __ATOMIC_RELAXED);
      if (rw->__data.__flags == PHASE_FAIR_RWLOCK_FLAGS)
	__atomic_fetch_add (&pf_rwlocks, 1, __ATOMIC_RELAXED);
    }
  return err;
}

static void __attribute__ ((destructor))
report (void)
{
  const char *name = getenv ("TPF_LOCKPROBE_OUT");
  FILE *out = name != NULL ? fopen (name, "a") : NULL;
  fprintf (out != NULL ? out : stderr,
	   "tpf-lockprobe: %d mutexes %lu tp %lu rwlocks %lu phase-fair %lu\n",
	   (int) getpid (), mutexes, tp_mutexes, rwlocks, pf_rwlocks);
  if (out != NULL)
    fclose (out);
}
