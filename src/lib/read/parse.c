#include "read/parse.h"
#include "read/namecount.h"
#include "read/csv.h"
#include "values/normalise.h"
#include "read/recahead.h"
#include "base/sha256.h"
#include "base/strmap.h"
#include "base/textout.h"
#include "base/unicode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cell of the current row that reading changed beyond white space: a
 * name made canonical, or a byte-order mark dropped from a cell's start. */
typedef struct parse_canonical {
	size_t column;             /* its column */
	unsigned changes;          /* unicode_change bits */
} parse_canonical;

/*
 * Cells past ASCII of names columns whose canonical form was made lately,
 * by their bytes. Most of them repeat (an organisation's name in many
 * rows), and making the form again (utf8proc decomposing and composing
 * every character) was 5 % of a parse's main thread. Direct-mapped; a
 * cell longer than CANON_CACHE_BYTES is not kept.
 */
#define CANON_CACHE_SLOTS 256
#define CANON_CACHE_BYTES 1024

typedef struct canon_cached {
	size_t len;                /* the cell's length; 0: an empty slot */
	size_t text_len;           /* with changes: its canonical form's */
	unsigned changes;          /* unicode_change bits (0: as it is) */
	sbuf kept;                 /* the cell's bytes, then its form's */
} canon_cached;

struct parse_export {
	char *path;                /* file name for messages */
	csv_reader *csv;           /* the underlying reader */
	recahead *ahead;           /* its records split on a thread of their
				      own (parse_read_ahead()), or NULL */
	int ahead_cut;             /* the read-ahead was stopped before the
				      end: the records it held are gone */
	const colmap *map;         /* column map (not owned) */
	parse_report_fn *report;   /* where reports go */
	void *report_ctx;          /* its context */
	parse_column *columns;     /* one per header cell */
	size_t ncolumns;           /* entries in columns */
	parse_value *values;       /* per-row values, one per column */
	sbuf *norms;               /* per-column buffers of normalised text */
	sbuf reason;               /* the current row's quarantine reason */
	namecount names;           /* name -> rows loaded with it */
	strmap unknown_enums;      /* "field\tvalue" already reported */
	parse_known_fn *known;     /* the known-row check, or NULL */
	int raw_digests;           /* compute each row's raw digest */
	void *known_ctx;           /* its context */
	size_t key;                /* the model name's column */
	char header_digest[65];    /* see parse_header_digest() */
	size_t *unknown;           /* columns of this row with unknown values */
	size_t nunknown;           /* entries in unknown */
	parse_canonical *canonical; /* cells of this row made canonical */
	size_t ncanonical;         /* entries in canonical */
	canon_cached *canon_cache; /* CANON_CACHE_SLOTS entries */
	sbuf canon;                /* a cell's canonical text, before its
				      normaliser reads it */
	unsigned long rows;        /* data rows read */
	unsigned long quarantined; /* data rows quarantined */
};

static void report(parse_export *p, enum parse_notice kind, const char *fmt, ...)
	MC_PRINTF(3, 4);

static void report(parse_export *p, enum parse_notice kind, const char *fmt, ...)
{
	sbuf msg;
	va_list ap;

	if (!p->report)
		return;
	sbuf_init(&msg);
	va_start(ap, fmt);
	sbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	mc_one_line(msg.data, msg.len);
	p->report(p->report_ctx, kind, msg.data);
	sbuf_release(&msg);
}

/* A short, single-line excerpt of a cell for messages, without quotes. */
static void excerpt_bare(sbuf *out, const char *s, size_t len)
{
	size_t i, n = len > 40 ? 40 : len;

	while (n > 0 && n < len && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	for (i = 0; i < n; i++)
		sbuf_addc(out, (s[i] == '\n' || s[i] == '\r' || s[i] == '\t' || !s[i]) ? ' ' : s[i]);
	if (n < len)
		sbuf_adds(out, "...");
}

/* The same in quotes. */
static void excerpt(sbuf *out, const char *s, size_t len)
{
	sbuf_addc(out, '\'');
	excerpt_bare(out, s, len);
	sbuf_addc(out, '\'');
}

/* Report a model name seen before in this export (row->occurrence > 1). */
static void report_repeat(parse_export *p, const parse_row *row)
{
	sbuf name;

	if (row->occurrence < 2)
		return;
	sbuf_init(&name);
	excerpt_bare(&name, row->name, strlen(row->name));
	report(p, PARSE_NOTICE_ROW, "%s:%lu: model name '%s' repeats (occurrence %zu); kept as"
	       " '%s#%zu'", p->path, row->line, name.data, row->occurrence, name.data,
	       row->occurrence);
	sbuf_release(&name);
}

/* Columns reported one by one; more are counted in one line. */
#define COLUMN_REPORTS 20

static int setup_columns(parse_export *p, const csv_row *header, mc_err *err)
{
	strmap seen;
	sbuf shown;
	size_t i, repeated = 0, unmapped = 0;
	int rc = 0;

	strmap_init(&seen);
	sbuf_init(&shown);
	p->ncolumns = header->nfields;
	p->columns = xcalloc(p->ncolumns, sizeof(*p->columns));
	p->values = xcalloc(p->ncolumns, sizeof(*p->values));
	p->norms = xcalloc(p->ncolumns, sizeof(*p->norms));
	p->unknown = xcalloc(p->ncolumns ? p->ncolumns : 1, sizeof(*p->unknown));
	p->canonical = xcalloc(p->ncolumns ? p->ncolumns : 1, sizeof(*p->canonical));
	for (i = 0; i < p->ncolumns; i++) {
		parse_column *col = &p->columns[i];
		sbuf text;
		const colmap_field *def;
		int added;

		sbuf_init(&p->norms[i]);
		sbuf_init(&text);
		norm_text(header->fields[i], header->lengths[i], &text);
		col->header = sbuf_detach(&text, NULL);
		col->position = i;
		if (!*col->header) {
			sbuf_addf(&text, "column %zu", i + 1);
			col->field = sbuf_detach(&text, NULL);
			col->headerless = 1;
			col->type = COL_TEXT;
			continue;
		}
		def = colmap_lookup(p->map, col->header);
		strmap_get_or_add(&seen, def ? def->name : col->header,
				  strlen(def ? def->name : col->header), &added);
		if (def && added) {
			col->def = def;
			col->field = xstrdup(def->name);
			col->type = def->type;
			col->declared = 1;
			continue;
		}
		col->type = COL_TEXT;
		sbuf_reset(&shown);
		excerpt_bare(&shown, col->header, strlen(col->header));
		if (def || !added) {
			sbuf_addf(&text, "%s (column %zu)", col->header, i + 1);
			col->field = sbuf_detach(&text, NULL);
			if (++repeated <= COLUMN_REPORTS)
				report(p, PARSE_NOTICE_COLUMN, "%s: column %zu '%s' repeats a"
				       " field already in the header; kept as '%s (column %zu)'", p->path, i + 1,
				       shown.data, shown.data, i + 1);
			strmap_get_or_add(&seen, col->field, strlen(col->field), NULL);
		} else {
			col->field = xstrdup(col->header);
			col->unmapped = 1;
			if (++unmapped <= COLUMN_REPORTS)
				report(p, PARSE_NOTICE_UNMAPPED, "%s: column '%s' is not in the"
				       " column map; kept as a text field", p->path, shown.data);
		}
	}
	sbuf_release(&shown);
	if (repeated > COLUMN_REPORTS)
		report(p, PARSE_NOTICE_COLUMN, "%s: %zu more columns repeat a field already in the"
		       " header (the first %d are listed); each kept under its name and column"
		       " number", p->path, repeated - COLUMN_REPORTS, COLUMN_REPORTS);
	if (unmapped > COLUMN_REPORTS)
		report(p, PARSE_NOTICE_UNMAPPED, "%s: %zu more columns are not in the column map"
		       " (the first %d are listed); kept as text fields", p->path,
		       unmapped - COLUMN_REPORTS, COLUMN_REPORTS);
	for (i = 0; i < p->ncolumns; i++)
		if (p->columns[i].type == COL_KEY)
			break;
	p->key = i;
	{
		sha256_ctx ctx;
		size_t k;

		sha256_init(&ctx);
		for (k = 0; k < header->nfields; k++) {
			sha256_update(&ctx, header->fields[k], header->lengths[k]);
			sha256_update(&ctx, "\x1f", 1);
		}
		sha256_update(&ctx, p->map->digest, strlen(p->map->digest));
		sha256_final_hex(&ctx, p->header_digest);
	}
	if (i == p->ncolumns) {
		mc_error(err, "%s:1: no %s name column (expected '%s' or one of its aliases)",
		         p->path, p->map->family, p->map->key);
		rc = -1;
	}
	strmap_release(&seen);
	return rc;
}

/* A parse of the named input, before its reader is opened. */
static parse_export *parse_new(const char *name, const colmap *map,
			       parse_report_fn *report_fn, void *report_ctx)
{
	parse_export *p = xcalloc(1, sizeof(*p));
	size_t i;

	p->path = xstrdup(name);
	p->map = map;
	p->report = report_fn;
	p->report_ctx = report_ctx;
	sbuf_init(&p->reason);
	sbuf_init(&p->canon);
	p->canon_cache = xcalloc(CANON_CACHE_SLOTS, sizeof(*p->canon_cache));
	for (i = 0; i < CANON_CACHE_SLOTS; i++)
		sbuf_init(&p->canon_cache[i].kept);
	namecount_init(&p->names);
	strmap_init(&p->unknown_enums);
	return p;
}

/* Read the header of p's opened reader and set up its columns; frees p
 * on failure. */
static int parse_start(parse_export **out, parse_export *p, int hash_content,
		       mc_err *err)
{
	const char *path = p->path;
	csv_row header;
	int rc;

	/* hashing costs a pass over the content; only when asked for */
	if (hash_content)
		csv_hash_content(p->csv);
	rc = csv_next(p->csv, &header, err);
	if (rc < 0)
		goto fail;
	if (rc == 0) {
		mc_error(err, "%s: empty file: no header", path);
		goto fail;
	}
	if (header.flags & CSV_ROW_TOO_LONG) {
		mc_error(err, "%s:%lu: the header is longer than the limit of %zu bytes "
		         "(column %zu)", path, header.line, CSV_MAX_ROW, header.long_field + 1);
		goto fail;
	}
	if (header.flags & (CSV_ROW_BAD_UTF8 | CSV_ROW_NUL | CSV_ROW_UNTERMINATED)) {
		mc_error(err, "%s:%lu: the header is not valid text (%s)", path, header.line,
		         header.flags & CSV_ROW_UNTERMINATED ? "unterminated quote" :
		         header.flags & CSV_ROW_NUL ? "NUL byte" : "invalid UTF-8");
		goto fail;
	}
	if (setup_columns(p, &header, err))
		goto fail;
	*out = p;
	return 0;
fail:
	parse_free(p);
	return -1;
}

int parse_open(parse_export **out, const char *path, const colmap *map,
	       parse_report_fn *report_fn, void *report_ctx, int hash_content,
	       mc_err *err)
{
	parse_export *p = parse_new(path, map, report_fn, report_ctx);

	*out = NULL;
	if (csv_open(&p->csv, path, err)) {
		parse_free(p);
		return -1;
	}
	return parse_start(out, p, hash_content, err);
}

int parse_open_mem(parse_export **out, const void *data, size_t len, const char *name,
		   const colmap *map, parse_report_fn *report_fn, void *report_ctx,
		   mc_err *err)
{
	parse_export *p = parse_new(name, map, report_fn, report_ctx);

	*out = NULL;
	if (csv_open_mem(&p->csv, data, len, name, err)) {
		parse_free(p);
		return -1;
	}
	return parse_start(out, p, 1, err);
}

const parse_column *parse_columns(const parse_export *p, size_t *n)
{
	*n = p->ncolumns;
	return p->columns;
}

const char *parse_path(const parse_export *p)
{
	return p->path;
}

static void quarantine(parse_export *p, parse_row *row, const char *field,
		       const char *fmt, ...) MC_PRINTF(4, 5);

static void quarantine(parse_export *p, parse_row *row, const char *field,
		       const char *fmt, ...)
{
	va_list ap;

	if (row->quarantined)
		return;
	row->quarantined = 1;
	row->fault_field = field;
	sbuf_reset(&p->reason);
	va_start(ap, fmt);
	sbuf_vaddf(&p->reason, fmt, ap);
	va_end(ap);
	mc_one_line(p->reason.data, p->reason.len);
	row->reason = p->reason.data;
}

/* Does a column hold names (the model's, a list of organisations...),
 * compared in canonical form (docs/normalisation.md, "Names")? */
static int names_column(const parse_column *col)
{
	return col->type == COL_KEY || col->type == COL_LIST;
}

/* The cache slot of a cell: by its length and its first and last bytes;
 * the bytes themselves decide a hit. */
static canon_cached *canon_slot(parse_export *p, const char *cell, size_t len)
{
	uint64_t h = 1469598103934665603ull ^ len;
	size_t i, n = len < 32 ? len : 32;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)cell[i]) * 1099511628211ull;
	for (i = len - n; i < len; i++)
		h = (h ^ (unsigned char)cell[i]) * 1099511628211ull;
	return &p->canon_cache[(h ^ (h >> 29)) % CANON_CACHE_SLOTS];
}

/*
 * The text a names column's normaliser reads: the cell in canonical form
 * (base/unicode.h), in p->canon when that changed it; *changes gets what
 * changed. A cell of ASCII bytes only is canonical already; one that is not
 * valid UTF-8 is read as it is (its row is quarantined).
 */
static void canonical_cell(parse_export *p, const char **cell, size_t *len, unsigned *changes)
{
	canon_cached *c = NULL;
	int rc;

	*changes = 0;
	if (mc_ascii_run(*cell, *len) == *len)
		return;
	if (*len <= CANON_CACHE_BYTES) {
		c = canon_slot(p, *cell, *len);
		if (c->len == *len && !memcmp(c->kept.data, *cell, *len)) {
			if (!c->changes)
				return;
			sbuf_reset(&p->canon);
			sbuf_add(&p->canon, c->kept.data + c->len, c->text_len);
			*changes = c->changes;
			*cell = p->canon.data;
			*len = c->text_len;
			return;
		}
	}
	sbuf_reset(&p->canon);
	rc = unicode_canonical_changes(*cell, *len, &p->canon, changes);
	if (c) {
		c->len = *len;
		c->changes = rc == 1 ? *changes : 0;
		c->text_len = rc == 1 ? p->canon.len : 0;
		sbuf_reset(&c->kept);
		sbuf_add(&c->kept, *cell, *len);
		sbuf_add(&c->kept, p->canon.data, c->text_len);
	}
	if (rc != 1)
		return;
	sbuf_addc(&p->canon, '\0');
	*cell = p->canon.data;
	*len = p->canon.len - 1;
}

/* Does the cell start, after white space, with a byte-order mark (which
 * its normaliser drops with the white space)? */
static int starts_with_bom(const char *cell, size_t len)
{
	size_t i = 0;

	while (i < len && (cell[i] == ' ' || (cell[i] >= '\t' && cell[i] <= '\r')))
		i++;
	return len - i >= 3 && !memcmp(cell + i, "\xef\xbb\xbf", 3);
}

/* Remember, for the row's notices, that column i was changed so. */
static void note_canonical(parse_export *p, size_t i, unsigned changes)
{
	if (!changes)
		return;
	p->canonical[p->ncanonical].column = i;
	p->canonical[p->ncanonical].changes = changes;
	p->ncanonical++;
}

/* Report the cells of a row that is loaded that were made canonical: one
 * notice each, naming the file, the line, the field and what changed. */
static void report_canonical(parse_export *p, const parse_row *row)
{
	sbuf words, value;
	size_t k;

	sbuf_init(&words);
	sbuf_init(&value);
	for (k = 0; k < p->ncanonical; k++) {
		const parse_column *col = &p->columns[p->canonical[k].column];
		const parse_value *v = &p->values[p->canonical[k].column];

		if (!names_column(col)) {
			report(p, PARSE_NOTICE_ROW, "%s:%lu: %s: byte-order mark at the start"
			       " of the cell removed", p->path, row->line, col->field);
			continue;
		}
		sbuf_reset(&words);
		sbuf_reset(&value);
		unicode_describe_changes(p->canonical[k].changes, &words);
		excerpt(&value, col->type == COL_KEY ? row->name : v->norm,
			col->type == COL_KEY ? strlen(row->name) : v->norm_len);
		report(p, PARSE_NOTICE_ROW, "%s:%lu: %s: name normalised (%s): %s", p->path,
		       row->line, col->field, words.data, value.data);
	}
	sbuf_release(&words);
	sbuf_release(&value);
}

/* Normalise one cell of column i into p->norms[i] and p->values[i]. */
static void normalise_cell(parse_export *p, parse_row *row, size_t i,
			   const char *cell, size_t len)
{
	parse_column *col = &p->columns[i];
	parse_value *v = &p->values[i];
	sbuf *out = &p->norms[i];
	char why[NORM_WHY_LEN];
	const char *text = cell;
	size_t text_len = len;
	unsigned changes = 0;
	int status, unknown = 0;

	sbuf_reset(out);
	why[0] = '\0';
	v->raw = cell;
	v->raw_len = len;
	if (names_column(col))
		canonical_cell(p, &text, &text_len, &changes);
	else if (starts_with_bom(cell, len))
		changes = UNICODE_BOM;
	switch (col->type) {
	case COL_KEY:
	case COL_TEXT:
		status = norm_text(text, text_len, out);
		break;
	case COL_LIST:
		status = norm_list(text, text_len, out, why);
		break;
	case COL_NUMBER:
		if (col->def && col->def->rollup)
			status = norm_number_rollup(col->def->unit, cell, len, out, why);
		else if (col->def && col->def->unit)
			status = norm_quantity(col->def->unit, cell, len, out, why);
		else
			status = norm_number(cell, len, out, why);
		break;
	case COL_DATE:
		status = norm_date(cell, len, out, why);
		break;
	case COL_BOOL:
		status = norm_bool(cell, len, out, why);
		break;
	case COL_ENUM:
		status = norm_enum(cell, len, (const char *const *)col->def->known, out, &unknown);
		break;
	default:
		status = NORM_INVALID;
	}
	v->present = status == NORM_OK;
	v->norm = out->data;
	v->norm_len = status == NORM_OK ? out->len : 0;
	if (status == NORM_INVALID) {
		sbuf msg;

		sbuf_init(&msg);
		excerpt(&msg, cell, len);
		quarantine(p, row, col->field, "%s: %s is not a valid %s%s%s", col->field,
			   msg.data, colmap_type_name(col->type), why[0] ? ": " : "", why);
		sbuf_release(&msg);
	} else if (unknown) {
		p->unknown[p->nunknown++] = i;
	}
	if (status == NORM_OK)
		note_canonical(p, i, changes);
}

/* An empty cell, as its normaliser reads it whatever the column's type:
 * empty (NORM_EMPTY, nothing appended, nothing to report). Most cells of
 * an export are empty (57 % of the bench's): they skip the normaliser. */
static void empty_cell(parse_value *v, const char *cell)
{
	v->raw = cell;
	v->raw_len = 0;
	v->norm = cell;             /* "": the reader ends each field with a NUL */
	v->norm_len = 0;
	v->present = 0;
}

/* Report the unknown enumeration values of a row that is loaded, once per
 * field and value in the file. */
static void report_unknown(parse_export *p, const parse_row *row)
{
	sbuf key, value;
	size_t k;
	int added;

	sbuf_init(&key);
	sbuf_init(&value);
	for (k = 0; k < p->nunknown; k++) {
		const parse_column *col = &p->columns[p->unknown[k]];
		const parse_value *v = &p->values[p->unknown[k]];

		sbuf_reset(&key);
		sbuf_addf(&key, "%s\t", col->field);
		sbuf_add(&key, v->norm, v->norm_len);
		strmap_get_or_add(&p->unknown_enums, key.data, key.len, &added);
		if (!added)
			continue;
		sbuf_reset(&value);
		excerpt(&value, v->norm, v->norm_len);
		report(p, PARSE_NOTICE_ROW, "%s:%lu: %s: value %s is not one of the known values;"
		       " kept as given", p->path, row->line, col->field, value.data);
	}
	sbuf_release(&key);
	sbuf_release(&value);
}

static int flags_fault(parse_export *p, parse_row *row, const csv_row *rec)
{
	const char *field = rec->bad_field < p->ncolumns ? p->columns[rec->bad_field].field : NULL;
	const char *longf = rec->long_field < p->ncolumns ? p->columns[rec->long_field].field
							    : NULL;

	if (rec->flags & CSV_ROW_TOO_LONG)
		quarantine(p, row, longf, "%s: the row is longer than the limit of %zu bytes; kept "
			   "in quarantine cut short at the limit", longf ? longf : "?", CSV_MAX_ROW);
	else if (rec->flags & CSV_ROW_UNTERMINATED)
		quarantine(p, row, NULL, "end of file inside a quoted field");
	else if (rec->flags & CSV_ROW_NUL)
		quarantine(p, row, field, "%s: NUL byte in the cell", field ? field : "?");
	else if (rec->flags & CSV_ROW_BAD_UTF8)
		quarantine(p, row, field, "%s: invalid UTF-8 in the cell", field ? field : "?");
	return row->quarantined;
}

void parse_set_known(parse_export *p, parse_known_fn *check, void *ctx)
{
	p->known = check;
	p->known_ctx = ctx;
}

void parse_want_raw_digests(parse_export *p)
{
	p->raw_digests = 1;
}

void parse_header_digest(const parse_export *p, char hex[65])
{
	memcpy(hex, p->header_digest, 65);
}

/*
 * The digest of a record's raw fields: the field count, then the fields as
 * the reader holds them, one after another, each ended by a NUL, hashed in
 * one go. With no NUL inside a field that spells the fields out exactly;
 * a record with one (it is quarantined) is hashed field by field, each
 * after its length, under another tag.
 */
static void raw_digest(const csv_row *rec, unsigned char digest[16])
{
	unsigned char full[32], head[9];
	sha256_ctx ctx;
	size_t i, k, n = rec->nfields;
	int contiguous = n > 0 && !(rec->flags & CSV_ROW_NUL);

	for (i = 0; contiguous && i + 1 < n; i++)
		contiguous = rec->fields[i + 1] == rec->fields[i] + rec->lengths[i] + 1;
	for (k = 0; k < 8; k++)
		head[k] = (unsigned char)(n >> (8 * k));
	head[8] = contiguous ? 'C' : 'L';
	sha256_init(&ctx);
	sha256_update(&ctx, head, sizeof(head));
	if (contiguous) {
		sha256_update(&ctx, rec->fields[0],
			      (size_t)(rec->fields[n - 1] - rec->fields[0]) + rec->lengths[n - 1] + 1);
	} else {
		for (i = 0; i < n; i++) {
			unsigned char len[8];

			for (k = 0; k < 8; k++)
				len[k] = (unsigned char)(rec->lengths[i] >> (8 * k));
			sha256_update(&ctx, len, 8);
			sha256_update(&ctx, rec->fields[i], rec->lengths[i]);
		}
	}
	sha256_final(&ctx, full);
	memcpy(digest, full, 16);
}

/*
 * A row the known-row check recognises: the same bytes as a row loaded
 * before, under the same header and column map, so it reads the same:
 * take its name and occurrence without normalising the other cells.
 */
static int known_row(parse_export *p, parse_row *row, const csv_row *rec, mc_err *err)
{
	sbuf *name = &p->norms[p->key];
	const char *text;
	size_t text_len, ref;
	unsigned changes;
	uint32_t *count;

	if (!p->known || row->quarantined || rec->nfields != p->ncolumns || p->key >= rec->nfields)
		return 0;
	/* the name as the full path reads it: canonical, then trimmed */
	text = rec->fields[p->key];
	text_len = rec->lengths[p->key];
	canonical_cell(p, &text, &text_len, &changes);
	sbuf_reset(name);
	if (norm_text(text, text_len, name) != NORM_OK)
		return 0;
	/* a name not known yet is added with count 0, as the full path
	 * would add it; the count is raised only for a loaded row */
	if (namecount_get(&p->names, name->data, name->len, &count, err))
		return -1;
	if (!p->known(p->known_ctx, name->data, *count + 1, row->raw_digest, &ref))
		return 0;
	row->occurrence = ++*count;
	row->name = name->data;
	row->known = 1;
	row->known_ref = ref;
	note_canonical(p, p->key, changes);
	report_repeat(p, row);
	report_canonical(p, row);
	return 1;
}

_Static_assert(RECAHEAD_CELL_OUT == NAMECOUNT_DIGEST, "a name's digest is a cell's work");

/*
 * On the read-ahead's thread: the digest by which a model name is counted
 * (namecount.h), for a name cell that reading leaves as it is: printable
 * ASCII with no space at either end, which canonical form, trimming and
 * line ends do not change (canonical_cell(), norm_text()). Most names
 * are; their digests are then made beside the normalising, when that
 * thread is ahead (recahead.h).
 */
static int plain_name_digest(const char *cell, size_t len, unsigned char out[RECAHEAD_CELL_OUT])
{
	size_t i;

	if (!len || cell[0] == ' ' || cell[len - 1] == ' ')
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)cell[i] - 0x20u > 0x7eu - 0x20u)
			return 0;
	namecount_digest(cell, len, out);
	return 1;
}

int parse_read_ahead(parse_export *p)
{
	if (!p->ahead && !p->ahead_cut)
		p->ahead = recahead_start(p->csv, p->key, plain_name_digest);
	return p->ahead ? 0 : -1;
}

/* The count of the current row's model name (its normalised text
 * name[0..len), from a cell of raw_len bytes in column), by the digest the
 * read-ahead made of the cell when it made one (the same bytes: a plain
 * name reads as it is written). As namecount_get(). */
static int count_name(parse_export *p, size_t column, const char *name, size_t len,
		      size_t raw_len, uint32_t **count, mc_err *err)
{
	unsigned char digest[RECAHEAD_CELL_OUT];

	if (p->ahead && column == p->key && len == raw_len && recahead_cell(p->ahead, digest))
		return namecount_get_digest(&p->names, digest, count, err);
	return namecount_get(&p->names, name, len, count, err);
}

/* The next record: from the read-ahead, or from the reader. */
static int next_record(parse_export *p, csv_row *rec, mc_err *err)
{
	if (p->ahead)
		return recahead_next(p->ahead, rec, err);
	if (p->ahead_cut)
		return mc_error(err, "%s: the records read ahead were given up", p->path);
	return csv_next(p->csv, rec, err);
}

/* The reader is this thread's again: the read-ahead, if any, is over.
 * Stopped before its end, it took records no parse_next() will see. */
static void reader_back(parse_export *p)
{
	if (!p->ahead)
		return;
	if (!recahead_done(p->ahead))
		p->ahead_cut = 1;
	recahead_stop(p->ahead);
	p->ahead = NULL;
}

int parse_next(parse_export *p, parse_row *row, mc_err *err)
{
	csv_row rec;
	size_t i, key = 0;
	int rc;

	rc = next_record(p, &rec, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return 0;
	memset(row, 0, sizeof(*row));
	row->line = rec.line;
	row->position = p->rows++;
	row->raw_fields = rec.fields;
	row->raw_lengths = rec.lengths;
	row->nraw = rec.nfields;
	row->values = p->values;
	row->nvalues = p->ncolumns;
	row->name = "";
	p->nunknown = 0;
	p->ncanonical = 0;
	if (p->raw_digests || p->known)
		raw_digest(&rec, row->raw_digest);
	flags_fault(p, row, &rec);
	rc = known_row(p, row, &rec, err);
	if (rc < 0)
		goto names_failed;
	if (rc)
		return 1;
	if (rec.nfields != p->ncolumns)
		quarantine(p, row, NULL, "the row has %zu fields, the header has %zu",
			   rec.nfields, p->ncolumns);
	for (i = 0; i < p->ncolumns; i++) {
		if (i >= rec.nfields) {
			static const char empty[1];

			p->values[i].raw = empty;
			p->values[i].raw_len = 0;
			p->values[i].norm = empty;
			p->values[i].norm_len = 0;
			p->values[i].present = 0;
			continue;
		}
		if (rec.lengths[i])
			normalise_cell(p, row, i, rec.fields[i], rec.lengths[i]);
		else
			empty_cell(&p->values[i], rec.fields[i]);
		if (p->columns[i].type == COL_KEY)
			key = i;
		if (p->columns[i].headerless && p->values[i].present) {
			sbuf msg;

			sbuf_init(&msg);
			excerpt(&msg, rec.fields[i], rec.lengths[i]);
			quarantine(p, row, p->columns[i].field,
				   "%s: value %s in a column that has no header",
				   p->columns[i].field, msg.data);
			sbuf_release(&msg);
		}
	}
	if (key < rec.nfields && p->values[key].present) {
		uint32_t *count;

		row->name = p->values[key].norm;
		if (row->quarantined)
			goto out;
		/* only loaded rows take an occurrence number */
		if (count_name(p, key, row->name, p->values[key].norm_len,
			       p->values[key].raw_len, &count, err))
			goto names_failed;
		row->occurrence = ++*count;
		report_repeat(p, row);
	} else {
		quarantine(p, row, p->columns[key].field, "%s: the row has no model name",
			   p->columns[key].field);
	}
out:
	if (row->quarantined) {
		p->quarantined++;
	} else {
		report_canonical(p, row);
		report_unknown(p, row);
	}
	return 1;
names_failed:
	mc_error_prefix(err, "%s:%lu", p->path, rec.line);
	return -1;
}

unsigned long parse_rows_read(const parse_export *p)
{
	return p->rows;
}

unsigned long parse_rows_quarantined(const parse_export *p)
{
	return p->quarantined;
}

int parse_content_sha256(parse_export *p, char hex[65])
{
	reader_back(p);
	return p->ahead_cut ? -1 : csv_content_sha256(p->csv, hex);
}

unsigned long long parse_bytes_read(parse_export *p)
{
	reader_back(p);
	return csv_bytes_read(p->csv);
}

void parse_row_raw_csv(const parse_row *row, sbuf *out)
{
	size_t i;

	for (i = 0; i < row->nraw; i++) {
		if (i)
			sbuf_addc(out, ',');
		textout_csv_field(out, row->raw_fields[i], row->raw_lengths[i]);
	}
}

void parse_free(parse_export *p)
{
	size_t i;

	if (!p)
		return;
	recahead_stop(p->ahead);
	csv_free(p->csv);
	for (i = 0; i < p->ncolumns; i++) {
		free(p->columns[i].header);
		free(p->columns[i].field);
		sbuf_release(&p->norms[i]);
	}
	free(p->columns);
	free(p->values);
	free(p->norms);
	free(p->unknown);
	free(p->canonical);
	sbuf_release(&p->reason);
	sbuf_release(&p->canon);
	for (i = 0; i < CANON_CACHE_SLOTS; i++)
		sbuf_release(&p->canon_cache[i].kept);
	free(p->canon_cache);
	namecount_release(&p->names);
	strmap_release(&p->unknown_enums);
	free(p->path);
	free(p);
}
