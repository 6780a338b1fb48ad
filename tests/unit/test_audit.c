/*
 * The audit renderers on a diff_result made by hand: models sorted by
 * name; a renamed model counted once (renamed, not changed too); values
 * as pages show them, the stored one in the JSON and the HTML title;
 * volatile-only changes in their own section; a returned model marked; a
 * quarantined row named by export, line and model, never by its file;
 * links to pages and neighbours only when asked for; the feed's title
 * with every count. The hardware section: a card with the models its
 * lists gained and lost, long lists cut in text and HTML ("and N more")
 * and whole in the JSON, names escaped in the HTML.
 */
#include "publish/audit.h"
#include "publish/feed.h"
#include "publish/hwaudit.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* a string literal as the char * of diff_result */
#define S(x) ((char *)(x))

static diff_field fields_citations[] = { { S("Citations"), S("8983"), S("10079") } };
static diff_field fields_params[] = { { S("Parameters"), S("40000000000"), S("70000000000") },
				      { S("Citations"), S("1"), S("2") } };
static diff_field fields_renamed[] = { { S("Organization"), S("A"), S("B") } };

static diff_model added[] = {
	{ S("notable_ai_models"), S("zeta"), NULL, NULL, 0, 0 },
	{ S("notable_ai_models"), S("Alpha"), NULL, NULL, 0, 1 },
	{ S("notable_ai_models"), S("beta"), NULL, NULL, 0, 0 },
};
static diff_model renamed[] = { { S("notable_ai_models"), S("New"), S("Old"), NULL, 0, 0 } };
static diff_model changed[] = {
	{ S("notable_ai_models"), S("Volatile"), NULL, fields_citations, 1, 0 },
	{ S("notable_ai_models"), S("Big"), NULL, fields_params, 2, 0 },
	{ S("notable_ai_models"), S("New"), NULL, fields_renamed, 1, 0 },
};
static diff_quarantine quarantined[] = {
	{ S("notable_ai_models"), S("/var/lib/modelcat/snapshots/notable_ai_models/x.csv.gz"), 24,
	  S("Mistral OCR"), S("Organization"), S("Organization: invalid UTF-8 in the cell"),
	  S("2025-05-10") },   /* the reason as the parser words it, the field first */
	{ S("notable_ai_models"), S("/tmp/secret/x.csv"), 25, NULL, NULL, S("no model name"), S("2025-05-10") },
};
static char *exports[] = { S("notable_ai_models") };

static void make(diff_result *d)
{
	memset(d, 0, sizeof(*d));
	strcpy(d->from, "2025-05-06");
	strcpy(d->to, "2025-05-10");
	d->added.items = added;
	d->added.n = 3;
	d->renamed.items = renamed;
	d->renamed.n = 1;
	d->changed.items = changed;
	d->changed.n = 3;
	d->quarantined.items = quarantined;
	d->quarantined.n = 2;
	d->exports.items = exports;
	d->exports.n = 1;
}

static int has_page(void *arg, const char *name)
{
	(void)arg;
	return strcmp(name, "zeta") != 0;
}

/* Where needle is in hay (-1: nowhere). */
static long at(const sbuf *hay, const char *needle)
{
	const char *p = strstr(hay->data, needle);

	return p ? (long)(p - hay->data) : -1;
}

static void test_text(const diff_result *d, const audit_links *l)
{
	sbuf out;

	sbuf_init(&out);
	audit_text_with(d, l, &out);
	CHECK(at(&out, "3 added, 0 removed, 1 renamed, 2 changed, 2 quarantined") > 0,
	      "the renamed model is counted renamed, not changed too");
	CHECK(at(&out, "  notable_ai_models: Alpha (returned)\n") > 0 &&
	      at(&out, "  notable_ai_models: Alpha (returned)\n") < at(&out, "  notable_ai_models: beta\n") &&
	      at(&out, "  notable_ai_models: beta\n") < at(&out, "  notable_ai_models: zeta\n"),
	      "added models sorted by name (case folded), a returned one marked");
	CHECK(at(&out, "    Parameters: 40B \xe2\x86\x92 70B\n") > 0, "a parameter count as pages show it");
	CHECK(at(&out, "  notable_ai_models: Old -> New\n    Organization: A \xe2\x86\x92 B\n") > 0,
	      "a rename carries the values that changed with it");
	CHECK(at(&out, "\nChanged\n") < at(&out, "\nChanged only in volatile fields (Citations)\n") &&
	      at(&out, "\nChanged\n") > 0, "substantive changes first, then the volatile section");
	CHECK(at(&out, "  notable_ai_models: Volatile: Citations 8,983 \xe2\x86\x92 10,079\n") > 0,
	      "a volatile-only change on one line");
	CHECK(at(&out, "  2025-05-10 notable_ai_models line 24: Mistral OCR: Organization: invalid UTF-8 in the cell\n") > 0,
	      "a quarantined row named by export, line and model");
	CHECK(at(&out, "Organization: Organization") < 0, "the field named once, not again before a reason that names it");
	CHECK(at(&out, "line 25: (no model name): no model name") > 0, "a row without a name says so");
	CHECK(at(&out, "/var/") < 0 && at(&out, "/tmp/") < 0, "no path of the machine in the text audit");
	sbuf_reset(&out);
	audit_text(d, &out);
	CHECK(at(&out, "Changed only") < 0 && at(&out, "  notable_ai_models: Volatile\n") > 0,
	      "without volatile fields given, no volatile section");
	sbuf_release(&out);
}

static void test_json(const diff_result *d, const audit_links *l)
{
	sbuf out;

	sbuf_init(&out);
	audit_json_with(d, l, &out);
	CHECK(at(&out, "\"added\": [\"Alpha\", \"beta\", \"zeta\"]") > 0, "JSON: added sorted");
	CHECK(at(&out, "\"returned\": [{\"name\": \"Alpha\", \"export\": \"notable_ai_models\"}]") > 0,
	      "JSON: returned listed");
	CHECK(at(&out, "{\"field\": \"Parameters\", \"old\": \"40000000000\", \"new\": \"70000000000\"}") > 0,
	      "JSON: stored values");
	CHECK(at(&out, "\"name\": \"Volatile\", \"export\": \"notable_ai_models\", \"fields\": "
		       "[{\"field\": \"Citations\", \"old\": \"8983\", \"new\": \"10079\"}], "
		       "\"volatile_only\": true}") > 0, "JSON: volatile-only marked");
	CHECK(at(&out, "\"from\": \"Old\", \"to\": \"New\", \"export\": \"notable_ai_models\", "
		       "\"fields\": [{\"field\": \"Organization\"") > 0, "JSON: a rename with its fields");
	CHECK(at(&out, "\"changed\": 2, \"quarantined\": 2}") > 0, "JSON: by_export counts as the text");
	CHECK(at(&out, "\"file\"") < 0 && at(&out, "/var/") < 0 && at(&out, "/tmp/") < 0,
	      "JSON: no file, no path of the machine");
	sbuf_release(&out);
}

static void test_html(const diff_result *d, const audit_links *l)
{
	sbuf out;

	sbuf_init(&out);
	audit_html_linked(d, l, &out);
	CHECK(at(&out, "<a rel=\"prev\" href=\"2025-05-06.html\">") > 0, "HTML: previous audit linked");
	CHECK(at(&out, "<a rel=\"next\"") < 0, "HTML: no next audit, no link");
	CHECK(at(&out, "<a href=\"../pages/en/big-") > 0, "HTML: a model links to its page");
	CHECK(at(&out, ">zeta</a>") < 0 && at(&out, "zeta") > 0, "HTML: a model without a page is not linked");
	CHECK(at(&out, "<del title=\"40000000000\">40B</del>") > 0, "HTML: the stored value in the title");
	CHECK(at(&out, "<h2 id=\"changed\">Changed (1)</h2>") > 0 &&
	      at(&out, "<h2 id=\"volatile\">Changed only in volatile fields (1)</h2>") > 0,
	      "HTML: substantive and volatile sections counted apart");
	CHECK(at(&out, "<td>Mistral OCR</td>") > 0 && at(&out, "/var/") < 0, "HTML: quarantined row named, no path");
	CHECK(at(&out, "<div class=\"cite\">CITED</div>") > at(&out, "<td>Mistral OCR</td>") &&
	      at(&out, ".cite pre{") > 0, "HTML: the citation block after the changes, and its style");
	sbuf_reset(&out);
	audit_html(d, &out);
	CHECK(at(&out, "<a ") < 0, "HTML without links: no link at all");
	CHECK(at(&out, "class=\"cite\"") < 0 && at(&out, ".cite") < 0, "HTML without links: no citation block");
	sbuf_release(&out);
}

static void test_feed(const diff_result *d)
{
	feed_entry e = { "urn:x:1", "T", "2025-05-10T00:00:00Z", "2025-05-10.html", "text" };
	feed_site site = { "urn:x", "https://example.org/site" };
	mc_err err;
	sbuf out;

	sbuf_init(&out);
	feed_entry_title("2025-05-10", d, &out);
	CHECK_STR(out.data, "2025-05-10: 3 added, 0 removed, 1 renamed, 2 changed, 2 quarantined, 0 held",
		  "the entry title has every count");
	sbuf_reset(&out);
	CHECK(feed_atom(&site, &e, 1, &out, &err) == 0, "the feed is written");
	CHECK(at(&out, "<link rel=\"self\" type=\"application/atom+xml\" "
		       "href=\"https://example.org/site/audit/feed.atom\"/>") > 0, "rel=self, absolute");
	CHECK(at(&out, "href=\"https://example.org/site/audit/2025-05-10.html\"") > 0, "entry link absolute");
	sbuf_reset(&out);
	site.base_url = NULL;
	CHECK(feed_atom(&site, &e, 1, &out, &err) == 0, "the feed is written without a base URL");
	CHECK(at(&out, "href=\"feed.atom\"") > 0 && at(&out, "no base URL configured") > 0,
	      "without a base URL: relative links, and the generator says so");
	sbuf_release(&out);
}

/* The lists sorted once (audit_order) give the three audits each audit
 * gives sorting its own: added (zeta, Alpha, beta as made) comes out
 * Alpha, beta, zeta. */
static void test_order(const diff_result *d, const audit_links *l)
{
	void (*const audits[3])(const diff_result *, const audit_links *, sbuf *) = {
		audit_text_with, audit_json_with, audit_html_linked
	};
	audit_links with = *l;
	audit_order o;
	sbuf own, given;
	size_t k;

	audit_order_make(&o, d);
	CHECK(o.n[0] == 3 && !strcmp(o.sorted[0][0]->name, "Alpha") &&
		      !strcmp(o.sorted[0][1]->name, "beta") && !strcmp(o.sorted[0][2]->name, "zeta"),
	      "the added list sorted by name, case folded");
	CHECK(o.n[3] == 3 && !strcmp(o.sorted[3][0]->name, "Big") &&
		      !strcmp(o.sorted[3][2]->name, "Volatile"),
	      "the changed list sorted by name");
	with.order = &o;
	for (k = 0; k < 3; k++) {
		sbuf_init(&own);
		sbuf_init(&given);
		audits[k](d, l, &own);
		audits[k](d, &with, &given);
		CHECK(own.len > 0 && own.len == given.len && !memcmp(own.data, given.data, own.len),
		      "audit %zu: the same bytes with the order made once", k);
		sbuf_release(&own);
		sbuf_release(&given);
	}
	audit_order_release(&o);
	CHECK(!o.sorted[0] && !o.sorted[3], "released");
}

/* The hardware section of the three audits, on a card made by hand. */
static void test_hardware(const diff_result *d, const audit_links *l)
{
	static char *many[] = { S("m1"), S("m2"), S("m3"), S("m4"), S("m5"), S("m6"), S("m7"),
				S("m8"), S("m9"), S("m10") };
	static char *lost[] = { S("Old <one>") };
	hwaudit_card card;
	hwaudit hw = { &card, 1 };
	audit_links with = *l;
	sbuf out;

	memset(&card, 0, sizeof(card));
	card.name = S("Card <X>");
	card.added[0].v = many;           /* 16 bits: ten models */
	card.added[0].n = 10;
	card.added[2].v = many;           /* 4 bits: the first two */
	card.added[2].n = 2;
	card.removed[1].v = lost;
	card.removed[1].n = 1;
	card.trained_added.v = many + 9;
	card.trained_added.n = 1;
	with.hardware = &hw;
	sbuf_init(&out);
	audit_text_with(d, &with, &out);
	CHECK(strstr(out.data, "\nHardware pages (1): ") != NULL, "text: the section");
	CHECK(strstr(out.data, "  Card <X>: fits now: m1 (16, 4 bits), m2 (16, 4 bits), m3 (16 bits),") != NULL,
	      "text: a model once, with its widths");
	CHECK(strstr(out.data, "m8 (16 bits) and 2 more; fits no longer: Old <one> (8 bits); "
			       "trained on it, now listed: m10\n") != NULL, "text: a long list cut");
	sbuf_reset(&out);
	audit_json_with(d, &with, &out);
	CHECK(strstr(out.data, "\"hardware\": [\n   {\"name\": \"Card <X>\", \"fits\": [{\"bits\": 16, "
			       "\"added\": [\"m1\", \"m2\", \"m3\", \"m4\", \"m5\", \"m6\", \"m7\", \"m8\", "
			       "\"m9\", \"m10\"], \"removed\": [], \"parameters_changed\": []}, {\"bits\": 8, ")
	      != NULL, "json: every name, per width");
	CHECK(strstr(out.data, "\"trained\": {\"added\": [\"m10\"], \"removed\": []}}]}\n") != NULL,
	      "json: the trained list, the object closed");
	sbuf_reset(&out);
	audit_html_linked(d, &with, &out);
	CHECK(strstr(out.data, "<li><a href=\"../pages/en/hardware/") != NULL, "html: the card linked");
	CHECK(strstr(out.data, ">Card &lt;X&gt;</a>: fits now: ") != NULL &&
	      strstr(out.data, "Old &lt;one&gt; (8 bits)") != NULL && !strstr(out.data, "<one>"),
	      "html: names escaped");
	sbuf_reset(&out);
	audit_json_with(d, l, &out);
	CHECK(!strstr(out.data, "\"hardware\""), "json: none without the section");
	sbuf_release(&out);
}

int main(void)
{
	char *vol[] = { S("Citations") };
	audit_links l = { "2025-05-06", NULL, 1, "../pages/en", has_page, NULL, vol, 1, NULL,
			  "<div class=\"cite\">CITED</div>\n", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	diff_result d;

	make(&d);
	test_text(&d, &l);
	test_json(&d, &l);
	test_html(&d, &l);
	test_order(&d, &l);
	test_hardware(&d, &l);
	test_feed(&d);
	return unit_done();
}
