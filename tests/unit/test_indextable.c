/*
 * Unit tests for indextable: every data string of the table and its
 * controls escaped (names, organisations, domains, links, dates, words);
 * numbers written as the pages write them with their plain sort keys;
 * unknown values left empty; the filter options distinct and sorted; the
 * order newest publication first; the script under 20 KB.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out/indextable.h"
#include "unit.h"

static const index_table_words words = {
	{ "Model", "Org<b>", "Published", "Parameters", "Compute", "Weights", "Updated" },
	"AI \"models\"", "Filter & sort", "Search", "Domain", "Year", "All", "Open", "Closed",
	"Show all", "{shown} of {count} <shown>",
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
		  "2025-05-06", "6 May 2025" },
		{ "Plain", NULL, NULL, NULL, "", "", NAN, NAN, -1, "", "" },
	};
	sbuf out;

	sbuf_init(&out);
	index_table_html(rows, 2, &words, &out);
	CHECK(!strstr(out.data, "<script>alert"), "a name's markup is not markup");
	CHECK(strstr(out.data, "<th scope=\"row\"><a href=\"evil-0123456789.html\">"
			       "&lt;script&gt;alert(1)&lt;/script&gt;</a></th>") != NULL,
	      "the name is escaped inside its link");
	CHECK(strstr(out.data, "<td>A&amp;B, &quot;Q&quot; Labs</td>") != NULL,
	      "organisations escaped, repeats left out, \", \" between them");
	CHECK(strstr(out.data, " data-d=\"Lang&lt;uage&gt;,Vision\"") != NULL,
	      "the domain attribute is escaped");
	CHECK(strstr(out.data, "<td data-v=\"2024-02-03\">3 February &lt;2024&gt;</td>") != NULL,
	      "the date cell: ISO key, the page's text escaped");
	CHECK(strstr(out.data, "<td data-v=\"530000000000\">530B</td>") != NULL,
	      "parameters: a count, keyed by the plain number");
	CHECK(strstr(out.data, "<td data-v=\"3.9e+24\">3.9 × 10²⁴ FLOP</td>") != NULL,
	      "compute: a power of ten with FLOP, keyed by the plain number");
	CHECK(strstr(out.data, " data-w=\"open\"><th") != NULL &&
	      strstr(out.data, "<td>Open</td><td data-v=\"2025-05-06\">6 May 2025</td></tr>") != NULL,
	      "open weights: the attribute the filter reads and the word");
	CHECK(strstr(out.data, "<tr><th scope=\"row\">Plain</th><td></td><td></td><td></td><td></td>"
			       "<td></td><td></td></tr>") != NULL,
	      "no link, and unknown values are empty cells without keys");
	CHECK(strstr(out.data, "<option>&quot;Q&quot; Labs</option><option>A&amp;B</option></select>") !=
		      NULL, "the organisation options: escaped, distinct, in byte order");
	CHECK(strstr(out.data, "<option>Lang&lt;uage&gt;</option><option>Vision</option>") != NULL,
	      "the domain options are escaped");
	CHECK(strstr(out.data, "<option>2024</option></select>") != NULL, "one year option per year");
	CHECK(strstr(out.data, "data-shown=\"{shown} of {count} &lt;shown&gt;\"") != NULL,
	      "the count's template is escaped, its placeholders kept");
	CHECK(strstr(out.data, "aria-label=\"AI &quot;models&quot;\"") != NULL &&
	      strstr(out.data, "aria-label=\"Filter &amp; sort\"") != NULL &&
	      strstr(out.data, ">Org&lt;b&gt;</th>") != NULL &&
	      strstr(out.data, "<label for=\"f-org\">Org&lt;b&gt;</label>") != NULL,
	      "the words are escaped too");
	CHECK(count(out.data, "<tr") == 3 && count(out.data, "<th scope=\"col\"") == 7,
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

int main(void)
{
	test_escaping();
	test_order_and_script();
	return unit_done();
}
