#include "publish/download.h"
#include "publish/cite.h"
#include "values/format.h"
#include "values/value.h"
#include "publish/template.h"
#include "publish/exportcsv.h"
#include "db/query.h"
#include "read/csv.h"
#include "base/textout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int download_json_number(const char *text, size_t len)
{
	return value_json_number(text, len);
}

static int make_dir(const char *path, mc_err *err)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return mc_error(err, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

static void json_str(sbuf *out, const char *s)
{
	textout_json_string(out, s ? s : "", s ? strlen(s) : 0);
}

/* exportcsv_flush() into the file_part ctx: an export's CSV and JSON are
 * written EXPORTCSV_PART bytes at a time, not made whole in memory (250 MB
 * for the bench catalogue's export). */
static int flush_part(void *ctx, sbuf *out, mc_err *err)
{
	if (out->len && file_part_write(ctx, out->data, out->len, err))
		return -1;
	sbuf_reset(out);
	return 0;
}

/* The JSON of one export, from its CSV as written at csv_file, into part. */
static int export_json(catalogue *cat, const provenance_file *f, const char *as_of,
		       const char *csv_file, file_part *part, mc_err *err)
{
	char **types = NULL;
	size_t ntypes = 0, i, rows = 0;
	csv_reader *r = NULL;
	csv_row row;
	sbuf out;
	int rc, first = 1;

	sbuf_init(&out);
	if (provenance_column_types(cat, f->export, as_of, &types, &ntypes, err) < 0 ||
	    csv_open(&r, csv_file, err))
		goto fail;
	sbuf_adds(&out, "{\"export\": ");
	json_str(&out, f->export);
	sbuf_addf(&out, ",\n\"snapshot\": \"%s\",\n\"sha256\": \"%s\",\n", f->day, f->sha256);
	sbuf_adds(&out, "\"source\": \"" CITE_AUTHOR "\",\n\"licence\": \"" CITE_LICENCE "\",\n"
		  "\"licence_url\": \"" CITE_LICENCE_URL "\",\n\"columns\": [");
	while ((rc = csv_next(r, &row, err)) == 1) {
		if (first) {
			for (i = 0; i < row.nfields; i++) {
				sbuf_adds(&out, i ? ", " : "");
				textout_json_string(&out, row.fields[i], row.lengths[i]);
			}
			sbuf_adds(&out, "],\n\"types\": [");
			for (i = 0; i < ntypes; i++) {
				sbuf_adds(&out, i ? ", " : "");
				json_str(&out, types[i]);
			}
			sbuf_adds(&out, "],\n\"rows\": [");
			first = 0;
			continue;
		}
		sbuf_adds(&out, rows++ ? ",\n[" : "\n[");
		for (i = 0; i < row.nfields; i++) {
			sbuf_adds(&out, i ? ", " : "");
			value_json_text(i < ntypes ? value_kind_named(types[i]) : VALUE_TEXT,
					row.fields[i], row.lengths[i], &out);
		}
		sbuf_adds(&out, "]");
		if (out.len >= EXPORTCSV_PART && flush_part(part, &out, err))
			goto fail;
	}
	if (rc < 0)
		goto fail;
	sbuf_adds(&out, first ? "],\n\"types\": [],\n\"rows\": []}\n" : "\n]}\n");
	if (flush_part(part, &out, err))
		goto fail;
	csv_free(r);
	mc_free_strings(types, ntypes);
	sbuf_release(&out);
	return 0;
fail:
	if (r)
		csv_free(r);
	mc_free_strings(types, ntypes);
	sbuf_release(&out);
	return -1;
}

static void add_file(download_set *d, const provenance_file *f, int json, size_t bytes)
{
	download_file *x;

	d->files = xrealloc(d->files, (d->n + 1) * sizeof(*d->files));
	x = &d->files[d->n++];
	memset(x, 0, sizeof(*x));
	mc_fmt(x->name, sizeof(x->name), "%s-%s.%s", f->export, f->day, json ? "json" : "csv");
	x->export = xstrdup(f->export);
	mc_fmt(x->day, sizeof(x->day), "%s", f->day);
	x->json = json;
	x->bytes = bytes;
}

/* One export's CSV and JSON, each written in parts; the JSON is made from
 * the CSV as written. 0, or -1 (err); an export the catalogue does not
 * hold on as_of has no files. */
static int write_export(catalogue *cat, const provenance_file *f, const char *as_of,
			download_set *d, mc_err *err)
{
	char csv_file[4096], json_path[4096];
	file_part part;
	sbuf buf;
	int rc;

	add_file(d, f, 0, 0);
	mc_fmt(csv_file, sizeof(csv_file), "%s/%s", d->dir, d->files[d->n - 1].name);
	if (file_part_open(&part, d->out, csv_file, err))
		return -1;
	sbuf_init(&buf);
	rc = exportcsv_write_parts(cat, f->export, as_of, &buf, flush_part, &part, err);
	sbuf_release(&buf);
	if (rc) {
		file_part_abort(&part);
		if (rc < 0)
			return -1;
		free(d->files[--d->n].export);   /* no such export then: no file */
		return 0;
	}
	d->files[d->n - 1].bytes = (size_t)part.len;
	if (file_part_close(&part, NULL, err))
		return -1;
	add_file(d, f, 1, 0);
	mc_fmt(json_path, sizeof(json_path), "%s/%s", d->dir, d->files[d->n - 1].name);
	if (file_part_open(&part, d->out, json_path, err))
		return -1;
	if (export_json(cat, f, as_of, csv_file, &part, err)) {
		file_part_abort(&part);
		return -1;
	}
	d->files[d->n - 1].bytes = (size_t)part.len;
	return file_part_close(&part, NULL, err);
}

int download_write(catalogue *cat, const char *as_of, const char *dir, const char *base_url,
		   const file_out *out, download_set *d, mc_err *err)
{
	cite_set c;
	const provenance_file **latest;
	char models[4096];
	size_t n, i;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	d->dir = xstrdup(dir);
	d->base_url = base_url;
	d->out = out;
	mc_fmt(models, sizeof(models), "%s/models", dir);
	if (make_dir(dir, err) || make_dir(models, err) || cite_load(cat, as_of, &c, err))
		return -1;
	latest = xcalloc(c.n + 1, sizeof(*latest));
	n = cite_latest(&c, latest);
	for (i = 0; !rc && i < n; i++)
		rc = write_export(cat, latest[i], as_of, d, err);
	free(latest);
	cite_release(&c);
	return rc;
}

void download_release(download_set *d)
{
	size_t i;

	for (i = 0; d->files && i < d->n; i++)
		free(d->files[i].export);
	free(d->files);
	free(d->dir);
	memset(d, 0, sizeof(*d));
}

static void html(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

static void text(sbuf *out, const page_texts *texts, const page_texts *english, page_text_id id)
{
	sbuf s;

	sbuf_init(&s);
	page_text_plain(texts, english, id, NULL, &s);
	html(out, s.data ? s.data : "");
	sbuf_release(&s);
}

static void file_link(sbuf *out, const download_file *f, const char *root, const format_lang *l)
{
	sbuf_adds(out, "<a href=\"");
	html(out, root);
	sbuf_adds(out, "downloads/");
	html(out, f->name);
	sbuf_adds(out, f->json ? "\" type=\"application/json\">JSON</a> " :
		  "\" type=\"text/csv\">CSV</a> ");
	format_bytes(l, (double)f->bytes, out);
}

void download_list_html(const download_set *d, const char *root, const page_texts *texts,
			const page_texts *english, sbuf *out)
{
	size_t i;

	if (!d || !d->n)
		return;
	sbuf_adds(out, "<p>");
	text(out, texts, english, PT_DOWNLOADS_LABEL);
	sbuf_adds(out, "</p>\n<ul class=\"downloads\">\n");
	for (i = 0; i < d->n; i++) {
		const download_file *f = &d->files[i];
		int same = i > 0 && !strcmp(d->files[i - 1].export, f->export);

		if (!same) {
			sbuf_adds(out, i ? "</li>\n<li>" : "<li>");
			html(out, f->export);
			sbuf_adds(out, " (");
			html(out, f->day);
			sbuf_adds(out, "): ");
		} else {
			sbuf_adds(out, ", ");
		}
		file_link(out, f, root, format_lang_of(texts ? texts->lang : "en"));
	}
	sbuf_adds(out, "</li>\n</ul>\n");
}

void download_twin_path(const char *stem, char *buf, size_t len)
{
	mc_fmt(buf, len, "downloads/models/%s.json", stem);
}

void download_twin_file(const download_set *d, const char *stem, sbuf *out)
{
	sbuf_reset(out);
	sbuf_addf(out, "%s/models/%s.json", d->dir, stem);
}

/* "URL" of the page pages/LANG/STEM.html: absolute under the site's URL
 * when known, else from the site root. */
static void page_url(sbuf *out, const download_set *d, const char *lang, const char *stem)
{
	sbuf url;
	size_t n = d->base_url ? strlen(d->base_url) : 0;

	sbuf_init(&url);
	if (n)
		sbuf_addf(&url, "%s%s", d->base_url, d->base_url[n - 1] == '/' ? "" : "/");
	sbuf_addf(&url, "pages/%s/%s.html", lang, stem);
	json_str(out, url.data);
	sbuf_release(&url);
}

/* The twin's "citation" member. */
static void twin_citation(sbuf *out, const provenance_file *const *files, size_t n)
{
	char day[11];
	size_t i;

	cite_day(files, n, day);
	sbuf_adds(out, ",\n\"citation\": {\"source\": \"" CITE_AUTHOR "\", \"licence\": \""
		  CITE_LICENCE "\", \"licence_url\": \"" CITE_LICENCE_URL "\", \"url\": \""
		  CITE_URL "\", \"snapshot\": ");
	json_str(out, day);
	sbuf_adds(out, ", \"files\": [");
	for (i = 0; i < n; i++) {
		sbuf_adds(out, i ? ", {\"export\": " : "{\"export\": ");
		json_str(out, files[i]->export);
		sbuf_addf(out, ", \"snapshot\": \"%s\", \"sha256\": \"%s\"}", files[i]->day,
			  files[i]->sha256);
	}
	sbuf_adds(out, "]}");
}

int download_twin(const download_set *d, const model_view *m, const char *stem,
		  char *const *langs, size_t nlangs, const provenance_file *const *files,
		  size_t nfiles, mc_err *err)
{
	size_t i;
	sbuf out, path;
	int rc;

	sbuf_init(&out);
	sbuf_adds(&out, "{\"name\": ");
	json_str(&out, m->name);
	sbuf_adds(&out, ",\n\"url\": ");
	page_url(&out, d, nlangs ? langs[0] : "en", stem);
	sbuf_adds(&out, ",\n\"pages\": {");
	for (i = 0; i < nlangs; i++) {
		sbuf_adds(&out, i ? ", " : "");
		json_str(&out, langs[i]);
		sbuf_adds(&out, ": ");
		page_url(&out, d, langs[i], stem);
	}
	sbuf_adds(&out, "},\n\"last_updated\": ");
	json_str(&out, m->last_updated);
	sbuf_adds(&out, ",\n\"exports\": [");
	for (i = 0; i < m->exports.n; i++) {
		sbuf_adds(&out, i ? ", " : "");
		json_str(&out, m->exports.items[i]);
	}
	sbuf_adds(&out, "],\n\"values\": {");
	for (i = 0; i < m->values.n; i++) {
		sbuf_adds(&out, i ? ",\n  " : "\n  ");
		json_str(&out, m->values.items[i].field);
		sbuf_adds(&out, ": ");
		value_json_of(m->values.items[i].field, m->values.items[i].value,
			      strlen(m->values.items[i].value), &out);
	}
	sbuf_adds(&out, "},\n\"sources\": {");
	for (i = 0; i < m->values.n; i++) {
		sbuf_adds(&out, i ? ",\n  " : "\n  ");
		json_str(&out, m->values.items[i].field);
		sbuf_adds(&out, ": {\"export\": ");
		json_str(&out, m->values.items[i].export);
		sbuf_adds(&out, ", \"snapshot\": ");
		json_str(&out, m->values.items[i].since);
		sbuf_adds(&out, "}");
	}
	sbuf_adds(&out, "}");
	twin_citation(&out, files, nfiles);
	sbuf_adds(&out, "}\n");
	sbuf_init(&path);
	download_twin_file(d, stem, &path);
	rc = file_out_put(d->out, path.data, out.data, out.len, err);
	sbuf_release(&path);
	sbuf_release(&out);
	return rc;
}
