#include "ingest/bundle.h"
#include "db/credit.h"
#include "read/input.h"
#include "store/naming.h"
#include "base/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Append s to v (n entries), a new copy. */
static void push(char ***v, int *n, const char *s)
{
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/* The message for EXPORT=FILE naming a bundle of members. */
static int named_bundle(const char *arg, const char *path, char **members, size_t n,
			mc_err *err)
{
	sbuf list;
	size_t i;

	sbuf_init(&list);
	for (i = 0; i < n; i++)
		sbuf_addf(&list, "%s%s", i ? ", " : "", members[i]);
	mc_error(err, "%s: %s is a bundle of %zu exports (%s); give the file without EXPORT= to "
		 "load each member as the export it names", arg, path, n, list.data);
	sbuf_release(&list);
	return 1;
}

int bundle_expand(char *const *args, int n, char ***out, int *nout, mc_err *err)
{
	char name[NAMING_EXPORT_MAX + 1], member[PATH_MAX];
	int i, rc = 0;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < n && !rc; i++) {
		const char *path;
		char **members = NULL;
		size_t nmembers = 0, j;
		mc_err ignored;

		if (naming_split_arg(args[i], name, sizeof(name), &path) ||
		    input_zip_members(path, &members, &nmembers, &ignored) || nmembers < 2) {
			push(out, nout, args[i]);
		} else if (path != args[i]) {
			rc = named_bundle(args[i], path, members, nmembers, err);
		} else {
			for (j = 0; j < nmembers; j++) {
				mc_fmt(member, sizeof(member), "%s/%s", path, members[j]);
				push(out, nout, member);
			}
		}
		mc_free_strings(members, nmembers);
	}
	if (rc) {
		mc_free_strings(*out, (size_t)*nout);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}

/* Is line (len bytes) a Markdown heading holding word (any case)? */
static int heading_has(const char *line, size_t len, const char *word)
{
	char buf[256];

	if (!len || line[0] != '#')
		return 0;
	mc_fmt(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), line);
	return strcasestr(buf, word) != NULL;
}

/* Add line (len bytes) to out, a link [text](url) as "text (url)". */
static void add_line(sbuf *out, const char *line, size_t len)
{
	size_t i, close, end;

	if (out->len)
		sbuf_addc(out, ' ');
	for (i = 0; i < len; i++) {
		if (line[i] == '[') {
			for (close = i + 1; close < len && line[close] != ']'; close++)
				;
			for (end = close + 2; end < len && line[end] != ')'; end++)
				;
			if (close + 1 < len && line[close + 1] == '(' && end < len) {
				sbuf_add(out, line + i + 1, close - i - 1);
				sbuf_adds(out, " (");
				sbuf_add(out, line + close + 2, end - close - 2);
				sbuf_addc(out, ')');
				i = end;
				continue;
			}
		}
		sbuf_addc(out, line[i]);
	}
}

/* The text under the first heading holding word (and not avoid), up to a
 * blank line after some text or the next heading; fences left out. */
static char *section_text(const char *readme, const char *word, const char *avoid)
{
	const char *line = readme;
	int inside = 0;
	sbuf out;

	sbuf_init(&out);
	sbuf_adds(&out, "");
	while (*line) {
		size_t len = strcspn(line, "\n");
		size_t text = len;

		while (text && (line[text - 1] == '\r' || line[text - 1] == ' '))
			text--;
		if (line[0] == '#') {
			if (inside)
				break;
			inside = heading_has(line, text, word) && !heading_has(line, text, avoid);
		} else if (inside && text >= 3 && !strncmp(line, "```", 3)) {
			/* a fence: the lines inside are the text */
		} else if (inside && !text && out.len) {
			break;
		} else if (inside && text) {
			add_line(&out, line, text);
		}
		line += len + (line[len] == '\n');
	}
	return sbuf_detach(&out, NULL);
}

void bundle_readme_parse(const char *readme, char **citation, char **licence)
{
	*citation = section_text(readme, "citation", "bibtex");
	*licence = section_text(readme, "licens", "\001");
}

int bundle_credit(load *ld, const char *path, mc_err *err)
{
	char archive[PATH_MAX], *readme = NULL, *citation = NULL, *licence = NULL;
	const char *member;
	credit c;
	int rc;

	if (input_member_path(path, archive, sizeof(archive), &member))
		return 0;
	rc = input_read_member(archive, "README.md", BUNDLE_README_MAX, &readme, err);
	if (rc)
		return rc > 0 ? 0 : -1;
	bundle_readme_parse(readme, &citation, &licence);
	c.file = archive;
	c.citation = citation;
	c.licence = licence;
	c.readme = readme;
	rc = credit_store(ld, &c, err);
	free(readme);
	free(citation);
	free(licence);
	return rc;
}
