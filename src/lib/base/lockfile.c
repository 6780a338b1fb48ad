#include "base/lockfile.h"
#include "base/printf.h"

#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void lockfile_holder(int fd, char *holder, size_t len)
{
	ssize_t n = pread(fd, holder, len - 1, 0);

	holder[n > 0 ? n : 0] = '\0';
	holder[strcspn(holder, "\n")] = '\0';
	if (!holder[0])
		mc_fmt(holder, len, "another process");
}

void lockfile_claim(int fd, const char *who)
{
	char text[PATH_MAX + 256], when[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	mc_fmt(text, sizeof(text), "pid %ld (%s) since %s\n", (long)getpid(), who, when);
	if (ftruncate(fd, 0) || pwrite(fd, text, strlen(text), 0) < 0) {
		/* the lock holds all the same; only the note is missing */
	}
}
