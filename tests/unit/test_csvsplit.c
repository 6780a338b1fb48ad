/*
 * test_csvsplit: the block splitters (SSE2, AVX2) and the SSE2 field reader
 * against the byte-by-byte reader, the reference. Every input is read once
 * on the scalar path and again on each other path this CPU has, whole and cut into pieces of
 * several sizes (csv_set_piece), with the default row limit and a small
 * one; everything csv_next reports must be the same, byte for byte: the
 * fields, their lengths, the line numbers, the flags and the fields they
 * name, the bytes read, the byte order mark.
 *
 * Inputs: hand-made cases at the 64-byte block edges, seeded random bytes
 * from a CSV-heavy alphabet (quotes, commas, CR, LF, NUL, UTF-8 and broken
 * UTF-8), seeded random well-formed files (quoted fields with doubled
 * quotes and line ends, empty fields, CRLF, a BOM) with quotes, CRs and
 * LFs planted at block edges, and the bundled export. Seeded and bounded:
 * a few seconds. MODELCAT_SPLIT_ROUNDS=N runs N random inputs of each
 * kind instead of the default (a longer run).
 */
#include "read/csv.h"
#include "base/util.h"
#include "unit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mc_err cerr;

/* Paths this CPU has, after the scalar one. */
static csv_path paths[3];
static size_t npaths;

/* Records the block splitters took, over the whole run. */
static unsigned long long split_total;

/* Inputs compared, and those that differed. */
static unsigned long compared, differed;

/* ---------------------------------------------------------------- random */

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static size_t below(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

/* ---------------------------------------------------------------- reading */

/* Append a number and a separator. */
static void put_num(sbuf *out, unsigned long long n)
{
	sbuf_addf(out, "%llu;", n);
}

/*
 * Everything the reader says about data, read with path, pieces of piece
 * bytes (0: whole) and the row limit max_row (0: the default), into out.
 * *split gets the records the block splitter took.
 */
static void read_dump(const unsigned char *data, size_t len, csv_path path, size_t piece,
		      size_t max_row, sbuf *out, unsigned long long *split)
{
	csv_reader *r;
	csv_row row;
	size_t i;
	int rc;

	sbuf_reset(out);
	*split = 0;
	if (csv_open_mem(&r, data, len, "split.csv", &cerr)) {
		sbuf_addf(out, "open failed: %s", cerr.msg);
		return;
	}
	if (csv_set_path(r, path)) {
		sbuf_adds(out, "no such path");
		csv_free(r);
		return;
	}
	csv_set_piece(r, piece);
	if (max_row)
		csv_set_max_row(r, max_row);
	while ((rc = csv_next(r, &row, &cerr)) == 1) {
		put_num(out, row.line);
		put_num(out, row.end_line);
		put_num(out, row.flags);
		put_num(out, row.flags & (CSV_ROW_NUL | CSV_ROW_BAD_UTF8) ? row.bad_field : 0);
		put_num(out, row.flags & CSV_ROW_TOO_LONG ? row.long_field : 0);
		put_num(out, row.nfields);
		put_num(out, csv_bytes_read(r));
		for (i = 0; i < row.nfields; i++) {
			put_num(out, row.lengths[i]);
			sbuf_add(out, row.fields[i], row.lengths[i]);
			sbuf_addc(out, row.fields[i][row.lengths[i]] == '\0' ? '|' : '!');
		}
		sbuf_addc(out, '\n');
	}
	sbuf_addf(out, "end %d %d %llu", rc, csv_had_bom(r), csv_bytes_read(r));
	*split = csv_rows_split(r);
	csv_free(r);
}

/* Print where two dumps part (for a failing case). */
static void show_difference(const sbuf *want, const sbuf *got)
{
	size_t i = 0, from;

	while (i < want->len && i < got->len && want->data[i] == got->data[i])
		i++;
	from = i > 60 ? i - 60 : 0;
	printf("#   they part at byte %zu of %zu / %zu\n#   want: ", i, want->len, got->len);
	for (size_t k = from; k < want->len && k < i + 40; k++)
		printf("%c", want->data[k] >= 32 && want->data[k] < 127 ? want->data[k] : '.');
	printf("\n#   got:  ");
	for (size_t k = from; k < got->len && k < i + 40; k++)
		printf("%c", got->data[k] >= 32 && got->data[k] < 127 ? got->data[k] : '.');
	printf("\n");
}

/*
 * Compare every block path, whole and in pieces, with the scalar path on
 * data (copied to the heap so that a read past its end is caught). Returns
 * 1 when all agree; reports the first difference.
 */
static int agree(const void *input, size_t len, const char *what)
{
	static const size_t fixed_pieces[] = { 0, 64, 63, 65, 4, 4096 };
	unsigned char *data = xmalloc(len ? len : 1);
	sbuf want, got;
	unsigned long long split;
	size_t k, p, m;
	int ok = 1;

	memcpy(data, input, len);
	sbuf_init(&want);
	sbuf_init(&got);
	for (m = 0; m < 2 && ok; m++) {
		/* the default limit, then one that some records pass */
		size_t max_row = m ? 8 + below(200) : 0;

		read_dump(data, len, CSV_PATH_SCALAR, 0, max_row, &want, &split);
		for (k = 0; k < npaths && ok; k++) {
			for (p = 0; p <= sizeof(fixed_pieces) / sizeof(fixed_pieces[0]) && ok; p++) {
				size_t piece = p < sizeof(fixed_pieces) / sizeof(fixed_pieces[0])
					       ? fixed_pieces[p] : 4 + below(300);

				read_dump(data, len, paths[k], piece, max_row, &got, &split);
				split_total += split;
				if (want.len != got.len || memcmp(want.data, got.data, want.len)) {
					printf("# %s: %s differs from scalar (piece %zu, row limit %zu)\n",
					       what, csv_path_name(paths[k]), piece, max_row);
					show_difference(&want, &got);
					ok = 0;
				}
			}
		}
	}
	compared++;
	if (!ok)
		differed++;
	sbuf_release(&want);
	sbuf_release(&got);
	free(data);
	return ok;
}

/* ---------------------------------------------------------------- inputs */

/* Hand-made: what a block edge can cut. Each is also tried shifted so its
 * interesting byte falls on every position around a 64-byte edge. */
static const char *const edge_cases[] = {
	"a,b,c\n1,2,3\n",
	"\"q\",\"\"\"x\"\"\",\"\"\n",
	"\"multi\nline\r\nfield\",x\r\ny,z\r\n",
	"a,\"b\"c,d\n",            /* text after a closing quote */
	"a,b\"c,d\n",              /* a quote inside an unquoted field */
	"\"unterminated,a\nb",
	"x,\"\r\",\"\n\",\"\r\n\"\n",
	"\xEF\xBB\xBF\"bom\",a\n",
	"a\xEF\xBB\xBF\"x\",b\n",
	"a,\0,b\n\"c\0\",d\n",
	"caf\xC3\xA9,\xFF\xFE,ok\n",
	"\n\n\r\r\n,\n,,\n",
	"last,row,without,newline",
	"\"\"\"\",\"\"\"\"\"\"\n",
	"a,\"b\"\"\n\"\"c\"\n",
	"\r\"x\"\r\"y\"\r",
};

static void test_edges(void)
{
	size_t i, shift, ok = 0, total = 0;
	sbuf in;

	sbuf_init(&in);
	for (i = 0; i < sizeof(edge_cases) / sizeof(edge_cases[0]); i++) {
		size_t len = strlen(edge_cases[i]);

		if (i == 9)
			len = 13; /* the case with NUL bytes: its 13 bytes */
		for (shift = 0; shift < 140; shift++) {
			sbuf_reset(&in);
			/* a filler record that puts the case at offset shift */
			if (shift) {
				size_t k;

				for (k = 0; k + 1 < shift; k++)
					sbuf_addc(&in, k % 7 == 3 ? ',' : 'f');
				sbuf_addc(&in, '\n');
			}
			sbuf_add(&in, edge_cases[i], len);
			sbuf_add(&in, edge_cases[i], len);
			total++;
			ok += agree(in.data, in.len, "edge case");
		}
	}
	CHECK(ok == total, "block-edge cases: %zu of %zu inputs read the same on every path",
	      ok, total);
	sbuf_release(&in);
}

/* Random bytes from an alphabet heavy in what CSV reading turns on. */
static void random_bytes(sbuf *out, size_t len)
{
	static const char *const pieces[] = {
		"a", "b", "0", " ", ",", ",", "\"", "\"", "\"\"", "\n", "\r", "\r\n",
		"\xC3\xA9", "\xE2\x80\x99", "\xFF", "\xC3", "\xEF\xBB\xBF",
	};
	size_t n = sizeof(pieces) / sizeof(pieces[0]);

	sbuf_reset(out);
	while (out->len < len) {
		if (below(200) == 0)
			sbuf_addc(out, '\0');
		else
			sbuf_adds(out, pieces[below(n)]);
	}
}

/* One field, quoted or not, of up to max bytes. */
static void random_field(sbuf *out, size_t max)
{
	size_t len = below(4) ? below(max) : 0, k;
	int quoted = below(3) == 0;

	if (quoted)
		sbuf_addc(out, '"');
	for (k = 0; k < len; k++) {
		size_t pick = below(100);

		if (quoted && pick < 3)
			sbuf_adds(out, "\"\"");
		else if (quoted && pick < 5)
			sbuf_adds(out, pick == 3 ? "\n" : "\r\n");
		else if (quoted && pick < 6)
			sbuf_addc(out, ',');
		else if (pick < 9)
			sbuf_adds(out, "\xC3\xA9");
		else
			sbuf_addc(out, (char)('a' + below(26)));
	}
	if (quoted)
		sbuf_addc(out, '"');
}

/* A well-formed file: rows of fields, LF or CRLF ends, sometimes a BOM. */
static void random_csv(sbuf *out, size_t rows, size_t fields, size_t max_field)
{
	size_t i, k;
	const char *eol = below(3) == 0 ? "\r\n" : "\n";

	sbuf_reset(out);
	if (below(4) == 0)
		sbuf_adds(out, "\xEF\xBB\xBF");
	for (i = 0; i < rows; i++) {
		for (k = 0; k < fields; k++) {
			if (k)
				sbuf_addc(out, ',');
			random_field(out, max_field);
		}
		sbuf_adds(out, eol);
	}
}

/* Plant a quote, CR or LF at bytes next to 64-byte edges. */
static void plant_at_edges(sbuf *s)
{
	static const char planted[] = { '"', '\r', '\n', ',', '\0' };
	size_t edge, n = below(4);

	while (n-- && s->len > 2) {
		edge = (below(s->len / 64 + 1) * 64);
		edge = edge + below(3) - 1;
		if (edge < s->len)
			s->data[edge] = planted[below(sizeof(planted))];
	}
}

static void test_random(size_t rounds)
{
	sbuf in;
	size_t i, ok_bytes = 0, ok_csv = 0, ok_planted = 0;

	sbuf_init(&in);
	for (i = 0; i < rounds; i++) {
		random_bytes(&in, below(700));
		ok_bytes += agree(in.data, in.len, "random bytes");
	}
	CHECK(ok_bytes == rounds, "random bytes: %zu of %zu inputs read the same on every path",
	      ok_bytes, rounds);
	for (i = 0; i < rounds; i++) {
		random_csv(&in, 1 + below(12), 1 + below(9), 1 + below(90));
		ok_csv += agree(in.data, in.len, "random CSV");
	}
	CHECK(ok_csv == rounds, "random well-formed CSV: %zu of %zu inputs read the same",
	      ok_csv, rounds);
	for (i = 0; i < rounds; i++) {
		random_csv(&in, 1 + below(12), 1 + below(9), 1 + below(90));
		plant_at_edges(&in);
		ok_planted += agree(in.data, in.len, "planted CSV");
	}
	CHECK(ok_planted == rounds, "CSV with quotes, CR, LF, NUL at block edges: %zu of %zu "
	      "read the same", ok_planted, rounds);
	sbuf_release(&in);
}

/* The bundled export (gzip: the reader inflates it). */
static void test_real_export(void)
{
	static const char path[] = "snapshots/all_ai_models/2025-04-23.csv.gz";
	FILE *f = fopen(path, "rb");
	sbuf data;
	char block[65536];
	size_t n;

	if (!CHECK(f != NULL, "%s opens", path))
		return;
	sbuf_init(&data);
	while ((n = fread(block, 1, sizeof(block), f)) > 0)
		sbuf_add(&data, block, n);
	fclose(f);
	CHECK(agree(data.data, data.len, path), "%s reads the same on every path", path);
	sbuf_release(&data);
}

int main(void)
{
	const char *env = getenv("MODELCAT_SPLIT_ROUNDS");
	size_t rounds = env && atoi(env) > 0 ? (size_t)atoi(env) : 400;
	csv_reader *probe;
	csv_path p;

	rng_state = UINT64_C(0x9E3779B97F4A7C15);
	if (csv_open_mem(&probe, "a\n", 2, "probe", &cerr))
		return 1;
	for (p = CSV_PATH_FIELDS; p <= CSV_PATH_AVX2; p++)
		if (!csv_set_path(probe, p))
			paths[npaths++] = p;
	csv_free(probe);
	printf("# paths on this CPU besides scalar:");
	for (size_t k = 0; k < npaths; k++)
		printf(" %s", csv_path_name(paths[k]));
	printf("\n");
#if defined(__SSE2__)
	CHECK(npaths >= 2, "the SSE2 field reader and block splitter are available");
#endif
	test_edges();
	test_random(rounds);
	test_real_export();
	CHECK(split_total > 0, "the block splitters took records (%llu; the others went to the "
	      "byte reader)", split_total);
	printf("# %lu inputs compared, %lu differed\n", compared, differed);
	return unit_done();
}
