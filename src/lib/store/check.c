#include "store/check.h"
#include "store/naming.h"
#include "read/input.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int store_check_open(store_check *sc, const char *dir, mc_err *err)
{
	memset(sc, 0, sizeof(*sc));
	store_manifest_init(&sc->manifest);
	mc_fmt(sc->dir, sizeof(sc->dir), "%s", dir);
	if (!realpath(dir, sc->real))
		return mc_error(err, "%s: cannot open the snapshot store: %s", dir, strerror(errno));
	return store_manifest_read(dir, &sc->manifest, err);
}

void store_check_release(store_check *sc)
{
	store_manifest_release(&sc->manifest);
}

const char *store_check_recorded(const store_check *sc, const char *file)
{
	size_t i;

	for (i = sc->manifest.n; i-- > 0;) {
		const store_entry *e = &sc->manifest.entries[i];

		if (!strcmp(e->file, file) && strlen(e->sha256) == 64)
			return e->sha256;
	}
	return NULL;
}

/* What a file that is not a regular one is, for messages. */
static const char *kind_of(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

int store_check_entry(const store_check *sc, const char *file, mc_err *err)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct stat st;
	size_t n = strlen(sc->real);

	mc_fmt(path, sizeof(path), "%s/%s", sc->dir, file);
	if (lstat(path, &st))
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	if (!realpath(path, real))
		return mc_error(err, "%s: %s: %s", path, S_ISLNK(st.st_mode)
				? "a symbolic link to nothing" : "cannot read", strerror(errno));
	/* stat() of a FIFO or a device does not open it: it cannot block */
	if (stat(real, &st))
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return mc_error(err, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
	if (strncmp(real, sc->real, n) || (real[n] != '/' && strcmp(sc->real, "/")))
		return mc_error(err, "%s: a symbolic link out of the snapshot store (to %s)", path,
				real);
	return 0;
}

/* The 12 hex digits of the hash in file's name (<date>T<time>Z-<sha12>),
 * or NULL when its name has none. */
static const char *name_hash(const char *file, char out[13])
{
	const char *base = strrchr(file, '/');
	size_t len;

	base = base ? base + 1 : file;
	len = strcspn(base, ".");
	if (len != 31 || !naming_snapshot_stem(base, len))
		return NULL;
	memcpy(out, base + 19, 12);
	out[12] = '\0';
	return out;
}

/* The reason in a message "PATH: why", without the path. */
static const char *reason(const mc_err *e, const char *path)
{
	size_t n = strlen(path);

	if (!strncmp(e->msg, path, n) && !strncmp(e->msg + n, ": ", 2))
		return e->msg + n + 2;
	return e->msg;
}

int store_check_file(const store_check *sc, const char *file, char sha[65], int *recorded,
		     mc_err *err)
{
	char path[PATH_MAX], in_name[13];
	const char *manifest = store_check_recorded(sc, file);
	const char *named = name_hash(file, in_name);
	unsigned long long bytes;
	mc_err why;

	sha[0] = '\0';
	if (recorded)
		*recorded = manifest || named;
	if (store_check_entry(sc, file, err))
		return -1;
	mc_fmt(path, sizeof(path), "%s/%s", sc->dir, file);
	if (input_file_sha256(path, sha, &bytes, &why)) {
		sha[0] = '\0';
		if (!manifest && !named)
			return mc_error(err, "%s", why.msg);
		return mc_error(err, "%s: content does not match its recorded SHA-256 (%s: %s,"
				" file: not readable: %s)", path, manifest ? "manifest" : "name",
				manifest ? manifest : named, reason(&why, path));
	}
	if (manifest && strcmp(manifest, sha))
		return mc_error(err, "%s: content does not match its recorded SHA-256 (manifest: %s,"
				" file: %s)", path, manifest, sha);
	if (named && strncasecmp(named, sha, 12))
		return mc_error(err, "%s: content does not match its recorded SHA-256 (name: %s,"
				" file: %s)", path, named, sha);
	return 0;
}

int store_check_path(const char *path, char sha[65], mc_err *err)
{
	char dir[PATH_MAX], file[PATH_MAX], day[11];
	char *base, *folder;
	store_check sc;
	int rc;

	sha[0] = '\0';
	mc_fmt(dir, sizeof(dir), "%s", path);
	base = strrchr(dir, '/');
	if (!base)
		return 0;
	*base++ = '\0';
	folder = strrchr(dir, '/');
	folder = folder ? folder + 1 : dir;
	if (!naming_snapshot_file(base, day) || !naming_export_valid(folder))
		return 0;
	mc_fmt(file, sizeof(file), "%s/%s", folder, base);
	if (folder == dir)
		mc_fmt(dir, sizeof(dir), ".");
	else
		folder[-1] = '\0';
	if (!dir[0])
		mc_fmt(dir, sizeof(dir), "/");
	rc = store_check_open(&sc, dir, err);
	if (!rc)
		rc = store_check_file(&sc, file, sha, NULL, err);
	store_check_release(&sc);
	return rc;
}
