#include "store/acceptances.h"
#include "store/naming.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char header[] = "export\tsha256\tfile\taccepted_at\treason\n";

/* Append s with TAB, newline, carriage return and backslash escaped. */
static void add_escaped(sbuf *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '\t': sbuf_adds(out, "\\t"); break;
		case '\n': sbuf_adds(out, "\\n"); break;
		case '\r': sbuf_adds(out, "\\r"); break;
		case '\\': sbuf_adds(out, "\\\\"); break;
		default: sbuf_addc(out, *s);
		}
}

/* The field [s, end) unescaped, a new string. */
static char *unescaped(const char *s, const char *end)
{
	sbuf out;

	sbuf_init(&out);
	for (; s < end; s++) {
		if (*s == '\\' && s + 1 < end) {
			s++;
			sbuf_addc(&out, *s == 't' ? '\t' : *s == 'n' ? '\n'
				  : *s == 'r' ? '\r' : *s);
		} else {
			sbuf_addc(&out, *s);
		}
	}
	return sbuf_detach(&out, NULL);
}

/* Read the file at path into data. 0; 1 when there is none; -1 (err). */
static int read_file(const char *path, sbuf *data, mc_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 1 : mc_error(err, "%s: %s", path, strerror(errno));
	if (mc_read_fd(fd, data)) {
		mc_error(err, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Write all of [data, data + len) to fd. 0, or -1 (errno). */
static int write_all(int fd, const char *data, size_t len)
{
	ssize_t put;

	while (len) {
		put = write(fd, data, len);
		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return -1;
		data += put;
		len -= (size_t)put;
	}
	return 0;
}

/* Is s 64 lower-case hex digits? */
static int is_sha256(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return !s[64];
}

/* Parse one line [s, end) into a. 0, or -1 when it has not five fields. */
static int parse_line(const char *s, const char *end, store_acceptance *a)
{
	char **fields[5] = { &a->export_name, &a->sha256, &a->file, &a->accepted_at, &a->reason };
	const char *tab;
	size_t k;

	memset(a, 0, sizeof(*a));
	for (k = 0; k < 5; k++) {
		tab = memchr(s, '\t', (size_t)(end - s));
		if (k < 4 && !tab)
			return -1;
		if (k == 4 && tab)
			return -1;
		*fields[k] = unescaped(s, k < 4 ? tab : end);
		s = k < 4 ? tab + 1 : end;
	}
	return is_sha256(a->sha256) ? 0 : -1;
}

static void acceptance_release(store_acceptance *a)
{
	free(a->export_name);
	free(a->sha256);
	free(a->file);
	free(a->accepted_at);
	free(a->reason);
}

int store_acceptances_read(const char *dir, store_acceptances *out, mc_err *err)
{
	char path[PATH_MAX];
	const char *s, *end, *nl;
	unsigned long line = 0;
	sbuf data;
	int rc = -1;

	out->items = NULL;
	out->n = 0;
	mc_fmt(path, sizeof(path), "%s/%s", dir, STORE_ACCEPTANCES);
	sbuf_init(&data);
	if ((rc = read_file(path, &data, err)))
		goto out;
	rc = -1;
	for (s = data.data, end = s + data.len; s < end; s = nl + 1) {
		store_acceptance a;

		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		if (++line == 1 || nl == s)
			continue;
		if (parse_line(s, nl, &a)) {
			acceptance_release(&a);
			mc_error(err, "%s:%lu: expected export, sha256 (64 hex digits), file,"
				 " accepted_at and reason separated by TABs", path, line);
			store_acceptances_release(out);
			goto out;
		}
		out->items = xrealloc(out->items, (out->n + 1) * sizeof(*out->items));
		out->items[out->n++] = a;
	}
	rc = 0;
out:
	sbuf_release(&data);
	return rc < 0 ? -1 : 0;
}

void store_acceptances_release(store_acceptances *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		acceptance_release(&a->items[i]);
	free(a->items);
	a->items = NULL;
	a->n = 0;
}

int store_acceptance_add(const char *dir, const store_acceptance *a, mc_err *err)
{
	char path[PATH_MAX];
	store_acceptances have;
	size_t i;
	sbuf line;
	int fd, rc = -1;

	if (store_acceptances_read(dir, &have, err))
		return -1;
	for (i = 0; i < have.n; i++)
		if (!strcmp(have.items[i].export_name, a->export_name) &&
		    !strcmp(have.items[i].sha256, a->sha256))
			break;
	rc = i < have.n;
	store_acceptances_release(&have);
	if (rc)
		return 1;
	mc_fmt(path, sizeof(path), "%s/%s", dir, STORE_ACCEPTANCES);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return mc_error(err, "%s: %s", path, strerror(errno));
	sbuf_init(&line);
	if (lseek(fd, 0, SEEK_END) == 0)
		sbuf_adds(&line, header);
	add_escaped(&line, a->export_name);
	sbuf_addc(&line, '\t');
	add_escaped(&line, a->sha256);
	sbuf_addc(&line, '\t');
	add_escaped(&line, a->file);
	sbuf_addc(&line, '\t');
	add_escaped(&line, a->accepted_at);
	sbuf_addc(&line, '\t');
	add_escaped(&line, a->reason);
	sbuf_addc(&line, '\n');
	rc = write_all(fd, line.data, line.len) || fsync(fd) ? -1 : 0;
	if (rc)
		mc_error(err, "%s: %s", path, strerror(errno));
	if (close(fd) && !rc)
		rc = mc_error(err, "%s: %s", path, strerror(errno));
	sbuf_release(&line);
	return rc;
}

/* The start of the last part of [path, end), after its last '/'. */
static const char *last_part(const char *path, const char *end)
{
	const char *p = end;

	while (p > path && p[-1] != '/')
		p--;
	return p;
}

/* Are a and b the same folder on disk? */
static int same_folder(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && S_ISDIR(x.st_mode) && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

int store_acceptance_where(const char *store, const char *path, char *dir, size_t dirlen,
			   const char **file)
{
	char date[11], name[PATH_MAX], folder[NAMING_EXPORT_MAX + 1];
	const char *end = path + strlen(path), *zip = strstr(path, ".zip/"), *base, *up;

	if (zip)
		end = zip + 4;
	base = last_part(path, end);
	if ((size_t)(end - base) >= sizeof(name) || base == path)
		return 0;
	memcpy(name, base, (size_t)(end - base));
	name[end - base] = '\0';
	if (!naming_snapshot_file(name, date))
		return 0;
	up = last_part(path, base - 1);
	if ((size_t)(base - 1 - up) >= sizeof(folder))
		return 0;
	memcpy(folder, up, (size_t)(base - 1 - up));
	folder[base - 1 - up] = '\0';
	if (!naming_export_valid(folder))
		return 0;
	if (up == path)
		mc_fmt(dir, dirlen, ".");
	else
		mc_fmt(dir, dirlen, "%.*s", (int)(up - 1 - path), path);
	if (!dir[0])
		mc_fmt(dir, dirlen, "/");
	if (!store || !same_folder(dir, store))
		return 0;
	*file = up;
	return 1;
}
