/*
 * cite: BibTeX escaping, the BibTeX entry and the citation block; the
 * JSON number test of the downloads; the frame's JSON link and lead.
 */
#include "publish/cite.h"
#include "publish/download.h"
#include "publish/frame.h"
#include "values/value.h"
#include "unit.h"

static void check_escape(const char *in, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	cite_bibtex_escape(&out, in);
	CHECK_STR(out.data ? out.data : "", want, "bibtex escape gives '%s'", want);
	sbuf_release(&out);
}

/* Do the braces of s balance, a brace after a backslash not counted? */
static int balanced(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			continue;
		}
		if (*s == '{')
			depth++;
		else if (*s == '}' && --depth < 0)
			return 0;
	}
	return depth == 0;
}

static void escaping(void)
{
	const char *hostile[] = { "}", "{", "a}b{", "\\", "\\}", "}}}{{{", "%&$#_^~",
				  "$\\infty$-former (SM)", "x\\", "{\\}" };
	size_t i;

	check_escape("GPT-4", "GPT-4");
	check_escape("", "");
	check_escape("{", "\\{");
	check_escape("}", "\\}");
	check_escape("\\", "\\textbackslash{}");
	check_escape("50% & more", "50\\% \\& more");
	check_escape("$\\infty$-former (SM)", "\\$\\textbackslash{}infty\\$-former (SM)");
	check_escape("a_b#c", "a\\_b\\#c");
	check_escape("x^2~y", "x\\^{}2\\~{}y");
	check_escape("line\nbreak\ttab", "line break tab");
	check_escape("Ünïcødé – “quotes”", "Ünïcødé – “quotes”");
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		sbuf out;

		sbuf_init(&out);
		sbuf_addc(&out, '{');
		cite_bibtex_escape(&out, hostile[i]);
		sbuf_addc(&out, '}');
		CHECK(balanced(out.data), "'%s' escaped keeps the braces balanced: %s", hostile[i],
		      out.data);
		sbuf_release(&out);
	}
}

static void entry(void)
{
	char na[] = "notable_ai_models", nb[] = "all_ai_models";
	provenance_file a = { 1, na, "2025-05-06",
			      "7aafcdfbbdcd5f9773518d316631fa275dde99429338956c76321b272915d98c", 10 };
	provenance_file b = { 2, nb, "2025-04-23",
			      "5d81f5cce379759011a666fba8bbe35fac3853c63583815908aeeec5fc76fc10", 20 };
	const provenance_file *files[] = { &b, &a };
	char day[11];
	sbuf out;

	cite_day(files, 2, day);
	CHECK_STR(day, "2025-05-06", "the snapshot's date is the newest file's");
	cite_day(files, 0, day);
	CHECK_STR(day, "", "no file: no date");
	sbuf_init(&out);
	cite_bibtex(&out, "epochai:gpt 4}", "https://example.org/~a/{x}_y%20.html", files, 2);
	CHECK(!strncmp(out.data, "@misc{epochai:gpt-4-,\n", 22),
	      "the key keeps only plain characters");
	CHECK(strstr(out.data, "  title = {{Data on AI Models}},\n") != NULL,
	      "the title is the dataset's, its case kept");
	CHECK(strstr(out.data, "  author = {{Epoch AI}},\n") != NULL, "author Epoch AI");
	CHECK(strstr(out.data, "  year = {2025},\n") != NULL, "the snapshot's year");
	CHECK(strstr(out.data, "  urldate = {2025-05-06}\n}\n") != NULL,
	      "urldate: the snapshot's date");
	/* (the hash: Python's hashlib over the two "EXPORT SHA256\n" lines) */
	CHECK(strstr(out.data, "  note = {CC BY 4.0. Snapshot of 2025-05-06, SHA-256 f89e4a0c02af},\n") !=
		      NULL, "one note: the licence, the snapshot's date and a short hash of the files");
	CHECK(strstr(out.data, "  url = {https://example.org/~a/%7Bx%7D_y%20.html},\n") != NULL,
	      "the page's own address as it is (no TeX escape), its braces percent-encoded");
	CHECK(balanced(out.data), "the entry's braces balance");
	sbuf_reset(&out);
	cite_bibtex(&out, "k", NULL, files + 1, 1);
	CHECK(strstr(out.data, "  url = {https://epoch.ai/data/ai-models},\n") != NULL,
	      "no address of the page: Epoch's URL");
	CHECK(strstr(out.data, "Snapshot of 2025-05-06, SHA-256 7aafcdfbbdcd},\n") != NULL,
	      "one file: the start of its own SHA-256");
	CHECK(balanced(out.data), "the entry's braces balance");
	sbuf_release(&out);
}

static void block(void)
{
	char name[] = "<b>&";
	provenance_file a = { 3, name, "2025-05-06", "ab", 10 };
	const provenance_file *files[] = { &a };
	page_texts en;
	sbuf out;

	page_texts_init(&en, "en");
	en.text[PT_CITE_HEADING] = xstrdup("How to cite");
	en.text[PT_CITE_DATA] = xstrdup("Data: Epoch AI");
	en.text[PT_CITE_SNAPSHOT] = xstrdup("Snapshot of {date}");
	en.text[PT_CITE_SOURCES] = xstrdup("Files:");
	en.text[PT_CITE_README] = xstrdup("Cite as:");
	en.text[PT_CITE_BIBTEX] = xstrdup("BibTeX:");
	sbuf_init(&out);
	cite_html(&out, 3, NULL, &en, "k", "T<i>&", files, 1, "R & <script>");
	CHECK(strstr(out.data, "<h3>How to cite</h3>") != NULL, "the heading at the level asked");
	CHECK(strstr(out.data, "<p>Snapshot of 2025-05-06</p>") != NULL, "the snapshot's date");
	CHECK(strstr(out.data, "Data: Epoch AI, <a href=\"https://creativecommons.org/licenses/by/4.0/\""
		     " rel=\"license\">CC BY 4.0</a>") != NULL, "the credit and the licence's link");
	CHECK(strstr(out.data, "<li>&lt;b&gt;&amp;, 2025-05-06: <code>ab</code></li>") != NULL,
	      "an export's name is escaped");
	CHECK(strstr(out.data, "R &amp; &lt;script&gt;") != NULL && !strstr(out.data, "<script"),
	      "the README citation is escaped");
	CHECK(strstr(out.data, "url = {T&lt;i&gt;&amp;}") != NULL, "the BibTeX entry is escaped for HTML");
	sbuf_reset(&out);
	cite_html(&out, 2, NULL, &en, "k", NULL, files, 1, NULL);
	CHECK(strstr(out.data, "<p class=\"credit\">Epoch AI, \u2018Data on AI Models\u2019. Published online"
		     " at epoch.ai. Retrieved from \u2018https://epoch.ai/data/ai-models\u2019 [online"
		     " resource].</p>") != NULL, "no README: Epoch's own citation text all the same");
	sbuf_release(&out);
	page_texts_release(&en);
}

static void numbers(void)
{
	static const struct { const char *text; int want; } cases[] = {
		{ "0", 1 }, { "-0", 1 }, { "3.9e+24", 1 }, { "1E5", 1 }, { "342212.3909614999", 1 },
		{ "-12", 1 }, { "1e-05", 1 }, { "", 0 }, { "-", 0 }, { "01", 0 }, { ".5", 0 },
		{ "5.", 0 }, { "+1", 0 }, { "1e", 0 }, { "inf", 0 }, { "NaN", 0 }, { "1,000", 0 },
		{ "0x10", 0 }, { "1 ", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(value_json_number(cases[i].text, strlen(cases[i].text)) == cases[i].want,
		      "'%s' is %sa JSON number", cases[i].text, cases[i].want ? "" : "not ");
}

static void frame_data(void)
{
	frame f = { "en", "../../", NULL, NULL, "S", "Site", "All", "Audit", "pages/en/index.html",
		    NULL, 0, "downloads/models/x-1.json", "As <JSON>", "<p>lead</p>\n", NULL, NULL, NULL };
	sbuf out;

	sbuf_init(&out);
	frame_head(&f, NULL, &out);
	CHECK(strstr(out.data, "<link rel=\"alternate\" type=\"application/json\" "
		     "href=\"../../downloads/models/x-1.json\">") != NULL, "the head links the JSON twin");
	sbuf_reset(&out);
	frame_header(&f, &out);
	CHECK(strstr(out.data, "<a href=\"../../downloads/models/x-1.json\" type=\"application/json\">"
		     "As &lt;JSON&gt;</a>") != NULL, "the header links it visibly, its text escaped");
	CHECK(strstr(out.data, "<div class=\"lead\">\n<p>lead</p>\n</div>\n") != NULL,
	      "the lead follows the header");
	sbuf_release(&out);
}

int main(void)
{
	escaping();
	entry();
	block();
	numbers();
	frame_data();
	return unit_done();
}
