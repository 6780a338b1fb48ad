/*
 * hashing: the SHA-256 of a file's content (decompressed) and its size
 * (input_file_sha256(), read/input.h), on a thread of its own while the
 * rows are parsed; and its size, when known without reading it.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_HASHING_H
#define MODELCAT_HASHING_H

#include <pthread.h>
#include "base/error.h"

/* The size of path's content into *size when it is known without reading
 * it (a plain file's or zip member's; gzip's is not): 0, else -1. */
int hashing_content_size(const char *path, unsigned long long *size);

/* A content hashed on a thread of its own. */
typedef struct hashing_thread {
	const char *path;           /* the file */
	char sha[65];               /* its content's SHA-256 */
	unsigned long long bytes;   /* and size */
	int rc;                     /* 0, or -1 with err */
	mc_err err;                 /* the failure */
	pthread_t thread;           /* the thread */
} hashing_thread;

/* Start hashing path on a thread of its own: 0, or -1 when no thread
 * could start (nothing to finish then). */
int hashing_start(hashing_thread *h, const char *path);
/* Wait for the hash: 0, or -1 with err. */
int hashing_finish(hashing_thread *h, mc_err *err);

#endif
