/* zlib's next_in is then a pointer to const: blocks handed out by input
 * go to deflate without a cast. */
#define ZLIB_CONST
#include "store/store.h"
#include "store/naming.h"
#include "store/listing.h"
#include "db/manifest.h"
#include "read/csv.h"
#include "base/sha256.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The manifest's columns, in order: its header line. */
#define STORE_FIELDS 14
static const char *const manifest_columns[STORE_FIELDS] = {
	"fetched_at", "source", "event", "file", "url", "status", "etag",
	"last_modified", "sha256", "format", "bytes", "stored_bytes",
	"download_bytes", "rows"
};

/* A content hash computed from a file the manifest does not describe. */
typedef struct known_hash {
	char *file;                  /* relative to the store; owned */
	char sha[65];                /* of the decompressed content */
} known_hash;

struct store {
	char *dir;                   /* as given; owned */
	char *abs_dir;               /* its absolute path: names the store in
					the catalogue; owned */
	int lock_fd;                 /* dir, open and flock'ed; -1 if not */
	int created;                 /* store_open() made the folder */
	store_manifest manifest;     /* the manifest's lines, oldest first */
	known_hash *hashes;          /* hashes computed so far */
	size_t nhashes;              /* entries in hashes */
};

void store_format_time(time_t when, char buf[21])
{
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(buf, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- small file helpers ---- */

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* mkdir -p; *made tells whether the last folder was created. */
static int make_dirs(const char *dir, int *made, mc_err *err)
{
	char path[PATH_MAX], *p;

	*made = 0;
	mc_fmt(path, sizeof(path), "%s", dir);
	for (p = path + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			*made = !mkdir(path, 0755);
			if (!*made && errno != EEXIST) {
				mc_error(err, "%s: cannot create: %s", path, strerror(errno));
				return -1;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	return 0;
}

/* ---- the manifest file ---- */

static void escape_field(sbuf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': sbuf_adds(out, "\\\\"); break;
		case '\t': sbuf_adds(out, "\\t"); break;
		case '\n': sbuf_adds(out, "\\n"); break;
		case '\r': sbuf_adds(out, "\\r"); break;
		default: sbuf_addc(out, *s); break;
		}
	}
}

static void unescape_in_place(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*w++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Split one manifest line (text, no newline; taken over) into a new
 * entry. Returns 0, or -1 when the line is not a manifest line (text is
 * then freed). */
static int add_entry(store_manifest *m, char *text, unsigned long line)
{
	char *fields[STORE_FIELDS], *p = text;
	store_entry *e;
	size_t n = 0;

	for (;;) {
		if (n == STORE_FIELDS)
			goto bad;
		fields[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != STORE_FIELDS)
		goto bad;
	for (n = 0; n < STORE_FIELDS; n++)
		unescape_in_place(fields[n]);
	m->entries = xrealloc(m->entries, (m->n + 1) * sizeof(*m->entries));
	m->texts = xrealloc(m->texts, (m->n + 1) * sizeof(*m->texts));
	e = &m->entries[m->n];
	m->texts[m->n++] = text;
	e->line = line;
	e->fetched_at = fields[0];
	e->source = fields[1];
	e->event = fields[2];
	e->file = fields[3];
	e->url = fields[4];
	e->status = strtol(fields[5], NULL, 10);
	e->etag = fields[6];
	e->last_modified = fields[7];
	e->sha256 = fields[8];
	e->format = fields[9];
	e->bytes = strtoull(fields[10], NULL, 10);
	e->stored_bytes = strtoull(fields[11], NULL, 10);
	e->download_bytes = strtoull(fields[12], NULL, 10);
	e->rows = strtoul(fields[13], NULL, 10);
	return 0;
bad:
	free(text);
	return -1;
}

void store_manifest_init(store_manifest *m)
{
	memset(m, 0, sizeof(*m));
}

void store_manifest_release(store_manifest *m)
{
	mc_free_strings(m->texts, m->n);
	free(m->entries);
	store_manifest_init(m);
}

void store_manifest_parse(store_manifest *m, const char *data, size_t len)
{
	const char *nl;
	size_t start = 0;

	/* only lines ending in a newline count: a crash may cut the last */
	while (start < len && (nl = memchr(data + start, '\n', len - start))) {
		size_t end = (size_t)(nl - data);

		m->lines++;
		if (!(m->lines == 1 && end - start >= 11 && !memcmp(data + start, "fetched_at\t", 11)))
			add_entry(m, xstrndup(data + start, end - start), m->lines);
		start = end + 1;
	}
	m->complete = start;
}

void store_manifest_line(const store_entry *e, sbuf *out)
{
	const char *fields[STORE_FIELDS];
	char num[5][32];
	size_t i;

	mc_fmt(num[0], sizeof(num[0]), "%ld", e->status);
	mc_fmt(num[1], sizeof(num[1]), "%llu", e->bytes);
	mc_fmt(num[2], sizeof(num[2]), "%llu", e->stored_bytes);
	mc_fmt(num[3], sizeof(num[3]), "%llu", e->download_bytes);
	mc_fmt(num[4], sizeof(num[4]), "%lu", e->rows);
	fields[0] = e->fetched_at;
	fields[1] = e->source;
	fields[2] = e->event;
	fields[3] = e->file;
	fields[4] = e->url;
	fields[5] = num[0];
	fields[6] = e->etag;
	fields[7] = e->last_modified;
	fields[8] = e->sha256;
	fields[9] = e->format;
	fields[10] = num[1];
	fields[11] = num[2];
	fields[12] = num[3];
	fields[13] = num[4];
	for (i = 0; i < STORE_FIELDS; i++) {
		if (i)
			sbuf_addc(out, '\t');
		escape_field(out, fields[i] ? fields[i] : "");
	}
}

int store_manifest_read(const char *dir, store_manifest *m, mc_err *err)
{
	char path[PATH_MAX];
	struct stat sb;
	sbuf all;
	int fd, rc = -1;

	sbuf_init(&all);
	mc_fmt(path, sizeof(path), "%s/%s", dir, STORE_MANIFEST);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		mc_error(err, "%s: not a regular file", path);
		goto out;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (mc_read_fd(fd, &all)) {
		mc_error(err, "%s: read error: %s", path, strerror(errno));
		goto out;
	}
	store_manifest_parse(m, all.data, all.len);
	rc = 0;
out:
	close(fd);
	sbuf_release(&all);
	return rc;
}

static int read_manifest(store *st, mc_err *err)
{
	return store_manifest_read(st->dir, &st->manifest, err);
}

int store_note(store *st, const store_entry *e, mc_err *err)
{
	store_manifest *m = &st->manifest;
	char path[PATH_MAX];
	struct stat sb;
	sbuf text;
	size_t i;
	int fd = -1, rc = -1;

	sbuf_init(&text);
	store_manifest_line(e, &text);
	mc_fmt(path, sizeof(path), "%s/%s", st->dir, STORE_MANIFEST);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0 || fstat(fd, &sb)) {
		mc_error(err, "%s: cannot open for writing: %s", path, strerror(errno));
		goto out;
	}
	/* drop a partial last line a crash left, then append whole lines */
	if ((size_t)sb.st_size != m->complete && ftruncate(fd, (off_t)m->complete)) {
		mc_error(err, "%s: cannot cut a partial last line: %s", path,
		       strerror(errno));
		goto out;
	}
	if (m->complete == 0) {
		sbuf header;

		sbuf_init(&header);
		for (i = 0; i < STORE_FIELDS; i++)
			sbuf_addf(&header, "%s%s", i ? "\t" : "", manifest_columns[i]);
		sbuf_addc(&header, '\n');
		if (write_all(fd, header.data, header.len)) {
			mc_error(err, "%s: write error: %s", path, strerror(errno));
			sbuf_release(&header);
			goto out;
		}
		m->complete = header.len;
		m->lines = 1;
		sbuf_release(&header);
	}
	sbuf_addc(&text, '\n');
	if (write_all(fd, text.data, text.len) || fsync(fd)) {
		mc_error(err, "%s: write error: %s", path, strerror(errno));
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		mc_error(err, "%s: write error: %s", path, strerror(errno));
		goto out;
	}
	fd = -1;
	m->complete += text.len;
	add_entry(m, xstrndup(text.data, text.len - 1), ++m->lines);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	sbuf_release(&text);
	return rc;
}

/* ---- opening ---- */

/* Remove the temporary files a killed run left in the source folders. */
static void remove_temps(const store *st)
{
	char path[PATH_MAX];
	store_listing l;
	size_t i, j;

	if (store_list(st->dir, NULL, &l, NULL))
		return;
	for (i = 0; i < l.n; i++) {
		for (j = 0; j < l.folders[i].ntemps; j++) {
			mc_fmt(path, sizeof(path), "%s/%s/%s", st->dir, l.folders[i].name,
			       l.folders[i].temps[j]);
			unlink(path);
		}
	}
	store_listing_release(&l);
}

int store_open(store **out, const char *dir, mc_err *err)
{
	store *st = xcalloc(1, sizeof(*st));
	char abs[PATH_MAX];

	*out = NULL;
	st->lock_fd = -1;
	st->dir = xstrdup(dir);
	if (make_dirs(dir, &st->created, err))
		goto fail;
	st->lock_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->lock_fd < 0) {
		mc_error(err, "%s: cannot open the snapshot store: %s", dir, strerror(errno));
		goto fail;
	}
	if (flock(st->lock_fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			mc_error(err, "%s: another modelcat fetch is writing to this"
			       " snapshot store", dir);
		else
			mc_error(err, "%s: cannot lock the snapshot store: %s", dir,
			       strerror(errno));
		goto fail;
	}
	st->abs_dir = xstrdup(realpath(dir, abs) ? abs : dir);
	if (read_manifest(st, err))
		goto fail;
	remove_temps(st);
	*out = st;
	return 0;
fail:
	store_free(st);
	return -1;
}

void store_free(store *st)
{
	size_t i;

	if (!st)
		return;
	/* a store this run created and left empty goes again */
	if (st->created)
		rmdir(st->dir);
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	store_manifest_release(&st->manifest);
	for (i = 0; i < st->nhashes; i++)
		free(st->hashes[i].file);
	free(st->hashes);
	free(st->dir);
	free(st->abs_dir);
	free(st);
}

const char *store_dir(const store *st)
{
	return st->dir;
}

const store_entry *store_entries(const store *st, size_t *n)
{
	*n = st->manifest.n;
	return st->manifest.entries;
}

/* ---- contents ---- */

int store_file_sha(store *st, const char *file, char sha[65], mc_err *err)
{
	unsigned long long bytes;
	char path[PATH_MAX];
	size_t i;

	for (i = st->manifest.n; i-- > 0;) {
		const store_entry *e = &st->manifest.entries[i];

		if (!strcmp(e->file, file) && strlen(e->sha256) == 64) {
			memcpy(sha, e->sha256, 65);
			return 0;
		}
	}
	for (i = 0; i < st->nhashes; i++) {
		if (!strcmp(st->hashes[i].file, file)) {
			memcpy(sha, st->hashes[i].sha, 65);
			return 0;
		}
	}
	mc_fmt(path, sizeof(path), "%s/%s", st->dir, file);
	if (input_file_sha256(path, sha, &bytes, err))
		return -1;
	st->hashes = xrealloc(st->hashes, (st->nhashes + 1) * sizeof(*st->hashes));
	st->hashes[st->nhashes].file = xstrdup(file);
	memcpy(st->hashes[st->nhashes].sha, sha, 65);
	st->nhashes++;
	return 0;
}

/* The name of source's latest snapshot file into name: 0, 1 when it has
 * none, -1 (err). */
static int latest_name(const store *st, const char *source, char *name, size_t len,
		       mc_err *err)
{
	const store_file *last;
	store_listing l;

	if (store_list(st->dir, source, &l, err))
		return -1;
	last = l.n ? store_folder_latest(&l.folders[0]) : NULL;
	if (last)
		mc_fmt(name, len, "%s/%s", source, last->name);
	store_listing_release(&l);
	return last ? 0 : 1;
}

int store_latest(store *st, const char *source, char **file, char sha[65], mc_err *err)
{
	char path[PATH_MAX];
	int rc;

	*file = NULL;
	rc = latest_name(st, source, path, sizeof(path), err);
	if (rc)
		return rc;
	if (store_file_sha(st, path, sha, err))
		return -1;
	*file = xstrdup(path);
	return 0;
}

const store_entry *store_last_fetch(const store *st, const char *source, const char *url)
{
	char path[PATH_MAX], latest[PATH_MAX];
	const store_entry *e = NULL;
	size_t i;

	for (i = st->manifest.n; i-- > 0;) {
		if (!strcmp(st->manifest.entries[i].source, source) &&
		    !strcmp(st->manifest.entries[i].url, url)) {
			e = &st->manifest.entries[i];
			break;
		}
	}
	if (!e || !*e->file)
		return NULL;
	/* its validators stand for its file's content: use them only when that
	 * is still the source's latest snapshot */
	if (latest_name(st, source, latest, sizeof(latest), NULL))
		return NULL;
	mc_fmt(path, sizeof(path), "%s/%s", st->dir, e->file);
	if (strcmp(latest, e->file) || access(path, R_OK))
		return NULL;
	return e;
}

/* Does the content start like an HTML or XML page rather than CSV? */
static int looks_like_markup(const unsigned char *p, size_t n)
{
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		p += 3;
		n -= 3;
	}
	while (n && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
		p++;
		n--;
	}
	return n && *p == '<';
}

/* Trim spaces around a header cell into buf. */
static void trimmed(const char *s, size_t len, char *buf, size_t buflen)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	mc_fmt(buf, buflen, "%.*s", (int)(len < buflen ? len : buflen - 1), s);
}

/* Count the header's columns into out; the column map must know its model
 * name column. 0, or -1 (err). */
static int check_header(const csv_row *row, const char *name, const colmap *map,
			store_content *out, mc_err *err)
{
	char cell[1024];
	size_t i;
	int has_key = 0;

	out->columns = row->nfields;
	for (i = 0; i < row->nfields; i++) {
		const colmap_field *field;

		trimmed(row->fields[i], row->lengths[i], cell, sizeof(cell));
		field = colmap_lookup(map, cell);
		if (!field)
			continue;
		out->known_columns++;
		if (field->type == COL_KEY)
			has_key = 1;
	}
	if (has_key)
		return 0;
	/* no byte of the body in the message: a file:// source could be any
	 * file on the machine, and the message goes to a log */
	return mc_error(err, "%s:1: not an export the column map knows: no %s name"
			" column in the header (%zu columns, %zu of them known)", name,
			map->family ? map->family : "model", row->nfields, out->known_columns);
}

/* The content of the bundle body's member named member into buf: at most
 * room bytes when capped. 0, or -1 with err. */
static int member_content(const void *body, size_t len, const char *member, const char *name,
			  int capped, unsigned long long room, sbuf *buf, mc_err *err)
{
	const unsigned char *data;
	input *in = NULL;
	size_t n;
	int step;

	if (input_open_mem_member(&in, body, len, name, member, err))
		return -1;
	while ((step = input_next(in, &data, &n, err)) == 1) {
		if (capped && buf->len + n > room) {
			input_free(in);
			return mc_error(err, "%s: the bundle holds more than the size cap once"
					" decompressed (a compression bomb?)", name);
		}
		sbuf_add(buf, data, n);
	}
	input_free(in);
	return step < 0 ? mc_error_prefix(err, "%s", name) : 0;
}

/* A bundle (in, open over body): every member examined as an export of
 * its own, the caps applying to their sum; sha256 and bytes the body's. */
static int examine_bundle(input *in, const void *body, size_t len, const char *name,
			  const colmap *map, unsigned long long max_bytes, store_content *out,
			  mc_err *err)
{
	char member_name[PATH_MAX];
	unsigned long long total = 0;
	store_content one;
	sha256_ctx h;
	unsigned i;
	sbuf buf;
	int rc = 0;

	sha256_init(&h);
	sha256_update(&h, body, len);
	sha256_final_hex(&h, out->sha256);
	out->bytes = len;
	out->members = input_csv_count(in);
	sbuf_init(&buf);
	for (i = 0; !rc && i < out->members; i++) {
		mc_fmt(member_name, sizeof(member_name), "%s/%s", name, input_csv_name(in, i));
		sbuf_reset(&buf);
		memset(&one, 0, sizeof(one));
		rc = member_content(body, len, input_csv_name(in, i), member_name, max_bytes != 0,
				    max_bytes - total, &buf, err);
		/* a member is plain content here: never a bundle again */
		if (!rc && buf.len >= 4 && !memcmp(buf.data, "PK\3\4", 4))
			rc = mc_error(err, "%s: a zip inside a bundle is not read", member_name);
		if (!rc)
			rc = store_examine(buf.data, buf.len, member_name, map, 0, &one, err);
		total += buf.len;
		out->rows += one.rows;
		out->columns += one.columns;
		out->known_columns += one.known_columns;
	}
	sbuf_release(&buf);
	return rc;
}

int store_examine(const void *body, size_t len, const char *name, const colmap *map,
		  unsigned long long max_bytes, store_content *out, mc_err *err)
{
	const unsigned char *first;
	csv_reader *csv = NULL;
	input *in = NULL;
	csv_row row;
	size_t first_len;
	int step, rc = -1;

	memset(out, 0, sizeof(*out));
	if (!len) {
		mc_error(err, "%s: empty body", name);
		return -1;
	}
	if (looks_like_markup(body, len)) {
		mc_error(err, "%s: an HTML page (a login or error page?), not CSV", name);
		return -1;
	}
	/* pass 1: decompress, hash, and enforce the cap while doing so */
	if (input_open_mem(&in, body, len, name, err))
		return -1;
	out->format = input_format(in);
	if (input_bundle(in)) {
		rc = examine_bundle(in, body, len, name, map, max_bytes, out, err);
		goto out;
	}
	if (out->format != INPUT_PLAIN) {
		step = input_next(in, &first, &first_len, err);
		if (step < 0) {
			mc_error_prefix(err, "%s", name);
			goto out;
		}
		if (step == 1 && looks_like_markup(first, first_len)) {
			mc_error(err, "%s: holds an HTML page, not CSV", name);
			goto out;
		}
		input_free(in);
		if (input_open_mem(&in, body, len, name, err))
			return -1;
	}
	if (input_sha256(in, max_bytes, out->sha256, &out->bytes, err))
		goto out;
	if (!out->bytes) {
		mc_error(err, "%s: empty content", name);
		goto out;
	}
	/* pass 2: the CSV itself */
	if (csv_open_mem(&csv, body, len, name, err))
		goto out;
	step = csv_next(csv, &row, err);
	if (step < 0)
		goto out;
	if (step == 0) {
		mc_error(err, "%s: no header line", name);
		goto out;
	}
	if (row.flags & CSV_ROW_UNTERMINATED) {
		mc_error(err, "%s:%lu: the body ends inside a quoted field of the header"
		       " (truncated?)", name, row.line);
		goto out;
	}
	if (check_header(&row, name, map, out, err))
		goto out;
	while ((step = csv_next(csv, &row, err)) == 1) {
		if (row.flags & CSV_ROW_UNTERMINATED) {
			mc_error(err, "%s:%lu: the body ends inside a quoted field"
			       " (truncated?)", name, row.line);
			goto out;
		}
		out->rows++;
	}
	if (step < 0)
		goto out;
	if (!out->rows) {
		mc_error(err, "%s: a header but no data rows", name);
		goto out;
	}
	rc = 0;
out:
	csv_free(csv);
	input_free(in);
	return rc;
}

/* ---- writing a snapshot ---- */

/* Decompress body and write it gzip-compressed to fd. 0, or -1 (err). */
static int compress_to(int fd, const void *body, size_t len, const char *name,
		       const char *path, mc_err *err)
{
	unsigned char out[65536];
	const unsigned char *data = NULL;
	input *in = NULL;
	z_stream zs;
	size_t n = 0;
	int zrc, step, flush, live = 0, rc = -1;

	memset(&zs, 0, sizeof(zs));
	zrc = deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	if (zrc != Z_OK) {
		mc_error(err, "%s: cannot start compressing: zlib error %d", path, zrc);
		goto out;
	}
	live = 1;
	if (input_open_mem(&in, body, len, name, err))
		goto out;
	do {
		step = input_next(in, &data, &n, err);
		if (step < 0) {
			mc_error_prefix(err, "%s", name);
			goto out;
		}
		flush = step ? Z_NO_FLUSH : Z_FINISH;
		zs.next_in = step ? data : NULL;
		zs.avail_in = step ? (uInt)n : 0;
		do {
			zs.next_out = out;
			zs.avail_out = sizeof(out);
			zrc = deflate(&zs, flush);
			if (zrc != Z_OK && zrc != Z_BUF_ERROR && zrc != Z_STREAM_END) {
				mc_error(err, "%s: compression failed: zlib error %d", path,
				       zrc);
				goto out;
			}
			if (write_all(fd, out, sizeof(out) - zs.avail_out)) {
				mc_error(err, "%s: write error: %s", path, strerror(errno));
				goto out;
			}
		} while (zs.avail_out == 0);
	} while (flush != Z_FINISH);
	if (zrc != Z_STREAM_END) {
		mc_error(err, "%s: compression did not finish: zlib error %d", path, zrc);
		goto out;
	}
	rc = 0;
out:
	if (live) {
		zrc = deflateEnd(&zs);
		if (rc == 0 && zrc != Z_OK) {
			mc_error(err, "%s: compression failed: zlib error %d", path, zrc);
			rc = -1;
		}
	}
	input_free(in);
	return rc;
}

/* Read a written file back: its content must hash to sha. */
static int verify_file(const char *path, const store_content *content, mc_err *err)
{
	unsigned long long bytes;
	char sha[65];

	if (input_file_sha256(path, sha, &bytes, err))
		return -1;
	if (strcmp(sha, content->sha256) || bytes != content->bytes) {
		mc_error(err, "%s: reads back as different content (sha256 %s, %llu bytes)",
		       path, sha, bytes);
		return -1;
	}
	return 0;
}

/* Can link() not be used on this file system (as opposed to failing)? */
static int no_hard_links(int err)
{
	return err == EPERM || err == ENOTSUP || err == EOPNOTSUPP || err == ENOSYS ||
	       err == EMLINK;
}

/* The file name for a new snapshot fetched at when, given the source's
 * folder (NULL when it has none). It sorts after every snapshot of its day. */
static int new_name(const store_folder *f, const store_content *content, time_t when,
		    char *buf, size_t len, mc_err *err)
{
	const char *last_of_day = NULL;
	char day[11];
	struct tm tm;
	long secs;
	size_t i;

	gmtime_r(&when, &tm);
	strftime(day, sizeof(day), "%Y-%m-%d", &tm);
	for (i = 0; f && i < f->n; i++)
		if (!strncmp(f->files[i].name, day, 10))
			last_of_day = f->files[i].name;
	if (!last_of_day) {
		mc_fmt(buf, len, "%s%s", day, content->members ? ".zip" : ".csv.gz");
		return 0;
	}
	secs = tm.tm_hour * 3600L + tm.tm_min * 60L + tm.tm_sec;
	/* names are snapshot names (naming_snapshot_file): a 'T' is followed by
	 * six digits */
	if (last_of_day[10] == 'T') {
		long before = (last_of_day[11] - '0') * 36000L + (last_of_day[12] - '0') * 3600L +
			      (last_of_day[13] - '0') * 600L + (last_of_day[14] - '0') * 60L +
			      (last_of_day[15] - '0') * 10L + (last_of_day[16] - '0');

		if (secs <= before)
			secs = before + 1;
	}
	if (secs >= 86400) {
		mc_error(err, "%s: no snapshot name left for %s", last_of_day, day);
		return -1;
	}
	mc_fmt(buf, len, "%sT%02ld%02ld%02ldZ-%.12s%s", day, secs / 3600, secs / 60 % 60,
	       secs % 60, content->sha256, content->members ? ".zip" : ".csv.gz");
	return 0;
}

/* When an older snapshot in f holds the same content (upstream went back
 * to it), make final a hard link to it. 1 linked, 0 not (write the
 * content), -1 (err). */
static int link_older(store *st, const char *source, const store_folder *f, const char *dir,
		      const char *final, const store_content *content, mc_err *err)
{
	char old[PATH_MAX], old_rel[PATH_MAX], sha[65];
	size_t i;

	for (i = f ? f->n : 0; i-- > 0;) {
		const char *name = f->files[i].name;

		mc_fmt(old_rel, sizeof(old_rel), "%s/%s", source, name);
		if (!mc_ends_with(name, content->members ? ".zip" : ".csv.gz") ||
		    store_file_sha(st, old_rel, sha, err) ||
		    strcmp(sha, content->sha256))
			continue;
		mc_fmt(old, sizeof(old), "%s/%s", dir, name);
		if (!link(old, final))
			return 1;
		if (errno == EEXIST)
			return mc_error(err, "%s: already exists", final);
		break;   /* no hard links here: write the content again */
	}
	return 0;
}

/* Write body gzip-compressed to a temporary file in dir, sync and check it,
 * and put it in place as final without replacing a file. 0, or -1 (err)
 * with the temporary file removed. */
static int write_new(const char *dir, const char *source, const void *body, size_t len,
		     const store_content *content, const char *final, mc_err *err)
{
	char tmp[PATH_MAX];
	struct stat sb;
	int fd, rc = -1;

	mc_fmt(tmp, sizeof(tmp), "%s/" LISTING_TMP_PREFIX "%ld-XXXXXX", dir, (long)getpid());
	fd = mkstemp(tmp);
	if (fd < 0)
		return mc_error(err, "%s: cannot create a temporary file: %s", dir,
				strerror(errno));
	mc_cleanup_add(tmp);
	/* a bundle is kept as it came; an export gzip-compressed */
	if (content->members && write_all(fd, body, len)) {
		mc_error(err, "%s: write error: %s", tmp, strerror(errno));
		goto out;
	}
	if (!content->members && compress_to(fd, body, len, source, tmp, err))
		goto out;
	if (fsync(fd) || fchmod(fd, 0444)) {
		mc_error(err, "%s: cannot sync: %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		mc_error(err, "%s: write error: %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (verify_file(tmp, content, err))
		goto out;
	/* link() never replaces an existing file, unlike rename() */
	if (link(tmp, final)) {
		if (!no_hard_links(errno) || !lstat(final, &sb) || rename(tmp, final)) {
			mc_error(err, "%s: cannot put in place: %s", final, strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	mc_cleanup_remove(tmp);
	return rc;
}

int store_put(store *st, const char *source, const void *body, size_t len,
	      const store_content *content, time_t when, char **file,
	      unsigned long long *stored_bytes, mc_err *err)
{
	char dir[PATH_MAX], final[PATH_MAX], name[64], rel[PATH_MAX];
	const store_folder *f;
	store_listing l = { NULL, 0 };
	struct stat sb;
	int rc = -1, linked, dir_made;

	*file = NULL;
	*stored_bytes = 0;
	mc_fmt(dir, sizeof(dir), "%s/%s", st->dir, source);
	dir_made = !mkdir(dir, 0755);
	if (!dir_made && errno != EEXIST)
		return mc_error(err, "%s: cannot create: %s", dir, strerror(errno));
	if (store_list(st->dir, source, &l, err))
		goto out;
	f = l.n ? &l.folders[0] : NULL;
	if (new_name(f, content, when, name, sizeof(name), err))
		goto out;
	mc_fmt(final, sizeof(final), "%s/%s", dir, name);
	mc_fmt(rel, sizeof(rel), "%s/%s", source, name);
	if (!lstat(final, &sb)) {
		mc_error(err, "%s: already exists", final);
		goto out;
	}
	linked = link_older(st, source, f, dir, final, content, err);
	if (linked < 0 || (!linked && write_new(dir, source, body, len, content, final, err)))
		goto out;
	if (sync_dir(dir)) {
		mc_error(err, "%s: cannot sync: %s", dir, strerror(errno));
		goto out;
	}
	if (sync_dir(st->dir)) {
		mc_error(err, "%s: cannot sync: %s", st->dir, strerror(errno));
		goto out;
	}
	if (stat(final, &sb)) {
		mc_error(err, "%s: %s", final, strerror(errno));
		goto out;
	}
	*stored_bytes = (unsigned long long)sb.st_size;
	st->hashes = xrealloc(st->hashes, (st->nhashes + 1) * sizeof(*st->hashes));
	st->hashes[st->nhashes].file = xstrdup(rel);
	memcpy(st->hashes[st->nhashes].sha, content->sha256, 65);
	st->nhashes++;
	*file = xstrdup(rel);
	rc = 0;
out:
	if (rc && dir_made)
		rmdir(dir);
	store_listing_release(&l);
	return rc;
}

/* ---- the catalogue's copy of the manifest ---- */

int store_sync_catalogue(const store *st, catalogue *cat, unsigned long *added, mc_err *err)
{
	return manifest_record(cat, st->abs_dir, st->manifest.entries, st->manifest.n, added, err);
}
