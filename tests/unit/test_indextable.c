/*
 * Unit tests for indextable: every data string of the table and its
 * controls escaped (names, organisations, domains, links, dates, words);
 * numbers written as the pages write them with their plain sort keys;
 * unknown values left empty; the filter options distinct and sorted; the
 * order newest publication first; the rows in chunks with a placeholder
 * height; the script under 20 KB.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "publish/indextable.h"
#include "unit.h"

static const index_table_words words = {
	{ "Model", "Org<b>", "Published", "Parameters", "Compute", "Weights", "Updated" },
	"AI \"models\"", "Filter & sort", "Search", "Domain", "Year", "All", "Open", "Closed", "not <recorded>",
	"Show all", "{shown} of {count} <shown>", "Every <model>", NULL,
};

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void test_escaping(void)
{
	index_table_row rows[] = {
		{ "<script>alert(1)</script>", "evil-0123456789.html", "A&B,\"Q\" Labs,A&B",
		  "Lang<uage>,Vision", "2024-02-03", "3 February <2024>", 5.3e11, 3.9e24, 1,
		  "2025-05-06", "6 May 2025", "Old <one>\t\"Q\" & co" },
		{ "Plain", NULL, NULL, NULL, "", "", NAN, NAN, -1, "", "", NULL },
	};
	sbuf out;

	sbuf_init(&out);
	index_table_html(rows, 2, &words, "rows.js", "all&.html", &out);
	CHECK(!strstr(out.data, "<script>alert"), "a name's markup is not markup");
	CHECK(strstr(out.data, "<div role=\"rowheader\"><a href=\"evil-0123456789.html\">"
			       "&lt;script&gt;alert(1)&lt;/script&gt;</a></div>") != NULL,
	      "the name is escaped inside its link");
	CHECK(strstr(out.data, "<div role=\"cell\">A&amp;B, &quot;Q&quot; Labs</div>") != NULL,
	      "organisations escaped, repeats left out, \", \" between them");
	CHECK(strstr(out.data, " data-d=\"Lang&lt;uage&gt;,Vision\"") != NULL,
	      "the domain attribute is escaped");
	CHECK(strstr(out.data, " data-f=\"Old &lt;one&gt;\t&quot;Q&quot; &amp; co\" data-w=") != NULL,
	      "the former names' attribute is escaped, the names tab-separated");
	CHECK(strstr(out.data, "<div role=\"cell\" data-v=\"2024-02-03\">3 February &lt;2024&gt;</div>") != NULL,
	      "the date cell: ISO key, the page's text escaped");
	CHECK(strstr(out.data, "<div role=\"cell\" data-v=\"530000000000\">530B</div>") != NULL,
	      "parameters: a count, keyed by the plain number");
	CHECK(strstr(out.data, "<div role=\"cell\" data-v=\"3.9e+24\">3.9 × 10²⁴ FLOP</div>") != NULL,
	      "compute: a power of ten with FLOP, keyed by the plain number");
	CHECK(strstr(out.data, " data-w=\"open\"><div role=\"rowheader\"") != NULL &&
	      strstr(out.data, "<div role=\"cell\">Open</div><div role=\"cell\" data-v=\"2025-05-06\">6 May 2025</div></div>") != NULL,
	      "open weights: the attribute the filter reads and the word");
	CHECK(strstr(out.data, "<div role=\"row\"><div role=\"rowheader\">Plain</div><div role=\"cell\"></div>"
			       "<div role=\"cell\"></div><div role=\"cell\"></div><div role=\"cell\"></div>"
			       "<div role=\"cell\" data-u=\"\">not &lt;recorded&gt;</div>"
			       "<div role=\"cell\"></div></div>") != NULL,
	      "no link, unknown values are empty cells without keys, unknown weights said"
	      " (escaped) and marked to sort last");
	CHECK(strstr(out.data, "data-options=\"&quot;Q&quot; Labs,A&amp;B\"><option value=\"\">") !=
		      NULL, "the organisation options: escaped, distinct, in byte order");
	CHECK(strstr(out.data, "<option>Lang&lt;uage&gt;</option><option>Vision</option>") != NULL,
	      "the domain options are escaped");
	CHECK(strstr(out.data, "<option>2024</option></select>") != NULL, "one year option per year");
	CHECK(strstr(out.data, "data-shown=\"{shown} of {count} &lt;shown&gt;\"") != NULL,
	      "the count's template is escaped, its placeholders kept");
	CHECK(strstr(out.data, "aria-label=\"AI &quot;models&quot;\"") != NULL &&
	      strstr(out.data, "aria-label=\"Filter &amp; sort\"") != NULL &&
	      strstr(out.data, ">Org&lt;b&gt;</div>") != NULL &&
	      strstr(out.data, "<label for=\"f-org\">Org&lt;b&gt;</label>") != NULL,
	      "the words are escaped too");
	CHECK(count(out.data, "role=\"row\"") == 3 && count(out.data, "role=\"columnheader\"") == 7 &&
		      count(out.data, "role=\"table\"") == 1,
	      "a header row of seven columns and one row per model");
	CHECK(count(out.data, "aria-sort=") == 1 &&
	      strstr(out.data, "data-key=\"published\" data-type=\"date\" aria-sort=\"descending\"") != NULL,
	      "the publication date column is marked sorted, newest first");
	CHECK(strstr(out.data, "<form class=\"filters\" id=\"filters\" hidden") != NULL,
	      "the controls are hidden until the script shows them");
	CHECK(count(out.data, "<script>") == 1 && count(out.data, "</script>") == 1,
	      "one script of ours (the name's stays text)");
	sbuf_release(&out);
}

static void test_order_and_script(void)
{
	index_table_row rows[] = {
		{ .name = "B", .published = "2023-05-01" },
		{ .name = "Undated", .published = "" },
		{ .name = "A", .published = "2023-05-01" },
		{ .name = "New", .published = "2024-01-09" },
		{ .name = "Old", .published = "2019" },
	};
	const char *want[] = { "New", "A", "B", "Old", "Undated" };
	size_t i, same = 0;

	index_table_sort(rows, 5);
	for (i = 0; i < 5; i++)
		same += !strcmp(rows[i].name, want[i]);
	CHECK(same == 5, "newest first, a tie by name, undated last (%s %s %s %s %s)", rows[0].name,
	      rows[1].name, rows[2].name, rows[3].name, rows[4].name);
	CHECK(strlen(index_table_script) < 20 * 1024, "the script is under 20 KB (%zu bytes)",
	      strlen(index_table_script));
	CHECK(!strstr(index_table_script, "</script") && !strstr(index_table_script, "http"),
	      "it cannot close its element and loads nothing");
}

/* Rows come in chunks of INDEX_TABLE_CHUNK, each a row group with a
 * placeholder height that grows with the lines its names take. */
static void test_chunks(void)
{
	index_table_row rows[INDEX_TABLE_CHUNK * 2 + 1];
	const char *first, *second, *third;
	unsigned h1 = 0, h2 = 0, h3 = 0;
	sbuf out;
	size_t i;

	for (i = 0; i < INDEX_TABLE_CHUNK * 2 + 1; i++)
		rows[i] = (index_table_row){ .name = i < INDEX_TABLE_CHUNK ? "Short" :
			"A name long enough to take several lines", .open_weights = 1,
			.parameters = NAN, .compute = NAN };
	sbuf_init(&out);
	index_table_html(rows, INDEX_TABLE_CHUNK * 2 + 1, &words, "r.js", "a.html", &out);
	CHECK(count(out.data, "role=\"rowgroup\" class=\"c\"") == 3,
	      "%d rows make three chunks", INDEX_TABLE_CHUNK * 2 + 1);
	first = strstr(out.data, "class=\"c\" style=\"contain-intrinsic-size:auto none auto ");
	second = first ? strstr(first + 1, "class=\"c\" style=") : NULL;
	third = second ? strstr(second + 1, "class=\"c\" style=") : NULL;
	CHECK(first && sscanf(first, "class=\"c\" style=\"contain-intrinsic-size:auto none auto %urem", &h1) == 1 &&
	      second && sscanf(second, "class=\"c\" style=\"contain-intrinsic-size:auto none auto %urem", &h2) == 1 &&
	      third && sscanf(third, "class=\"c\" style=\"contain-intrinsic-size:auto none auto %urem", &h3) == 1,
	      "each chunk has a placeholder height");
	/* a row of one line is at least 1.38rem of text and .77rem of padding */
	CHECK(h1 * 100 >= INDEX_TABLE_CHUNK * 215u, "a chunk of one-line rows: %u rem", h1);
	CHECK(h2 >= 2 * h1, "longer names, a taller chunk (%u rem, %u rem)", h1, h2);
	CHECK(h3 < h1 && h3 >= 3, "the last chunk holds the one row left (%u rem)", h3);
	CHECK(count(first, "role=\"row\"") - count(second, "role=\"row\"") == INDEX_TABLE_CHUNK,
	      "sixteen rows in the first chunk");
	/* the same short names, their weights not known: the cell's words
	 * ("not recorded") take two lines of its narrow column */
	for (i = 0; i < INDEX_TABLE_CHUNK; i++)
		rows[i].open_weights = -1;
	sbuf_reset(&out);
	index_table_html(rows, INDEX_TABLE_CHUNK, &words, "r.js", "a.html", &out);
	first = strstr(out.data, "class=\"c\" style=\"contain-intrinsic-size:auto none auto ");
	h2 = 0;
	CHECK(first && sscanf(first, "class=\"c\" style=\"contain-intrinsic-size:auto none auto %urem", &h2) == 1 &&
	      h2 * 100 >= INDEX_TABLE_CHUNK * (2 * 138u + 77u),
	      "weights not known: two lines a row (one-line rows: %u rem)", h1);
	sbuf_release(&out);
}

/* The page holds the first INDEX_TABLE_EAGER chunks and names the file of
 * the rest; that file holds the other chunks, each its rows' HTML as a
 * JSON string with its height; the page of every row holds them all. */
static void test_deferred(void)
{
	enum { N = INDEX_TABLE_CHUNK * (INDEX_TABLE_EAGER + 2) + 3 };
	index_table_row rows[N];
	const char *row, *script;
	size_t i, eager_rows = 0;
	unsigned h1 = 0, h3 = 0;
	int used = 0;
	char want[80];
	sbuf page, js, all;

	for (i = 0; i < N; i++)
		rows[i] = (index_table_row){ .name = i == N - 1 ? "x\"</script><b>y\\" : "Row",
			.open_weights = -1, .parameters = NAN, .compute = NAN };
	sbuf_init(&page);
	sbuf_init(&js);
	sbuf_init(&all);
	index_table_html(rows, N, &words, "index.rows.js", "index.all.html", &page);
	index_table_rest(rows, N, &words, &all, &js);
	script = strstr(page.data, "<script>");
	for (row = page.data; (row = strstr(row, "<div role=\"row\"")) != NULL && row < script; row++)
		eager_rows++;
	CHECK(eager_rows == INDEX_TABLE_EAGER * INDEX_TABLE_CHUNK + 1,
	      "the page holds the first %d chunks' rows (%zu, and the header's)", INDEX_TABLE_EAGER,
	      eager_rows);
	snprintf(want, sizeof(want), " data-count=\"%d\" data-rows=\"index.rows.js\">", (int)N);
	CHECK(strstr(page.data, want) != NULL, "the table names the count of rows and the file of the rest");
	CHECK(strstr(page.data, "<p class=\"all\"><a href=\"index.all.html\">Every &lt;model&gt;</a></p>") != NULL,
	      "the page links the table of every row, its words escaped");
	CHECK(!strstr(page.data, "x&quot;"), "no row after the page's is in it");
	snprintf(want, sizeof(want), "modelcatRows(%d, [\n[%%u, \"", (int)N);
	CHECK(sscanf(js.data, want, &h1) == 1 && h1 >= 16 * 2,
	      "the rows' file: one call with the count, the first chunk's height (%u rem)", h1);
	row = strstr(js.data, ",\n[");
	row = row ? strstr(row + 1, ",\n[") : NULL;
	CHECK(row && !strstr(row + 1, ",\n[") && sscanf(row, ",\n[%u, \"%n", &h3, &used) == 1 &&
	      used > 0 && h3 < h1,
	      "three chunks, the last (three rows) lower (%u rem)", h3);
	CHECK(count(js.data, "<div role=\\\"row\\\"") == N - INDEX_TABLE_EAGER * INDEX_TABLE_CHUNK,
	      "the rows' file holds the other %d rows", N - INDEX_TABLE_EAGER * INDEX_TABLE_CHUNK);
	CHECK(strstr(js.data, "x&quot;&lt;/script&gt;&lt;b&gt;y\\\\</div>") != NULL && !strstr(js.data, "<b>"),
	      "a name is escaped for HTML, then for the string (quote and backslash)");
	CHECK(mc_ends_with(js.data, "\n]);\n"), "the call ends the file");
	CHECK(count(all.data, "<div role=\"row\"") == N + 1 && !strstr(all.data, "<script") &&
	      !strstr(all.data, "<form") && count(all.data, "role=\"rowgroup\" class=\"c\"") == 7,
	      "the page of every row: all %d rows in 7 chunks, no script, no controls", (int)N);
	CHECK(strstr(all.data, "x&quot;&lt;/script&gt;&lt;b&gt;y\\</div>") != NULL,
	      "and its names escaped");
	sbuf_release(&page);
	sbuf_release(&js);
	sbuf_release(&all);
}

int main(void)
{
	test_chunks();
	test_deferred();
	test_escaping();
	test_order_and_script();
	return unit_done();
}
