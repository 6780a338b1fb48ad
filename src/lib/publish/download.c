#include "publish/download.h"
#include "publish/cite.h"
#include "values/format.h"
#include "values/value.h"
#include "publish/template.h"
#include "publish/exportcsv.h"
#include "db/query.h"
#include "base/textout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* An export's two files, written together from one read of its rows. */
typedef struct export_parts {
	file_part csv, json;         /* the files */
	sbuf csv_out, json_out;      /* what is not yet written into them */
} export_parts;

/* Hand each buffer to its file past EXPORTCSV_PART bytes, or with all,
 * whatever it holds. 0, or -1 (err). */
static int parts_flush(export_parts *p, int all, mc_err *err)
{
	if ((all || p->csv_out.len >= EXPORTCSV_PART) && flush_part(&p->csv, &p->csv_out, err))
		return -1;
	if ((all || p->json_out.len >= EXPORTCSV_PART) && flush_part(&p->json, &p->json_out, err))
		return -1;
	return 0;
}

/* The JSON of the export's header: its provenance, columns and types. */
static void json_header(const provenance_file *f, const query_rows *rows, sbuf *out)
{
	size_t i;

	sbuf_adds(out, "{\"export\": ");
	json_str(out, f->export);
	sbuf_addf(out, ",\n\"snapshot\": \"%s\",\n\"sha256\": \"%s\",\n", f->day, f->sha256);
	sbuf_adds(out, "\"source\": \"" CITE_AUTHOR "\",\n\"licence\": \"" CITE_LICENCE "\",\n"
		  "\"licence_url\": \"" CITE_LICENCE_URL "\",\n\"columns\": [");
	for (i = 0; i < rows->ncols; i++) {
		sbuf_adds(out, i ? ", " : "");
		json_str(out, rows->fields[i]);
	}
	sbuf_adds(out, "],\n\"types\": [");
	for (i = 0; i < rows->ncols; i++) {
		sbuf_adds(out, i ? ", " : "");
		json_str(out, colmap_type_name(rows->types[i]));
	}
	sbuf_adds(out, "],\n\"rows\": [");
}

/* The export's rows as CSV and as JSON (each value as its column's type:
 * numbers and booleans as JSON's), from one read of the stored rows.
 * 0, 1 when the catalogue holds no such export on as_of, -1 (err). */
static int export_rows(catalogue *cat, const provenance_file *f, const char *as_of,
		       export_parts *p, mc_err *err)
{
	query_rows rows;
	size_t i, n = 0;
	int rc = query_rows_open(cat, f->export, as_of, 0, &rows, err);

	if (rc)
		goto out;
	exportcsv_header(&rows, &p->csv_out);
	json_header(f, &rows, &p->json_out);
	while ((rc = query_rows_next(&rows, err)) == 1) {
		exportcsv_row(&rows, &p->csv_out);
		sbuf_adds(&p->json_out, n++ ? ",\n[" : "\n[");
		for (i = 0; i < rows.ncols; i++) {
			sbuf_adds(&p->json_out, i ? ", " : "");
			value_json_text(value_kind_of_type(rows.types[i]), rows.values[i],
					rows.values[i] ? rows.lengths[i] : 0, &p->json_out);
		}
		sbuf_addc(&p->json_out, ']');
		if (parts_flush(p, 0, err)) {
			rc = -1;
			goto out;
		}
	}
	if (!rc) {
		sbuf_adds(&p->json_out, "\n]}\n");
		rc = parts_flush(p, 1, err);
	}
out:
	query_rows_close(&rows);
	return rc;
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

/* One export's CSV and JSON, each written in parts as its rows are read.
 * 0, or -1 (err); an export the catalogue does not hold on as_of has no
 * files. */
static int write_export(catalogue *cat, const provenance_file *f, const char *as_of,
			download_set *d, mc_err *err)
{
	char csv_path[4096], json_path[4096];
	export_parts p;
	int rc = -1;

	add_file(d, f, 0, 0);
	add_file(d, f, 1, 0);
	mc_fmt(csv_path, sizeof(csv_path), "%s/%s", d->dir, d->files[d->n - 2].name);
	mc_fmt(json_path, sizeof(json_path), "%s/%s", d->dir, d->files[d->n - 1].name);
	sbuf_init(&p.csv_out);
	sbuf_init(&p.json_out);
	if (file_part_open(&p.csv, d->out, csv_path, err))
		goto out;
	if (file_part_open(&p.json, d->out, json_path, err)) {
		file_part_abort(&p.csv);
		goto out;
	}
	rc = export_rows(cat, f, as_of, &p, err);
	if (rc) {
		file_part_abort(&p.csv);
		file_part_abort(&p.json);
		if (rc > 0) {               /* no such export then: no files */
			free(d->files[--d->n].export);
			free(d->files[--d->n].export);
			rc = 0;
		}
		goto out;
	}
	d->files[d->n - 2].bytes = (size_t)p.csv.len;
	d->files[d->n - 1].bytes = (size_t)p.json.len;
	if (file_part_close(&p.csv, NULL, err)) {
		file_part_abort(&p.json);
		rc = -1;
		goto out;
	}
	rc = file_part_close(&p.json, NULL, err);
out:
	sbuf_release(&p.csv_out);
	sbuf_release(&p.json_out);
	return rc;
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
