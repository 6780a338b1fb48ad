/*
 * site_fs: the file-system helpers of the site's modules (site.h): the
 * folder of modelcat's state, removing a tree without following symbolic
 * links, whole files read and written, a folder's names.
 */
#ifndef MODELCAT_SITE_FS_H
#define MODELCAT_SITE_FS_H

#include <stddef.h>
#include "base/util.h"

/* DIR/.modelcat: the versions of the site under DIR, its current one and
 * its id (site.h) */
#define SITE_STATE ".modelcat"

/* The mark in each folder publish makes under DIR/.modelcat (build-PID,
 * site-ID, old-pages-PID, old-audit-PID): only marked folders are removed. */
#define SITE_MADE "MADE"

/* Remove path and, when it is a folder (never through a symbolic link),
 * everything in it, its SITE_MADE mark last (a removal stopped half-way
 * leaves a folder still marked). Only system calls: async-signal-safe. */
void site_fs_remove_tree(const char *path);

/* mkdir path (0755) unless it exists. 0, or -1 (err). */
int site_fs_make_dir(const char *path, mc_err *err);

/* data (len bytes) into a new file path. 0, or -1 (err). */
int site_fs_write_file(const char *path, const void *data, size_t len, mc_err *err);

/* A whole file into out (appended); 0, or -1 (errno) */
int site_fs_read_file(const char *path, sbuf *out);

/* Is name PREFIX<pid> with pid a process that no longer runs (or this one)? */
int site_fs_dead_pid_name(const char *name, const char *prefix);

/* The names in folder path (no "." and ".."), sorted; NULL when
 * unreadable. With types, their types into *types (the caller frees it):
 * a file of the folder's type DT_REG needs no lstat() to be known for one. */
char **site_fs_list_names(const char *path, size_t *n, unsigned char **types);

/* The published version's name (site-ID) from DIR/.modelcat/current, or "". */
void site_fs_current_name(const char *state, char name[64]);

#endif
