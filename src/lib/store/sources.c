#include "store/sources.h"
#include "store/naming.h"
#include "base/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;            /* as written in sources.tsv */
	enum source_format format;   /* what it stands for */
} format_names[] = {
	{ "any", SOURCE_ANY },
	{ "csv", SOURCE_CSV },
	{ "csv.gz", SOURCE_GZIP },
	{ "zip", SOURCE_ZIP },
	{ "bundle", SOURCE_BUNDLE },
};

void sources_init(source_list *list)
{
	list->items = NULL;
	list->n = 0;
}

void sources_release(source_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		free(list->items[i].name);
		free(list->items[i].url);
	}
	free(list->items);
	sources_init(list);
}

const source *sources_find(const source_list *list, const char *name)
{
	size_t i;

	for (i = 0; i < list->n; i++)
		if (!strcmp(list->items[i].name, name))
			return &list->items[i];
	return NULL;
}

void sources_add(source_list *list, const char *name, const char *url,
		 enum source_format format)
{
	source *s = (source *)sources_find(list, name);

	if (s) {
		free(s->url);
		s->url = xstrdup(url);
		s->format = format;
		return;
	}
	list->items = xrealloc(list->items, (list->n + 1) * sizeof(*list->items));
	s = &list->items[list->n++];
	s->name = xstrdup(name);
	s->url = xstrdup(url);
	s->format = format;
}

int sources_parse_format(const char *text, enum source_format *out)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (!strcmp(text, format_names[i].name)) {
			*out = format_names[i].format;
			return 0;
		}
	}
	return -1;
}

const char *sources_format_name(enum source_format format)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (format_names[i].format == format)
			return format_names[i].name;
	return "any";
}

enum source_format sources_guess_format(const char *url)
{
	size_t n = strcspn(url, "?#");
	char path[4096];

	mc_fmt(path, sizeof(path), "%.*s", (int)(n < sizeof(path) ? n : sizeof(path) - 1), url);
	if (mc_ends_with(path, ".csv.gz") || mc_ends_with(path, ".gz"))
		return SOURCE_GZIP;
	if (mc_ends_with(path, ".zip"))
		return SOURCE_ZIP;
	if (mc_ends_with(path, ".csv"))
		return SOURCE_CSV;
	return SOURCE_ANY;
}

/* Is the URL's scheme one fetch accepts? */
static int known_scheme(const char *url)
{
	return !strncasecmp(url, "http://", 7) || !strncasecmp(url, "https://", 8) ||
	       !strncasecmp(url, "file://", 7);
}

int sources_url(const char *text, char **url, mc_err *err)
{
	static const char hex[] = "0123456789ABCDEF";
	char abs[PATH_MAX];
	const char *p;
	sbuf out;

	*url = NULL;
	if (strstr(text, "://")) {
		if (!known_scheme(text)) {
			mc_error(err, "%s: unsupported URL scheme (http, https and file only)",
			       text);
			return -1;
		}
		*url = xstrdup(text);
		return 0;
	}
	if (!*text) {
		mc_error(err, "empty URL");
		return -1;
	}
	if (!realpath(text, abs)) {
		mc_error(err, "%s: %s", text, strerror(errno));
		return -1;
	}
	sbuf_init(&out);
	sbuf_adds(&out, "file://");
	for (p = abs; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/-._~", c)) {
			sbuf_addc(&out, (char)c);
		} else {
			sbuf_addc(&out, '%');
			sbuf_addc(&out, hex[c >> 4]);
			sbuf_addc(&out, hex[c & 15]);
		}
	}
	*url = sbuf_detach(&out, NULL);
	return 0;
}

/* Split line at TABs into fields[0..max); returns the number of fields,
 * or max + 1 when there are more. */
static size_t split_tabs(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		if (n == max)
			return max + 1;
		fields[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			return n;
		*p++ = '\0';
	}
}

int sources_load(source_list *list, const char *path, mc_err *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int rc = -1;

	if (!f) {
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		char *fields[3], *name, *url;
		enum source_format format;
		size_t n;

		errno = 0;
		len = getline(&line, &cap, f);
		if (len < 0)
			break;
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		n = split_tabs(line, fields, 3);
		if (n < 2 || n > 3) {
			mc_error(err, "%s:%lu: expected name <TAB> url [<TAB> format]",
			       path, lineno);
			goto out;
		}
		name = fields[0];
		url = fields[1];
		if (!naming_export_valid(name)) {
			mc_error(err, "%s:%lu: '%s' is not a valid source name (letters,"
			       " digits, _ and -)", path, lineno, name);
			goto out;
		}
		if (!known_scheme(url)) {
			mc_error(err, "%s:%lu: %s: the URL must start with http://, https://"
			       " or file://", path, lineno, name);
			goto out;
		}
		if (n == 3 && *fields[2]) {
			if (sources_parse_format(fields[2], &format)) {
				mc_error(err, "%s:%lu: %s: unknown format '%s' (csv, csv.gz,"
				       " zip or any)", path, lineno, name, fields[2]);
				goto out;
			}
		} else {
			format = sources_guess_format(url);
		}
		if (sources_find(list, name)) {
			mc_error(err, "%s:%lu: source '%s' is declared twice", path, lineno,
			       name);
			goto out;
		}
		sources_add(list, name, url, format);
	}
	/* a read that failed (no memory for a line included) is not the end */
	if (ferror(f) || errno) {
		mc_error(err, "%s: read error: %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}
