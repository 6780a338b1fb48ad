#include "strmap.h"
#include "util.h"

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
	return h;
}

void strmap_init(strmap *map)
{
	map->slots = NULL;
	map->cap = 0;
	map->count = 0;
}

void strmap_release(strmap *map)
{
	size_t i;

	for (i = 0; i < map->cap; i++)
		free(map->slots[i].key);
	free(map->slots);
	strmap_init(map);
}

static strmap_entry *probe(strmap_entry *slots, size_t cap, const char *key, size_t len)
{
	size_t i = (size_t)hash_bytes(key, len) & (cap - 1);

	while (slots[i].key &&
	       !(slots[i].len == len && !memcmp(slots[i].key, key, len)))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(strmap *map)
{
	size_t cap = map->cap ? map->cap * 2 : 64, i;
	strmap_entry *slots = xcalloc(cap, sizeof(*slots));

	for (i = 0; i < map->cap; i++)
		if (map->slots[i].key)
			*probe(slots, cap, map->slots[i].key, map->slots[i].len) = map->slots[i];
	free(map->slots);
	map->slots = slots;
	map->cap = cap;
}

size_t *strmap_get_or_add(strmap *map, const char *key, size_t len, int *added)
{
	strmap_entry *e;

	if ((map->count + 1) * 4 > map->cap * 3)
		grow(map);
	e = probe(map->slots, map->cap, key, len);
	if (added)
		*added = !e->key;
	if (!e->key) {
		e->key = xstrndup(key, len);
		e->len = len;
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
	e = probe(map->slots, map->cap, key, len);
	return e->key ? &e->value : NULL;
}
