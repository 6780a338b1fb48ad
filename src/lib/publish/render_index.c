#include "publish/render_internal.h"
#include "publish/render.h"
#include "publish/chart_peers.h"
#include "publish/download.h"
#include "publish/hwpage.h"
#include "publish/translate.h"

#include <stdlib.h>
#include <string.h>

/* ---- the indexes, their charts, the hardware pages ---- */

/* The citation block of a page on the whole data (an index, a card's
 * page) in texts: each export's latest file, and the bundle's README
 * citation. */
static char *cite_of_data(render_run *r, const page_texts *texts, const char *url)
{
	char key[40];
	size_t n = cite_latest(&r->cite, r->cited);
	sbuf out;

	sbuf_init(&out);
	mc_fmt(key, sizeof(key), "epochai:%s", r->as_of ? r->as_of : "");
	cite_html(&out, 2, texts, &r->texts[0], key, url, r->cited, n, r->cite.readme);
	return sbuf_detach(&out, NULL);
}

/* The citation block of language lang's page file (under pages/LANG/),
 * its BibTeX url the page's own address when the site's URL is known. */
static char *cite_of_index(render_run *r, size_t lang, const char *file)
{
	char path[300], *url, *block;

	mc_fmt(path, sizeof(path), "pages/%s/%s", r->langs[lang], file);
	url = cite_page_url(r->site ? r->site->base_url : NULL, path);
	block = cite_of_data(r, &r->texts[lang], url);
	free(url);
	return block;
}

/* Language j's charts of each year's models and their rankings, beside
 * its index (chart_peers.h). 0, or -1 (err). */
static int year_charts(render_run *r, size_t j, mc_err *err)
{
	int *years = NULL, rc = 0;
	size_t n = chart_peers_years(&r->charts, &years), i;
	sbuf svg, csv;

	sbuf_init(&svg);
	sbuf_init(&csv);
	for (i = 0; !rc && i < n; i++) {
		char file[64];

		sbuf_reset(&svg);
		sbuf_reset(&csv);
		chart_peers_csv(&r->charts, years[i], &csv);
		rc = chart_peers_svg(&r->charts, years[i], &r->texts[j], &r->texts[0], &svg, err);
		mc_fmt(file, sizeof(file), CHART_PEERS_SVG, years[i]);
		rc = rc || render_files_write_file(r->site, r->dirs[j], file, &svg, err);
		mc_fmt(file, sizeof(file), CHART_PEERS_CSV, years[i]);
		rc = rc || render_files_write_file(r->site, r->dirs[j], file, &csv, err);
		r->stats->files += 2;
	}
	sbuf_release(&svg);
	sbuf_release(&csv);
	free(years);
	return rc ? -1 : 0;
}

/* Language j's chart files and the page of their data beside its index,
 * and the index's figures for p (chart.h). */
static int index_charts(render_run *r, size_t j, page *p, mc_err *err)
{
	chart_files files[2];
	sbuf html, tables;
	page data;
	char *title;
	int rc, k, w;

	memset(files, 0, sizeof(files));
	sbuf_init(&html);
	sbuf_init(&tables);
	page_init(&data, r->langs[j]);
	title = render_word(&r->texts[j], &r->texts[0], PT_CHART_DATA_TITLE);
	rc = chart_catalogue_index(&r->charts, &r->texts[j], &r->texts[0], files, &html, &tables,
				   err);
	for (k = 0; k < 2 && !rc; k++) {
		const char *names[4];
		sbuf *out[4] = { &files[k].svg, &files[k].all, &files[k].csv, &files[k].points };

		chart_file_names(k, names);
		for (w = 0; w < 4 && !rc; w++)
			rc = render_files_write_file(r->site, r->dirs[j], names[w], out[w], err);
	}
	if (!rc) {
		char *cite = cite_of_index(r, j, CHART_DATA_PAGE ".html");

		sbuf_adds(&tables, cite);
		free(cite);
		page_build_raw(&data, title, tables.data);
		rc = render_files_write_page_framed(r, &data, j, CHART_DATA_PAGE, NULL, err);
	}
	if (!rc) {
		r->stats->files += 10;
		p->charts = html.len ? sbuf_detach(&html, NULL) : NULL;
	}
	page_release(&data);
	free(title);
	for (k = 0; k < 2; k++) {
		sbuf_release(&files[k].svg);
		sbuf_release(&files[k].all);
		sbuf_release(&files[k].csv);
		sbuf_release(&files[k].points);
	}
	sbuf_release(&html);
	sbuf_release(&tables);
	return rc ? -1 : 0;
}

/* The index page of language j, with its charts, its table of every
 * model and the rows its script loads. */
int render_index_write(render_run *r, size_t j, mc_err *err)
{
	page p, all;
	sbuf lead, rows, table;
	int failed;

	page_init(&p, r->langs[j]);
	page_init(&all, r->langs[j]);
	all.html_only = 1;
	sbuf_init(&lead);
	sbuf_init(&rows);
	sbuf_init(&table);
	failed = index_charts(r, j, &p, err) || year_charts(r, j, err) ||
		 page_build_index(&p, r->entries, r->nentries, r->as_of, NULL, &rows,
				  &table, &r->texts[j], &r->texts[0], err) ||
		 page_build_index(&all, r->entries, r->nentries, r->as_of, PAGE_INDEX_HOLE, NULL,
				  NULL, &r->texts[j], &r->texts[0], err);
	/* title, intro, charts and table first; the downloads after them, then
	   the citation */
	if (r->site && r->site->downloads)
		download_list_html(r->site->downloads, "../../", &r->texts[j], &r->texts[0],
				   &lead);
	if (!failed) {
		if (lead.len) {
			page_add_raw(&p, xstrdup(lead.data));
			page_add_raw(&all, xstrdup(lead.data));
		}
		page_add_raw(&p, cite_of_index(r, j, "index.html"));
		page_add_raw(&all, cite_of_index(r, j, PAGE_INDEX_ALL ".html"));
	}
	failed = failed || render_files_write_page_framed(r, &p, j, "index", NULL, err) ||
		 render_files_write_page_framed(r, &all, j, PAGE_INDEX_ALL, &table, err) ||
		 render_files_write_file(r->site, r->dirs[j], PAGE_INDEX_ROWS, &rows, err);
	sbuf_release(&rows);
	sbuf_release(&table);
	sbuf_release(&lead);
	page_release(&all);
	page_release(&p);
	if (failed)
		return -1;
	r->stats->files += 4;
	return 0;
}

/* Write the HTML and text of hardware page p of language lang as
 * hardware/stem (framed when publishing: the site root is one folder up). */
static int write_hardware_page(render_run *r, page *p, size_t lang, const char *stem,
			       mc_err *err)
{
	frame f;
	frame_alt *alts = NULL;
	char (*paths)[200] = NULL, dir[4200];
	size_t i, k = 0;
	int rc;

	if (r->site) {
		alts = xcalloc(r->nlangs, sizeof(*alts));
		paths = xcalloc(r->nlangs, sizeof(*paths));
		render_frame(&f, alts, r->words, r->nlangs, lang, "../../../", r->site->base_url);
		for (i = 0; i < r->nlangs; i++) {
			mc_fmt(paths[i], sizeof(paths[i]), "pages/%s/hardware/%s.html", r->langs[i],
			       stem);
			if (i != lang)
				alts[k++].page = paths[i];
		}
		f.page = paths[lang];
		p->frame = &f;
	}
	mc_fmt(dir, sizeof(dir), "%s/hardware", r->dirs[lang]);
	rc = render_files_write_page(r->site, p, dir, stem, NULL, err);
	p->frame = NULL;
	free(alts);
	free(paths);
	return rc;
}

/* Card i's pages in language j, in dir (file: its page's file name):
 * its page, the pages of its complete lists (STEM-models-16, -8, -4 and
 * STEM-trained), and, once, in the first language's folder, the models
 * that fit as CSV (STEM-models.csv). */
static int hardware_card(render_run *r, size_t j, size_t i, const char *file,
			 const hwpage_models *models, const char *dir, mc_err *err)
{
	static const int widths[] = { 16, 8, 4, 0 };
	char stem[128], all[160], csv[200];
	size_t w;
	page p;
	int rc;

	mc_fmt(stem, sizeof(stem), "%.*s", (int)strlen(file) - 5, file);
	mc_fmt(csv, sizeof(csv), "../../%s/hardware/%s-models.csv", r->langs[0], stem);
	page_init(&p, r->langs[j]);
	rc = hwpage_build(&p, &r->links, i, models, stem, &r->texts[j], &r->texts[0], err);
	if (!rc) {
		char own[300];

		mc_fmt(own, sizeof(own), "hardware/%s", file);
		page_add_raw(&p, cite_of_index(r, j, own));
	}
	rc = rc || write_hardware_page(r, &p, j, stem, err);
	page_release(&p);
	for (w = 0; !rc && w < sizeof(widths) / sizeof(widths[0]); w++) {
		page_init(&p, r->langs[j]);
		rc = hwpage_build_all(&p, &r->links, i, models, widths[w], file, csv,
				      &r->texts[j], &r->texts[0], err);
		if (widths[w])
			mc_fmt(all, sizeof(all), "%s-models-%d", stem, widths[w]);
		else
			mc_fmt(all, sizeof(all), "%s-trained", stem);
		rc = rc || write_hardware_page(r, &p, j, all, err);
		page_release(&p);
	}
	r->stats->hardware_files += 10;
	if (!rc && j == 0) {
		sbuf out;

		sbuf_init(&out);
		hwpage_csv(&r->links, i, models, &out);
		mc_fmt(csv, sizeof(csv), "%s-models.csv", stem);
		rc = render_files_write_file(r->site, dir, csv, &out, err);
		sbuf_release(&out);
		r->stats->hardware_files++;
	}
	return rc;
}

/* The hardware index's charts in language j: their files (SVG and CSV)
 * in dir, their figures into html. 0, or -1 (err). */
static int hardware_index_charts(render_run *r, size_t j, const char *dir, sbuf *html,
				 mc_err *err)
{
	static const int kinds[] = { HWPAGE_CHART_MEMORY, HWPAGE_CHART_FLOPS16 };
	size_t k;
	int rc = 0;

	for (k = 0; !rc && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		sbuf svg, csv;

		sbuf_init(&svg);
		sbuf_init(&csv);
		if (hwpage_index_chart(&r->links, kinds[k], &r->texts[j], &r->texts[0], &svg, &csv,
				       html) > 0) {
			rc = render_files_write_file(r->site, dir, hwpage_index_chart_file(kinds[k], 0),
						     &svg, err) ||
			     render_files_write_file(r->site, dir, hwpage_index_chart_file(kinds[k], 1),
						     &csv, err);
			r->stats->hardware_files += 2;
		}
		sbuf_release(&svg);
		sbuf_release(&csv);
	}
	return rc ? -1 : 0;
}

/* The hardware pages and the hardware index of every language, beside the
 * model pages (LANG/hardware/). */
int render_index_hardware_pages(render_run *r, mc_err *err)
{
	hwpage_models models;
	char (*files)[140] = xcalloc(r->links.ncards + 1, sizeof(*files));
	size_t i, j;
	int rc = 0;

	hwpage_models_init(&models, r->entries, r->nentries);
	for (i = 0; i < r->links.ncards; i++) {
		char stem[128];

		render_file_stem(r->links.cards[i].name, stem, sizeof(stem));
		mc_fmt(files[i], sizeof(files[i]), "%s.html", stem);
	}
	for (j = 0; !rc && j < r->nlangs; j++) {
		char dir[4200];
		sbuf charts;
		page p;

		sbuf_init(&charts);
		mc_fmt(dir, sizeof(dir), "%s/hardware", r->dirs[j]);
		if ((rc = render_files_make_dirs(dir, err)))
			break;
		render_files_remove_stale_temps(dir);
		for (i = 0; !rc && i < r->links.ncards; i++)
			rc = hardware_card(r, j, i, files[i], &models, dir, err);
		page_init(&p, r->langs[j]);
		rc = rc || hardware_index_charts(r, j, dir, &charts, err) ||
		     hwpage_build_index(&p, &r->links, files, r->as_of, charts.data, &r->texts[j],
					&r->texts[0], err);
		sbuf_release(&charts);
		if (!rc)
			page_add_raw(&p, cite_of_index(r, j, "hardware/index.html"));
		rc = rc || write_hardware_page(r, &p, j, "index", err);
		page_release(&p);
		r->stats->hardware_files += 2;
	}
	r->stats->cards = r->links.ncards;
	hwpage_models_release(&models);
	free(files);
	return rc ? -1 : 0;
}

int render_hardware(catalogue *cat, const char *name, const char *lang, int html,
		    const char *as_of, sbuf *out, mc_err *err)
{
	render_run r;
	render_stats stats;
	hwpage_models models;
	page_texts texts;
	const hwlink_card *card;
	page p;
	char stem[128];
	int rc = -1, loaded;

	memset(&r, 0, sizeof(r));
	memset(&models, 0, sizeof(models));
	strmap_init(&models.by_name);
	page_texts_init(&texts, lang);
	page_init(&p, lang);
	r.cat = cat;
	r.as_of = as_of;
	r.stats = &stats;
	r.texts = xcalloc(1, sizeof(*r.texts));
	r.nlangs = 1;
	if ((loaded = translate_load(cat, "en", &r.texts[0], err)) == 0 && strcmp(lang, "en"))
		loaded = translate_load(cat, lang, &texts, err);
	if (loaded) {
		if (loaded > 0)
			mc_error(err, "no page texts stored for language '%s' (run modelcat translate;"
				 " its catalogue is translations/%s.xlf)", lang, lang);
		goto out;
	}
	if (hwlink_load(cat, as_of, &r.links, err) || cite_load(cat, as_of, &r.cite, err))
		goto out;
	r.cited = xcalloc(r.cite.n + 1, sizeof(*r.cited));
	if (!(card = hwlink_card_named(&r.links, name))) {
		rc = 1;
		goto out;
	}
	if (render_models_entries(&r, err))
		goto out;
	strmap_release(&models.by_name);
	hwpage_models_init(&models, r.entries, r.nentries);
	render_file_stem(card->name, stem, sizeof(stem));
	if (hwpage_build(&p, &r.links, (size_t)(card - r.links.cards), &models, stem,
			 strcmp(lang, "en") ? &texts : &r.texts[0], &r.texts[0], err))
		goto out;
	page_add_raw(&p, cite_of_data(&r, strcmp(lang, "en") ? &texts : &r.texts[0], NULL));
	if (html)
		page_render_html(&p, out);
	else
		page_render_text(&p, out);
	rc = 0;
out:
	page_release(&p);
	page_texts_release(&texts);
	hwpage_models_release(&models);
	render_run_release(&r);
	return rc;
}
