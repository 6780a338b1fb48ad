/* zlib's next_in is then a pointer to const: blocks from a borrowed
 * memory buffer go to inflate without a cast. */
#define ZLIB_CONST
#include "read/input.h"
#include "read/ahead.h"
#include "base/sha256.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Largest piece of a memory buffer handed out (or to zlib, whose avail_in
 * is a uInt) at once; the fuzzing build makes it small. */
#ifndef INPUT_MEM_PIECE
#define INPUT_MEM_PIECE (1u << 30)
#endif

/* The environment variable that sets the cap on inflated content. */
#define INPUT_MAX_INFLATED_ENV "MODELCAT_MAX_INFLATED"

/* raw_left when the raw bytes run to the end of the file or buffer. */
#define INPUT_UNBOUNDED ULLONG_MAX

/* Zip record signatures and fixed sizes. */
#define ZIP_LOCAL_SIG 0x04034b50UL
#define ZIP_CENTRAL_SIG 0x02014b50UL
#define ZIP_END_SIG 0x06054b50UL
#define ZIP_LOCAL_LEN 30u
#define ZIP_CENTRAL_LEN 46u
#define ZIP_END_LEN 22u
#define ZIP_MAX_COMMENT 65535u

struct input {
	char *name;                   /* path or given name; owned */
	int fd;                       /* the open file, or -1 for memory */
	const unsigned char *mem;     /* memory input (borrowed), or NULL */
	size_t mem_len;               /* bytes at mem */
	unsigned long long pos;       /* offset of the next raw byte to read */
	int use_pread;                /* read the file at pos with pread (zip)
					 rather than with read() (works on
					 pipes) */
	unsigned long long raw_left;  /* raw bytes still to be read: the zip
					 member's compressed size, or
					 INPUT_UNBOUNDED */
	unsigned char *rawbuf;        /* block for raw bytes read from the
					 file; owned; NULL for memory */
	ahead *ahead;                 /* the file read on a thread of its own
					 (input_read_ahead), or NULL */
	const unsigned char *raw;     /* raw bytes read but not yet used (in
					 rawbuf or mem) */
	size_t raw_len;               /* number of bytes at raw */
	int raw_eof;                  /* every raw byte has been read */
	enum input_format format;     /* what the content is */
	int inflating;                /* output comes from zs (gzip, deflated
					 zip member) */
	z_stream zs;                  /* inflate state */
	int zs_live;                  /* zs is initialised: needs inflateEnd */
	int in_stream;                /* a gzip member or deflate stream has
					 begun and not ended */
	int decoded_all;              /* no more output will come */
	unsigned char *outbuf;        /* inflate output block; owned */
	char *member;                 /* zip member name; owned; else NULL */
	char *want_member;            /* the member to read (a path
					 ARCHIVE/MEMBER); owned; NULL: the
					 first .csv */
	int no_member;                /* want_member is not in the archive */
	unsigned csv_members;         /* .csv members in the zip's directory */
	char **csv_names;             /* their names, the first
					 INPUT_ZIP_MAX_LISTED; owned */
	int zip_method;               /* zip member: 0 stored, 8 deflated */
	unsigned long want_crc;       /* zip member CRC-32, central directory */
	unsigned long long want_size; /* zip member uncompressed size */
	unsigned long crc;            /* CRC-32 of the member output so far */
	unsigned long long out_total; /* decoded bytes handed out so far */
	unsigned long long max_inflated; /* cap on out_total for gzip and zip */
	int done;                     /* the end was reached and checked */
	int failed;                   /* an error was reported; calls fail */
	mc_err failure;               /* why, without the name: given to the
					 caller's err by every failing call
					 (an error found while output was
					 still to be handed out comes on the
					 next call) */
};

/* Record that the input failed, and why (the message has no name: callers
 * add it); returns -1. */
MC_PRINTF(2, 3)
static int fail(input *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mc_verror(&in->failure, fmt, ap);
	va_end(ap);
	in->failed = 1;
	return -1;
}

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static unsigned long le32(const unsigned char *p)
{
	return (unsigned long)p[0] | (unsigned long)p[1] << 8 |
	       (unsigned long)p[2] << 16 | (unsigned long)p[3] << 24;
}

/*
 * Read the next raw bytes into raw/raw_len (which must be used up). A file
 * is read until a block is full or the file ends, so blocks are short only
 * at the end. Returns 1, 0 when nothing is left, -1 on error.
 */
static int raw_fill(input *in)
{
	size_t want, got = 0;

	if (in->raw_eof || in->raw_left == 0) {
		in->raw_eof = 1;
		return 0;
	}
	if (in->mem) {
		want = in->mem_len - (size_t)in->pos;
		if (want > INPUT_MEM_PIECE)
			want = INPUT_MEM_PIECE;
		if (want > in->raw_left)
			want = (size_t)in->raw_left;
		in->raw = in->mem + in->pos;
		got = want;
		in->pos += got;
	} else if (in->ahead) {
		int error = 0;
		int rc = ahead_next(in->ahead, &in->raw, &got, &error);

		if (rc < 0)
			return fail(in, "read error: %s", strerror(error));
		in->pos += got;
	} else {
		want = INPUT_BLOCK;
		if (want > in->raw_left)
			want = (size_t)in->raw_left;
		while (got < want) {
			ssize_t n;

			if (in->use_pread)
				n = pread(in->fd, in->rawbuf + got, want - got,
					  (off_t)in->pos);
			else
				n = read(in->fd, in->rawbuf + got, want - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return fail(in, "read error: %s", strerror(errno));
			if (n == 0)
				break;
			got += (size_t)n;
			in->pos += (size_t)n;
		}
		in->raw = in->rawbuf;
	}
	if (in->raw_left != INPUT_UNBOUNDED)
		in->raw_left -= got;
	if (!got) {
		in->raw_eof = 1;
		if (in->raw_left != INPUT_UNBOUNDED)
			return fail(in, "zip member \"%s\" is truncated "
				    "(%llu compressed bytes missing)",
				    in->member, in->raw_left);
		return 0;
	}
	in->raw_len = got;
	return 1;
}

/* Read exactly n bytes at offset off (zip structures). */
static int read_at(input *in, unsigned long long off, void *buf, size_t n,
		   const char *what)
{
	size_t got = 0;

	if (in->mem) {
		if (off > in->mem_len || n > in->mem_len - off)
			return fail(in, "corrupt zip archive: %s lies past "
				    "the end of the data", what);
		memcpy(buf, in->mem + off, n);
		return 0;
	}
	while (got < n) {
		ssize_t r = pread(in->fd, (char *)buf + got, n - got,
				  (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(in, "read error: %s", strerror(errno));
		if (r == 0)
			return fail(in, "corrupt zip archive: %s lies past "
				    "the end of the file", what);
		got += (size_t)r;
	}
	return 0;
}

/* Does name end in ".csv", any case? Folders and macOS resource forks
 * (__MACOSX/...) do not count. */
static int zip_is_csv_name(const char *name, size_t len)
{
	if (len >= 9 && !memcmp(name, "__MACOSX/", 9))
		return 0;
	return len > 4 && !strncasecmp(name + len - 4, ".csv", 4);
}

/* Where the central directory is, from the end record. */
struct zip_dir {
	unsigned long long off;   /* offset of the first entry */
	unsigned long long end;   /* offset just past the last entry */
	unsigned entries;         /* number of entries */
};

/*
 * Find the end of central directory record in the last bytes of the
 * archive (size bytes) and read where the directory is into *dir. Refuses
 * zip64, multi-volume archives and a directory overlapping the record.
 */
static int zip_find_end(input *in, unsigned long long size, struct zip_dir *dir)
{
	unsigned char *tail = NULL, *eocd = NULL;
	unsigned long long eocd_off;
	size_t tlen, k;
	int rc = -1;

	tlen = size < ZIP_END_LEN + ZIP_MAX_COMMENT ?
	       (size_t)size : ZIP_END_LEN + ZIP_MAX_COMMENT;
	if (tlen < ZIP_END_LEN)
		return fail(in, "corrupt zip archive: too short");
	tail = xmalloc(tlen);
	if (read_at(in, size - tlen, tail, tlen, "the end record") < 0)
		goto out;
	for (k = tlen - ZIP_END_LEN + 1; k-- > 0;) {
		if (le32(tail + k) == ZIP_END_SIG &&
		    k + ZIP_END_LEN + le16(tail + k + 20) <= tlen) {
			eocd = tail + k;
			break;
		}
	}
	if (!eocd) {
		fail(in, "corrupt zip archive: no end of central directory "
		     "record (truncated?)");
		goto out;
	}
	eocd_off = size - tlen + (size_t)(eocd - tail);
	dir->entries = le16(eocd + 10);
	dir->off = le32(eocd + 16);
	dir->end = dir->off + le32(eocd + 12);
	if (dir->entries == 0xFFFFu || le32(eocd + 12) == 0xFFFFFFFFUL ||
	    dir->off == 0xFFFFFFFFULL) {
		fail(in, "zip64 archives are not supported");
		goto out;
	}
	if (le16(eocd + 4) != 0 || le16(eocd + 6) != 0 ||
	    le16(eocd + 8) != dir->entries) {
		fail(in, "multi-volume zip archives are not supported");
		goto out;
	}
	if (dir->end > eocd_off) {
		fail(in, "corrupt zip archive: central directory overlaps "
		     "its end record");
		goto out;
	}
	rc = 0;
out:
	free(tail);
	return rc;
}

/* Note a .csv member's name (the first INPUT_ZIP_MAX_LISTED of them). */
static void zip_note_csv(input *in, const char *name, size_t len)
{
	if (in->csv_members < INPUT_ZIP_MAX_LISTED) {
		in->csv_names = xrealloc(in->csv_names,
					 (in->csv_members + 1) * sizeof(*in->csv_names));
		in->csv_names[in->csv_members] = xstrndup(name, len);
	}
	in->csv_members++;
}

/*
 * Walk the whole central directory: count and name the ".csv" members,
 * and choose the member to read: want_member when set (any name), else
 * the first ".csv". Its entry goes into h (ZIP_CENTRAL_LEN bytes) and its
 * name into in->member.
 */
static int zip_find_csv(input *in, const struct zip_dir *dir, unsigned char *h)
{
	unsigned char entry[ZIP_CENTRAL_LEN];
	unsigned long long off;
	unsigned i;
	sbuf name;
	int rc = -1;

	sbuf_init(&name);
	for (i = 0, off = dir->off; i < dir->entries; i++) {
		size_t nlen;
		int csv;

		if (off + ZIP_CENTRAL_LEN > dir->end) {
			fail(in, "corrupt zip archive: central directory ends "
			     "after %u of %u entries", i, dir->entries);
			goto out;
		}
		if (read_at(in, off, entry, ZIP_CENTRAL_LEN,
			    "a central directory entry") < 0)
			goto out;
		if (le32(entry) != ZIP_CENTRAL_SIG) {
			fail(in, "corrupt zip archive: bad central directory "
			     "entry %u", i + 1);
			goto out;
		}
		nlen = le16(entry + 28);
		sbuf_reset(&name);
		sbuf_grow(&name, nlen);
		if (read_at(in, off + ZIP_CENTRAL_LEN, name.data, nlen,
			    "a member name") < 0)
			goto out;
		name.len = nlen;
		name.data[nlen] = '\0';
		off += ZIP_CENTRAL_LEN + nlen + le16(entry + 30) + le16(entry + 32);
		csv = zip_is_csv_name(name.data, nlen);
		if (csv)
			zip_note_csv(in, name.data, nlen);
		if (!in->member && (in->want_member ? !strcmp(name.data, in->want_member) &&
				    strlen(in->want_member) == nlen : csv)) {
			in->member = xstrndup(name.data, nlen);
			memcpy(h, entry, ZIP_CENTRAL_LEN);
		}
	}
	if (!in->member && in->want_member) {
		in->no_member = 1;
		fail(in, "zip archive has no member \"%s\"", in->want_member);
		goto out;
	}
	if (!in->member) {
		fail(in, "zip archive has no member whose name ends in "
		     "\".csv\" (%u member%s)", dir->entries,
		     dir->entries == 1 ? "" : "s");
		goto out;
	}
	rc = 0;
out:
	sbuf_release(&name);
	return rc;
}

/*
 * Check the member whose central directory entry is h (readable: not
 * encrypted, stored or deflated, no zip64, under the inflation cap, its
 * local header and data inside the archive of size bytes) and get ready
 * to read its data.
 */
static int zip_open_member(input *in, unsigned char *h, unsigned long long size)
{
	unsigned long long data_off;
	unsigned long csize, usize, lho, crc;
	unsigned flags, method;

	flags = le16(h + 8);
	method = le16(h + 10);
	csize = le32(h + 20);
	crc = le32(h + 16);
	usize = le32(h + 24);
	lho = le32(h + 42);
	if (flags & 1u)
		return fail(in, "zip member \"%s\" is encrypted", in->member);
	if (method != 0 && method != 8)
		return fail(in, "zip member \"%s\" uses compression method "
			    "%u; only stored (0) and deflate (8) are supported",
			    in->member, method);
	if (csize == 0xFFFFFFFFUL || usize == 0xFFFFFFFFUL ||
	    lho == 0xFFFFFFFFUL)
		return fail(in, "zip member \"%s\" needs zip64, which is "
			    "not supported", in->member);
	if (usize > in->max_inflated)
		return fail(in, "zip member \"%s\" would inflate to %lu "
			    "bytes, more than the cap of %llu (a zip bomb?); "
			    INPUT_MAX_INFLATED_ENV " raises it", in->member,
			    usize, in->max_inflated);
	if (read_at(in, lho, h, ZIP_LOCAL_LEN, "a local header") < 0)
		return -1;
	if (le32(h) != ZIP_LOCAL_SIG)
		return fail(in, "corrupt zip archive: no local header for "
			    "member \"%s\"", in->member);
	data_off = lho + ZIP_LOCAL_LEN + le16(h + 26) + le16(h + 28);
	if (data_off + csize > size)
		return fail(in, "zip member \"%s\" is truncated", in->member);
	in->zip_method = (int)method;
	in->want_crc = crc;
	in->pos = data_off;
	in->raw_left = csize;
	in->want_size = usize;
	return 0;
}

/*
 * Find the first .csv member through the central directory and prepare to
 * read its data: sets member, zip_method, want_crc, want_size, pos and
 * raw_left. size is the size of the archive.
 */
static int zip_locate(input *in, unsigned long long size)
{
	unsigned char h[ZIP_CENTRAL_LEN];
	struct zip_dir dir = { 0, 0, 0 };

	if (zip_find_end(in, size, &dir) < 0 ||
	    zip_find_csv(in, &dir, h) < 0)
		return -1;
	return zip_open_member(in, h, size);
}

/* Get zs ready: window_bits 16 + MAX_WBITS for gzip, -MAX_WBITS for the raw
 * deflate data of a zip member. */
static int start_inflate(input *in, int window_bits)
{
	int zrc;

	memset(&in->zs, 0, sizeof in->zs);
	zrc = inflateInit2(&in->zs, window_bits);
	if (zrc == Z_MEM_ERROR)
		return fail(in, "cannot start inflating: out of memory");
	if (zrc != Z_OK)
		return fail(in, "cannot start inflating: %s",
			    in->zs.msg ? in->zs.msg : zError(zrc));
	in->zs_live = 1;
	in->inflating = 1;
	in->in_stream = 1;
	in->outbuf = xmalloc(INPUT_BLOCK);
	return 0;
}

/* Size of the open file, for a zip: it must be seekable. */
static int file_size(input *in, unsigned long long *size)
{
	struct stat st;
	off_t end;

	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		*size = (unsigned long long)st.st_size;
		return 0;
	}
	end = lseek(in->fd, 0, SEEK_END);
	if (end < 0)
		return fail(in, "a zip archive must be a seekable file "
			    "(its directory is at the end)");
	*size = (unsigned long long)end;
	return 0;
}

/* Detect the format from the first bytes and get ready to decode. */
static int setup(input *in)
{
	const unsigned char *head;
	unsigned long long size = 0;
	size_t n;

	if (input_max_inflated(&in->max_inflated, &in->failure) < 0) {
		in->failed = 1;
		return -1;
	}
	if (in->mem) {
		head = in->mem;
		n = in->mem_len;
	} else {
		if (raw_fill(in) < 0)
			return -1;
		head = in->raw;
		n = in->raw_len;
	}
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
		in->format = INPUT_GZIP;
		return start_inflate(in, 16 + MAX_WBITS);
	}
	if (n >= 4 && !memcmp(head, "PK\3\4", 4)) {
		in->format = INPUT_ZIP;
		in->raw_len = 0;
		in->raw_eof = 0;
		if (in->mem) {
			size = in->mem_len;
		} else {
			if (file_size(in, &size) < 0)
				return -1;
			in->use_pread = 1;
		}
		if (zip_locate(in, size) < 0)
			return -1;
		if (in->zip_method == 8)
			return start_inflate(in, -MAX_WBITS);
		return 0;
	}
	in->format = INPUT_PLAIN;
	return 0;
}

static input *input_new(const char *name)
{
	input *in = xcalloc(1, sizeof *in);

	in->name = xstrdup(name);
	in->fd = -1;
	in->raw_left = INPUT_UNBOUNDED;
	return in;
}

/* Open the file at path (the archive when member is not NULL), named name
 * in messages. */
static int open_file(input **out, const char *path, const char *member, const char *name,
		     int *missing, mc_err *err)
{
	input *in = input_new(name);
	struct stat st;
	int rc = -1;

	in->want_member = member ? xstrdup(member) : NULL;
	/* not blocking: a FIFO without a writer must not hang the open */
	in->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (in->fd < 0) {
		mc_error(err, "%s: cannot open: %s", name, strerror(errno));
		goto out;
	}
	if (fstat(in->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		mc_error(err, "%s: not a regular file%s", name,
			 S_ISDIR(st.st_mode) ? " (Is a directory)" : "");
		goto out;
	}
	if (fcntl(in->fd, F_SETFL, fcntl(in->fd, F_GETFL) & ~O_NONBLOCK)) {
		mc_error(err, "%s: cannot open: %s", name, strerror(errno));
		goto out;
	}
	in->rawbuf = xmalloc(INPUT_BLOCK);
	if (setup(in) < 0) {
		if (missing)
			*missing = in->no_member;
		mc_error(err, "%s: %s", name, in->failure.msg);
		goto out;
	}
	if (member && in->format != INPUT_ZIP) {
		mc_error(err, "%s: not a zip archive, so it has no member \"%s\"", path, member);
		goto out;
	}
	*out = in;
	in = NULL;
	rc = 0;
out:
	input_free(in);
	return rc;
}

/*
 * Split path ARCHIVE/MEMBER at the longest ARCHIVE that is a regular file:
 * archive gets it, *member points into path. 0, or -1 when no prefix of
 * path is a regular file.
 */
static int split_member(const char *path, char *archive, size_t size, const char **member)
{
	const char *slash = path + strlen(path);
	struct stat st;

	while (slash > path) {
		while (slash > path && *--slash != '/')
			;
		if (slash == path || (size_t)(slash - path) >= size)
			continue;
		memcpy(archive, path, (size_t)(slash - path));
		archive[slash - path] = '\0';
		if (!stat(archive, &st)) {
			if (!S_ISREG(st.st_mode) || !slash[1])
				return -1;
			*member = slash + 1;
			return 0;
		}
	}
	return -1;
}

int input_member_path(const char *path, char *archive, size_t size, const char **member)
{
	struct stat st;

	/* ARCHIVE.zip/MEMBER: a folder's place is held by a file */
	if (stat(path, &st) && errno == ENOTDIR)
		return split_member(path, archive, size, member);
	return -1;
}

int input_open(input **out, const char *path, mc_err *err)
{
	char archive[PATH_MAX];
	const char *member;

	if (!input_member_path(path, archive, sizeof(archive), &member))
		return open_file(out, archive, member, path, NULL, err);
	return open_file(out, path, NULL, path, NULL, err);
}

int input_open_member(input **out, const char *path, const char *member, mc_err *err)
{
	char name[PATH_MAX];

	mc_fmt(name, sizeof(name), "%s/%s", path, member);
	return open_file(out, path, member, name, NULL, err);
}

/* Open a memory buffer, the member named member of it when not NULL. */
static int open_mem(input **out, const void *data, size_t len, const char *name,
		    const char *member, mc_err *err)
{
	input *in = input_new(name ? name : "<memory>");
	int rc = -1;

	in->mem = len ? data : (const unsigned char *)"";
	in->mem_len = len;
	in->want_member = member ? xstrdup(member) : NULL;
	if (setup(in) < 0) {
		mc_error(err, "%s: %s", in->name, in->failure.msg);
		goto out;
	}
	if (member && in->format != INPUT_ZIP) {
		mc_error(err, "%s: not a zip archive, so it has no member \"%s\"", in->name,
			 member);
		goto out;
	}
	*out = in;
	in = NULL;
	rc = 0;
out:
	input_free(in);
	return rc;
}

int input_open_mem(input **out, const void *data, size_t len,
		   const char *name, mc_err *err)
{
	return open_mem(out, data, len, name, NULL, err);
}

int input_open_mem_member(input **out, const void *data, size_t len, const char *name,
			  const char *member, mc_err *err)
{
	return open_mem(out, data, len, name, member, err);
}

unsigned input_csv_count(const input *in)
{
	return in->csv_members < INPUT_ZIP_MAX_LISTED ? in->csv_members : INPUT_ZIP_MAX_LISTED;
}

const char *input_csv_name(const input *in, unsigned i)
{
	return i < input_csv_count(in) ? in->csv_names[i] : NULL;
}

/* The end of the data: for a zip member check its size and CRC-32. */
static int finish(input *in)
{
	if (in->format == INPUT_ZIP) {
		if (in->out_total != in->want_size)
			return fail(in, "zip member \"%s\" holds %llu bytes, "
				    "its directory entry says %llu", in->member,
				    in->out_total, in->want_size);
		if (in->crc != in->want_crc)
			return fail(in, "zip member \"%s\" fails its CRC-32 "
				    "check (corrupt data)", in->member);
	}
	in->done = 1;
	return 0;
}

/* Plain bytes or a stored zip member: the raw blocks as they are. */
static int next_raw(input *in, const unsigned char **data, size_t *len)
{
	int rc;

	if (!in->raw_len) {
		rc = raw_fill(in);
		if (rc < 0)
			return -1;
		if (rc == 0)
			return finish(in);
	}
	*data = in->raw;
	*len = in->raw_len;
	in->raw_len = 0;
	return 1;
}

/* What the compressed data is, for messages. */
static void inflate_fail(input *in, int zrc)
{
	const char *why = in->zs.msg ? in->zs.msg : zError(zrc);

	if (zrc == Z_MEM_ERROR)
		fail(in, "out of memory while inflating");
	else if (in->format == INPUT_GZIP)
		fail(in, "corrupt gzip data (at compressed byte %llu): %s",
		     in->pos - in->zs.avail_in, why);
	else
		fail(in, "corrupt deflate data in zip member \"%s\": %s",
		     in->member, why);
}

/* gzip or a deflated zip member: inflate until the output block is full
 * or the data ends. Output made before an error is handed out first; the
 * error comes on the next call. */
static int next_inflated(input *in, const unsigned char **data, size_t *len)
{
	size_t produced;
	int rc = 0, zrc;

	in->zs.next_out = in->outbuf;
	in->zs.avail_out = INPUT_BLOCK;
	while (in->zs.avail_out > 0 && !in->decoded_all) {
		if (in->zs.avail_in == 0 && !in->raw_eof) {
			if (!in->raw_len) {
				rc = raw_fill(in);
				if (rc < 0)
					break;
			}
			/* at the end of the raw bytes inflate may still hold
			 * output (a block that filled the output exactly):
			 * it is called on with no input until it ends */
			if (!in->raw_eof) {
				in->zs.next_in = in->raw;
				in->zs.avail_in = (uInt)in->raw_len;
				in->raw_len = 0;
			}
		}
		if (!in->in_stream) {
			if (in->zs.avail_in == 0) {
				in->decoded_all = 1; /* at the end of the raw bytes */
				break;
			}
			/* gzip: another member follows (zero padding, which
			 * some tools leave after the last, is skipped) */
			if (*in->zs.next_in == 0) {
				in->zs.next_in++;
				in->zs.avail_in--;
				continue;
			}
			zrc = inflateReset(&in->zs);
			if (zrc != Z_OK) {
				inflate_fail(in, zrc);
				rc = -1;
				break;
			}
			in->in_stream = 1;
		}
		zrc = inflate(&in->zs, Z_NO_FLUSH);
		if (zrc == Z_STREAM_END) {
			in->in_stream = 0;
			if (in->format == INPUT_ZIP)
				in->decoded_all = 1;
		} else if (zrc == Z_BUF_ERROR && in->zs.avail_in == 0) {
			if (!in->raw_eof)
				continue; /* wants more input */
			if (in->format == INPUT_GZIP)
				rc = fail(in, "truncated gzip data (the input ends "
					  "inside a compressed stream)");
			else
				rc = fail(in, "truncated deflate data in zip member "
					  "\"%s\"", in->member);
			break;
		} else if (zrc != Z_OK) {
			inflate_fail(in, zrc);
			rc = -1;
			break;
		}
	}
	produced = INPUT_BLOCK - in->zs.avail_out;
	if (produced) {
		*data = in->outbuf;
		*len = produced;
		return 1;
	}
	if (rc < 0)
		return -1;
	return finish(in);
}

int input_next(input *in, const unsigned char **data, size_t *len, mc_err *err)
{
	int rc;

	if (in->failed)
		return mc_error(err, "%s", in->failure.msg);
	if (in->done)
		return 0;
	rc = in->inflating ? next_inflated(in, data, len) :
			     next_raw(in, data, len);
	if (rc == 1) {
		if (in->format != INPUT_PLAIN &&
		    *len > in->max_inflated - in->out_total) {
			fail(in, "inflates to more than %llu bytes, the cap on "
			     "compressed content (a compression bomb?); "
			     INPUT_MAX_INFLATED_ENV " raises it", in->max_inflated);
			return mc_error(err, "%s", in->failure.msg);
		}
		if (in->format == INPUT_ZIP)
			in->crc = crc32(in->crc, *data, (uInt)*len);
		in->out_total += *len;
	}
	if (rc < 0)
		return mc_error(err, "%s", in->failure.msg);
	return rc;
}

int input_max_inflated(unsigned long long *cap, mc_err *err)
{
	const char *env = getenv(INPUT_MAX_INFLATED_ENV);

	*cap = INPUT_MAX_INFLATED_DEFAULT;
	if (!env || !*env)
		return 0;
	if (mc_parse_size(env, cap))
		return mc_error(err, INPUT_MAX_INFLATED_ENV "='%s' is not a size "
				"(bytes, or with k, M or G)", env);
	return 0;
}

const char *input_name(const input *in)
{
	return in->name;
}

int input_read_ahead(input *in)
{
	unsigned long long size;

	if (in->ahead || in->failed || in->fd < 0 || in->format != INPUT_PLAIN || in->raw_eof)
		return 0;
	/* a file of a few blocks is read sooner than a thread starts */
	if (input_content_size(in, &size) || size < 4ull * AHEAD_BLOCK)
		return 0;
	in->ahead = ahead_start(in->fd);
	return in->ahead != NULL;
}

enum input_format input_format(const input *in)
{
	return in->format;
}

int input_content_size(const input *in, unsigned long long *size)
{
	struct stat st;

	if (in->format == INPUT_ZIP) {
		*size = in->want_size;
		return 0;
	}
	if (in->format != INPUT_PLAIN)
		return -1;
	if (in->mem) {
		*size = in->mem_len;
		return 0;
	}
	if (fstat(in->fd, &st) || !S_ISREG(st.st_mode))
		return -1;
	*size = (unsigned long long)st.st_size;
	return 0;
}

const char *input_member(const input *in)
{
	return in->member;
}

void input_free(input *in)
{
	if (!in)
		return;
	if (in->zs_live)
		inflateEnd(&in->zs);
	ahead_stop(in->ahead);
	if (in->fd >= 0)
		close(in->fd);
	free(in->rawbuf);
	free(in->outbuf);
	free(in->member);
	free(in->want_member);
	mc_free_strings(in->csv_names, in->csv_members < INPUT_ZIP_MAX_LISTED ?
			in->csv_members : INPUT_ZIP_MAX_LISTED);
	free(in->name);
	free(in);
}

int input_sha256(input *in, unsigned long long max_bytes, char hex[65],
		 unsigned long long *bytes, mc_err *err)
{
	const unsigned char *data;
	sha256_ctx ctx;
	size_t n;
	int step;

	sha256_init(&ctx);
	*bytes = 0;
	while ((step = input_next(in, &data, &n, err)) == 1) {
		*bytes += n;
		if (max_bytes && *bytes > max_bytes)
			return mc_error(err, "%s: holds more than the size cap of %llu bytes once"
					" decompressed (a compression bomb?)", input_name(in),
					max_bytes);
		sha256_update(&ctx, data, n);
	}
	if (step < 0)
		return mc_error_prefix(err, "%s", input_name(in));
	sha256_final_hex(&ctx, hex);
	return 0;
}

/* The SHA-256 and size of the file at path, byte for byte. */
static int raw_file_sha256(const char *path, char hex[65], unsigned long long *bytes,
			   mc_err *err)
{
	unsigned char *buf = xmalloc(INPUT_BLOCK);
	sha256_ctx ctx;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	*bytes = 0;
	if (fd < 0) {
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		goto out;
	}
	sha256_init(&ctx);
	while ((n = read(fd, buf, INPUT_BLOCK)) > 0) {
		sha256_update(&ctx, buf, (size_t)n);
		*bytes += (unsigned long long)n;
	}
	if (n < 0) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	sha256_final_hex(&ctx, hex);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* input_file_sha256() and input_file_sha256_ahead(), the file read on a
 * thread of its own when read_ahead is set. */
static int file_sha256(const char *path, int read_ahead, char hex[65], unsigned long long *bytes,
		       mc_err *err)
{
	input *in = NULL;
	int rc, bundle;

	if (input_open(&in, path, err))
		return -1;
	if (read_ahead)
		input_read_ahead(in);
	/* a bundle is the zip as it is */
	bundle = input_bundle(in);
	if (bundle) {
		input_free(in);
		return raw_file_sha256(path, hex, bytes, err);
	}
	rc = input_sha256(in, 0, hex, bytes, err);
	input_free(in);
	return rc;
}

int input_file_sha256(const char *path, char hex[65], unsigned long long *bytes, mc_err *err)
{
	return file_sha256(path, 0, hex, bytes, err);
}

int input_file_sha256_ahead(const char *path, char hex[65], unsigned long long *bytes,
			    mc_err *err)
{
	return file_sha256(path, 1, hex, bytes, err);
}

int input_bundle(const input *in)
{
	return in->format == INPUT_ZIP && !in->want_member && in->csv_members > 1;
}

int input_zip_members(const char *path, char ***names, size_t *n, mc_err *err)
{
	input *in = NULL;
	unsigned i;

	*names = NULL;
	*n = 0;
	if (input_open(&in, path, err))
		return -1;
	/* a member (ARCHIVE/MEMBER) is one export, not a bundle */
	if (in->format != INPUT_ZIP || in->want_member) {
		input_free(in);
		return 0;
	}
	if (in->csv_members > INPUT_ZIP_MAX_LISTED) {
		mc_error(err, "%s: zip archive has %u \".csv\" members, more than %u",
			 path, in->csv_members, INPUT_ZIP_MAX_LISTED);
		input_free(in);
		return -1;
	}
	*names = xcalloc(in->csv_members, sizeof(**names));
	for (i = 0; i < in->csv_members; i++)
		(*names)[i] = xstrdup(in->csv_names[i]);
	*n = in->csv_members;
	input_free(in);
	return 0;
}

int input_read_member(const char *path, const char *member, size_t max, char **text,
		      mc_err *err)
{
	char name[PATH_MAX];
	const unsigned char *data;
	input *in = NULL;
	size_t n;
	sbuf buf;
	int missing = 0, step;

	*text = NULL;
	mc_fmt(name, sizeof(name), "%s/%s", path, member);
	if (open_file(&in, path, member, name, &missing, err))
		return missing ? 1 : -1;
	sbuf_init(&buf);
	while ((step = input_next(in, &data, &n, err)) == 1) {
		if (buf.len + n > max) {
			input_free(in);
			sbuf_release(&buf);
			return mc_error(err, "%s: holds more than %zu bytes", name, max);
		}
		sbuf_add(&buf, data, n);
	}
	input_free(in);
	if (step < 0) {
		sbuf_release(&buf);
		return mc_error_prefix(err, "%s", name);
	}
	*text = sbuf_detach(&buf, NULL);
	return 0;
}
