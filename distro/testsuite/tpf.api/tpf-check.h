/* Checks for the TPF API tests: print what failed and exit 1.  */
#ifndef TPF_CHECK_H
#define TPF_CHECK_H

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* EXPR must equal WANT (both int, e.g. an error code).  */
#define EXPECT(expr, want)						\
  do {									\
    int tpf_got_ = (expr), tpf_want_ = (want);				\
    if (tpf_got_ != tpf_want_)						\
      {									\
	printf ("FAILED at line %d: %s is %d (%s), want %d (%s)\n",	\
		__LINE__, #expr, tpf_got_, strerror (tpf_got_),		\
		tpf_want_, strerror (tpf_want_));			\
	exit (1);							\
      }									\
  } while (0)

/* An absolute CLOCK_REALTIME time MS milliseconds from now.  */
static inline struct timespec
tpf_in_ms (long ms)
{
  struct timespec t;
  clock_gettime (CLOCK_REALTIME, &t);
  t.tv_nsec += (ms % 1000) * 1000000L;
  t.tv_sec += ms / 1000 + t.tv_nsec / 1000000000L;
  t.tv_nsec %= 1000000000L;
  return t;
}

#endif
