#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char sbuf_empty[1];

void sbuf_init(sbuf *sb)
{
	sb->data = sbuf_empty;
	sb->len = 0;
	sb->cap = 0;
}

void sbuf_release(sbuf *sb)
{
	if (sb->cap)
		free(sb->data);
	sbuf_init(sb);
}

void sbuf_reset(sbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->data[0] = '\0';
}

void sbuf_grow(sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t cap;

	if (need < sb->len) {
		fprintf(stderr, "modelcat: buffer size overflow\n");
		abort();
	}
	if (need <= sb->cap)
		return;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap = cap * 2 > cap ? cap * 2 : need;
	if (sb->cap) {
		sb->data = xrealloc(sb->data, cap);
	} else {
		sb->data = xmalloc(cap);
		sb->data[0] = '\0';
	}
	sb->cap = cap;
}

void sbuf_add(sbuf *sb, const void *bytes, size_t len)
{
	if (!len) {
		sbuf_grow(sb, 0);
		return;
	}
	sbuf_grow(sb, len);
	memcpy(sb->data + sb->len, bytes, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

void sbuf_addc(sbuf *sb, char c)
{
	if (sb->len + 1 >= sb->cap)
		sbuf_grow(sb, 1);
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}

void sbuf_adds(sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_vaddf(sbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	sbuf_grow(sb, 64);
	va_copy(copy, ap);
	n = vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		sbuf_grow(sb, (size_t)n);
		vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void sbuf_addf(sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *sbuf_detach(sbuf *sb, size_t *len)
{
	char *out;

	if (!sb->cap)
		sbuf_grow(sb, 0);
	out = sb->data;
	if (len)
		*len = sb->len;
	sbuf_init(sb);
	return out;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "modelcat: out of memory (%zu bytes)\n", n);
		abort();
	}
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "modelcat: out of memory\n");
		abort();
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "modelcat: out of memory (%zu bytes)\n", n);
		abort();
	}
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void mc_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

int mc_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int mc_utf8_valid(const char *s, size_t len, size_t *bad_offset)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		size_t n, k;
		unsigned long cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			n = 1;
			cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			n = 2;
			cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			n = 3;
			cp = c & 0x07;
		} else {
			goto bad;
		}
		if (i + n >= len)
			goto bad;
		for (k = 1; k <= n; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				goto bad;
			cp = (cp << 6) | (p[i + k] & 0x3F);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
		    (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			goto bad;
		i += n + 1;
	}
	return 1;
bad:
	if (bad_offset)
		*bad_offset = i;
	return 0;
}
