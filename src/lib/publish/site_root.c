#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"
#include "base/sha256.h"

#include <stdlib.h>
#include <string.h>

/* ---- the root page ---- */

/* What the root page adds to language lang's part: the downloads with
 * their sizes and the citation block (each export's latest file), in
 * that language (*html, the caller frees it). 0, or -1 (err). */
static int root_more(publish *p, const char *lang, char **html)
{
	page_texts texts;
	const provenance_file **files;
	char key[40], *url;
	size_t n;
	sbuf out;

	*html = NULL;
	if (translate_load(p->cat, lang, &texts, p->err) < 0)
		return -1;
	files = xcalloc(p->cite.n + 1, sizeof(*files));
	n = cite_latest(&p->cite, files);
	sbuf_init(&out);
	download_list_html(&p->downloads, "", &texts, &p->english, &out);
	mc_fmt(key, sizeof(key), "epochai:%s", p->data_day);
	url = cite_page_url(p->base_url, "index.html");
	cite_html(&out, 3, &texts, &p->english, key, url, files, n, p->cite.readme);
	free(url);
	*html = sbuf_detach(&out, NULL);
	free(files);
	page_texts_release(&texts);
	return 0;
}

/* The root page, DIR/index.html through the link install_root makes:
 * every language's words, the date of the data (data_day). 0, or -1 (err). */
int site_root_write(publish *p)
{
	frame *frames = xcalloc(p->nwords, sizeof(*frames));
	frame_alt *alts = xcalloc(p->nwords * p->nwords + 1, sizeof(*alts));
	frame_root_text *t = xcalloc(p->nwords, sizeof(*t));
	char **more = xcalloc(p->nwords + 1, sizeof(*more));
	char path[PATH_MAX], sha[65], day[11];
	size_t i;
	sbuf out;
	int rc = 0;

	for (i = 0; i < p->nwords; i++) {
		render_frame(&frames[i], alts + i * p->nwords, p->words, p->nwords, i, "",
			     p->base_url);
		t[i].f = &frames[i];
		t[i].name = p->words[i].name;
		t[i].about = p->words[i].about;
		t[i].published = p->words[i].published;
		if (!rc)
			rc = root_more(p, p->words[i].lang, &more[i]);
		t[i].more = more[i];
	}
	mc_fmt(day, sizeof(day), "%s", p->data_day);
	sbuf_init(&out);
	frame_root_html(t, p->nwords, day, &out);
	mc_fmt(path, sizeof(path), "%s/index.html", p->build);
	if (!rc)
		rc = site_fs_write_file(path, out.data, out.len, p->err);
	if (!rc && !(rc = sha256_file(path, sha, NULL, p->err))) {
		pthread_mutex_lock(&p->lock);   /* (the pages' job enters beside it) */
		site_manifest_add(&p->now, "index.html", sha);
		pthread_mutex_unlock(&p->lock);
	}
	sbuf_release(&out);
	mc_free_strings(more, p->nwords);
	free(t);
	free(alts);
	free(frames);
	return rc;
}
