/*
 * naming: the names of exports and of the files in the snapshot store.
 * An export is named by letters, digits, '_' and '-'; the store keeps an
 * export's contents as <export>/<stem><extension>, where the stem is the
 * day (YYYY-MM-DD) or, for a later content of the same day,
 * YYYY-MM-DDTHHMMSSZ-<12 hex digits of its SHA-256>.
 */
#ifndef MODELCAT_NAMING_H
#define MODELCAT_NAMING_H

#include <stddef.h>

/* Longest export name accepted. */
#define NAMING_EXPORT_MAX 64

/*
 * The export's name from a file's path: the file name without .gz, .zip
 * and .csv; when that is a snapshot's name in the store (YYYY-MM-DD, or
 * YYYY-MM-DDTHHMMSSZ-<sha12> as fetch names a later content of the same
 * day: <export>/<date>.csv.gz), the name of the folder instead. Returns 0,
 * or -1 when no valid name results.
 */
int naming_export_from_path(const char *path, char *name, size_t len);
/* The date of a file named as in the snapshot store (<date>.csv.gz or
 * <date>T<time>Z-<hash>.csv.gz) into day: 0, or -1 for another name. */
int naming_snapshot_date(const char *path, char day[11]);

/*
 * Split a command-line argument "[EXPORT=]FILE": when the text before the
 * first '=' is a valid export name, that is the export and the rest the
 * file; otherwise the whole argument is the file and the name comes from
 * naming_export_from_path(). *path points into arg. 0, or -1 when no name.
 */
int naming_split_arg(const char *arg, char *name, size_t len, const char **path);
/* Export names are letters, digits, '_' and '-', 1..NAMING_EXPORT_MAX long. */
int naming_export_valid(const char *name);

/* Is stem (a file name less its extensions) a snapshot's: YYYY-MM-DD or
 * YYYY-MM-DDTHHMMSSZ-<12 hex digits>? */
int naming_snapshot_stem(const char *stem, size_t len);
/* Is name a snapshot file: a snapshot stem plus .csv, .csv.gz or .zip?
 * Copies its date into date. */
int naming_snapshot_file(const char *name, char date[11]);

#endif
