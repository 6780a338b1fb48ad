/*
 * sha256: FIPS 180-4 SHA-256, for naming and comparing export contents.
 */
#ifndef MODELCAT_SHA256_H
#define MODELCAT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

typedef struct sha256_ctx {
	uint32_t state[8];        /* running hash */
	uint64_t bytes;           /* message length so far */
	unsigned char block[64];  /* pending partial block */
	size_t fill;              /* bytes in block */
} sha256_ctx;

void sha256_init(sha256_ctx *ctx);
void sha256_update(sha256_ctx *ctx, const void *data, size_t len);
/* Finish and write the 32-byte digest. */
void sha256_final(sha256_ctx *ctx, unsigned char digest[32]);
/* Finish and write the digest as 64 lowercase hex digits plus NUL. */
void sha256_final_hex(sha256_ctx *ctx, char hex[65]);
/* Use the CPU's SHA instructions where it has them (the default), or not
 * (on = 0: the portable code, for tests). */
void sha256_use_hardware(int on);
/* 1 when the SHA instructions are in use. */
int sha256_hardware(void);
/* Hash a whole file's bytes into hex (and its size into *size unless
 * NULL); 0, or -1 with "PATH: cannot read: REASON" in err. */
int sha256_file(const char *path, char hex[65], unsigned long long *size, mc_err *err);

#endif
