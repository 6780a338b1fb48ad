/*
 * chart: charts drawn by modelcat as SVG, which a browser shows with no
 * script (docs/pages.md, "Charts").
 *
 * Two parts. The writer: a chart is two axes (linear or log10, with their
 * ticks and titles), a title and a description; chart_scatter_svg and
 * chart_bars_svg write it with its marks as a complete SVG document
 * (<title>, <desc>, role="img"), and chart_place gives the position of a
 * value in it, so that a page can put a mark of its own over the same
 * picture. The catalogue's charts: training compute and parameters
 * against publication date, made from the index entries (page.h, the
 * values the pages show), as the index's two SVG files, the index's
 * figures, their data as tables (a page of their own, so that the index
 * stays light), and a model page's figure with the model highlighted.
 *
 * Every string given is plain text and is escaped here. Output depends on
 * the input alone (numbers written with a fixed number of decimals in the
 * C locale): the same catalogue gives the same bytes.
 */
#ifndef MODELCAT_CHART_H
#define MODELCAT_CHART_H

#include <stddef.h>
#include "base/util.h"

struct page_index_entry;
struct page_texts;

/* ---- the writer ---- */

typedef enum chart_scale {
	CHART_LINEAR,                /* value as is */
	CHART_LOG10                  /* log10 of the value (values > 0 only) */
} chart_scale;

typedef enum chart_ticks {
	CHART_TICKS_NUMBER,          /* "0.5", "1,024" */
	CHART_TICKS_POWER,           /* "10²⁴" (log axes: one tick per step decades) */
	CHART_TICKS_YEAR             /* "2024" (a value 2024.0 is 1 January 2024) */
} chart_ticks;

typedef struct chart_axis {
	chart_scale scale;           /* how values map onto the axis */
	double min, max;             /* the range shown, in values (log: both > 0) */
	double step;                 /* between ticks: in values (linear), in
					decades (log) */
	chart_ticks ticks;           /* how tick labels are written */
	const char *label;           /* the axis title, or NULL; borrowed */
} chart_axis;

typedef struct chart {
	const char *title;           /* <title>; borrowed */
	const char *desc;            /* <desc>, what the chart shows in words; borrowed */
	chart_axis x;                /* horizontal axis */
	chart_axis y;                /* vertical axis (bars: unused) */
	int width, height;           /* size in SVG units (chart_init: 480 x 400;
					text is 16 units high, so that it is 11 px
					or more on a page 400 px wide) */
	const struct format_lang *lang; /* how tick labels write numbers (NULL: English) */
	double rule;                 /* bars: a vertical rule at this x value, with
					rule_label above it in a row of its own
					(0: none) */
	const char *rule_label;      /* the rule's label, or NULL; borrowed */
} chart;

/* The groups of a scatter chart's marks, each its colour and shape (so
 * that they tell apart in grey too): CHART_GROUPS - 1 groups and the
 * last, "other", a small grey dot. */
#define CHART_GROUPS 9

/* A mark of a scatter chart. */
typedef struct chart_point {
	double x, y;                 /* in values */
	const char *label;           /* its name, for a table of the data, or NULL; borrowed */
	int group;                   /* its group's mark, 0 to CHART_GROUPS - 1 (more:
					the last) */
	int stand_out;               /* ringed in dark grey, over every mark */
	int landmark;                /* its label written beside it (when it has
					room: not over another's) */
} chart_point;

/* A bar of a bar chart: a label on the left, a bar along x. */
typedef struct chart_bar {
	const char *label;           /* plain text; borrowed */
	double value;                /* in x's values */
	int highlight;               /* drawn in the highlight colour */
} chart_bar;

/* An empty chart of 480 x 400 with linear axes over [0, 1]. */
void chart_init(chart *c);

/* Axis a over the decades holding [min, max] (both > 0), a tick every
 * decade (every 2, 3, 5 or 10 when more than 40), the ends on ticks. Ends on
 * ticks move seldom: a model page's mark, placed on these axes, changes
 * only when its own values do, not each time the catalogue's extremes
 * move a little. */
void chart_axis_log(chart_axis *a, double min, double max);
/* Axis a over [0, max] (max > 0), a tick every 1, 2, 2.5 or 5 times a
 * power of ten, at most 8 intervals, the end on a tick at or above max. */
void chart_axis_linear(chart_axis *a, double max);
/* Axis a over the whole years holding [min, max] (decimal years), a tick
 * every 1, 2, 4, 5, 10, 20, 25 or 50 years, at most 8 intervals (room
 * for each label at 16 units), the ends on ticks (as chart_axis_log). */
void chart_axis_years(chart_axis *a, double min, double max);

/* Make c tall enough that its log y axis has 19 units (its text and a
 * gap) between ticks: a chart of many decades grows, no chart shrinks. */
void chart_fit_height(chart *c);

/* Where the value (x, y) is drawn: 0 and *px, *py in SVG units; -1 when
 * it is outside an axis's range or cannot be placed (NaN, <= 0 on a log
 * axis, an empty range). */
int chart_place(const chart *c, double x, double y, double *px, double *py);

/* Append c with a mark per point inside the ranges, as a complete SVG
 * document, to out: in <g class="marks">, a path per group that has
 * points (its marks its subpaths "Mx y...", in its colour and shape:
 * chart_mark), then a path of rings round the points that stand out,
 * then the landmarks' labels. Points outside are left out. Returns the
 * number of marks drawn. */
size_t chart_scatter_svg(const chart *c, const chart_point *points, size_t n, sbuf *out);

/* The mark of group g (0 to CHART_GROUPS - 1) centred on (x, y): the
 * attributes of its path (fill or stroke) into attrs, its subpath into d
 * (either may be NULL). */
void chart_mark(int g, double x, double y, sbuf *attrs, sbuf *d);

/* The position of c's plot area and its axes' ranges, for a script that
 * places values over the picture: "x0 x1 y0 y1 left top right bottom
 * width height log" (y0, y1 in log10 on a log axis, log 1 then, else 0;
 * the rest in SVG units). */
void chart_geometry(const chart *c, sbuf *out);

/* Free c's title, description and axis titles (strings the caller made
 * for it) and set them NULL. */
void chart_texts_release(chart *c);

/* Append c as a horizontal bar chart of bars along x (y unused), one row
 * per bar, its label above it, to out. A bar whose value cannot be placed
 * gets a label and no bar. With c->rule inside x's range, a dashed
 * vertical rule there (<g class="rule">), its label in a first row of its
 * own, right-aligned on the rule. Returns the number of bars drawn. */
size_t chart_bars_svg(const chart *c, const chart_bar *bars, size_t n, sbuf *out);

/* The start of a page's figure of c: <div class="chart">, the title as a
 * heading of level (2 to 4), the description, and the picture, an <img>
 * of src (a file beside the page) or, src NULL, of svg itself as a data:
 * URL (a chart that page alone shows). The caller adds what follows (a
 * link, a table) and the closing "</div>\n". */
void chart_figure_open(const chart *c, int level, const char *src, const sbuf *svg, sbuf *out);

/* ---- the catalogue's charts ---- */

/* The files of a language's charts, beside its index: each chart's
 * picture over the years that hold 95 % of its points, over every year
 * (".all"), its data as CSV, and its points for the index's script. */
#define CHART_COMPUTE_FILE "index.compute.svg"
#define CHART_COMPUTE_ALL_FILE "index.compute.all.svg"
#define CHART_PARAMETERS_FILE "index.parameters.svg"
/* The stem of the page of the charts' data, beside the index (its
 * tables' ids: "compute", "parameters"). */
#define CHART_DATA_PAGE "index.charts"

/* What every chart of one rendering shares, made once from all index
 * entries: the points and the axes. */
typedef struct chart_catalogue {
	chart_point *compute;        /* (decimal year, FLOP) of each entry with both */
	size_t ncompute;             /* entries in compute */
	chart_point *parameters;     /* (decimal year, parameters) likewise */
	size_t nparameters;          /* entries in parameters */
	size_t *compute_entry;       /* compute[i] is entries[compute_entry[i]] */
	size_t *parameters_entry;    /* parameters[i] is entries[parameters_entry[i]] */
	chart_axis compute_x, compute_y; /* the compute chart's axes over the years
					that hold 95 % of its points (labels unset) */
	chart_axis parameters_x, parameters_y; /* the parameters chart's axes */
	chart_axis compute_all_x, compute_all_y; /* over every point */
	chart_axis parameters_all_x, parameters_all_y;
	double compute_years[2];     /* the first and last x of compute (its
					description names them; one pass, not
					one per model page) */
	double parameters_years[2];  /* of parameters */
	char *groups[CHART_GROUPS];  /* each group's domain as stored; NULL: the
					models of several domains (when several is
					set) or the rest (the last) */
	int several;                 /* the group of several domains, or -1 */
	const struct page_index_entry *entries; /* the entries; borrowed */
	size_t n;                    /* entries in entries */
} chart_catalogue;

/* One chart's files for the index (CHART_*_FILE and the names below). */
typedef struct chart_files {
	sbuf svg;                    /* the picture over 95 % of the years */
	sbuf all;                    /* over every year */
	sbuf csv;                    /* its data */
	sbuf points;                 /* its points for the script */
} chart_files;

/* The names of chart k's files (0 compute, 1 parameters): in the order
 * of chart_files. */
void chart_file_names(int k, const char *names[4]);

/* Make cc from the n entries e (which must outlive it); release with
 * chart_catalogue_release. */
void chart_catalogue_init(chart_catalogue *cc, const struct page_index_entry *e, size_t n);
void chart_catalogue_release(chart_catalogue *cc);

/* The decimal year of a publication date as stored ("2023-03-14",
 * "2023-03", "2023": the middle of its day, month or year): 0 and *year,
 * or -1 when it is not a date. */
int chart_decimal_year(const char *published, double *year);

/*
 * One language's charts (texts, falling back to english): each chart's
 * files (chart_files; files[0] compute, files[1] parameters); the
 * index's figures (each its title, a description that says what the
 * chart shows, the picture over 95 % of the years with a legend, the
 * picture over every year folded, links to its data; then the script
 * that shows a point's model on hover, focus or tap) into html; and the
 * charts' data, a heading and a table per chart (model, publication date,
 * value), for the page CHART_DATA_PAGE, into tables. A chart without
 * points has no figure and no table. Returns 0, or -1 with the reason in
 * err (a text neither language has, a broken template).
 */
int chart_catalogue_index(const chart_catalogue *cc, const struct page_texts *texts,
			  const struct page_texts *english, chart_files files[2], sbuf *html,
			  sbuf *tables, mc_err *err);

/*
 * The figure of model m's page (a page beside the index): the compute
 * chart as an <img> of CHART_COMPUTE_FILE, m's mark over it (an HTML
 * element placed by chart_place, no script), and a sentence saying where
 * m sits (its publication month and compute), or that it is not on the
 * chart. Nothing in it counts the other models, so that the page changes
 * only with m's values (and the axes' ends). Appended to html; nothing
 * when the chart has no points. Returns 0, or -1 with the reason in err.
 */
int chart_catalogue_model(const chart_catalogue *cc, const struct page_index_entry *m,
			  const struct page_texts *texts, const struct page_texts *english,
			  sbuf *html, mc_err *err);

#endif
