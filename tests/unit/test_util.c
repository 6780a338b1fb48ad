/*
 * xgrow(): an array grown an element at a time keeps every element, has
 * room for what was asked, and is reallocated a logarithmic number of
 * times, not once per element.
 */
#include "base/util.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

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
	return unit_done();
}
