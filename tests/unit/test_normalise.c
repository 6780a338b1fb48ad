/*
 * Unit tests for normalise: tables of (input -> expected status, expected
 * normalised text). Real values come from the bundled exports; each group
 * says where from:
 *   all       snapshots/all_ai_models/2025-04-23
 *   notable   snapshots/notable_ai_models/<date>
 *   large     snapshots/large_scale_ai_models/2024-07-16
 *   dirty     tests/data/dirty/notable_ai_models-spreadsheet-resave (the
 *             2025-05 notable export re-saved by a spreadsheet program;
 *             some rows have shifted cells, so text lands in number and
 *             date columns)
 * Values without a source are notations the parsers must accept or
 * refuse even though no bundled export uses them.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "values/normalise.h"
#include "unit.h"

#define OK NORM_OK
#define EMPTY NORM_EMPTY
#define INVALID NORM_INVALID

typedef int (*norm_fn)(const char *, size_t, sbuf *, char *);

struct text_case {
	const char *in;
	int status;
	const char *out;     /* with OK */
};

/* Prefix put in the buffer before each call: the functions append. */
#define PRE "<prefix>"

static const char *status_name(int st)
{
	return st == OK ? "OK" : st == EMPTY ? "EMPTY" : st == INVALID ? "INVALID"
		: "?";
}

/*
 * The input as shown in a TAP line: control bytes escaped (a raw line
 * break would split the line), long inputs cut. Returns one of four
 * rotating static buffers, so up to four may be used in one printf.
 */
static const char *shown(const char *s)
{
	static char bufs[4][200];
	static int next;
	char *b = bufs[next++ & 3];
	size_t n = 0;

	if (!s)
		return "(null)";
	for (; *s && n < sizeof bufs[0] - 8; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n' || c == '\r' || c == '\t') {
			b[n++] = '\\';
			b[n++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else if (c < 0x20 || c == 0x7f) {
			n += (size_t)snprintf(b + n, 5, "\\x%02x", c);
		} else {
			b[n++] = (char)c;
		}
	}
	if (*s) {
		memcpy(b + n, "...", 3);
		n += 3;
	}
	b[n] = '\0';
	return b;
}

/* One call of a norm_* function against its expected result. */
static void check_case(const char *fn_name, norm_fn fn,
		       const struct text_case *c)
{
	sbuf out;
	char why[NORM_WHY_LEN];
	int rc;
	const char *in = shown(c->in);

	sbuf_init(&out);
	sbuf_adds(&out, PRE);
	memcpy(why, "untouched", 10);
	rc = fn(c->in, strlen(c->in), &out, why);
	if (!CHECK(rc == c->status, "%s(\"%s\") is %s", fn_name, in,
		   status_name(c->status)))
		printf("#   got %s (%s) \"%s\"\n", status_name(rc),
		       rc == INVALID ? why : "", shown(out.data));
	if (c->status == OK) {
		sbuf tmp;

		sbuf_init(&tmp);
		sbuf_adds(&tmp, PRE);
		sbuf_adds(&tmp, c->out);
		CHECK_STR(out.data, tmp.data, "%s(\"%s\") gives \"%s\"",
			  fn_name, in, shown(c->out));
		sbuf_release(&tmp);
	} else {
		CHECK_STR(out.data, PRE, "%s(\"%s\") appends nothing",
			  fn_name, in);
	}
	if (c->status == INVALID)
		CHECK(why[0] != '\0' && strcmp(why, "untouched") != 0,
		      "%s(\"%s\") gives a reason (\"%s\")", fn_name, in, why);
	sbuf_release(&out);
}

static void run_cases(const char *fn_name, norm_fn fn,
		      const struct text_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_case(fn_name, fn, &cases[i]);
}

#define RUN(fn, table) run_cases(#fn, fn, table, sizeof table / sizeof table[0])

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

static const struct text_case number_cases[] = {
	/* plain exponent notation as the exports write it */
	{ "3.9e+24", OK, "3.9e+24" },       /* notable 2025-05-06, Training compute (FLOP), MegaScale (Production) */
	{ "1e+19", OK, "1e+19" },           /* all, Training compute (FLOP), RNADiffFold */
	{ "1.0000000001e+25", OK, "1.0000000001e+25" }, /* all, Training compute lower bound */
	{ "1.44e+21", OK, "1.44e+21" },     /* all, Finetune compute (FLOP) */
	/* more than 15 significant digits: Python repr of a double, kept
	 * (the compared text, 15 digits, is in compared_cases) */
	{ "3.3499999999999998e+25", OK, "3.3499999999999998e+25" }, /* all, Training compute (FLOP), Claude 3.7 Sonnet */
	{ "1.1300000000000001e+27", OK, "1.1300000000000001e+27" }, /* all, Training compute upper bound, Grok-3 */
	{ "1.5848931924611137e+22", OK, "1.5848931924611137e+22" }, /* all, Training compute (FLOP), Griffin */
	{ "5.0000000000000004e+22", OK, "5.0000000000000004e+22" },
	{ "40586592.57781653", OK, "40586592.57781653" }, /* notable 2024-07-16..2025-05-06, Training compute cost (2023 USD), GPT-4 */
	{ "29827341.919963885", OK, "29827341.919963885" }, /* notable 2025-05-06, Training compute cost (2023 USD), Gemini 1.0 Ultra */
	{ "557218.9999999999", OK, "557218.9999999999" },  /* all, Training dataset size (datapoints), RNAformer */
	{ "740001.0000000013", OK, "740001.0000000013" }, /* all, Training dataset size (datapoints), ConoDL */
	{ "197336.5951439333", OK, "197336.5951439333" }, /* notable, Training power draw (W) */
	{ "342212.3909614999", OK, "342212.3909614999" }, /* notable, Training power draw (W), SEER */
	/* digits beyond what makes the double are dropped */
	{ "0.1000000000000000055511151231257827", OK, "0.1" },
	{ "3.33333333333333333333", OK, "3.3333333333333335" },
	{ "1000000000000001", OK, "1000000000000001" },    /* 16 digits, "%.16g" layout */
	{ "1000000000000001.0", OK, "1000000000000001" },
	/* integers written as floats */
	{ "530000000000.0", OK, "530000000000" }, /* all, Parameters, MegaScale (Production) */
	{ "302.0", OK, "302" },             /* all, Citations, Neural cache model (size=2000) (300M) */
	{ "2006640000000000.0", OK, "2.00664e+15" }, /* notable 2025-05-06, Training compute (FLOP), Multi-cell LSTM */
	{ "0.0", OK, "0" },                 /* notable, Finetune compute (FLOP), FunSearch */
	{ "0.48", OK, "0.48" },             /* all, Hardware utilization, MegaScale (Production) */
	{ "0.52", OK, "0.52" },             /* all, Hardware utilization */
	{ "100000.0", OK, "100000" },       /* all, Hardware quantity */
	{ "307200.0", OK, "307200" },       /* all, Batch size */
	{ "929.0", OK, "929" },             /* notable 2024-07-06, Training compute cost (2020 USD) */
	{ "26000000000.0", OK, "26000000000" }, /* notable 2024-07-06, Inference compute (FLOP) */
	{ "2400.0", OK, "2400" },           /* all, Training time (hours) */
	{ "5.423", OK, "5.423" },           /* all, Training compute lower bound */
	/* the spreadsheet re-save: upper-case E, three-digit exponents,
	 * integers without ".0", decimals cut to 15 digits */
	{ "1.0692E+025", OK, "1.0692e+25" }, /* dirty, Training compute (FLOP), Pangu Ultra */
	{ "6E+020", OK, "6e+20" },          /* dirty, Training compute (FLOP), DiT-XL/2 */
	{ "3.96289537619264E+023", OK, "3.96289537619264e+23" }, /* dirty, Training compute (FLOP), Parti */
	{ "7.04E+021", OK, "7.04e+21" },    /* dirty, Finetune compute (FLOP) */
	{ "135000000000", OK, "135000000000" }, /* dirty, Parameters */
	{ "2006640000000000", OK, "2.00664e+15" }, /* dirty, Training compute (FLOP), Multi-cell LSTM */
	{ "24124575958774.9", OK, "24124575958774.9" }, /* dirty, Training compute (FLOP) */
	{ "56000000001.0001", OK, "56000000001.0001" }, /* dirty, Training dataset size (datapoints) */
	{ "29827341.9199639", OK, "29827341.9199639" }, /* dirty, Training compute cost (2023 USD), Gemini 1.0 Ultra */
	{ "0.3156", OK, "0.3156" },         /* dirty, Hardware utilization */
	{ "8192", OK, "8192" },             /* dirty, Hardware quantity */
	{ "0", OK, "0" },                   /* dirty, Citations */
	/* exponent spellings */
	{ "3.9E+24", OK, "3.9e+24" },
	{ "3.9E+024", OK, "3.9e+24" },
	{ "3.9e+0024", OK, "3.9e+24" },
	{ "3.9e24", OK, "3.9e+24" },
	{ "3.9e-3", OK, "0.0039" },
	{ "1e-5", OK, "1e-05" },
	{ "1E-005", OK, "1e-05" },
	{ "1.5e0", OK, "1.5" },
	/* scientific notation written out */
	{ "3.9 \xc3\x97 10\xc2\xb2\xe2\x81\xb4", OK, "3.9e+24" },        /* 3.9 × 10²⁴ */
	{ "3.9\xc3\x97" "10\xc2\xb2\xe2\x81\xb4", OK, "3.9e+24" },        /* 3.9×10²⁴ */
	{ "3.9 \xc3\x97" "10^24", OK, "3.9e+24" },                        /* 3.9 ×10^24 */
	{ "1.5 \xc3\x97 10\xe2\x81\xbb\xc2\xb3", OK, "0.0015" },          /* 1.5 × 10⁻³ */
	{ "2 \xc3\x97 10\xe2\x81\xba\xc2\xb9\xe2\x81\xb0", OK, "20000000000" }, /* 2 × 10⁺¹⁰ */
	/* every superscript digit: ⁰ ¹ ² ³ ⁴ ⁵ ⁶ ⁷ ⁸ ⁹ */
	{ "10\xe2\x81\xb0", OK, "1" },
	{ "10\xc2\xb9", OK, "10" },
	{ "10\xc2\xb2", OK, "100" },
	{ "10\xc2\xb3", OK, "1000" },
	{ "10\xe2\x81\xb4", OK, "10000" },
	{ "10\xe2\x81\xb5", OK, "100000" },
	{ "10\xe2\x81\xb6", OK, "1000000" },
	{ "10\xe2\x81\xb7", OK, "10000000" },
	{ "10\xe2\x81\xb8", OK, "100000000" },
	{ "10\xe2\x81\xb9", OK, "1000000000" },
	{ "6\xc3\x97" "10\xc2\xb9\xe2\x81\xb8", OK, "6e+18" },            /* 6×10¹⁸ */
	{ "3.9x10^24", OK, "3.9e+24" },
	{ "3.9X10^24", OK, "3.9e+24" },
	{ "3.9*10^24", OK, "3.9e+24" },
	{ "3.9 x 10^24", OK, "3.9e+24" },
	{ "3.9\xc2\xa0\xc3\x97\xc2\xa0" "10^24", OK, "3.9e+24" },         /* no-break spaces around × */
	{ "3.9\xe2\x80\xaf\xc3\x97\xe2\x80\xaf" "10^24", OK, "3.9e+24" }, /* narrow no-break spaces */
	{ "2x10^-5", OK, "2e-05" },
	{ "2x10^\xe2\x88\x92" "5", OK, "2e-05" },                         /* U+2212 minus in the exponent */
	{ "10^24", OK, "1e+24" },
	{ "10^+3", OK, "1000" },
	{ "10\xc2\xb2\xe2\x81\xb4", OK, "1e+24" },                        /* 10²⁴ */
	{ "10\xe2\x81\xbb\xc2\xb3", OK, "0.001" },                        /* 10⁻³ */
	{ "-10^3", OK, "-1000" },
	{ "10", OK, "10" },
	/* thousands separators, valid groups of three only */
	{ "1,234", OK, "1234" },
	{ "1,234,567.5", OK, "1234567.5" },
	{ "12,345", OK, "12345" },
	{ "123,456,789", OK, "123456789" },
	{ "-1,000", OK, "-1000" },
	{ "1,234e3", OK, "1234000" },
	/* signs, bare decimal points, padding */
	{ "+5", OK, "5" },
	{ "-5", OK, "-5" },
	{ "\xe2\x88\x92" "5", OK, "-5" },                                 /* U+2212 MINUS SIGN */
	{ ".5", OK, "0.5" },
	{ "-.5", OK, "-0.5" },
	{ "5.", OK, "5" },
	{ "-0", OK, "0" },
	{ "-0.0", OK, "0" },
	{ "000123.4500", OK, "123.45" },
	{ " 8192 ", OK, "8192" },
	{ "\t0.52\r\n", OK, "0.52" },
	{ "\xc2\xa0" "42\xc2\xa0", OK, "42" },                            /* U+00A0 around */
	/* %.15g boundaries */
	{ "999999999999999", OK, "999999999999999" },
	{ "1000000000000000", OK, "1e+15" },
	{ "123456789012345678", OK, "1.2345678901234568e+17" },
	{ "0.0001", OK, "0.0001" },
	{ "0.00001", OK, "1e-05" },
	{ "1e308", OK, "1e+308" },
	{ "1.7976931348623157e308", OK, "1.7976931348623157e+308" }, /* DBL_MAX */
	{ "1.7976931348623158e308", OK, "1.7976931348623157e+308" }, /* rounds to it */
	{ "2.2250738585072014e-308", OK, "2.2250738585072014e-308" }, /* DBL_MIN */
	{ "1e-307", OK, "1e-307" },
	{ "0e-400", OK, "0" },
	{ "0.000e999", OK, "0" },
	{ "0.0000000000000000000001", OK, "1e-22" },
	{ "-0.000000000000000000000000000000000000000000000000001", OK, "-1e-51" },
	/* empty */
	{ "", EMPTY, NULL },
	{ "   ", EMPTY, NULL },
	{ "\t\r\n", EMPTY, NULL },
	{ "\xc2\xa0", EMPTY, NULL },
	/* refused: bad separators */
	{ "1,23", INVALID, NULL },
	{ "1,2345", INVALID, NULL },
	{ "1234,567", INVALID, NULL },
	{ ",123", INVALID, NULL },
	{ "1,,234", INVALID, NULL },
	{ "1,234,", INVALID, NULL },
	{ "0,5", INVALID, NULL },
	{ "1 234", INVALID, NULL },
	/* refused: what strtod would take */
	{ "inf", INVALID, NULL },
	{ "-inf", INVALID, NULL },
	{ "Infinity", INVALID, NULL },
	{ "nan", INVALID, NULL },
	{ "NaN", INVALID, NULL },
	{ "0x10", INVALID, NULL },
	{ "0X1F", INVALID, NULL },
	{ "0x1p3", INVALID, NULL },
	/* refused: malformed */
	{ "1e", INVALID, NULL },
	{ "1e+", INVALID, NULL },
	{ "e5", INVALID, NULL },
	{ ".", INVALID, NULL },
	{ "-", INVALID, NULL },
	{ "+", INVALID, NULL },
	{ "--5", INVALID, NULL },
	{ "1.2.3", INVALID, NULL },
	{ "12abc", INVALID, NULL },
	{ "$100", INVALID, NULL },
	{ "1.5M", INVALID, NULL },
	{ "50%", INVALID, NULL },
	{ "1e309", INVALID, NULL },         /* out of range */
	{ "1.7976931348623159e308", INVALID, NULL }, /* rounds to infinity */
	{ "-1e309", INVALID, NULL },
	{ "1e-400", INVALID, NULL },        /* not zero, below every double */
	{ "-1e-400", INVALID, NULL },
	{ "4.9406564584124654e-324", INVALID, NULL }, /* subnormal: refused */
	{ "2.2250738585072009e-308", INVALID, NULL }, /* the largest subnormal */
	{ "1e-310", INVALID, NULL },
	{ "10^-400", INVALID, NULL },
	{ "10^999", INVALID, NULL },        /* out of range */
	{ "3.9 \xc3\x97 10", INVALID, NULL },   /* 10 without a power */
	{ "3.9 \xc3\x97", INVALID, NULL },
	{ "3.9 \xc3\x97 11^3", INVALID, NULL },
	{ "3.9 \xc3\x97 10 ^24", INVALID, NULL },
	{ "1e5x10^3", INVALID, NULL },
	{ "10^", INVALID, NULL },
	{ "10^-", INVALID, NULL },
	{ "\xc3\x97 10^3", INVALID, NULL },
	/* refused: more than one number */
	{ "1 2", INVALID, NULL },
	{ "3.9e24 4e24", INVALID, NULL },
	{ "1-2", INVALID, NULL },
	/* refused: real shifted cells of the re-saved file (dirty) */
	{ "NVIDIA Tesla V100 DGXS 32 GB", INVALID, NULL }, /* Hardware quantity */
	{ "NVIDIA A100", INVALID, NULL },   /* Hardware quantity */
	{ " Ahuva Goldstand", INVALID, NULL }, /* Hardware quantity */
	{ " Adam Kelsey", INVALID, NULL },  /* Epochs */
	{ "Qwen2.5-Coder (32B)", INVALID, NULL }, /* Epochs */
	{ "Historical significance", INVALID, NULL }, /* Epochs */
	{ "O=D", INVALID, NULL },           /* Training compute (FLOP), ULM-FiT */
	{ " not all parameters are activated on the forward pass.", INVALID, NULL }, /* Training compute (FLOP), M6-T */
	{ "Open weights (unrestricted)", INVALID, NULL }, /* Hardware utilization */
	{ "https://arxiv.org/abs/2403.20329", INVALID, NULL }, /* Citations */
	{ "China", INVALID, NULL },         /* Training dataset size (datapoints) */
	{ "M6-Corpus", INVALID, NULL },     /* Training dataset size (datapoints) */
	{ "Unreleased", INVALID, NULL },    /* Training compute cost (2023 USD) */
	{ "Llama 2-13B", INVALID, NULL },   /* Finetune compute (FLOP) */
	{ "Industry", INVALID, NULL },      /* Batch size */
	{ "fine-tuned Llama 2 13B\n\nRTX 3090 for 17 hours, at a cost of $17\n\n35.5 trillion flops * 17 * 3600 * 0.3 = 6.532488e+17", INVALID, NULL }, /* Batch size */
};

/* Values whose exact parse matters beyond their text. */
static void test_number_values(void)
{
	static const struct {
		const char *in;
		double value;
	} cases[] = {
		{ "3.9e+24", 3.9e24 },
		{ "3.9 \xc3\x97 10\xc2\xb2\xe2\x81\xb4", 3.9e24 },
		{ "0.1", 0.1 },
		{ "5.0000000000000004e+22", 5.0000000000000004e+22 },
		{ "40586592.57781653", 40586592.57781653 },
		{ "1,234,567.5", 1234567.5 },
		{ "123456789012345678901234567890", 123456789012345678901234567890.0 },
		{ "2.2250738585072014e-308", 2.2250738585072014e-308 },
		{ "1.7976931348623157e308", 1.7976931348623157e308 },
		{ "9007199254740993", 9007199254740992.0 }, /* halfway: ties to even */
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double v = -1;
		int rc = norm_number_parse(cases[i].in, strlen(cases[i].in), &v,
					   NULL);

		CHECK(rc == OK && v == cases[i].value,
		      "norm_number_parse(\"%s\") is exactly %.17g (got %.17g)",
		      cases[i].in, cases[i].value, v);
	}
	{
		/* a cell holding a NUL byte is not a number */
		double v = 0;
		char why[NORM_WHY_LEN];

		CHECK(norm_number_parse("12\0" "3", 4, &v, why) == INVALID,
		      "a NUL byte inside a number is refused");
		CHECK(norm_number_parse("12", 2, NULL, why) == OK,
		      "value may be NULL");
		CHECK(norm_number_parse(NULL, 0, &v, NULL) == EMPTY,
		      "NULL text of length 0 is empty");
	}
	{
		/* 1000 significant digits: beyond the digits kept exactly */
		char big[1100];
		double v = 0;

		memset(big, '9', 1000);
		memcpy(big + 1000, "e-800", 6);
		CHECK(norm_number_parse(big, strlen(big), &v, NULL) == OK &&
		      v == 1e200, "1000 nines e-800 is 1e200 (got %.17g)", v);
		memset(big, '0', 1000);
		big[0] = '1';
		CHECK(norm_number_parse(big, 300, &v, NULL) == OK && v == 1e299,
		      "1 followed by 299 zeros is 1e299 (got %.17g)", v);
		CHECK(norm_number_parse(big, 1000, &v, NULL) == INVALID,
		      "1 followed by 999 zeros is out of range");
		/* "0." then 300 zeros then "1" */
		memcpy(big, "0.", 2);
		memset(big + 2, '0', 300);
		memcpy(big + 302, "1", 2);
		CHECK(norm_number_parse(big, strlen(big), &v, NULL) == OK &&
		      v == 1e-301, "0.(300 zeros)1 is 1e-301 (got %.17g)", v);
	}
}

/* xorshift64: the next of a fixed sequence of test values. */
static uint64_t next_random(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* A double from x: any bit pattern, short decimals, integers near 10^15
 * or rounding edges, in turn by n. */
static double random_value(uint64_t x, int n)
{
	double v;

	memcpy(&v, &x, sizeof v);
	if (n % 4 == 1)           /* short decimals */
		v = (double)(x % 100000000) / 1000.0;
	else if (n % 4 == 2)      /* integers near 10^15 */
		v = (double)(x % 4000000000000000u);
	else if (n % 4 == 3)      /* rounding edges */
		v = (double)(x % 1000000) * 1e-4 + 0.00005;
	return v;
}

/* norm_number_text_compared as a norm_fn (why is left alone). */
static int norm_compared_fn(const char *s, size_t len, sbuf *out, char *why)
{
	(void)why;
	return norm_number_text_compared(s, len, out);
}

/* The compared text of what the exports hold: 15 significant digits,
 * the shortest decimal rounded half up. */
static const struct text_case compared_cases[] = {
	{ "3.3499999999999998e+25", OK, "3.35e+25" }, /* all, Training compute (FLOP), Claude 3.7 Sonnet */
	{ "1.1300000000000001e+27", OK, "1.13e+27" }, /* all, Training compute upper bound, Grok-3 */
	{ "1.5848931924611137e+22", OK, "1.58489319246111e+22" }, /* all, Training compute (FLOP), Griffin */
	{ "5.0000000000000004e+22", OK, "5e+22" },
	{ "40586592.57781653", OK, "40586592.5778165" }, /* notable, Training compute cost (2023 USD), GPT-4 */
	{ "29827341.919963885", OK, "29827341.9199639" }, /* notable 2025-05-06, Gemini 1.0 Ultra */
	{ "557218.9999999999", OK, "557219" },  /* all, Training dataset size (datapoints), RNAformer */
	{ "740001.0000000013", OK, "740001.000000001" }, /* all, Training dataset size (datapoints), ConoDL */
	{ "197336.5951439333", OK, "197336.595143933" }, /* notable, Training power draw (W) */
	{ "342212.3909614999", OK, "342212.3909615" }, /* notable, Training power draw (W), SEER */
	{ "783480.3837556645", OK, "783480.383755665" }, /* half up, as a spreadsheet */
	{ "123456789012345678", OK, "1.23456789012346e+17" },
	{ "1000000000000001", OK, "1e+15" },
	{ "999999999999999.9", OK, "1e+15" },
	{ "999999999999999", OK, "999999999999999" },
	{ "1.7976931348623157e+308", OK, "1.79769313486232e+308" },
	{ "2.2250738585072014e-308", OK, "2.2250738585072e-308" },
	{ "0.30000000000000004", OK, "0.3" },
	{ "3.9e+24", OK, "3.9e+24" },
	{ "530000000000", OK, "530000000000" },
	{ "-0", OK, "0" },
	{ "0.0001", OK, "0.0001" },
	{ "0.00001", OK, "1e-05" },
};

static void test_number_text_equal(void)
{
	static const struct {
		const char *a, *b;
		int equal;
	} cases[] = {
		{ "342212.3909614999", "342212.3909615", 1 },
		{ "342212.3909614999", "342212.3909614998", 1 },
		{ "342212.3909614999", "342212.390961", 0 },
		{ "1.7976931348623157e+308", "1.79769313486232e+308", 0 }, /* the second is no double */
		{ "3.9e+24", "3.9e+24", 1 },
		{ "text", "text", 1 },
		{ "text", "txet", 0 },
		{ "1", "", 0 },
		{ "", "", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK(norm_number_text_equal(cases[i].a, strlen(cases[i].a), cases[i].b,
					     strlen(cases[i].b)) == cases[i].equal,
		      "norm_number_text_equal(\"%s\", \"%s\") is %d", cases[i].a, cases[i].b,
		      cases[i].equal);
}

/* printf's own answer: the first of "%.15g", "%.16g", "%.17g" that reads
 * back as v (read/normalise.c computes it without printing where it can) */
static void printf_shortest(double v, char *buf, size_t size)
{
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* xorshift64*, seeded: the same values every run */
static uint64_t rnd_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 2685821657736338717ULL;
}

/* Shortest texts against printf's, on decimals of 1 to 17 digits with
 * exponents from -30 to 40 (most read back from 15 digits or fewer) and on
 * random bit patterns (most need 16 or 17). */
static void test_number_format_printf(void)
{
	char want[64], text[64], first[160] = "";
	size_t i, bad = 0, n = 0;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < 400000; i++) {
		double v;

		if (i % 2 == 0) {
			int digits = 1 + (int)(rnd() % 17), d;
			size_t len = 0;

			if (rnd() % 4 == 0)
				text[len++] = '-';
			for (d = 0; d < digits; d++)
				text[len++] = (char)('0' + (d == 0 ? 1 + rnd() % 9 : rnd() % 10));
			snprintf(text + len, sizeof text - len, "e%d", (int)(rnd() % 71) - 30);
			v = strtod(text, NULL);
		} else {
			uint64_t bits = rnd();

			memcpy(&v, &bits, sizeof v);
			if (!isfinite(v) || v == 0)
				continue;
		}
		n++;
		printf_shortest(v, want, sizeof want);
		sbuf_reset(&out);
		norm_number_format(v, &out);
		if (strcmp(out.data, want) && !bad++)
			snprintf(first, sizeof first, ": %.17g gives %s, printf %s", v, out.data, want);
	}
	CHECK(bad == 0 && n > 390000, "%zu numbers written as printf's shortest, %zu not%s", n, bad,
	      first);
	sbuf_release(&out);
}

static void test_number_format(void)
{
	static const struct {
		double value;
		const char *text;
	} cases[] = {
		{ 530000000000.0, "530000000000" },
		{ 3.9e24, "3.9e+24" },
		{ 0.48, "0.48" },
		{ 302.0, "302" },
		{ 5.0000000000000004e+22, "5.0000000000000004e+22" },
		{ 40586592.57781653, "40586592.57781653" },
		{ -0.0, "0" },
		{ 0.0, "0" },
		{ -2.5, "-2.5" },
		{ -530000000000.0, "-530000000000" },
		{ 1e15, "1e+15" },
		{ 1e-5, "1e-05" },
		{ 1e100, "1e+100" },
		{ 1.5e-300, "1.5e-300" },
		{ 123456.7, "123456.7" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 9.999999999999999e14, "999999999999999.9" },
		/* the C standard's values (float.h) */
		{ DBL_MAX, "1.7976931348623157e+308" },
		{ -DBL_MAX, "-1.7976931348623157e+308" },
		{ DBL_MIN, "2.2250738585072014e-308" },
		{ 0.1, "0.1" },
		{ 1.0 / 3.0, "0.3333333333333333" },
		{ 2.0 / 3.0, "0.6666666666666666" },
		/* the smallest subnormal: "%.15g" reads back as it */
		{ 4.9406564584124654e-324, "4.94065645841247e-324" },
		{ DBL_EPSILON, "2.220446049250313e-16" },
		{ 9007199254740993.0, "9007199254740992" },
	};
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sbuf_reset(&out);
		norm_number_format(cases[i].value, &out);
		CHECK_STR(out.data, cases[i].text, "norm_number_format(%.17g)",
			  cases[i].value);
	}
	sbuf_reset(&out);
	norm_number_format(NAN, &out);
	CHECK_STR(out.data, "nan", "norm_number_format(NAN)");
	sbuf_reset(&out);
	norm_number_format(-INFINITY, &out);
	CHECK_STR(out.data, "-inf", "norm_number_format(-INFINITY)");

	/* The hand layout against printf over many values: the stored text
	 * is the first of %.15g, %.16g, %.17g that reads back as v, and
	 * always reads back as v. */
	{
		uint64_t x = 0x9E3779B97F4A7C15u;
		int bad = 0, n, prec;
		char want[64];
		double v;

		for (n = 0; n < 200000; n++) {
			x = next_random(x);
			v = random_value(x, n);
			if (isnan(v) || isinf(v))
				continue;
			for (prec = 15; prec <= 17; prec++) {
				snprintf(want, sizeof want, "%.*g", prec, v);
				if (strtod(want, NULL) == v)
					break;
			}
			if (!strcmp(want, "-0"))
				strcpy(want, "0");
			sbuf_reset(&out);
			norm_number_format(v, &out);
			if ((strcmp(out.data, want) || strtod(out.data, NULL) != v) && bad++ < 5)
				printf("# %.17g: got %s, printf %s\n", v, out.data, want);
		}
		CHECK(bad == 0, "norm_number_format is the first of %%.15g, %%.16g, %%.17g "
		      "that reads back, on 200000 values (%d differ)", bad);
	}
	sbuf_release(&out);
}

/* The compared text: 15 significant digits. */
static void test_number_compared(void)
{
	uint64_t x = 0x9E3779B97F4A7C15u;
	int bad = 0, n;
	char want[64];
	double v;
	int ok;
	sbuf out;

	sbuf_init(&out);
	/* The hand layout against printf's %.15g over many values. */
	for (n = 0; n < 200000; n++) {
		x = next_random(x);
		v = random_value(x, n);
		if (isnan(v) || isinf(v))
			continue;
		snprintf(want, sizeof want, "%.15g", v);
		if (!strcmp(want, "-0"))
			strcpy(want, "0");
		sbuf_reset(&out);
		norm_number_compared(v, &out);
		/* Where %.15g reads back as v, v has at most 15
		 * significant digits and the text must be %.15g's.
		 * Otherwise the text is the shortest decimal rounded
		 * half up: within half a unit of the 15th digit. */
		if (strtod(want, NULL) == v) {
			ok = !strcmp(out.data, want);
		} else {
			double back = strtod(out.data, NULL);
			double unit = pow(10, floor(log10(fabs(v))) - 14);

			/* the shortest decimal is itself within
			 * an ulp or so of v */
			ok = fabs(back - v) <= 0.5 * unit + 4 * fabs(v) * DBL_EPSILON;
		}
		if (!ok) {
			if (bad++ < 5)
				printf("# %.17g: got %s, %%.15g %s\n", v,
				       out.data, want);
		}
		/* the stored text compares as the value does (subnormals
		 * are refused by the parser) */
		if (v != 0 && fabs(v) < DBL_MIN)
			continue;
		sbuf_reset(&out);
		norm_number_format(v, &out);
		{
			char stored[64];
			char compared[64];

			snprintf(stored, sizeof stored, "%s", out.data);
			sbuf_reset(&out);
			norm_number_compared(v, &out);
			snprintf(compared, sizeof compared, "%s", out.data);
			sbuf_reset(&out);
			if ((norm_number_text_compared(stored, strlen(stored), &out) != OK ||
			     strcmp(out.data, compared)) && bad++ < 5)
				printf("# %.17g: stored %s compares as %s, not %s\n", v, stored,
				       out.data, compared);
		}
	}
	CHECK(bad == 0, "norm_number_compared agrees with %%.15g where it "
	      "round-trips, within half a 15th digit elsewhere, and the stored text "
	      "compares alike, on 200000 values (%d differ)", bad);
	sbuf_release(&out);
	RUN(norm_compared_fn, compared_cases);
}

static double parsed(const char *s)
{
	double v = NAN;

	norm_number_parse(s, strlen(s), &v, NULL);
	return v;
}

static void test_number_equal(void)
{
	static const struct {
		const char *a, *b;
		int equal;
	} cases[] = {
		{ "5.0000000000000004e+22", "5e+22", 1 },
		{ "3.9e24", "3.91e24", 0 },
		{ "3.9e24", "3.9 \xc3\x97 10\xc2\xb2\xe2\x81\xb4", 1 },
		/* all vs a rounded form, Training compute (FLOP), Claude 3.7 Sonnet */
		{ "3.3499999999999998e+25", "3.35e+25", 1 },
		/* notable 2025-05-06 vs dirty: Training compute cost (2023 USD), Gemini 1.0 Ultra */
		{ "29827341.919963885", "29827341.9199639", 1 },
		/* notable 2025-05-06 vs dirty: Training compute (FLOP), Pangu Ultra */
		{ "1.0692e+25", "1.0692E+025", 1 },
		/* notable 2025-05-06 vs dirty: Parameters */
		{ "135000000000.0", "135000000000", 1 },
		/* notable 2025-05-06 vs dirty: Training power draw (W), EXAONE
		 * Deep 32B. The spreadsheet rounded the decimal text half up
		 * (...6645 -> ...665); so does norm_number_format (the
		 * shortest decimal, rounded half up), where %.15g would round
		 * the double just below ...6645 to ...664. */
		{ "783480.3837556645", "783480.383755665", 1 },
		{ "0", "-0", 1 },
		{ "1000000000000001", "1e15", 1 },   /* differ in the 16th digit */
		{ "100000000000001", "1e14", 0 },    /* differ in the 15th digit */
		{ "0.48", "0.480000000000001", 0 },
		{ "0.48", "0.4800000000000001", 1 },
		{ "-1", "1", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK(norm_number_equal(parsed(cases[i].a), parsed(cases[i].b)) ==
		      cases[i].equal, "norm_number_equal(%s, %s) is %d",
		      cases[i].a, cases[i].b, cases[i].equal);
	CHECK(norm_number_equal(NAN, NAN), "NAN equals NAN (same text)");
	CHECK(!norm_number_equal(INFINITY, -INFINITY), "inf differs from -inf");
}

/* Parsing and formatting do not follow LC_NUMERIC. Runs only where a
 * locale with a decimal comma is installed. */
static void test_number_locale(void)
{
	static const char *const names[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8", NULL
	};
	size_t i;
	sbuf out;
	char why[NORM_WHY_LEN];

	for (i = 0; names[i]; i++)
		if (setlocale(LC_NUMERIC, names[i]))
			break;
	if (!names[i]) {
		printf("# no decimal-comma locale installed: locale checks skipped\n");
		return;
	}
	sbuf_init(&out);
	CHECK(norm_number("3.9e+24", 7, &out, why) == OK &&
	      !strcmp(out.data, "3.9e+24"), "under %s: 3.9e+24 -> \"%s\"",
	      names[i], out.data);
	sbuf_reset(&out);
	CHECK(norm_number("0.48", 4, &out, why) == OK &&
	      !strcmp(out.data, "0.48"), "under %s: 0.48 -> \"%s\"", names[i],
	      out.data);
	sbuf_reset(&out);
	CHECK(norm_number("40586592.57781653", 17, &out, why) == OK &&
	      !strcmp(out.data, "40586592.57781653"),
	      "under %s: 40586592.57781653 -> \"%s\"", names[i], out.data);
	sbuf_reset(&out);
	CHECK(norm_number("0,5", 3, &out, why) == INVALID,
	      "under %s: 0,5 is still refused", names[i]);
	setlocale(LC_NUMERIC, "C");
	sbuf_release(&out);
}

/* ------------------------------------------------------------------ */
/* Dates                                                               */
/* ------------------------------------------------------------------ */

static const struct text_case date_cases[] = {
	/* ISO dates as the exports write them */
	{ "2025-03-14", OK, "2025-03-14" },     /* all, Publication date, EXAONE 3.5-R 2.4B */
	{ "2025-04-10", OK, "2025-04-10" },     /* dirty, Publication date */
	{ "2024-02-29", OK, "2024-02-29" },     /* all and large, Publication date, StarCoder 2 15B (leap day) */
	/* date-times */
	{ "2025-03-11 19:27:29+00:00", OK, "2025-03-11T19:27:29+00:00" }, /* all, Last modified, EXAONE 3.5-R 2.4B */
	{ "2025-02-17 17:22:37+00:00", OK, "2025-02-17T17:22:37+00:00" },
	{ "2025-02-17T17:22:37Z", OK, "2025-02-17T17:22:37+00:00" },
	{ "2025-02-17t17:22:37z", OK, "2025-02-17T17:22:37+00:00" },
	{ "2025-02-17T17:22:37", OK, "2025-02-17T17:22:37" },
	{ "2025-02-17 17:22:37", OK, "2025-02-17T17:22:37" },
	{ "2025-02-17T17:22", OK, "2025-02-17T17:22:00" },
	{ "2025-02-17T17:22:37.123456Z", OK, "2025-02-17T17:22:37+00:00" },
	{ "2025-02-17T17:22:37-05:30", OK, "2025-02-17T17:22:37-05:30" },
	{ "2025-02-17T17:22:37+0530", OK, "2025-02-17T17:22:37+05:30" },
	{ "2025-02-17T17:22:37+05", OK, "2025-02-17T17:22:37+05:00" },
	{ "2025-02-17 17:22:37 +00:00", OK, "2025-02-17T17:22:37+00:00" },
	{ "2025-02-17T00:00:00+00:00", OK, "2025-02-17T00:00:00+00:00" },
	{ "2025-02-17T23:59:59-23:59", OK, "2025-02-17T23:59:59-23:59" },
	{ "2025-02-17T9:05:00", OK, "2025-02-17T09:05:00" },
	/* month/day/year */
	{ "2/23/2024", OK, "2024-02-23" },
	{ "02/03/2024", OK, "2024-02-03" },
	{ "12/31/1999", OK, "1999-12-31" },
	{ "2/29/2024", OK, "2024-02-29" },
	{ "2/17/2025 17:22", OK, "2025-02-17T17:22:00" },
	{ "2/17/2025 17:22:37", OK, "2025-02-17T17:22:37" },
	/* written out */
	{ "23 February 2024", OK, "2024-02-23" },
	{ "February 23, 2024", OK, "2024-02-23" },
	{ "February 23 2024", OK, "2024-02-23" },
	{ "february 23,2024", OK, "2024-02-23" },
	{ "FEBRUARY 23, 2024", OK, "2024-02-23" },
	{ "Feb 23, 2024", OK, "2024-02-23" },
	{ "Feb. 23, 2024", OK, "2024-02-23" },
	{ "23 Feb 2024", OK, "2024-02-23" },
	{ "5 May 2020", OK, "2020-05-05" },
	{ "Sept 5, 2023", OK, "2023-09-05" },
	{ "Sep 5, 2023", OK, "2023-09-05" },
	{ "1 January 1950", OK, "1950-01-01" },
	{ "29 February 2024", OK, "2024-02-29" },
	/* partial dates keep their precision */
	{ "February 2024", OK, "2024-02" },
	{ "Feb 2024", OK, "2024-02" },
	{ "February, 2024", OK, "2024-02" },
	{ "dec 1999", OK, "1999-12" },
	{ "2024-02", OK, "2024-02" },
	{ "2024-2", OK, "2024-02" },
	{ "2024", OK, "2024" },
	{ "1957", OK, "1957" },
	{ "2024-2-3", OK, "2024-02-03" },
	{ "  2024-02-23\r\n", OK, "2024-02-23" },
	{ "\xc2\xa0" "2024-02-23", OK, "2024-02-23" },
	/* leap years: divisible by 4, not by 100 unless by 400 */
	{ "2000-02-29", OK, "2000-02-29" },
	{ "1900-02-29", INVALID, NULL },
	{ "2023-02-29", INVALID, NULL },
	{ "2/29/2023", INVALID, NULL },
	{ "29 February 2023", INVALID, NULL },
	{ "2024-02-30", INVALID, NULL },
	{ "2024-04-31", INVALID, NULL },
	{ "2024-04-30", OK, "2024-04-30" },
	{ "2024-12-31", OK, "2024-12-31" },
	/* empty */
	{ "", EMPTY, NULL },
	{ "  ", EMPTY, NULL },
	/* refused */
	{ "NVIDIA Tesla V100 SMX2", INVALID, NULL }, /* dirty, Publication date, Pixtral Large (shifted row) */
	{ "2024-13-01", INVALID, NULL },
	{ "2024-00-10", INVALID, NULL },
	{ "2024-01-00", INVALID, NULL },
	{ "2024-13", INVALID, NULL },
	{ "0000-01-01", INVALID, NULL },
	{ "13/1/2024", INVALID, NULL },
	{ "0/1/2024", INVALID, NULL },
	{ "2/23/24", INVALID, NULL },
	{ "2/23", INVALID, NULL },
	{ "24-02-23", INVALID, NULL },
	{ "20240223", INVALID, NULL },
	{ "2024/02/23", INVALID, NULL },
	{ "2024-02-23T", INVALID, NULL },
	{ "2024-02-23T25:00:00", INVALID, NULL },
	{ "2024-02-23T24:00", INVALID, NULL },
	{ "2024-02-23T12:60", INVALID, NULL },
	{ "2024-02-23T12:00:61", INVALID, NULL },
	{ "2024-02-23T12", INVALID, NULL },
	{ "2024-02-23T12:00:00+24:00", INVALID, NULL },
	{ "2024-02-23T12:00:00+05:60", INVALID, NULL },
	{ "2024-02-23T12:00:00+5", INVALID, NULL },
	{ "2024-02-23T12:00:00 UTC", INVALID, NULL },
	{ "2024-02-23 junk", INVALID, NULL },
	{ "2024-02-23-01", INVALID, NULL },
	{ "2/17/2025 17:22+00:00", INVALID, NULL },
	{ "Febtember 2024", INVALID, NULL },
	{ "Fe 2024", INVALID, NULL },
	{ "February", INVALID, NULL },
	{ "23 February", INVALID, NULL },
	{ "February 2024 23", INVALID, NULL },
	{ "February 123, 2024", INVALID, NULL },
	{ "February24", INVALID, NULL },
	{ "32 January 2024", INVALID, NULL },
	{ "yesterday", INVALID, NULL },
	{ "2024.5", INVALID, NULL },
};

static void test_date_struct(void)
{
	struct norm_date d;
	char why[NORM_WHY_LEN];
	sbuf out;

	memset(&d, 0x55, sizeof d);
	CHECK(norm_date_parse("2025-02-17 17:22:37+05:30", 25, &d, why) == OK &&
	      d.precision == DATE_TIME && d.year == 2025 && d.month == 2 &&
	      d.day == 17 && d.hour == 17 && d.minute == 22 && d.second == 37 &&
	      d.has_utc_offset == 1 && d.utc_offset_minutes == 330,
	      "date-time with offset fills every field");
	CHECK(norm_date_parse("2025-02-17T17:22:37", 19, &d, why) == OK &&
	      d.precision == DATE_TIME && d.has_utc_offset == 0 &&
	      d.utc_offset_minutes == 0, "date-time without offset");
	CHECK(norm_date_parse("2025-02-17T17:22:37-00:30", 25, &d, why) == OK &&
	      d.utc_offset_minutes == -30, "negative offset below an hour");
	CHECK(norm_date_parse("2024-02", 7, &d, why) == OK &&
	      d.precision == DATE_MONTH && d.year == 2024 && d.month == 2 &&
	      d.day == 0, "month precision leaves day 0");
	CHECK(norm_date_parse("2024", 4, &d, why) == OK &&
	      d.precision == DATE_YEAR && d.month == 0 && d.day == 0,
	      "year precision leaves month and day 0");
	CHECK(norm_date_parse("23 February 2024", 16, &d, why) == OK &&
	      d.precision == DATE_DAY && d.hour == 0 && d.has_utc_offset == 0,
	      "day precision has no time");
	CHECK(norm_date_parse("2024", 4, NULL, why) == OK, "date may be NULL");
	CHECK(norm_date_parse("2024-02-23x", 10, &d, why) == OK &&
	      d.day == 23, "only len bytes are read");

	/* format a struct built by hand */
	sbuf_init(&out);
	memset(&d, 0, sizeof d);
	d.year = 987;
	d.month = 1;
	d.day = 2;
	d.hour = 3;
	d.minute = 4;
	d.second = 5;
	d.precision = DATE_TIME;
	d.has_utc_offset = 1;
	d.utc_offset_minutes = -(9 * 60 + 30);
	norm_date_format(&d, &out);
	CHECK_STR(out.data, "0987-01-02T03:04:05-09:30",
		  "norm_date_format pads every field");
	sbuf_release(&out);
}

/* ------------------------------------------------------------------ */
/* Booleans, lists                                                     */
/* ------------------------------------------------------------------ */

static const struct text_case bool_cases[] = {
	{ "True", OK, "True" },             /* notable 2025-05-06, Frontier model; all, Foundation model */
	{ "true", OK, "True" },
	{ "TRUE", OK, "True" },             /* a spreadsheet's spelling */
	{ "Yes", OK, "True" },
	{ "yes", OK, "True" },
	{ "1", OK, "True" },
	{ " True ", OK, "True" },
	{ "False", OK, "False" },
	{ "FALSE", OK, "False" },
	{ "no", OK, "False" },
	{ "No", OK, "False" },
	{ "0", OK, "False" },
	{ "", EMPTY, NULL },                /* notable, Frontier model: most rows */
	{ " \t", EMPTY, NULL },
	{ "Y", INVALID, NULL },
	{ "T", INVALID, NULL },
	{ "2", INVALID, NULL },
	{ "1.0", INVALID, NULL },
	{ "Truee", INVALID, NULL },
	{ "True False", INVALID, NULL },
	{ " Angela Fan", INVALID, NULL },   /* dirty, Frontier model (shifted row) */
	{ "apache 2.0", INVALID, NULL },    /* dirty, Frontier model (shifted row) */
};

static int norm_list_fn(const char *s, size_t len, sbuf *out, char *why)
{
	return norm_list(s, len, out, why);
}

static const struct text_case list_cases[] = {
	{ "ByteDance, Peking University", OK, "ByteDance,Peking University" },
	{ "China,China", OK, "China,China" },  /* notable, Country (from Organization) */
	{ "Industry,Academia", OK, "Industry,Academia" }, /* notable, Organization categorization */
	{ "Academia,Industry,Government,Industry,Academia", OK,
	  "Academia,Industry,Government,Industry,Academia" }, /* notable, Organization categorization */
	{ "United States of America,United Kingdom of Great Britain and Northern Ireland,Multinational", OK,
	  "United States of America,United Kingdom of Great Britain and Northern Ireland,Multinational" }, /* notable, Country */
	{ "Korea (Republic of)", OK, "Korea (Republic of)" }, /* notable, Country */
	{ "Multimodal,Language,Vision", OK, "Multimodal,Language,Vision" }, /* notable, Domain */
	{ "Operation counting,Hardware", OK, "Operation counting,Hardware" }, /* notable 2025-02-24, Training compute estimation method */
	/* a comma inside a name splits it too (all, Organization,
	 * 6-Layer-Tensor-Transformer+AdaHessian) */
	{ "NERSC, Lawrence Berkeley National Laboratory,University of California (UC) Berkeley", OK,
	  "NERSC,Lawrence Berkeley National Laboratory,University of California (UC) Berkeley" },
	/* a trailing space inside an item (notable, Organization) */
	{ "University of Freiburg,Collaborative Research Institute Intelligent Oncology ,BrainLinks-BrainTools", OK,
	  "University of Freiburg,Collaborative Research Institute Intelligent Oncology,BrainLinks-BrainTools" },
	/* a line break inside an item (all, Organization) */
	{ "EleutherAI,Indraprastha Institute of Information Technology\r\nDelhi", OK,
	  "EleutherAI,Indraprastha Institute of Information Technology\nDelhi" },
	{ " Abhimanyu Dubey", OK, "Abhimanyu Dubey" }, /* dirty, Organization categorization (shifted row) */
	{ " a , , b ,", OK, "a,b" },
	{ ",a", OK, "a" },
	{ "a,,b", OK, "a,b" },
	{ "\xc2\xa0" "a\xc2\xa0,\tb\xc2\xa0", OK, "a,b" },
	{ "Industry\xc2\xa0" "Academia", OK, "Industry\xc2\xa0" "Academia" },
	{ "", EMPTY, NULL },
	{ "   ", EMPTY, NULL },
	{ ",", EMPTY, NULL },
	{ " , ,, ", EMPTY, NULL },
};

/* ------------------------------------------------------------------ */
/* Enumerations                                                        */
/* ------------------------------------------------------------------ */

/* Values of Confidence in the notable exports. */
static const char *const confidence[] = {
	"Confident", "Likely", "Speculative", "Unknown", "Unverified", NULL
};

/* Values of Model accessibility in the notable exports. */
static const char *const accessibility[] = {
	"Unreleased", "Open weights (unrestricted)", "Open weights (non-commercial)",
	"Open weights (restricted use)", "API access", "Open source",
	"Hosted access (no API)", "Open access (non-commercial)",
	"Open access (restricted use)", NULL
};

struct enum_case {
	const char *const *known;
	const char *in;
	int status;
	const char *out;
	int unknown;
};

static const struct enum_case enum_cases[] = {
	{ confidence, "Confident", OK, "Confident", 0 },     /* notable, Confidence */
	{ confidence, "Speculative", OK, "Speculative", 0 }, /* notable, Confidence */
	{ confidence, "confident", OK, "Confident", 0 },
	{ confidence, "LIKELY", OK, "Likely", 0 },
	{ confidence, " Likely\r\n", OK, "Likely", 0 },
	{ confidence, "Wrong", OK, "Wrong", 1 },             /* all and large, Confidence (not in the set) */
	{ confidence, " 3900 synthetically generated training examples", OK,
	  "3900 synthetically generated training examples", 1 }, /* dirty, Confidence (shifted row) */
	{ confidence, "Confident ly", OK, "Confident ly", 1 },
	{ confidence, "", EMPTY, NULL, 0 },
	{ confidence, " ", EMPTY, NULL, 0 },
	{ accessibility, "Open weights (unrestricted)", OK, "Open weights (unrestricted)", 0 }, /* notable, Model accessibility */
	{ accessibility, "open WEIGHTS (Unrestricted)", OK, "Open weights (unrestricted)", 0 },
	{ accessibility, "API access", OK, "API access", 0 },
	{ accessibility, "SOTA improvement", OK, "SOTA improvement", 1 }, /* dirty, Model accessibility (shifted row) */
	{ accessibility, "Open weights", OK, "Open weights", 1 },
	{ NULL, "Anything", OK, "Anything", 1 },
};

/* A known list where exact and case-insensitive matches differ. */
static const char *const cased[] = { "ABC", "abc", "Abc", NULL };

static void test_enum(void)
{
	size_t i;
	sbuf out;
	int unknown, rc;

	sbuf_init(&out);
	for (i = 0; i < sizeof enum_cases / sizeof enum_cases[0]; i++) {
		const struct enum_case *c = &enum_cases[i];

		sbuf_reset(&out);
		sbuf_adds(&out, PRE);
		unknown = -1;
		rc = norm_enum(c->in, strlen(c->in), c->known, &out, &unknown);
		CHECK(rc == c->status, "norm_enum(\"%s\") is %s", shown(c->in),
		      status_name(c->status));
		CHECK(unknown == c->unknown, "norm_enum(\"%s\") unknown is %d",
		      shown(c->in), c->unknown);
		if (c->status == OK) {
			CHECK(!strncmp(out.data, PRE, strlen(PRE)) &&
			      !strcmp(out.data + strlen(PRE), c->out),
			      "norm_enum(\"%s\") gives \"%s\" (got \"%s\")",
			      shown(c->in), shown(c->out), shown(out.data));
		} else {
			CHECK_STR(out.data, PRE, "norm_enum(\"%s\") appends nothing",
				  shown(c->in));
		}
	}
	/* exact spelling wins over an earlier case-insensitive match */
	sbuf_reset(&out);
	rc = norm_enum("Abc", 3, cased, &out, &unknown);
	CHECK(rc == OK && !strcmp(out.data, "Abc") && !unknown,
	      "exact match is preferred (got \"%s\")", out.data);
	sbuf_reset(&out);
	rc = norm_enum("aBC", 3, cased, &out, &unknown);
	CHECK(rc == OK && !strcmp(out.data, "ABC") && !unknown,
	      "first case-insensitive match otherwise (got \"%s\")", out.data);
	sbuf_reset(&out);
	rc = norm_enum("Likely", 6, confidence, &out, NULL);
	CHECK(rc == OK && !strcmp(out.data, "Likely"), "unknown may be NULL");
	sbuf_reset(&out);
	rc = norm_enum("Likely\0x", 8, confidence, &out, &unknown);
	CHECK(rc == OK && unknown == 1 && out.len == 8,
	      "a NUL byte makes the value unknown, kept whole");
	sbuf_release(&out);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static int norm_text_fn(const char *s, size_t len, sbuf *out, char *why)
{
	(void)why;
	return norm_text(s, len, out);
}

static const struct text_case text_cases[] = {
	{ "MegaScale (Production)", OK, "MegaScale (Production)" }, /* notable, Model */
	{ "ALLaM\xc2\xa0" "adapted 70B ", OK, "ALLaM\xc2\xa0" "adapted 70B" }, /* all, Model: U+00A0 inside is kept */
	{ "Dan\xc2\xa0" "C.\xc2\xa0" "Cire\xc5\x9f" "an, Alessandro\xc2\xa0" "Giusti", OK,
	  "Dan\xc2\xa0" "C.\xc2\xa0" "Cire\xc5\x9f" "an, Alessandro\xc2\xa0" "Giusti" }, /* notable, Authors */
	{ " Y. LeCun", OK, "Y. LeCun" },    /* dirty, Organization categorization (shifted row) */
	{ "  hello  ", OK, "hello" },
	{ "\xc2\xa0hello\xc2\xa0", OK, "hello" },
	{ "\xc2\xa0\xc2\xa0hello \xc2\xa0", OK, "hello" },
	{ "caf\xc3\xa0", OK, "caf\xc3\xa0" },   /* "cafà": A0 ends a letter, not a space */
	{ "\xc3\xa0", OK, "\xc3\xa0" },
	{ "a\r\nb", OK, "a\nb" },
	{ "a\rb", OK, "a\nb" },
	{ "a\r\n\r\nb", OK, "a\n\nb" },
	{ "a\r\rb", OK, "a\n\nb" },
	{ "a\n\rb", OK, "a\n\nb" },
	{ "\r\nFrom Hugging Face:\r\n\"Falcon-180B\"\r\n", OK, "From Hugging Face:\n\"Falcon-180B\"" },
	{ "a \t b", OK, "a \t b" },         /* inner white space is kept */
	{ "", EMPTY, NULL },
	{ " \t\r\n\v\f", EMPTY, NULL },
	{ "\xc2\xa0", EMPTY, NULL },
};

static void test_text_extra(void)
{
	sbuf out;

	sbuf_init(&out);
	CHECK(norm_text("a\0b", 3, &out) == OK && out.len == 3 &&
	      !memcmp(out.data, "a\0b", 3), "a NUL byte inside text is kept");
	sbuf_reset(&out);
	CHECK(norm_text("ab\r", 2, &out) == OK && !strcmp(out.data, "ab"),
	      "only len bytes are read");
	sbuf_reset(&out);
	CHECK(norm_text("\xc2", 1, &out) == OK && out.len == 1,
	      "a lone C2 byte is not white space");
	sbuf_reset(&out);
	CHECK(norm_text(NULL, 0, &out) == EMPTY, "NULL text of length 0 is empty");
	sbuf_release(&out);
}

static void test_fold_equal(void)
{
	static const struct {
		const char *a, *b;
		int equal;
	} cases[] = {
		{ "a  b", "a b", 1 },
		{ "a\r\nb", "a\nb", 1 },
		{ "a\rb", "a\nb", 1 },
		{ "a\nb", "a b", 1 },
		{ "a\n\n\tb", "a b", 1 },
		{ "  x ", "x", 1 },
		{ "\xc2\xa0x\xc2\xa0", "x", 1 },
		/* notable, Authors, with and without U+00A0 */
		{ "Dan\xc2\xa0" "C.\xc2\xa0" "Cire\xc5\x9f" "an", "Dan C. Cire\xc5\x9f" "an", 1 },
		/* dirty vs notable 2025-05-06: a shifted cell kept its leading space */
		{ " Abhimanyu Dubey", "Abhimanyu Dubey", 1 },
		{ "", "   ", 1 },
		{ "", "", 1 },
		{ "caf\xc3\xa0", "caf\xc3", 0 },
		{ "a b", "ab", 0 },
		{ "a", "A", 0 },
		{ "a b", "a b c", 0 },
		{ "ab", "a", 0 },
		{ "", "x", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *a = cases[i].a, *b = cases[i].b;

		CHECK(norm_text_fold_equal(a, strlen(a), b, strlen(b)) ==
		      cases[i].equal, "fold_equal(\"%s\", \"%s\") is %d",
		      shown(a), shown(b), cases[i].equal);
		CHECK(norm_text_fold_equal(b, strlen(b), a, strlen(a)) ==
		      cases[i].equal, "fold_equal(\"%s\", \"%s\") is %d",
		      shown(b), shown(a), cases[i].equal);
	}
	CHECK(norm_text_fold_equal(NULL, 0, " ", 1), "NULL of length 0 is empty");
	CHECK(norm_text_fold_equal("ab", 1, "a", 1), "only len bytes are read");
	CHECK(!norm_text_fold_equal("a\0b", 3, "a b", 3), "NUL is not white space");
}

/* ------------------------------------------------------------------ */
/* Organisation alignment                                              */
/* ------------------------------------------------------------------ */

static void test_org_align(void)
{
	static const struct {
		const char *orgs, *cats, *countries;
		size_t n;
		int cats_aligned, countries_aligned;
	} cases[] = {
		{ "ByteDance,Peking University", "Industry,Academia", "China,China", 2, 1, 1 },
		/* notable 2025-05-06, EXAONE-like single organisation */
		{ "LG AI Research", "Industry", "Korea (Republic of)", 1, 1, 1 },
		/* all, 6-Layer-Tensor-Transformer+AdaHessian: the comma in
		 * "NERSC, Lawrence Berkeley National Laboratory" makes three
		 * organisations for two categories and two countries */
		{ "NERSC,Lawrence Berkeley National Laboratory,University of California (UC) Berkeley",
		  "Government,Academia", "United States of America,United States of America", 3, 0, 0 },
		/* notable 2025-05-06, FunSearch: one organisation, five countries */
		{ "Google DeepMind", "Industry",
		  "United States of America,United Kingdom of Great Britain and Northern Ireland,Multinational,Canada,France",
		  1, 1, 0 },
		{ "a,b", NULL, "x,y", 2, 0, 1 },
		{ "a,b", "", "", 2, 0, 0 },
		{ "a,b", "x, ,y", "x,,y", 2, 1, 1 },
		{ NULL, NULL, NULL, 0, 1, 1 },
		{ "", "", NULL, 0, 1, 1 },
		{ "", "Industry", NULL, 0, 0, 1 },
	};
	size_t i, n;
	int ca, cc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ca = cc = -1;
		n = norm_org_align(cases[i].orgs, cases[i].cats,
				   cases[i].countries, &ca, &cc);
		CHECK(n == cases[i].n && ca == cases[i].cats_aligned &&
		      cc == cases[i].countries_aligned,
		      "norm_org_align(\"%s\" | \"%s\" | \"%s\") = %zu, %d, %d "
		      "(got %zu, %d, %d)",
		      shown(cases[i].orgs), shown(cases[i].cats),
		      shown(cases[i].countries),
		      cases[i].n, cases[i].cats_aligned,
		      cases[i].countries_aligned, n, ca, cc);
	}
	CHECK(norm_org_align("a,b,c", "x,y,z", "p", NULL, NULL) == 3,
	      "the flags may be NULL");
}

/* why may be NULL everywhere; a reason fits NORM_WHY_LEN. */
static void test_why(void)
{
	sbuf out;
	char why[NORM_WHY_LEN];

	sbuf_init(&out);
	CHECK(norm_number("x", 1, &out, NULL) == INVALID, "number: why may be NULL");
	CHECK(norm_date("x", 1, &out, NULL) == INVALID, "date: why may be NULL");
	CHECK(norm_bool("x", 1, &out, NULL) == INVALID, "bool: why may be NULL");
	CHECK(norm_list("x", 1, &out, NULL) == OK, "list: why may be NULL");
	memcpy(why, "stale", 6);
	CHECK(norm_number("1", 1, &out, why) == OK && why[0] == '\0',
	      "why is cleared on success");
	CHECK(norm_number("1,23", 4, &out, why) == INVALID &&
	      strlen(why) < NORM_WHY_LEN && strstr(why, "thousands"),
	      "number reason names the problem (\"%s\")", why);
	CHECK(norm_date("2023-02-29", 10, &out, why) == INVALID &&
	      strstr(why, "day"), "date reason names the problem (\"%s\")", why);
	sbuf_release(&out);
}

/* ---- quantities (numbers with a unit, the hardware export) ---- */

struct quantity_case {
	const char *unit;      /* unit=NAME of the column */
	const char *in;        /* the cell */
	int status;            /* NORM_OK, NORM_EMPTY or NORM_INVALID */
	const char *out;       /* the stored text, in the column's unit */
};

static const struct quantity_case quantity_cases[] = {
	/* the real cells: bare numbers in the header's unit; the stored text is
	 * norm_number_format's ("%.15g" layout: 1.5e+16) */
	{ "byte", "80000000000.0", NORM_OK, "80000000000" },
	{ "byte", "  ", NORM_EMPTY, NULL },
	{ "byte", "80 GB", NORM_OK, "80000000000" },
	{ "byte", "80GB", NORM_OK, "80000000000" },
	{ "byte", "80 GiB", NORM_OK, "85899345920" },
	{ "byte", "512 bytes", NORM_OK, "512" },
	{ "byte", "1.5 kB", NORM_OK, "1500" },
	{ "byte", "80 Gb", NORM_INVALID, NULL },
	{ "byte", "80 GW", NORM_INVALID, NULL },
	{ "byte", "GB", NORM_INVALID, NULL },
	{ "FLOP/s", "989400000000000.0", NORM_OK, "989400000000000" },
	{ "FLOP/s", "989.4 TFLOP/s", NORM_OK, "989400000000000" },
	{ "FLOP/s", "1.5e+16", NORM_OK, "1.5e+16" },
	{ "FLOP/s", "2 PFLOPS", NORM_OK, "2e+15" },
	{ "FLOP/s", "2 TOPS", NORM_INVALID, NULL },
	{ "OP/s", "1979 TOPS", NORM_OK, "1.979e+15" },
	{ "OP/s", "1979 TOP/s", NORM_OK, "1.979e+15" },
	{ "byte/s", "3.35 TB/s", NORM_OK, "3350000000000" },
	{ "byte/s", "900 GB/s", NORM_OK, "900000000000" },
	{ "byte/s", "900 Gb/s", NORM_INVALID, NULL },
	{ "bit/s", "400 Gbit/s", NORM_OK, "400000000000" },
	{ "bit/s", "400 Gb/s", NORM_OK, "400000000000" },
	{ "bit/s", "400 Gbps", NORM_OK, "400000000000" },
	{ "bit/s", "400 GB/s", NORM_INVALID, NULL },
	{ "bit", "5120 bits", NORM_OK, "5120" },
	{ "W", "700.0", NORM_OK, "700" },
	{ "W", "700 W", NORM_OK, "700" },
	{ "W", "1.4 kW", NORM_OK, "1400" },
	{ "W", "700 watts", NORM_OK, "700" },
	{ "W", "700 V", NORM_INVALID, NULL },
	{ "USD", "33600.0", NORM_OK, "33600" },
	{ "USD", "$33,600", NORM_OK, "33600" },
	{ "USD", "US$33600", NORM_OK, "33600" },
	{ "USD", "33600 USD", NORM_OK, "33600" },
	{ "USD", "33600 EUR", NORM_INVALID, NULL },
	{ "USD", "$", NORM_INVALID, NULL },
	{ "mm2", "814.0", NORM_OK, "814" },
	{ "mm2", "814 mm^2", NORM_OK, "814" },
	{ "mm2", "814 mm\xc2\xb2", NORM_OK, "814" },
	{ "mm2", "814 mm2", NORM_OK, "814" },
	{ "mm2", "814 cm^2", NORM_INVALID, NULL },
	{ "MHz", "1665.0", NORM_OK, "1665" },
	{ "MHz", "1665 MHz", NORM_OK, "1665" },
	{ "MHz", "2.1 GHz", NORM_OK, "2100" },
	{ "MHz", "500 kHz", NORM_OK, "0.5" },
	{ "MHz", "2.1 GB", NORM_INVALID, NULL },
	{ "nm", "5.0", NORM_OK, "5" },
	{ "nm", "5 nm", NORM_OK, "5" },
	{ "nm", "5nm", NORM_OK, "5" },
	{ "nm", "0.25 \xc2\xb5m", NORM_OK, "250" },
	{ "nm", "5 mm", NORM_OK, "5000000" },
	{ "nm", "5 km", NORM_INVALID, NULL },
	{ "nm", "five nm", NORM_INVALID, NULL },
};

static void test_quantity(void)
{
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < sizeof(quantity_cases) / sizeof(quantity_cases[0]); i++) {
		const struct quantity_case *c = &quantity_cases[i];
		const norm_unit *unit = norm_unit_named(c->unit);
		char why[NORM_WHY_LEN];
		int status;

		if (!CHECK(unit != NULL, "unit %s known", c->unit))
			continue;
		sbuf_reset(&out);
		why[0] = '\0';
		status = norm_quantity(unit, c->in, strlen(c->in), &out, why);
		CHECK(status == c->status, "'%s' in %s: status %d, want %d (%s)", c->in, c->unit,
		      status, c->status, why);
		if (c->out)
			CHECK_STR(out.data ? out.data : "", c->out, "'%s' in %s", c->in, c->unit);
		else
			CHECK(out.len == 0, "'%s' in %s: nothing appended", c->in, c->unit);
		if (c->status == NORM_INVALID)
			CHECK(strstr(why, c->unit) != NULL, "'%s': the reason names the unit (%s)",
			      c->in, why);
	}
	sbuf_release(&out);
}

/* A rollup field's cells (Training dataset size (gradients) of the
 * 2025-11-01 bundle: Airtable repeats a linked record's number) */
static const struct text_case rollup_cases[] = {
	{ "15600000000000", OK, "15600000000000" },        /* Llama 3.1-405B */
	{ "1,234", OK, "1234" },                            /* thousands: one number, as norm_number */
	{ "929000,929000", OK, "929000" },                  /* all, the same number twice: one value */
	{ "20,20", OK, "20" },                              /* all, line 22048 */
	{ "2590000000000,2592000000000", OK, "2590000000000,2592000000000" }, /* BlueLM 7B: both kept */
	{ "12000,800", OK, "12000,800" },                   /* all, line 22421: in cell order */
	{ "1e+3,1000.0,2e3", OK, "1000,2000" },             /* equal at 15 digits: once */
	{ " 5 , 6 ", OK, "5,6" },                           /* items trimmed */
	{ "", EMPTY, NULL },
	{ "929000,", INVALID, NULL },                       /* an empty item */
	{ "929000,Theseus", INVALID, NULL },                /* not a number */
	{ ",", INVALID, NULL },
};

static int norm_rollup_fn(const char *s, size_t len, sbuf *out, char *why)
{
	return norm_number_rollup(NULL, s, len, out, why);
}

/* Every unit named in norm_unit_names() is known by that name, and an
 * unknown name is not. */
static void test_unit_names(void)
{
	static const char *const names[] = { "byte", "FLOP/s", "OP/s", "byte/s", "bit/s", "bit",
					     "W", "USD", "mm2", "MHz", "nm" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const norm_unit *unit = norm_unit_named(names[i]);

		CHECK(unit && !strcmp(norm_unit_name(unit), names[i]), "unit %s", names[i]);
		CHECK(strstr(norm_unit_names(), names[i]) != NULL, "%s listed", names[i]);
	}
	CHECK(norm_unit_named("GB") == NULL, "GB is a spelling, not a unit name");
	CHECK(norm_unit_named("") == NULL, "no unit named ''");
}

/*
 * A cell of no bytes is empty to every normaliser, with nothing appended
 * and nothing unknown: the parse relies on it to skip the normaliser for
 * the empty cells of a row (read/parse.c, empty_cell()).
 */
static void test_empty_cells(void)
{
	static const char *const known[] = { "Confident", NULL };
	static const char cell[1] = "";
	const char *units = norm_unit_names();
	char why[NORM_WHY_LEN], name[32];
	sbuf out;
	int unknown = 0, all = 1;
	size_t n;

	sbuf_init(&out);
	sbuf_adds(&out, "kept");
	CHECK(norm_text(cell, 0, &out) == NORM_EMPTY && !strcmp(out.data, "kept"), "text: empty");
	CHECK(norm_list(cell, 0, &out, why) == NORM_EMPTY && !strcmp(out.data, "kept"),
	      "list: empty");
	CHECK(norm_number(cell, 0, &out, why) == NORM_EMPTY && !strcmp(out.data, "kept"),
	      "number: empty");
	CHECK(norm_date(cell, 0, &out, why) == NORM_EMPTY && !strcmp(out.data, "kept"),
	      "date: empty");
	CHECK(norm_bool(cell, 0, &out, why) == NORM_EMPTY && !strcmp(out.data, "kept"),
	      "bool: empty");
	CHECK(norm_enum(cell, 0, known, &out, &unknown) == NORM_EMPTY && !unknown &&
	      !strcmp(out.data, "kept"), "enumeration: empty, not unknown");
	/* every unit of quantities ("byte, FLOP/s, ...") */
	while (*units) {
		n = strcspn(units, ",");
		mc_fmt(name, sizeof(name), "%.*s", (int)n, units);
		if (norm_quantity(norm_unit_named(name), cell, 0, &out, why) != NORM_EMPTY ||
		    strcmp(out.data, "kept")) {
			CHECK(0, "quantity in %s: empty", name);
			all = 0;
		}
		units += n;
		units += strspn(units, ", ");
	}
	CHECK(all, "quantities in every unit: empty (%s)", norm_unit_names());
	sbuf_release(&out);
}

int main(void)
{
	RUN(norm_number, number_cases);
	test_number_values();
	test_number_format();
	test_number_format_printf();
	test_number_compared();
	test_number_equal();
	test_number_text_equal();
	test_number_locale();
	RUN(norm_date, date_cases);
	test_date_struct();
	RUN(norm_bool, bool_cases);
	RUN(norm_list_fn, list_cases);
	test_enum();
	RUN(norm_text_fn, text_cases);
	test_text_extra();
	test_fold_equal();
	test_org_align();
	test_why();
	test_quantity();
	RUN(norm_rollup_fn, rollup_cases);
	test_unit_names();
	test_empty_cells();
	return unit_done();
}
