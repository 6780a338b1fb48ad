#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The files mc_cleanup_run() removes: empty slots are "". Fixed arrays,
 * so that removing them needs no allocation (it runs when there is no
 * memory, or in a signal handler). */
static char cleanup_paths[MC_CLEANUP_MAX][PATH_MAX];

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

/* Does fmt hold no conversion but %s, %c, %d, %i, %u (with l, ll or z),
 * %% and, with a precision (digits or *), %s and %f, without flags or
 * width? Such a format is what most calls pass: a path, a tag, a number,
 * a coordinate. */
static int fmt_plain(const char *fmt)
{
	while ((fmt = strchr(fmt, '%'))) {
		int sized = 0;

		fmt++;
		if (*fmt == '.') {
			/* a precision: of a string, or of a fixed-point number */
			fmt++;
			if (*fmt == '*')
				fmt++;
			else
				while (*fmt >= '0' && *fmt <= '9')
					fmt++;
			if (*fmt != 's' && *fmt != 'f')
				return 0;
			fmt++;
			continue;
		}
		if (*fmt == 'z' || *fmt == 'l') {
			sized = 1;
			fmt += fmt[0] == 'l' && fmt[1] == 'l' ? 2 : 1;
		}
		if (*fmt == 'd' || *fmt == 'i' || *fmt == 'u' ||
		    (!sized && (*fmt == 's' || *fmt == 'c' || *fmt == '%')))
			fmt++;
		else
			return 0;
	}
	return 1;
}

/* n bytes of s at *at of buf (cap bytes), as far as they fit with a NUL
 * after; *at counts them all. */
static void fmt_put(char *buf, size_t cap, size_t *at, const char *s, size_t n)
{
	if (*at + 1 < cap) {
		size_t room = cap - 1 - *at;

		memcpy(buf + *at, s, n < room ? n : room);
	}
	*at += n;
}

/* v with decimals digits after the point, as printf's "%.*f" writes it,
 * into out; its length, or 0 when v is not one this takes: decimals from
 * 0 to 3, |v| times 10^decimals below 2^52, and the rounding mode to
 * nearest. printf rounds the exact product, to nearest with ties to
 * even; the double product p differs from it by e, which fma() gives
 * exactly, and rint(p) is its rounding but where p lies halfway between
 * two integers: there the sign of e decides, and a true tie (e = 0)
 * stays with rint()'s even one. A negative v keeps its sign when it
 * rounds to zero, as printf's "-0.0". No stdio, no long double (which
 * valgrind computes with 64 bits): a page's numbers, its chart's
 * coordinates. */
static size_t fixed_exact(char out[48], double v, int decimals)
{
	static const double scale[] = { 1.0, 10.0, 100.0, 1000.0 };
	static const unsigned long long unit[] = { 1, 10, 100, 1000 };
	char digits[24], *d = digits + sizeof(digits);
	unsigned long long whole, part;
	double a = fabs(v), p, e, r, off;
	size_t n = 0, k;
	int i;

	if (decimals < 0 || decimals > 3 || !(a < 4503599627370496.0 / scale[decimals]) ||
	    fegetround() != FE_TONEAREST)
		return 0;
	p = a * scale[decimals];
	e = fma(a, scale[decimals], -p);   /* a x scale = p + e, exactly */
	r = rint(p);
	off = p - r;                       /* exact: r is p's nearest integer */
	if (off == 0.5 && e > 0)
		r += 1;
	else if (off == -0.5 && e < 0)
		r -= 1;
	whole = (unsigned long long)r / unit[decimals];
	part = (unsigned long long)r % unit[decimals];
	if (signbit(v))
		out[n++] = '-';
	do
		*--d = (char)('0' + whole % 10);
	while (whole /= 10);
	k = (size_t)(digits + sizeof(digits) - d);
	memcpy(out + n, d, k);
	n += k;
	if (decimals) {
		out[n++] = '.';
		for (i = decimals - 1; i >= 0; i--, part /= 10)
			out[n + (size_t)i] = (char)('0' + part % 10);
		n += (size_t)decimals;
	}
	return n;
}

/* v as "%.*f" with precision decimals (below 0: 6) at *at of buf. */
static void fmt_fixed(char *buf, size_t cap, size_t *at, double v, int decimals)
{
	char text[512];
	size_t n;
	int m;

	if (decimals < 0)
		decimals = 6;
	n = fixed_exact(text, v, decimals);
	if (n) {
		fmt_put(buf, cap, at, text, n);
		return;
	}
	m = snprintf(text, sizeof(text), "%.*f", decimals, v);
	if (m < 0)
		return;
	if ((size_t)m < sizeof(text)) {
		fmt_put(buf, cap, at, text, (size_t)m);
	} else {
		char *big = xmalloc((size_t)m + 1);

		snprintf(big, (size_t)m + 1, "%.*f", decimals, v);
		fmt_put(buf, cap, at, big, (size_t)m);
		free(big);
	}
}

/* vsnprintf() for a format fmt_plain() accepts, which it formats as
 * glibc does (a NULL string as "(null)", or as nothing with a precision
 * below 6), without stdio's machinery: a tenth of a publication's
 * instructions went into vsnprintf(), and then its numbers ("%.*f" of
 * format_decimal(), a chart's "%.1f") most of what was left there. */
static size_t fmt_plain_write(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t at = 0;

	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		char digits[24], *d = digits + sizeof(digits);
		unsigned long long u = 0;
		int size = 0, negative = 0;

		if (!pct) {
			fmt_put(buf, cap, &at, fmt, strlen(fmt));
			break;
		}
		fmt_put(buf, cap, &at, fmt, (size_t)(pct - fmt));
		fmt = pct + 1;
		if (*fmt == '.') {
			int precision = 0;

			fmt++;
			if (*fmt == '*') {
				precision = va_arg(ap, int);
				fmt++;
			} else {
				for (; *fmt >= '0' && *fmt <= '9'; fmt++)
					precision = precision < 100000 ? precision * 10 + (*fmt - '0')
									: precision;
			}
			if (*fmt++ == 'f') {
				fmt_fixed(buf, cap, &at, va_arg(ap, double), precision);
			} else {
				const char *s = va_arg(ap, const char *);

				if (!s)
					s = precision < 0 || precision >= 6 ? "(null)" : "";
				fmt_put(buf, cap, &at, s,
					precision < 0 ? strlen(s) : strnlen(s, (size_t)precision));
			}
			continue;
		}
		if (*fmt == 'z') {
			size = 3;
			fmt++;
		} else if (*fmt == 'l') {
			size = fmt[1] == 'l' ? 2 : 1;
			fmt += size;
		}
		switch (*fmt++) {
		case '%':
			fmt_put(buf, cap, &at, "%", 1);
			continue;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			fmt_put(buf, cap, &at, s, strlen(s));
			continue;
		}
		case 'c':
			*--d = (char)va_arg(ap, int);
			fmt_put(buf, cap, &at, d, 1);
			continue;
		case 'd':
		case 'i': {
			long long v = size == 2 ? va_arg(ap, long long) :
				      size == 1 ? va_arg(ap, long) :
				      size == 3 ? (long long)va_arg(ap, ssize_t) : va_arg(ap, int);

			negative = v < 0;
			u = negative ? 0ULL - (unsigned long long)v : (unsigned long long)v;
			break;
		}
		default:   /* 'u' */
			u = size == 2 ? va_arg(ap, unsigned long long) :
			    size == 1 ? va_arg(ap, unsigned long) :
			    size == 3 ? va_arg(ap, size_t) : va_arg(ap, unsigned);
			break;
		}
		do
			*--d = (char)('0' + u % 10);
		while (u /= 10);
		if (negative)
			*--d = '-';
		fmt_put(buf, cap, &at, d, (size_t)(digits + sizeof(digits) - d));
	}
	if (cap)
		buf[at < cap ? at : cap - 1] = '\0';
	return at;
}

int mc_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t n;

	if (!fmt_plain(fmt))
		return vsnprintf(buf, cap, fmt, ap);
	n = fmt_plain_write(buf, cap, fmt, ap);
	return n > INT_MAX ? -1 : (int)n;
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

void mc_cleanup_add(const char *path)
{
	size_t i, n = strlen(path);

	if (n >= PATH_MAX - 16)
		return;
	for (i = 0; i < MC_CLEANUP_MAX; i++) {
		if (!cleanup_paths[i][0]) {
			memcpy(cleanup_paths[i], path, n + 1);
			return;
		}
	}
}

void mc_cleanup_remove(const char *path)
{
	size_t i;

	for (i = 0; i < MC_CLEANUP_MAX; i++)
		if (!strcmp(cleanup_paths[i], path))
			cleanup_paths[i][0] = '\0';
}

/* Remove path and its SQLite journals, with no allocation and nothing but
 * async-signal-safe calls. */
void mc_remove_with_journals(const char *path)
{
	static const char *const sides[] = { "-journal", "-wal", "-shm" };
	char name[PATH_MAX];
	size_t i, n = strlen(path), k;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		k = strlen(sides[i]);
		if (n + k >= sizeof(name))
			continue;
		memcpy(name, path, n);
		memcpy(name + n, sides[i], k + 1);
		unlink(name);
	}
	unlink(path);
}

void mc_cleanup_run(void)
{
	size_t i;

	for (i = 0; i < MC_CLEANUP_MAX; i++) {
		if (cleanup_paths[i][0]) {
			mc_remove_with_journals(cleanup_paths[i]);
			cleanup_paths[i][0] = '\0';
		}
	}
}

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

void mc_remove_stale(const char *prefix)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *slash = strrchr(prefix, '/'), *base;
	struct dirent *e;
	size_t blen;
	DIR *d;

	if (slash) {
		mc_fmt(dir, sizeof(dir), "%.*s", (int)(slash - prefix), prefix);
		if (!dir[0])
			mc_fmt(dir, sizeof(dir), "/");
		base = slash + 1;
	} else {
		mc_fmt(dir, sizeof(dir), ".");
		base = prefix;
	}
	blen = strlen(base);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *p;
		char *end;
		long pid;

		if (strncmp(e->d_name, base, blen))
			continue;
		p = e->d_name + blen;
		if (*p < '1' || *p > '9')
			continue;
		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || pid <= 0 || pid > INT_MAX)
			continue;
		/* a journal goes with its database file */
		if (mc_ends_with(end, "-journal") || mc_ends_with(end, "-wal") ||
		    mc_ends_with(end, "-shm"))
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		mc_fmt(path, sizeof(path), "%s/%s", dir, e->d_name);
		mc_remove_with_journals(path);
	}
	closedir(d);
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

void mc_free_strings(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void mc_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	mc_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

int mc_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int mc_parse_size(const char *text, unsigned long long *bytes)
{
	unsigned long long value, unit = 1;
	char *end;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno)
		return -1;
	if (*end == 'k' || *end == 'K')
		unit = 1ULL << 10;
	else if (*end == 'M')
		unit = 1ULL << 20;
	else if (*end == 'G')
		unit = 1ULL << 30;
	if (unit > 1)
		end++;
	if (*end || value > ULLONG_MAX / unit)
		return -1;
	*bytes = value * unit;
	return 0;
}

void mc_one_line(char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = ' ';
}

size_t mc_ascii_run(const char *s, size_t len)
{
	size_t i = 0;
	unsigned long long w;

	while (len - i >= 8) {
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ULL)
			break;
		i += 8;
	}
	while (i < len && !((unsigned char)s[i] & 0x80))
		i++;
	return i;
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

static void *job_main(void *arg)
{
	mc_job *j = arg;

	j->rc = j->fn(j->arg, &j->err) ? -1 : 0;
	return NULL;
}

void mc_job_start(mc_job *j, int (*fn)(void *arg, mc_err *err), void *arg, int on_thread)
{
	memset(j, 0, sizeof(*j));
	j->fn = fn;
	j->arg = arg;
	j->live = on_thread && !mc_thread_start(&j->thread, job_main, j);
	if (!j->live)
		job_main(j);
}

int mc_job_wait(mc_job *j, int rc, mc_err *err)
{
	if (j->live)
		pthread_join(j->thread, NULL);
	j->live = 0;
	if (!rc && j->rc)
		*err = j->err;
	return rc || j->rc ? -1 : 0;
}

int mc_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t block, was;
	int failed;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &was);
	failed = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return failed ? -1 : 0;
}

long mc_cores(void)
{
	cpu_set_t set;
	long n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n;
}
