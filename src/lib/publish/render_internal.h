/*
 * render_internal: what the modules that make the pages of render_all()
 * (render.h) share; internal to them (render.c and render_*.c of
 * publish/), included by nothing else: their interface is render.h.
 *
 *   render.c         the run: languages, frame words, the passes on every
 *                    core, render_all(), a page's extras
 *   render_files.c   writing the files (the site's file_out, or a
 *                    temporary name renamed), framed; former names' pages
 *   render_models.c  the pass over the models: index entries, the keys of
 *                    pages made before, the model pages
 *   render_index.c   the indexes with their charts, the hardware pages
 */
#ifndef MODELCAT_RENDER_INTERNAL_H
#define MODELCAT_RENDER_INTERNAL_H

#include <stddef.h>
#include "base/util.h"
#include "db/catalogue.h"
#include "db/hwlink.h"
#include "db/query.h"
#include "db/timeline.h"
#include "publish/chart.h"
#include "publish/cite.h"
#include "publish/page.h"

struct render_stats;   /* render.h */
struct render_site;    /* render.h */
struct render_words;   /* render.h */

/* What render_all works with. */
typedef struct render_run {
	catalogue *cat;              /* the catalogue */
	const char *as_of;           /* the date rendered */
	struct render_stats *stats;  /* what was done */
	char **langs;                /* languages stored, English first */
	size_t nlangs;               /* entries in langs */
	page_texts *texts;           /* each language's texts */
	char **dirs;                 /* each language's output folder */
	char **names;                /* the models on record */
	size_t nnames;               /* entries in names */
	char (*stems)[128];          /* each model's file stem */
	char (*files)[140];          /* each indexed model's page */
	page_index_entry *entries;   /* the index's entries */
	size_t nentries;             /* entries used */
	size_t *entry_of;            /* names[i]'s entry, or SIZE_MAX: none */
	chart_catalogue charts;      /* the charts, made from every entry */
	former_name *formers;        /* former names of renamed models */
	size_t nformers;             /* entries in formers */
	char *citation;              /* the data's citation (db/credit.h), or NULL */
	const struct render_site *site; /* the published site (NULL: no frame) */
	struct render_words *words;  /* with site: each language's frame words */
	cite_set cite;               /* what the pages cite (cite.h), read once */
	const provenance_file **cited; /* room for the files one page cites */
	const char *frame_data;      /* the next framed page's JSON twin, or NULL */
	const char *frame_data_label; /* its link's text */
	const char *frame_lead;      /* the next framed page's lead (HTML), or NULL */
	hwlink_day links;            /* the models' and cards' links on the date */
	timeline lives;              /* every model's history, read before the pages */
	unsigned char global_key[32]; /* with site->reuse: what every page is made from */
	unsigned char (*partial)[32]; /* with site->reuse: each model's key but its
					 chart (model_key_part) */
	query_updated updated;       /* every record's last-updated date, read
					with the entries (render_models_collect_entries) */
	size_t *order;               /* names' places in the order of their bytes
					(model_order()) */
	model_scan *scan;            /* this thread's scan of the models it is
					making (model_read()), or NULL */
} render_run;

/* ---- render.c ---- */

/* Text id of texts (else of english) with no placeholder filled in, new;
 * a text neither has: its key. */
char *render_word(const page_texts *texts, const page_texts *english, page_text_id id);
/* each(r, i) for every item i < n_items, on every core the run may use.
 * 0, or -1 (err: the first failure). */
int render_each(render_run *r, int (*each)(render_run *, size_t, mc_err *), size_t n_items,
		mc_err *err);
void render_run_release(render_run *r);

/* ---- render_files.c ---- */

/* mkdir -p */
int render_files_make_dirs(const char *path, mc_err *err);
/* Remove from dir the files NAME.tmpPID that a render killed outright left. */
void render_files_remove_stale_temps(const char *dir);
/* Write content to dir/file: through the site's file_out when publishing,
 * else through a temporary file renamed into place. 0, or -1 (err). */
int render_files_write_file(const struct render_site *site, const char *dir, const char *file,
			    const sbuf *content, mc_err *err);
/* Render p as text and HTML to dir/stem.txt and dir/stem.html; with fill,
 * its bytes in the HTML page's hole. 0, or -1 (err). */
int render_files_write_page(const struct render_site *site, const page *p, const char *dir,
			    const char *stem, const sbuf *fill, mc_err *err);
/* Write page p of language lang as dir/stem.txt and .html: framed when
 * publishing; with fill, that in the HTML's hole. 0, or -1 (err). */
int render_files_write_page_framed(const render_run *r, page *p, size_t lang, const char *stem,
				   const sbuf *fill, mc_err *err);
/* Every former name of a model on record keeps its pages, as redirects. */
int render_files_redirects(render_run *r, mc_err *err);

/* ---- render_models.c ---- */

/* Where the items of m's training hardware link from its pages, and the
 * hardware index from its closing sentence. */
void render_models_hardware_links(const render_run *r, const model_view *m, page *p);
/* What every model's files are made from (render_reuse). 0, or -1. */
int render_models_global_key(render_run *r, mc_err *err);
/* Every model's index entry, before any page. 0, or -1 (err). */
int render_models_collect_entries(render_run *r, mc_err *err);
/* How many chunks of models r has. */
size_t render_models_chunks(const render_run *r);
/* The pages of chunk k's models. 0, or -1 (err). */
int render_models_page_chunk(render_run *r, size_t k, mc_err *err);
/* Every model on record as index entries into r->entries. 0, or -1. */
int render_models_entries(render_run *r, mc_err *err);

/* ---- render_index.c ---- */

/* The index page of language j. 0, or -1 (err). */
int render_index_write(render_run *r, size_t j, mc_err *err);
/* The hardware pages and the hardware index of every language. 0, or -1. */
int render_index_hardware_pages(render_run *r, mc_err *err);

#endif
