#include "publish/render.h"
#include "db/credit.h"
#include "db/query.h"
#include "base/sha256.h"
#include "publish/translate.h"
#include "db/translation.h"
#include "base/textout.h"
#include "publish/template.h"
#include "publish/cite.h"
#include "publish/download.h"
#include "publish/hwpage.h"
#include "publish/chart.h"
#include "publish/history_page.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void render_file_stem(const char *name, char *buf, size_t len)
{
	sha256_ctx hash;
	char hex[65], slug[61];
	size_t n = 0;
	const char *p;

	for (p = name; *p && n < sizeof(slug) - 1; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[n++] = c;
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	sha256_init(&hash);
	sha256_update(&hash, name, strlen(name));
	sha256_final_hex(&hash, hex);
	mc_fmt(buf, len, "%s-%.10s", n ? slug : "model", hex);
}

/* mkdir -p */
static int make_dirs(const char *path, mc_err *err)
{
	char buf[4096];
	size_t i, len = strlen(path);

	if (len >= sizeof(buf))
		return mc_error(err, "%s: path too long", path);
	memcpy(buf, path, len + 1);
	for (i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return mc_error(err, "%s: cannot create the folder: %s", buf, strerror(errno));
		buf[i] = path[i];
	}
	return 0;
}

/* A piece of a file's bytes. */
typedef struct piece {
	const char *data;
	size_t len;
} piece;

/* Write pieces pc[0..n) one after the other to dir/file: through the
 * site's file_out when publishing (the folder is the new version's, which
 * no reader sees yet; more than one piece goes in parts, file_part), else
 * through a temporary file renamed into place. */
static int write_pieces(const render_site *site, const char *dir, const char *file,
			const piece *pc, size_t n, mc_err *err)
{
	char path[4096], tmp[4200];
	size_t i;
	FILE *f;
	int ok = 1;

	mc_fmt(path, sizeof(path), "%s/%s", dir, file);
	if (site && site->out && n == 1)
		return file_out_put(site->out, path, pc[0].data, pc[0].len, err);
	if (site && site->out) {
		file_part part;

		if (file_part_open(&part, site->out, path, err))
			return -1;
		for (i = 0; i < n; i++)
			if (file_part_write(&part, pc[i].data, pc[i].len, err)) {
				file_part_abort(&part);
				return -1;
			}
		return file_part_close(&part, NULL, err);
	}
	mc_fmt(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	/* SIGINT, SIGTERM, SIGHUP (stage_init) remove it */
	mc_cleanup_add(tmp);
	f = fopen(tmp, "wb");
	if (!f) {
		mc_cleanup_remove(tmp);
		return mc_error(err, "%s: cannot create: %s", tmp, strerror(errno));
	}
	for (i = 0; i < n; i++)
		ok = ok && fwrite(pc[i].data, 1, pc[i].len, f) == pc[i].len;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path)) {
		mc_error(err, "%s: cannot write: %s", path, strerror(errno));
		unlink(tmp);
		mc_cleanup_remove(tmp);
		return -1;
	}
	mc_cleanup_remove(tmp);
	return 0;
}

/* Write content to dir/file (write_pieces). */
static int write_file(const render_site *site, const char *dir, const char *file,
		      const sbuf *content, mc_err *err)
{
	piece pc = { content->data ? content->data : "", content->len };

	return write_pieces(site, dir, file, &pc, 1, err);
}

/* Remove from dir the files NAME.tmpPID that a render killed outright
 * (SIGKILL) left, PID a process that no longer runs. */
static void remove_stale_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *mark = strstr(e->d_name, ".tmp"), *next;
		char path[4096], *end;
		struct stat st;
		long pid;

		while (mark && (next = strstr(mark + 1, ".tmp")))
			mark = next;
		if (!mark || mark == e->d_name || !mark[4])
			continue;
		errno = 0;
		pid = strtol(mark + 4, &end, 10);
		if (errno || pid <= 0 || *end || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		mc_fmt(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!lstat(path, &st) && S_ISREG(st.st_mode))
			unlink(path);
	}
	closedir(d);
}

/* The bytes a page's buffer starts with (write_page()). */
#define PAGE_ROOM 16384

/* Render p as text and HTML to dir/stem.txt and dir/stem.html; with fill,
 * its bytes in the HTML page's hole (page_render_html_hole: the full
 * index's table, written from where it was made, not copied). */
static int write_page(const render_site *site, const page *p, const char *dir, const char *stem,
		      const sbuf *fill, mc_err *err)
{
	char file[128];
	size_t hole;
	sbuf out;
	int rc = 0;

	sbuf_init(&out);
	/* room for most pages at once (a model's: 4 KB of text, 11 KB of
	   HTML at the bench's size), not grown from 64 bytes for each */
	sbuf_grow(&out, PAGE_ROOM);
	if (!p->html_only) {
		page_render_text(p, &out);
		mc_fmt(file, sizeof(file), "%s.txt", stem);
		rc = write_file(site, dir, file, &out, err);
		sbuf_reset(&out);
	}
	mc_fmt(file, sizeof(file), "%s.html", stem);
	if (fill) {
		page_render_html_hole(p, &out, &hole);
		if (hole == SIZE_MAX && !rc)
			rc = mc_error(err, "%s/%s: the page has no place for its table", dir, file);
		if (!rc) {
			piece pc[3] = { { out.data, hole },
					{ fill->data ? fill->data : "", fill->len },
					{ out.data + hole, out.len - hole } };

			rc = write_pieces(site, dir, file, pc, 3, err);
		}
	} else {
		page_render_html(p, &out);
		if (!rc)
			rc = write_file(site, dir, file, &out, err);
	}
	sbuf_release(&out);
	return rc;
}

/* What render_all works with. */
typedef struct render_run {
	catalogue *cat;              /* the catalogue */
	const char *as_of;           /* the date rendered */
	render_stats *stats;         /* what was done */
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
	const render_site *site;     /* the published site (NULL: no frame) */
	render_words *words;         /* with site: each language's frame words */
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
					with the entries (collect_entries) */
	size_t *order;               /* names' places in the order of their bytes
					(model_order()) */
	model_scan *scan;            /* this thread's scan of the models it is
					making (model_read()), or NULL */
} render_run;

/* The SHA-256 of every language's page texts (code, then each text by
 * its number) into r->stats->texts_sha: what the site compares to tell
 * pages changed by new texts. */
static void texts_digest(render_run *r)
{
	sha256_ctx h;
	size_t i, k;

	sha256_init(&h);
	for (i = 0; i < r->nlangs; i++) {
		sha256_update(&h, r->langs[i], strlen(r->langs[i]) + 1);
		for (k = 0; k < PT_COUNT; k++) {
			const char *t = r->texts[i].text[k] ? r->texts[i].text[k] : "";

			sha256_update(&h, &k, sizeof(k));
			sha256_update(&h, t, strlen(t) + 1);
		}
	}
	sha256_final_hex(&h, r->stats->texts_sha);
}

/* Load every stored language's texts and make its folder under outdir. */
static int load_languages(render_run *r, const char *outdir, mc_err *err)
{
	size_t i;

	if (translation_languages(r->cat, &r->langs, &r->nlangs, err))
		return -1;
	if (!r->nlangs || strcmp(r->langs[0], "en"))
		return mc_error(err, "%s: no page texts stored (run modelcat translate first)",
				r->cat->path);
	r->texts = xcalloc(r->nlangs, sizeof(*r->texts));
	r->dirs = xcalloc(r->nlangs, sizeof(*r->dirs));
	for (i = 0; i < r->nlangs; i++) {
		sbuf dir;

		if (translate_load(r->cat, r->langs[i], &r->texts[i], NULL))
			return mc_error(err, "%s: cannot load the page texts of %s", r->cat->path,
					r->langs[i]);
		sbuf_init(&dir);
		sbuf_addf(&dir, "%s/%s", outdir, r->langs[i]);
		r->dirs[i] = sbuf_detach(&dir, NULL);
		if (make_dirs(r->dirs[i], err))
			return -1;
		remove_stale_temps(r->dirs[i]);
	}
	texts_digest(r);
	return 0;
}

/* Text id of texts (else of english) with no placeholder filled in; a
 * text neither has: its key, so that a missing one shows. */
static char *word(const page_texts *texts, const page_texts *english, page_text_id id)
{
	sbuf s;

	sbuf_init(&s);
	page_text_plain(texts, english, id, NULL, &s);
	return sbuf_detach(&s, NULL);
}

static void words_of(const page_texts *texts, const page_texts *english, render_words *w)
{
	mc_fmt(w->lang, sizeof(w->lang), "%s", texts->lang);
	mc_fmt(w->index, sizeof(w->index), "pages/%s/index.html", texts->lang);
	w->name = word(texts, english, PT_SITE_LANGUAGE);
	w->site = word(texts, english, PT_SITE_NAME);
	w->nav = word(texts, english, PT_NAV_LABEL);
	w->index_label = word(texts, english, PT_NAV_INDEX);
	w->audit = word(texts, english, PT_NAV_AUDIT);
	w->about = word(texts, english, PT_SITE_ABOUT);
	w->published = word(texts, english, PT_SITE_PUBLISHED);
	w->hardware_label = word(texts, english, PT_NAV_HARDWARE);
	mc_fmt(w->hardware_index, sizeof(w->hardware_index), "pages/%s/hardware/index.html",
	       texts->lang);
}

void render_words_free(render_words *words, size_t n)
{
	size_t i;

	for (i = 0; words && i < n; i++) {
		free(words[i].name);
		free(words[i].site);
		free(words[i].nav);
		free(words[i].index_label);
		free(words[i].audit);
		free(words[i].about);
		free(words[i].published);
		free(words[i].hardware_label);
	}
	free(words);
}

int render_words_load(catalogue *cat, render_words **words, size_t *n, mc_err *err)
{
	char **langs = NULL;
	page_texts *texts;
	size_t nlangs = 0, i;
	int rc = 0;

	*words = NULL;
	*n = 0;
	if (translation_languages(cat, &langs, &nlangs, err))
		return -1;
	if (!nlangs || strcmp(langs[0], "en")) {
		mc_free_strings(langs, nlangs);
		return mc_error(err, "%s: no page texts stored (run modelcat translate first)",
				cat->path);
	}
	texts = xcalloc(nlangs, sizeof(*texts));
	for (i = 0; !rc && i < nlangs; i++)
		if (translate_load(cat, langs[i], &texts[i], NULL))
			rc = mc_error(err, "%s: cannot load the page texts of %s", cat->path, langs[i]);
	if (!rc) {
		*words = xcalloc(nlangs, sizeof(**words));
		for (i = 0; i < nlangs; i++)
			words_of(&texts[i], &texts[0], &(*words)[i]);
		*n = nlangs;
	}
	for (i = 0; i < nlangs; i++)
		page_texts_release(&texts[i]);
	free(texts);
	mc_free_strings(langs, nlangs);
	return rc;
}

void render_frame(frame *f, frame_alt *alts, const render_words *words, size_t n, size_t lang,
		  const char *root, const char *base_url)
{
	size_t i, k = 0;

	memset(f, 0, sizeof(*f));
	f->lang = words[lang].lang;
	f->root = root;
	f->base_url = base_url;
	f->site_name = words[lang].site;
	f->nav_label = words[lang].nav;
	f->index_label = words[lang].index_label;
	f->audit_label = words[lang].audit;
	f->index = words[lang].index;
	f->hardware_label = words[lang].hardware_label;
	f->hardware_index = words[lang].hardware_index;
	for (i = 0; i < n; i++) {
		if (i == lang)
			continue;
		alts[k].lang = words[i].lang;
		alts[k].name = words[i].name;
		alts[k].page = NULL;
		alts[k].index = words[i].index;
		k++;
	}
	f->alts = alts;
	f->nalts = k;
}

/* Frame page p (language lang) of the site, the same page being
 * pages/LANG/file in every language; paths (nlangs entries) hold them. */
static void frame_page(const render_run *r, page *p, frame *f, frame_alt *alts,
		       char (*paths)[200], size_t lang, const char *file)
{
	size_t i, k = 0;

	render_frame(f, alts, r->words, r->nlangs, lang, "../../",
		     r->site->base_url);
	for (i = 0; i < r->nlangs; i++) {
		mc_fmt(paths[i], sizeof(paths[i]), "pages/%s/%s", r->langs[i], file);
		if (i != lang)
			alts[k++].page = paths[i];
	}
	f->page = paths[lang];
	f->data = r->frame_data;
	f->data_label = r->frame_data_label;
	f->lead = r->frame_lead;
	p->frame = f;
}

/* Write page p of language lang as dir/stem.txt and .html: framed when
 * publishing; with fill, that in the HTML's hole (write_page). */
static int write_page_framed(const render_run *r, page *p, size_t lang, const char *stem,
			     const sbuf *fill, mc_err *err)
{
	frame f;
	frame_alt *alts = NULL;
	char (*paths)[200] = NULL;
	char file[160];
	int rc;

	if (r->site) {
		alts = xcalloc(r->nlangs, sizeof(*alts));
		paths = xcalloc(r->nlangs, sizeof(*paths));
		mc_fmt(file, sizeof(file), "%s.html", stem);
		frame_page(r, p, &f, alts, paths, lang, file);
	}
	rc = write_page(r->site, p, r->dirs[lang], stem, fill, err);
	p->frame = NULL;
	free(alts);
	free(paths);
	return rc;
}

int render_texts_digest(catalogue *cat, char sha[65], mc_err *err)
{
	render_run r;
	render_stats stats;
	size_t i;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.stats = &stats;
	if (translation_languages(cat, &r.langs, &r.nlangs, err))
		return -1;
	r.texts = xcalloc(r.nlangs + 1, sizeof(*r.texts));
	for (i = 0; !rc && i < r.nlangs; i++)
		if (translate_load(cat, r.langs[i], &r.texts[i], NULL))
			rc = mc_error(err, "%s: cannot load the page texts of %s", cat->path,
				      r.langs[i]);
	if (!rc) {
		texts_digest(&r);
		mc_fmt(sha, 65, "%s", stats.texts_sha);
	}
	for (i = 0; i < r.nlangs; i++)
		page_texts_release(&r.texts[i]);
	free(r.texts);
	mc_free_strings(r.langs, r.nlangs);
	return rc;
}

char *render_formerly(const former_name *formers, size_t n, const char *name)
{
	sbuf s;
	size_t i;

	sbuf_init(&s);
	for (i = 0; i < n; i++)
		if (!strcmp(formers[i].name, name))
			sbuf_addf(&s, "%s%s", s.len ? ", " : "", formers[i].former);
	if (!s.len) {
		sbuf_release(&s);
		return NULL;
	}
	return sbuf_detach(&s, NULL);
}

/* Is name a model on record (r->names is sorted, but case folded)? */
static int on_record(const render_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return 1;
	return 0;
}

/* The pages under a former name lead to the model's page: in HTML a
 * refresh, a canonical link and a visible link; as text one line naming
 * the page. Language-neutral: "OLD → NEW". */
static int write_redirect(const render_run *r, size_t lang, const former_name *f, mc_err *err)
{
	char old[128], now[128], file[140];
	sbuf out;
	int rc;

	render_file_stem(f->former, old, sizeof(old));
	render_file_stem(f->name, now, sizeof(now));
	sbuf_init(&out);
	sbuf_adds(&out, f->former);
	sbuf_addf(&out, " \xe2\x86\x92 %s: %s.txt\n", f->name, now);
	mc_fmt(file, sizeof(file), "%s.txt", old);
	rc = write_file(r->site, r->dirs[lang], file, &out, err);
	sbuf_reset(&out);
	sbuf_addf(&out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<meta http-equiv=\"refresh\" content=\"0; url=%s.html\">\n"
		  "<link rel=\"canonical\" href=\"%s.html\">\n<title>", r->langs[lang], now, now);
	textout_html(&out, f->name, strlen(f->name));
	sbuf_adds(&out, "</title>\n</head>\n<body>\n<p>");
	textout_html(&out, f->former, strlen(f->former));
	sbuf_addf(&out, " \xe2\x86\x92 <a href=\"%s.html\">", now);
	textout_html(&out, f->name, strlen(f->name));
	sbuf_adds(&out, "</a></p>\n</body>\n</html>\n");
	mc_fmt(file, sizeof(file), "%s.html", old);
	if (!rc)
		rc = write_file(r->site, r->dirs[lang], file, &out, err);
	sbuf_release(&out);
	return rc;
}

/* Is formers[i] the same rename as one before it (the same model renamed
 * alike in two exports)? */
static int repeated_former(const render_run *r, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (!strcmp(r->formers[k].former, r->formers[i].former) &&
		    !strcmp(r->formers[k].name, r->formers[i].name))
			return 1;
	return 0;
}

/* Every former name of a model on record (and of no model on record now)
 * keeps its pages, as redirects, in every language (once). */
static int render_redirects(render_run *r, mc_err *err)
{
	size_t i, j;

	for (i = 0; i < r->nformers; i++) {
		const former_name *f = &r->formers[i];

		if (!on_record(r, f->name) || on_record(r, f->former) || repeated_former(r, i))
			continue;
		for (j = 0; j < r->nlangs; j++) {
			if (write_redirect(r, j, f, err))
				return -1;
			r->stats->files += 2;
		}
	}
	return 0;
}

/* The citation block of model m's page (cite.h): the files of c its
 * values come from (cited: room for c->n of them). */
static char *cite_block(const cite_set *c, const provenance_file **cited, const model_view *m,
			const char *stem, const page_texts *texts, const page_texts *english)
{
	char key[160];
	size_t n = cite_model(c, m, cited);
	sbuf out, title;

	sbuf_init(&out);
	sbuf_init(&title);
	sbuf_addf(&title, CITE_TITLE ": %s", m->name);
	mc_fmt(key, sizeof(key), "epochai:%s", stem);
	cite_html(&out, 2, texts, english, key, title.data, cited, n, NULL);
	sbuf_release(&title);
	return sbuf_detach(&out, NULL);
}

static char *cite_of_model(render_run *r, const model_view *m, size_t lang, const char *stem)
{
	return cite_block(&r->cite, r->cited, m, stem, &r->texts[lang], &r->texts[0]);
}

int render_page_cite(catalogue *cat, const char *name, const model_view *m,
		     const page_texts *texts, const page_texts *english, page *p, mc_err *err)
{
	const provenance_file **cited;
	char stem[128];
	cite_set c;

	if (cite_load(cat, m->as_of, &c, err))
		return -1;
	cited = xcalloc(c.n + 1, sizeof(*cited));
	render_file_stem(name, stem, sizeof(stem));
	page_add_raw(p, cite_block(&c, cited, m, stem, texts, english));
	free(cited);
	cite_release(&c);
	return 0;
}

/* Model m's JSON twin beside the downloads; r->frame_data (its path from
 * the site root, in twin) links it from the pages framed next. */
static int write_twin(render_run *r, const model_view *m, size_t i, char twin[200], mc_err *err)
{
	size_t n = cite_model(&r->cite, m, r->cited);

	download_twin_path(r->stems[i], twin, 200);
	r->frame_data = twin;
	return download_twin(r->site->downloads, m, r->stems[i], r->langs, r->nlangs, r->cited, n,
			     err);
}

/* Where the items of m's training hardware link from its pages (page.h's
 * hardware_links: item, href), and the hardware index from its closing
 * sentence. */
static void hardware_links(const render_run *r, const model_view *m, page *p)
{
	const char *v = NULL;
	size_t i;

	for (i = 0; i < m->values.n && !v; i++)
		if (!strcmp(m->values.items[i].field, "Training hardware"))
			v = m->values.items[i].value;
	p->hardware_index = xstrdup("hardware/index.html");
	while (v && *v) {
		size_t len = strcspn(v, ",");
		char *item = xstrndup(v, len);
		const hwlink_card *c = hwlink_card_for(&r->links, item);

		if (c) {
			char stem[128];
			sbuf href;

			render_file_stem(c->name, stem, sizeof(stem));
			sbuf_init(&href);
			sbuf_addf(&href, "hardware/%s.html", stem);
			p->hardware_links = xrealloc(p->hardware_links, (p->nhardware_links + 1) * 2 *
						     sizeof(*p->hardware_links));
			p->hardware_links[2 * p->nhardware_links] = item;
			p->hardware_links[2 * p->nhardware_links + 1] = sbuf_detach(&href, NULL);
			p->nhardware_links++;
		} else {
			free(item);
		}
		v += len + (v[len] == ',');
	}
}

/* ---- every model on every core ---- */

#define RENDER_THREADS_ENV "MODELCAT_RENDER_THREADS"
#define RENDER_THREADS_MAX 8

/* The items (models, and the indexes with them) not yet taken, shared
 * by the workers, and what is done with each. */
typedef struct model_queue {
	atomic_size_t next;          /* the next item to take */
	size_t n;                    /* how many there are */
	atomic_int failed;           /* a worker failed: the others stop */
	int (*each)(render_run *, size_t, mc_err *);
} model_queue;

/* A worker beside the calling thread: a copy of the run with a connection,
 * counts and room for the cited files of its own. */
typedef struct render_worker {
	render_run run;
	catalogue cat;
	render_stats stats;
	model_queue *queue;
	pthread_t thread;
	mc_err err;
	int rc;
} render_worker;

/* How many models an item of the passes over them takes (model_chunk()),
 * read by one scan (query_scan_open()) in one read transaction: each
 * statement outside one takes and drops the catalogue's shared lock, and
 * looks for a journal, on its own (a tenth of a publish); a writer waits
 * for the lock at most the time of this many models. */
#define RENDER_CHUNK 32

/* Take the items the queue gives until none is left or one fails; when
 * the connection has no transaction open, each in a read transaction of
 * its own. */
static int render_queued(render_run *r, model_queue *q, mc_err *err)
{
	int own = 1, rc = 0;
	size_t i;

	while (!atomic_load(&q->failed) && (i = atomic_fetch_add(&q->next, 1)) < q->n) {
		int open = 0;

		if (own && (open = catalogue_read_begin(r->cat, err)) < 0) {
			rc = -1;
			break;
		}
		own = open;         /* a transaction of the caller's: none of ours */
		rc = q->each(r, i, err);
		if (open && catalogue_read_end(r->cat, rc ? NULL : err))
			rc = -1;
		if (rc)
			break;
	}
	if (rc)
		atomic_store(&q->failed, 1);
	return rc;
}

static void *worker_main(void *arg)
{
	render_worker *w = arg;

	w->rc = render_queued(&w->run, w->queue, &w->err);
	return NULL;
}

int render_threads_check(mc_err *err)
{
	const char *env = getenv(RENDER_THREADS_ENV);
	char *end;
	long n;

	if (!env || !*env)
		return 0;
	errno = 0;
	n = strtol(env, &end, 10);
	if (errno || *end || end == env || n < 1 || n > RENDER_THREADS_MAX)
		return mc_error(err, RENDER_THREADS_ENV "=%s: not a whole number from 1 to %d", env,
				RENDER_THREADS_MAX);
	return 0;
}

/* How many threads render the model pages: MODELCAT_RENDER_THREADS (1 to
 * 8; render_threads_check()), else the cores it may run on (mc_cores()),
 * at most 4; 1 unless the pages go to a site's file_out (thread-safe, no
 * temporary names) from a catalogue file that a second connection sees as
 * this one does (no transaction open). */
static size_t render_threads(const render_run *r)
{
	const char *env = getenv(RENDER_THREADS_ENV);
	long n = env && *env ? strtol(env, NULL, 10) : mc_cores();

	if (!env || !*env)
		n = n > 4 ? 4 : n;
	if (n < 1 || !r->site || !r->site->out || !r->cat->path || !r->cat->path[0] ||
	    !strcmp(r->cat->path, ":memory:") || catalogue_in_transaction(r->cat))
		return 1;
	return n > RENDER_THREADS_MAX ? RENDER_THREADS_MAX : (size_t)n;
}

/* Start worker w on q: 0, or -1 when it cannot be (the calling thread
 * does its share then). */
static int worker_start(render_worker *w, const render_run *r, model_queue *q)
{
	memset(w, 0, sizeof(*w));
	if (catalogue_open(&w->cat, r->cat->path, NULL, CATALOGUE_READONLY, &w->err))
		return -1;
	if (r->cat->default_key)
		w->cat.default_key = xstrdup(r->cat->default_key);
	query_updated_use(&w->cat, r->cat->updated);
	w->run = *r;
	w->run.cat = &w->cat;
	w->run.stats = &w->stats;
	w->run.cited = xcalloc(r->cite.n + 1, sizeof(*w->run.cited));
	w->queue = q;
	/* SIGINT, SIGTERM and SIGHUP go to the calling thread only: its
	 * handler removes the version being built (site_signal_cleanup()),
	 * whose file_out then refuses the workers' files, so they stop */
	if (mc_thread_start(&w->thread, worker_main, w)) {
		free(w->run.cited);
		catalogue_close(&w->cat);
		return -1;
	}
	return 0;
}

/* each(r, i) for every item i < n, on the threads render_threads() gives:
 * each takes the next item not taken; what each() does with item i
 * depends on nothing another does, so the result is one thread's,
 * whatever the order. 0, or -1 (err: the first failure). */
static int render_each(render_run *r, int (*each)(render_run *, size_t, mc_err *), size_t n_items,
		       mc_err *err)
{
	render_worker w[RENDER_THREADS_MAX - 1];
	model_queue q;
	size_t n = render_threads(r), started = 0, k;
	int rc;

	atomic_init(&q.next, 0);
	atomic_init(&q.failed, 0);
	q.n = n_items;
	q.each = each;
	while (started + 1 < n && !worker_start(&w[started], r, &q))
		started++;
	rc = render_queued(r, &q, err);
	for (k = 0; k < started; k++) {
		pthread_join(w[k].thread, NULL);
		if (w[k].rc && !rc) {
			*err = w[k].err;
			rc = -1;
		}
		r->stats->files += w[k].stats.files;
		r->stats->reused += w[k].stats.reused;
		free(w[k].run.cited);
		catalogue_close(&w[k].cat);
	}
	return rc;
}

/* ---- pages made before (render_reuse) ---- */

/* A key being made: its bytes gathered and hashed a few kilobytes at a
 * time (a model's key is hundreds of short strings; hashing each on its
 * own cost more than the hash). The digest is that of the bytes in order. */
typedef struct key_hash {
	sha256_ctx sha;
	size_t fill;
	unsigned char buf[4096];
} key_hash;

static void key_init(key_hash *k)
{
	sha256_init(&k->sha);
	k->fill = 0;
}

/* Hash what the buffer holds. */
static void key_flush(key_hash *k)
{
	sha256_update(&k->sha, k->buf, k->fill);
	k->fill = 0;
}

static void key_bytes(key_hash *k, const void *data, size_t len)
{
	if (len > sizeof(k->buf) - k->fill) {
		key_flush(k);
		if (len >= sizeof(k->buf)) {
			sha256_update(&k->sha, data, len);
			return;
		}
	}
	memcpy(k->buf + k->fill, data, len);
	k->fill += len;
}

static void key_final(key_hash *k, unsigned char digest[32])
{
	key_flush(k);
	sha256_final(&k->sha, digest);
}

static void key_final_hex(key_hash *k, char hex[65])
{
	key_flush(k);
	sha256_final_hex(&k->sha, hex);
}

/* Add s to a key, told apart from the next string and from NULL. */
static void key_str(key_hash *h, const char *s)
{
	if (!s) {
		key_bytes(h, "n", 1);
		return;
	}
	key_bytes(h, "s", 1);
	key_bytes(h, s, strlen(s) + 1);
}

/* What every model's files are made from (render_reuse): this program,
 * the page texts, the languages, the site's URL, the data's citation. */
static int global_key(render_run *r, mc_err *err)
{
	char exe[65];
	key_hash h;
	size_t i;

	if (sha256_file("/proc/self/exe", exe, NULL, err))
		return -1;
	key_init(&h);
	key_str(&h, "modelcat model files 1");
	key_str(&h, exe);
	key_str(&h, r->stats->texts_sha);
	for (i = 0; i < r->nlangs; i++)
		key_str(&h, r->langs[i]);
	key_str(&h, NULL);
	key_str(&h, r->site->base_url);
	key_str(&h, r->citation);
	key_str(&h, RENDER_AUDIT_ROOT);
	key_final(&h, r->global_key);
	return 0;
}

/* The model's values and sources, and the files they cite, into a key. */
static void key_values(render_run *r, const model_view *m, key_hash *h)
{
	size_t k, n = cite_model(&r->cite, m, r->cited);
	char num[64];

	key_str(h, m->name);
	key_str(h, m->last_updated);
	key_str(h, m->last_updated[0] ? NULL : m->as_of);
	for (k = 0; k < m->exports.n; k++)
		key_str(h, m->exports.items[k]);
	key_str(h, NULL);
	for (k = 0; k < m->values.n; k++) {
		const model_value *v = &m->values.items[k];

		key_str(h, v->field);
		key_str(h, v->value);
		key_str(h, v->export);
		key_str(h, v->since);
		mc_fmt(num, sizeof(num), "%lld", (long long)v->source);
		key_str(h, num);
	}
	key_str(h, NULL);
	for (k = 0; k < n; k++) {
		mc_fmt(num, sizeof(num), "%lld %llu", (long long)r->cited[k]->id,
		       r->cited[k]->bytes);
		key_str(h, num);
		key_str(h, r->cited[k]->export);
		key_str(h, r->cited[k]->day);
		key_str(h, r->cited[k]->sha256);
	}
	key_str(h, NULL);
}

/* Model i's history and former names, into a key. */
static void key_history(render_run *r, size_t i, key_hash *h)
{
	const timeline_model *life = timeline_find(&r->lives, r->names[i]);
	char *formerly = render_formerly(r->formers, r->nformers, r->names[i]);
	char num[32];
	size_t k;

	key_str(h, formerly);
	free(formerly);
	for (k = 0; life && k < life->n; k++) {
		const timeline_event *e = &life->events[k];

		mc_fmt(num, sizeof(num), "%d", (int)e->kind);
		key_str(h, e->date);
		key_str(h, num);
		key_str(h, e->export);
		key_str(h, e->field);
		key_str(h, e->old);
		key_str(h, e->new);
	}
	key_str(h, NULL);
}

/* All model i's files are made from but its chart (the index entries'
 * pass makes it, with the model at hand): into r->partial[i]. */
static void model_key_part(render_run *r, size_t i, const model_view *m)
{
	key_hash h;
	size_t j, k;

	key_init(&h);
	key_bytes(&h, r->global_key, sizeof(r->global_key));
	key_str(&h, r->names[i]);
	key_str(&h, r->stems[i]);
	key_values(r, m, &h);
	key_history(r, i, &h);
	/* (the citation block is made from what the key has already: the
	   page texts, the stem, the name and the files cited) */
	for (j = 0; j < r->nlangs; j++) {
		page p;

		page_init(&p, r->langs[j]);
		hardware_links(r, m, &p);
		key_str(&h, p.hardware_index);
		for (k = 0; k < 2 * p.nhardware_links; k++)
			key_str(&h, p.hardware_links[k]);
		key_str(&h, NULL);
		page_release(&p);
	}
	key_final(&h, r->partial[i]);
}

/* ---- the models, a chunk at a time ---- */

static int order_cmp(const void *a, const void *b, void *names)
{
	char **n = names;

	return strcmp(n[*(const size_t *)a], n[*(const size_t *)b]);
}

/* r->order: the places of r->names in the order of their bytes, the
 * order of the catalogue's index of names, which a scan reads. */
static void model_order(render_run *r)
{
	size_t i;

	r->order = xcalloc(r->nnames + 1, sizeof(*r->order));
	for (i = 0; i < r->nnames; i++)
		r->order[i] = i;
	qsort_r(r->order, r->nnames, sizeof(*r->order), order_cmp, r->names);
}

/* How many chunks of RENDER_CHUNK models r has. */
static size_t model_chunks(const render_run *r)
{
	return (r->nnames + RENDER_CHUNK - 1) / RENDER_CHUNK;
}

/* Chunk k's places in r->order: [*lo, *hi). */
static void model_chunk(const render_run *r, size_t k, size_t *lo, size_t *hi)
{
	*lo = k * RENDER_CHUNK;
	*hi = *lo + RENDER_CHUNK < r->nnames ? *lo + RENDER_CHUNK : r->nnames;
}

/* Read the models from r->names[first] to r->names[last] (in r->order) by
 * one scan, as model_read() asks for them, until model_scan_end(). 0, or
 * -1 (err). */
static int model_scan_start(render_run *r, size_t first, size_t last, mc_err *err)
{
	return query_scan_open(r->cat, r->as_of, r->names[first], r->names[last], &r->scan, err);
}

static void model_scan_end(render_run *r)
{
	query_scan_close(r->scan);
	r->scan = NULL;
}

/* Model i into m, as query_model() reads it: from this thread's scan when
 * one is open (asked in r->order). */
static int model_read(render_run *r, size_t i, model_view *m, mc_err *err)
{
	return r->scan ? query_model_next(r->scan, r->names[i], m, err) :
			 query_model(r->cat, r->names[i], r->as_of, m, err);
}

/* Model i's index entry, made in r->entries[i] (entry_of[i] = i), or
 * entry_of[i] = SIZE_MAX when it has no page. 0, or -1 (err). */
static int entry_of_model(render_run *r, size_t i, mc_err *err)
{
	model_view m;
	int found = model_read(r, i, &m, err);

	r->entry_of[i] = SIZE_MAX;
	if (found == 0) {
		render_file_stem(r->names[i], r->stems[i], sizeof(r->stems[i]));
		page_index_entry_fill(&r->entries[i], &m);
		r->entry_of[i] = i;
		if (r->partial)
			model_key_part(r, i, &m);
	}
	model_view_release(&m);
	return found < 0 ? -1 : 0;
}

/* The index entries of chunk k's models (model_chunk()), read by one
 * scan. 0, or -1 (err). */
static int entry_chunk(render_run *r, size_t k, mc_err *err)
{
	size_t lo, hi;
	int rc = 0;

	model_chunk(r, k, &lo, &hi);
	if (model_scan_start(r, r->order[lo], r->order[hi - 1], err))
		return -1;
	for (; lo < hi && !rc; lo++)
		rc = entry_of_model(r, r->order[lo], err);
	model_scan_end(r);
	return rc;
}

/* Item i of the index entries' pass: with a site's downloads to write,
 * item 0 writes them (taken first: the longest), and item i the entries
 * of chunk i - 1; else item i is chunk i's. */
static int entry_item(render_run *r, size_t i, mc_err *err)
{
	const render_site *site = r->site;

	if (site && site->downloads_dir) {
		if (!i)
			return download_write(r->cat, r->as_of, site->downloads_dir, site->base_url,
					      site->out, site->downloads, err);
		i--;
	}
	return entry_chunk(r, i, err);
}

/* Every model's index entry, before any page: a model page's chart
 * places its model among all of them (chart.h). Made on every core
 * (render_each), then moved down in the order of the names. */
static int collect_entries(render_run *r, mc_err *err)
{
	size_t i, downloads = r->site && r->site->downloads_dir ? 1 : 0;

	/* every model is looked up (here and for its pages): their dates in
	   one pass, as the list of their names was read */
	if (r->as_of) {
		if (query_updated_read(r->cat, r->as_of, &r->updated, err))
			return -1;
		query_updated_use(r->cat, &r->updated);
	}
	if (!r->order)
		model_order(r);
	if (render_each(r, entry_item, downloads + model_chunks(r), err)) {
		/* the entries made before the failure, still where they were
		   made (entry_of[i] == i; one never made is zeroed) */
		for (i = 0; i < r->nnames; i++)
			if (r->entry_of[i] == i)
				page_index_entry_release(&r->entries[i]);
		return -1;
	}
	for (i = 0; i < r->nnames; i++) {
		if (r->entry_of[i] == SIZE_MAX)
			continue;
		r->entries[r->nentries] = r->entries[i];
		mc_fmt(r->files[r->nentries], sizeof(r->files[r->nentries]), "%s.html",
		       r->stems[i]);
		r->entries[r->nentries].name = r->names[i];
		r->entries[r->nentries].file = r->files[r->nentries];
		r->entry_of[i] = r->nentries++;
	}
	chart_catalogue_init(&r->charts, r->entries, r->nentries);
	return 0;
}

/* Model i's chart in language j (chart.h) for its page p. */
static int model_charts(render_run *r, size_t i, size_t j, page *p, mc_err *err)
{
	sbuf html;

	if (r->entry_of[i] == SIZE_MAX)
		return 0;
	sbuf_init(&html);
	if (chart_catalogue_model(&r->charts, &r->entries[r->entry_of[i]], &r->texts[j],
				  &r->texts[0], &html, err)) {
		sbuf_release(&html);
		return -1;
	}
	p->charts = html.len ? sbuf_detach(&html, NULL) : NULL;
	sbuf_release(&html);
	return 0;
}

/* The key model i's files are made from (render_reuse), in hex: the
 * part its index entry's pass made, and its chart in every language,
 * left in charts[j] (NULL: none) for its pages when they are made. */
static int model_key(render_run *r, size_t i, char key[65], char **charts, mc_err *err)
{
	key_hash h;
	size_t j;

	key_init(&h);
	key_bytes(&h, r->partial[i], sizeof(r->partial[i]));
	for (j = 0; j < r->nlangs; j++) {
		page p;

		page_init(&p, r->langs[j]);
		if (model_charts(r, i, j, &p, err)) {
			page_release(&p);
			return -1;
		}
		key_str(&h, p.charts);
		charts[j] = p.charts;
		p.charts = NULL;
		page_release(&p);
	}
	key_final_hex(&h, key);
	return 0;
}

/* Take model i's files from the published version when it made them from
 * the same key (render_reuse), without reading the model again: 1 taken,
 * 0 not (they are to be made, with charts: model_key()), -1 (err). The key
 * is recorded either way. */
static int reuse_model(render_run *r, size_t i, char **charts, mc_err *err)
{
	const render_reuse *u = r->site->reuse;
	char key[65], **paths;
	const char *was;
	size_t n = 0, j;
	int rc;

	if (r->entry_of[i] == SIZE_MAX)
		return 0;   /* no entry: no page */
	if (model_key(r, i, key, charts, err))
		return -1;
	u->made(u->ctx, r->stems[i], key);
	was = u->prev_key(u->ctx, r->stems[i]);
	if (!was || strcmp(was, key))
		return 0;
	paths = xcalloc(2 * r->nlangs + 1, sizeof(*paths));
	for (j = 0; j < r->nlangs; j++) {
		sbuf path;

		if (!j && r->site->downloads) {
			sbuf_init(&path);
			download_twin_file(r->site->downloads, r->stems[i], &path);
			paths[n++] = sbuf_detach(&path, NULL);
		}
		sbuf_init(&path);
		sbuf_addf(&path, "%s/%s.txt", r->dirs[j], r->stems[i]);
		paths[n++] = sbuf_detach(&path, NULL);
		sbuf_init(&path);
		sbuf_addf(&path, "%s/%s.html", r->dirs[j], r->stems[i]);
		paths[n++] = sbuf_detach(&path, NULL);
	}
	rc = u->take(u->ctx, paths, n, err);
	mc_free_strings(paths, n);
	if (rc == 1) {
		r->stats->files += 2 * r->nlangs;
		r->stats->reused++;
	}
	return rc;
}

/* The pages of model i in every language (its index entry is made), with
 * charts[j] its chart in language j when its key was made (reuse_model();
 * the pages take them). */
static int render_model(render_run *r, size_t i, char **charts, mc_err *err)
{
	char twin[200];
	model_view m;
	size_t j;
	int found, rc = -1;

	found = model_read(r, i, &m, err);
	if (found < 0)
		goto out;
	render_file_stem(r->names[i], r->stems[i], sizeof(r->stems[i]));
	if (found == 0 && r->site && r->site->downloads && write_twin(r, &m, i, twin, err))
		goto out;
	for (j = 0; found == 0 && j < r->nlangs; j++) {
		page p;
		int failed;

		char *label = r->site ? word(&r->texts[j], &r->texts[0], PT_DOWNLOADS_PAGE) : NULL;

		page_init(&p, r->langs[j]);
		p.formerly = render_formerly(r->formers, r->nformers, r->names[i]);
		p.citation = r->citation ? xstrdup(r->citation) : NULL;
		hardware_links(r, &m, &p);
		/* (the key's charts, when the key was made) */
		p.charts = charts[j];
		charts[j] = NULL;
		failed = (!r->partial && model_charts(r, i, j, &p, err)) ||
			 page_build(&p, &m, &r->texts[j], &r->texts[0], err) ||
			 history_page_add(&p, timeline_find(&r->lives, r->names[i]), &m,
					  r->site ? RENDER_AUDIT_ROOT : NULL, &r->texts[j],
					  &r->texts[0], err);
		if (!failed)
			page_add_raw(&p, cite_of_model(r, &m, j, r->stems[i]));
		r->frame_data_label = label;
		failed = failed || write_page_framed(r, &p, j, r->stems[i], NULL, err);
		r->frame_data_label = NULL;
		free(label);
		page_release(&p);
		if (failed)
			goto out;
		r->stats->files += 2;
	}
	rc = 0;
out:
	r->frame_data = NULL;
	model_view_release(&m);
	return rc;
}

/* The pages of chunk k's models (model_chunk()): those whose files are
 * taken from the published version first (reuse_model()), then the
 * others, read by one scan when they are at least half the chunk (else
 * one by one: a scan reads the models between). 0, or -1 (err). */
static int page_chunk(render_run *r, size_t k, mc_err *err)
{
	char **charts[RENDER_CHUNK];
	size_t lo, hi, j, first = SIZE_MAX, last = 0, made = 0;
	int rc = 0;

	model_chunk(r, k, &lo, &hi);
	for (j = lo; j < hi; j++) {
		int taken = 0;

		charts[j - lo] = xcalloc(r->nlangs + 1, sizeof(**charts));
		if (r->partial && !rc && (taken = reuse_model(r, r->order[j], charts[j - lo], err)) < 0)
			rc = -1;
		if (taken) {
			mc_free_strings(charts[j - lo], r->nlangs);
			charts[j - lo] = NULL;
			continue;
		}
		first = first == SIZE_MAX ? j : first;
		last = j;
		made++;
	}
	if (!rc && made && 2 * made >= hi - lo &&
	    model_scan_start(r, r->order[first], r->order[last], err))
		rc = -1;
	for (j = lo; j < hi; j++) {
		if (!charts[j - lo])
			continue;
		if (!rc)
			rc = render_model(r, r->order[j], charts[j - lo], err);
		mc_free_strings(charts[j - lo], r->nlangs);
	}
	if (r->scan)
		model_scan_end(r);
	return rc;
}

/* The citation block of a page on the whole data (an index, a card's
 * page) in texts: each export's latest file, and the bundle's README
 * citation. */
static char *cite_of_data(render_run *r, const page_texts *texts)
{
	char key[40];
	size_t n = cite_latest(&r->cite, r->cited);
	sbuf out;

	sbuf_init(&out);
	mc_fmt(key, sizeof(key), "epochai:%s", r->as_of ? r->as_of : "");
	cite_html(&out, 2, texts, &r->texts[0], key, CITE_TITLE, r->cited, n, r->cite.readme);
	return sbuf_detach(&out, NULL);
}

static char *cite_of_index(render_run *r, size_t lang)
{
	return cite_of_data(r, &r->texts[lang]);
}

/* Language j's chart files and the page of their data beside its index,
 * and the index's figures for p (chart.h). */
static int index_charts(render_run *r, size_t j, page *p, mc_err *err)
{
	sbuf compute, parameters, html, tables;
	page data;
	char *title;
	int rc;

	sbuf_init(&compute);
	sbuf_init(&parameters);
	sbuf_init(&html);
	sbuf_init(&tables);
	page_init(&data, r->langs[j]);
	title = word(&r->texts[j], &r->texts[0], PT_CHART_DATA_TITLE);
	rc = chart_catalogue_index(&r->charts, &r->texts[j], &r->texts[0], &compute, &parameters,
				   &html, &tables, err) ||
	     write_file(r->site, r->dirs[j], CHART_COMPUTE_FILE, &compute, err) ||
	     write_file(r->site, r->dirs[j], CHART_PARAMETERS_FILE, &parameters, err);
	if (!rc) {
		char *cite = cite_of_index(r, j);

		sbuf_adds(&tables, cite);
		free(cite);
		page_build_raw(&data, title, tables.data);
		rc = write_page_framed(r, &data, j, CHART_DATA_PAGE, NULL, err);
	}
	if (!rc) {
		r->stats->files += 4;
		p->charts = html.len ? sbuf_detach(&html, NULL) : NULL;
	}
	page_release(&data);
	free(title);
	sbuf_release(&compute);
	sbuf_release(&parameters);
	sbuf_release(&html);
	sbuf_release(&tables);
	return rc ? -1 : 0;
}

int render_page_history(catalogue *cat, page *p, const model_view *m, const char *name,
			const page_texts *texts, const page_texts *english, mc_err *err)
{
	timeline lives;
	const timeline_model *life;
	int rc;

	if (timeline_read(cat, m->as_of, name, &lives, err))
		return -1;
	life = timeline_find(&lives, name);
	if (!life && m->name)           /* asked by a former name */
		life = timeline_find(&lives, m->name);
	rc = history_page_add(p, life, m, NULL, texts, english, err);
	timeline_release(&lives);
	return rc;
}

/* The index page of language j, with its charts, its table of every
 * model and the rows its script loads. */
static int render_index(render_run *r, size_t j, mc_err *err)
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
	failed = index_charts(r, j, &p, err) ||
		 page_build_index(&p, r->entries, r->nentries, r->as_of, NULL, &rows,
				  &table, &r->texts[j], &r->texts[0], err) ||
		 page_build_index(&all, r->entries, r->nentries, r->as_of, PAGE_INDEX_HOLE, NULL,
				  NULL, &r->texts[j], &r->texts[0], err);
	if (!failed) {
		page_add_raw(&p, cite_of_index(r, j));
		page_add_raw(&all, cite_of_index(r, j));
	}
	if (r->site && r->site->downloads)
		download_list_html(r->site->downloads, "../../", &r->texts[j], &r->texts[0],
				   &lead);
	r->frame_lead = lead.len ? lead.data : NULL;
	failed = failed || write_page_framed(r, &p, j, "index", NULL, err) ||
		 write_page_framed(r, &all, j, PAGE_INDEX_ALL, &table, err) ||
		 write_file(r->site, r->dirs[j], PAGE_INDEX_ROWS, &rows, err);
	r->frame_lead = NULL;
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

/* Item i of the pages' pass: the index of language i for the first
 * nlangs (the largest pages, taken first so that no thread is left
 * making one at the end), then chunk i - nlangs of the models. */
static int render_item(render_run *r, size_t i, mc_err *err)
{
	return i < r->nlangs ? render_index(r, i, err) : page_chunk(r, i - r->nlangs, err);
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
	rc = write_page(r->site, p, dir, stem, NULL, err);
	p->frame = NULL;
	free(alts);
	free(paths);
	return rc;
}

/* The hardware pages and the hardware index of every language, beside the
 * model pages (LANG/hardware/). */
static int render_hardware_pages(render_run *r, mc_err *err)
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
		page p;

		mc_fmt(dir, sizeof(dir), "%s/hardware", r->dirs[j]);
		if ((rc = make_dirs(dir, err)))
			break;
		remove_stale_temps(dir);
		for (i = 0; !rc && i < r->links.ncards; i++) {
			char stem[128];

			mc_fmt(stem, sizeof(stem), "%.*s", (int)strlen(files[i]) - 5, files[i]);
			page_init(&p, r->langs[j]);
			rc = hwpage_build(&p, &r->links, i, &models, &r->texts[j], &r->texts[0], err);
			if (!rc)
				page_add_raw(&p, cite_of_index(r, j));
			rc = rc || write_hardware_page(r, &p, j, stem, err);
			page_release(&p);
			r->stats->hardware_files += 2;
		}
		page_init(&p, r->langs[j]);
		rc = rc || hwpage_build_index(&p, &r->links, files, r->as_of, &r->texts[j],
					      &r->texts[0], err);
		if (!rc)
			page_add_raw(&p, cite_of_index(r, j));
		rc = rc || write_hardware_page(r, &p, j, "index", err);
		page_release(&p);
		r->stats->hardware_files += 2;
	}
	r->stats->cards = r->links.ncards;
	hwpage_models_release(&models);
	free(files);
	return rc ? -1 : 0;
}

static void render_run_release(render_run *r)
{
	size_t i;

	for (i = 0; r->texts && i < r->nlangs; i++)
		page_texts_release(&r->texts[i]);
	free(r->texts);
	mc_free_strings(r->dirs, r->nlangs);
	mc_free_strings(r->langs, r->nlangs);
	mc_free_strings(r->names, r->nnames);
	free(r->stems);
	free(r->files);
	for (i = 0; r->entries && i < r->nentries; i++)
		page_index_entry_release(&r->entries[i]);
	free(r->entries);
	free(r->entry_of);
	free(r->order);
	free(r->partial);
	chart_catalogue_release(&r->charts);
	former_names_release(r->formers, r->nformers);
	free(r->citation);
	render_words_free(r->words, r->words ? r->nlangs : 0);
	cite_release(&r->cite);
	free(r->cited);
	hwlink_day_release(&r->links);
	timeline_release(&r->lives);
	if (r->cat && r->cat->updated == &r->updated)
		query_updated_use(r->cat, NULL);
	query_updated_release(&r->updated);
}

/* ---- the reads beside the list of models ---- */

/* Every model's history, read on a connection and a thread of its own
 * while render_all() reads the list of models and the rest: one after the
 * other they were 0.14 and 0.15 s of a publication at the bench's size,
 * on one core (on a fresh connection, the history takes 0.19 s). */
typedef struct histories {
	render_run *r;               /* r->lives is read into */
	catalogue cat;               /* the thread's connection, when open */
	int own;                     /* cat is open */
} histories;

static int histories_read(void *arg, mc_err *err)
{
	histories *h = arg;

	return timeline_read(h->own ? &h->cat : h->r->cat, h->r->as_of, NULL, &h->r->lives, err);
}

/* Start reading r's histories into r->lives (h, j): on a thread and a
 * connection of their own when r's pages are made on more than one
 * (render_threads()), else here at once. r->lives is not to be touched
 * before mc_job_wait(j). */
static void histories_start(histories *h, mc_job *j, render_run *r)
{
	mc_err ignored;

	h->r = r;
	h->own = render_threads(r) > 1 &&
		 !catalogue_open(&h->cat, r->cat->path, NULL, CATALOGUE_READONLY, &ignored);
	mc_job_start(j, histories_read, h, h->own);
}

int render_all(catalogue *cat, const char *as_of, const char *outdir, const render_site *site,
	       render_stats *stats, mc_err *err)
{
	render_run r;
	histories lives;
	mc_job read_lives;
	size_t i;
	int failed, rc = -1;

	memset(stats, 0, sizeof(*stats));
	memset(&r, 0, sizeof(r));
	r.cat = cat;
	r.as_of = as_of;
	r.stats = stats;
	r.site = site;
	histories_start(&lives, &read_lives, &r);
	failed = mc_job_wait(&read_lives,
			 load_languages(&r, outdir, err) ||
				 query_models(cat, as_of, &r.names, &r.nnames, err) ||
				 query_former_names(cat, as_of, &r.formers, &r.nformers, err) ||
				 credit_citation_upto(cat, as_of, &r.citation, err) < 0 ||
				 cite_load(cat, as_of, &r.cite, err) ||
				 hwlink_load(cat, as_of, &r.links, err),
			 err);
	if (lives.own)
		catalogue_close(&lives.cat);
	if (failed)
		goto out;
	r.cited = xcalloc(r.cite.n + 1, sizeof(*r.cited));
	if (site) {
		r.words = xcalloc(r.nlangs, sizeof(*r.words));
		for (i = 0; i < r.nlangs; i++)
			words_of(&r.texts[i], &r.texts[0], &r.words[i]);
	}
	r.stems = xcalloc(r.nnames + 1, sizeof(*r.stems));
	r.files = xcalloc(r.nnames + 1, sizeof(*r.files));
	r.entries = xcalloc(r.nnames + 1, sizeof(*r.entries));
	r.entry_of = xcalloc(r.nnames + 1, sizeof(*r.entry_of));
	if (site && site->reuse) {
		if (global_key(&r, err))
			goto out;
		r.partial = xcalloc(r.nnames + 1, sizeof(*r.partial));
	}
	if (collect_entries(&r, err))
		goto out;
	if (render_each(&r, render_item, r.nlangs + model_chunks(&r), err))
		goto out;
	stats->models = r.nentries;
	if (render_redirects(&r, err) || render_hardware_pages(&r, err))
		goto out;
	stats->languages = r.nlangs;
	if (site && site->keep_names) {
		stats->names = r.names;   /* (the entries that point into them are freed) */
		stats->nnames = r.nnames;
		r.names = NULL;
	}
	rc = 0;
out:
	render_run_release(&r);
	return rc;
}

/* Every model on record on as_of as index entries (name, file, weights,
 * parameters, the charts' values) into r->entries, for the hardware pages
 * and a model's chart. 0, or -1 (err). */
static int model_entries(render_run *r, mc_err *err)
{
	if (query_models(r->cat, r->as_of, &r->names, &r->nnames, err))
		return -1;
	r->stems = xcalloc(r->nnames + 1, sizeof(*r->stems));
	r->files = xcalloc(r->nnames + 1, sizeof(*r->files));
	r->entries = xcalloc(r->nnames + 1, sizeof(*r->entries));
	r->entry_of = xcalloc(r->nnames + 1, sizeof(*r->entry_of));
	return collect_entries(r, err);
}

int render_page_extras(catalogue *cat, const model_view *m, const char *name,
		       const page_texts *texts, const page_texts *english, page *p, mc_err *err)
{
	render_run r;
	render_stats stats;
	size_t i, at = SIZE_MAX;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.cat = cat;
	r.as_of = m->as_of;
	r.stats = &stats;
	if (model_entries(&r, err) || hwlink_load(cat, m->as_of, &r.links, err)) {
		render_run_release(&r);
		return -1;
	}
	hardware_links(&r, m, p);
	for (i = 0; i < r.nnames && at == SIZE_MAX; i++)
		if (!strcmp(r.names[i], name) || (m->name && !strcmp(r.names[i], m->name)))
			at = r.entry_of[i];
	if (at != SIZE_MAX) {
		sbuf html;

		sbuf_init(&html);
		rc = chart_catalogue_model(&r.charts, &r.entries[at], texts, english, &html, err);
		if (!rc && html.len) {
			free(p->charts);
			p->charts = sbuf_detach(&html, NULL);
		}
		sbuf_release(&html);
	}
	render_run_release(&r);
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
	if (model_entries(&r, err))
		goto out;
	strmap_release(&models.by_name);
	hwpage_models_init(&models, r.entries, r.nentries);
	if (hwpage_build(&p, &r.links, (size_t)(card - r.links.cards), &models,
			 strcmp(lang, "en") ? &texts : &r.texts[0], &r.texts[0], err))
		goto out;
	page_add_raw(&p, cite_of_data(&r, strcmp(lang, "en") ? &texts : &r.texts[0]));
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
