/*
 * modelcat-show: one model as it stood on a date, its fields merged across
 * exports by the precedence in pipelines/precedence.tsv, each value naming
 * its export and snapshot.
 */
#include "db/query.h"
#include "base/sbuf.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/snapref.h"
#include "cli/kind.h"
#include "base/textout.h"
#include "base/day.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-show",
	.usage =
		"usage: modelcat show [--db PATH] NAME [--as-of DATE[.N]] [--format text|json]\n"
		"                     [--kind model|hardware]\n",
	.description =
		"Shows the model called NAME as it stood on the date (default: today): every\n"
		"field, merged across the exports that hold it by the precedence in\n"
		"pipelines/precedence.tsv, with the export and snapshot each value comes\n"
		"from, and the date it was last updated. A hardware record (ml_hardware,\n"
		"pipelines/families.tsv) shows the same way; records of two families never\n"
		"merge: a name that is both a model and a card on that date needs --kind\n"
		"model or --kind hardware (without it: a usage error naming the two).\n"
		"A name repeated within an export\n"
		"is NAME#2, NAME#3, ... for its later rows. Models are kept as they stood\n"
		"at the end of each day: --as-of DATE.N is accepted when it is that day's\n"
		"last snapshot.\n",
	.exit =
		"Exit: 0 shown; 2 usage (a name that is both, without --kind); 3 no such\n"
		"model or card on that date (up to five names\n"
		"on record then that are close to NAME are suggested on stderr), no such\n"
		"snapshot DATE.N (or not the day's last), or failure.\n",
};

static void show_text(const model_view *m, sbuf *out)
{
	size_t i, width = 0;

	/* every name and value escaped for the terminal (base/textout.h): a
	 * crafted export cannot move the cursor or break a line */
	textout_terms(out, m->name);
	sbuf_addf(out, "\nas of %s, last updated %s, from", m->as_of,
		  m->last_updated[0] ? m->last_updated : "(never)");
	for (i = 0; i < m->exports.n; i++) {
		sbuf_adds(out, i ? ", " : " ");
		textout_terms(out, m->exports.items[i]);
	}
	sbuf_adds(out, "\n\n");
	for (i = 0; i < m->values.n; i++)
		if (strlen(m->values.items[i].field) > width)
			width = strlen(m->values.items[i].field);
	for (i = 0; i < m->values.n; i++) {
		const model_value *v = &m->values.items[i];
		size_t start = out->len;

		textout_terms(out, v->field);
		while (out->len - start < width)
			sbuf_addc(out, ' ');
		sbuf_adds(out, "  ");
		textout_terms(out, v->value);
		sbuf_adds(out, "  [");
		textout_terms(out, v->export);
		sbuf_addf(out, " %s]\n", v->since);
	}
}

static void show_json(const model_view *m, sbuf *out)
{
	size_t i;

	sbuf_adds(out, "{\"name\": ");
	textout_json_string(out, m->name, strlen(m->name));
	sbuf_addf(out, ", \"as_of\": \"%s\", \"last_updated\": ", m->as_of);
	if (m->last_updated[0])
		sbuf_addf(out, "\"%s\"", m->last_updated);
	else
		sbuf_adds(out, "null");
	sbuf_adds(out, ", \"exports\": [");
	for (i = 0; i < m->exports.n; i++) {
		sbuf_adds(out, i ? ", " : "");
		textout_json_string(out, m->exports.items[i], strlen(m->exports.items[i]));
	}
	sbuf_adds(out, "],\n \"fields\": [");
	for (i = 0; i < m->values.n; i++) {
		const model_value *v = &m->values.items[i];

		sbuf_adds(out, i ? ",\n   {\"field\": " : "\n   {\"field\": ");
		textout_json_string(out, v->field, strlen(v->field));
		sbuf_adds(out, ", \"value\": ");
		textout_json_string(out, v->value, strlen(v->value));
		sbuf_adds(out, ", \"export\": ");
		textout_json_string(out, v->export, strlen(v->export));
		sbuf_addf(out, ", \"snapshot\": \"%s\"}", v->since);
	}
	sbuf_adds(out, "]}\n");
}

int main(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	const char *db = NULL, *format = "text", *kind = NULL;
	char as_of[16] = "", day[11];
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_AS_OF_SNAPSHOT(as_of, "YYYY-MM-DD (default: today, UTC), or\n"
				   "YYYY-MM-DD.N when that is the day's last snapshot"),
		OPT_FORMAT(&format, formats, "text (default) or json"),
		OPT_KIND(&kind),
		OPT_DONE
	};
	catalogue cat;
	mc_err err;
	model_view m;
	sbuf out;
	char *name = NULL;
	int first, rc, status = MC_EXIT_FAILURE;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first != argc - 1)
		return stage_usage_error(command.program, "expected one model NAME");
	if (!as_of[0])
		day_today(as_of);
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	memset(&m, 0, sizeof(m));
	name = stage_model_name(argv[first]);
	rc = snapref_day(&cat, as_of, day, &err);
	if (rc) {
		stage_error(command.program, "%s", err.msg);
	} else if (!(status = kind_show(command.program, &cat, name, day, as_of, kind, &m))) {
		if (!strcmp(format, "json"))
			show_json(&m, &out);
		else
			show_text(&m, &out);
		status = stage_write_stdout(command.program, &out);
	}
	model_view_release(&m);
	sbuf_release(&out);
	free(name);
	catalogue_close(&cat);
	return status;
}
