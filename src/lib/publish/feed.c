#include "publish/feed.h"
#include "publish/audit.h"
#include "db/query.h"
#include "base/textout.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void feed_entry_title(const char *label, const diff_result *d, sbuf *out)
{
	sbuf_addf(out, "%s: %zu added, %zu removed, %zu renamed, %zu changed, %zu quarantined,"
		  " %zu held", label, d->added.n, d->removed.n, d->renamed.n, audit_changed_count(d),
		  d->quarantined.n, d->held_exports.n + d->held_models.n);
}

/* The plain-text summary of one snapshot's changes (the entry's content). */
void feed_entry_text(const diff_result *d, sbuf *out)
{
	size_t i;

	sbuf_addf(out, "%zu added, %zu removed, %zu renamed, %zu changed, %zu quarantined,"
		  " %zu held.", d->added.n, d->removed.n, d->renamed.n, audit_changed_count(d),
		  d->quarantined.n, d->held_exports.n + d->held_models.n);
	for (i = 0; i < d->added.n && i < 50; i++)
		sbuf_addf(out, "\n%s: %s (%s)", d->added.items[i].returned ? "returned" : "added",
			  d->added.items[i].name, d->added.items[i].export);
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

/* A link element: rel, href (BASE/audit/REF with a base URL, else REF). */
static int write_link(xmlTextWriterPtr w, const feed_site *site, const char *rel,
		      const char *type, const char *ref)
{
	sbuf href;
	int rc;

	sbuf_init(&href);
	if (site->base_url && *site->base_url) {
		size_t n = strlen(site->base_url);

		sbuf_add(&href, site->base_url, n);
		if (!n || site->base_url[n - 1] != '/')
			sbuf_addc(&href, '/');
		sbuf_adds(&href, "audit/");
	}
	sbuf_adds(&href, ref);
	rc = xmlTextWriterStartElement(w, BAD_CAST "link") < 0 ||
	     xmlTextWriterWriteAttribute(w, BAD_CAST "rel", BAD_CAST rel) < 0 ||
	     (type && xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST type) < 0) ||
	     xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST href.data) < 0 ||
	     xmlTextWriterEndElement(w) < 0 ? -1 : 0;
	sbuf_release(&href);
	return rc;
}

/* One entry element. */
static int write_entry(xmlTextWriterPtr w, const feed_site *site, const feed_entry *e)
{
	if (xmlTextWriterStartElement(w, BAD_CAST "entry") < 0 ||
	    xmlTextWriterWriteElement(w, BAD_CAST "id", BAD_CAST e->id) < 0 ||
	    xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST e->title) < 0 ||
	    xmlTextWriterWriteElement(w, BAD_CAST "updated", BAD_CAST e->updated) < 0)
		return -1;
	if (e->link && write_link(w, site, "alternate", "text/html", e->link) < 0)
		return -1;
	if (xmlTextWriterStartElement(w, BAD_CAST "content") < 0 ||
	    xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST "text") < 0 ||
	    xmlTextWriterWriteString(w, BAD_CAST e->text) < 0 ||
	    xmlTextWriterEndElement(w) < 0 ||
	    xmlTextWriterEndElement(w) < 0)
		return -1;
	return 0;
}

int feed_atom(const feed_site *site, const feed_entry *e, size_t n, sbuf *out, mc_err *err)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	int based = site->base_url && *site->base_url;
	size_t i;
	int rc = -1;

	if (n > FEED_ENTRIES)
		n = FEED_ENTRIES;
	if (!w) {
		mc_error(err, "%s: cannot start the feed", site->id);
		goto out;
	}
	W(xmlTextWriterSetIndent(w, 1));
	W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	W(xmlTextWriterStartElementNS(w, NULL, BAD_CAST "feed", BAD_CAST "http://www.w3.org/2005/Atom"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST "modelcat: changes to the catalogue"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "id", BAD_CAST site->id));
	W(xmlTextWriterWriteElement(w, BAD_CAST "updated", BAD_CAST (n ? e[0].updated : "1970-01-01T00:00:00Z")));
	W(xmlTextWriterStartElement(w, BAD_CAST "author"));
	W(xmlTextWriterWriteElement(w, BAD_CAST "name", BAD_CAST "modelcat"));
	W(xmlTextWriterEndElement(w));
	W(xmlTextWriterWriteElement(w, BAD_CAST "generator", BAD_CAST (based ? "modelcat" :
		"modelcat (no base URL configured: links are relative to this feed's address)")));
	W(write_link(w, site, "self", "application/atom+xml", "feed.atom"));
	W(write_link(w, site, "alternate", "text/html", "index.html"));
	for (i = 0; i < n; i++)
		W(write_entry(w, site, &e[i]));
	W(xmlTextWriterEndElement(w));
	W(xmlTextWriterEndDocument(w));
	xmlFreeTextWriter(w);
	w = NULL;
	sbuf_add(out, xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
	rc = 0;
	goto out;
xmlfail:
	mc_error(err, "%s: cannot write the feed", site->id);
	rc = -1;
out:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	return rc;
}

static void add_html(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

void feed_index_html(char *const *labels, const char *const *counts, size_t n,
		     char *const *withdrawn, size_t nw, size_t nsite, const frame *f,
		     const char *cite, sbuf *out)
{
	size_t i;

	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>modelcat audits</title>\n");
	frame_head(f, "The audits of the catalogue of AI models: what changed at each snapshot"
		   " of Epoch AI's data, with a feed.", out);
	sbuf_addf(out, "<link rel=\"alternate\" type=\"application/atom+xml\""
		  " href=\"feed.atom\">\n<style>body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;"
		  "max-width:40em;padding:1em;overflow-wrap:anywhere;color:#222}"
		  "a{color:#0b57d0}.site{margin:-1em -1em 0}%s%s</style>\n</head>\n<body>\n",
		  f ? frame_style : "", cite ? cite_style : "");
	frame_header(f, out);
	sbuf_adds(out, "<h1>Audits</h1>\n"
		  "<p>What changed in the catalogue at each snapshot (<a href=\"feed.atom\">feed</a>).</p>\n<ul>\n");
	for (i = 0; i < n; i++) {
		sbuf_adds(out, "<li><a href=\"");
		add_html(out, labels[i]);
		sbuf_adds(out, ".html\">");
		add_html(out, labels[i]);
		sbuf_adds(out, "</a> (<a href=\"");
		add_html(out, labels[i]);
		sbuf_adds(out, ".txt\">text</a>, <a href=\"");
		add_html(out, labels[i]);
		sbuf_adds(out, ".json\">JSON</a>)");
		if (counts && counts[i]) {
			const char *c = strchr(counts[i], ':');

			sbuf_adds(out, ": ");
			add_html(out, c ? c + 2 : counts[i]);
		}
		sbuf_adds(out, "</li>\n");
	}
	sbuf_adds(out, "</ul>\n");
	if (nw) {
		sbuf_adds(out, "<h2>Withdrawn</h2>\n<p>Snapshots published once and since taken out"
			  " of the catalogue.</p>\n<ul>\n");
		for (i = 0; i < nw; i++) {
			sbuf_adds(out, "<li>");
			add_html(out, withdrawn[i]);
			sbuf_adds(out, "</li>\n");
		}
		sbuf_adds(out, "</ul>\n");
	}
	sbuf_addf(out, "<h2>Site-wide changes</h2>\n<p>Pages changed for a reason no snapshot's"
		       " audit gives (new page texts, a new renderer, withdrawn snapshots):"
		       " <a href=\"site.html\">%zu on record</a> (<a href=\"site.txt\">text</a>,"
		       " <a href=\"site.json\">JSON</a>).</p>\n", nsite);
	if (cite)
		sbuf_adds(out, cite);
	sbuf_adds(out, "</body>\n</html>\n");
}
