#include "base/fileout.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int file_write_new(const char *path, const void *data, size_t len, mc_err *err)
{
	size_t done = 0;
	int fd;

	/* a new file, never one linked from elsewhere written through: a
	 * file already there is removed first (most paths are new: no
	 * unlink() for them) */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 && errno == EEXIST && !unlink(path))
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return mc_error(err, "%s: cannot write: %s", path, strerror(errno));
	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			mc_error(err, "%s: cannot write: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	if (close(fd))
		return mc_error(err, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

int file_out_put(const file_out *out, const char *path, const void *data, size_t len,
		 mc_err *err)
{
	if (out)
		return out->put(out->ctx, path, data, len, err);
	return file_write_new(path, data, len, err);
}
