#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/printf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

void sbuf_grow(sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t cap;

	if (need < sb->len)
		mc_out_of_memory(SIZE_MAX);
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

void sbuf_vaddf(sbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	sbuf_grow(sb, 64);
	va_copy(copy, ap);
	n = mc_vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		sbuf_grow(sb, (size_t)n);
		mc_vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
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

int mc_read_fd(int fd, sbuf *out)
{
	struct stat st;
	ssize_t n;

	/* (and room past it: the read that finds the end needs some) */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		sbuf_grow(out, (size_t)st.st_size + 65536);
	do {
		if (out->cap - out->len < 65537)
			sbuf_grow(out, 65536);
		n = read(fd, out->data + out->len, out->cap - out->len - 1);
		if (n > 0)
			out->len += (size_t)n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	out->data[out->len] = '\0';
	return n < 0 ? -1 : 0;
}
