/*
 * bundle: the citation and the licence of a bundle's README.md, and a zip
 * of several .csv members read member by member (read/input.h).
 */
#include "ingest/bundle.h"
#include "read/input.h"
#include "base/util.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* One README and what its sections give. */
static const struct readme_case {
	const char *what;
	const char *readme;
	const char *citation;
	const char *licence;
} readmes[] = {
	{ "Epoch's layout: fenced citation, BibTeX left out, link unwrapped",
	  "## Licensing\nFree to use under the [CC BY](https://x.org/by/4.0/).\n\n"
	  "### Citation\n```\nEpoch AI, 'Data' [online resource].\n```\n\n"
	  "### BibTeX Citation\n```\n@misc{x}\n```\n",
	  "Epoch AI, 'Data' [online resource].",
	  "Free to use under the CC BY (https://x.org/by/4.0/)." },
	{ "CRLF lines, a paragraph of two lines",
	  "# Licensing\r\nline one\r\nline two\r\n\r\nnot this\r\n# Citation\r\nCite me.\r\n",
	  "Cite me.", "line one line two" },
	{ "no such headings", "# Data\nnothing here\n", "", "" },
	{ "empty", "", "", "" },
	{ "a heading ends a section", "## Citation\n## Licensing\nL\n", "", "L" },
};

/* Add a stored member to a zip being built in z (local header and data)
 * and its central directory entry to dir. */
static void zip_add(sbuf *z, sbuf *dir, const char *name, const char *data)
{
	unsigned char h[46];
	unsigned long crc = crc32(0L, (const Bytef *)data, (uInt)strlen(data));
	size_t n = strlen(name), len = strlen(data), off = z->len;

	memset(h, 0, sizeof(h));
	h[0] = 'P'; h[1] = 'K'; h[2] = 3; h[3] = 4;
	h[14] = crc & 255; h[15] = crc >> 8 & 255; h[16] = crc >> 16 & 255; h[17] = crc >> 24;
	h[18] = h[22] = len & 255; h[19] = h[23] = len >> 8 & 255;
	h[26] = (unsigned char)n;
	sbuf_add(z, h, 30);
	sbuf_add(z, name, n);
	sbuf_add(z, data, len);
	memset(h, 0, sizeof(h));
	h[0] = 'P'; h[1] = 'K'; h[2] = 1; h[3] = 2;
	h[16] = crc & 255; h[17] = crc >> 8 & 255; h[18] = crc >> 16 & 255; h[19] = crc >> 24;
	h[20] = h[24] = len & 255; h[21] = h[25] = len >> 8 & 255;
	h[28] = (unsigned char)n;
	h[42] = off & 255; h[43] = off >> 8 & 255;
	sbuf_add(dir, h, 46);
	sbuf_add(dir, name, n);
}

/* Close the zip z with its directory dir of entries entries. */
static void zip_end(sbuf *z, const sbuf *dir, unsigned entries)
{
	unsigned char e[22];
	size_t off = z->len;

	memset(e, 0, sizeof(e));
	e[0] = 'P'; e[1] = 'K'; e[2] = 5; e[3] = 6;
	e[8] = e[10] = (unsigned char)entries;
	e[12] = dir->len & 255; e[13] = dir->len >> 8 & 255;
	e[16] = off & 255; e[17] = off >> 8 & 255;
	sbuf_add(z, dir->data, dir->len);
	sbuf_add(z, e, 22);
}

/* The whole content of in as a new string. */
static char *read_all(input *in)
{
	const unsigned char *data;
	size_t n;
	sbuf s;
	mc_err err;

	sbuf_init(&s);
	sbuf_adds(&s, "");
	while (input_next(in, &data, &n, &err) == 1)
		sbuf_add(&s, data, n);
	return sbuf_detach(&s, NULL);
}

int main(void)
{
	sbuf z, dir;
	input *in = NULL;
	char *text, *citation, *licence;
	size_t i;
	mc_err err;

	for (i = 0; i < sizeof(readmes) / sizeof(readmes[0]); i++) {
		bundle_readme_parse(readmes[i].readme, &citation, &licence);
		CHECK_STR(citation, readmes[i].citation, "%s: citation", readmes[i].what);
		CHECK_STR(licence, readmes[i].licence, "%s: licence", readmes[i].what);
		free(citation);
		free(licence);
	}

	sbuf_init(&z);
	sbuf_init(&dir);
	zip_add(&z, &dir, "README.md", "# Citation\nC\n");
	zip_add(&z, &dir, "a.csv", "Model\nx\n");
	zip_add(&z, &dir, "b.CSV", "Model\ny\nz\n");
	zip_end(&z, &dir, 3);

	CHECK(input_open_mem(&in, z.data, z.len, "two.zip", &err) == 0, "a zip of two CSVs opens");
	CHECK(in && input_bundle(in), "it is a bundle");
	CHECK(in && input_csv_count(in) == 2, "two .csv members listed");
	CHECK_STR(in ? input_csv_name(in, 1) : NULL, "b.CSV", "the second in directory order");
	CHECK(in && input_csv_name(in, 2) == NULL, "none past the last");
	input_free(in);
	in = NULL;

	CHECK(input_open_mem_member(&in, z.data, z.len, "two.zip", "b.CSV", &err) == 0,
	      "a member by name opens");
	CHECK(in && !input_bundle(in), "a member is not a bundle");
	text = in ? read_all(in) : NULL;
	CHECK_STR(text, "Model\ny\nz\n", "the member's content, whole");
	free(text);
	input_free(in);
	in = NULL;

	CHECK(input_open_mem_member(&in, z.data, z.len, "two.zip", "c.csv", &err) == -1,
	      "a member the zip lacks fails");
	CHECK(strstr(err.msg, "two.zip: zip archive has no member \"c.csv\"") != NULL,
	      "the message names the zip and the member: %s", err.msg);
	CHECK(input_open_mem_member(&in, "Model\nx\n", 8, "plain.csv", "a.csv", &err) == -1,
	      "a member of a plain file fails");

	sbuf_release(&z);
	sbuf_release(&dir);
	return unit_done();
}
