/*
 * test_parse: an export through the header mapping and the row parser,
 * from memory (parse_open_mem), with the real column map. Run from the
 * repository root.
 *
 * Each case is a small export; the expected text lists what the parse
 * reported (R: lines), each row (name and occurrence, or Q: and the
 * reason), and the open error (E:) if any.
 */
#include "values/colmap.h"
#include "read/parse.h"
#include "values/normalise.h"
#include "base/util.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static colmap map;

static void on_report(void *ctx, enum parse_notice kind, const char *message)
{
	(void)kind;
	sbuf_addf(ctx, "R: %s\n", message);
}

/* Parse text (len bytes, from a heap copy so that a read past the end is
 * caught), its records split on a second thread when ahead, and describe
 * what came out (with counts: and the parse's counts). */
static void run_with(const char *text, size_t len, int ahead, int counts, sbuf *out)
{
	parse_export *p = NULL;
	parse_row row;
	char *copy = xmalloc(len);
	mc_err err;
	int rc;

	memcpy(copy, text, len);
	if (parse_open_mem(&p, copy, len, "t.csv", &map, on_report, out, &err)) {
		sbuf_addf(out, "E: %s\n", err.msg);
		free(copy);
		return;
	}
	if (ahead && parse_read_ahead(p))
		sbuf_adds(out, "no read-ahead\n");
	while ((rc = parse_next(p, &row, &err)) == 1) {
		if (row.quarantined)
			sbuf_addf(out, "Q: %s\n", row.reason);
		else
			sbuf_addf(out, "%s#%zu\n", row.name, row.occurrence);
	}
	if (rc < 0)
		sbuf_addf(out, "E: %s\n", err.msg);
	if (counts)
		sbuf_addf(out, "%lu rows, %lu quarantined, %llu bytes\n", parse_rows_read(p),
			  parse_rows_quarantined(p), parse_bytes_read(p));
	parse_free(p);
	free(copy);
}

static void run(const char *text, size_t len, sbuf *out)
{
	run_with(text, len, 0, 0, out);
}

static void test_cases(void)
{
	static const struct {
		const char *name;       /* what the case shows */
		const char *text;       /* the export */
		const char *expected;   /* what run() describes */
	} cases[] = {
		{ "a plain export",
		  "Model,Parameters\nGPT-2,1.5e9\nBERT,340000000\n",
		  "GPT-2#1\nBERT#1\n" },
		{ "a repeated name is kept with its occurrence",
		  "Model\nA\nA\n",
		  "A#1\nR: t.csv:3: model name 'A' repeats (occurrence 2); kept as 'A#2'\nA#2\n" },
		{ "no model column",
		  "Name,Parameters\nx,1\n",
		  "R: t.csv: column 'Name' is not in the column map; kept as a text field\n"
		  "E: t.csv:1: no model name column (expected 'Model' or one of its aliases)\n" },
		{ "an empty input",
		  "",
		  "E: t.csv: empty file: no header\n" },
		/* found by fuzz_header: a header cell holding a line end (and a
		 * terminal escape) made a report of two lines on stderr */
		{ "a header with a line end and an escape is reported on one line",
		  "Model,\"Evil\n\x1b[31mheader\"\nx,1\n",
		  "R: t.csv: column 'Evil  [31mheader' is not in the column map; kept as a text field\n"
		  "x#1\n" },
		{ "a repeated name with a line end is reported on one line",
		  "Model\n\"two\nlines\"\n\"two\nlines\"\n",
		  "two\nlines#1\n"
		  "R: t.csv:4: model name 'two lines' repeats (occurrence 2); kept as 'two lines#2'\n"
		  "two\nlines#2\n" },
		{ "a quarantine reason holds no escape",
		  "Model,Publication date\nx,\x1b]0;owned\x07\n",
		  "Q: Publication date: ' ]0;owned ' is not a valid date: not a date\n" },
		{ "a row with a NUL byte is quarantined",
		  "Model,Parameters\nx\0y,1\n",
		  "Q: Model: NUL byte in the cell\n" },
	};
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i].text);

		/* the NUL case: count up to the final newline */
		if (strstr(cases[i].name, "NUL"))
			len = 23;
		sbuf_reset(&out);
		run(cases[i].text, len, &out);
		CHECK_STR(out.data, cases[i].expected, "%s", cases[i].name);
		sbuf_reset(&out);
		run_with(cases[i].text, len, 1, 0, &out);
		CHECK_STR(out.data, cases[i].expected, "%s, read ahead", cases[i].name);
	}
	sbuf_release(&out);
}

/* An export of n rows with something for every report and quarantine:
 * repeated names, names made canonical, unknown values, bad dates and
 * numbers, short rows, a NUL byte, and long notes, so that the records
 * span many of the read-ahead's batches. */
static void make_export(sbuf *out, unsigned n)
{
	unsigned i, k;

	sbuf_adds(out, "Model,Organization,Publication date,Parameters,Confidence,"
		  "Open model weights?,Odd column,Parameters notes\n");
	for (i = 0; i < n; i++) {
		sbuf_addf(out, "%s%u,\"Org %u, Lab\",2023-%02u-01,%u,%s,%s,x,", i % 7 ? "m" : "rep ",
			  i % 7 ? i : i % 50, i % 13, 1 + i % 12, i * 3,
			  i % 11 ? "Confident" : "Very sure", i % 2 ? "yes" : "no");
		for (k = 0; k < (i % 5) * 300; k++)
			sbuf_addc(out, (char)('a' + k % 26));
		sbuf_adds(out, "\n");
		if (i % 97 == 5)
			sbuf_addf(out, "Cafe\xcc\x81 %u,Universite\xcc\x81 Z,2023-12-01,12,Likely,yes,"
				  "y,n\n", i);
		if (i % 53 == 4)
			sbuf_addf(out, "date %u,O,2023-13-45,12,Likely,yes,y,n\n", i);
		if (i % 101 == 7)
			sbuf_addf(out, "short %u,O\n", i);
		if (i % 389 == 9) {
			sbuf_addf(out, "nul %u,O", i);
			sbuf_add(out, "\0", 1);
			sbuf_adds(out, ",2020,1,Likely,no,z,n\n");
		}
		if (i % 211 == 3)
			sbuf_addf(out, "num %u,O,2020,12 parsecs,Likely,no,z,n\n", i);
		/* names that read otherwise than written, the same length or
		 * not: each repeats the one before it */
		if (i % 199 == 11)
			sbuf_addf(out, "\"cr\r%u\",O,2020,1,Likely,no,z,n\n"
				  "\"cr\n%u\",O,2020,1,Likely,no,z,n\n"
				  "\"pad %u\",O,2020,1,Likely,no,z,n\n"
				  "\" pad %u\t\",O,2020,1,Likely,no,z,n\n", i, i, i, i);
	}
}

/* The same export parsed with its records read ahead and without gives
 * the same rows, reports, counts and bytes read; a read-ahead ended before
 * the last row is said to be. */
static void test_read_ahead(void)
{
	sbuf text, plain, ahead;
	parse_export *p;
	parse_row row;
	mc_err err = { "" };
	char hex[65];
	unsigned extra = 0, renamed = 0;
	const char *at;
	int i, ok = 1;

	sbuf_init(&text);
	sbuf_init(&plain);
	sbuf_init(&ahead);
	make_export(&text, 6000);
	run_with(text.data, text.len, 0, 1, &plain);
	run_with(text.data, text.len, 1, 1, &ahead);
	CHECK(strstr(plain.data, "model name 'cr 11' repeats (occurrence 2)") &&
	      strstr(plain.data, "model name 'pad 11' repeats (occurrence 2)") && strstr(plain.data, "name normalised") &&
	      strstr(plain.data, "not one of the known values") &&
	      strstr(plain.data, "Q: Publication date") && strstr(plain.data, "Q: the row has 2") &&
	      strstr(plain.data, "Q: Organization: NUL byte") && strstr(plain.data, "Q: Parameters"),
	      "the export has every kind of report and quarantine");
	for (i = 0; i < 6000; i++)
		extra += (i % 53 == 4) + (i % 101 == 7) + (i % 389 == 9) + (i % 211 == 3);
	for (i = 0; i < 6000; i++)
		renamed += i % 199 == 11 ? 4 : 0;
	snprintf(hex, sizeof(hex), "\n%u rows, %u quarantined, ", 6000 + 62 + renamed + extra, extra);
	CHECK(strstr(plain.data, hex) != NULL, "every row is counted (62 made canonical), the %u "
	      "faulty ones quarantined", extra);
	/* a cell made canonical before is still reported in every row */
	for (i = 0, at = plain.data; (at = strstr(at, "Organization: name normalised")); at++)
		i++;
	CHECK(i == 62, "the same organisation made canonical is reported in each of its rows (%d)",
	      i);
	CHECK(plain.len == ahead.len && !memcmp(plain.data, ahead.data, plain.len),
	      "read ahead: the same rows, reports and counts (%zu and %zu bytes)", plain.len,
	      ahead.len);

	/* ended early: the rows it held are not lost in silence */
	if (parse_open_mem(&p, text.data, text.len, "t.csv", &map, NULL, NULL, &err)) {
		CHECK(0, "open (%s)", err.msg);
		goto out;
	}
	CHECK(parse_read_ahead(p) == 0, "the read-ahead starts");
	for (i = 0; i < 5; i++)
		ok &= parse_next(p, &row, &err) == 1;
	CHECK(ok, "five rows read ahead");
	CHECK(parse_bytes_read(p) > 0, "the bytes read, asked for before the end");
	CHECK(parse_next(p, &row, &err) == -1 && strstr(err.msg, "given up"),
	      "the next row fails: %s", err.msg);
	CHECK(parse_content_sha256(p, hex) == -1, "and the content has no hash");
	CHECK(parse_read_ahead(p) == -1, "nor another read-ahead");
	parse_free(p);
out:
	sbuf_release(&text);
	sbuf_release(&plain);
	sbuf_release(&ahead);
}

/* Write text to dir/guards.tsv and read it back into *g; the result. */
static int guards_from(const char *dir, const char *text, colmap_guards *g, mc_err *err)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/guards.tsv", dir);
	f = fopen(path, "w");
	if (!f)
		return -2;
	fputs(text, f);
	fclose(f);
	return colmap_guards_read(dir, g, err);
}

/* pipelines/guards.tsv and its format: every guard given, file and line
 * named for a bad one. */
static void test_guards(void)
{
	char dir[] = "/tmp/test_guards.XXXXXX", path[512];
	colmap_guards g;
	mc_err err = { "" };

	CHECK(colmap_guards_read("pipelines", &g, &err) == 0, "pipelines/guards.tsv reads (%s)", err.msg);
	CHECK(g.on && g.remove_pct == 5 && g.remove_min == 5 && g.quarantine_pct == 2 &&
	      g.quarantine_min == 5 && g.columns == 10,
	      "its guards: remove 5 %% and 5, quarantine 2 %% and 5, columns 10");
	if (!CHECK(mkdtemp(dir) != NULL, "a temporary folder"))
		return;
	CHECK(guards_from(dir, "# c\nremove\t7.5\t3\nquarantine\t1%\t0\ncolumns\t2\n", &g, &err) == 0 &&
	      g.remove_pct == 7.5 && g.remove_min == 3 && g.quarantine_pct == 1 && g.columns == 2,
	      "a percentage with or without %%");
	CHECK(guards_from(dir, "remove\t5%\t5\ncolumns\tten\nquarantine\t2%\t5\n", &g, &err) == -1,
	      "a count that is not a number fails");
	CHECK(strstr(err.msg, "guards.tsv:2: expected") != NULL, "naming file and line (%s)", err.msg);
	CHECK(guards_from(dir, "remove\t5%\t5\nquarantine\t2%\t5\n", &g, &err) == -1 &&
	      strstr(err.msg, "every guard must be given"), "a guard left out fails");
	CHECK(guards_from(dir, "remove\t5%\t5\t1\n", &g, &err) == -1, "a field too many fails");
	CHECK(guards_from(dir, "shrink\t5%\t5\n", &g, &err) == -1, "an unknown guard fails");
	snprintf(path, sizeof(path), "%s/guards.tsv", dir);
	remove(path);
	rmdir(dir);
}

/* Write text into dir/name. */
/* The families of pipelines/families.tsv: each export name picks its map,
 * with its own key; a malformed map is refused naming file and line. */
static void test_families(void)
{
	static const char hardware_cols[] = "Hardware name\tkey\nTDP (W)\tnumber\t\tunit=W\n";
	const colmap *hw = colmap_for_export(&map, "ml_hardware");
	const colmap_field *f;
	char dir[] = "/tmp/test_parse.XXXXXX";
	colmap other;
	mc_err err = { "" };

	CHECK_STR(map.family, "model", "the first family is the models'");
	CHECK_STR(map.key, "Model", "keyed by Model");
	CHECK_STR(hw->family, "hardware", "ml_hardware is hardware");
	CHECK_STR(hw->key, "Hardware name", "keyed by Hardware name");
	CHECK(colmap_for_export(&map, "notable_ai_models") == &map, "notable is a model export");
	CHECK(colmap_for_export(&map, "frontier_ai_models") == &map, "so is frontier");
	CHECK(colmap_for_export(&map, "my-own-name") == &map, "an unknown name is a model export");
	CHECK(colmap_family(&map, "hardware") == hw, "the hardware family by name");
	CHECK(colmap_family(&map, "boats") == NULL, "no family boats");
	CHECK(colmap_lookup(hw, "Model") == NULL, "the hardware map knows no Model");
	CHECK(colmap_lookup(&map, "Hardware name") == NULL, "the model map knows no Hardware name");
	f = colmap_lookup(hw, "Memory size per board (Byte)");
	CHECK(f && !strcmp(f->name, "Memory (bytes)") && f->unit &&
	      !strcmp(norm_unit_name(f->unit), "byte"), "the old memory header, in bytes");
	f = colmap_lookup(hw, "Die Size (mm^2)");
	CHECK(f && f->unit && !strcmp(norm_unit_name(f->unit), "mm2"), "die size in mm2");
	CHECK(colmap_lookup(&map, "Parameters")->unit == NULL, "model numbers have no unit");

	if (!CHECK(mkdtemp(dir) != NULL, "a temporary folder"))
		return;
	unit_put_file(dir, "columns.tsv", "Model\tkey\n");
	unit_put_file(dir, "enumerations.tsv", "");
	unit_put_file(dir, "hw.tsv", hardware_cols);
	unit_put_file(dir, "families.tsv", "model\tcolumns.tsv\t*_ai_models\nhardware\thw.tsv\tml_*\n");
	CHECK(colmap_load(&other, dir, &err) == 0, "a map of two families loads (%s)", err.msg);
	CHECK(colmap_for_export(&other, "ml_x")->key &&
	      !strcmp(colmap_for_export(&other, "ml_x")->key, "Hardware name"), "patterns match");
	colmap_release(&other);
	unit_put_file(dir, "families.tsv", "model\tcolumns.tsv\nmodel\thw.tsv\n");
	CHECK(colmap_load(&other, dir, &err) == -1 && strstr(err.msg, "families.tsv:2:"),
	      "a family twice is refused on its line (%s)", err.msg);
	unit_put_file(dir, "families.tsv", "model\tcolumns.tsv\nhardware\thw.tsv\tml_hardware\n");
	unit_put_file(dir, "hw.tsv", "TDP (W)\tnumber\t\tunit=W\n");
	CHECK(colmap_load(&other, dir, &err) == -1 && strstr(err.msg, "hw.tsv: no key field"),
	      "a map without a key is refused (%s)", err.msg);
	unit_put_file(dir, "hw.tsv", "Hardware name\tkey\nTDP (W)\tnumber\t\tunit=V\n");
	CHECK(colmap_load(&other, dir, &err) == -1 && strstr(err.msg, "hw.tsv:2: unknown unit 'V'"),
	      "an unknown unit is refused on its line (%s)", err.msg);
	unit_put_file(dir, "hw.tsv", "Hardware name\tkey\nNotes\ttext\t\tunit=W\n");
	CHECK(colmap_load(&other, dir, &err) == -1 && strstr(err.msg, "hw.tsv:2: unit=W on a field"),
	      "a unit on a text field is refused (%s)", err.msg);
	unit_put_file(dir, "hw.tsv", "Hardware name\tkey\nName 2\tkey\n");
	CHECK(colmap_load(&other, dir, &err) == -1 && strstr(err.msg, "hw.tsv:2: a second key"),
	      "two keys are refused (%s)", err.msg);
	{
		const char *names[] = { "columns.tsv", "enumerations.tsv", "hw.tsv", "families.tsv" };
		char path[512];
		size_t i;

		for (i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			unlink(path);
		}
		rmdir(dir);
	}
}

int main(void)
{
	mc_err err = { "" };

	if (!CHECK(colmap_load(&map, "pipelines", &err) == 0,
		   "load the column map (%s)", err.msg))
		return unit_done();
	test_cases();
	test_read_ahead();
	test_guards();
	test_families();
	colmap_release(&map);
	CHECK(colmap_load(&map, "tests/no-such-folder", &err) == -1, "a missing column map fails");
	CHECK_STR(err.msg, "tests/no-such-folder/columns.tsv: cannot open: No such file or directory",
		  "and names the file");
	return unit_done();
}
