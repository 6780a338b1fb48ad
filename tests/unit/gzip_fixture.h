/*
 * gzip_fixture: gzip input for the unit tests of the readers: one gzip
 * member made in memory with zlib.
 */
#ifndef MODELCAT_GZIP_FIXTURE_H
#define MODELCAT_GZIP_FIXTURE_H

#ifndef ZLIB_CONST
#define ZLIB_CONST
#endif
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* One gzip member holding data, at the given level. Caller frees. */
static unsigned char *gzip_bytes(const void *data, size_t len, int level,
				 size_t *outlen)
{
	z_stream zs;
	unsigned char *out;
	size_t bound;

	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	bound = deflateBound(&zs, (uLong)len) + 64;
	out = xmalloc(bound);
	zs.next_in = data;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	*outlen = zs.total_out;
	deflateEnd(&zs);
	return out;
}

#endif
