/*
 * test_recahead: records split on a thread of their own come out as the
 * reader gives them: the same fields, lengths, lines, flags and layout in
 * memory, over many batches and records longer than a batch, then the
 * same end or the same failure; a stop while the thread waits returns.
 */
#include "read/recahead.h"
#include "base/util.h"
#include "unit.h"
#include "gzip_fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A export-like text of n records with what readers meet: quoted commas,
 * line ends in cells, CRLF, empty cells, short and long rows, a NUL byte,
 * invalid UTF-8, and every 997th record longer than a batch. */
static void make_text(sbuf *out, unsigned n)
{
	unsigned i, k;

	sbuf_adds(out, "Model,Organization,Parameters,Notes\n");
	for (i = 0; i < n; i++) {
		switch (i % 9) {
		case 0:
			sbuf_addf(out, "model %u,\"Org A, Org B\",%u,plain\n", i, i * 7);
			break;
		case 1:
			sbuf_addf(out, "\"two\nline %u\",,\"\",\"say \"\"hi\"\"\"\r\n", i);
			break;
		case 2:
			sbuf_addf(out, "short %u\n", i);
			break;
		case 3:
			sbuf_addf(out, "wide %u,a,b,c,d,e,f\n", i);
			break;
		case 4:
			sbuf_addf(out, "nul %u,x", i);
			sbuf_add(out, "\0y", 2);
			sbuf_adds(out, ",1,z\n");
			break;
		case 5:
			sbuf_addf(out, "bad %u,\xff\xfe,2,\xc3\xa9t\xc3\xa9\n", i);
			break;
		default:
			sbuf_addf(out, "m%u,o,%u,\"n\n\n\"\n", i, i);
		}
		if (i % 997 == 996) {
			sbuf_addf(out, "long %u,o,1,\"", i);
			for (k = 0; k < RECAHEAD_BATCH_BYTES / 8 + 100; k++)
				sbuf_adds(out, "12345678");
			sbuf_adds(out, "\"\n");
		}
	}
}

/* The work on a cell the read-ahead does on its thread: for a cell of odd
 * length, its length and first bytes. */
static int odd_cell(const char *cell, size_t len, unsigned char out[RECAHEAD_CELL_OUT])
{
	if (len % 2 == 0)
		return 0;
	memset(out, 0, RECAHEAD_CELL_OUT);
	memcpy(out, &len, sizeof(len));
	memcpy(out + sizeof(len), cell, len < 8 ? len : 8);
	return 1;
}

/* Does b's record look as a's in every respect a caller can see? */
static int same_record(const csv_row *a, const csv_row *b)
{
	size_t i;

	if (a->nfields != b->nfields || a->line != b->line || a->end_line != b->end_line ||
	    a->flags != b->flags || a->bad_field != b->bad_field ||
	    a->long_field != b->long_field)
		return 0;
	for (i = 0; i < a->nfields; i++) {
		if (a->lengths[i] != b->lengths[i] ||
		    memcmp(a->fields[i], b->fields[i], a->lengths[i]) ||
		    b->fields[i][b->lengths[i]] != '\0')
			return 0;
		/* one field after the other's NUL, or not, as the reader had it */
		if (i + 1 < a->nfields &&
		    (a->fields[i + 1] == a->fields[i] + a->lengths[i] + 1) !=
		    (b->fields[i + 1] == b->fields[i] + b->lengths[i] + 1))
			return 0;
	}
	return 1;
}

/*
 * Read data with two readers, one directly and one through a read-ahead
 * (both with the row limit max_row, 0 for the default), and compare
 * record by record, then the end. Returns the records compared.
 */
static unsigned long compare(const char *what, const void *data, size_t len, size_t max_row)
{
	csv_reader *plain, *behind;
	recahead *a;
	csv_row want, got;
	mc_err err1 = { "" }, err2 = { "" };
	unsigned long records = 0, differ = 0, cells = 0, cells_differ = 0;
	unsigned char cell[RECAHEAD_CELL_OUT], got_cell[RECAHEAD_CELL_OUT];
	int rc1, rc2, has;

	if (csv_open_mem(&plain, data, len, "t.csv", &err1) ||
	    csv_open_mem(&behind, data, len, "t.csv", &err2)) {
		CHECK(0, "%s: open (%s%s)", what, err1.msg, err2.msg);
		return 0;
	}
	if (max_row) {
		csv_set_max_row(plain, max_row);
		csv_set_max_row(behind, max_row);
	}
	a = recahead_start(behind, 1, odd_cell);
	if (!CHECK(a != NULL, "%s: the read-ahead starts", what))
		return 0;
	CHECK(!recahead_done(a), "%s: not done before the first record", what);
	for (;;) {
		rc1 = csv_next(plain, &want, &err1);
		rc2 = recahead_next(a, &got, &err2);
		if (rc1 != 1 || rc2 != 1)
			break;
		records++;
		if (!same_record(&want, &got) && differ++ < 3)
			CHECK(0, "%s: record %lu (line %lu) is the reader's", what, records, want.line);
		/* the work on column 1, where the thread did it, as done here */
		has = want.nfields > 1 && odd_cell(want.fields[1], want.lengths[1], cell);
		if (recahead_cell(a, got_cell)) {
			if (!has || memcmp(cell, got_cell, sizeof(cell)))
				cells_differ++;
			cells++;
		}
	}
	CHECK(differ == 0, "%s: %lu records, each as the reader gave it", what, records);
	CHECK(cells_differ == 0, "%s: %lu cells worked on the thread, as here", what, cells);
	CHECK(rc1 == rc2, "%s: the same end (%d, %d)", what, rc1, rc2);
	if (rc1 < 0)
		CHECK_STR(err2.msg, err1.msg, "%s: the same failure", what);
	CHECK(recahead_done(a), "%s: done after the end", what);
	rc2 = recahead_next(a, &got, &err2);
	CHECK(rc2 == rc1, "%s: and again on the next call (%d)", what, rc2);
	if (rc1 < 0)
		CHECK_STR(err2.msg, err1.msg, "%s: with the same message", what);
	/* the reader is the caller's again: it read what the plain one did */
	CHECK(csv_bytes_read(behind) == csv_bytes_read(plain), "%s: the same bytes read (%llu)",
	      what, csv_bytes_read(plain));
	recahead_stop(a);
	csv_free(plain);
	csv_free(behind);
	return records;
}

static void test_same_records(void)
{
	sbuf text;
	unsigned char *gz;
	size_t gzlen;
	unsigned long n;

	sbuf_init(&text);
	make_text(&text, 4000);
	n = compare("many batches", text.data, text.len, 0);
	CHECK(n > 4000, "many batches: every record came (%lu)", n);
	n = compare("a row limit", text.data, text.len, 4096);
	CHECK(n > 4000, "a row limit: every record came (%lu)", n);
	compare("an empty input", "", 0, 0);
	compare("a header only", "Model\n", 6, 0);
	compare("no final line end", "Model\nx", 7, 0);
	gz = gzip_bytes(text.data, text.len, 1, &gzlen);
	n = compare("gzip", gz, gzlen, 0);
	CHECK(n > 4000, "gzip: every record came (%lu)", n);
	/* cut short: the reader fails after some records, and so does the
	 * read-ahead, after the same records */
	n = compare("a cut gzip", gz, gzlen / 2, 0);
	CHECK(n > 100 && n < 4000, "a cut gzip: the records before the failure (%lu)", n);
	free(gz);
	sbuf_release(&text);
}

/*
 * The thread does the cell work when it is ahead: the user waits after
 * the first record, so the thread fills the queue, handing batches over
 * while others wait; those come with the work done. (Waiting longer each
 * time on a machine too busy to run the thread meanwhile.)
 */
static void test_cells_ahead(void)
{
	sbuf text;
	csv_reader *r;
	recahead *a;
	csv_row row;
	mc_err err;
	unsigned char out[RECAHEAD_CELL_OUT];
	unsigned long given = 0, odd = 0;
	unsigned wait_ms;

	sbuf_init(&text);
	make_text(&text, 3000);
	for (wait_ms = 100; !given && wait_ms <= 3200; wait_ms *= 2) {
		if (csv_open_mem(&r, text.data, text.len, "t.csv", &err)) {
			CHECK(0, "open (%s)", err.msg);
			break;
		}
		a = recahead_start(r, 1, odd_cell);
		odd = 0;
		if (recahead_next(a, &row, &err) == 1)
			usleep(wait_ms * 1000);
		while (recahead_next(a, &row, &err) == 1) {
			odd += row.nfields > 1 && row.lengths[1] % 2;
			given += recahead_cell(a, out);
		}
		recahead_stop(a);
		csv_free(r);
	}
	CHECK(given > 0 && given <= odd, "a thread ahead does the cell work: %lu of %lu cells",
	      given, odd);
	sbuf_release(&text);
}

/* Stopping early, the thread waiting with every batch full, returns, and
 * frees what it held (the sanitizer and valgrind builds check that). */
static void test_stop(void)
{
	sbuf text;
	csv_reader *r;
	recahead *a;
	csv_row row;
	mc_err err;
	int i, ok = 1;

	sbuf_init(&text);
	make_text(&text, 20000);
	if (csv_open_mem(&r, text.data, text.len, "t.csv", &err)) {
		CHECK(0, "open (%s)", err.msg);
		return;
	}
	a = recahead_start(r, 0, NULL);
	for (i = 0; i < 3; i++)
		ok &= recahead_next(a, &row, &err) == 1;
	CHECK(ok, "stop: three records");
	CHECK(!recahead_done(a), "stop: not done");
	recahead_stop(a);
	/* the first batch (1,024 records or 256 KiB) was split before the
	 * first record came out; a bounded queue stopped the thread long
	 * before the end of the text */
	CHECK(csv_bytes_read(r) > 20000, "stop: the thread read ahead (%llu bytes)",
	      csv_bytes_read(r));
	CHECK(csv_bytes_read(r) < text.len / 2, "stop: within its few batches (%llu of %zu)",
	      csv_bytes_read(r), text.len);
	recahead_stop(NULL);
	csv_free(r);
	sbuf_release(&text);
}

int main(void)
{
	test_same_records();
	test_cells_ahead();
	test_stop();
	return unit_done();
}
