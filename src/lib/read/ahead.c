#include "read/ahead.h"
#include "base/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * Blocks are numbered in file order; block k lives in buf[k % AHEAD_BLOCKS].
 * The reader fills block `filled` when fewer than AHEAD_BLOCKS blocks are
 * read and not yet given back (filled - freed); the user takes block
 * `taken` when it is filled, and gives it back at its next call.
 */
struct ahead {
	int fd;                           /* the file (the caller's) */
	pthread_t thread;                 /* the reader */
	pthread_mutex_t lock;             /* guards what follows */
	pthread_cond_t changed;           /* a block filled or freed, or stop */
	unsigned char *buf[AHEAD_BLOCKS]; /* the blocks; owned */
	size_t len[AHEAD_BLOCKS];         /* bytes in each filled block */
	unsigned long long filled;        /* blocks the reader has filled */
	unsigned long long taken;         /* blocks handed to the user */
	unsigned long long freed;         /* blocks the user gave back */
	int end;                          /* the reader found the end */
	int error;                        /* errno of a failed read, or 0 */
	int stop;                         /* the user wants no more */
};

/* Fill buf with up to AHEAD_BLOCK bytes of fd: the count, 0 at the end,
 * -1 with errno. Short only at the end. */
static ssize_t fill(int fd, unsigned char *buf)
{
	size_t got = 0;

	while (got < AHEAD_BLOCK) {
		ssize_t n = read(fd, buf + got, AHEAD_BLOCK - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void *reader(void *arg)
{
	ahead *a = arg;

	for (;;) {
		unsigned char *buf;
		ssize_t n;

		pthread_mutex_lock(&a->lock);
		while (!a->stop && a->filled - a->freed == AHEAD_BLOCKS)
			pthread_cond_wait(&a->changed, &a->lock);
		if (a->stop) {
			pthread_mutex_unlock(&a->lock);
			return NULL;
		}
		buf = a->buf[a->filled % AHEAD_BLOCKS];
		pthread_mutex_unlock(&a->lock);

		n = fill(a->fd, buf);   /* a block no one else touches now */

		pthread_mutex_lock(&a->lock);
		if (n < 0)
			a->error = errno ? errno : EIO;
		else if (n == 0)
			a->end = 1;
		else
			a->len[a->filled++ % AHEAD_BLOCKS] = (size_t)n;
		pthread_cond_signal(&a->changed);
		pthread_mutex_unlock(&a->lock);
		if (n <= 0)
			return NULL;
	}
}

ahead *ahead_start(int fd)
{
	ahead *a = xcalloc(1, sizeof(*a));
	size_t i;

	a->fd = fd;
	for (i = 0; i < AHEAD_BLOCKS; i++)
		a->buf[i] = xmalloc(AHEAD_BLOCK);
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->changed, NULL);
	if (mc_thread_start(&a->thread, reader, a)) {
		pthread_cond_destroy(&a->changed);
		pthread_mutex_destroy(&a->lock);
		for (i = 0; i < AHEAD_BLOCKS; i++)
			free(a->buf[i]);
		free(a);
		return NULL;
	}
	return a;
}

int ahead_next(ahead *a, const unsigned char **data, size_t *len, int *error)
{
	int rc = 0;

	pthread_mutex_lock(&a->lock);
	if (a->freed < a->taken) {   /* the block handed out last time */
		a->freed = a->taken;
		pthread_cond_signal(&a->changed);
	}
	while (a->taken == a->filled && !a->end && !a->error)
		pthread_cond_wait(&a->changed, &a->lock);
	if (a->taken < a->filled) {   /* blocks before an end or error first */
		*data = a->buf[a->taken % AHEAD_BLOCKS];
		*len = a->len[a->taken % AHEAD_BLOCKS];
		a->taken++;
		rc = 1;
	} else if (a->error) {
		*error = a->error;
		rc = -1;
	}
	pthread_mutex_unlock(&a->lock);
	return rc;
}

void ahead_stop(ahead *a)
{
	size_t i;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_signal(&a->changed);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_cond_destroy(&a->changed);
	pthread_mutex_destroy(&a->lock);
	for (i = 0; i < AHEAD_BLOCKS; i++)
		free(a->buf[i]);
	free(a);
}
