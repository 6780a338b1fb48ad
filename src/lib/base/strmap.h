/*
 * strmap: a hash map from byte strings to a size_t, for counting names and
 * looking up identities. Keys are copied into the map's own pool of
 * strings (base/util.h) and freed with it.
 */
#ifndef MODELCAT_STRMAP_H
#define MODELCAT_STRMAP_H

#include "base/strpool.h"

#include <stddef.h>

typedef struct strmap_entry {
	char *key;        /* the map's copy, NUL-terminated; NULL when the slot is free */
	size_t len;       /* key length in bytes */
	size_t value;     /* the caller's value */
	unsigned hash;    /* the key's hash, low bits: most slots probed are
			     told apart without reading their key */
} strmap_entry;

typedef struct strmap {
	strmap_entry *slots;  /* open addressing, linear probing */
	size_t cap;           /* slots allocated (a power of two, or 0) */
	size_t count;         /* keys stored */
	strpool keys;         /* the keys' copies */
} strmap;

void strmap_init(strmap *map);
void strmap_release(strmap *map);
/* Make room for n keys in all, so that adding them does not grow the
 * table again. */
void strmap_reserve(strmap *map, size_t n);
/* The value slot for key, added with value 0 if absent. The pointer is
 * valid until the next strmap_get_or_add(). *added says if it was new. */
size_t *strmap_get_or_add(strmap *map, const char *key, size_t len, int *added);
/* The value for key, or NULL if absent. */
size_t *strmap_find(const strmap *map, const char *key, size_t len);
/* The map's copy of the key whose value slot is slot (as
 * strmap_get_or_add() or strmap_find() gave it): valid, unlike the slot,
 * until the map is released. */
const char *strmap_key(const size_t *slot);

#endif
