#include "store/fetch.h"
#include "base/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *format_word(const store_content *content)
{
	if (content->members)
		return "bundle";
	switch (content->format) {
	case INPUT_GZIP: return "gzip";
	case INPUT_ZIP: return "zip";
	default: return "csv";
	}
}

/* Does the body's format match what the source declares? (A bundle is a
 * zip too; format bundle takes nothing else.) */
static int format_matches(enum source_format want, const store_content *content)
{
	enum input_format got = content->format;

	switch (want) {
	case SOURCE_CSV: return got == INPUT_PLAIN;
	case SOURCE_GZIP: return got == INPUT_GZIP;
	case SOURCE_ZIP: return got == INPUT_ZIP;
	case SOURCE_BUNDLE: return content->members > 0;
	default: return 1;
	}
}

static const char *format_phrase(const store_content *content)
{
	if (content->members)
		return "a bundle of several exports";
	switch (content->format) {
	case INPUT_GZIP: return "a gzip file";
	case INPUT_ZIP: return "a zip archive";
	default: return "plain CSV";
	}
}

/* Make err "NAME: MESSAGE; nothing stored"; returns -1. */
static int nothing_stored(mc_err *err, const char *name)
{
	char why[MC_ERR_MAX];

	memcpy(why, err->msg, sizeof(why));
	return mc_error(err, "%s: %s; nothing stored", name, why);
}

/* Make err "NAME: MESSAGE (what came: the status and the size); nothing
 * stored": the source, the status and the size name the body, never a
 * byte of it. Returns -1. */
static int body_refused(mc_err *err, const char *name, const http_response *resp)
{
	char why[MC_ERR_MAX];

	memcpy(why, err->msg, sizeof(why));
	if (resp->is_file)
		return mc_error(err, "%s: %s (a file of %zu bytes); nothing stored", name, why,
				resp->body.len);
	return mc_error(err, "%s: %s (HTTP %ld, %zu bytes, %llu on the wire); nothing stored",
			name, why, resp->status, resp->body.len, resp->wire_bytes);
}

/* A 304: note that the content is the one the validators came with. */
static int not_modified(store *st, const source *src, const store_entry *last,
			store_entry *note, const http_response *resp, fetch_outcome *out,
			mc_err *err)
{
	char *latest;

	note->event = "not-modified";
	note->file = last->file;
	note->sha256 = last->sha256;
	note->format = last->format;
	note->bytes = last->bytes;
	note->stored_bytes = last->stored_bytes;
	note->rows = last->rows;
	if (!resp->etag)
		note->etag = last->etag;
	if (!resp->last_modified)
		note->last_modified = last->last_modified;
	latest = xstrdup(last->file);   /* last is not valid after store_note() */
	if (store_note(st, note, err)) {
		free(latest);
		return mc_error_prefix(err, "%s", src->name);
	}
	mc_fmt(out->summary, sizeof(out->summary), "%s: not modified (HTTP 304); nothing"
	       " stored; latest %s/%s", src->name, store_dir(st), latest);
	out->result = FETCH_UNCHANGED;
	free(latest);
	return 0;
}

/* Store the examined body unless the latest snapshot holds its content. */
static int store_body(store *st, const source *src, const http_response *resp,
		      const store_content *content, time_t when, store_entry *note,
		      fetch_outcome *out, mc_err *err)
{
	char latest_sha[65], path[PATH_MAX];
	char *latest = NULL, *file = NULL;
	unsigned long long stored_bytes = 0;
	struct stat sb;
	int rc;

	rc = store_latest(st, src->name, &latest, latest_sha, err);
	if (rc < 0)
		goto fail;
	if (rc == 0 && !strcmp(latest_sha, content->sha256)) {
		mc_fmt(path, sizeof(path), "%s/%s", store_dir(st), latest);
		note->event = "seen";
		note->file = latest;
		note->stored_bytes = stat(path, &sb) ? 0 : (unsigned long long)sb.st_size;
		rc = store_note(st, note, err);
		free(latest);
		if (rc)
			return mc_error_prefix(err, "%s", src->name);
		mc_fmt(out->summary, sizeof(out->summary), "%s: unchanged, same content as %s"
		       " (sha256 %.12s); nothing stored", src->name, path, content->sha256);
		out->result = FETCH_UNCHANGED;
		return 0;
	}
	free(latest);
	if (store_put(st, src->name, resp->body.data, resp->body.len, content, when, &file,
		      &stored_bytes, err))
		goto fail;
	note->event = "stored";
	note->file = file;
	note->stored_bytes = stored_bytes;
	/* the snapshot is in place: a file without a manifest line is still a
	 * valid snapshot (its hash is computed when needed) */
	if (store_note(st, note, err)) {
		char why[MC_ERR_MAX];

		memcpy(why, err->msg, sizeof(why));
		mc_error(err, "%s: %s (the snapshot %s/%s is stored)", src->name, why,
			 store_dir(st), file);
	}
	mc_fmt(out->summary, sizeof(out->summary), "%s: stored %s/%s (%lu rows, %llu bytes,"
	       " sha256 %.12s%s)", src->name, store_dir(st), file, content->rows,
	       content->bytes, content->sha256, resp->attempts > 1 ? ", after retries" : "");
	out->result = FETCH_STORED;
	free(file);
	return 0;
fail:
	return nothing_stored(err, src->name);
}

int fetch_source(store *st, const source *src, const colmap *map,
		 const http_request *defaults, fetch_outcome *out, mc_err *err)
{
	const store_entry *last = store_last_fetch(st, src->name, src->url);
	http_request req = *defaults;
	http_response resp;
	store_content content;
	store_entry note;
	char fetched_at[21];
	mc_err herr;
	time_t when;
	int rc = -1;

	mc_err_clear(err);
	http_response_init(&resp);
	memset(&note, 0, sizeof(note));
	req.url = src->url;
	req.etag = last ? last->etag : NULL;
	req.last_modified = last ? last->last_modified : NULL;
	rc = http_get(&req, &resp, &herr);
	when = time(NULL);
	store_format_time(when, fetched_at);
	note.fetched_at = fetched_at;
	note.source = src->name;
	note.url = src->url;
	note.status = resp.status;
	note.etag = resp.etag ? resp.etag : "";
	note.last_modified = resp.last_modified ? resp.last_modified : "";
	note.download_bytes = resp.wire_bytes;
	if (rc == HTTP_FAILED) {
		rc = mc_error(err, "%s: %s: %s; nothing stored", src->name, src->url, herr.msg);
	} else if (rc == HTTP_NOT_MODIFIED) {
		rc = not_modified(st, src, last, &note, &resp, out, err);
	} else if (store_examine(resp.body.data, resp.body.len, src->url,
				 colmap_for_export(map, src->name),
				 defaults->max_bytes, &content, err)) {
		rc = body_refused(err, src->name, &resp);
	} else if (!format_matches(src->format, &content)) {
		rc = mc_error(err, "%s: %s: expected %s, got %s (see the source's format in"
			      " sources.tsv); nothing stored", src->name, src->url,
			      src->format == SOURCE_GZIP ? "a gzip file" :
			      src->format == SOURCE_ZIP ? "a zip archive" :
			      src->format == SOURCE_BUNDLE ? "a bundle (a zip of several exports)" :
			      "plain CSV", format_phrase(&content));
	} else {
		note.sha256 = content.sha256;
		note.format = format_word(&content);
		note.bytes = content.bytes;
		note.rows = content.rows;
		rc = store_body(st, src, &resp, &content, when, &note, out, err);
	}
	http_response_release(&resp);
	return rc;
}
