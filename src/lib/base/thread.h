/*
 * thread: threads that leave the stop signals to their starter, work run
 * beside the caller's own (on a thread, or here when none starts), and
 * the cores the process may run on.
 */
#ifndef MODELCAT_THREAD_H
#define MODELCAT_THREAD_H

#include <pthread.h>

#include "base/error.h"

/* Start a thread running fn(arg) that leaves SIGINT, SIGTERM and SIGHUP
 * to the calling thread (its handler cleans up, and the other threads
 * find that out by their next file): 0, or -1 when none started. */
int mc_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* A piece of work run beside the caller's own: fn(arg, err) on a thread
 * of its own (mc_thread_start()), or on the calling thread. */
typedef struct mc_job {
	int (*fn)(void *arg, mc_err *err);
	void *arg;
	pthread_t thread;
	int live;                    /* on a thread not joined yet */
	int rc;                      /* fn's: 0, or -1 with err */
	mc_err err;
} mc_job;

/* Start fn(arg) on a thread when on_thread is set and one starts, else
 * run it here now. */
void mc_job_start(mc_job *j, int (*fn)(void *arg, mc_err *err), void *arg, int on_thread);
/* Wait for j: 0, or -1, with j's failure in *err unless the caller
 * failed first (rc set: its error stays). */
int mc_job_wait(mc_job *j, int rc, mc_err *err);

/* The cores this process may run on: its CPU affinity (taskset, a
 * container's cpuset), else the cores online; at least 1. */
long mc_cores(void);

#endif
