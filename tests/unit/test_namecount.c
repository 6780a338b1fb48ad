/*
 * test_namecount: counting model names by digest. Every distinct name has
 * its own count across the table's growth; the same name, however reached,
 * the same count; names alike but for one byte, or a prefix, are apart.
 */
#include "namecount.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
	enum { N = 200000 };
	namecount nc;
	char name[64];
	size_t i, wrong = 0;
	uint32_t *c;

	namecount_init(&nc);
	/* every name once, then every third name again */
	for (i = 0; i < N; i++) {
		int len = snprintf(name, sizeof(name), "Model (copy %zu)", i);

		c = namecount_get(&nc, name, (size_t)len);
		wrong += *c != 0;
		++*c;
	}
	CHECK(wrong == 0 && nc.n == N, "%d distinct names start at 0 (%zu did not)", N, wrong);
	for (i = 0; i < N; i += 3) {
		int len = snprintf(name, sizeof(name), "Model (copy %zu)", i);

		++*namecount_get(&nc, name, (size_t)len);
	}
	for (i = wrong = 0; i < N; i++) {
		int len = snprintf(name, sizeof(name), "Model (copy %zu)", i);

		wrong += *namecount_get(&nc, name, (size_t)len) != (i % 3 ? 1u : 2u);
	}
	CHECK(wrong == 0 && nc.n == N, "after the table grew, each count is its own (%zu wrong)",
	      wrong);
	CHECK(nc.cap * 3 >= nc.n * 4, "the table stays at most 3/4 full (%zu of %zu)", nc.n, nc.cap);

	c = namecount_get(&nc, "AMPLIFY", 7);
	++*c;
	CHECK(*namecount_get(&nc, "AMPLIFY", 7) == 1, "a name counted once reads 1");
	CHECK(*namecount_get(&nc, "AMPLIFx", 7) == 0 && *namecount_get(&nc, "AMPLIF", 6) == 0 &&
	      *namecount_get(&nc, "AMPLIFY ", 8) == 0, "names one byte apart, or a prefix, are apart");
	CHECK(*namecount_get(&nc, "", 0) == 0, "the empty name is a name like another");
	CHECK(*namecount_get(&nc, "a\0b", 3) == 0 && *namecount_get(&nc, "a", 1) == 0,
	      "bytes after a NUL count");
	namecount_release(&nc);
	CHECK(nc.cap == 0 && nc.n == 0, "released");
	return unit_done();
}
