/*
 * Site-wide changes (out/changes.h): the stamp read back as written; the
 * reason for each cause and their combinations; changes.tsv read back as
 * written, with tabs, newlines and backslashes in names; the published
 * forms escape what they show and list the newest change first.
 */
#include "publish/changes.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static void stamp(void)
{
	render_stamp a = { "0.1.0", "" }, b;
	sbuf out;

	memset(a.texts, 'a', 64);
	sbuf_init(&out);
	changes_stamp_tsv(&a, &out);
	changes_stamp_parse(out.data, &b);
	CHECK_STR(b.version, "0.1.0", "stamp: version read back");
	CHECK_STR(b.texts, a.texts, "stamp: texts digest read back");
	changes_stamp_parse("texts\tshort\nversion\t\n", &b);
	CHECK(!b.texts[0] && !b.version[0], "stamp: a short digest and an empty version are not read");
	changes_stamp_parse("", &b);
	CHECK(!b.texts[0] && !b.version[0], "stamp: none: empty");
	sbuf_release(&out);
}

static void reason(void)
{
	render_stamp was = { "0.1.0", "" }, now = { "0.1.0", "" };
	char *gone[] = { (char *)"2025-02-24", (char *)"2025-04-18", (char *)"2025-05-06" };
	sbuf out;

	memset(was.texts, 'a', 64);
	memset(now.texts, 'a', 64);
	sbuf_init(&out);
	changes_reason(&was, &now, NULL, 0, &out);
	CHECK_STR(out.data, "no known cause", "reason: nothing differs");
	sbuf_reset(&out);
	now.texts[3] = 'b';
	changes_reason(&was, &now, NULL, 0, &out);
	CHECK_STR(out.data, "the page texts changed (modelcat translate)", "reason: texts");
	sbuf_reset(&out);
	mc_fmt(now.version, sizeof(now.version), "0.2.0");
	changes_reason(&was, &now, gone, 1, &out);
	CHECK_STR(out.data, "snapshot 2025-02-24 withdrawn from the catalogue; the page texts changed"
			    " (modelcat translate); pages rendered by modelcat 0.2.0 (they were by 0.1.0)",
		  "reason: all three, in order");
	sbuf_reset(&out);
	now.texts[3] = 'a';
	was.version[0] = 0;
	changes_reason(&was, &now, gone, 3, &out);
	CHECK_STR(out.data, "snapshots 2025-02-24, 2025-04-18 and 2025-05-06 withdrawn from the"
			    " catalogue; pages rendered by modelcat 0.2.0 (the version before is not on"
			    " record)", "reason: three withdrawn, version before unknown");
	sbuf_release(&out);
}

static void tsv(void)
{
	char *names1[] = { (char *)"A\tB", (char *)"back\\slash", (char *)"two\nlines" };
	char *names2[] = { (char *)"<b>&amp;" };
	site_change c[2] = {
		{ (char *)"2025-05-08T03:00:00Z", (char *)"2025-05-07", (char *)"the page texts changed",
		  names1, 3 },
		{ (char *)"2025-05-09T03:00:00Z", (char *)"2025-05-07.2", (char *)"why <not>", names2, 1 },
	};
	site_change *back = NULL;
	size_t n = 0;
	sbuf out;

	sbuf_init(&out);
	changes_tsv(c, 2, &out);
	CHECK(out.len && out.data[out.len - 1] == '\n' &&
	      strchr(out.data, '\n') != strrchr(out.data, '\n') &&
	      !strchr(strchr(out.data, '\n') + 1, '\n')[1], "tsv: one line per change");
	CHECK(!strstr(out.data, "A\tB") && strstr(out.data, "A\\tB"), "tsv: a tab in a name escaped");
	changes_parse(out.data, &back, &n);
	CHECK(n == 2, "tsv: two changes read back (%zu)", n);
	if (n == 2) {
		CHECK_STR(back[0].when, c[0].when, "tsv: when");
		CHECK_STR(back[0].snapshot, "2025-05-07", "tsv: snapshot");
		CHECK_STR(back[0].reason, c[0].reason, "tsv: reason");
		CHECK(back[0].n == 3, "tsv: three names");
		if (back[0].n == 3) {
			CHECK_STR(back[0].names[0], "A\tB", "tsv: tab");
			CHECK_STR(back[0].names[1], "back\\slash", "tsv: backslash");
			CHECK_STR(back[0].names[2], "two\nlines", "tsv: newline");
		}
		CHECK_STR(back[1].snapshot, "2025-05-07.2", "tsv: second change");
	}
	changes_release(back, n);
	back = NULL;
	n = 0;
	changes_parse("not a change\n\nx\ty\tz\n", &back, &n);
	CHECK(n == 1 && back[0].n == 0, "tsv: a line without two tabs is skipped; no names is none");
	changes_release(back, n);

	sbuf_reset(&out);
	changes_text(c, 2, &out);
	CHECK(strstr(out.data, "2025-05-09") < strstr(out.data, "2025-05-08"), "text: newest first");
	CHECK(strstr(out.data, "3 models:") != NULL, "text: the count of models");
	sbuf_reset(&out);
	changes_json(c, 2, &out);
	CHECK(strstr(out.data, "\"A\\tB\"") && strstr(out.data, "\"two\\nlines\""),
	      "json: escapes");
	CHECK(strstr(out.data, "2025-05-09") < strstr(out.data, "2025-05-08"), "json: newest first");
	sbuf_reset(&out);
	changes_json(NULL, 0, &out);
	CHECK_STR(out.data, "{\"site_changes\": []}\n", "json: none");
	sbuf_reset(&out);
	changes_html(c, 2, "../pages/en", NULL, NULL, NULL, NULL, &out);
	CHECK(!strstr(out.data, "<b>&amp;") && strstr(out.data, "&lt;b&gt;&amp;amp;"),
	      "html: a name escaped");
	CHECK(!strstr(out.data, "why <not>") && strstr(out.data, "why &lt;not&gt;"),
	      "html: the reason escaped");
	CHECK(strstr(out.data, "href=\"2025-05-07.2.html\"") != NULL, "html: links the snapshot's audit");
	sbuf_release(&out);
}

static int every_page(void *arg, const char *name)
{
	(void)arg;
	return strcmp(name, "two\nlines") != 0;
}

static void links(void)
{
	char *names[] = { (char *)"GPT-4", (char *)"two\nlines" };
	site_change c = { (char *)"2025-05-08T03:00:00Z", (char *)"2025-05-07", (char *)"r", names, 2 };
	sbuf out;

	sbuf_init(&out);
	changes_html(&c, 1, "../pages/en", every_page, NULL, NULL, "<div class=\"cite\">C</div>\n",
		     &out);
	CHECK(strstr(out.data, "<a href=\"../pages/en/gpt-4-") != NULL, "html: a model with a page linked");
	CHECK(strstr(out.data, "<li>two\nlines</li>") != NULL, "html: a model without one is not");
	CHECK(strstr(out.data, "<div class=\"cite\">C</div>\n</body>") != NULL &&
	      strstr(out.data, ".cite pre{") != NULL, "html: it ends with the citation block, styled");
	sbuf_release(&out);
}

int main(void)
{
	stamp();
	reason();
	tsv();
	links();
	return unit_done();
}
