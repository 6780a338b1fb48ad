/*
 * ahead: a file read on a thread of its own, a few blocks ahead of the
 * thread that uses them, so the kernel's copy of each block into memory
 * is not on that thread's time. For a reader whose work per byte is about
 * the cost of the copy (the SHA-256 of a file, with the CPU's SHA
 * instructions) while another core is free.
 *
 * One reader, one user: ahead_next() hands out the next block, which stays
 * the user's until the next call (or ahead_stop()).
 */
#ifndef MODELCAT_AHEAD_H
#define MODELCAT_AHEAD_H

#include <stddef.h>

/* Blocks read ahead at most, and the size of each (the last block of a
 * file is the only short one). */
#define AHEAD_BLOCKS 8u
#define AHEAD_BLOCK (256u * 1024u)

typedef struct ahead ahead;

/* Start reading fd from its current offset with read() on a thread of its
 * own. NULL when no thread can start (read fd yourself then). The fd
 * stays the caller's: it is read by the thread only, until ahead_stop(). */
ahead *ahead_start(int fd);

/* The next block: 1 with *data and *len set, 0 at the end of the file, -1
 * with *error set to the errno of the failed read (the same on every later
 * call). */
int ahead_next(ahead *a, const unsigned char **data, size_t *len, int *error);

/* Stop the thread (it finishes the read under way) and free everything;
 * accepts NULL. The fd's offset is then wherever the thread left it. */
void ahead_stop(ahead *a);

#endif
