#include "base/fileout.h"
#include "base/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A new file at path for writing (0644): a file already there is removed
 * first, so a file linked from elsewhere is never written through (most
 * paths are new: no unlink() for them), and a symbolic link is never
 * followed. The descriptor, or -1 (err). */
static int open_new(const char *path, mc_err *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd < 0 && errno == EEXIST && !unlink(path))
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		mc_error(err, "%s: cannot write: %s", path, strerror(errno));
	return fd;
}

/* All of data[0..len) to fd. 0, or -1 (err naming path). */
static int write_all(int fd, const char *path, const void *data, size_t len, mc_err *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mc_error(err, "%s: cannot write: %s", path, strerror(errno));
		done += (size_t)n;
	}
	return 0;
}

int file_write_new(const char *path, const void *data, size_t len, mc_err *err)
{
	int fd = open_new(path, err);

	if (fd < 0)
		return -1;
	if (write_all(fd, path, data, len, err)) {
		close(fd);
		return -1;
	}
	if (close(fd))
		return mc_error(err, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

int file_part_open(file_part *f, const file_out *out, const char *path, mc_err *err)
{
	memset(f, 0, sizeof(*f));
	f->out = out;
	f->fd = open_new(path, err);
	if (f->fd < 0)
		return -1;
	f->path = xstrdup(path);
	sha256_init(&f->hash);
	return 0;
}

int file_part_write(file_part *f, const void *data, size_t len, mc_err *err)
{
	if (write_all(f->fd, f->path, data, len, err))
		return -1;
	sha256_update(&f->hash, data, len);
	f->len += len;
	return 0;
}

int file_part_close(file_part *f, char sha[65], mc_err *err)
{
	char hex[65];
	int rc = 0;

	sha256_final_hex(&f->hash, hex);
	if (close(f->fd))
		rc = mc_error(err, "%s: cannot write: %s", f->path, strerror(errno));
	f->fd = -1;
	if (!rc && f->out && f->out->placed)
		rc = f->out->placed(f->out->ctx, f->path, hex, f->len, err);
	if (sha)
		memcpy(sha, hex, sizeof(hex));
	free(f->path);
	f->path = NULL;
	return rc;
}

void file_part_abort(file_part *f)
{
	if (f->fd >= 0) {
		close(f->fd);
		f->fd = -1;
	}
	if (f->path) {
		unlink(f->path);
		free(f->path);
		f->path = NULL;
	}
}

int file_out_put(const file_out *out, const char *path, const void *data, size_t len,
		 mc_err *err)
{
	if (out)
		return out->put(out->ctx, path, data, len, err);
	return file_write_new(path, data, len, err);
}
