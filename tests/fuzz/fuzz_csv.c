/*
 * fuzz_csv: the CSV reader and the input layer under it (libFuzzer).
 *
 * The input is an export file as it would be on disk: plain CSV, gzip or
 * zip, told by its first bytes as csv_open_mem() does. Every record is read
 * and checked (fields NUL-terminated at their lengths, line numbers that
 * never go back, flags that agree with the bytes, the content hash). Plain
 * input is read a second time wrapped, here, in gzip and in a zip member
 * (stored or deflated): both must give exactly the records and hash the
 * plain reading gave, and so must every record splitter (the byte reader,
 * SSE2, AVX2), whole and cut into pieces, and the read-ahead on a second
 * thread (records, layout, failure and cell work; recahead.h). The fuzzing
 * build uses small input blocks
 * (INPUT_BLOCK), so short inputs cross many block boundaries.
 *
 * Any failed check aborts: libFuzzer keeps the input as a crash.
 */
#define ZLIB_CONST
#include "fuzz.h"
#include "read/csv.h"
#include "read/input.h"
#include "read/recahead.h"
#include "base/sha256.h"
#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* What the last failing reader call said. */
static mc_err cerr;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* compressed inputs inflate to at most this: a bomb is cut short
	 * quickly, and the cap's own error path is exercised */
	setenv("MODELCAT_MAX_INFLATED", "16M", 1);
	return 0;
}

/* Append a number to a record dump. */
static void dump_num(sbuf *out, const char *what, unsigned long long n)
{
	sbuf_addf(out, "%s%llu ", what, n);
}

/* The cell work the read-ahead is given: a cell's length and first
 * bytes. */
static int cell_work(const char *cell, size_t len, unsigned char out[RECAHEAD_CELL_OUT])
{
	memset(out, 0, RECAHEAD_CELL_OUT);
	memcpy(out, &len, sizeof(len));
	memcpy(out + sizeof(len), cell, len < 8 ? len : 8);
	return len % 3 != 1;
}

/* The next record, from the read-ahead when there is one. */
static int next_record(csv_reader *r, recahead *a, csv_row *row)
{
	return a ? recahead_next(a, row, &cerr) : csv_next(r, row, &cerr);
}

/*
 * Read everything from an opened reader into dump (one entry per record),
 * checking each record; with ahead, through a read-ahead (recahead.h)
 * given cell_work() on the second column, whose results are checked; with
 * layout, the dump says whether each record's fields follow one another.
 * Returns 0 at the end of input, -1 after a read error. The content hash
 * goes to sha ("" when there was an error).
 */
static int read_all(csv_reader *r, int ahead, int layout, sbuf *dump, char sha[65])
{
	unsigned long last_line = 0;
	unsigned char want[RECAHEAD_CELL_OUT], got[RECAHEAD_CELL_OUT];
	recahead *a = NULL;
	csv_row row;
	size_t i, k;
	int rc;

	sha[0] = '\0';
	csv_hash_content(r);
	if (ahead)
		REQUIRE((a = recahead_start(r, 1, cell_work)) != NULL);
	while ((rc = next_record(r, a, &row)) == 1) {
		unsigned expect = 0;

		REQUIRE(row.nfields >= 1);
		REQUIRE(row.line >= 1 && row.line > last_line);
		REQUIRE(row.end_line >= row.line);
		last_line = row.end_line;
		for (i = 0; i < row.nfields; i++) {
			REQUIRE(row.fields[i][row.lengths[i]] == '\0');
			if (memchr(row.fields[i], '\0', row.lengths[i]))
				expect |= CSV_ROW_NUL;
			if (!mc_utf8_valid(row.fields[i], row.lengths[i], NULL))
				expect |= CSV_ROW_BAD_UTF8;
		}
		REQUIRE((row.flags & (CSV_ROW_NUL | CSV_ROW_BAD_UTF8)) == expect);
		if (expect) {
			k = row.bad_field;
			REQUIRE(k < row.nfields);
			REQUIRE(memchr(row.fields[k], '\0', row.lengths[k]) ||
				!mc_utf8_valid(row.fields[k], row.lengths[k], NULL));
		}
		if (a && recahead_cell(a, got))
			REQUIRE(row.nfields > 1 && cell_work(row.fields[1], row.lengths[1], want) &&
				!memcmp(want, got, sizeof(want)));
		if (layout) {
			for (i = 0; i + 1 < row.nfields; i++)
				if (row.fields[i + 1] != row.fields[i] + row.lengths[i] + 1)
					break;
			dump_num(dump, "C", i + 1 >= row.nfields);
		}
		dump_num(dump, "L", row.line);
		dump_num(dump, "E", row.end_line);
		dump_num(dump, "F", row.flags);
		dump_num(dump, "N", row.nfields);
		for (i = 0; i < row.nfields; i++) {
			dump_num(dump, "", row.lengths[i]);
			sbuf_add(dump, row.fields[i], row.lengths[i]);
		}
		sbuf_addc(dump, '\n');
	}
	if (rc < 0) {
		REQUIRE(cerr.msg[0] != '\0');
		sbuf_adds(dump, cerr.msg);
		REQUIRE(next_record(r, a, &row) == -1);
		REQUIRE(!a || recahead_done(a));
		recahead_stop(a);
		return -1;
	}
	REQUIRE(next_record(r, a, &row) == 0);
	REQUIRE(!a || recahead_done(a));
	recahead_stop(a);
	REQUIRE(csv_content_sha256(r, sha) == 0);
	return 0;
}

/* gzip (or raw deflate for a zip member: raw = 1) of data into out. */
static void deflate_into(const uint8_t *data, size_t size, int raw, sbuf *out)
{
	unsigned char block[16384];
	z_stream zs;
	int zrc;

	memset(&zs, 0, sizeof(zs));
	REQUIRE(deflateInit2(&zs, 1, Z_DEFLATED, raw ? -MAX_WBITS : 16 + MAX_WBITS, 8,
			     Z_DEFAULT_STRATEGY) == Z_OK);
	zs.next_in = data;
	zs.avail_in = (uInt)size;
	do {
		zs.next_out = block;
		zs.avail_out = sizeof(block);
		zrc = deflate(&zs, Z_FINISH);
		REQUIRE(zrc == Z_OK || zrc == Z_STREAM_END || zrc == Z_BUF_ERROR);
		sbuf_add(out, block, sizeof(block) - zs.avail_out);
	} while (zrc != Z_STREAM_END);
	deflateEnd(&zs);
}

static void le16(sbuf *out, unsigned v)
{
	sbuf_addc(out, (char)(v & 0xff));
	sbuf_addc(out, (char)(v >> 8 & 0xff));
}

static void le32(sbuf *out, unsigned long v)
{
	le16(out, (unsigned)(v & 0xffff));
	le16(out, (unsigned)(v >> 16 & 0xffff));
}

/* A zip archive holding data as the member "export.csv", deflated or
 * stored. */
static void zip_into(const uint8_t *data, size_t size, int deflated, sbuf *out)
{
	static const char name[] = "export.csv";
	unsigned long crc = crc32(0, data, (uInt)size);
	size_t nlen = sizeof(name) - 1, cd_start, cd_len;
	sbuf body;

	sbuf_init(&body);
	if (deflated)
		deflate_into(data, size, 1, &body);
	else
		sbuf_add(&body, data, size);
	/* local header */
	le32(out, 0x04034b50UL);
	le16(out, 20);
	le16(out, 0);
	le16(out, deflated ? 8 : 0);
	le16(out, 0);
	le16(out, 0);
	le32(out, crc);
	le32(out, (unsigned long)body.len);
	le32(out, (unsigned long)size);
	le16(out, (unsigned)nlen);
	le16(out, 0);
	sbuf_add(out, name, nlen);
	sbuf_add(out, body.data, body.len);
	/* central directory */
	cd_start = out->len;
	le32(out, 0x02014b50UL);
	le16(out, 20);
	le16(out, 20);
	le16(out, 0);
	le16(out, deflated ? 8 : 0);
	le16(out, 0);
	le16(out, 0);
	le32(out, crc);
	le32(out, (unsigned long)body.len);
	le32(out, (unsigned long)size);
	le16(out, (unsigned)nlen);
	le16(out, 0);
	le16(out, 0);
	le16(out, 0);
	le16(out, 0);
	le32(out, 0);
	le32(out, 0);
	sbuf_add(out, name, nlen);
	cd_len = out->len - cd_start;
	/* end of central directory */
	le32(out, 0x06054b50UL);
	le16(out, 0);
	le16(out, 0);
	le16(out, 1);
	le16(out, 1);
	le32(out, (unsigned long)cd_len);
	le32(out, (unsigned long)cd_start);
	le16(out, 0);
	sbuf_release(&body);
}

/* Read a wrapped copy of plain input: the same records and hash. */
static void check_wrapped(const sbuf *wrapped, const sbuf *want, const char *want_sha)
{
	csv_reader *r = NULL;
	char sha[65];
	sbuf dump;

	sbuf_init(&dump);
	if (csv_open_mem(&r, wrapped->data, wrapped->len, "wrapped", &cerr)) {
		fprintf(stderr, "fuzz_csv: the wrapped copy does not open: %s\n", cerr.msg);
		abort();
	}
	if (read_all(r, 0, 0, &dump, sha)) {
		fprintf(stderr, "fuzz_csv: the wrapped copy does not read: %s\n", cerr.msg);
		abort();
	}
	REQUIRE(dump.len == want->len && !memcmp(dump.data, want->data, dump.len));
	REQUIRE(!strcmp(sha, want_sha));
	csv_free(r);
	sbuf_release(&dump);
}

/* Read plain input again on every splitter the CPU has (csv.h,
 * csv_path), whole and in pieces whose size follows the input's: the
 * same records and hash as the first reading. */
static void check_paths(const uint8_t *data, size_t size, const sbuf *want,
			const char *want_sha)
{
	csv_path path;
	size_t piece;

	for (path = CSV_PATH_SCALAR; path <= CSV_PATH_AVX2; path++) {
		for (piece = 0; piece <= 1; piece++) {
			csv_reader *r = NULL;
			char sha[65];
			sbuf dump;

			REQUIRE(csv_open_mem(&r, data, size, "fuzz.csv", &cerr) == 0);
			if (csv_set_path(r, path)) {
				csv_free(r);
				break;
			}
			if (piece)
				csv_set_piece(r, 4 + size % 97);
			sbuf_init(&dump);
			REQUIRE(read_all(r, 0, 0, &dump, sha) == 0);
			REQUIRE(dump.len == want->len && !memcmp(dump.data, want->data, dump.len));
			REQUIRE(!strcmp(sha, want_sha));
			csv_free(r);
			sbuf_release(&dump);
		}
	}
}

/* Read the input again, with the layout of the records, directly and
 * through a read-ahead: the same records, layout, end or failure
 * (message included), and hash. */
static void check_ahead(const uint8_t *data, size_t size, int want_rc)
{
	char sha1[65], sha2[65];
	sbuf dump1, dump2;
	int ahead;

	sbuf_init(&dump1);
	sbuf_init(&dump2);
	for (ahead = 0; ahead <= 1; ahead++) {
		csv_reader *r = NULL;
		int rc;

		REQUIRE(csv_open_mem(&r, data, size, "fuzz.csv", &cerr) == 0);
		rc = read_all(r, ahead, 1, ahead ? &dump2 : &dump1, ahead ? sha2 : sha1);
		REQUIRE(rc == want_rc);
		csv_free(r);
	}
	REQUIRE(dump1.len == dump2.len && !memcmp(dump1.data, dump2.data, dump1.len));
	REQUIRE(!strcmp(sha1, sha2));
	sbuf_release(&dump1);
	sbuf_release(&dump2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	csv_reader *r = NULL;
	char sha[65], want_sha[65];
	sha256_ctx ctx;
	int plain, rc;
	sbuf dump, wrapped;

	sbuf_init(&dump);
	sbuf_init(&wrapped);
	plain = !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b) &&
		!(size >= 4 && !memcmp(data, "PK\3\4", 4));
	if (csv_open_mem(&r, data, size, "fuzz.csv", &cerr)) {
		/* only a zip can fail to open (its directory is read at once) */
		REQUIRE(!plain && cerr.msg[0]);
		goto out;
	}
	rc = read_all(r, 0, 0, &dump, sha);
	csv_free(r);
	r = NULL;
	check_ahead(data, size, rc);
	if (!plain)
		goto out;
	/* plain bytes are read as they are: never an error, and the content
	 * hash is the hash of the bytes */
	REQUIRE(rc == 0);
	sha256_init(&ctx);
	sha256_update(&ctx, data, size);
	sha256_final_hex(&ctx, want_sha);
	REQUIRE(!strcmp(sha, want_sha));
	check_paths(data, size, &dump, want_sha);
	if (!size)
		goto out;
	deflate_into(data, size, 0, &wrapped);
	check_wrapped(&wrapped, &dump, want_sha);
	sbuf_reset(&wrapped);
	zip_into(data, size, size % 2, &wrapped);
	check_wrapped(&wrapped, &dump, want_sha);
out:
	csv_free(r);
	sbuf_release(&dump);
	sbuf_release(&wrapped);
	return 0;
}
