/*
 * Every distinct value in the number and date columns of the eight real
 * exports (snapshots/) must be read by the normalisers. Reads the files
 * themselves with the CSV reader and the column map.
 */
#include "values/colmap.h"
#include "read/csv.h"
#include "values/normalise.h"
#include "base/strmap.h"
#include "unit.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

static void check_file(const colmap *map, const char *path, strmap *seen,
		       size_t *numbers, size_t *dates)
{
	char why[NORM_WHY_LEN];
	const colmap_field **fields = NULL;
	csv_reader *r = NULL;
	csv_row row;
	size_t i, bad = 0, checked = 0, rows = 0;
	sbuf out, key;

	sbuf_init(&out);
	sbuf_init(&key);
	if (!CHECK(csv_open(&r, path, NULL) == 0, "open %s", path))
		return;
	if (!CHECK(csv_next(r, &row, NULL) == 1, "%s has a header", path))
		goto out;
	fields = calloc(row.nfields, sizeof(*fields));
	for (i = 0; i < row.nfields; i++) {
		sbuf_reset(&out);
		norm_text(row.fields[i], row.lengths[i], &out);
		fields[i] = colmap_lookup(map, out.data);
	}
	while (csv_next(r, &row, NULL) == 1) {
		rows++;
		for (i = 0; i < row.nfields; i++) {
			int added, status;

			if (!fields[i] || (fields[i]->type != COL_NUMBER && fields[i]->type != COL_DATE))
				continue;
			sbuf_reset(&key);
			sbuf_addf(&key, "%s\t", fields[i]->name);
			sbuf_add(&key, row.fields[i], row.lengths[i]);
			strmap_get_or_add(seen, key.data, key.len, &added);
			if (!added)
				continue;
			checked++;
			sbuf_reset(&out);
			why[0] = '\0';
			if (fields[i]->type == COL_NUMBER) {
				status = norm_number(row.fields[i], row.lengths[i], &out, why);
				*numbers += status == NORM_OK;
			} else {
				status = norm_date(row.fields[i], row.lengths[i], &out, why);
				*dates += status == NORM_OK;
			}
			if (status == NORM_INVALID && bad++ < 5)
				printf("# %s:%lu: %s: '%s' not read: %s\n", path, row.line,
				       fields[i]->name, row.fields[i], why);
		}
	}
	CHECK(bad == 0 && rows > 100, "%s: %zu rows, %zu new distinct number/date values, %zu unreadable",
	      path, rows, checked, bad);
out:
	free(fields);
	csv_free(r);
	sbuf_release(&out);
	sbuf_release(&key);
}

int main(void)
{
	colmap map;
	strmap seen;
	glob_t files;
	size_t i, numbers = 0, dates = 0;

	if (!CHECK(colmap_load(&map, "pipelines", NULL) == 0, "load the column map"))
		return unit_done();
	strmap_init(&seen);
	if (glob("snapshots/*/*.csv.gz", 0, NULL, &files) == 0) {
		CHECK(files.gl_pathc == 11, "eleven real exports in snapshots/ (%zu)", files.gl_pathc);
		for (i = 0; i < files.gl_pathc; i++) {
			/* snapshots/EXPORT/DATE.csv.gz: read with its family's map */
			char export_name[256];
			const char *p = files.gl_pathv[i] + strlen("snapshots/");

			snprintf(export_name, sizeof(export_name), "%.*s",
				 (int)strcspn(p, "/"), p);
			check_file(colmap_for_export(&map, export_name), files.gl_pathv[i], &seen,
				   &numbers, &dates);
		}
		globfree(&files);
	} else {
		CHECK(0, "snapshots/*/*.csv.gz found");
	}
	/* the exports hold thousands of distinct numbers and dates: a reader
	 * that skipped them would not get here */
	CHECK(numbers > 4000, "distinct numbers read: %zu", numbers);
	CHECK(dates > 2000, "distinct dates read: %zu", dates);
	strmap_release(&seen);
	colmap_release(&map);
	return unit_done();
}
