/*
 * site_manifest: the MANIFEST of a version of the site (site.h): every
 * file modelcat wrote in it, by its path relative to the version, with
 * its SHA-256.
 */
#ifndef MODELCAT_SITE_MANIFEST_H
#define MODELCAT_SITE_MANIFEST_H

#include <stddef.h>
#include "base/strmap.h"
#include "base/util.h"

/* ---- the manifest: relative path -> SHA-256 ---- */

typedef struct site_manifest {
	strmap map;                  /* path -> index + 1 */
	const char **paths;          /* relative paths (the map's copies) */
	char (*sha)[65];             /* their hashes */
	size_t n;                    /* entries */
	size_t cap;                  /* room in paths and sha */
} site_manifest;

void site_manifest_init(site_manifest *m);
void site_manifest_release(site_manifest *m);

/* path, of SHA-256 sha, into m (again: its hash replaced). */
void site_manifest_add(site_manifest *m, const char *path, const char *sha);

/* The hash of path in m, or NULL. */
const char *site_manifest_find(const site_manifest *m, const char *path);

/* Read root/MANIFEST ("SHA256  PATH" lines, each ended by a newline). 0,
 * 1 when there is none, -1 (err: the file and the line at fault). */
int site_manifest_read(const char *root, site_manifest *m, mc_err *err);

/* root/MANIFEST: m's lines in the order of their paths. 0, or -1 (err). */
int site_manifest_write(const char *root, const site_manifest *m, mc_err *err);

#endif
