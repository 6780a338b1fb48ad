#include "base/thread.h"
#include "base/error.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void *job_main(void *arg)
{
	mc_job *j = arg;

	j->rc = j->fn(j->arg, &j->err) ? -1 : 0;
	return NULL;
}

void mc_job_start(mc_job *j, int (*fn)(void *arg, mc_err *err), void *arg, int on_thread)
{
	memset(j, 0, sizeof(*j));
	j->fn = fn;
	j->arg = arg;
	j->live = on_thread && !mc_thread_start(&j->thread, job_main, j);
	if (!j->live)
		job_main(j);
}

int mc_job_wait(mc_job *j, int rc, mc_err *err)
{
	if (j->live)
		pthread_join(j->thread, NULL);
	j->live = 0;
	if (!rc && j->rc)
		*err = j->err;
	return rc || j->rc ? -1 : 0;
}

int mc_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t block, was;
	int failed;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &was);
	failed = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return failed ? -1 : 0;
}

long mc_cores(void)
{
	cpu_set_t set;
	long n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n;
}
