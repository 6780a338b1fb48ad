#include "base/strmap.h"
#include "base/alloc.h"
#include "base/strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	/* FNV's low bits, which pick the slot, depend only on the low bits
	 * of each step: fold the high bits in (a 64-bit finaliser) so that
	 * keys alike but for a few characters spread over the table */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

void strmap_init(strmap *map)
{
	map->slots = NULL;
	map->cap = 0;
	map->count = 0;
	memset(&map->keys, 0, sizeof(map->keys));
}

void strmap_release(strmap *map)
{
	strpool_release(&map->keys);
	free(map->slots);
	strmap_init(map);
}

static strmap_entry *probe(strmap_entry *slots, size_t cap, const char *key, size_t len,
			   uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	while (slots[i].key &&
	       !(slots[i].hash == (unsigned)h && slots[i].len == len &&
		 !memcmp(slots[i].key, key, len)))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Rehash into a table of cap slots (a power of two above the count). */
static void resize(strmap *map, size_t cap)
{
	strmap_entry *slots = xcalloc(cap, sizeof(*slots));
	size_t i;

	for (i = 0; i < map->cap; i++) {
		strmap_entry *e = &map->slots[i];
		size_t j;

		if (!e->key)
			continue;
		/* the slot a key goes to depends on the hash's low bits only,
		 * which the entry keeps while the table is below 2^32 slots */
		j = cap - 1 <= 0xffffffffu ? (size_t)e->hash & (cap - 1)
					     : (size_t)hash_bytes(e->key, e->len) & (cap - 1);
		while (slots[j].key)
			j = (j + 1) & (cap - 1);
		slots[j] = *e;
	}
	free(map->slots);
	map->slots = slots;
	map->cap = cap;
}

static void grow(strmap *map)
{
	resize(map, map->cap ? map->cap * 2 : 64);
}

void strmap_reserve(strmap *map, size_t n)
{
	size_t cap = map->cap ? map->cap : 64;

	while (n * 4 > cap * 3)
		cap *= 2;
	if (cap > map->cap)
		resize(map, cap);
}

size_t *strmap_get_or_add(strmap *map, const char *key, size_t len, int *added)
{
	strmap_entry *e;
	uint64_t h;

	if ((map->count + 1) * 4 > map->cap * 3)
		grow(map);
	h = hash_bytes(key, len);
	e = probe(map->slots, map->cap, key, len, h);
	if (added)
		*added = !e->key;
	if (!e->key) {
		e->key = strpool_add(&map->keys, key, len);
		e->len = len;
		e->hash = (unsigned)h;
		e->value = 0;
		map->count++;
	}
	return &e->value;
}

size_t *strmap_find(const strmap *map, const char *key, size_t len)
{
	strmap_entry *e;

	if (!map->cap)
		return NULL;
	e = probe(map->slots, map->cap, key, len, hash_bytes(key, len));
	return e->key ? &e->value : NULL;
}

const char *strmap_key(const size_t *slot)
{
	const strmap_entry *e =
		(const strmap_entry *)(const void *)((const char *)slot -
						     offsetof(strmap_entry, value));

	return e->key;
}
