/*
 * gzip_fixture: compressed input for the unit tests of the readers: a
 * gzip member, or a zip member's raw deflate, made in memory with zlib.
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

/* data compressed by zlib's deflate at the given level and strategy, in
 * the wrapping window_bits asks for (16 + MAX_WBITS: a gzip member;
 * -MAX_WBITS: raw, as in a zip member). Caller frees. */
static unsigned char *deflate_bytes(const void *data, size_t len, int level, int window_bits,
				    int strategy, size_t *outlen)
{
	z_stream zs;
	unsigned char *out;
	size_t bound;

	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, level, Z_DEFLATED, window_bits, 8, strategy) != Z_OK)
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

/* One gzip member holding data, at the given level. Caller frees. */
static unsigned char *gzip_bytes(const void *data, size_t len, int level,
				 size_t *outlen)
{
	return deflate_bytes(data, len, level, 16 + MAX_WBITS, Z_DEFAULT_STRATEGY, outlen);
}

#endif
