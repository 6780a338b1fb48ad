/*
 * The site's frame (out/frame.h): no frame, only the description; the
 * header's links relative to the page; hreflang links relative without a
 * site URL and absolute with one (with or without its final '/'), in
 * pairs with the page's own; the same page in the other language, else
 * its index; every string escaped; the root page's parts per language.
 */
#include "publish/frame.h"
#include "unit.h"

#include <string.h>

static void unframed(void)
{
	sbuf out;

	sbuf_init(&out);
	frame_head(NULL, "A \"quoted\" <b>description</b>", &out);
	CHECK_STR(out.data, "<meta name=\"description\" content=\"A &quot;quoted&quot; "
		  "&lt;b&gt;description&lt;/b&gt;\">\n", "no frame: the description alone, escaped");
	sbuf_reset(&out);
	frame_header(NULL, &out);
	CHECK(out.len == 0, "no frame: no header");
	sbuf_reset(&out);
	frame_head(NULL, NULL, &out);
	CHECK(out.len == 0, "no frame and no description: nothing");
	sbuf_release(&out);
}

static void model_page(void)
{
	frame_alt alt = { "nl", "Neder<lands>", "pages/nl/gpt-4-29f11dbc63.html", "pages/nl/index.html" };
	frame f = { "en", "../../", NULL, "pages/en/gpt-4-29f11dbc63.html", "Site & co",
		    "Site", "All models", "Audit", "pages/en/index.html", &alt, 1, NULL, NULL, NULL, NULL, NULL, NULL };
	sbuf out;

	sbuf_init(&out);
	frame_head(&f, "d", &out);
	CHECK(strstr(out.data, "<link rel=\"icon\" href=\"data:,\">") != NULL,
	      "an empty icon: no request for favicon.ico");
	CHECK(strstr(out.data, "<link rel=\"alternate\" hreflang=\"en\" "
		     "href=\"../../pages/en/gpt-4-29f11dbc63.html\">") != NULL,
	      "hreflang of the page itself, relative without a site URL");
	CHECK(strstr(out.data, "<link rel=\"alternate\" hreflang=\"nl\" "
		     "href=\"../../pages/nl/gpt-4-29f11dbc63.html\">") != NULL,
	      "hreflang of the Dutch page");
	sbuf_reset(&out);
	f.base_url = "https://example.org/site";
	frame_head(&f, "d", &out);
	CHECK(strstr(out.data, "hreflang=\"nl\" href=\"https://example.org/site/pages/nl/"
		     "gpt-4-29f11dbc63.html\"") != NULL, "absolute with a site URL, '/' added");
	sbuf_reset(&out);
	f.base_url = "https://example.org/site/";
	frame_head(&f, "d", &out);
	CHECK(strstr(out.data, "href=\"https://example.org/site/pages/en/gpt-4-29f11dbc63.html\"") !=
	      NULL, "absolute with a site URL ending in '/'");
	sbuf_reset(&out);
	frame_header(&f, &out);
	CHECK(strstr(out.data, "<a href=\"../../index.html\" class=\"home\">Site &amp; co</a>") != NULL,
	      "the site's name links the root page, escaped");
	CHECK(strstr(out.data, "<a href=\"../../pages/en/index.html\">All models</a>") != NULL,
	      "the index of the page's language");
	CHECK(strstr(out.data, "<a href=\"../../audit/index.html\">Audit</a>") != NULL, "the audit");
	CHECK(strstr(out.data, "<a href=\"../../pages/nl/gpt-4-29f11dbc63.html\" hreflang=\"nl\" "
		     "lang=\"nl\">Neder&lt;lands&gt;</a>") != NULL,
	      "the same page in the other language, named in it, escaped");
	CHECK(strstr(out.data, "role=\"navigation\" aria-label=\"Site\"") != NULL,
	      "the links are a named navigation");
	sbuf_release(&out);
}

static void audit_page(void)
{
	frame_alt alt = { "nl", "Nederlands", NULL, "pages/nl/index.html" };
	frame f = { "en", "../", "https://example.org/", NULL, "S", "Site", "All models", "Audit",
		    "pages/en/index.html", &alt, 1, NULL, NULL, NULL, NULL, NULL, NULL };
	sbuf out;

	sbuf_init(&out);
	frame_head(&f, NULL, &out);
	CHECK(!strstr(out.data, "hreflang"), "a page with no translation: no hreflang link");
	CHECK(!strstr(out.data, "description"), "no description given: none");
	sbuf_reset(&out);
	frame_header(&f, &out);
	CHECK(strstr(out.data, "<a href=\"../pages/nl/index.html\" hreflang=\"nl\" lang=\"nl\">"
		     "Nederlands</a>") != NULL, "no translation: the other language's index");
	CHECK(strstr(out.data, "<a href=\"../audit/index.html\">") != NULL,
	      "links relative to the audit folder");
	sbuf_release(&out);
}

static void root_page(void)
{
	frame_alt alts[2] = { { "nl", "Nederlands", NULL, "pages/nl/index.html" },
			      { "en", "English", NULL, "pages/en/index.html" } };
	frame f[2] = { { "en", "", NULL, NULL, "S", "Site", "All models", "Audit",
			 "pages/en/index.html", &alts[0], 1, NULL, NULL, NULL, NULL, NULL, NULL },
		       { "nl", "", NULL, NULL, "S", "Site", "Alle modellen", "Wijzigingen",
			 "pages/nl/index.html", &alts[1], 1, NULL, NULL, NULL, NULL, NULL, NULL } };
	frame_root_text t[2] = { { &f[0], "English", "About <it>.", "Published", NULL },
				 { &f[1], "Nederlands", "Over", "Gepubliceerd", NULL } };
	sbuf out;

	sbuf_init(&out);
	frame_root_html(t, 2, "2025-05-06", &out);
	CHECK(!strncmp(out.data, "<!DOCTYPE html>\n<html lang=\"en\">", 31), "an English document");
	CHECK(strstr(out.data, "<meta name=\"description\" content=\"About &lt;it&gt;.\">") != NULL,
	      "its description is what the site is, escaped");
	CHECK(strstr(out.data, "<div class=\"language\" lang=\"nl\">\n<h2>Nederlands</h2>\n<p>Over</p>\n"
		     "<p>Gepubliceerd 2025-05-06</p>") != NULL, "the Dutch part, in Dutch, with the date");
	CHECK(strstr(out.data, "<li><a href=\"pages/nl/index.html\">Alle modellen</a></li>") != NULL,
	      "the Dutch index link");
	CHECK(strstr(out.data, "<li><a href=\"audit/index.html\">Wijzigingen</a></li>") != NULL,
	      "the audit, in Dutch words");
	CHECK(!strstr(out.data, "hardware"), "no hardware index yet");
	sbuf_reset(&out);
	frame_root_html(t, 0, "2025-05-06", &out);
	CHECK(out.len == 0, "no language: nothing");
	sbuf_release(&out);
}

int main(void)
{
	unframed();
	model_page();
	audit_page();
	root_page();
	return unit_done();
}
