/*
 * fileout: where a stage's output files go. Given to a writer of many
 * files (the pages, the downloads), a file_out sees each file's path and
 * bytes and writes it, or finds the same bytes already written; without
 * one each file is written as a new file.
 */
#ifndef MODELCAT_FILEOUT_H
#define MODELCAT_FILEOUT_H

#include "base/error.h"

#include <stddef.h>

typedef struct file_out {
	/* Put data[0..len) at path. 0, or -1 (err). May be called from more
	 * than one thread at once. */
	int (*put)(void *ctx, const char *path, const void *data, size_t len, mc_err *err);
	void *ctx;
} file_out;

/* Write data[0..len) as a new file at path (0644): a file there is removed
 * first, so a file linked from elsewhere is never written through, and a
 * symbolic link is never followed. 0, or -1 (err naming path). */
int file_write_new(const char *path, const void *data, size_t len, mc_err *err);

/* out->put(), or file_write_new() when out is NULL. */
int file_out_put(const file_out *out, const char *path, const void *data, size_t len,
		 mc_err *err);

#endif
