#include "read/csv.h"
#include "read/csvsplit.h"
#include "base/sha256.h"
#include "read/input.h"
#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The environment variable that names the splitter (csv.h, csv_path). */
#define CSV_PATH_ENV "MODELCAT_CSV_PATH"

/*
 * The parser copies each field's text into one row buffer (doubled quotes
 * collapsed), each field followed by a NUL, and records where fields start
 * as offsets: the buffer may move while it grows. At the end of the row the
 * offsets become pointers. Buffers are kept from row to row, so after the
 * largest row nothing more is allocated.
 */

/* What ended a field. */
enum field_end {
	END_COMMA,   /* a comma: another field follows */
	END_LINE,    /* a line end (left unread at r->p) */
	END_INPUT,   /* the end of the input */
	END_ERROR,   /* the input failed; message in the caller's err */
	END_UNQUOTED /* text follows a closing quote (read_quoted() only) */
};

/* Bytes that stop the fast scan: 1 in an unquoted field, 2 in a quoted
 * one. */
static const unsigned char csv_stop[256] = {
	[','] = 1, ['"'] = 3, ['\n'] = 3, ['\r'] = 3, [0] = 3
};

/* Where the reader points before the first block and after the last. */
static const unsigned char csv_nothing[1];

struct csv_reader {
	input *in;                     /* the byte source; owned */
	const unsigned char *chunk;    /* current block (owned by in) */
	const unsigned char *p;        /* next unread byte of the block */
	const unsigned char *end;      /* end of the block */
	unsigned long long base;       /* input bytes before chunk */
	unsigned long line;            /* physical line of the byte at p */
	int after_cr;                  /* the last line end read was a CR: an
					  LF right after it is part of it */
	int started;                   /* the BOM check was done */
	int had_bom;                   /* the input began with a UTF-8 BOM */
	int eof;                       /* the input is exhausted */
	int failed;                    /* an error was reported; csv_next
					  keeps returning -1 */
	sbuf buf;                      /* the current row's field texts, each
					  followed by a NUL */
	size_t *starts;                /* offset in buf of each field; owned */
	size_t *lengths;               /* length of each field; owned, handed
					  out as csv_row.lengths */
	char **fields;                 /* pointers into buf made at the row's
					  end; owned, handed out */
	size_t nfields;                /* fields in the current row */
	size_t cap;                    /* room in starts, lengths, fields */
	size_t max_row;                /* bytes kept of a row (with its NULs) */
	int too_long;                  /* the current row passed max_row */
	size_t long_field;             /* the field in which it did */
	int hashing;                   /* hash the content as it is read */
	sha256_ctx hash;               /* SHA-256 of the content read so far */
	csv_path path;                 /* how records are split */
	size_t piece;                  /* most bytes handed out at once (0:
					  the input's blocks whole) */
	const unsigned char *rest;     /* with piece: the input block's bytes
					  not handed out yet */
	const unsigned char *rest_end; /* the end of that block */
	csvsplit split;                /* the block splitter's fields (with
					  path SSE2 or AVX2) */
	unsigned long long split_rows; /* records the splitter took */
};

/* Per-field facts gathered while scanning. */
struct field_info {
	size_t start;    /* where the field's text starts in the row buffer */
	unsigned high;   /* nonzero if a byte >= 0x80 was seen */
	int nul;         /* a NUL byte was seen */
	unsigned flags;  /* CSV_ROW_STRAY_QUOTE, CSV_ROW_UNTERMINATED */
};

/* Next block into chunk/p/end: 1, 0 at the end of input, -1 on error
 * (message in err, naming the file and the line). */
static int fill(csv_reader *r, mc_err *err)
{
	const unsigned char *data;
	size_t len;
	int rc;

	if (r->eof)
		return 0;
	r->base += (unsigned long long)(r->end - r->chunk);
	r->chunk = r->p = r->end = csv_nothing;
	if (r->rest != r->rest_end) {
		data = r->rest;
		len = (size_t)(r->rest_end - r->rest);
		rc = 1;
	} else {
		rc = input_next(r->in, &data, &len, err);
	}
	if (rc < 0) {
		mc_error_prefix(err, "%s: line %lu", input_name(r->in), r->line);
		r->failed = 1;
		return -1;
	}
	if (rc == 0) {
		r->eof = 1;
		return 0;
	}
	r->rest = r->rest_end = NULL;
	if (r->piece && len > r->piece) {
		r->rest = data + r->piece;
		r->rest_end = data + len;
		len = r->piece;
	}
	r->chunk = r->p = data;
	r->end = data + len;
	if (r->hashing)
		sha256_update(&r->hash, data, len);
	return 1;
}

/* fill() for a caller that holds p and end in locals. */
static int refill(csv_reader *r, const unsigned char **p,
		  const unsigned char **end, mc_err *err)
{
	int rc;

	r->p = *p;
	rc = fill(r, err);
	*p = r->p;
	*end = r->end;
	return rc;
}

/* First byte in [p, end) that can end an unquoted field (or needs a look:
 * a quote or a NUL). ORs bytes >= 0x80 seen before it into *high. With
 * simd 0 (the scalar path) one byte at a time. */
static const unsigned char *scan_unquoted(const unsigned char *p,
					  const unsigned char *end,
					  unsigned *high, int simd)
{
#if defined(__SSE2__)
	const __m128i comma = _mm_set1_epi8(','), quote = _mm_set1_epi8('"');
	const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
	const __m128i zero = _mm_setzero_si128();

	while (simd && end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, comma),
				     _mm_cmpeq_epi8(v, quote)),
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lf),
						  _mm_cmpeq_epi8(v, cr)),
				     _mm_cmpeq_epi8(v, zero)));
		unsigned mask = (unsigned)_mm_movemask_epi8(m);
		unsigned hi = (unsigned)_mm_movemask_epi8(v);

		if (mask) {
			*high |= hi & ((mask & (0u - mask)) - 1u);
			return p + __builtin_ctz(mask);
		}
		*high |= hi;
		p += 16;
	}
#else
	(void)simd;
#endif
	while (p < end && !(csv_stop[*p] & 1)) {
		*high |= *p & 0x80u;
		p++;
	}
	return p;
}

/* The same inside quotes: stops at a quote, a line end or a NUL. */
static const unsigned char *scan_quoted(const unsigned char *p,
					const unsigned char *end,
					unsigned *high, int simd)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"');
	const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
	const __m128i zero = _mm_setzero_si128();

	while (simd && end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, quote),
				     _mm_cmpeq_epi8(v, zero)),
			_mm_or_si128(_mm_cmpeq_epi8(v, lf),
				     _mm_cmpeq_epi8(v, cr)));
		unsigned mask = (unsigned)_mm_movemask_epi8(m);
		unsigned hi = (unsigned)_mm_movemask_epi8(v);

		if (mask) {
			*high |= hi & ((mask & (0u - mask)) - 1u);
			return p + __builtin_ctz(mask);
		}
		*high |= hi;
		p += 16;
	}
#else
	(void)simd;
#endif
	while (p < end && !(csv_stop[*p] & 2)) {
		*high |= *p & 0x80u;
		p++;
	}
	return p;
}

/* The row passed the limit in the current field: keep what fits. */
static size_t row_cut(csv_reader *r)
{
	if (!r->too_long) {
		r->too_long = 1;
		r->long_field = r->nfields;
	}
	return r->buf.len < r->max_row ? r->max_row - r->buf.len : 0;
}

/* Append n bytes to the row buffer, leaving room for a NUL after them;
 * past the row limit the bytes are dropped (the row is flagged). */
static inline void row_add(csv_reader *r, const unsigned char *s, size_t n)
{
	sbuf *b = &r->buf;

	if (r->too_long || n > r->max_row - b->len)
		n = row_cut(r);
	if (b->cap - b->len <= n)
		sbuf_grow(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

/*
 * The quoted part of a field, from just after its opening quote: its text,
 * doubled quotes collapsed, into the row buffer up to the closing quote.
 * *pp and *endp follow the reading. Returns END_COMMA (the comma
 * consumed) or END_LINE when the field ends at its closing quote,
 * END_INPUT, END_ERROR, or END_UNQUOTED when text follows the closing
 * quote (flagged; it is kept as unquoted text).
 */
static inline enum field_end read_quoted(csv_reader *r, struct field_info *fi,
					 const unsigned char **pp,
					 const unsigned char **endp, mc_err *err)
{
	const unsigned char *p = *pp, *end = *endp, *q;
	int cr = 0; /* the byte before was a CR (a CRLF is one line end) */
	enum field_end how;
	int rc;

	for (;;) {
		q = scan_quoted(p, end, &fi->high, r->path != CSV_PATH_SCALAR);
		if (q != p) {
			row_add(r, p, (size_t)(q - p));
			cr = 0;
		}
		p = q;
		if (p == end) {
			rc = refill(r, &p, &end, err);
			if (rc < 0)
				return END_ERROR;
			if (rc == 0) {
				fi->flags |= CSV_ROW_UNTERMINATED;
				how = END_INPUT;
				goto out;
			}
			continue;
		}
		if (*p == '"') {
			if (++p == end) {
				rc = refill(r, &p, &end, err);
				if (rc < 0)
					return END_ERROR;
				if (rc == 0) {
					how = END_INPUT;
					goto out;
				}
			}
			if (*p != '"')
				break; /* the closing quote */
		} else if (*p == '\n') {
			if (!cr)
				r->line++;
		} else if (*p == '\r') {
			r->line++;
		} else {
			fi->nul = 1;
		}
		cr = *p == '\r';
		row_add(r, p, 1);
		p++;
	}
	if (*p == ',') {
		p++;
		how = END_COMMA;
	} else if (*p == '\n' || *p == '\r') {
		how = END_LINE;
	} else {
		/* text after the closing quote: kept, as unquoted text */
		fi->flags |= CSV_ROW_STRAY_QUOTE;
		how = END_UNQUOTED;
	}
out:
	*pp = p;
	*endp = end;
	return how;
}

/* Is the field's text so far exactly a UTF-8 byte-order mark? */
static int bom_only(const csv_reader *r, const struct field_info *fi)
{
	return r->buf.len - fi->start == 3 && !r->too_long &&
	       !memcmp(r->buf.data + fi->start, "\xEF\xBB\xBF", 3);
}

/*
 * Unquoted field text from *pp on into the row buffer, up to a comma
 * (consumed), a line end (left) or the end of the input. *pp and *endp
 * follow the reading. Returns END_COMMA, END_LINE, END_INPUT or END_ERROR.
 */
static inline enum field_end read_unquoted(csv_reader *r, struct field_info *fi,
					   const unsigned char **pp,
					   const unsigned char **endp,
					   mc_err *err)
{
	const unsigned char *p = *pp, *end = *endp, *q;
	enum field_end how;
	int rc;

	for (;;) {
		q = scan_unquoted(p, end, &fi->high, r->path != CSV_PATH_SCALAR);
		row_add(r, p, (size_t)(q - p));
		p = q;
		if (p == end) {
			rc = refill(r, &p, &end, err);
			if (rc < 0)
				return END_ERROR;
			if (rc == 0) {
				how = END_INPUT;
				goto out;
			}
			continue;
		}
		if (*p == ',') {
			p++;
			how = END_COMMA;
			goto out;
		}
		if (*p == '\n' || *p == '\r') {
			how = END_LINE;
			goto out;
		}
		if (*p == '"' && bom_only(r, fi)) {
			/* a byte-order mark before an opening quote (files
			 * joined together): the field is quoted, the mark
			 * kept as its first bytes for the normaliser to drop */
			p++;
			how = read_quoted(r, fi, &p, &end, err);
			if (how == END_ERROR)
				return END_ERROR;
			if (how != END_UNQUOTED)
				goto out;
			continue;
		}
		if (*p == '"')
			fi->flags |= CSV_ROW_STRAY_QUOTE;
		else
			fi->nul = 1;
		row_add(r, p, 1);
		p++;
	}
out:
	*pp = p;
	*endp = end;
	return how;
}

/*
 * Read one field's bytes into the row buffer, from r->p on: its quoted
 * part if it starts with a quote, then any unquoted text. A comma that
 * ends the field is consumed; a line end is left for the caller.
 */
static enum field_end read_field(csv_reader *r, struct field_info *fi,
				 mc_err *err)
{
	const unsigned char *p = r->p, *end = r->end;
	enum field_end how;
	int rc;

	if (p == end) {
		rc = refill(r, &p, &end, err);
		if (rc <= 0)
			return rc < 0 ? END_ERROR : END_INPUT;
	}
	if (*p == '"') {
		p++;
		how = read_quoted(r, fi, &p, &end, err);
		if (how == END_ERROR)
			return END_ERROR;
		if (how != END_UNQUOTED)
			goto out;
	}
	how = read_unquoted(r, fi, &p, &end, err);
	if (how == END_ERROR)
		return END_ERROR;
out:
	r->p = p;
	return how;
}

/*
 * Is [s, s+len) valid UTF-8? ASCII runs are skipped a word at a time and
 * each run of bytes >= 0x80 between them goes to mc_utf8_valid(): a UTF-8
 * sequence never holds an ASCII byte, so checking the runs alone is
 * checking the whole.
 */
static int utf8_ok(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, j;

	while (i < len) {
		i += mc_ascii_run(s + i, len - i);
		for (j = i; j < len && u[j] >= 0x80; j++)
			;
		if (j > i && !mc_utf8_valid(s + i, j - i, NULL))
			return 0;
		i = j;
	}
	return 1;
}

/* Room for n fields in starts, lengths and fields. */
static void fields_room(csv_reader *r, size_t n)
{
	if (n <= r->cap)
		return;
	while (r->cap < n)
		r->cap = r->cap ? r->cap * 2 : 64;
	r->starts = xrealloc(r->starts, r->cap * sizeof *r->starts);
	r->lengths = xrealloc(r->lengths, r->cap * sizeof *r->lengths);
	r->fields = xrealloc(r->fields, r->cap * sizeof *r->fields);
}

/* Close the field that began at offset start: terminate it, record it and
 * fold its facts into the row's flags. */
static void end_field(csv_reader *r, size_t start, const struct field_info *fi,
		      csv_row *row)
{
	sbuf *b = &r->buf;
	size_t len = b->len - start;
	unsigned bad = 0;

	/* past the limit only the field it fell in is kept; one NUL a field
	 * counts too, so a row of nothing but commas is bounded as well */
	if (r->too_long && r->nfields > r->long_field)
		return;
	if (b->len >= r->max_row && !r->too_long)
		row_cut(r);
	fields_room(r, r->nfields + 1);
	if (b->len + 1 > b->cap)
		sbuf_grow(b, 0);
	b->data[b->len++] = '\0';
	if (fi->nul)
		bad |= CSV_ROW_NUL;
	if (fi->high && !utf8_ok(b->data + start, len))
		bad |= CSV_ROW_BAD_UTF8;
	if (bad && !(row->flags & (CSV_ROW_NUL | CSV_ROW_BAD_UTF8)))
		row->bad_field = r->nfields;
	row->flags |= bad | fi->flags;
	r->starts[r->nfields] = start;
	r->lengths[r->nfields] = len;
	r->nfields++;
}

/* Skip a UTF-8 byte order mark at the very start. Blocks are full but for
 * the last, so the first block holds the first three bytes if there are
 * three. */
static int skip_bom(csv_reader *r, mc_err *err)
{
	int rc = fill(r, err);

	if (rc < 0)
		return -1;
	r->started = 1;
	if (r->end - r->p >= 3 && r->p[0] == 0xEF && r->p[1] == 0xBB &&
	    r->p[2] == 0xBF) {
		r->p += 3;
		r->had_bom = 1;
	}
	return 0;
}

/* The text of a quoted field whose quotes are all doubled pairs (the
 * splitter checked), from after its opening quote to before its closing
 * one, to out: each pair becomes one quote. Returns the length written. */
static size_t unquote(char *out, const unsigned char *s, size_t n)
{
	const unsigned char *q;
	size_t len = 0;

	while ((q = memchr(s, '"', n)) != NULL) {
		size_t k = (size_t)(q - s) + 1;

		memcpy(out + len, s, k);
		len += k;
		s += k + 1;
		n -= k + 1;
	}
	memcpy(out + len, s, n);
	return len + n;
}

/*
 * The record at r->p by the block splitter (csvsplit.h): 1 when it took
 * it (its fields in the row buffer and row, r->p at the line end that ends
 * it, r->line past the line ends inside it), 0 when the byte reader must
 * read it (nothing was read). The record is copied whole, each field's
 * comma becoming its NUL; from the first quoted field on, fields move
 * down to where the byte reader puts them.
 */
static int split_record(csv_reader *r, csv_row *row)
{
	csvsplit *s = &r->split;
	const unsigned char *start = r->p;
	size_t k, from = 0, out = 0, n;
	char *buf;

	if (!csvsplit_record(s, start, (size_t)(r->end - start)))
		return 0;
	n = s->nfields;
	/* the row limit is the byte reader's to apply */
	if (s->end + n >= r->max_row)
		return 0;
	if (r->buf.cap <= s->end + 1)
		sbuf_grow(&r->buf, s->end + 1);
	fields_room(r, n);
	buf = r->buf.data;
	memcpy(buf, start, s->end);
	for (k = 0; k < n; k++) {
		size_t to = s->ends[k], len = to - from;

		if (len && start[from] == '"')
			len = unquote(buf + out, start + from + 1, len - 2);
		else if (out != from)
			memcpy(buf + out, start + from, len);
		buf[out + len] = '\0';
		r->starts[k] = out;
		r->lengths[k] = len;
		if (s->high[k] && !utf8_ok(buf + out, len)) {
			if (!(row->flags & CSV_ROW_BAD_UTF8))
				row->bad_field = k;
			row->flags |= CSV_ROW_BAD_UTF8;
		}
		out += len + 1;
		from = to + 1;
	}
	r->buf.len = out;
	r->nfields = n;
	r->line += s->lines;
	r->p = start + s->end;
	r->split_rows++;
	return 1;
}

int csv_next(csv_reader *r, csv_row *row, mc_err *err)
{
	struct field_info fi;
	enum field_end how;
	size_t i;
	int rc;

	if (r->failed)
		return fill(r, err); /* the input fails again, saying why */
	if (!r->started && skip_bom(r, err) < 0)
		return -1;
	/* line ends before the record: blank lines are not records */
	for (;;) {
		if (r->p == r->end) {
			rc = fill(r, err);
			if (rc <= 0)
				return rc;
		}
		if (*r->p == '\n') {
			if (!r->after_cr)
				r->line++;
		} else if (*r->p == '\r') {
			r->line++;
		} else {
			break;
		}
		r->after_cr = *r->p == '\r';
		r->p++;
	}
	r->after_cr = 0;
	r->buf.len = 0;
	r->nfields = 0;
	r->too_long = 0;
	memset(row, 0, sizeof *row);
	row->line = r->line;
	if (r->path >= CSV_PATH_SSE2 && split_record(r, row))
		how = END_LINE;
	else
		do {
			size_t field_start = r->buf.len;

			memset(&fi, 0, sizeof fi);
			fi.start = field_start;
			how = read_field(r, &fi, err);
			if (how == END_ERROR)
				return -1;
			end_field(r, field_start, &fi, row);
		} while (how == END_COMMA);
	row->end_line = r->line;
	if (r->too_long) {
		row->flags |= CSV_ROW_TOO_LONG;
		row->long_field = r->long_field;
	}
	if (how == END_LINE) {
		r->after_cr = *r->p == '\r';
		r->p++;
		r->line++;
	}
	for (i = 0; i < r->nfields; i++)
		r->fields[i] = r->buf.data + r->starts[i];
	row->nfields = r->nfields;
	row->fields = r->fields;
	row->lengths = r->lengths;
	return 1;
}

static const char *const path_names[] = {
	[CSV_PATH_SCALAR] = "scalar",
	[CSV_PATH_FIELDS] = "fields",
	[CSV_PATH_SSE2] = "sse2",
	[CSV_PATH_AVX2] = "avx2",
};

const char *csv_path_name(csv_path path)
{
	return (unsigned)path < sizeof(path_names) / sizeof(path_names[0]) ? path_names[path]
									  : "?";
}

/* Can this CPU and build split records so? */
static int path_available(csv_path path)
{
	switch (path) {
	case CSV_PATH_SCALAR:
		return 1;
	case CSV_PATH_FIELDS:
#if defined(__SSE2__)
		return 1;
#else
		return 0;
#endif
	case CSV_PATH_SSE2:
		return csvsplit_has(CSVSPLIT_SSE2);
	case CSV_PATH_AVX2:
		return csvsplit_has(CSVSPLIT_AVX2);
	}
	return 0;
}

csv_path csv_best_path(void)
{
	const char *want = getenv(CSV_PATH_ENV);
	csv_path path;

	for (path = CSV_PATH_SCALAR; want && path <= CSV_PATH_AVX2; path++)
		if (!strcmp(want, path_names[path]) && path_available(path))
			return path;
	if (path_available(CSV_PATH_AVX2))
		return CSV_PATH_AVX2;
	return path_available(CSV_PATH_FIELDS) ? CSV_PATH_FIELDS : CSV_PATH_SCALAR;
}

int csv_set_path(csv_reader *r, csv_path path)
{
	if (!path_available(path))
		return -1;
	r->path = path;
	csvsplit_release(&r->split);
	csvsplit_init(&r->split, path == CSV_PATH_AVX2 ? CSVSPLIT_AVX2 : CSVSPLIT_SSE2);
	return 0;
}

unsigned long long csv_rows_split(const csv_reader *r)
{
	return r->split_rows;
}

csv_path csv_get_path(const csv_reader *r)
{
	return r->path;
}

void csv_set_piece(csv_reader *r, size_t n)
{
	r->piece = n && n < 4 ? 4 : n;
}

/* Make a reader around an opened input (which it then owns). */
static csv_reader *reader_new(input *in)
{
	csv_reader *r = xcalloc(1, sizeof *r);

	r->in = in;
	csv_set_path(r, csv_best_path());
	r->chunk = r->p = r->end = csv_nothing;
	r->line = 1;
	r->max_row = CSV_MAX_ROW;
	sbuf_init(&r->buf);
	return r;
}

void csv_set_max_row(csv_reader *r, size_t max)
{
	r->max_row = max ? max : 1;
}

int csv_open(csv_reader **out, const char *path, mc_err *err)
{
	input *in;

	if (input_open(&in, path, err) < 0)
		return -1;
	*out = reader_new(in);
	return 0;
}

int csv_open_mem(csv_reader **out, const void *data, size_t len,
		 const char *name, mc_err *err)
{
	input *in;

	if (input_open_mem(&in, data, len, name, err) < 0)
		return -1;
	*out = reader_new(in);
	return 0;
}

unsigned long long csv_bytes_read(const csv_reader *r)
{
	return r->base + (unsigned long long)(r->p - r->chunk);
}

int csv_had_bom(const csv_reader *r)
{
	return r->had_bom;
}

void csv_free(csv_reader *r)
{
	if (!r)
		return;
	input_free(r->in);
	sbuf_release(&r->buf);
	free(r->starts);
	free(r->lengths);
	free(r->fields);
	csvsplit_release(&r->split);
	free(r);
}

void csv_hash_content(csv_reader *r)
{
	r->hashing = 1;
	sha256_init(&r->hash);
}

int csv_content_sha256(csv_reader *r, char hex[65])
{
	if (!r->hashing || !r->eof)
		return -1;
	sha256_final_hex(&r->hash, hex);
	r->hashing = 0;
	return 0;
}
