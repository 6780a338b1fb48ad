#include "cli/verify.h"
#include "db/integrity.h"
#include "publish/site.h"
#include "store/check.h"
#include "store/listing.h"
#include "read/input.h"
#include "base/strmap.h"
#include "base/alloc.h"
#include "base/printf.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* The store files' hashes: name (EXPORT/NAME) -> index into sha. */
typedef struct hashes {
	strmap names;
	char (*sha)[65];            /* "" for a file that failed its check */
	size_t n;
} hashes;

void verify_init(verify_result *v)
{
	hashes *h = xcalloc(1, sizeof(*h));

	memset(v, 0, sizeof(*v));
	strmap_init(&h->names);
	v->hashes = h;
}

void verify_release(verify_result *v)
{
	hashes *h = v->hashes;

	if (h) {
		strmap_release(&h->names);
		free(h->sha);
		free(h);
	}
	v->hashes = NULL;
}

static void remember(hashes *h, const char *file, const char *sha)
{
	int added;
	size_t *slot = strmap_get_or_add(&h->names, file, strlen(file), &added);

	if (added) {
		h->sha = xrealloc(h->sha, (h->n + 1) * sizeof(*h->sha));
		*slot = h->n++;
	}
	mc_fmt(h->sha[*slot], 65, "%s", sha);
}

int verify_store(const char *dir, FILE *report, verify_result *v, mc_err *err)
{
	store_listing l;
	store_check sc;
	size_t i, j;

	if (store_check_open(&sc, dir, err))
		return -1;
	if (store_list(dir, NULL, &l, err)) {
		store_check_release(&sc);
		return -1;
	}
	for (i = 0; i < l.n; i++) {
		const store_folder *f = &l.folders[i];

		for (j = 0; j < f->n; j++) {
			char file[PATH_MAX], sha[65];
			int recorded;
			mc_err why;

			mc_fmt(file, sizeof(file), "%s/%s", f->name, f->files[j].name);
			v->files++;
			if (store_check_file(&sc, file, sha, &recorded, &why)) {
				textout_line(report, "%s", why.msg);
				v->problems++;
				sha[0] = '\0';
			} else if (!recorded) {
				v->unrecorded++;
			}
			remember(v->hashes, file, sha);
		}
	}
	store_listing_release(&l);
	store_check_release(&sc);
	return 0;
}

typedef struct catalogue_walk {
	const char *path;           /* the catalogue */
	const char *dir;            /* the store */
	FILE *report;
	verify_result *v;
} catalogue_walk;

static void integrity_line(void *arg, const char *line)
{
	catalogue_walk *w = arg;

	/* one answer may hold several lines: each is a problem of its own */
	while (*line) {
		size_t n = strcspn(line, "\n");

		if (n && strncmp(line, "*** in database", 15)) {
			textout_line(w->report, "%s: integrity_check: %.*s", w->path, (int)n, line);
			w->v->problems++;
		}
		line += n + (line[n] == '\n');
	}
}

/* A bundle's member a snapshot export loaded: its content in the store's
 * bundle name must be what was loaded. */
static void member_content(catalogue_walk *w, const integrity_file *f, const char *name,
			   const char *member, const char *label)
{
	char path[PATH_MAX], sha[65];
	unsigned long long bytes;
	mc_err why;

	mc_fmt(path, sizeof(path), "%s/%s/%s", w->dir, name, member);
	if (input_file_sha256(path, sha, &bytes, &why)) {
		textout_line(w->report, "%s", why.msg);
		w->v->problems++;
	} else if (f->sha256[0] && strcmp(sha, f->sha256)) {
		textout_line(w->report, "%s: content differs from what snapshot %s of %s loaded"
			     " (catalogue: %s, file: %s)", path, label, f->export_name, f->sha256, sha);
		w->v->problems++;
	}
}

/* A snapshot export: its file must be in the store, with its content. */
static void snapshot_file(void *arg, const integrity_file *f)
{
	catalogue_walk *w = arg;
	hashes *h = w->v->hashes;
	const char *base = strrchr(f->file, '/'), *folder = NULL, *member = NULL;
	char name[PATH_MAX], label[32];
	size_t *slot;

	w->v->snapshot_files++;
	if (f->ordinal > 1)
		mc_fmt(label, sizeof(label), "%s.%d", f->as_of, f->ordinal);
	else
		mc_fmt(label, sizeof(label), "%s", f->as_of);
	if (base) {
		for (folder = base; folder > f->file && folder[-1] != '/'; folder--)
			;
		/* a bundle's member, EXPORT/NAME.zip/MEMBER: the bundle is in
		 * the store, the member's content is checked below */
		if (folder > f->file && (size_t)(base - folder) > 4 && !strncmp(base - 4, ".zip", 4))
			for (member = base + 1, folder--; folder > f->file && folder[-1] != '/';
			     folder--)
				;
		mc_fmt(name, sizeof(name), "%.*s", (int)(member ? member - 1 - folder :
							  (long)strlen(folder)), folder);
	}
	slot = base ? strmap_find(&h->names, name, strlen(name)) : NULL;
	if (slot && member)
		member_content(w, f, name, member, label);
	else if (!slot) {
		textout_line(w->report, "%s: snapshot %s of %s was loaded from %s, which is not in"
			     " the store %s", w->path, label, f->export_name, f->file, w->dir);
		w->v->problems++;
	} else if (h->sha[*slot][0] && f->sha256[0] && strcmp(h->sha[*slot], f->sha256)) {
		textout_line(w->report, "%s/%s: content differs from what snapshot %s of %s"
			     " loaded (catalogue: %s, file: %s)", w->dir, name, label, f->export_name,
			f->sha256, h->sha[*slot]);
		w->v->problems++;
	}
}

int verify_catalogue(catalogue *cat, const char *dir, FILE *report, verify_result *v,
		     mc_err *err)
{
	catalogue_walk w = { cat->path, dir, report, v };
	size_t found;

	if (integrity_check(cat, integrity_line, &w, &found, err))
		return -1;
	if (found)
		return 0;       /* a damaged file's tables are not read further */
	return integrity_files(cat, snapshot_file, &w, err);
}

/* The published site: every file the published version's manifest lists is
 * there with its SHA-256 (out/site.h). */
int verify_site(const char *out, FILE *report, verify_result *v, mc_err *err)
{
	size_t problems = 0;
	int rc = site_verify(out, report, &problems, err);

	/* site_verify() counts from 0: the store's and catalogue's problems
	 * found before stay counted */
	v->problems += problems;
	return rc;
}
