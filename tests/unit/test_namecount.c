/*
 * test_namecount: counting model names by digest. Every distinct name has
 * its own count across the table's growth and across spills to the
 * temporary file; the same name, however reached, the same count; names
 * alike but for one byte, or a prefix, are apart; the memory held stops
 * growing at the table's limit; a spill that cannot be written is an error
 * naming the folder, never a count started again.
 */
#include "read/namecount.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int name_of(char *buf, size_t size, size_t i)
{
	return snprintf(buf, size, "Model (copy %zu)", i);
}

/* What the last failing namecount_get() said. */
static mc_err last_err;

/* namecount_get()'s count pointer, or NULL when the call fails. */
static uint32_t *count_of(namecount *nc, const char *name, size_t len)
{
	uint32_t *c;

	namecount_get(nc, name, len, &c, &last_err);
	return c;
}

/* Every name once, then every third name again, then each read back. */
static void once_then_thirds(namecount *nc, size_t n, const char *what)
{
	char name[64];
	size_t i, wrong = 0, lost = 0;
	uint32_t *c;

	for (i = 0; i < n; i++) {
		c = count_of(nc, name, (size_t)name_of(name, sizeof(name), i));
		lost += !c;
		if (c)
			wrong += (*c)++ != 0;
	}
	CHECK(!lost && !wrong && nc->names == n, "%s: %zu distinct names start at 0 (%zu did not)",
	      what, n, wrong);
	for (i = 0; i < n; i += 3) {
		c = count_of(nc, name, (size_t)name_of(name, sizeof(name), i));
		lost += !c;
		if (c)
			++*c;
	}
	for (i = wrong = 0; i < n; i++) {
		c = count_of(nc, name, (size_t)name_of(name, sizeof(name), i));
		lost += !c;
		wrong += !c || *c != (i % 3 ? 1u : 2u);
	}
	CHECK(!lost && !wrong && nc->names == n, "%s: each count is its own (%zu wrong)", what,
	      wrong);
	CHECK(nc->cap <= nc->limit && nc->n * 4 <= nc->cap * 3,
	      "%s: the table stays within its limit, at most 3/4 full (%zu of %zu, limit %zu)",
	      what, nc->n, nc->cap, nc->limit);
}

/* A random stream over a pool of names, some counted and some only looked
 * at (as the known-row check does), against counts kept by name number. */
static void random_against_reference(size_t limit, size_t pool, size_t steps)
{
	namecount nc;
	uint32_t *ref = calloc(pool, sizeof(*ref)), *c;
	unsigned char *seen = calloc(pool, 1);
	unsigned long long x = 88172645463325252ULL, distinct = 0;
	char name[64];
	size_t i, wrong = 0, lost = 0;

	namecount_init(&nc);
	namecount_limit(&nc, limit);
	for (i = 0; i < steps; i++) {
		size_t k;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		k = (size_t)(x % pool);
		distinct += !seen[k];
		seen[k] = 1;
		c = count_of(&nc, name, (size_t)name_of(name, sizeof(name), k));
		if (!c) {
			lost++;
			break;
		}
		wrong += *c != ref[k];
		if (x & 0x100) {
			++*c;
			ref[k]++;
		}
	}
	CHECK(!lost && !wrong, "limit %zu, %zu names, %zu steps: every count read matches (%zu wrong)",
	      limit, pool, steps, wrong);
	CHECK(nc.names == distinct, "limit %zu: %llu distinct names counted (%llu)", limit,
	      nc.names, distinct);
	CHECK(nc.spills > 10 && nc.cap == limit,
	      "limit %zu: the table spilled (%llu times) and never grew past its limit (%zu)",
	      limit, nc.spills, nc.cap);
	namecount_release(&nc);
	free(ref);
	free(seen);
}

static void spill_fails(void)
{
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL, name[64];
	namecount nc;
	size_t i;
	uint32_t *c = NULL;

	setenv("TMPDIR", "/nonexistent/modelcat-folder", 1);
	namecount_init(&nc);
	namecount_limit(&nc, 16);
	for (i = 0; i < 100; i++) {
		c = count_of(&nc, name, (size_t)name_of(name, sizeof(name), i));
		if (!c)
			break;
		++*c;
	}
	CHECK(!c && i == 12, "the first spill that cannot be written fails the call (at name %zu)",
	      i);
	CHECK(strstr(last_err.msg, "/nonexistent/modelcat-folder: cannot make a temporary file") != NULL,
	      "the error names the folder: %s", last_err.msg);
	CHECK(!count_of(&nc, "Model (copy 0)", 14),
	      "after a failed spill every call fails: no count starts again at 0");
	CHECK(strstr(last_err.msg, "/nonexistent/modelcat-folder: the counts of model names were "
		     "lost") != NULL, "and says why: %s", last_err.msg);
	namecount_release(&nc);
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

int main(void)
{
	namecount nc;
	uint32_t *c;

	namecount_init(&nc);
	once_then_thirds(&nc, 200000, "default limit");
	CHECK(nc.spills >= 1 && nc.cap == NAMECOUNT_SLOTS,
	      "200,000 names spill past the default table (%llu spills, %zu slots)", nc.spills,
	      nc.cap);

	c = count_of(&nc, "AMPLIFY", 7);
	++*c;
	CHECK(*count_of(&nc, "AMPLIFY", 7) == 1, "a name counted once reads 1");
	CHECK(*count_of(&nc, "AMPLIFx", 7) == 0 && *count_of(&nc, "AMPLIF", 6) == 0 &&
	      *count_of(&nc, "AMPLIFY ", 8) == 0, "names one byte apart, or a prefix, are apart");
	CHECK(*count_of(&nc, "", 0) == 0, "the empty name is a name like another");
	CHECK(*count_of(&nc, "a\0b", 3) == 0 && *count_of(&nc, "a", 1) == 0,
	      "bytes after a NUL count");
	namecount_release(&nc);
	CHECK(nc.cap == 0 && nc.n == 0 && nc.names == 0 && nc.fd == -1, "released");

	namecount_init(&nc);
	namecount_limit(&nc, 64);
	once_then_thirds(&nc, 5000, "limit 64");
	CHECK(nc.spills > 50, "limit 64: spilled %llu times", nc.spills);
	namecount_release(&nc);

	namecount_init(&nc);
	namecount_limit(&nc, 100);
	CHECK(nc.limit == 128, "a limit is rounded up to a power of two (%zu)", nc.limit);
	namecount_limit(&nc, 3);
	CHECK(nc.limit == 16, "and is at least 16 (%zu)", nc.limit);
	namecount_release(&nc);

	random_against_reference(16, 3000, 40000);
	random_against_reference(1024, 50000, 200000);
	spill_fails();
	return unit_done();
}
