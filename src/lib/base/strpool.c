#include "base/strpool.h"
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

#define STRPOOL_FIRST 1024

#define STRPOOL_MOST 65536

char *strpool_add(strpool *p, const char *s, size_t len)
{
	char *at;

	if (len + 1 > p->size - p->used) {
		size_t size = p->size ? p->size * 2 : STRPOOL_FIRST;
		char *block, *previous;

		if (size > STRPOOL_MOST)
			size = STRPOOL_MOST;
		if (size < sizeof(block) + len + 1)
			size = sizeof(block) + len + 1;
		block = xmalloc(size);
		/* the block before, linked from the new one's first bytes */
		previous = p->block;
		memcpy(block, &previous, sizeof(previous));
		p->block = block;
		p->used = sizeof(block);
		p->size = size;
	}
	at = p->block + p->used;
	memcpy(at, s, len);
	at[len] = '\0';
	p->used += len + 1;
	return at;
}

char *strpool_dup(strpool *p, const char *s)
{
	return s ? strpool_add(p, s, strlen(s)) : NULL;
}

void strpool_adopt(strpool *to, strpool *from)
{
	char *oldest = from->block, *before;

	if (!oldest)
		return;
	if (!to->block) {
		*to = *from;
	} else {       /* from's blocks go behind to's newest, which stays in use */
		for (memcpy(&before, oldest, sizeof(before)); before;
		     memcpy(&before, oldest, sizeof(before)))
			oldest = before;
		memcpy(&before, to->block, sizeof(before));       /* to's second newest */
		memcpy(oldest, &before, sizeof(before));
		memcpy(to->block, &from->block, sizeof(before));
	}
	memset(from, 0, sizeof(*from));
}

void strpool_release(strpool *p)
{
	while (p->block) {
		char *before;

		memcpy(&before, p->block, sizeof(before));
		free(p->block);
		p->block = before;
	}
	p->used = p->size = 0;
}
