/*
 * The column map as the data dictionary (values/colmap): every field of
 * every family in pipelines/ has a type and a one-line description; every
 * header a field has had in Epoch's exports finds it; the flags (rollup,
 * unit=, volatile) and a fifth column are read, and a bad line is refused
 * naming file and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "values/colmap.h"
#include "values/normalise.h"

/* Every field of map has a description of one line, ending with a full
 * stop. */
static void test_descriptions(const colmap *map)
{
	size_t i, missing = 0;

	for (i = 0; i < map->nfields; i++) {
		const char *d = map->fields[i].description;
		size_t len = d ? strlen(d) : 0;

		if (!len || strchr(d, '\n') || d[len - 1] != '.') {
			missing++;
			printf("#   %s: %s field '%s' has no one-line description\n", map->family,
			       colmap_type_name(map->fields[i].type), map->fields[i].name);
		}
	}
	CHECK(map->nfields > 30 && missing == 0, "%s: all %zu fields are described", map->family,
	      map->nfields);
}

/* The headers each field has had (read off the exports in snapshots/). */
static void test_former_headers(const colmap *models, const colmap *hardware)
{
	static const struct { const char *header, *field; } renames[] = {
		{ "System", "Model" },
		{ "Country (from Organization)", "Country (of organization)" },
		{ "Organization categorization (from Organization)", "Organization categorization" },
		{ "Hardware utilization", "Hardware utilization (MFU)" },
		{ "Training dataset size (datapoints)", "Training dataset size (total)" },
		{ "Training dataset size (gradients)", "Training dataset size (total)" },
		{ "(DEPRECATED) Training dataset size (datapoints)", "Training dataset size (total)" },
	};
	const colmap_field *f;
	size_t i;

	for (i = 0; i < sizeof(renames) / sizeof(*renames); i++) {
		f = colmap_lookup(models, renames[i].header);
		CHECK(f && !strcmp(f->name, renames[i].field), "'%s' is read as '%s'",
		      renames[i].header, renames[i].field);
	}
	f = colmap_lookup(models, "Training dataset size");
	CHECK(f == NULL, "frontier's 'Training dataset size' (a lookup of the model's name) "
	      "is no alias");
	f = colmap_lookup(models, "Training dataset size (total)");
	CHECK(f && f->type == COL_NUMBER && f->rollup, "the dataset size is a rollup number");
	f = colmap_lookup(models, "Parameters");
	CHECK(f && f->type == COL_NUMBER && !f->rollup && !f->unit, "Parameters: a plain number");
	f = colmap_lookup(models, "Citations");
	CHECK(f && f->is_volatile, "Citations is volatile");
	f = colmap_lookup(hardware, "Memory size per board (Byte)");
	CHECK(f && !strcmp(f->name, "Memory (bytes)") && f->unit &&
	      !strcmp(norm_unit_name(f->unit), "byte"), "the hardware memory's former header");
}

/* A columns file of one's own: the fifth column, and the refusals. */
static void test_file_format(void)
{
	char dir[] = "/tmp/modelcat-colmap.XXXXXX", path[512];
	colmap map;
	mc_err err = { "" };
	const colmap_field *f;

	if (!CHECK(mkdtemp(dir) != NULL, "a temporary folder"))
		return;
	unit_put_file(dir, "enumerations.tsv", "");
	unit_put_file(dir, "columns.tsv", "Model\tkey\t\t\tThe name.\n"
		 "Size\tnumber\tSize (old)|Size (older)\trollup\tHow big.\n"
		 "Note\ttext\n");
	if (CHECK(colmap_load(&map, dir, &err) == 0, "five columns load (%s)", err.msg)) {
		f = colmap_lookup(&map, "Size (older)");
		CHECK(f && !strcmp(f->name, "Size") && f->rollup, "an alias with a flag");
		CHECK_STR(f ? f->description : NULL, "How big.", "its description");
		CHECK_STR(colmap_lookup(&map, "Model")->description, "The name.",
			  "a description after empty aliases and flags");
		CHECK_STR(colmap_lookup(&map, "Note")->description, "", "none: empty");
		colmap_release(&map);
	}
	unit_put_file(dir, "columns.tsv", "Model\tkey\nName\ttext\t\trollup\n");
	CHECK(colmap_load(&map, dir, &err) == -1 &&
	      strstr(err.msg, "columns.tsv:2: rollup on a field that is not a number"),
	      "rollup on text is refused on its line (%s)", err.msg);
	unit_put_file(dir, "columns.tsv", "Model\tkey\nSize\tnumber\t\tsometimes\n");
	CHECK(colmap_load(&map, dir, &err) == -1 &&
	      strstr(err.msg, "columns.tsv:2: unknown flag 'sometimes'"),
	      "an unknown flag is refused on its line (%s)", err.msg);
	snprintf(path, sizeof(path), "%s/columns.tsv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/enumerations.tsv", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	colmap map;
	mc_err err = { "" };
	const colmap *hardware;

	if (!CHECK(colmap_load(&map, "pipelines", &err) == 0, "load pipelines/ (%s)", err.msg))
		return unit_done();
	hardware = colmap_family(&map, "hardware");
	CHECK(hardware != NULL, "a hardware family");
	test_descriptions(&map);
	if (hardware) {
		test_descriptions(hardware);
		test_former_headers(&map, hardware);
	}
	colmap_release(&map);
	test_file_format();
	return unit_done();
}
