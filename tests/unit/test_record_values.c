/*
 * values/record: a record's values, typed.
 *   - read back from stored JSON (version.norm and version.raw): sorted by
 *     field, a cell given only where it differs from its value (else the
 *     value is the cell), a cell with no value kept as a field without one,
 *     each field typed by the reader's function; escapes decoded; anything
 *     but two flat objects of strings refused, the record left empty;
 *   - looked up by name: the first field of that name with a value (a field
 *     with only a cell has none);
 *   - kept: a copy that holds its bytes outlives what the record pointed to;
 *   - in compared form: numbers past 15 significant digits in their 15-digit
 *     text, everything else as stored; the stored text itself when nothing
 *     changes, and the same text as the compared form of the norm JSON
 *     (record_compared, tests/unit/compared_oracle.h) in every case of the table.
 */
#include "values/record.h"
#include "compared_oracle.h"
#include "unit.h"

#include <stdlib.h>

/* Fields named N... are numbers, D... dates, the rest text. */
static enum colmap_type type_of(void *ctx, const char *field)
{
	(void)ctx;
	return field[0] == 'N' ? COL_NUMBER : field[0] == 'D' ? COL_DATE : COL_TEXT;
}

static int is_number(void *ctx, const char *field)
{
	return type_of(ctx, field) == COL_NUMBER;
}

/* "name=value|cell;..." of r: a field without a value shows "-", a cell
 * that is its value (the same bytes) "=". */
static void describe(const record_values *r, sbuf *out)
{
	size_t i;

	sbuf_reset(out);
	for (i = 0; i < r->n; i++) {
		const record_field *f = &r->fields[i];

		sbuf_addf(out, "%s%s:%c=", i ? ";" : "", f->name, "KTLNDEB"[f->type]);
		if (f->norm)
			sbuf_add(out, f->norm, f->norm_len);
		else
			sbuf_addc(out, '-');
		sbuf_addc(out, '|');
		if (f->norm && f->raw == f->norm)
			sbuf_addc(out, '=');
		else
			sbuf_add(out, f->raw ? f->raw : "", f->raw_len);
	}
}

static void check_read(void)
{
	static const struct {
		const char *norm, *raw, *want;
	} cases[] = {
		{ "{}", "{}", "" },
		{ "{}", NULL, "" },
		{ "{\"Model\":\"GPT-4\"}", "{}", "Model:T=GPT-4|=" },
		/* a number read from "1.5e24" keeps its cell */
		{ "{\"Model\":\"A\",\"NParams\":\"1.5e+24\"}", "{\"NParams\":\"1.5e24\"}",
		  "Model:T=A|=;NParams:N=1.5e+24|1.5e24" },
		/* a cell with no value ("?" read as none), between the others */
		{ "{\"A\":\"x\",\"C\":\"z\"}", "{\"B\":\"?\"}", "A:T=x|=;B:T=-|?;C:T=z|=" },
		/* stored in another order: sorted */
		{ "{\"DDate\":\"2024-01-02\",\"A\":\"x\"}", NULL, "A:T=x|=;DDate:D=2024-01-02|=" },
		/* escapes decoded */
		{ "{\"Comment\":\"say \\\"hi\\\"\\t\"}", "{}", "Comment:T=say \"hi\"\t|=" },
	};
	static const struct {
		const char *norm, *raw;
	} refused[] = {
		{ "", "{}" }, { "[]", "{}" }, { "{\"A\":1}", "{}" }, { "{}", "{\"A\":" },
	};
	record_values r;
	sbuf got;
	size_t i;

	record_values_init(&r);
	sbuf_init(&got);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = record_values_read(&r, cases[i].norm, cases[i].raw, type_of, NULL);

		describe(&r, &got);
		CHECK(rc == 0 && !strcmp(got.data, cases[i].want), "read %s + %s: %s (want %s)",
		      cases[i].norm, cases[i].raw ? cases[i].raw : "(no cells)", got.data,
		      cases[i].want);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		record_values_read(&r, "{\"A\":\"x\"}", NULL, type_of, NULL);
		CHECK(record_values_read(&r, refused[i].norm, refused[i].raw, type_of, NULL) == -1 &&
		      r.n == 0, "refused, and left empty: %s + %s", refused[i].norm, refused[i].raw);
	}
	record_values_release(&r);
	sbuf_release(&got);
}

static void check_lookup_and_keep(void)
{
	record_values r, kept;
	record_field *f;
	char text[] = "first second cell";
	const record_field *v;

	record_values_init(&r);
	record_values_init(&kept);
	/* two fields of one name (a header and a header-less column's name
	 * can meet): the first with a value counts, as in the stored JSON */
	f = record_values_add(&r);
	f->name = "A";
	f->raw = text + 13;
	f->raw_len = 4;
	f = record_values_add(&r);
	f->name = "A";
	f->norm = f->raw = text;
	f->norm_len = f->raw_len = 5;
	f = record_values_add(&r);
	f->name = "A";
	f->norm = f->raw = text + 6;
	f->norm_len = f->raw_len = 6;
	f = record_values_add(&r);
	f->name = "B";
	f->type = COL_NUMBER;
	f->raw = text + 13;
	f->raw_len = 4;
	v = record_values_value(&r, "A");
	CHECK(v == &r.fields[1], "the first field named A with a value");
	CHECK(record_values_value(&r, "B") == NULL, "a field with only a cell has no value");
	CHECK(record_values_value(&r, "0") == NULL && record_values_value(&r, "C") == NULL,
	      "no field before the first or after the last");
	record_values_keep(&kept, &r);
	memset(text, 'x', sizeof(text) - 1);
	record_values_release(&r);
	v = record_values_value(&kept, "A");
	CHECK(kept.n == 4 && v && v->norm_len == 5 && !memcmp(v->norm, "first", 5) &&
	      v->raw == v->norm && kept.fields[0].norm == NULL &&
	      !memcmp(kept.fields[0].raw, "cell", 4) && kept.fields[3].type == COL_NUMBER,
	      "a kept copy holds its values, cells and types once the original is gone");
	record_values_release(&kept);
}

static void check_compared(void)
{
	static const struct {
		const char *norm, *want;   /* want NULL: norm is its own compared form */
	} cases[] = {
		{ "{}", NULL },
		{ "{\"Model\":\"A\",\"NParams\":\"405000000000\"}", NULL },
		/* 16 and 17 significant digits: 15 */
		{ "{\"Model\":\"A\",\"NParams\":\"783480.3837556645\"}",
		  "{\"Model\":\"A\",\"NParams\":\"783480.383755665\"}" },
		{ "{\"Comment\":\"x\\\"y\",\"NCost\":\"0.30000000000000004\"}",
		  "{\"Comment\":\"x\\\"y\",\"NCost\":\"0.3\"}" },
		{ "{\"NCompute\":\"3.1234567890123456e+24\"}",
		  "{\"NCompute\":\"3.12345678901235e+24\"}" },
		/* many digits in a text field are text */
		{ "{\"Link\":\"1234567890.1234567\"}", NULL },
		/* 15 digits and trailing zeros: as they are */
		{ "{\"NParams\":\"123456789012345\",\"NTokens\":\"1.5e+24\"}", NULL },
	};
	record_values r;
	sbuf out, oracle;
	size_t i;

	record_values_init(&r);
	sbuf_init(&out);
	sbuf_init(&oracle);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got, *want = cases[i].want ? cases[i].want : cases[i].norm;

		if (!CHECK(record_values_read(&r, cases[i].norm, NULL, type_of, NULL) == 0,
			   "read %s", cases[i].norm))
			continue;
		got = record_values_compared(&r, cases[i].norm, &out);
		CHECK(!strcmp(got, want) && (cases[i].want != NULL) == (got != cases[i].norm),
		      "compared form of %s: %s (want %s%s)", cases[i].norm, got, want,
		      cases[i].want ? "" : ", the stored text itself");
		/* without the stored text it is written, the same */
		got = record_values_compared(&r, NULL, &out);
		sbuf_reset(&oracle);
		CHECK(!strcmp(got, want) && record_compared(cases[i].norm, is_number, NULL,
							     &oracle) == 0 &&
		      !strcmp(oracle.data, want),
		      "written from the values, and from the JSON: %s, %s", got, oracle.data);
	}
	record_values_release(&r);
	sbuf_release(&out);
	sbuf_release(&oracle);
}

int main(void)
{
	check_read();
	check_lookup_and_keep();
	check_compared();
	return unit_done();
}
