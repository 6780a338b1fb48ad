/*
 * namecount: how many times each model name has been counted, in memory
 * that does not grow with the number of names. A name is kept only as the
 * first 16 bytes of its SHA-256 (two names share one with a chance of
 * about n^2 / 2^129). Names live in an open-addressing table of at most
 * 3/4 load that grows to NAMECOUNT_SLOTS; when that is full, its entries
 * are merged into a sorted file of (digest, count) records in $TMPDIR
 * (unlinked as soon as made) and the table starts empty. A name missing
 * from the table is looked for in the file only when a fixed-size Bloom
 * filter of the spilled digests says it may be there, and then by one read
 * of one block, found from the first digest of each block. Parsing an
 * export counts its names to number repeats (NAME#2) exactly.
 */
#ifndef MODELCAT_NAMECOUNT_H
#define MODELCAT_NAMECOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Bytes of a name's digest: the first of its SHA-256. */
#define NAMECOUNT_DIGEST 16

typedef struct namecount_entry {
	unsigned char key[NAMECOUNT_DIGEST]; /* name digest */
	uint32_t count;             /* its count; NAMECOUNT_FREE: empty slot */
} namecount_entry;

typedef struct namecount {
	namecount_entry *slots;     /* the table in memory */
	size_t cap;                 /* slots (a power of two, or 0) */
	size_t n;                   /* names in the table */
	size_t limit;               /* slots at most before spilling */
	unsigned long long names;   /* distinct names in all */
	int fd;                     /* the spill file, or -1 */
	unsigned long long spilled; /* records in it */
	unsigned long long spills;  /* times the table was spilled */
	unsigned char (*fence)[16]; /* first digest of each block of the file */
	size_t nfence;              /* blocks in the file: entries of fence */
	uint64_t *bloom;            /* NAMECOUNT_BLOOM_BITS bits, or NULL */
	int failed;                 /* a spill failed: every call fails */
} namecount;

#define NAMECOUNT_FREE UINT32_MAX
#define NAMECOUNT_SLOTS ((size_t)1 << 17)   /* 2.5 MiB of table */
#define NAMECOUNT_BLOOM_BITS (1u << 24)     /* 2 MiB of filter */

void namecount_init(namecount *nc);
/* Spill at `slots` table slots (rounded up to a power of two, at least
 * 16) instead of NAMECOUNT_SLOTS. For tests of the spill path on small
 * inputs. */
void namecount_limit(namecount *nc, size_t slots);
void namecount_release(namecount *nc);
/* The count of name[0..len), added at 0 when new: 0 and *count, a pointer
 * valid until the next call. -1 (and *count NULL) when the spill file
 * cannot be written or read, with a message in err naming the file's
 * folder; after a failed spill every call fails. */
int namecount_get(namecount *nc, const char *name, size_t len, uint32_t **count,
		  mc_err *err);
/* The digest by which name[0..len) is counted, and the same count as
 * namecount_get() by that digest: for a digest made on another thread
 * (read/recahead.h). */
void namecount_digest(const char *name, size_t len, unsigned char digest[NAMECOUNT_DIGEST]);
int namecount_get_digest(namecount *nc, const unsigned char digest[NAMECOUNT_DIGEST],
			 uint32_t **count, mc_err *err);

#endif
