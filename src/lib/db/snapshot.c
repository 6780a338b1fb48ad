#include "db/snapshot.h"
#include "base/sha256.h"

#include <stdlib.h>
#include <string.h>

/* Copy text column i of st into buf (len bytes); "" for NULL. */
static void column_copy(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	mc_fmt(buf, len, "%s", s ? s : "");
}

/* Prepare sql into *st, bind day to its parameter when given, and step
 * once: the step's result (SQLITE_ROW for a row), or -1 when it would not
 * prepare (err). The caller finalizes *st. */
static int step_once(catalogue *cat, sqlite3_stmt **st, const char *sql, const char *day,
		     mc_err *err)
{
	if (catalogue_prepare(cat, st, sql, err))
		return -1;
	if (day)
		sqlite3_bind_text(*st, 1, day, -1, SQLITE_STATIC);
	return sqlite3_step(*st);
}

/* One date out of a one-row query (optionally bound to day): 0, 1 when
 * it is NULL, -1 on error. */
static int one_day(catalogue *cat, const char *sql, const char *day, char out[11],
		   const char *what, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	out[0] = '\0';
	step = step_once(cat, &st, sql, day, err);
	if (step < 0)
		return -1;
	if (step == SQLITE_ROW)
		column_copy(st, 0, out, 11);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW)
		return catalogue_fail(cat, what, err);
	return out[0] ? 0 : 1;
}

int snapshot_latest_day(catalogue *cat, char day[11], mc_err *err)
{
	return one_day(cat, "SELECT max(as_of) FROM snapshot", NULL, day,
		       "finding the last snapshot", err);
}

int snapshot_day_before(catalogue *cat, const char *day, char prev[11], mc_err *err)
{
	return one_day(cat, "SELECT max(as_of) FROM snapshot WHERE as_of < ?", day, prev,
		       "reading the snapshots", err);
}

int snapshot_applied_upto(catalogue *cat, const char *day, char out[11], mc_err *err)
{
	return one_day(cat,
		       "SELECT max(s.as_of) FROM snapshot s WHERE s.as_of <= ? AND EXISTS"
		       " (SELECT 1 FROM snapshot_export e WHERE e.snapshot_id = s.id)",
		       day, out, "reading the snapshots", err);
}

/* One id out of a one-row query (optionally bound to day). 0 or -1. */
static int one_id(catalogue *cat, const char *sql, const char *day, sqlite3_int64 *id,
		  mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*id = 0;
	step = step_once(cat, &st, sql, day, err);
	if (step < 0)
		return -1;
	if (step == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return step == SQLITE_ROW ? 0 : catalogue_fail(cat, "finding the snapshot", err);
}

int snapshot_latest_id(catalogue *cat, sqlite3_int64 *id, mc_err *err)
{
	return one_id(cat, "SELECT coalesce(max(id), 0) FROM snapshot", NULL, id, err);
}

int snapshot_upto(catalogue *cat, const char *day, sqlite3_int64 *id, mc_err *err)
{
	*id = 0;
	if (!day || !*day)
		return 0;
	return one_id(cat, "SELECT coalesce(max(id), 0) FROM snapshot WHERE as_of <= ?", day, id,
		      err);
}

int snapshot_day_of(catalogue *cat, sqlite3_int64 id, char day[11], mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	day[0] = '\0';
	if (!id)
		return 0;
	if (catalogue_prepare(cat, &st, "SELECT as_of FROM snapshot WHERE id = ?", err))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		column_copy(st, 0, day, 11);
	sqlite3_finalize(st);
	return step == SQLITE_ROW || step == SQLITE_DONE ? 0
		: catalogue_fail(cat, "reading a snapshot", err);
}

int snapshot_recent_days(catalogue *cat, size_t limit, snapshot_day **days, size_t *n,
			 mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*days = NULL;
	*n = 0;
	if (catalogue_prepare(cat, &st, "SELECT as_of, max(ingested_at) FROM snapshot"
			      " GROUP BY as_of ORDER BY as_of DESC LIMIT ?", err))
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)limit);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		*days = xrealloc(*days, (*n + 1) * sizeof(**days));
		column_copy(st, 0, (*days)[*n].day, sizeof((*days)[*n].day));
		column_copy(st, 1, (*days)[*n].loaded, sizeof((*days)[*n].loaded));
		(*n)++;
	}
	sqlite3_finalize(st);
	if (step == SQLITE_DONE)
		return 0;
	free(*days);
	*days = NULL;
	*n = 0;
	return catalogue_fail(cat, "listing the snapshots", err);
}

int snapshot_export_latest(catalogue *cat, const snapshot_export_filter *f,
			   snapshot_export_info *out, mc_err *err)
{
	sqlite3_stmt *st;
	int step;

	memset(out, 0, sizeof(*out));
	if (catalogue_keep(cat, &st,
			   "SELECT se.id, s.as_of, se.sha256, se.bytes, se.rows, se.loaded,"
			   " se.quarantined, se.header_digest"
			   " FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"
			   " WHERE se.export = ?1 AND se.snapshot_id <> ?2"
			   " AND (?3 = 0 OR se.snapshot_id <= ?3)"
			   " AND (?4 IS NULL OR s.as_of <= ?4)"
			   " AND (?5 = 0 OR se.unchanged = 0)"
			   " ORDER BY s.as_of DESC, se.id DESC LIMIT 1", err))
		return -1;
	if (sqlite3_bind_text(st, 1, f->export_name, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    (f->upto_day && sqlite3_bind_text(st, 4, f->upto_day, -1, SQLITE_TRANSIENT) != SQLITE_OK)) {
		sqlite3_reset(st);
		return catalogue_fail(cat, "reading earlier snapshots", err);
	}
	sqlite3_bind_int64(st, 2, f->except);
	sqlite3_bind_int64(st, 3, f->upto);
	sqlite3_bind_int(st, 5, f->content_only);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		column_copy(st, 1, out->as_of, sizeof(out->as_of));
		column_copy(st, 2, out->sha256, sizeof(out->sha256));
		out->bytes = (unsigned long long)sqlite3_column_int64(st, 3);
		out->rows = (unsigned long)sqlite3_column_int64(st, 4);
		out->loaded = (unsigned long)sqlite3_column_int64(st, 5);
		out->quarantined = (unsigned long)sqlite3_column_int64(st, 6);
		column_copy(st, 7, out->header_digest, sizeof(out->header_digest));
	}
	sqlite3_reset(st);
	if (step == SQLITE_ROW)
		return 0;
	return step == SQLITE_DONE ? 1 : catalogue_fail(cat, "reading earlier snapshots", err);
}

/* The name the n-th snapshot of day is published under: the day alone for
 * the first, DATE.N after it (label: 16 bytes). */
static void label_of(const char *day, int n, char *label)
{
	if (n == 1)
		mc_fmt(label, 16, "%s", day);
	else
		mc_fmt(label, 16, "%s.%d", day, n);
}

int snapshot_ref_parse(const char *text, snapshot_ref *ref)
{
	const char *p;
	int n = 0;

	memset(ref, 0, sizeof(*ref));
	if (strlen(text) < 10)
		return -1;
	memcpy(ref->day, text, 10);
	ref->day[10] = '\0';
	if (!day_valid(ref->day))
		return -1;
	if (!text[10])
		return 0;
	if (text[10] != '.' || text[11] < '1' || text[11] > '9' || strlen(text + 11) > 4)
		return -1;
	for (p = text + 11; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		n = n * 10 + (*p - '0');
	}
	ref->n = n;
	return 0;
}

int snapshot_ref_find(catalogue *cat, const snapshot_ref *ref, sqlite3_int64 *id, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*id = 0;
	/* the day's snapshots in load order: the N-th, or the last */
	if (catalogue_prepare(cat, &st, ref->n
			      ? "SELECT id FROM snapshot WHERE as_of = ? ORDER BY id LIMIT 1 OFFSET ?"
			      : "SELECT id FROM snapshot WHERE as_of = ? ORDER BY id DESC LIMIT 1",
			      err))
		return -1;
	sqlite3_bind_text(st, 1, ref->day, -1, SQLITE_TRANSIENT);
	if (ref->n)
		sqlite3_bind_int(st, 2, ref->n - 1);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return step == SQLITE_ROW || step == SQLITE_DONE ? 0
		: catalogue_fail(cat, "reading a snapshot", err);
}

int snapshot_ordinal(catalogue *cat, sqlite3_int64 id, int *n, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*n = 0;
	if (catalogue_prepare(cat, &st, "SELECT count(*) FROM snapshot AS s JOIN snapshot AS t"
			      " ON t.as_of = s.as_of AND t.id <= s.id WHERE s.id = ?", err))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		*n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return step == SQLITE_ROW ? 0 : catalogue_fail(cat, "reading a snapshot", err);
}

int snapshot_label(catalogue *cat, sqlite3_int64 id, char label[16], mc_err *err)
{
	char day[11];
	int n;

	label[0] = '\0';
	if (snapshot_day_of(cat, id, day, err) || snapshot_ordinal(cat, id, &n, err))
		return -1;
	if (day[0] && n)
		label_of(day, n, label);
	return 0;
}

/* Close the content hash of the last entry of list. */
static void entry_finish(snapshot_entry *list, size_t n, sha256_ctx *hash)
{
	if (n)
		sha256_final_hex(hash, list[n - 1].content);
}

int snapshot_list(catalogue *cat, const char *upto, snapshot_entry **list, size_t *n,
		  mc_err *err)
{
	sqlite3_stmt *st = NULL;
	sha256_ctx hash;
	int step, ordinal = 0;

	*list = NULL;
	*n = 0;
	if (catalogue_prepare(cat, &st, "SELECT s.id, s.as_of, s.ingested_at, se.export, se.sha256"
			      " FROM snapshot AS s LEFT JOIN snapshot_export AS se"
			      " ON se.snapshot_id = s.id WHERE ?1 IS NULL OR s.as_of <= ?1"
			      " ORDER BY s.as_of, s.id, se.export, se.id", err))
		return -1;
	if (upto && *upto)
		sqlite3_bind_text(st, 1, upto, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		const char *export_name = (const char *)sqlite3_column_text(st, 3);
		const char *sha = (const char *)sqlite3_column_text(st, 4);

		if (!*n || (*list)[*n - 1].id != id) {
			snapshot_entry *e;

			entry_finish(*list, *n, &hash);
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			e = &(*list)[*n];
			memset(e, 0, sizeof(*e));
			e->id = id;
			column_copy(st, 1, e->day, sizeof(e->day));
			column_copy(st, 2, e->loaded, sizeof(e->loaded));
			ordinal = *n && !strcmp((*list)[*n - 1].day, e->day) ? ordinal + 1 : 1;
			label_of(e->day, ordinal, e->label);
			sha256_init(&hash);
			(*n)++;
		}
		if (export_name && sha) {
			sha256_update(&hash, export_name, strlen(export_name));
			sha256_update(&hash, " ", 1);
			sha256_update(&hash, sha, strlen(sha));
			sha256_update(&hash, "\n", 1);
		}
	}
	sqlite3_finalize(st);
	entry_finish(*list, *n, &hash);
	if (step == SQLITE_DONE)
		return 0;
	free(*list);
	*list = NULL;
	*n = 0;
	return catalogue_fail(cat, "listing the snapshots", err);
}
