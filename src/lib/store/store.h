/*
 * store: the snapshot store. Each source's contents live under
 * DIR/<source>/ as gzip-compressed CSV, one file per distinct content,
 * named by the day it was fetched:
 *
 *   DIR/<source>/<YYYY-MM-DD>.csv.gz                      first content of a day
 *   DIR/<source>/<YYYY-MM-DD>T<HHMMSS>Z-<sha12>.csv.gz    a later, different one
 *   DIR/MANIFEST.tsv                                      one line per fetch
 *
 * The SHA-256 of the decompressed content identifies it: a content equal
 * to the source's latest snapshot is not stored again (the manifest notes
 * it was seen). A file is written to a temporary name, synced, checked and
 * only then linked under its final name, so a crash never leaves a partial
 * file under a final name; files are made read-only. Files without a
 * manifest line (the bundled history) are fine: their hash is computed
 * when needed. docs/store.md describes the layout and the manifest.
 *
 * One process writes to a store at a time (a lock on DIR, held from
 * store_open() to store_free()).
 *
 * Ownership: a store owns its entries and every string in them; pointers
 * returned by store_entries() and store_last_fetch() stay valid until the
 * next store_note() or store_free(). Strings returned through char **
 * arguments are the caller's to free.
 */
#ifndef MODELCAT_STORE_H
#define MODELCAT_STORE_H

#include <stddef.h>
#include <time.h>
#include "db/catalogue.h"
#include "db/manifest.h"
#include "values/colmap.h"
#include "read/input.h"

/* The manifest's file name inside the store. */
#define STORE_MANIFEST "MANIFEST.tsv"

/* One line of the manifest: the row the catalogue's copy of it takes
 * (db/manifest.h), so that the store hands its lines over as they are. */
typedef manifest_row store_entry;

/* The lines of a manifest. */
typedef struct store_manifest {
	store_entry *entries;               /* its lines, oldest first */
	char **texts;                       /* texts[i]: the buffer entries[i]
					       points into; owned */
	size_t n;                           /* entries in entries and texts */
	unsigned long lines;                /* complete lines read or appended,
					       the header and lines that are
					       not manifest lines included */
	size_t complete;                    /* bytes up to the end of the last
					       complete line */
} store_manifest;

/* What store_examine() found in a body. */
typedef struct store_content {
	enum input_format format;           /* plain CSV, gzip or zip */
	char sha256[65];                    /* of the decompressed content */
	unsigned long long bytes;           /* decompressed bytes */
	unsigned long rows;                 /* data rows (records after the header) */
	size_t columns;                     /* header cells */
	size_t known_columns;               /* of which the column map knows */
	unsigned members;                   /* a bundle (a zip of several .csv
					       members, read/input.h): their
					       number, and sha256 and bytes are
					       the zip's own, rows and columns
					       the members' sums; else 0 */
} store_content;

typedef struct store store;

/*
 * Open the store at dir, creating the folder if needed, and lock it.
 * Reads the manifest (a partial last line, left by a crash, is ignored)
 * and removes temporary files a killed run left. 0, or -1 with err.
 */
int store_open(store **out, const char *dir, mc_err *err);
/* Unlock and free; a store folder that store_open() created and that is
 * still empty is removed. Accepts NULL. */
void store_free(store *st);
/* The folder as given to store_open(). */
const char *store_dir(const store *st);
/* The manifest's lines, oldest first. */
const store_entry *store_entries(const store *st, size_t *n);

/*
 * The last manifest line for source fetched from url whose snapshot file
 * still exists, or NULL: its validators make the next request conditional.
 */
const store_entry *store_last_fetch(const store *st, const char *source, const char *url);

/*
 * Check that body (len bytes; plain CSV, or gzip or zip holding CSV) is an
 * export worth storing: not empty, not HTML, at most max_bytes once
 * decompressed (checked while decompressing), a header whose model name
 * column the column map knows, at least one data row, not ending inside a
 * quoted field. Fills out. name is used in messages. 0, or -1 with err.
 */
int store_examine(const void *body, size_t len, const char *name, const colmap *map,
		  unsigned long long max_bytes, store_content *out, mc_err *err);

/*
 * The source's latest snapshot (the last by name, as reingest orders
 * them): its path relative to the store in *file and its content's
 * SHA-256 in sha. Returns 0, 1 when the source has no snapshot, -1 on
 * error (err).
 */
int store_latest(store *st, const char *source, char **file, char sha[65], mc_err *err);

/* The content hash of a snapshot file (a path relative to the store, e.g.
 * SOURCE/DATE.csv.gz) into sha: from the manifest, from an earlier
 * computation, or computed now. 0, or -1 (err). */
int store_file_sha(store *st, const char *file, char sha[65], mc_err *err);

/*
 * Store body (examined into content) as a new snapshot of source fetched
 * at when: <date>.csv.gz, or a <date>T<time>Z-<sha12>.csv.gz name when the
 * day already has one. When an older snapshot of the source holds the same
 * content (upstream went back to it), the new name is a hard link to it.
 * Sets *file (relative to the store) and *stored_bytes. 0, or -1 with err
 * and nothing left under a final name.
 */
int store_put(store *st, const char *source, const void *body, size_t len,
	      const store_content *content, time_t when, char **file,
	      unsigned long long *stored_bytes, mc_err *err);

/* Append e as a manifest line (synced to disk); e->line is ignored. 0, or
 * -1 with err. */
int store_note(store *st, const store_entry *e, mc_err *err);

/* Copy the manifest into the catalogue's fetch_manifest table, adding the
 * lines it does not hold yet (one transaction); *added gets their count.
 * 0, or -1 with err. */
int store_sync_catalogue(const store *st, catalogue *cat, unsigned long *added, mc_err *err);

/* The manifest reader, which store_open() uses on DIR/MANIFEST.tsv. */
void store_manifest_init(store_manifest *m);
/*
 * Add the lines of the manifest text data (len bytes; need not be
 * NUL-terminated) to m: each complete line (ending in a newline) of 14
 * TAB-separated fields becomes an entry, numbered from 1 like the file's
 * lines; a header first line and lines of another shape are skipped (they
 * count as lines); the bytes after the last newline (a line cut short by
 * a crash) are not read: m->complete says where they start.
 */
void store_manifest_parse(store_manifest *m, const char *data, size_t len);
/* Read DIR/MANIFEST.tsv into m (store_manifest_parse(); nothing when
 * there is no manifest), without taking the store's lock: what readers
 * (store/check.h) use. A manifest that is not a regular file is an error.
 * 0, or -1 with err. */
int store_manifest_read(const char *dir, store_manifest *m, mc_err *err);
/* Append e as a manifest line (fields escaped, no newline) to out. */
void store_manifest_line(const store_entry *e, sbuf *out);
/* Free the entries; m is empty again. */
void store_manifest_release(store_manifest *m);

/* The UTC time as YYYY-MM-DDTHH:MM:SSZ into buf[21]. */
void store_format_time(time_t when, char buf[21]);

#endif
