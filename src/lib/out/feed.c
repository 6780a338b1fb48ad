#include "out/feed.h"
#include "db/query.h"
#include "db/snapshot.h"
#include "base/textout.h"

#include <dirent.h>
#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_file(const char *path, const void *data, size_t len, mc_err *err)
{
	char tmp[4096];
	FILE *f;

	mc_fmt(tmp, sizeof(tmp), "%s.tmp-%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fflush(f) || fsync(fileno(f))) {
		mc_error(err, "%s: cannot write: %s", tmp, strerror(errno));
		if (f)
			fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		mc_error(err, "%s: cannot write: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The plain-text summary of one snapshot's changes (the entry's content). */
static void entry_text(const diff_result *d, sbuf *out)
{
	size_t i;

	sbuf_addf(out, "%zu added, %zu removed, %zu renamed, %zu changed, %zu quarantined.",
		  d->added.n, d->removed.n, d->renamed.n, d->changed.n, d->quarantined.n);
	for (i = 0; i < d->added.n && i < 50; i++)
		sbuf_addf(out, "\nadded: %s (%s)", d->added.items[i].name, d->added.items[i].export);
	for (i = 0; i < d->removed.n && i < 50; i++)
		sbuf_addf(out, "\nremoved: %s (%s)", d->removed.items[i].name,
			  d->removed.items[i].export);
	for (i = 0; i < d->renamed.n && i < 50; i++)
		sbuf_addf(out, "\nrenamed: %s -> %s (%s)", d->renamed.items[i].old_name,
			  d->renamed.items[i].name, d->renamed.items[i].export);
	for (i = 0; i < d->changed.n && i < 50; i++) {
		size_t k;

		sbuf_addf(out, "\nchanged: %s (%s):", d->changed.items[i].name,
			  d->changed.items[i].export);
		for (k = 0; k < d->changed.items[i].nfields; k++)
			sbuf_addf(out, "%s %s", k ? "," : "", d->changed.items[i].fields[k].field);
	}
	if (d->changed.n > 50)
		sbuf_addf(out, "\n... and %zu more changed", d->changed.n - 50);
}

#define W(call) do { if ((call) < 0) goto xmlfail; } while (0)

static int write_feed(catalogue *cat, const char *dir, const snapshot_day *d, size_t nd, mc_err *err)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	char path[4096], stamp[40];
	size_t i, n = nd > FEED_ENTRIES ? FEED_ENTRIES : nd;
	int rc = -1;

	if (!w) {
		mc_error(err, "%s: cannot start the feed", dir);
		goto out;
	}
	W(xmlTextWriterSetIndent(w, 1));
	W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	W(xmlTextWriterStartElementNS(w, NULL, BAD_CAST "feed", BAD_CAST "http://www.w3.org/2005/Atom"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST "modelcat: changes to the catalogue"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "id", BAD_CAST "urn:modelcat:audit"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "updated", BAD_CAST (n ? d[0].loaded : "1970-01-01T00:00:00Z")));
	W(xmlTextWriterStartElement(w, BAD_CAST "author"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "name", BAD_CAST "modelcat"));
	W(xmlTextWriterEndElement(w));
	W(xmlTextWriterStartElement(w, BAD_CAST "link"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "rel", BAD_CAST "alternate"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST "index.html"));
	W(xmlTextWriterEndElement(w));
	for (i = 0; i < n; i++) {
		diff_result diff;
		sbuf title, text;
		const char *from = i + 1 < nd ? d[i + 1].day : "";

		if (query_diff(cat, from, d[i].day, &diff, err))
			goto out;
		sbuf_init(&title);
		sbuf_init(&text);
		sbuf_addf(&title, "%s: %zu added, %zu removed, %zu renamed, %zu changed",
			  d[i].day, diff.added.n, diff.removed.n, diff.renamed.n, diff.changed.n);
		entry_text(&diff, &text);
		mc_fmt(stamp, sizeof(stamp), "urn:modelcat:audit:%s", d[i].day);
		rc = xmlTextWriterStartElement(w, BAD_CAST "entry") < 0 ||
		     xmlTextWriterWriteElement(w, BAD_CAST "id", BAD_CAST stamp) < 0 ||
		     xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST title.data) < 0 ||
		     xmlTextWriterWriteElement(w, BAD_CAST "updated", BAD_CAST d[i].loaded) < 0 ||
		     xmlTextWriterStartElement(w, BAD_CAST "link") < 0 ||
		     xmlTextWriterWriteAttribute(w, BAD_CAST "rel", BAD_CAST "alternate") < 0 ||
		     xmlTextWriterWriteFormatAttribute(w, BAD_CAST "href", "%s.html", d[i].day) < 0 ||
		     xmlTextWriterEndElement(w) < 0 ||
		     xmlTextWriterStartElement(w, BAD_CAST "content") < 0 ||
		     xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST "text") < 0 ||
		     xmlTextWriterWriteString(w, BAD_CAST text.data) < 0 ||
		     xmlTextWriterEndElement(w) < 0 ||
		     xmlTextWriterEndElement(w) < 0 ? -1 : 0;
		sbuf_release(&title);
		sbuf_release(&text);
		diff_result_release(&diff);
		if (rc)
			goto xmlfail;
	}
	W(xmlTextWriterEndElement(w));
	W(xmlTextWriterEndDocument(w));
	xmlFreeTextWriter(w);
	w = NULL;
	mc_fmt(path, sizeof(path), "%s/feed.atom", dir);
	rc = write_file(path, xmlBufferContent(buf), (size_t)xmlBufferLength(buf), err);
	goto out;
xmlfail:
	mc_error(err, "%s: cannot write the feed", dir);
	rc = -1;
out:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	return rc;
}

static int name_desc(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

static int write_index(const char *dir, mc_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4096];
	size_t n = 0, i;
	sbuf out;
	int rc;

	if (!d) {
		mc_error(err, "%s: cannot read: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		/* DATE.html audit pages */
		if (len != 15 || strcmp(e->d_name + 10, ".html") || !strcmp(e->d_name, "index.html"))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrndup(e->d_name, 10);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_desc);
	sbuf_init(&out);
	sbuf_adds(&out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>modelcat audits</title>\n<link rel=\"alternate\" type=\"application/atom+xml\""
		  " href=\"feed.atom\">\n<style>body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;"
		  "max-width:40em;padding:1em}</style>\n</head>\n<body>\n<h1>Audits</h1>\n"
		  "<p>What changed in the catalogue at each snapshot (<a href=\"feed.atom\">feed</a>).</p>\n<ul>\n");
	for (i = 0; i < n; i++) {
		sbuf_adds(&out, "<li><a href=\"");
		textout_html(&out, names[i], strlen(names[i]));
		sbuf_adds(&out, ".html\">");
		textout_html(&out, names[i], strlen(names[i]));
		sbuf_adds(&out, "</a> (<a href=\"");
		textout_html(&out, names[i], strlen(names[i]));
		sbuf_adds(&out, ".txt\">text</a>, <a href=\"");
		textout_html(&out, names[i], strlen(names[i]));
		sbuf_adds(&out, ".json\">JSON</a>)</li>\n");
		free(names[i]);
	}
	free(names);
	sbuf_adds(&out, "</ul>\n</body>\n</html>\n");
	mc_fmt(path, sizeof(path), "%s/index.html", dir);
	rc = write_file(path, out.data, out.len, err);
	sbuf_release(&out);
	return rc;
}

int feed_write(catalogue *cat, const char *dir, mc_err *err)
{
	snapshot_day *days;
	size_t n;
	int rc;

	if (snapshot_recent_days(cat, FEED_ENTRIES + 1, &days, &n, err))
		return -1;
	rc = write_feed(cat, dir, days, n, err);
	if (!rc)
		rc = write_index(dir, err);
	free(days);
	return rc;
}
