/*
 * sbuf: a growable byte buffer, the one every module writes text into.
 *
 * Ownership: an sbuf owns its bytes; sbuf_release() frees them and leaves
 * the buffer empty and reusable. sbuf.data is always NUL-terminated once
 * anything has been added (or after sbuf_init()), so it can be used as a
 * C string when the content has no NUL bytes.
 */
#ifndef MODELCAT_SBUF_H
#define MODELCAT_SBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "base/error.h"

typedef struct sbuf {
	char *data;      /* bytes, NUL-terminated; never NULL after sbuf_init */
	size_t len;      /* bytes used, not counting the terminating NUL */
	size_t cap;      /* bytes allocated */
} sbuf;

/* Prepare an empty buffer (no allocation until first use). */
void sbuf_init(sbuf *sb);
/* Free the bytes; the buffer is empty again and may be reused. */
void sbuf_release(sbuf *sb);
/* Forget the content but keep the allocation. Inline: called for every
 * cell of every row. */
static inline void sbuf_reset(sbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->data[0] = '\0';
}
/* Make room for at least extra more bytes (plus the NUL). */
void sbuf_grow(sbuf *sb, size_t extra);

/* Append bytes, a byte, a C string. Inline: they are called for every
 * value of every row and every piece of every page, and a call into
 * another file for each was a tenth of the parsing thread's work. */
static inline void sbuf_add(sbuf *sb, const void *bytes, size_t len)
{
	if (sb->cap - sb->len <= len)      /* len + 1 bytes do not fit */
		sbuf_grow(sb, len);
	if (len)
		memcpy(sb->data + sb->len, bytes, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

static inline void sbuf_addc(sbuf *sb, char c)
{
	if (sb->len + 1 >= sb->cap)
		sbuf_grow(sb, 1);
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}

static inline void sbuf_adds(sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addf(sbuf *sb, const char *fmt, ...) MC_PRINTF(2, 3);
void sbuf_vaddf(sbuf *sb, const char *fmt, va_list ap) MC_PRINTF(2, 0);
/* Take the bytes out: the caller frees the returned pointer; sb is empty. */
char *sbuf_detach(sbuf *sb, size_t *len);

/* Append everything left to read of fd to out, read into room made for
 * its size (a 37 MB file is not grown into by copies): 0, or -1 (errno). */
int mc_read_fd(int fd, sbuf *out);

#endif
