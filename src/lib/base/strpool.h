/*
 * strpool: strings of one owner freed together.
 */
#ifndef MODELCAT_STRPOOL_H
#define MODELCAT_STRPOOL_H

#include <stddef.h>

/*
 * A pool of strings freed together: each copy is carved from blocks of
 * 1 KiB growing to 64 KiB (a longer string gets a block of its own), so
 * the many short strings of one owner (a map's keys, a model's values)
 * cost a few allocations instead of one each. A copy lives until
 * strpool_release(). A zeroed pool is empty.
 */
typedef struct strpool {
	char *block;          /* the newest block; it begins with a pointer
				 to the block before it (NULL: none) */
	size_t used;          /* bytes of it in use */
	size_t size;          /* its size in bytes */
} strpool;

/* A NUL-terminated copy of s[0..len) in p. */
char *strpool_add(strpool *p, const char *s, size_t len);
/* A copy of the C string s in p; NULL for NULL. */
char *strpool_dup(strpool *p, const char *s);
/* Move every copy of from into to (they live as long as to's own);
 * from is empty again. */
void strpool_adopt(strpool *to, strpool *from);
/* Free every copy; p is empty again. */
void strpool_release(strpool *p);

#endif
