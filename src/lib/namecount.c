#include "namecount.h"
#include "sha256.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void namecount_init(namecount *nc)
{
	memset(nc, 0, sizeof(*nc));
}

void namecount_release(namecount *nc)
{
	free(nc->keys);
	free(nc->counts);
	namecount_init(nc);
}

/* The slot of key: where it is, or the free slot where it would go. */
static size_t slot(const namecount *nc, const unsigned char key[16])
{
	uint64_t h;
	size_t i;

	memcpy(&h, key, sizeof(h));
	for (i = (size_t)h & (nc->cap - 1); nc->counts[i] != NAMECOUNT_FREE;
	     i = (i + 1) & (nc->cap - 1))
		if (!memcmp(nc->keys[i], key, 16))
			break;
	return i;
}

static void grow(namecount *nc)
{
	namecount old = *nc;
	size_t i;

	nc->cap = old.cap ? old.cap * 2 : 1024;
	nc->keys = xmalloc(nc->cap * sizeof(*nc->keys));
	nc->counts = xmalloc(nc->cap * sizeof(*nc->counts));
	memset(nc->counts, 0xff, nc->cap * sizeof(*nc->counts));
	for (i = 0; i < old.cap; i++) {
		size_t at;

		if (old.counts[i] == NAMECOUNT_FREE)
			continue;
		at = slot(nc, old.keys[i]);
		memcpy(nc->keys[at], old.keys[i], 16);
		nc->counts[at] = old.counts[i];
	}
	free(old.keys);
	free(old.counts);
}

uint32_t *namecount_get(namecount *nc, const char *name, size_t len)
{
	unsigned char digest[32];
	sha256_ctx ctx;
	size_t at;

	if ((nc->n + 1) * 4 > nc->cap * 3)
		grow(nc);
	sha256_init(&ctx);
	sha256_update(&ctx, name, len);
	sha256_final(&ctx, digest);
	at = slot(nc, digest);
	if (nc->counts[at] == NAMECOUNT_FREE) {
		memcpy(nc->keys[at], digest, 16);
		nc->counts[at] = 0;
		nc->n++;
	}
	return &nc->counts[at];
}
