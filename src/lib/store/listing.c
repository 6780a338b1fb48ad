#include "store/listing.h"
#include "store/naming.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const store_file *)a)->name, ((const store_file *)b)->name);
}

static int folder_cmp(const void *a, const void *b)
{
	return strcmp(((const store_folder *)a)->name, ((const store_folder *)b)->name);
}

/* Read the entries of the open folder d into f. */
static void read_folder(DIR *d, store_folder *f)
{
	struct dirent *e;
	char date[11];

	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, LISTING_TMP_PREFIX, strlen(LISTING_TMP_PREFIX))) {
			f->temps = xrealloc(f->temps, (f->ntemps + 1) * sizeof(*f->temps));
			f->temps[f->ntemps++] = xstrdup(e->d_name);
			continue;
		}
		if (!naming_snapshot_file(e->d_name, date))
			continue;
		f->files = xrealloc(f->files, (f->n + 1) * sizeof(*f->files));
		f->files[f->n].name = xstrdup(e->d_name);
		memcpy(f->files[f->n].date, date, sizeof(date));
		f->n++;
	}
	if (f->n)
		qsort(f->files, f->n, sizeof(*f->files), file_cmp);
}

/* Add the folder dir/name to out; 0, or -1 with errno set. */
static int add_folder(const char *dir, const char *name, store_listing *out)
{
	char path[PATH_MAX];
	store_folder *f;
	DIR *d;

	mc_fmt(path, sizeof(path), "%s/%s", dir, name);
	d = opendir(path);
	if (!d)
		return -1;
	out->folders = xrealloc(out->folders, (out->n + 1) * sizeof(*out->folders));
	f = &out->folders[out->n++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	read_folder(d, f);
	closedir(d);
	return 0;
}

int store_list(const char *dir, const char *only, store_listing *out, mc_err *err)
{
	struct dirent *e;
	DIR *top;

	out->folders = NULL;
	out->n = 0;
	if (only) {
		if (add_folder(dir, only, out) && errno != ENOENT)
			return mc_error(err, "%s/%s: cannot read: %s", dir, only, strerror(errno));
		return 0;
	}
	top = opendir(dir);
	if (!top)
		return mc_error(err, "%s: cannot open the snapshot store: %s", dir, strerror(errno));
	while ((e = readdir(top)))
		if (naming_export_valid(e->d_name))
			add_folder(dir, e->d_name, out);
	closedir(top);
	if (out->n)
		qsort(out->folders, out->n, sizeof(*out->folders), folder_cmp);
	return 0;
}

void store_listing_release(store_listing *l)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		store_folder *f = &l->folders[i];

		for (j = 0; j < f->n; j++)
			free(f->files[j].name);
		mc_free_strings(f->temps, f->ntemps);
		free(f->files);
		free(f->name);
	}
	free(l->folders);
	l->folders = NULL;
	l->n = 0;
}

const store_file *store_folder_latest(const store_folder *f)
{
	return f->n ? &f->files[f->n - 1] : NULL;
}
