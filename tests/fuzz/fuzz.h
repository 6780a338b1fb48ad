/*
 * fuzz.h: what the libFuzzer harnesses share. REQUIRE(cond) aborts with the
 * condition, file and line when a property fails; libFuzzer then keeps the
 * input as a crash (tests/fuzz/run reports the "check failed" line).
 */
#ifndef MODELCAT_FUZZ_H
#define MODELCAT_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
		abort(); \
	} \
} while (0)

#endif
