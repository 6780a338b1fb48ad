/*
 * util: small pieces every module uses: a growable byte buffer, checked
 * allocation, and formatted error messages.
 *
 * Ownership: an sbuf owns its bytes; sbuf_release() frees them and leaves
 * the buffer empty and reusable. sbuf.data is always NUL-terminated once
 * anything has been added (or after sbuf_init()), so it can be used as a
 * C string when the content has no NUL bytes.
 */
#ifndef MODELCAT_UTIL_H
#define MODELCAT_UTIL_H

#include <stddef.h>
#include <stdarg.h>

#define MC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* The program's version, printed by --version everywhere. */
#define MODELCAT_VERSION "0.1.0"

typedef struct sbuf {
	char *data;      /* bytes, NUL-terminated; never NULL after sbuf_init */
	size_t len;      /* bytes used, not counting the terminating NUL */
	size_t cap;      /* bytes allocated */
} sbuf;

/* Prepare an empty buffer (no allocation until first use). */
void sbuf_init(sbuf *sb);
/* Free the bytes; the buffer is empty again and may be reused. */
void sbuf_release(sbuf *sb);
/* Forget the content but keep the allocation. */
void sbuf_reset(sbuf *sb);
/* Make room for at least extra more bytes (plus the NUL). */
void sbuf_grow(sbuf *sb, size_t extra);
void sbuf_add(sbuf *sb, const void *bytes, size_t len);
void sbuf_addc(sbuf *sb, char c);
void sbuf_adds(sbuf *sb, const char *s);
void sbuf_addf(sbuf *sb, const char *fmt, ...) MC_PRINTF(2, 3);
void sbuf_vaddf(sbuf *sb, const char *fmt, va_list ap) MC_PRINTF(2, 0);
/* Take the bytes out: the caller frees the returned pointer; sb is empty. */
char *sbuf_detach(sbuf *sb, size_t *len);

/* Allocation that aborts the program on failure (out of memory is not an
 * input error a stage can report and continue from). */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* snprintf into a fixed buffer, always terminated, truncating if needed. */
void mc_fmt(char *buf, size_t len, const char *fmt, ...) MC_PRINTF(3, 4);

/* Does the string end with suffix? */
int mc_ends_with(const char *s, const char *suffix);

/* Is [s, s+len) valid UTF-8? On failure *bad_offset is set to the first
 * offending byte. */
int mc_utf8_valid(const char *s, size_t len, size_t *bad_offset);

#endif
