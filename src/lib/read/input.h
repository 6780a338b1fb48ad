/*
 * input: the byte stream under the CSV reader. A file or a memory buffer is
 * opened, its format chosen by content, and its decoded bytes handed out a
 * block at a time:
 *   - gzip (magic 1f 8b): inflated; concatenated members are read in turn;
 *   - zip (local header magic "PK\3\4"): the first member whose name ends
 *     in ".csv" (any case), or the member a path ARCHIVE.zip/MEMBER names,
 *     found through the central directory, stored or deflated, its CRC-32
 *     and size checked at the end. A zip of several ".csv" members is a
 *     bundle: each member is read by its path ARCHIVE.zip/MEMBER, and the
 *     bundle's own content (input_file_sha256) is the zip as it is;
 *   - anything else: the bytes as they are.
 * Nothing is ever written to disk. Memory use is a few fixed blocks, not
 * proportional to the input.
 *
 * Compression bombs: gzip or zip content is inflated at most to a cap
 * (INPUT_MAX_INFLATED_DEFAULT, or $MODELCAT_MAX_INFLATED: bytes, or with a
 * k, M or G suffix); a member whose directory entry declares more is
 * refused at open, and a stream that inflates past the cap fails with a
 * message saying so.
 *
 * Ownership: the input owns the blocks it hands out; a block stays valid
 * until the next input_next() or input_free(). A memory buffer given to
 * input_open_mem() is borrowed: it must outlive the input.
 */
#ifndef MODELCAT_INPUT_H
#define MODELCAT_INPUT_H

#include <stddef.h>

#include "base/error.h"

/* Size of the blocks read from files and of the inflate output blocks.
 * The fuzzing build makes it small, so that short inputs cross blocks. */
#ifndef INPUT_BLOCK
#define INPUT_BLOCK (256u * 1024u)
#endif

/* The most bytes gzip or zip content may inflate to, unless
 * $MODELCAT_MAX_INFLATED says otherwise: hundreds of times the largest real
 * export, yet small enough that a bomb inflating to one huge field (held
 * whole in memory by the CSV reader) still fits in memory. */
#define INPUT_MAX_INFLATED_DEFAULT (1ULL << 30)

enum input_format {
	INPUT_PLAIN = 0,  /* bytes as they are */
	INPUT_GZIP = 1,   /* gzip stream, possibly several members */
	INPUT_ZIP = 2     /* one member of a zip archive */
};

typedef struct input input;

/* The most ".csv" members of a zip that are listed (a bundle has a few). */
#define INPUT_ZIP_MAX_LISTED 256u

/*
 * Open path and detect its format. A path ARCHIVE/MEMBER whose ARCHIVE is
 * a regular file (a zip) opens that member of it. Returns 0 and sets *out, or -1 with a
 * one-line message naming the file in err. Only a regular file (or a
 * symbolic link to one) is read: a FIFO, a device, a socket or a folder
 * fails at once ("PATH: not a regular file"), without blocking. A zip must
 * be seekable (its central directory is at the end).
 */
int input_open(input **out, const char *path, mc_err *err);

/* Is path ARCHIVE/MEMBER, ARCHIVE a regular file (path itself not a
 * file)? 0 with ARCHIVE in archive (size bytes) and *member pointing into
 * path; -1 otherwise. */
int input_member_path(const char *path, char *archive, size_t size, const char **member);

/* Open the member named member of the zip at path (named "PATH/MEMBER" in
 * messages). 0, or -1 with err. */
int input_open_member(input **out, const char *path, const char *member, mc_err *err);

/* Is in a bundle: a zip, opened without naming a member, of more than one
 * ".csv" member? */
int input_bundle(const input *in);

/*
 * The ".csv" members of the zip at path, in directory order: *names (a new
 * array of new strings; the caller frees both, mc_free_strings) and *n;
 * none when path is not a zip. 0, or -1 with err (an archive of more
 * than INPUT_ZIP_MAX_LISTED of them is refused).
 */
int input_zip_members(const char *path, char ***names, size_t *n, mc_err *err);

/*
 * The whole content of the member named member of the zip at path, at
 * most max bytes, as a new NUL-terminated string in *text (the caller
 * frees it). 0; 1 when the zip has no such member (*text NULL); -1 with
 * err.
 */
int input_read_member(const char *path, const char *member, size_t max, char **text,
		      mc_err *err);

/* The same over a memory buffer; name is used in messages (NULL gives
 * "<memory>"). */
int input_open_mem(input **out, const void *data, size_t len,
		   const char *name, mc_err *err);

/*
 * Hand out the next block of decoded bytes: sets *data and *len and returns
 * 1, returns 0 at the end of the input, or -1 on a read or decoding error
 * with what went wrong in err, without the name. Output decoded before an
 * error is handed out first; the error comes on the next call. After -1
 * every later call fails too, with the same message. Every block but the
 * last holds
 * at least INPUT_BLOCK bytes (a block from memory may be much larger), so
 * the first block shows the first bytes of a short input whole.
 */
int input_next(input *in, const unsigned char **data, size_t *len, mc_err *err);

/* input_open_mem() of the member named member of the zip in the buffer. */
int input_open_mem_member(input **out, const void *data, size_t len, const char *name,
			  const char *member, mc_err *err);

/* For a zip: how many ".csv" members its directory lists (at most
 * INPUT_ZIP_MAX_LISTED), and the i-th one's name (valid until
 * input_free(); NULL past the last). */
unsigned input_csv_count(const input *in);
const char *input_csv_name(const input *in, unsigned i);

/* The path or name given at open. */
const char *input_name(const input *in);

/* Read a plain file (not gzip, not zip) of 1 MiB or more on a thread of
 * its own from here on (read/ahead.h), for a reader whose own
 * work is about as quick as the reading: 1 started, 0 not (another
 * format, a small file, no thread; the reading goes on as before). */
int input_read_ahead(input *in);

/* The detected format. */
enum input_format input_format(const input *in);

/* The size of the content (the bytes input_next will give) when it is
 * known without reading it: a plain file's size, a zip member's size from
 * its directory entry. 0 and *size, or -1 when not known (gzip). */
int input_content_size(const input *in, unsigned long long *size);

/* For a zip: the name of the member being read; otherwise NULL. */
const char *input_member(const input *in);

/* Close and free everything; accepts NULL. */
void input_free(input *in);

/*
 * The SHA-256 (64 hex digits and a NUL) and the size of what is left to
 * read of in, decompressed; reading past max_bytes (when it is not 0) is
 * an error ("NAME: holds more than the size cap ..."). 0, or -1 with err
 * naming the input.
 */
int input_sha256(input *in, unsigned long long max_bytes, char hex[65],
		 unsigned long long *bytes, mc_err *err);
/* input_sha256() of the whole file at path, opened and closed here; for a
 * bundle, the SHA-256 and size of the zip file itself. */
int input_file_sha256(const char *path, char hex[65], unsigned long long *bytes, mc_err *err);
/* The same with a plain file of 1 MiB or more read on a thread of its own
 * (read/ahead.h): for a caller that waits for the hash while the other
 * core is free (a hash beside other work is no faster so). */
int input_file_sha256_ahead(const char *path, char hex[65], unsigned long long *bytes,
			    mc_err *err);

/*
 * The cap on inflated content: $MODELCAT_MAX_INFLATED when set (digits,
 * optionally followed by k, M or G), else INPUT_MAX_INFLATED_DEFAULT.
 * Returns 0, or -1 with a message in err when the variable is not a size.
 */
int input_max_inflated(unsigned long long *cap, mc_err *err);

#endif
