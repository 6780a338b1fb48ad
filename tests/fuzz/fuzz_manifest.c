/*
 * fuzz_manifest: the snapshot store's manifest reader (libFuzzer).
 *
 * The input is the text of a MANIFEST.tsv, as store_open() reads it. The
 * checks:
 *   - only complete lines are read: m.complete ends at the last newline,
 *     and the entries' line numbers are increasing and within the lines;
 *   - the text read in pieces (a line cut short, then the rest appended,
 *     as after a crash and a later fetch) gives the same entries;
 *   - every entry written back as a manifest line (store_manifest_line,
 *     what store_note() appends) reads back as the same entry.
 * Any failed check aborts: libFuzzer keeps the input as a crash.
 */
#include "fuzz.h"
#include "store/store.h"
#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The manifest's header line. */
static const char header[] = "fetched_at\tsource\tevent\tfile\turl\tstatus\tetag\t"
			     "last_modified\tsha256\tformat\tbytes\tstored_bytes\t"
			     "download_bytes\trows\n";

static int same_entry(const store_entry *a, const store_entry *b)
{
	return !strcmp(a->fetched_at, b->fetched_at) && !strcmp(a->source, b->source) &&
	       !strcmp(a->event, b->event) && !strcmp(a->file, b->file) &&
	       !strcmp(a->url, b->url) && a->status == b->status &&
	       !strcmp(a->etag, b->etag) && !strcmp(a->last_modified, b->last_modified) &&
	       !strcmp(a->sha256, b->sha256) && !strcmp(a->format, b->format) &&
	       a->bytes == b->bytes && a->stored_bytes == b->stored_bytes &&
	       a->download_bytes == b->download_bytes && a->rows == b->rows;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	store_manifest m, pieces, back;
	const char *last_nl = NULL;
	size_t i, cut;
	sbuf line;

	store_manifest_init(&m);
	store_manifest_parse(&m, text, size);
	for (i = size; i-- > 0;) {
		if (text[i] == '\n') {
			last_nl = text + i;
			break;
		}
	}
	REQUIRE(m.complete == (last_nl ? (size_t)(last_nl - text) + 1 : 0));
	for (i = 0; i < m.n; i++) {
		REQUIRE(m.entries[i].line >= 1 && m.entries[i].line <= m.lines);
		REQUIRE(i == 0 || m.entries[i].line > m.entries[i - 1].line);
	}

	/* in two reads: up to a cut, then the rest from the first incomplete
	 * line on */
	cut = size ? (size_t)data[0] * size / 256 : 0;
	store_manifest_init(&pieces);
	store_manifest_parse(&pieces, text, cut);
	REQUIRE(pieces.complete <= cut);
	store_manifest_parse(&pieces, text + pieces.complete, size - pieces.complete);
	REQUIRE(pieces.n == m.n && pieces.lines == m.lines);
	for (i = 0; i < m.n; i++)
		REQUIRE(pieces.entries[i].line == m.entries[i].line &&
			same_entry(&pieces.entries[i], &m.entries[i]));
	store_manifest_release(&pieces);

	/* each entry written back (after a header line, as store_note()
	 * writes it) reads back the same */
	sbuf_init(&line);
	for (i = 0; i < m.n; i++) {
		size_t start;

		sbuf_reset(&line);
		sbuf_adds(&line, header);
		start = line.len;
		store_manifest_line(&m.entries[i], &line);
		REQUIRE(!memchr(line.data + start, '\n', line.len - start));
		sbuf_addc(&line, '\n');
		store_manifest_init(&back);
		store_manifest_parse(&back, line.data, line.len);
		REQUIRE(back.n == 1 && back.lines == 2 && back.complete == line.len);
		if (!same_entry(&back.entries[0], &m.entries[i])) {
			fprintf(stderr, "fuzz_manifest: line %lu does not read back as itself:"
				" %s\n", m.entries[i].line, line.data);
			abort();
		}
		store_manifest_release(&back);
	}
	sbuf_release(&line);
	store_manifest_release(&m);
	return 0;
}
