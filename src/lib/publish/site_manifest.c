#include "publish/site_manifest.h"
#include "publish/site_fs.h"
#include "base/fileout.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST_BLOCK (1 << 20)   /* bytes of MANIFEST written at a time */

void site_manifest_init(site_manifest *m)
{
	memset(m, 0, sizeof(*m));
	strmap_init(&m->map);
}

void site_manifest_release(site_manifest *m)
{
	strmap_release(&m->map);
	free(m->paths);
	free(m->sha);
	site_manifest_init(m);
}

/* A hash (64 hex digits) into to. */
static void sha_copy(char to[65], const char *sha)
{
	size_t len = strnlen(sha, 64);

	memcpy(to, sha, len);
	to[len] = '\0';
}

/* (333,787 entries at the bench's size, in every publication's new
 * manifest and in the published one read back: no copy of the path
 * beside the map's, and no formatting of the hash) */
void site_manifest_add(site_manifest *m, const char *path, const char *sha)
{
	int added;
	size_t *slot = strmap_get_or_add(&m->map, path, strlen(path), &added);

	if (!added) {
		sha_copy(m->sha[*slot - 1], sha);
		return;
	}
	*slot = m->n + 1;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->paths = xrealloc(m->paths, m->cap * sizeof(*m->paths));
		m->sha = xrealloc(m->sha, m->cap * sizeof(*m->sha));
	}
	m->paths[m->n] = strmap_key(slot);
	sha_copy(m->sha[m->n], sha);
	m->n++;
}

/* The hash of path in m, or NULL. */
const char *site_manifest_find(const site_manifest *m, const char *path)
{
	size_t *slot = m ? strmap_find(&m->map, path, strlen(path)) : NULL;

	return slot ? m->sha[*slot - 1] : NULL;
}

/* Read root/MANIFEST ("SHA256  PATH" lines, each ended by a newline). 0,
 * 1 when there is none, -1 (err: the file and the line at fault). */
int site_manifest_read(const char *root, site_manifest *m, mc_err *err)
{
	char path[PATH_MAX];
	sbuf text;
	char *line, *end;
	size_t number = 0, lines = 0;

	mc_fmt(path, sizeof(path), "%s/MANIFEST", root);
	sbuf_init(&text);
	if (site_fs_read_file(path, &text)) {
		sbuf_release(&text);
		if (errno == ENOENT)
			return 1;
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	}
	/* room for every line at once */
	for (line = text.data; (line = memchr(line, '\n', (size_t)(text.data + text.len - line)));
	     line++)
		lines++;
	strmap_reserve(&m->map, m->n + lines + 1);
	if (m->n + lines + 1 > m->cap) {
		m->cap = m->n + lines + 1;
		m->paths = xrealloc(m->paths, m->cap * sizeof(*m->paths));
		m->sha = xrealloc(m->sha, m->cap * sizeof(*m->sha));
	}
	for (line = text.data; line < text.data + text.len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text.data + text.len - line));
		number++;
		if (!end)
			end = text.data + text.len;   /* the last line, unended */
		*end = '\0';
		if ((size_t)(end - line) < 67 || line[64] != ' ' || line[65] != ' ') {
			if (line == end)
				mc_error(err, "%s:%zu: an empty line, not a manifest line", path,
					 number);
			else
				mc_error(err, "%s:%zu: not a manifest line: %.40s", path, number, line);
			sbuf_release(&text);   /* (after: line is in it) */
			return -1;
		}
		line[64] = '\0';
		site_manifest_add(m, line + 66, line);
	}
	sbuf_release(&text);
	return 0;
}

/* One line of MANIFEST. */
typedef struct manifest_line {
	const char *path, *sha;
} manifest_line;

static int manifest_line_cmp(const void *a, const void *b)
{
	return strcmp(((const manifest_line *)a)->path, ((const manifest_line *)b)->path);
}

/* root/MANIFEST: m's lines in the order of their paths, written a block at
 * a time: in one buffer, 37 MB at the bench's size (333,787 lines), the
 * file took twice as long (fresh memory, and a copy at each growth). 0, or
 * -1 (err). */
int site_manifest_write(const char *root, const site_manifest *m, mc_err *err)
{
	char path[PATH_MAX];
	manifest_line *lines = xcalloc(m->n + 1, sizeof(*lines));
	file_part f;
	sbuf block;
	size_t i;
	int rc;

	for (i = 0; i < m->n; i++) {
		lines[i].path = m->paths[i];
		lines[i].sha = m->sha[i];
	}
	qsort(lines, m->n, sizeof(*lines), manifest_line_cmp);
	mc_fmt(path, sizeof(path), "%s/MANIFEST", root);
	sbuf_init(&block);
	rc = file_part_open(&f, NULL, path, err);
	for (i = 0; !rc && i < m->n; i++) {
		sbuf_adds(&block, lines[i].sha);
		sbuf_add(&block, "  ", 2);
		sbuf_adds(&block, lines[i].path);
		sbuf_addc(&block, '\n');
		if (block.len >= MANIFEST_BLOCK || i + 1 == m->n) {
			rc = file_part_write(&f, block.data, block.len, err);
			sbuf_reset(&block);
		}
	}
	if (!rc)
		rc = file_part_close(&f, NULL, err);
	else if (f.fd >= 0)
		file_part_abort(&f);
	sbuf_release(&block);
	free(lines);
	return rc;
}
