/*
 * Unit tests for hwlink's matching key and alias table, and hwpage's fit
 * rule: tables of input -> expected. The names are the bundled exports'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/hwlink.h"
#include "publish/hwpage.h"
#include "unit.h"

static void test_key(void)
{
	static const struct { const char *name; int hardware; const char *key; } cases[] = {
		{ "NVIDIA GeForce RTX 4090", 1, "geforcertx4090" },
		{ "geforce rtx-4090", 1, "geforcertx4090" },
		{ "NVIDIA Tesla V100 SXM2", 1, "teslav100sxm2" },
		{ "Google TPU v4", 1, "tpuv4" },
		{ "TPU v4", 1, "tpuv4" },
		{ "AMD Radeon Instinct MI250X", 1, "radeoninstinctmi250x" },
		{ "NVIDIA", 1, "nvidia" },            /* a vendor alone stays */
		{ "Huawei Ascend 910B", 1, "ascend910b" },
		{ "Google TPU v4", 0, "googletpuv4" }, /* models keep every word */
		{ "Grok 3", 0, "grok3" },
		{ "Grok-3", 0, "grok3" },
		{ "GPT-2 (1.5B)", 0, "gpt215b" },
		{ "Xingrui AI (\xe6\x98\x9f\xe7\x9d\xbf" "AI)", 0, "xingruiai\xe6\x98\x9f\xe7\x9d\xbf" "ai" },
		{ "--", 0, "" },
	};
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hwlink_key(cases[i].name, cases[i].hardware, &out);
		CHECK_STR(out.data ? out.data : "", cases[i].key, "key of '%s'%s", cases[i].name,
			  cases[i].hardware ? " (hardware)" : "");
	}
	sbuf_release(&out);
}

static void test_fits(void)
{
	static const struct { double params; int bits; double memory; int fits; } cases[] = {
		{ 43.2e9, 4, 24e9, 1 },             /* 21.6 GB: 90 % of 24 GB */
		{ 43.21e9, 4, 24e9, 0 },
		{ 36e9, 16, 80e9, 1 },              /* 72 GB: 90 % of 80 GB */
		{ 36.01e9, 16, 80e9, 0 },
		{ 72e9, 8, 80e9, 1 },
		{ 144e9, 4, 80e9, 1 },
		{ 10.8e9, 16, 24e9, 1 },
		{ 10.81e9, 16, 24e9, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(hwpage_fits(cases[i].params, cases[i].bits, cases[i].memory) == cases[i].fits,
		      "%g parameters at %d bits %s in %g bytes", cases[i].params, cases[i].bits,
		      cases[i].fits ? "fit" : "do not fit", cases[i].memory);
}

static void test_aliases(void)
{
	char path[] = "/tmp/test_hwlink.XXXXXX", **pairs = NULL;
	size_t n = 0;
	mc_err err;
	FILE *f;
	int fd = mkstemp(path);

	f = fdopen(fd, "w");
	fputs("# a comment\n\nNVIDIA H100 SXM5\tNVIDIA H100 SXM5 80GB\r\n", f);
	fclose(f);
	CHECK(hwlink_aliases_read(path, &pairs, &n, &err) == 0 && n == 1, "an alias file of one line");
	CHECK_STR(n ? pairs[0] : "", "NVIDIA H100 SXM5", "its name as written");
	CHECK_STR(n ? pairs[1] : "", "NVIDIA H100 SXM5 80GB", "the record's name, line end trimmed");
	mc_free_strings(pairs, 2 * n);
	f = fopen(path, "w");
	fputs("# a comment\nno tab here\n", f);
	fclose(f);
	CHECK(hwlink_aliases_read(path, &pairs, &n, &err) == -1 && n == 0, "a line without a TAB fails");
	CHECK(strstr(err.msg, ":2: expected a name, a TAB") != NULL, "naming file and line: %s", err.msg);
	unlink(path);
	CHECK(hwlink_aliases_read(path, &pairs, &n, &err) == 0 && n == 0, "no file: no alias");
}

int main(void)
{
	test_key();
	test_fits();
	test_aliases();
	return unit_done();
}
