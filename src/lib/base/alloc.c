#include "base/alloc.h"
#include "base/cleanup.h"
#include "base/error.h"
#include "base/text.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_text(char *buf, size_t len, size_t *at, const char *s)
{
	while (*s && *at + 1 < len)
		buf[(*at)++] = *s++;
}

void mc_out_of_memory(size_t n)
{
	char msg[256];
	size_t at = 0;

	put_text(msg, sizeof(msg), &at, program_invocation_short_name);
	put_text(msg, sizeof(msg), &at, ": out of memory (allocating ");
	mc_put_decimal(msg, sizeof(msg), &at, n, 1);
	put_text(msg, sizeof(msg), &at, " bytes); stopped\n");
	if (write(STDERR_FILENO, msg, at) < 0)
		msg[0] = '\0';
	mc_cleanup_run();
	_exit(MC_EXIT_FAILURE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		mc_out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		mc_out_of_memory(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		mc_out_of_memory(n);
	return q;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return p;
	n = *cap > 4 ? *cap : 4;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (n > SIZE_MAX / size)
		mc_out_of_memory(SIZE_MAX);
	p = xrealloc(p, n * size);
	*cap = n;
	return p;
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

void mc_free_strings(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
