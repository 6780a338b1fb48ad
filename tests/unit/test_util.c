/*
 * xgrow(): an array grown an element at a time keeps every element, has
 * room for what was asked, and is reallocated a logarithmic number of
 * times, not once per element. strpool: every copy keeps its bytes while
 * others are added, short and long, and the pool is empty after release;
 * strmap's keys, copied into its pool, survive the table's growth.
 * mc_vsnprintf(), sbuf_addf() and mc_fmt() give vsnprintf()'s bytes and
 * result for every format they take a shorter way with, at every buffer
 * size, and hand the others to vsnprintf().
 */
#include "base/strmap.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/strpool.h"
#include "base/printf.h"
#include "base/thread.h"
#include "unit.h"

#include <limits.h>
#include <sched.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

/* The text of copy i: its length varies from 0 to past a block (64 KiB). */
static size_t pool_text(size_t i, char *buf, size_t cap)
{
	size_t len = i % 97 == 96 ? 70000 + i : i % 13 == 0 ? 0 : (i * 7) % 300, k;

	if (len >= cap)
		len = cap - 1;
	for (k = 0; k < len; k++)
		buf[k] = (char)('a' + (i + k) % 26);
	buf[len] = '\0';
	return len;
}

static void check_strpool(void)
{
	enum { N = 3000 };
	static char buf[80000];
	strpool p;
	char **copies = calloc(N, sizeof(*copies));
	size_t i, bad = 0, blocks = 0;
	char *b;

	memset(&p, 0, sizeof(p));
	for (i = 0; i < N; i++) {
		size_t len = pool_text(i, buf, sizeof(buf));

		copies[i] = strpool_add(&p, buf, len);
		if (strlen(copies[i]) != len)
			bad++;
	}
	for (i = 0; i < N; i++) {
		pool_text(i, buf, sizeof(buf));
		bad += strcmp(copies[i], buf) != 0;
	}
	CHECK(bad == 0, "%d copies, short, empty and past a block, each as it was (%zu differ)",
	      N, bad);
	for (b = p.block; b; memcpy(&b, b, sizeof(b)))
		blocks++;
	CHECK(blocks > 1 && blocks < N / 10, "%zu blocks for %d copies", blocks, N);
	CHECK(strpool_dup(&p, NULL) == NULL && !strcmp(strpool_dup(&p, "x y"), "x y"),
	      "strpool_dup(): NULL for NULL, else a copy");
	{
		strpool q, empty;
		char *mine = strpool_add(&p, "mine", 4), *theirs[200];
		size_t before = 0, after = 0, k;

		memset(&q, 0, sizeof(q));
		memset(&empty, 0, sizeof(empty));
		for (b = p.block; b; memcpy(&b, b, sizeof(b)))
			before++;
		for (i = 0; i < 200; i++) {
			size_t len = pool_text(i, buf, sizeof(buf));

			theirs[i] = strpool_add(&q, buf, len);
		}
		for (k = 0, b = q.block; b; memcpy(&b, b, sizeof(b)))
			k++;
		strpool_adopt(&p, &q);
		for (b = p.block; b; memcpy(&b, b, sizeof(b)))
			after++;
		CHECK(!q.block && after == before + k,
		      "adopted: %zu blocks and %zu make %zu, the other pool empty", before, k, after);
		CHECK(!strcmp(strpool_add(&p, "next", 4), "next") && !strcmp(mine, "mine"),
		      "strings added after adopting are kept, and the ones before");
		for (i = 0, bad = 0; i < 200; i++) {
			pool_text(i, buf, sizeof(buf));
			bad += strcmp(theirs[i], buf) != 0;
		}
		for (i = 0; i < N; i++) {
			pool_text(i, buf, sizeof(buf));
			bad += strcmp(copies[i], buf) != 0;
		}
		CHECK(bad == 0, "every copy of both pools as it was (%zu differ)", bad);
		strpool_adopt(&empty, &p);
		CHECK(empty.block && !p.block && !strcmp(mine, "mine"),
		      "an empty pool adopts the whole of another");
		p = empty;
	}
	strpool_release(&p);
	CHECK(!p.block && !p.used && !p.size, "released: empty");
	CHECK(!strcmp(strpool_add(&p, "again", 5), "again"), "a released pool is used again");
	strpool_release(&p);
	free(copies);
}

/* 1 when the calling thread's mask blocks SIGINT, SIGTERM and SIGHUP,
 * 0 when it blocks none of them, -1 otherwise */
static int blocks_stop_signals(void)
{
	sigset_t mask;
	int n;

	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	n = sigismember(&mask, SIGINT) + sigismember(&mask, SIGTERM) +
	    sigismember(&mask, SIGHUP);
	return n == 3 ? 1 : n == 0 ? 0 : -1;
}

static void *thread_mask(void *arg)
{
	*(int *)arg = blocks_stop_signals();
	return NULL;
}

/* mc_thread_start: the thread it starts leaves SIGINT, SIGTERM and SIGHUP
 * to the caller, whose own mask is as it was. */
static void check_thread_start(void)
{
	pthread_t t;
	int seen = -2;

	CHECK(blocks_stop_signals() == 0, "the test's thread takes the stop signals");
	if (!CHECK(mc_thread_start(&t, thread_mask, &seen) == 0, "mc_thread_start: a thread"))
		return;
	pthread_join(t, NULL);
	CHECK(seen == 1, "the thread blocks SIGINT, SIGTERM and SIGHUP (%d)", seen);
	CHECK(blocks_stop_signals() == 0, "the caller still takes them");
}

static int job_fn(void *arg, mc_err *err)
{
	int *n = arg;

	(*n)++;
	return *n > 10 ? mc_error(err, "the job failed at %d", *n) : 0;
}

/* mc_job: run on a thread or here; its failure reported unless the
 * caller's came first. */
static void check_job(void)
{
	mc_err err = { "" };
	mc_job j;
	int n = 0, on;

	for (on = 0; on < 2; on++) {
		n = 0;
		mc_job_start(&j, job_fn, &n, on);
		CHECK(on || n == 1, "not on a thread: done when started");
		CHECK(mc_job_wait(&j, 0, &err) == 0 && n == 1, "on a thread %d: done once, 0", on);
		n = 10;
		mc_job_start(&j, job_fn, &n, on);
		CHECK(mc_job_wait(&j, 0, &err) == -1 && !strcmp(err.msg, "the job failed at 11"),
		      "on a thread %d: its failure and its message (%s)", on, err.msg);
		n = 10;
		mc_error(&err, "the caller failed");
		mc_job_start(&j, job_fn, &n, on);
		CHECK(mc_job_wait(&j, -1, &err) == -1 && !strcmp(err.msg, "the caller failed"),
		      "on a thread %d: the caller's failure first keeps its message", on);
		CHECK(!j.live, "joined");
	}
}

/* mc_read_fd(): a file past one block, after what the buffer held, and
 * a pipe (no size to make room for). */
static void check_read_fd(void)
{
	enum { SIZE = 200000 };
	char *bytes = xmalloc(SIZE), path[] = "/tmp/test_util_read_XXXXXX";
	int fd = mkstemp(path), p[2];
	size_t i, bad = 0;
	sbuf out;

	for (i = 0; i < SIZE; i++)
		bytes[i] = (char)('a' + i % 23);
	if (!CHECK(fd >= 0 && write(fd, bytes, SIZE) == SIZE && lseek(fd, 0, SEEK_SET) == 0,
		   "a file of %d bytes is written", SIZE)) {
		free(bytes);
		return;
	}
	unlink(path);
	sbuf_init(&out);
	sbuf_adds(&out, "head:");
	CHECK(mc_read_fd(fd, &out) == 0, "the file is read");
	close(fd);
	CHECK(out.len == 5 + SIZE && !memcmp(out.data, "head:", 5) &&
	      !memcmp(out.data + 5, bytes, SIZE) && out.data[out.len] == '\0',
	      "appended whole after what the buffer held, ended by a NUL (%zu bytes)", out.len);
	sbuf_reset(&out);
	if (CHECK(pipe(p) == 0, "a pipe")) {
		CHECK(write(p[1], bytes, 1000) == 1000, "1000 bytes into the pipe");
		close(p[1]);
		CHECK(mc_read_fd(p[0], &out) == 0, "the pipe is read to its end");
		close(p[0]);
		for (i = 0; i < 1000 && i < out.len; i++)
			bad += out.data[i] != bytes[i];
		CHECK(out.len == 1000 && !bad, "the pipe's bytes, %zu of them", out.len);
	}
	CHECK(mc_read_fd(-1, &out) == -1, "a descriptor that is not open: -1");
	sbuf_release(&out);
	free(bytes);
}

static void check_strmap_keys(void)
{
	enum { N = 20000 };
	char key[32];
	const char **kept = xcalloc(N, sizeof(*kept));
	strmap m;
	size_t i, bad = 0, wrong = 0;

	strmap_init(&m);
	for (i = 0; i < N; i++) {
		int added;
		size_t len = (size_t)snprintf(key, sizeof(key), "key-%zu", i * 31), *slot;

		slot = strmap_get_or_add(&m, key, len, &added);
		*slot = i + 1;
		bad += !added;
		kept[i] = strmap_key(slot);
		wrong += kept[i] == key || strcmp(kept[i], key) != 0;
	}
	for (i = 0; i < N; i++) {
		size_t len = (size_t)snprintf(key, sizeof(key), "key-%zu", i * 31);

		wrong += strcmp(kept[i], key) != 0 ||
			 strmap_key(strmap_find(&m, key, len)) != kept[i];
	}
	CHECK(wrong == 0, "strmap_key(): the map's own copy of each key, the same after the "
			  "table grew (%zu wrong)", wrong);
	free(kept);
	for (i = 0; i < N; i++) {
		size_t len = (size_t)snprintf(key, sizeof(key), "key-%zu", i * 31), *v;

		v = strmap_find(&m, key, len);
		bad += !v || *v != i + 1;
	}
	for (i = 0; i < m.cap; i++)
		if (m.slots[i].key)
			bad += strlen(m.slots[i].key) != m.slots[i].len ||
			       strncmp(m.slots[i].key, "key-", 4) != 0;
	CHECK(bad == 0 && m.count == N, "%d keys found after the table grew (%zu wrong)", N, bad);
	CHECK(!strmap_find(&m, "key-1", 5), "a key never added is not found");
	strmap_release(&m);
	CHECK(!m.count && !m.cap && !m.keys.block, "released: empty");
}

/* One format with its arguments through mc_vsnprintf() and vsnprintf(),
 * at every buffer size from 0 to past the text: 0 when they agree. */
static int fmt_differs(const char *fmt, ...) MC_PRINTF(1, 2);
static int fmt_differs(const char *fmt, ...)
{
	char want[256], got[256];
	va_list ap, copy;
	int n, m, differs = 0;
	size_t cap;

	va_start(ap, fmt);
	va_copy(copy, ap);
	n = vsnprintf(want, sizeof(want), fmt, copy);
	va_end(copy);
	for (cap = 0; cap <= (size_t)n + 2 && cap <= sizeof(got); cap++) {
		memset(got, 'x', sizeof(got));
		va_copy(copy, ap);
		m = mc_vsnprintf(got, cap, fmt, copy);
		va_end(copy);
		if (m != n || (cap && (memcmp(got, want, cap - 1 < (size_t)n ? cap - 1 : (size_t)n) ||
				       got[cap - 1 < (size_t)n ? cap - 1 : (size_t)n] != '\0')) ||
		    (cap < sizeof(got) && got[cap] != 'x'))
			differs = 1;
	}
	va_end(ap);
	return differs;
}

/* A double spread over every magnitude and sign from a 64-bit state. */
static double any_double(unsigned long long *state)
{
	unsigned long long x;
	double v;

	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	x = *state >> 11;
	v = (double)(x % 10000000) / (double)(1 + (x >> 24) % 1000);
	switch (x % 5) {
	case 0: return -v;
	case 1: return v * 1e9;
	case 2: return v / 1e6;
	case 3: return (double)(long long)(v * 8) / 8;   /* eighths: exact halves and quarters */
	default: return v;
	}
}

/* "%.Nf", "%.*f" and "%.Ns" (taken without vsnprintf(): a page's numbers
 * and stems) as vsnprintf() gives them: ties (0.125, 2.5), values that
 * round to zero from below (-0.0), the edges of the short way (1e15),
 * values it leaves to snprintf() (NaN, infinities, precisions past 3,
 * 1e300, a number longer than its buffer), and a spread of random ones. */
static void check_precision(void)
{
	static const double edges[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, -0.125, 0.25, 0.35, 2.675,
		1.005, 0.05, 0.0005, -0.0004, -0.04, -0.00001, 9.995, 99.95, 999999999999999.9,
		1e15, -1e15, 1e15 - 1, 999999999999999.0, 4503599627370495.5, 1e300, -1e300,
		5e-324, 2.2250738585072014e-308, 123456.789, 1.0 / 3, 2.0 / 3, 1e-7, 7e22
	};
	const double inf = HUGE_VAL;
	const char *volatile none = NULL;
	unsigned long long state = 42;
	size_t i, bad = 0, bad_random = 0, bad_string = 0, bad_other = 0;
	int k;
	char *big, *want;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (k = 0; k <= 8; k++) {
			bad += fmt_differs("%.*f", k, edges[i]);
			bad += fmt_differs("(%.1f|%.2f|%.3f|%.0f)", edges[i], edges[i], edges[i],
					   edges[i]);
		}
	bad += fmt_differs("%.2f %.1f %.*f %.*f", inf, -inf, 2, -inf, 1, nan(""));
	bad += fmt_differs("M%.1f %.1fa3 3 0 1 0 6 0", 123.45, 67.85);
	bad += fmt_differs("left:%.2f%%;top:%.2f%%", 12.345, 99.995);
	bad += fmt_differs("%.*f", -1, 3.25);   /* a negative precision: 6 */
	CHECK(bad == 0, "%%.Nf and %%.*f as vsnprintf() gives them: ties, -0, edges, NaN and "
	      "infinities, precisions past 3 (%zu differ)", bad);
	for (i = 0; i < 100000; i++) {
		double v = any_double(&state);

		bad_random += fmt_differs("%.*f", (int)(i % 4), v);
	}
	CHECK(bad_random == 0, "and 100,000 random values at precisions 0 to 3 (%zu differ)",
	      bad_random);
	bad_string += fmt_differs("%s-%.10s", "a-model", "0123456789abcdef");
	bad_string += fmt_differs("%.4s|%.0s|%.9s|%.*s|%.*s", "2025-05-06", "x", "short", 3,
				  "abcdef", -1, "whole");
	bad_string += fmt_differs("[%.3s][%.6s][%.*s][%s]", none, none, 2, none, none);
	CHECK(bad_string == 0, "%%.Ns and %%.*s as vsnprintf() gives them, NULL too (%zu differ)",
	      bad_string);
	/* a number longer than the short way's buffer */
	want = xmalloc(2000);
	big = xmalloc(2000);
	snprintf(want, 2000, "%.*f", 700, 1.0 / 3);
	mc_fmt(big, 2000, "%.*f", 700, 1.0 / 3);
	bad_other += strcmp(want, big) != 0;
	snprintf(want, 2000, "<%.3f>", -1e300);
	mc_fmt(big, 2000, "<%.3f>", -1e300);
	bad_other += strcmp(want, big) != 0;
	CHECK(bad_other == 0 && strlen(big) > 300, "numbers longer than 512 bytes whole");
	free(want);
	free(big);
}

static void check_format(void)
{
	static const long long ints[] = { 0, 1, -1, 9, 10, -10, 99, 100, 12345, -2147483647 - 1,
					  2147483647, 4294967295LL, LLONG_MAX, LLONG_MIN };
	size_t i, n, bad = 0, bad_sized = 0, bad_other = 0;
	static char want[4096];
	const char *volatile none = NULL;
	char fixed[8];
	sbuf sb;

	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		long long v = ints[i];

		bad += fmt_differs("%d|%i|%u", (int)v, (int)v, (unsigned)v);
		bad_sized += fmt_differs("<h%ld>%lu</h%lld>%llu:%zu;%zd", (long)v,
					 (unsigned long)v, v, (unsigned long long)v, (size_t)v,
					 (ssize_t)v);
	}
	bad += fmt_differs("%s/%s.txt", "pages/en", "a-model-0123456789");
	bad += fmt_differs("%s", none);   /* glibc's "(null)" */
	bad += fmt_differs("%s%s%c%%%c", "", "ä€", 'x', '\n');
	bad += fmt_differs("100%% of %d", 7);
	bad += fmt_differs("no conversion at all");
	bad += fmt_differs("%s", "");
	CHECK(bad == 0, "%%s, %%c, %%d, %%i, %%u and %%%% as vsnprintf() gives them, at every size"
	      " (%zu differ)", bad);
	CHECK(bad_sized == 0, "with l, ll and z as well (%zu differ)", bad_sized);
	/* the formats left to vsnprintf() */
	bad_other += fmt_differs("%5d|%-3s|%.2s|%05u", 42, "a", "abc", 7u);
	bad_other += fmt_differs("%.1f %g %.2e %x %p", 2.25, 1e21, 12345.678, 255u, (void *)0);
	bad_other += fmt_differs("%ls|%lc|%hd|%%%d", L"w", (wint_t)'c', (short)3, 4);
	bad_other += fmt_differs("%.*s|%*d", 3, "abcdef", 4, 5);
	CHECK(bad_other == 0, "width, precision, floats and other conversions as vsnprintf()"
	      " gives them (%zu differ)", bad_other);

	check_precision();

	sbuf_init(&sb);
	for (i = 0, n = 0; i < 200; i++) {
		sbuf_addf(&sb, "<h%zu>%s</h%zu>\n", i % 7, i % 2 ? "odd" : "even", i % 7);
		n += (size_t)snprintf(want + n, sizeof(want) - n, "<h%zu>%s</h%zu>\n", i % 7,
				      i % 2 ? "odd" : "even", i % 7);
	}
	CHECK(sb.len == n && !strcmp(sb.data, want),
	      "sbuf_addf() appends as snprintf() writes, past its first 64 bytes (%zu bytes)",
	      sb.len);
	sbuf_release(&sb);
	mc_fmt(fixed, sizeof(fixed), "%s-%d", "abcdef", 12);
	CHECK_STR(fixed, "abcdef-", "mc_fmt() cuts the text at its buffer's size");
}

/* mc_cores() counts the cores this process may run on: pinned to one, 1. */
static void test_cores(void)
{
	cpu_set_t all, one;
	long before = mc_cores();
	int cpu;

	CHECK(before >= 1 && before <= sysconf(_SC_NPROCESSORS_CONF),
	      "the cores to run on: %ld of %ld", before, sysconf(_SC_NPROCESSORS_CONF));
	if (sched_getaffinity(0, sizeof(all), &all)) {
		CHECK(0, "the affinity reads");
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &all); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (!CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "pinned to core %d", cpu))
		return;
	CHECK(mc_cores() == 1, "pinned to one core: %ld", mc_cores());
	sched_setaffinity(0, sizeof(all), &all);
	CHECK(mc_cores() == before, "unpinned: %ld again", before);
}

int main(void)
{
	size_t *a = NULL, cap = 0, n, grown = 0, bad = 0, before;
	const size_t total = 1000000;
	void *same;

	for (n = 0; n < total; n++) {
		before = cap;
		a = xgrow(a, &cap, n + 1, sizeof(*a));
		if (cap != before)
			grown++;
		if (cap < n + 1)
			bad++;
		a[n] = n * 2654435761u;
	}
	CHECK(bad == 0, "room for every element asked for (%zu short)", bad);
	for (n = 0, bad = 0; n < total; n++)
		bad += a[n] != n * 2654435761u;
	CHECK(bad == 0, "every element kept through the moves (%zu differ)", bad);
	CHECK(grown <= 20, "%zu elements, %zu reallocations (at most 20: doubling)", total, grown);
	CHECK(cap < 2 * total, "capacity %zu within twice the %zu elements", cap, total);

	before = cap;
	same = a;
	a = xgrow(a, &cap, cap, sizeof(*a));
	CHECK(a == same && cap == before, "an array with room is left as it is");
	a = xgrow(a, &cap, 3 * cap, sizeof(*a));
	CHECK(cap >= 3 * before, "a need past twice the capacity is met at once (%zu for %zu)",
	      cap, 3 * before);
	a[3 * before - 1] = 7;
	CHECK(a[0] == 0 && a[total - 1] == (size_t)((total - 1) * 2654435761u) &&
	      a[3 * before - 1] == 7, "the elements kept, the new end writable");
	free(a);

	cap = 0;
	a = xgrow(NULL, &cap, 1, sizeof(*a));
	CHECK(a && cap >= 1, "from nothing: an array of %zu", cap);
	free(a);
	check_strpool();
	check_strmap_keys();
	check_read_fd();
	check_job();
	check_thread_start();
	check_format();
	test_cores();
	return unit_done();
}
