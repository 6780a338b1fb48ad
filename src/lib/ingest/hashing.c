#include "ingest/hashing.h"
#include "base/util.h"
#include "read/input.h"

#include <string.h>

int hashing_content_size(const char *path, unsigned long long *size)
{
	input *in = NULL;
	int rc;

	if (input_open(&in, path, NULL))
		return -1;
	rc = input_content_size(in, size);
	input_free(in);
	return rc;
}

static void *hash_content(void *arg)
{
	hashing_thread *h = arg;

	h->rc = input_file_sha256(h->path, h->sha, &h->bytes, &h->err);
	return NULL;
}

int hashing_start(hashing_thread *h, const char *path)
{
	memset(h, 0, sizeof(*h));
	h->path = path;
	return mc_thread_start(&h->thread, hash_content, h);
}

int hashing_finish(hashing_thread *h, mc_err *err)
{
	pthread_join(h->thread, NULL);
	return h->rc ? mc_error(err, "%s", h->err.msg) : 0;
}
