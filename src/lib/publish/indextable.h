/*
 * indextable: the index page's table of models (docs/pages.md, "The
 * index"): one row per model with its name (a link to its page),
 * organisation, publication date, parameters, training compute, weights
 * and last update, formatted as the model pages write them; the filter
 * controls (hidden until the script shows them); a live region for the
 * count; and the script that filters and sorts the rows in the browser.
 *
 * Every cell shows the value as the page writes it and carries its raw
 * sort key in data-v (an ISO date, a number in plain notation), so the
 * script sorts by value. The rows are in the order the caller gives
 * (index_table_sort: newest publication first); the index page holds the
 * first of them and loads the rest with its script, and a page of its own
 * holds them all, without a script.
 * Every data string is escaped here; the caller passes plain text.
 */
#ifndef MODELCAT_INDEXTABLE_H
#define MODELCAT_INDEXTABLE_H

#include <stddef.h>
#include "base/util.h"
#include "values/format.h"

/* One model's row. Every string is borrowed; NULL or "" is unknown. */
typedef struct index_table_row {
	const char *name;            /* the model's name */
	const char *file;            /* its page, relative to the index (a link
					only when page_safe_href accepts it) */
	const char *organisation;    /* "A,B" as stored */
	const char *domain;          /* "A,B" as stored */
	const char *published;       /* publication date as stored (YYYY[-MM[-DD]]) */
	const char *published_text;  /* the same as the page writes it */
	double parameters;           /* NAN when unknown */
	double compute;              /* training compute in FLOP, NAN when unknown */
	int open_weights;            /* 1 open, 0 closed, -1 unknown */
	const char *updated;         /* last updated (YYYY-MM-DD) */
	const char *updated_text;    /* the same as the page writes it */
	const char *formerly;        /* former names, tab-separated (data-f,
					for the filter), or NULL */
} index_table_row;

/* The rows of one chunk: a row group of the table that the browser lays
 * out and paints only near the screen (the script, after a sort or a
 * filter, puts the rows shown back into chunks of this size). */
#define INDEX_TABLE_CHUNK 16

/* The chunks the index page holds: the rows a reader sees first. The
 * rest are in a file of their own (index_table_rest) that the script
 * loads once the page has loaded and makes rows from, a chunk or so at a
 * time, in short tasks: the page stays small (the parser's work grows
 * with the page's bytes, and a page of every row, 1.4 MB at 3,247 models,
 * held the browser's main thread 65-110 ms at the end of its parsing).
 * Without scripts the page links the table of every row
 * (index_table_rest). */
#define INDEX_TABLE_EAGER 4

/* The columns, in order (their keys in the URL: name, org, published,
 * params, compute, weights, updated). */
enum index_table_column {
	INDEX_COL_NAME, INDEX_COL_ORGANISATION, INDEX_COL_PUBLISHED, INDEX_COL_PARAMETERS,
	INDEX_COL_COMPUTE, INDEX_COL_WEIGHTS, INDEX_COL_UPDATED, INDEX_COLUMNS
};

/* The words of the table and its controls, in the page's language (plain
 * text, borrowed). */
typedef struct index_table_words {
	const char *columns[INDEX_COLUMNS]; /* each column's header */
	const char *caption;         /* the table's name (the page title) */
	const char *filters;         /* the name of the filter controls */
	const char *search;          /* the label of the text field */
	const char *domain;          /* the label of the domain filter */
	const char *year;            /* the label of the year filter */
	const char *any;             /* the option that filters nothing */
	const char *open;            /* open weights */
	const char *closed;          /* closed weights */
	const char *unknown;         /* weights not recorded */
	const char *reset;           /* the button that clears the filters */
	const char *shown;           /* "{shown} of {count} shown": the script
					fills in both */
	const char *all;             /* the link to the table of every row */
	const format_lang *lang;     /* how values are written (format.h; NULL:
					English); borrowed */
} index_table_words;

/* Order rows newest publication first (by the stored date; a date of
 * lower precision sorts as its first day), then by name (byte order);
 * rows without a date last. */
void index_table_sort(index_table_row *rows, size_t n);

/* Append the HTML of the index page's part: the controls, the count, the
 * table with its first INDEX_TABLE_EAGER chunks of rows (in the order
 * given), a link to all_file (the page of index_table_rest's table) and
 * the script, which loads the other rows from rows_file (the file of
 * index_table_rest's JavaScript; both names relative to the page, written as they
 * are). Allocates only through out. */
void index_table_html(const index_table_row *rows, size_t n, const index_table_words *w,
		      const char *rows_file, const char *all_file, sbuf *out);

/* Append to all the table with every row, in the order given (no
 * controls, no script), and to js the JavaScript file of the rows after
 * the first INDEX_TABLE_EAGER chunks: one call, modelcatRows(n, chunks),
 * each chunk [its height in rem before it is laid out, the HTML of its
 * rows] (a JSON string; every data string in it escaped as in the page).
 * Each row's HTML is made once, for both. */
void index_table_rest(const index_table_row *rows, size_t n, const index_table_words *w,
		      sbuf *all, sbuf *js);

/* The CSS of the table and its controls (part of the index's <style>). */
extern const char index_table_style[];

/* The filter script, written inline by index_table_html (its size is
 * what the page carries: docs/pages.md says under 20 KB). */
extern const char index_table_script[];

#endif
