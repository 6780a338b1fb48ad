/*
 * fileout: where a stage's output files go. Given to a writer of many
 * files (the pages, the downloads), a file_out sees each file's path and
 * bytes and writes it, or finds the same bytes already written; without
 * one each file is written as a new file.
 */
#ifndef MODELCAT_FILEOUT_H
#define MODELCAT_FILEOUT_H

#include "base/error.h"
#include "base/sha256.h"

#include <stddef.h>

typedef struct file_out {
	/* Put data[0..len) at path. 0, or -1 (err). May be called from more
	 * than one thread at once. */
	int (*put)(void *ctx, const char *path, const void *data, size_t len, mc_err *err);
	/* A file written at path in parts (file_part) is whole: len bytes of
	 * SHA-256 sha (hex). It may put the same bytes from elsewhere in its
	 * place. 0, or -1 (err). NULL: nothing to do. May be called from more
	 * than one thread at once. */
	int (*placed)(void *ctx, const char *path, const char *sha, unsigned long long len,
		      mc_err *err);
	void *ctx;
} file_out;

/* A file too large to hold whole (an export's downloads), written as a new
 * file at path a part at a time and hashed as it goes. */
typedef struct file_part {
	const file_out *out;         /* told when it is whole, or NULL */
	char *path;                  /* where */
	int fd;                      /* open while parts come; -1 after */
	sha256_ctx hash;             /* of the bytes so far */
	unsigned long long len;      /* bytes so far */
} file_part;

/* Begin the file at path as file_write_new() does. 0, or -1 (err). */
int file_part_open(file_part *f, const file_out *out, const char *path, mc_err *err);
/* Append data[0..len). 0, or -1 (err). */
int file_part_write(file_part *f, const void *data, size_t len, mc_err *err);
/* End it: closed, then handed to out's placed(). Its SHA-256 (hex) into
 * sha when sha is not NULL. 0, or -1 (err). */
int file_part_close(file_part *f, char sha[65], mc_err *err);
/* Give it up after an error: closed and removed. */
void file_part_abort(file_part *f);

/* Write data[0..len) as a new file at path (0644): a file there is removed
 * first, so a file linked from elsewhere is never written through, and a
 * symbolic link is never followed. 0, or -1 (err naming path). */
int file_write_new(const char *path, const void *data, size_t len, mc_err *err);

/* out->put(), or file_write_new() when out is NULL. */
int file_out_put(const file_out *out, const char *path, const void *data, size_t len,
		 mc_err *err);

#endif
