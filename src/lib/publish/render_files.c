#include "publish/render_internal.h"
#include "publish/render.h"
#include "base/textout.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writing the files: through the site's file_out, or in place ---- */

/* mkdir -p */
int render_files_make_dirs(const char *path, mc_err *err)
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
int render_files_write_file(const render_site *site, const char *dir, const char *file,
			    const sbuf *content, mc_err *err)
{
	piece pc = { content->data ? content->data : "", content->len };

	return write_pieces(site, dir, file, &pc, 1, err);
}

/* Remove from dir the files NAME.tmpPID that a render killed outright
 * (SIGKILL) left, PID a process that no longer runs. */
void render_files_remove_stale_temps(const char *dir)
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

/* The bytes a page's buffer starts with (render_files_write_page()). */
#define PAGE_ROOM 16384

/* Render p as text and HTML to dir/stem.txt and dir/stem.html; with fill,
 * its bytes in the HTML page's hole (page_render_html_hole: the full
 * index's table, written from where it was made, not copied). */
int render_files_write_page(const render_site *site, const page *p, const char *dir,
			    const char *stem, const sbuf *fill, mc_err *err)
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
		rc = render_files_write_file(site, dir, file, &out, err);
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
			rc = render_files_write_file(site, dir, file, &out, err);
	}
	sbuf_release(&out);
	return rc;
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
 * publishing; with fill, that in the HTML's hole (render_files_write_page). */
int render_files_write_page_framed(const render_run *r, page *p, size_t lang, const char *stem,
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
	rc = render_files_write_page(r->site, p, r->dirs[lang], stem, fill, err);
	p->frame = NULL;
	free(alts);
	free(paths);
	return rc;
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
	rc = render_files_write_file(r->site, r->dirs[lang], file, &out, err);
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
		rc = render_files_write_file(r->site, r->dirs[lang], file, &out, err);
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
int render_files_redirects(render_run *r, mc_err *err)
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
