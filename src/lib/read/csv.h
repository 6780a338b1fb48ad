/*
 * csv: a streaming reader for the exports (RFC 4180 plus what real files do).
 *
 * Input is a byte stream from input.h (.csv, .csv.gz or .zip, detected by
 * content). Records are read one at a time. A record longer than the row
 * limit (CSV_MAX_ROW, csv_set_max_row) is read to its end but kept only up
 * to the limit and flagged CSV_ROW_TOO_LONG, so memory stays bounded
 * whatever the input (a 100 MB cell, an unterminated quote in a 1 GB file).
 * Accepted: quoted fields with doubled quotes and embedded newlines, CRLF,
 * LF or lone CR line ends, a UTF-8 byte order mark at the start. Problems
 * are reported on the row (flags) rather than by stopping: the caller
 * decides whether a row is quarantined.
 *
 * Ownership: the reader owns every byte it hands out. Field pointers in a
 * csv_row stay valid until the next csv_next() or csv_free() on the same
 * reader. Each field is NUL-terminated at fields[i][lengths[i]]; a field may
 * itself contain NUL bytes (the row then has CSV_ROW_NUL set).
 */
#ifndef MODELCAT_CSV_H
#define MODELCAT_CSV_H

#include <stddef.h>

#include "base/error.h"

/* Row flags: what was unusual about the bytes of this record. */
enum {
	CSV_ROW_BAD_UTF8 = 1 << 0,     /* a field holds invalid UTF-8 */
	CSV_ROW_NUL = 1 << 1,          /* a field holds a NUL byte */
	CSV_ROW_UNTERMINATED = 1 << 2, /* end of input inside a quoted field */
	CSV_ROW_STRAY_QUOTE = 1 << 3,  /* a quote inside an unquoted field, or
					  text after a closing quote */
	CSV_ROW_TOO_LONG = 1 << 4      /* the record is longer than the row
					  limit: fields from long_field on are
					  cut short or left out */
};

/* The default row limit: bytes of field text (plus one per field). */
#define CSV_MAX_ROW ((size_t)32 * 1024 * 1024)

typedef struct csv_reader csv_reader;

typedef struct csv_row {
	size_t nfields;           /* number of fields in the record */
	char **fields;            /* field texts, see ownership above */
	size_t *lengths;          /* byte length of each field */
	unsigned long line;       /* physical line the record starts on, 1-based */
	unsigned long end_line;   /* physical line the record ends on */
	unsigned flags;           /* CSV_ROW_* */
	size_t bad_field;         /* with BAD_UTF8 or NUL: first field concerned */
	size_t long_field;        /* with TOO_LONG: the field the limit fell in */
} csv_row;

/*
 * Open path for reading. The format is chosen by content (gzip magic, zip
 * local header magic), not by name; for a zip the first member whose name
 * ends in ".csv" is read (stored or deflated). Returns 0 and sets *out, or
 * -1 with a one-line message in err (naming the file).
 */
int csv_open(csv_reader **out, const char *path, mc_err *err);

/* Read from a memory buffer (plain, gzip or zip, detected the same way).
 * The buffer must outlive the reader. */
int csv_open_mem(csv_reader **out, const void *data, size_t len,
		 const char *name, mc_err *err);

/*
 * Read the next record into *row. Returns 1 for a record, 0 at end of
 * input, -1 on an I/O or decompression error, with a message in err naming
 * the file and the line; after -1 every later call fails too, with the
 * same message. A blank line between
 * records is not a record: it is skipped. Input that ends without a final
 * newline still yields its last record.
 */
int csv_next(csv_reader *r, csv_row *row, mc_err *err);

/*
 * How records are split. The block splitters read 64 bytes at a time into
 * bit masks (quotes, commas, line ends; the inside of quoted fields by a
 * prefix XOR of the quote mask) and find a record's fields from them; a
 * record they cannot take as it is (a quote that is not at a field's edge,
 * a NUL byte, a record running past the block of input in hand) is read
 * by the field reader. The field reader reads field by field, looking for
 * the byte that ends a field 16 bytes at a time (SSE2) or, on the scalar
 * path, one byte at a time: that is the reference. Every path gives the
 * same rows byte for byte. A new reader takes the AVX2 splitter where the
 * CPU has it, else the SSE2 field reader (on the bench export it is faster
 * than the SSE2 block splitter: docs/performance.md), else the scalar
 * one; $MODELCAT_CSV_PATH ("scalar", "fields", "sse2", "avx2") names
 * another, for comparisons and tests, when the CPU has it.
 */
typedef enum csv_path {
	CSV_PATH_SCALAR,  /* the field reader, byte by byte: the reference */
	CSV_PATH_FIELDS,  /* the field reader, 16 bytes at a time (SSE2) */
	CSV_PATH_SSE2,    /* block splitter, 16-byte vectors */
	CSV_PATH_AVX2     /* block splitter, 32-byte vectors, carry-less multiply */
} csv_path;

/* Use path for the records still to read: 0, or -1 when this CPU or build
 * lacks it (the reader keeps its path). */
int csv_set_path(csv_reader *r, csv_path path);
/* The path the reader uses. */
csv_path csv_get_path(const csv_reader *r);
/* The path a new reader takes on this CPU (and $MODELCAT_CSV_PATH). */
csv_path csv_best_path(void);
/* Its name: "scalar", "fields", "sse2" or "avx2". */
const char *csv_path_name(csv_path path);

/* Records the block splitter took so far (the others went byte by byte). */
unsigned long long csv_rows_split(const csv_reader *r);

/* Hand the splitters at most n bytes of input at a time (at least 4, so a
 * byte order mark stays in the first piece): tests use it to put block
 * edges anywhere. 0 goes back to whole blocks. Call before the first
 * csv_next(). */
void csv_set_piece(csv_reader *r, size_t n);

/* Change the row limit (bytes; CSV_MAX_ROW by default, at least 1). */
void csv_set_max_row(csv_reader *r, size_t max);

/* Bytes of decompressed input consumed so far. */
unsigned long long csv_bytes_read(const csv_reader *r);

/* Did the input start with a UTF-8 byte order mark (which was skipped)? */
int csv_had_bom(const csv_reader *r);

/* Hash the content (decompressed bytes) as it is read: call before the
 * first csv_next(). */
void csv_hash_content(csv_reader *r);
/* After csv_next() returned 0: the content's SHA-256 as 64 hex digits.
 * 0, or -1 when hashing was not asked for or the input is not at its end. */
int csv_content_sha256(csv_reader *r, char hex[65]);

/* Close the input and free everything; accepts NULL. */
void csv_free(csv_reader *r);

#endif
