#include "base/sha256.h"

#include "base/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define SHA256_X86 1
#endif

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress_block(uint32_t state[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = state[0]; b = state[1]; c = state[2]; d = state[3];
	e = state[4]; f = state[5]; g = state[6]; h = state[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
		t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	state[0] += a; state[1] += b; state[2] += c; state[3] += d;
	state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

#ifdef SHA256_X86
/*
 * The same compression with the x86 SHA extensions (four rounds an
 * instruction pair): state[0..7] over n 64-byte blocks.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_blocks_shani(uint32_t state[8], const unsigned char *p, size_t n)
{
	const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i state0, state1, tmp, msg, w[16], abef, cdgh;
	int j;

	tmp = _mm_loadu_si128((const __m128i *)&state[0]);
	state1 = _mm_loadu_si128((const __m128i *)&state[4]);
	tmp = _mm_shuffle_epi32(tmp, 0xB1);            /* CDAB */
	state1 = _mm_shuffle_epi32(state1, 0x1B);      /* EFGH */
	state0 = _mm_alignr_epi8(tmp, state1, 8);      /* ABEF */
	state1 = _mm_blend_epi16(state1, tmp, 0xF0);   /* CDGH */
	while (n--) {
		abef = state0;
		cdgh = state1;
		for (j = 0; j < 4; j++)
			w[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * j)), mask);
		for (j = 4; j < 16; j++)
			w[j] = _mm_sha256msg2_epu32(
				_mm_add_epi32(_mm_sha256msg1_epu32(w[j - 4], w[j - 3]),
					      _mm_alignr_epi8(w[j - 1], w[j - 2], 4)),
				w[j - 1]);
		for (j = 0; j < 16; j++) {
			msg = _mm_add_epi32(w[j], _mm_loadu_si128((const __m128i *)&k[4 * j]));
			state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
			msg = _mm_shuffle_epi32(msg, 0x0E);
			state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
		}
		state0 = _mm_add_epi32(state0, abef);
		state1 = _mm_add_epi32(state1, cdgh);
		p += 64;
	}
	tmp = _mm_shuffle_epi32(state0, 0x1B);         /* FEBA */
	state1 = _mm_shuffle_epi32(state1, 0xB1);      /* DCHG */
	state0 = _mm_blend_epi16(tmp, state1, 0xF0);   /* DCBA */
	state1 = _mm_alignr_epi8(state1, tmp, 8);      /* ABEF */
	_mm_storeu_si128((__m128i *)&state[0], state0);
	_mm_storeu_si128((__m128i *)&state[4], state1);
}

static int cpu_has_shani(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9)))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b & (1u << 29)) != 0;
}
#endif

/* -1: not decided yet; 0: portable code; 1: SHA extensions. */
static int use_hardware = -1;

void sha256_use_hardware(int on)
{
#ifdef SHA256_X86
	use_hardware = on && cpu_has_shani();
#else
	(void)on;
	use_hardware = 0;
#endif
}

int sha256_hardware(void)
{
	if (use_hardware < 0)
		sha256_use_hardware(1);
	return use_hardware;
}

/* Compress n whole blocks at p. */
static void compress_blocks(uint32_t state[8], const unsigned char *p, size_t n)
{
#ifdef SHA256_X86
	if (sha256_hardware()) {
		compress_blocks_shani(state, p, n);
		return;
	}
#endif
	while (n--) {
		compress_block(state, p);
		p += 64;
	}
}

void sha256_init(sha256_ctx *ctx)
{
	static const uint32_t init[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(ctx->state, init, sizeof(init));
	ctx->bytes = 0;
	ctx->fill = 0;
}

void sha256_update(sha256_ctx *ctx, const void *data, size_t len)
{
	const unsigned char *p = data;

	ctx->bytes += len;
	if (ctx->fill) {
		size_t take = 64 - ctx->fill < len ? 64 - ctx->fill : len;

		memcpy(ctx->block + ctx->fill, p, take);
		ctx->fill += take;
		p += take;
		len -= take;
		if (ctx->fill < 64)
			return;
		compress_blocks(ctx->state, ctx->block, 1);
		ctx->fill = 0;
	}
	if (len >= 64) {
		compress_blocks(ctx->state, p, len / 64);
		p += len - len % 64;
		len %= 64;
	}
	memcpy(ctx->block, p, len);
	ctx->fill = len;
}

void sha256_final(sha256_ctx *ctx, unsigned char digest[32])
{
	uint64_t bits = ctx->bytes * 8;
	unsigned char pad[72], len[8];
	size_t npad = ctx->fill < 56 ? 56 - ctx->fill : 120 - ctx->fill;
	int i;

	memset(pad, 0, sizeof(pad));
	pad[0] = 0x80;
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(ctx, pad, npad);
	sha256_update(ctx, len, 8);
	for (i = 0; i < 32; i++)
		digest[i] = (unsigned char)(ctx->state[i / 4] >> (24 - 8 * (i % 4)));
}

void sha256_final_hex(sha256_ctx *ctx, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char digest[32];
	int i;

	sha256_final(ctx, digest);
	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[64] = '\0';
}

int sha256_file(const char *path, char hex[65], unsigned long long *size, mc_err *err)
{
	enum { BUF = 1 << 18 };
	unsigned char *buf;          /* its own: threads hash files at once */
	sha256_ctx ctx;
	FILE *f = fopen(path, "rb");
	size_t n;
	int rc = 0;

	if (!f)
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	buf = xmalloc(BUF);
	sha256_init(&ctx);
	while ((n = fread(buf, 1, BUF, f)) > 0)
		sha256_update(&ctx, buf, n);
	if (ferror(f))
		rc = mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	fclose(f);
	free(buf);
	if (size)
		*size = ctx.bytes;
	sha256_final_hex(&ctx, hex);
	return rc;
}
