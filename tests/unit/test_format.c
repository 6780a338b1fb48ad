/*
 * Unit tests for format (the values of a page) and template (page text
 * with placeholders): tables of input -> expected text. The figures come
 * from the seed pages and the bundled exports (Llama 2-70B, GPT-4, ...).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/format.h"
#include "values/value.h"
#include "publish/template.h"
#include "unit.h"

typedef void number_fn(const format_lang *, double, sbuf *);

struct number_case {
	double in;
	const char *out;
};

static void check_numbers(const char *what, const char *lang, number_fn *fn,
			  const struct number_case *cases, size_t n)
{
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < n; i++) {
		sbuf_reset(&out);
		sbuf_adds(&out, "<");
		fn(format_lang_of(lang), cases[i].in, &out);
		CHECK_STR(out.data + 1, cases[i].out, "%s %s(%.17g)", lang, what, cases[i].in);
	}
	sbuf_release(&out);
}

static void watts(const format_lang *l, double x, sbuf *out)
{
	format_si(l, x, "W", out);
}

static void decimal_1_trim(const format_lang *l, double x, sbuf *out)
{
	format_decimal(l, x, 1, 1, out);
}

static void decimal_1_keep(const format_lang *l, double x, sbuf *out)
{
	format_decimal(l, x, 1, 0, out);
}

#define CASES(a) a, sizeof(a) / sizeof(a[0])
#define EN format_lang_of("en")

/* A number in each language: nl NULL where only English is checked. */
struct number_pair {
	double in;
	const char *en, *nl;
};

static void check_pairs(const char *what, number_fn *fn, const struct number_pair *cases,
			size_t n)
{
	struct number_case one;
	size_t i;

	for (i = 0; i < n; i++) {
		one.in = cases[i].in;
		one.out = cases[i].en;
		check_numbers(what, "en", fn, &one, 1);
		one.out = cases[i].nl;
		if (one.out)
			check_numbers(what, "nl", fn, &one, 1);
	}
}

/* Numbers in English and as a Dutch reader writes them: '.' between
 * groups, ',' before the decimals, miljoen, miljard, biljoen after a count
 * (a Dutch "biljoen" is a million million). */
static void test_numbers(void)
{
	static const struct number_pair counts[] = {
		{ 530000000000, "530B", "530 miljard" },        /* the seed */
		{ 70000000000, "70B", NULL },
		{ 1500000000, "1.5B", "1,5 miljard" },
		{ 6738415616, "6.74B", "6,74 miljard" },
		{ 12500000000, "12.5B", NULL },
		{ 175000000000, "175B", NULL },
		{ 1760000000000, "1.76T", NULL },
		{ 15600000000000, "15.6T", "15,6 biljoen" },    /* Llama 3.1-405B's dataset */
		{ 117000000, "117M", "117 miljoen" },
		{ 999600000000, "1T", NULL },                   /* rounds up into the next unit */
		{ 999999, "1M", NULL },
		{ 60000, "60,000", "60.000" },                  /* below a million: the whole number */
		{ 340, "340", "340" },
		{ 1e15, "1,000T", NULL },
	};
	static const struct number_pair powers[] = {
		{ 3.9e24, "3.9 × 10²⁴", "3,9 × 10²⁴" },         /* the seed */
		{ 1e23, "1 × 10²³", "1 × 10²³" },
		{ 5.18400000000001e25, "5.18 × 10²⁵", "5,18 × 10²⁵" },
		{ 1.0692e25, "1.07 × 10²⁵", NULL },
		{ 9.999e22, "1 × 10²³", NULL },
		{ 3e10, "3 × 10¹⁰", NULL },
		{ 2.5e-3, "2.5 × 10⁻³", "2,5 × 10⁻³" },
		{ 8.01e24, "8.01 × 10²⁴", NULL },
	};
	static const struct number_pair whole[] = {
		{ 12288, "12,288", "12.288" },                  /* the seed */
		{ 302, "302", NULL },
		{ 1000, "1,000", NULL },
		{ 1234567.8, "1,234,568", "1.234.568" },
		{ 0.25, "0.25", "0,25" },
		{ 0, "0", NULL },
		{ -4096, "-4,096", "-4.096" },
		{ 15600000000000, "15,600,000,000,000", "15.600.000.000.000" },
		{ 1e22, "1 × 10²²", "1 × 10²²" },               /* from 10^15 up: a power of ten */
		{ 0.004, "4 × 10⁻³", "4 × 10⁻³" },              /* below 0.01: a power of ten */
		{ 582299563.0446011, "582,299,563", NULL },
		{ 0.4042, "0.4", NULL },
	};
	static const struct number_pair percents[] = {
		{ 0.48, "48.0%", "48,0%" },                     /* the seed */
		{ 0.484, "48.4%", NULL },
		{ 0.41899, "41.9%", "41,9%" },
		{ 1, "100.0%", NULL },
	};
	static const struct number_pair power[] = {
		{ 9728028.18454986, "9.7 MW", "9,7 MW" },       /* the seed */
		{ 886000, "886 kW", NULL },
		{ 125000000, "125 MW", "125 MW" },
		{ 99960000, "100 MW", NULL },
		{ 25000000, "25.0 MW", NULL },
		{ 1200000000, "1.2 GW", "1,2 GW" },
		{ 50, "50.0 W", NULL },
	};
	static const struct number_pair bytes[] = {
		{ 265e9, "265 GB", NULL },
		{ 3.5e9, "3.5 GB", "3,5 GB" },
		{ 4e9, "4 GB", NULL },
		{ 1.06e12, "1,060 GB", "1.060 GB" },
		{ 9.96e9, "10 GB", NULL },
		{ 60e6, "60 MB", NULL },
		{ 500, "1 KB", NULL },
	};
	static const struct number_pair dollars[] = {
		{ 2614019.245, "$2,614,019", "$ 2.614.019" },   /* the seed */
		{ 1099605.4, "$1,099,605", NULL },
		{ 12, "$12", "$ 12" },
	};
	static const struct number_pair decimals[] = {
		{ 4.2, "4.2", NULL },
		{ 4.0, "4", NULL },
		{ -0.04, "0", NULL },
		{ -1234.5, "-1,234.5", NULL },
	};
	static const struct number_pair keep[] = { { 48, "48.0", NULL }, { 1234, "1,234.0", NULL } };
	static const struct number_case english[] = {
		{ 15600000000000, "15,600,000,000,000" },
		{ 582299563.0446011, "582,299,563" },
	};

	check_pairs("format_count", format_count, CASES(counts));
	check_pairs("format_power_of_ten", format_power_of_ten, CASES(powers));
	check_pairs("format_number", format_number, CASES(whole));
	check_pairs("format_percent", format_percent, CASES(percents));
	check_pairs("format_si W", watts, CASES(power));
	check_pairs("format_bytes", format_bytes, CASES(bytes));
	check_pairs("format_dollars", format_dollars, CASES(dollars));
	check_pairs("format_decimal(1, trim)", decimal_1_trim, CASES(decimals));
	check_pairs("format_decimal(1, keep)", decimal_1_keep, CASES(keep));
	/* a language without a formatter of its own writes English */
	check_numbers("format_number", "fr", format_number, CASES(english));
}

/* Dates at each precision, booleans: both languages. */
static void test_dates_booleans(void)
{
	static const struct { const char *lang, *iso; int month_only; const char *out; } dates[] = {
		{ "en", "2024-02-23", 0, "23 February 2024" },
		{ "nl", "2024-02-23", 0, "23 februari 2024" },
		{ "en", "2024-02-23", 1, "February 2024" },
		{ "nl", "2026-05-25", 1, "mei 2026" },
		{ "en", "2024-02", 0, "February 2024" },
		{ "nl", "2024-03", 0, "maart 2024" },
		{ "en", "2024", 0, "2024" },
		{ "nl", "2024", 1, "2024" },
		/* Last modified: a date-time, shown as its day */
		{ "en", "2025-01-19T23:31:32+00:00", 0, "19 January 2025" },
		{ "nl", "2025-10-16T15:12:24+00:00", 0, "16 oktober 2025" },
		{ "nl", "not a date", 0, "" },
	};
	sbuf out;
	size_t i;

	sbuf_init(&out);
	for (i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
		int written;

		sbuf_reset(&out);
		sbuf_addc(&out, '<');
		written = format_date(format_lang_of(dates[i].lang), dates[i].iso, dates[i].month_only,
				      &out);
		CHECK_STR(out.data + 1, dates[i].out, "%s format_date(%s, %d)", dates[i].lang,
			  dates[i].iso, dates[i].month_only);
		CHECK(written == (dates[i].out[0] != '\0'), "format_date(%s) says whether it wrote",
		      dates[i].iso);
	}
	sbuf_reset(&out);
	format_bool(format_lang_of("en"), 1, &out);
	format_bool(format_lang_of("en"), 0, &out);
	format_bool(format_lang_of("nl"), 1, &out);
	format_bool(format_lang_of("nl"), 0, &out);
	CHECK_STR(out.data, "YesNoJaNee", "format_bool in English and Dutch");
	sbuf_release(&out);
}

struct text_case {
	const char *in;
	const char *out;
};

static void test_text(void)
{
	static const struct text_case lists[] = {
		{ "China,China", "China" },                       /* the seed */
		{ "ByteDance,Peking University", "ByteDance,Peking University" },
		{ "Industry,Industry,Academia", "Industry,Academia" },
		{ "a,b,a,c,b", "a,b,c" },
		{ "ab,a,abc,a", "ab,a,abc" },
		{ "", "" },
	};
	static const struct text_case folds[] = {
		{ "vescale\nThe model itself", "vescale The model itself" },   /* the seed */
		{ "PFLOP/sec:\n2166.3 = 3.9e+24.\nAs an upper bound, say 8e+24. ",
		  "PFLOP/sec: 2166.3 = 3.9e+24. As an upper bound, say 8e+24." },
		{ "a  b \n\n c ", "a  b c" },
		{ "\n  x", "x" },
		{ "one line", "one line" },
		{ "tab\tkept \t and\r\nfolded\t\n", "tab\tkept \t and folded" },
		{ " \t\r\n ", "" },
		{ "", "" },
	};
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		sbuf_reset(&out);
		format_list_unique(lists[i].in, &out);
		CHECK_STR(out.data, lists[i].out, "format_list_unique(\"%s\")", lists[i].in);
	}
	for (i = 0; i < sizeof(folds) / sizeof(folds[0]); i++) {
		sbuf_reset(&out);
		format_fold(folds[i].in, &out);
		CHECK_STR(out.data, folds[i].out, "format_fold case %zu", i);
	}
	sbuf_reset(&out);
	sbuf_adds(&out, "x SOTA improvement");
	format_lower_first(&out, 2);
	CHECK_STR(out.data, "x SOTA improvement", "format_lower_first keeps an acronym (the seed's slip)");
	sbuf_reset(&out);
	sbuf_adds(&out, "x Industry");
	format_lower_first(&out, 2);
	CHECK_STR(out.data, "x industry", "format_lower_first lower-cases one letter");
	format_lower_first(&out, 99);
	CHECK_STR(out.data, "x industry", "format_lower_first past the end changes nothing");
	{
		static const struct { const char *in; int sentence, lower; const char *en, *nl; } joins[] = {
			{ "ByteDance,Peking University", 0, 0, "ByteDance, Peking University",
			  "ByteDance, Peking University" },
			{ "ByteDance,Peking University", 1, 0, "ByteDance and Peking University",
			  "ByteDance en Peking University" },
			{ "Industry,Academia", 1, 1, "industry and academia", "industry en academia" },
			{ "A,B,C", 1, 0, "A, B and C", "A, B en C" },
			{ "SOTA improvement,Highly cited", 1, 1, "SOTA improvement and highly cited",
			  "SOTA improvement en highly cited" },
			{ "China", 1, 1, "china", "china" },
			{ "", 1, 0, "", "" },
		};

		for (i = 0; i < sizeof(joins) / sizeof(joins[0]); i++) {
			sbuf_reset(&out);
			format_list_join(format_lang_of("en"), joins[i].in, joins[i].sentence, joins[i].lower, &out);
			CHECK_STR(out.len ? out.data : "", joins[i].en, "format_list_join en case %zu", i);
			sbuf_reset(&out);
			format_list_join(format_lang_of("nl"), joins[i].in, joins[i].sentence, joins[i].lower, &out);
			CHECK_STR(out.len ? out.data : "", joins[i].nl, "format_list_join nl case %zu", i);
		}
	}
	sbuf_release(&out);
}

/* ---- templates ---- */

static const char *lookup(void *ctx, const char *name, size_t len)
{
	static const char *const values[][2] = {
		{ "name", "MegaScale (Production)" },
		{ "countries", "China" },
		{ "month", "February 2024" },
		{ "empty", "" },
	};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if (strlen(values[i][0]) == len && !memcmp(values[i][0], name, len))
			return values[i][1];
	return NULL;
}

static void test_templates(void)
{
	static const struct { const char *tmpl; int rc; const char *out; } cases[] = {
		{ "{name} was published{[}, in {countries}{]}{[}, in {month}{]}.", 0,
		  "MegaScale (Production) was published, in China, in February 2024." },
		{ "{name} was published{[} by {organisations}{]}{[}, in {countries}{]}.", 0,
		  "MegaScale (Production) was published, in China." },
		{ "{name} has {params} parameters.", 1, "" },
		{ "{[}{empty} is empty{]}and gone", 0, "and gone" },
		{ "{empty} is required", 1, "" },
		{ "a {{brace} and }", 0, "a {brace} and }" },
		{ "no placeholder", 0, "no placeholder" },
		{ "{Name}", -1, "" },
		{ "{", -1, "" },
		{ "{[}{[}x{]}{]}", -1, "" },
		{ "x{]}", -1, "" },
		{ "{[}x", -1, "" },
		/* a template at fault is -1 even past a missing value */
		{ "{params} then {", -1, "" },
		{ "{params}{[}{[}x{]}{]}", -1, "" },
		{ "{params} x{]}", -1, "" },
		{ "{params}{[}x", -1, "" },
		{ "{[}{empty}{]}{Name}", -1, "" },
		{ "{name}{[} {empty}{]}{[} in {month}{]}{params}.", 1, "" },
	};
	size_t i;
	sbuf out;
	mc_err err = { "" };

	sbuf_init(&out);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		sbuf_reset(&out);
		sbuf_adds(&out, "<");
		rc = template_expand(cases[i].tmpl, lookup, NULL, &out);
		CHECK(rc == cases[i].rc, "template_expand(\"%s\") returns %d (got %d)", cases[i].tmpl,
		      cases[i].rc, rc);
		CHECK_STR(out.data + 1, cases[i].out, "template_expand case %zu writes its text", i);
		{
			/* the same from the template's tokens, made once */
			template_compiled *c = template_compile(cases[i].tmpl);

			sbuf_reset(&out);
			sbuf_adds(&out, "<");
			rc = template_expand_compiled(c, lookup, NULL, &out);
			CHECK(rc == cases[i].rc, "compiled \"%s\" returns %d (got %d)",
			      cases[i].tmpl, cases[i].rc, rc);
			CHECK_STR(out.data + 1, cases[i].out, "compiled case %zu writes its text", i);
			template_compiled_free(c);
		}
		CHECK((template_check(cases[i].tmpl, NULL, NULL, &err) == 0) ==
		      (cases[i].rc >= 0), "template_check agrees on \"%s\"", cases[i].tmpl);
	}
	CHECK(template_placeholders_within("Het werd gepubliceerd in {month}.",
					   "{name} was published in {month}.") == 1,
	      "a translation may leave a placeholder out");
	CHECK(template_placeholders_within("{params} {name}", "{name} was published") == 0,
	      "a translation may not name a placeholder the source lacks");
	CHECK(template_placeholders_within("{oops", "{name}") == -1, "a broken template is -1");
	CHECK(template_check("{[}x", NULL, NULL, &err) == -1, "an open group is refused");
	CHECK_STR(err.msg, "an optional group is not closed", "template_check says why");
	CHECK(template_check("x{]}", NULL, NULL, &err) == -1, "a group end alone is refused");
	CHECK_STR(err.msg, "an optional group ends that never began", "template_check says why");
	sbuf_reset(&out);
	template_add_text(&out, "  a {b}\n\t c ", strlen("  a {b}\n\t c "));
	template_add_placeholder(&out, "name");
	template_fold_space(&out);
	CHECK_STR(out.data, "a {{b} c {name}", "building: braces doubled, white space folded");
	sbuf_release(&out);
}

/* Any field's stored value as every output shows it (format_value): by
 * the field's type in pipelines/ (a field the map lacks: by what its text
 * reads as) and the unit its name gives; both languages. */
static void test_field_values(void)
{
	static const struct { const char *field, *value, *en, *nl; } cases[] = {
		{ "Parameters", "40000000000", "40B", "40 miljard" },
		{ "Training compute (FLOP)", "3.9e+24", "3.9 × 10²⁴ FLOP", "3,9 × 10²⁴ FLOP" },
		{ "Training compute upper bound", "1e+23", "1 × 10²³", "1 × 10²³" },
		{ "Finetune compute (FLOP)", "9.4e+22", "9.4 × 10²² FLOP", "9,4 × 10²² FLOP" },
		{ "Training compute cost (2023 USD)", "2614019.245", "$2,614,019", "$ 2.614.019" },
		{ "Hardware acquisition cost", "582299563.0446011", "$582,299,563", "$ 582.299.563" },
		{ "Training dataset size (total)", "1400000000000", "1.4T", "1,4 biljoen" },
		{ "Training power draw (W)", "10800000", "10.8 MW", "10,8 MW" },
		{ "Citations", "10079", "10,079", "10.079" },
		{ "Epochs", "2.5", "2.5", "2,5" },
		{ "Publication date", "2024-07-16", "16 July 2024", "16 juli 2024" },
		{ "Publication date", "2024-07", "July 2024", "juli 2024" },
		{ "Last modified", "2025-01-19T23:31:32+00:00", "19 January 2025", "19 januari 2025" },
		{ "Frontier model", "True", "Yes", "Ja" },
		{ "Open model weights?", "False", "No", "Nee" },
		{ "Organization", "Google,DeepMind,Google", "Google, DeepMind", "Google, DeepMind" },
		{ "Confidence", "Likely", "Likely", "Likely" },
		{ "Authors", "A\nB", "A B", "A B" },
		/* text is text, numbers in it too */
		{ "Parameters notes", "405000000000", "405000000000", "405000000000" },
		/* fields of the hardware map */
		{ "Memory (bytes)", "80000000000", "80 GB", "80 GB" },
		{ "Memory bandwidth (byte/s)", "3350000000000", "3.4 TB/s", "3,4 TB/s" },
		{ "FP8 performance (FLOP/s)", "1.979e+15", "1.98 × 10¹⁵ FLOP/s", "1,98 × 10¹⁵ FLOP/s" },
		{ "Release price (USD)", "35000", "$35,000", "$ 35.000" },
		{ "Release date", "2022-03-22", "22 March 2022", "22 maart 2022" },
		/* a field no map names: what its text reads as */
		{ "Post-training compute (FLOP)", "9.4e+22", "9.4 × 10²² FLOP", "9,4 × 10²² FLOP" },
		{ "Some new count", "15600000000000", "15,600,000,000,000", "15.600.000.000.000" },
		{ "Some new flag", "True", "Yes", "Ja" },
		{ "Some new time", "2025-10-16T15:12:24+00:00", "16 October 2025", "16 oktober 2025" },
		{ "Some new words", "meta-llama", "meta-llama", "meta-llama" },
		{ "Citations", "", "", "" },
	};
	sbuf out;
	size_t i;

	sbuf_init(&out);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sbuf_reset(&out);
		sbuf_addc(&out, 'x');
		format_value(format_lang_of("en"), cases[i].field, cases[i].value, &out);
		CHECK_STR(out.data + 1, cases[i].en, "en format_value(%s, \"%s\")", cases[i].field,
			  cases[i].value);
		sbuf_reset(&out);
		sbuf_addc(&out, 'x');
		format_value(format_lang_of("nl"), cases[i].field, cases[i].value, &out);
		CHECK_STR(out.data + 1, cases[i].nl, "nl format_value(%s, \"%s\")", cases[i].field,
			  cases[i].value);
	}
	sbuf_release(&out);
}

/* Typed values: what a stored text reads as, and its JSON. */
static void test_values(void)
{
	static const struct { const char *field, *text; value_kind kind; const char *json; } cases[] = {
		{ "Parameters", "405000000000", VALUE_NUMBER, "405000000000" },
		{ "Training compute (FLOP)", "3.8e+25", VALUE_NUMBER, "3.8e+25" },
		{ "Hardware acquisition cost", "582299563.0446011", VALUE_NUMBER, "582299563.0446011" },
		{ "Frontier model", "True", VALUE_BOOL, "true" },
		{ "Foundation model", "False", VALUE_BOOL, "false" },
		{ "Publication date", "2024-07", VALUE_DATE, "\"2024-07\"" },
		{ "Organization", "Meta AI", VALUE_LIST, "\"Meta AI\"" },
		{ "Confidence", "Likely", VALUE_ENUM, "\"Likely\"" },
		{ "Parameters notes", "405", VALUE_TEXT, "\"405\"" },
		/* a number column's cell that is no number stays text */
		{ "Parameters", "about 7B", VALUE_TEXT, "\"about 7B\"" },
		{ "Memory (bytes)", "80000000000", VALUE_NUMBER, "80000000000" },
		{ "An extra column", "12", VALUE_NUMBER, "12" },
		{ "An extra column", "False", VALUE_BOOL, "false" },
		{ "An extra column", "2025-01-19T23:31:32+00:00", VALUE_DATE,
		  "\"2025-01-19T23:31:32+00:00\"" },
	};
	sbuf out;
	size_t i;

	sbuf_init(&out);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		typed_value v;

		value_read(value_kind_of_field(cases[i].field, cases[i].text), cases[i].text, &v);
		CHECK(v.kind == cases[i].kind, "%s \"%s\" reads as kind %d (got %d)", cases[i].field,
		      cases[i].text, (int)cases[i].kind, (int)v.kind);
		sbuf_reset(&out);
		value_json_of(cases[i].field, cases[i].text, strlen(cases[i].text), &out);
		CHECK_STR(out.data, cases[i].json, "value_json_of(%s, \"%s\")", cases[i].field,
			  cases[i].text);
	}
	{
		typed_value v;

		CHECK(value_read(VALUE_NUMBER, "3.90", &v) == 0 && v.decimals == 2 && v.number == 3.9,
		      "a number keeps its precision: 3.90 has two decimals");
		CHECK(value_read(VALUE_NUMBER, "3.9e+24", &v) == 0 && v.decimals == -1,
		      "a number in e-notation has no count of decimals");
		CHECK(value_read(VALUE_DATE, "2024-02", &v) == 0 && v.date.precision == DATE_MONTH,
		      "a date keeps its precision: 2024-02 is a month");
		CHECK(value_read(VALUE_DATE, "2025-01-19T23:31:32+00:00", &v) == 0 &&
		      v.date.precision == DATE_TIME && v.date.day == 19, "a date-time is a day and a time");
		CHECK(value_read(VALUE_BOOL, "Yes", &v) == -1 && v.kind == VALUE_TEXT,
		      "a stored boolean is True or False");
	}
	sbuf_reset(&out);
	value_json_of("Parameters", "", 0, &out);
	CHECK_STR(out.data, "null", "an empty cell is null");
	sbuf_release(&out);
}

/* format_fold's rule a byte at a time: runs of white space that hold a
 * line break become one space, the ends are trimmed. */
static void fold_by_rule(const char *s, sbuf *out)
{
	size_t i = 0, n = strlen(s), j, k;

	while (i < n && strchr(" \t\r\n", s[i]))
		i++;
	while (n > i && strchr(" \t\r\n", s[n - 1]))
		n--;
	while (i < n) {
		if (!strchr(" \t\r\n", s[i])) {
			sbuf_addc(out, s[i++]);
			continue;
		}
		for (j = i, k = 0; j < n && strchr(" \t\r\n", s[j]); j++)
			k |= s[j] == '\n' || s[j] == '\r';
		if (k)
			sbuf_addc(out, ' ');
		else
			sbuf_add(out, s + i, j - i);
		i = j;
	}
}

/* format_fold on 20,000 random strings of letters and white space (line
 * breaks among them) as the rule gives them. */
static void test_fold_random(void)
{
	static const char alphabet[] = "ab  \t\n\r.";
	unsigned long long state = 3;
	char text[40];
	size_t i, k, len, bad = 0;
	sbuf got, want;

	sbuf_init(&got);
	sbuf_init(&want);
	for (i = 0; i < 20000; i++) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		len = (size_t)(state >> 59) + (size_t)(state >> 40 & 7);
		for (k = 0; k < len; k++) {
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			text[k] = alphabet[(state >> 33) % (sizeof(alphabet) - 1)];
		}
		text[len] = '\0';
		sbuf_reset(&got);
		sbuf_reset(&want);
		format_fold(text, &got);
		fold_by_rule(text, &want);
		bad += got.len != want.len || memcmp(got.data, want.data, got.len) != 0;
	}
	CHECK(bad == 0, "format_fold on 20,000 random strings as the rule folds them (%zu differ)",
	      bad);
	sbuf_release(&got);
	sbuf_release(&want);
}

/* The three-digit rounding as the C library defines it: strtod() of
 * "%.2e" (what format_count and format_power_of_ten round as). */
static double libc_three_digits(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.2e", v);
	return strtod(buf, NULL);
}

/* format_count as it reads with libc_three_digits(). */
static void libc_count(double v, sbuf *out)
{
	static const struct { double scale; const char *suffix; } units[] = {
		{ 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" },
	};
	double r = libc_three_digits(v);
	size_t i;

	for (i = 0; i < 3; i++)
		if (fabs(r) >= units[i].scale) {
			double x = r / units[i].scale;

			format_decimal(EN, x, fabs(x) >= 100 ? 0 : fabs(x) >= 10 ? 1 : 2, 1, out);
			sbuf_adds(out, units[i].suffix);
			return;
		}
	format_number(EN, v, out);
}

/* format_power_of_ten's mantissa and exponent read from snprintf()'s
 * "%.2e", as plain text: "1.75 x 10^24". */
static void libc_power(double v, sbuf *out)
{
	char buf[64], *e;

	if (v == 0) {   /* (no power of ten: the number) */
		format_number(EN, v, out);
		return;
	}
	snprintf(buf, sizeof(buf), "%.2e", v);
	e = strchr(buf, 'e');
	*e = '\0';
	format_decimal(EN, strtod(buf, NULL), 2, 1, out);
	sbuf_addf(out, " x 10^%d", atoi(e + 1));
}

/* format_power_of_ten's text with its superscripts read back as digits. */
static void plain_power(double v, sbuf *out)
{
	static const char *const superscript[] = {
		"\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2", "\xC2\xB3", "\xE2\x81\xB4",
		"\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9",
	};
	sbuf raw;
	const char *p, *times;
	size_t k;

	sbuf_init(&raw);
	format_power_of_ten(EN, v, &raw);
	times = strstr(raw.data, " \xC3\x97 10");
	if (!times) {
		sbuf_adds(out, raw.data);
		sbuf_release(&raw);
		return;
	}
	sbuf_add(out, raw.data, (size_t)(times - raw.data));
	sbuf_adds(out, " x 10^");
	for (p = times + strlen(" \xC3\x97 10"); *p;) {
		if (!strncmp(p, "\xE2\x81\xBB", 3)) {
			sbuf_addc(out, '-');
			p += 3;
			continue;
		}
		for (k = 0; k < 10 && strncmp(p, superscript[k], strlen(superscript[k])); k++)
			;
		if (k == 10) {
			sbuf_adds(out, "?");
			break;
		}
		sbuf_addc(out, (char)('0' + k));
		p += strlen(superscript[k]);
	}
	sbuf_release(&raw);
}

/* Counts and powers of ten of whole numbers (rounded in integers) and of
 * others (through snprintf()) as the C library's "%.2e" rounds them:
 * ties at the third digit (1,235,000 and 1,245,000), carries into the
 * next power (999,500), values up to 1e36 and past, and a spread of
 * random ones. */
static void test_three_digits(void)
{
	static const double edges[] = {
		1, 9, 10, 99, 100, 101, 999, 1000, 1005, 1015, 1235000, 1245000, 999500, 999499,
		9995, 99950, 1e15, 1e18, 18446744073709551616.0, 3.9e24, 5.18400000000001e25,
		9.999e22, 1.0692e25, 1e35, 9.995e35, 1e36, 1e37, 2.5e-3, 0.5, 12.5, 123.25,
		-1235000, -3e10, 4503599627370497.0, 9007199254740993.0, 7e22, 6738415616
	};
	unsigned long long state = 7;
	size_t i, bad = 0, shown = 0;
	sbuf got, want;

	sbuf_init(&got);
	sbuf_init(&want);
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]) + 200000; i++) {
		double v;

		if (i < sizeof(edges) / sizeof(edges[0])) {
			v = edges[i];
		} else {
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			/* whole numbers of 1 to 19 digits, times a power of ten up to 1e17,
			   and a few with a fraction */
			v = (double)((state >> 11) % 10000000000000000000ULL >> (state % 60)) *
			    pow(10, (double)(state >> 58 & 15) + (state & 1 ? 0 : 2));
			if ((state >> 40) % 7 == 0)
				v += 0.5;
			if (v == 0)
				v = (double)(state >> 44);
		}
		sbuf_reset(&got);
		sbuf_reset(&want);
		format_count(EN, v, &got);
		libc_count(v, &want);
		sbuf_addc(&got, '|');
		sbuf_addc(&want, '|');
		plain_power(v, &got);
		libc_power(v, &want);
		if (strcmp(got.data, want.data)) {
			if (shown++ < 5)
				fprintf(stderr, "# %.17g: %s, the C library %s\n", v, got.data, want.data);
			bad++;
		}
	}
	CHECK(bad == 0, "format_count and format_power_of_ten round as \"%%.2e\" does (%zu of "
	      "%zu values differ)", bad, i);
	sbuf_release(&got);
	sbuf_release(&want);
}

/* A rollup field's stored list (norm_number_rollup()): each item as the
 * field's numbers are written (a dataset size: a count), in both languages. */
static void test_count_list(void)
{
	static const struct { const char *in; int rc; const char *out; } cases[] = {
		{ "15600000000000", 0, "15.6T" },                  /* Llama 3.1-405B */
		{ "2260275840,2290000001", 0, "2.26B; 2.29B" },    /* AbLang (heavy sequences) */
		{ "12000,800", 0, "12,000; 800" },
		{ "12000,x", -1, "" },
		{ "", -1, "" },
	};
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		sbuf_reset(&out);
		sbuf_adds(&out, "");
		CHECK(format_number_list(format_lang_of("en"), "Training dataset size (total)",
					 cases[i].in, &out) == cases[i].rc,
		      "format_number_list(\"%s\") status", cases[i].in);
		CHECK_STR(out.data, cases[i].out, "format_number_list(\"%s\")", cases[i].in);
	}
	sbuf_reset(&out);
	CHECK(format_number_list(format_lang_of("nl"), "Training dataset size (total)",
				 "2260275840,2290000001", &out) == 0, "in Dutch");
	CHECK_STR(out.data, "2,26 miljard; 2,29 miljard", "Dutch counts, the same separator");
	sbuf_reset(&out);
	format_value(format_lang_of("en"), "Training dataset size (total)", "12000,800", &out);
	CHECK_STR(out.data, "12,000; 800", "format_value() writes a rollup field's numbers");
	sbuf_release(&out);
}

int main(void)
{
	test_count_list();
	test_field_values();
	test_values();
	test_numbers();
	test_dates_booleans();
	test_three_digits();
	test_fold_random();
	test_text();
	test_templates();
	return unit_done();
}
