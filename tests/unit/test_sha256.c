/*
 * SHA-256 against the FIPS 180-4 test vectors, with the portable code and
 * (where the CPU has them) the SHA instructions, which must agree on every
 * length and alignment.
 */
#include "base/sha256.h"
#include "unit.h"

#include <stdlib.h>

static void hex_of(const void *data, size_t len, char hex[65])
{
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final_hex(&ctx, hex);
}

static void vectors(const char *which)
{
	static const struct {
		const char *input;
		const char *digest;
	} cases[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	char hex[65], *million;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hex_of(cases[i].input, strlen(cases[i].input), hex);
		CHECK_STR(hex, cases[i].digest, "%s: sha256 of a %zu-byte vector", which,
			  strlen(cases[i].input));
	}
	million = malloc(1000000);
	memset(million, 'a', 1000000);
	hex_of(million, 1000000, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  "%s: sha256 of a million 'a'", which);
	free(million);
}

/* sha256_file() names the file it cannot read. */
static void test_file_error(void)
{
	char hex[65];
	mc_err err = { "" };

	CHECK(sha256_file("tests/no-such-file", hex, NULL, &err) == -1,
	      "a missing file cannot be hashed");
	CHECK_STR(err.msg, "tests/no-such-file: cannot read: No such file or directory",
		  "and the message names it");
}

int main(void)
{
	unsigned char *data = malloc(5000);
	char a[65], b[65];
	size_t i, len, bad = 0;

	for (i = 0; i < 5000; i++)
		data[i] = (unsigned char)(i * 131 + 7);
	sha256_use_hardware(0);
	vectors("portable");
	sha256_use_hardware(1);
	if (sha256_hardware()) {
		vectors("SHA instructions");
		/* every length from 0 to 300, at odd offsets, fed in pieces */
		for (len = 0; len <= 300; len++) {
			sha256_ctx ctx;

			sha256_use_hardware(0);
			hex_of(data + len % 7, len * 13, a);
			sha256_use_hardware(1);
			sha256_init(&ctx);
			sha256_update(&ctx, data + len % 7, len * 6);
			sha256_update(&ctx, data + len % 7 + len * 6, len * 7);
			sha256_final_hex(&ctx, b);
			bad += strcmp(a, b) != 0;
		}
		CHECK(bad == 0, "SHA instructions agree with the portable code (%zu lengths differ)", bad);
	} else {
		printf("# this CPU has no SHA instructions: portable code only\n");
	}
	free(data);
	test_file_error();
	return unit_done();
}
