#include "read/csvsplit.h"
#include "base/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define CSVSPLIT_X86 1
#endif

/* One 64-byte block as bit masks (bit i: byte i). */
typedef struct block_masks {
	uint64_t quote;   /* '"' */
	uint64_t comma;   /* ',' */
	uint64_t lf;      /* '\n' */
	uint64_t cr;      /* '\r' */
	uint64_t nul;     /* '\0' */
	uint64_t high;    /* bytes >= 0x80 */
	uint64_t inside;  /* prefix XOR of quote: bit i is the parity of the
			     quotes at or before i (1 from an opening quote up
			     to the byte before its closing one) */
} block_masks;

typedef void block_fn(const unsigned char *block, block_masks *m);

#if defined(CSVSPLIT_X86)
/* The prefix XOR by shifts: each step doubles the span summed. */
static uint64_t prefix_xor_shifts(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

/* Bits of the bytes of v equal to c (16 bits). */
static uint64_t eq16(__m128i v, char c)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
}

static inline void block_sse2(const unsigned char *block, block_masks *m)
{
	int k;

	memset(m, 0, sizeof(*m));
	for (k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(block + 16 * k));
		int shift = 16 * k;

		m->quote |= eq16(v, '"') << shift;
		m->comma |= eq16(v, ',') << shift;
		m->lf |= eq16(v, '\n') << shift;
		m->cr |= eq16(v, '\r') << shift;
		m->nul |= eq16(v, '\0') << shift;
		m->high |= (uint64_t)(unsigned)_mm_movemask_epi8(v) << shift;
	}
	m->inside = prefix_xor_shifts(m->quote);
}

/* Bits of the bytes of v equal to c (32 bits). */
__attribute__((target("avx2")))
static inline uint64_t eq32(__m256i v, char c)
{
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c)));
}

__attribute__((target("avx2,pclmul")))
static inline void block_avx2(const unsigned char *block, block_masks *m)
{
	__m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)block);
	__m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32));
	__m128i q;

	m->quote = eq32(lo, '"') | eq32(hi, '"') << 32;
	m->comma = eq32(lo, ',') | eq32(hi, ',') << 32;
	m->lf = eq32(lo, '\n') | eq32(hi, '\n') << 32;
	m->cr = eq32(lo, '\r') | eq32(hi, '\r') << 32;
	m->nul = eq32(lo, '\0') | eq32(hi, '\0') << 32;
	m->high = (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
		  (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
	/* carry-less multiply by all ones: bit i is the XOR of bits 0..i */
	q = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)m->quote),
				 _mm_set1_epi8((char)0xFF), 0);
	m->inside = (uint64_t)_mm_cvtsi128_si64(q);
}

#endif

int csvsplit_has(csvsplit_kernel kernel)
{
#if defined(CSVSPLIT_X86)
	if (kernel == CSVSPLIT_SSE2)
		return 1;
	__builtin_cpu_init();
	return kernel == CSVSPLIT_AVX2 && __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("pclmul");
#else
	(void)kernel;
	return 0;
#endif
}

void csvsplit_init(csvsplit *s, csvsplit_kernel kernel)
{
	memset(s, 0, sizeof(*s));
	s->kernel = kernel;
}

void csvsplit_release(csvsplit *s)
{
	free(s->ends);
	free(s->high);
	memset(s, 0, sizeof(*s));
}

#if defined(CSVSPLIT_X86)
/* Room for one more field. */
static void grow(csvsplit *s)
{
	s->cap = s->cap ? s->cap * 2 : 64;
	s->ends = xrealloc(s->ends, s->cap * sizeof(*s->ends));
	s->high = xrealloc(s->high, s->cap);
}

/* What carries from one block to the next (the bit before bit 0). */
typedef struct carry {
	uint64_t inside;  /* all ones when the block starts inside quotes */
	uint64_t sep;     /* the byte before ends a field (or the record
			     starts here) */
	uint64_t close;   /* the byte before is a closing quote */
	uint64_t cr;      /* the byte before is a CR */
	uint64_t high;    /* the open field has a byte >= 0x80 so far */
} carry;

/*
 * One block of the record: its field ends into s, its line ends inside
 * quotes into s->lines. Returns -1 when the record is not one the splitter
 * takes, 1 when its line end is in this block (s->end set), 0 to go on.
 */
static inline __attribute__((always_inline)) int
split_block(csvsplit *s, const block_masks *m, uint64_t valid, size_t off, carry *c)
{
	uint64_t inside = m->inside ^ c->inside;
	uint64_t eol = (m->lf | m->cr) & ~inside & valid;
	uint64_t sep = (m->comma & ~inside & valid) | eol;
	uint64_t upto = eol ? eol ^ (eol - 1) : valid;
	uint64_t open = m->quote & inside, close = m->quote & ~inside;
	uint64_t after_sep = sep << 1 | c->sep, after_close = close << 1 | c->close;
	uint64_t bad, bits, high;

	/* a quote opens a field, or reopens a doubled pair; a closing quote
	 * is followed by the field's end or by the second of a pair */
	bad = (open & ~(after_sep | after_close)) | (after_close & ~(sep | open)) | m->nul;
	if (bad & upto)
		return -1;
	if ((m->cr | m->lf) & inside & upto)
		s->lines += (unsigned long)__builtin_popcountll(m->cr & inside & upto) +
			    (unsigned long)__builtin_popcountll(m->lf & inside & upto &
								~(m->cr << 1 | c->cr));
	bits = sep & upto;
	high = m->high & upto;
	while (bits) {
		unsigned i = (unsigned)__builtin_ctzll(bits);
		uint64_t below = (UINT64_C(1) << i) - 1;

		if (s->nfields == s->cap)
			grow(s);
		s->ends[s->nfields] = off + i;
		s->high[s->nfields] = c->high || (high & below);
		s->nfields++;
		c->high = 0;
		high &= ~below;
		bits &= bits - 1;
	}
	c->high |= high != 0;
	if (eol) {
		s->end = off + (size_t)__builtin_ctzll(eol);
		return 1;
	}
	c->inside = (uint64_t)((int64_t)inside >> 63);
	c->sep = sep >> 63;
	c->close = close >> 63;
	c->cr = m->cr >> 63;
	return 0;
}

/*
 * The record loop, made once per kernel: inlined into a function compiled
 * for that kernel's instructions, with its mask function inlined too.
 */
static inline __attribute__((always_inline)) int
split_run(csvsplit *s, const unsigned char *data, size_t len, block_fn *masks)
{
	carry c = { 0, 1, 0, 0, 0 };
	block_masks m;
	size_t off;
	int rc;

	for (off = 0; off + 64 <= len; off += 64) {
		masks(data + off, &m);
		rc = split_block(s, &m, ~UINT64_C(0), off, &c);
		if (rc)
			return rc > 0;
	}
	if (off < len) {
		unsigned char pad[64];

		memset(pad, 0, sizeof(pad));
		memcpy(pad, data + off, len - off);
		masks(pad, &m);
		rc = split_block(s, &m, (UINT64_C(1) << (len - off)) - 1, off, &c);
		if (rc)
			return rc > 0;
	}
	return 0;
}

static int split_sse2(csvsplit *s, const unsigned char *data, size_t len)
{
	return split_run(s, data, len, block_sse2);
}

__attribute__((target("avx2,pclmul,popcnt,bmi")))
static int split_avx2(csvsplit *s, const unsigned char *data, size_t len)
{
	return split_run(s, data, len, block_avx2);
}
#endif

int csvsplit_record(csvsplit *s, const unsigned char *data, size_t len)
{
	s->nfields = 0;
	s->lines = 0;
	if (len > CSVSPLIT_MAX)
		len = CSVSPLIT_MAX;
#if defined(CSVSPLIT_X86)
	return s->kernel == CSVSPLIT_AVX2 ? split_avx2(s, data, len) : split_sse2(s, data, len);
#else
	(void)data;
	return 0;
#endif
}
