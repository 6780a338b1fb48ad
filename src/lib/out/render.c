#include "out/render.h"
#include "db/query.h"
#include "base/sha256.h"
#include "out/translate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int render_last_snapshot(catalogue *cat, char day[11])
{
	sqlite3_stmt *st = NULL;
	int step;

	day[0] = '\0';
	if (catalogue_prepare(cat, &st, "SELECT max(as_of) FROM snapshot"))
		return -1;
	step = sqlite3_step(st);
	if (step == SQLITE_ROW && sqlite3_column_text(st, 0))
		mc_fmt(day, 11, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (step != SQLITE_ROW)
		return catalogue_fail(cat, "finding the last snapshot");
	return day[0] ? 0 : 1;
}

int render_models(catalogue *cat, const char *as_of, char ***names, size_t *n)
{
	sqlite3_stmt *st = NULL;
	int step;

	*names = NULL;
	*n = 0;
	if (catalogue_prepare(cat, &st,
			      "SELECT DISTINCT v.name, r.occurrence FROM version v"
			      " JOIN record r ON r.id = v.record_id"
			      " WHERE v.tombstone = 0 AND v.valid_from <= ?1"
			      " AND (v.valid_to IS NULL OR v.valid_to > ?1)"
			      " ORDER BY v.name COLLATE NOCASE, v.name, r.occurrence"))
		return -1;
	if (sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(cat, "binding the date");
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		sqlite3_int64 occurrence = sqlite3_column_int64(st, 1);
		sbuf s;

		if (!name)
			continue;
		sbuf_init(&s);
		sbuf_adds(&s, name);
		if (occurrence > 1)
			sbuf_addf(&s, "#%lld", (long long)occurrence);
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = sbuf_detach(&s, NULL);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return catalogue_fail(cat, "listing the models");
	return 0;
}

void render_file_stem(const char *name, char *buf, size_t len)
{
	sha256_ctx hash;
	char hex[65], slug[61];
	size_t n = 0;
	const char *p;

	for (p = name; *p && n < sizeof(slug) - 1; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[n++] = c;
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	sha256_init(&hash);
	sha256_update(&hash, name, strlen(name));
	sha256_final_hex(&hash, hex);
	mc_fmt(buf, len, "%s-%.10s", n ? slug : "model", hex);
}

/* mkdir -p */
static int make_dirs(const char *path, char *err, size_t errlen)
{
	char buf[4096];
	size_t i, len = strlen(path);

	if (len >= sizeof(buf)) {
		mc_fmt(err, errlen, "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST) {
			mc_fmt(err, errlen, "%s: cannot create the folder: %s", buf, strerror(errno));
			return -1;
		}
		buf[i] = path[i];
	}
	return 0;
}

/* Write content to dir/file through a temporary file renamed into place. */
static int write_file(const char *dir, const char *file, const sbuf *content, char *err,
		      size_t errlen)
{
	char path[4096], tmp[4200];
	FILE *f;
	int ok;

	mc_fmt(path, sizeof(path), "%s/%s", dir, file);
	mc_fmt(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		mc_fmt(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
		return -1;
	}
	ok = fwrite(content->data, 1, content->len, f) == content->len;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path)) {
		mc_fmt(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Render p as text and HTML to dir/stem.txt and dir/stem.html. */
static int write_page(const page *p, const char *dir, const char *stem, char *err, size_t errlen)
{
	char file[128];
	sbuf out;
	int rc;

	sbuf_init(&out);
	page_render_text(p, &out);
	mc_fmt(file, sizeof(file), "%s.txt", stem);
	rc = write_file(dir, file, &out, err, errlen);
	sbuf_reset(&out);
	page_render_html(p, &out);
	mc_fmt(file, sizeof(file), "%s.html", stem);
	if (!rc)
		rc = write_file(dir, file, &out, err, errlen);
	sbuf_release(&out);
	return rc;
}

/* page_build() and page_build_index() with the message in err, as
 * render_all() reports it. */
static int build_page(page *p, const model_view *m, const page_texts *texts,
		      const page_texts *english, char *err, size_t errlen)
{
	mc_err e;

	if (!page_build(p, m, texts, english, &e))
		return 0;
	mc_fmt(err, errlen, "%s", e.msg);
	return -1;
}

static int build_index(page *p, const page_index_entry *entries, size_t n, const char *date,
		       const page_texts *texts, const page_texts *english, char *err,
		       size_t errlen)
{
	mc_err e;

	if (!page_build_index(p, entries, n, date, texts, english, &e))
		return 0;
	mc_fmt(err, errlen, "%s", e.msg);
	return -1;
}

int render_all(catalogue *cat, const char *as_of, const char *outdir, render_stats *stats,
	       char *err, size_t errlen)
{
	char **langs = NULL, **names = NULL, **dirs = NULL;
	size_t nlangs = 0, nnames = 0, nentries = 0, i, j;
	page_texts *texts = NULL;
	page_index_entry *entries = NULL;
	char (*stems)[128] = NULL, (*files)[140] = NULL;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	if (translate_languages(cat, &langs, &nlangs)) {
		mc_fmt(err, errlen, "%s", cat->err);
		goto out;
	}
	if (!nlangs || strcmp(langs[0], "en")) {
		mc_fmt(err, errlen, "%s: no page texts stored (run modelcat translate first)", cat->path);
		goto out;
	}
	texts = xcalloc(nlangs, sizeof(*texts));
	dirs = xcalloc(nlangs, sizeof(*dirs));
	for (i = 0; i < nlangs; i++) {
		sbuf dir;

		if (translate_load(cat, langs[i], &texts[i])) {
			mc_fmt(err, errlen, "%s: cannot load the page texts of %s", cat->path, langs[i]);
			goto out;
		}
		sbuf_init(&dir);
		sbuf_addf(&dir, "%s/%s", outdir, langs[i]);
		dirs[i] = sbuf_detach(&dir, NULL);
		if (make_dirs(dirs[i], err, errlen))
			goto out;
	}
	if (render_models(cat, as_of, &names, &nnames)) {
		mc_fmt(err, errlen, "%s", cat->err);
		goto out;
	}
	stems = xcalloc(nnames + 1, sizeof(*stems));
	files = xcalloc(nnames + 1, sizeof(*files));
	entries = xcalloc(nnames + 1, sizeof(*entries));
	for (i = 0; i < nnames; i++) {
		model_view m;
		int found = query_model(cat, names[i], as_of, &m);

		if (found < 0) {
			mc_fmt(err, errlen, "%s", cat->err);
			model_view_release(&m);
			goto out;
		}
		render_file_stem(names[i], stems[i], sizeof(stems[i]));
		for (j = 0; found == 0 && j < nlangs; j++) {
			page p;

			page_init(&p, langs[j]);
			if (build_page(&p, &m, &texts[j], &texts[0], err, errlen) ||
			    write_page(&p, dirs[j], stems[i], err, errlen)) {
				page_release(&p);
				model_view_release(&m);
				goto out;
			}
			page_release(&p);
			stats->files += 2;
		}
		model_view_release(&m);
		if (found == 0) {
			mc_fmt(files[nentries], sizeof(files[nentries]), "%s.html", stems[i]);
			entries[nentries].name = names[i];
			entries[nentries].file = files[nentries];
			nentries++;
		}
	}
	stats->models = nentries;
	for (j = 0; j < nlangs; j++) {
		page p;
		int failed;

		page_init(&p, langs[j]);
		failed = build_index(&p, entries, nentries, as_of, &texts[j], &texts[0], err,
				     errlen) || write_page(&p, dirs[j], "index", err, errlen);
		page_release(&p);
		if (failed)
			goto out;
		stats->files += 2;
	}
	stats->languages = nlangs;
	rc = 0;
out:
	for (i = 0; i < nlangs; i++) {
		if (texts)
			page_texts_release(&texts[i]);
		if (dirs)
			free(dirs[i]);
		free(langs[i]);
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(texts);
	free(dirs);
	free(langs);
	free(names);
	free(stems);
	free(files);
	free(entries);
	return rc;
}
