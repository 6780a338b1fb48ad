/*
 * namecount: how many times each model name has been counted, in about 36
 * bytes a distinct name whatever its length. A name is kept only as the
 * first 16 bytes of its SHA-256 (two names share one with a chance of
 * about n^2 / 2^129), in an open-addressing table of at most 3/4 load.
 * Parsing an export counts its names to number repeats (NAME#2): memory
 * grows with the distinct names, not with the bytes of the file.
 */
#ifndef MODELCAT_NAMECOUNT_H
#define MODELCAT_NAMECOUNT_H

#include <stddef.h>
#include <stdint.h>

typedef struct namecount {
	unsigned char (*keys)[16];  /* name digests */
	uint32_t *counts;           /* their counts; NAMECOUNT_FREE: empty slot */
	size_t cap;                 /* slots (a power of two, or 0) */
	size_t n;                   /* names */
} namecount;

#define NAMECOUNT_FREE UINT32_MAX

void namecount_init(namecount *nc);
void namecount_release(namecount *nc);
/* The count of name[0..len), added at 0 when new. The pointer is valid
 * until the next call. */
uint32_t *namecount_get(namecount *nc, const char *name, size_t len);

#endif
