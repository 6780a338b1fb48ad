#include "store/http.h"

#include <curl/curl.h>
#include <zlib.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* Header values longer than this are ignored (an ETag that long is not
 * one we would send back). */
#define HTTP_HEADER_MAX 4096

/* What one attempt came to. */
enum outcome {
	OUTCOME_BODY,          /* a body to use */
	OUTCOME_NOT_MODIFIED,  /* 304 */
	OUTCOME_RETRY,         /* a transient failure: try again */
	OUTCOME_FAIL           /* a failure that retrying will not mend */
};

/* The state of one http_get(), shared with the callbacks. */
struct transfer {
	const http_request *req;     /* the request */
	http_response *resp;         /* where the body and headers go */
	int conditional;             /* validators were sent */
	int over_cap;                /* the body passed max_bytes: stopped */
	int gzip;                    /* Content-Encoding: gzip: decoded here */
	char encoding[32];           /* a Content-Encoding not known, or "" */
	int inflating;               /* zs is set up */
	int member_open;             /* inside a gzip member (its end not seen) */
	int decode_failed;           /* the gzip body is damaged: stopped */
	z_stream zs;                 /* decoding the gzip body, member by member */
	char *retry_after;           /* Retry-After of the last response; owned */
	char status_line[256];       /* last status line, e.g. "HTTP/1.1 200 OK" */
	mc_err *err;                 /* why the last attempt failed (never
					NULL: the caller's or http_get's own) */
};

static uint64_t jitter_state;

int http_global_init(void)
{
	jitter_state = (uint64_t)time(NULL) * 6364136223846793005ULL ^ (uint64_t)getpid();
	if (!jitter_state)
		jitter_state = 1;
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void http_global_cleanup(void)
{
	curl_global_cleanup();
}

const char *http_user_agent(void)
{
	return "modelcat/" MODELCAT_VERSION;
}

void http_request_init(http_request *req)
{
	memset(req, 0, sizeof(*req));
	req->max_bytes = 128ULL << 20;
	req->connect_timeout_ms = 30000;
	req->timeout_ms = 600000;
	req->max_redirects = 5;
	req->attempts = 4;
	req->retry_base_ms = 1000;
	req->retry_max_ms = 30000;
	req->retry_after_max_ms = 300000;
}

void http_response_init(http_response *resp)
{
	memset(resp, 0, sizeof(*resp));
	sbuf_init(&resp->body);
	resp->content_length = -1;
}

/* Forget the headers of a previous response. */
static void clear_headers(struct transfer *t)
{
	http_response *resp = t->resp;

	free(resp->etag);
	free(resp->last_modified);
	free(resp->content_type);
	free(t->retry_after);
	resp->etag = resp->last_modified = resp->content_type = t->retry_after = NULL;
}

void http_response_release(http_response *resp)
{
	if (!resp)
		return;
	sbuf_release(&resp->body);
	free(resp->etag);
	free(resp->last_modified);
	free(resp->content_type);
	free(resp->effective_url);
	http_response_init(resp);
}

/* Add n decoded bytes to the body, within the cap; 0, or -1 (over it). */
static int add_decoded(struct transfer *t, const void *data, size_t n)
{
	if (n > t->req->max_bytes - t->resp->body.len) {
		t->over_cap = 1;
		return -1;
	}
	sbuf_add(&t->resp->body, data, n);
	return 0;
}

/* Decode n bytes of a gzip body: every member of it (a body of several
 * gzip members, as gzip and pigz write them, is their contents one after
 * the other), the cap applied to the decoded size as it grows. 0, or -1
 * (over the cap, or damaged). */
static int inflate_gzip(struct transfer *t, const char *data, size_t n)
{
	unsigned char out[16384];

	if (!t->inflating) {
		memset(&t->zs, 0, sizeof(t->zs));
		if (inflateInit2(&t->zs, 16 + MAX_WBITS) != Z_OK)
			return t->decode_failed = 1, -1;
		t->inflating = 1;
	}
	t->zs.next_in = (unsigned char *)(uintptr_t)data;
	t->zs.avail_in = (uInt)n;
	while (t->zs.avail_in) {
		int zrc;

		if (!t->member_open) {
			inflateReset(&t->zs);
			t->member_open = 1;
		}
		t->zs.next_out = out;
		t->zs.avail_out = sizeof(out);
		zrc = inflate(&t->zs, Z_NO_FLUSH);
		if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR)
			return t->decode_failed = 1, -1;
		if (add_decoded(t, out, sizeof(out) - t->zs.avail_out))
			return -1;
		if (zrc == Z_STREAM_END)
			t->member_open = 0;   /* the next bytes start a member */
		else if (zrc == Z_BUF_ERROR && t->zs.avail_out)
			break;
	}
	return 0;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *userdata)
{
	struct transfer *t = userdata;
	size_t n = size * nmemb;

	if (t->encoding[0]) {
		t->decode_failed = 1;
		return 0;   /* libcurl stops the transfer: CURLE_WRITE_ERROR */
	}
	if (t->gzip)
		return inflate_gzip(t, data, n) ? 0 : n;
	return add_decoded(t, data, n) ? 0 : n;
}

/* Forget the decoding of a previous response or attempt. */
static void reset_decoding(struct transfer *t)
{
	if (t->inflating)
		inflateEnd(&t->zs);
	t->inflating = t->member_open = t->gzip = t->decode_failed = 0;
	t->encoding[0] = '\0';
}

/* Note the response's Content-Encoding: gzip is decoded by on_body();
 * identity is none; any other is refused (we asked for gzip only). */
static void note_encoding(struct transfer *t, const char *value, size_t len)
{
	if ((len == 4 && !strncasecmp(value, "gzip", 4)) ||
	    (len == 6 && !strncasecmp(value, "x-gzip", 6)))
		t->gzip = 1;
	else if (len && !(len == 8 && !strncasecmp(value, "identity", 8)))
		mc_fmt(t->encoding, sizeof(t->encoding), "%.*s",
		       (int)(len < sizeof(t->encoding) ? len : sizeof(t->encoding) - 1), value);
}

/* Copy a header value into *slot (replacing what was there). */
static void keep_header(char **slot, const char *value, size_t len)
{
	free(*slot);
	*slot = len <= HTTP_HEADER_MAX ? xstrndup(value, len) : NULL;
}

static size_t on_header(char *data, size_t size, size_t nitems, void *userdata)
{
	struct transfer *t = userdata;
	size_t n = size * nitems, len = n, name_len;
	const char *colon, *value;

	while (len && (data[len - 1] == '\n' || data[len - 1] == '\r'))
		len--;
	if (len >= 5 && !strncmp(data, "HTTP/", 5)) {
		/* a new response (after a redirect, say): its headers only */
		clear_headers(t);
		reset_decoding(t);
		mc_fmt(t->status_line, sizeof(t->status_line), "%.*s",
		       (int)(len < sizeof(t->status_line) ? len : sizeof(t->status_line) - 1),
		       data);
		return n;
	}
	colon = memchr(data, ':', len);
	if (!colon)
		return n;
	name_len = (size_t)(colon - data);
	value = colon + 1;
	while (value < data + len && (*value == ' ' || *value == '\t'))
		value++;
	len = (size_t)(data + len - value);
	while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	if (name_len == 4 && !strncasecmp(data, "ETag", 4))
		keep_header(&t->resp->etag, value, len);
	else if (name_len == 13 && !strncasecmp(data, "Last-Modified", 13))
		keep_header(&t->resp->last_modified, value, len);
	else if (name_len == 12 && !strncasecmp(data, "Content-Type", 12))
		keep_header(&t->resp->content_type, value, len);
	else if (name_len == 11 && !strncasecmp(data, "Retry-After", 11))
		keep_header(&t->retry_after, value, len);
	else if (name_len == 16 && !strncasecmp(data, "Content-Encoding", 16))
		note_encoding(t, value, len);
	return n;
}

static int on_progress(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct transfer *t = userdata;

	(void)ultotal;
	(void)ulnow;
	if (t->req->progress)
		t->req->progress(t->req->ctx, dlnow > 0 ? (unsigned long long)dlnow : 0,
				 dltotal > 0 ? (unsigned long long)dltotal : 0);
	return 0;
}

/* "503 Service Unavailable" from the status line (or just the code). */
static void describe_status(const struct transfer *t, long status, char *buf, size_t len)
{
	const char *sp = strchr(t->status_line, ' ');

	if (sp && atol(sp + 1) == status)
		mc_fmt(buf, len, "HTTP %s", sp + 1);
	else
		mc_fmt(buf, len, "HTTP %ld", status);
}

/* Retry-After in milliseconds (seconds or an HTTP date), or -1. */
static long retry_after_ms(const char *value)
{
	const char *p;
	time_t when;
	double secs;

	if (!value || !*value)
		return -1;
	for (p = value; *p >= '0' && *p <= '9'; p++)
		;
	if (p > value && !*p) {
		secs = strtod(value, NULL);
		return secs > 86400.0 ? 86400000L : (long)(secs * 1000.0);
	}
	when = curl_getdate(value, NULL);
	if (when == (time_t)-1)
		return -1;
	secs = difftime(when, time(NULL));
	if (secs < 0)
		return 0;
	return secs > 86400.0 ? 86400000L : (long)(secs * 1000.0);
}

/* The wait before attempt number attempt + 1: base * 2^(attempt-1), capped,
 * half of it fixed and half random ("equal jitter"). */
static long backoff_ms(const http_request *req, int attempt)
{
	long delay = req->retry_base_ms;
	uint64_t x;
	int i;

	for (i = 1; i < attempt && delay < req->retry_max_ms; i++)
		delay *= 2;
	if (delay > req->retry_max_ms)
		delay = req->retry_max_ms;
	if (delay < 2)
		return delay;
	x = jitter_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	jitter_state = x;
	return delay / 2 + (long)(x % (uint64_t)(delay / 2 + 1));
}

static void sleep_ms(long ms)
{
	struct timespec ts, rest;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &rest) && errno == EINTR)
		ts = rest;
}

/* Is this libcurl error worth another try (the network, not the request)? */
static int transient(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

/* Read what the attempt left behind: status, URL, sizes. */
static void collect_info(CURL *h, http_response *resp)
{
	curl_off_t length = -1, bytes = 0;
	char *url = NULL;
	long status = 0;

	if (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK)
		resp->status = status;
	if (curl_easy_getinfo(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK)
		resp->content_length = length;
	if (curl_easy_getinfo(h, CURLINFO_SIZE_DOWNLOAD_T, &bytes) == CURLE_OK)
		resp->wire_bytes = bytes > 0 ? (unsigned long long)bytes : 0;
	if (curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK && url) {
		free(resp->effective_url);
		resp->effective_url = xstrdup(url);
	}
}

/* Decide what an attempt came to; sets t->err for RETRY and FAIL, and
 * *wait_ms to the server's Retry-After (or -1). */
static enum outcome classify(CURL *h, CURLcode rc, struct transfer *t, const char *errbuf,
			     long *wait_ms)
{
	http_response *resp = t->resp;
	const http_request *req = t->req;
	mc_err *err = t->err;
	char status[300];

	*wait_ms = -1;
	collect_info(h, resp);
	if (rc == CURLE_OK) {
		if (resp->is_file) {
			resp->status = 0;
			return OUTCOME_BODY;
		}
		describe_status(t, resp->status, status, sizeof(status));
		if (resp->status == 200) {
			if (resp->content_length >= 0 &&
			    resp->wire_bytes < (unsigned long long)resp->content_length) {
				mc_error(err, "truncated body: received %llu of the %lld bytes of"
					 " its Content-Length", resp->wire_bytes,
					 resp->content_length);
				return OUTCOME_RETRY;
			}
			if (t->member_open) {
				mc_error(err, "truncated body: the gzip body (Content-Encoding:"
					 " gzip) ends inside a member, after %zu decoded bytes",
					 resp->body.len);
				return OUTCOME_RETRY;
			}
			return OUTCOME_BODY;
		}
		if (resp->status == 304) {
			if (t->conditional)
				return OUTCOME_NOT_MODIFIED;
			mc_error(err, "%s to a request that was not conditional", status);
			return OUTCOME_FAIL;
		}
		if (resp->status == 408 || resp->status == 429 ||
		    (resp->status >= 500 && resp->status <= 599)) {
			mc_error(err, "%s", status);
			*wait_ms = retry_after_ms(t->retry_after);
			return OUTCOME_RETRY;
		}
		if (resp->status >= 300 && resp->status <= 399)
			mc_error(err, "%s: a redirect without a usable Location", status);
		else
			mc_error(err, "%s (expected 200)", status);
		return OUTCOME_FAIL;
	}
	switch (rc) {
	case CURLE_WRITE_ERROR:
		if (t->over_cap) {
			mc_error(err, "the body is larger than the size cap of %llu bytes"
				 " (after decoding); stopped", req->max_bytes);
			return OUTCOME_FAIL;
		}
		if (t->encoding[0]) {
			mc_error(err, "the body is sent with Content-Encoding %s, which was not"
				 " asked for (only gzip)", t->encoding);
			return OUTCOME_FAIL;
		}
		if (t->decode_failed) {
			mc_error(err, "the gzip body (Content-Encoding: gzip) is damaged after"
				 " %zu decoded bytes", resp->body.len);
			return OUTCOME_RETRY;
		}
		break;
	case CURLE_FILESIZE_EXCEEDED:
		mc_error(err, "the body (Content-Length %lld) is larger than the size cap of"
			 " %llu bytes", resp->content_length, req->max_bytes);
		return OUTCOME_FAIL;
	case CURLE_TOO_MANY_REDIRECTS:
		mc_error(err, "more than %ld redirects (a redirect loop?)", req->max_redirects);
		return OUTCOME_FAIL;
	case CURLE_PARTIAL_FILE:
		if (resp->content_length >= 0)
			mc_error(err, "truncated body: received %llu of the %lld bytes of its"
				 " Content-Length", resp->wire_bytes, resp->content_length);
		else
			mc_error(err, "truncated body: %s", *errbuf ? errbuf :
				 curl_easy_strerror(rc));
		return resp->is_file ? OUTCOME_FAIL : OUTCOME_RETRY;
	default:
		break;
	}
	mc_error(err, "%s%s%s", curl_easy_strerror(rc), *errbuf ? ": " : "", errbuf);
	return transient(rc) && !resp->is_file ? OUTCOME_RETRY : OUTCOME_FAIL;
}

/* Add "name: value" to the header list; 0 or -1. */
static int add_header(struct curl_slist **list, const char *name, const char *value)
{
	struct curl_slist *grown;
	sbuf line;

	sbuf_init(&line);
	sbuf_addf(&line, "%s: %s", name, value);
	grown = curl_slist_append(*list, line.data);
	sbuf_release(&line);
	if (!grown)
		return -1;
	*list = grown;
	return 0;
}

/* The request's headers (none for file://): Accept-Encoding gzip (decoded
 * by on_body(), every member of it) and the validators of a conditional
 * request; 0, or -1 when out of memory. */
static int conditional_headers(struct transfer *t, struct curl_slist **headers)
{
	const http_request *req = t->req;

	if (t->resp->is_file)
		return 0;
	if (add_header(headers, "Accept-Encoding", "gzip"))
		return -1;
	if (req->etag && *req->etag) {
		if (add_header(headers, "If-None-Match", req->etag))
			return -1;
		t->conditional = 1;
	}
	if (req->last_modified && *req->last_modified) {
		if (add_header(headers, "If-Modified-Since", req->last_modified))
			return -1;
		t->conditional = 1;
	}
	return 0;
}

#define SETOPT(h, option, value) do { \
	CURLcode setopt_rc_ = curl_easy_setopt((h), (option), (value)); \
	if (setopt_rc_ != CURLE_OK) \
		return mc_error(t->err, "cannot set %s: %s", #option, \
				curl_easy_strerror(setopt_rc_)); \
} while (0)

/* Set every option of the transfer t on h: the URL, protocols, redirects,
 * timeouts, the cap, headers and callbacks; curl's messages go to errbuf.
 * 0, or -1 with t->err set. */
static int set_options(CURL *h, struct transfer *t, struct curl_slist *headers,
		       char *errbuf)
{
	const http_request *req = t->req;

	SETOPT(h, CURLOPT_URL, req->url);
	SETOPT(h, CURLOPT_ERRORBUFFER, errbuf);
	SETOPT(h, CURLOPT_NOSIGNAL, 1L);
#if LIBCURL_VERSION_NUM >= 0x075500
	SETOPT(h, CURLOPT_PROTOCOLS_STR, "http,https,file");
	SETOPT(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	SETOPT(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS | CURLPROTO_FILE));
	SETOPT(h, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	SETOPT(h, CURLOPT_FOLLOWLOCATION, 1L);
	SETOPT(h, CURLOPT_MAXREDIRS, req->max_redirects);
	/* a gzip body is decoded by on_body(): libcurl's decoder stops at the
	 * end of the first gzip member and fails on the next */
	SETOPT(h, CURLOPT_HTTP_CONTENT_DECODING, 0L);
	SETOPT(h, CURLOPT_USERAGENT, http_user_agent());
	SETOPT(h, CURLOPT_CONNECTTIMEOUT_MS, req->connect_timeout_ms);
	SETOPT(h, CURLOPT_TIMEOUT_MS, req->timeout_ms);
	SETOPT(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)req->max_bytes);
	if (headers)
		SETOPT(h, CURLOPT_HTTPHEADER, headers);
	SETOPT(h, CURLOPT_WRITEFUNCTION, on_body);
	SETOPT(h, CURLOPT_WRITEDATA, t);
	SETOPT(h, CURLOPT_HEADERFUNCTION, on_header);
	SETOPT(h, CURLOPT_HEADERDATA, t);
	SETOPT(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	SETOPT(h, CURLOPT_XFERINFODATA, t);
	SETOPT(h, CURLOPT_NOPROGRESS, 0L);
	return 0;
}

#undef SETOPT

/* Append text to the message in err (the retries' outcome). */
MC_PRINTF(2, 3)
static void add_to_error(mc_err *err, const char *fmt, ...)
{
	size_t used = strlen(err->msg);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg + used, sizeof(err->msg) - used, fmt, ap);
	va_end(ap);
}

/* Perform the transfer set up on h, retrying with backoff as the request
 * allows. HTTP_BODY, HTTP_NOT_MODIFIED, or HTTP_FAILED with t->err set. */
static int attempts(CURL *h, struct transfer *t, char *errbuf)
{
	const http_request *req = t->req;
	http_response *resp = t->resp;
	int attempt;

	for (attempt = 1; attempt <= req->attempts; attempt++) {
		enum outcome outcome;
		long wait_ms, delay;
		CURLcode rc;

		sbuf_reset(&resp->body);
		clear_headers(t);
		t->over_cap = 0;
		reset_decoding(t);
		t->status_line[0] = '\0';
		errbuf[0] = '\0';
		resp->status = 0;
		resp->content_length = -1;
		resp->wire_bytes = 0;
		resp->attempts = attempt;
		rc = curl_easy_perform(h);
		outcome = classify(h, rc, t, errbuf, &wait_ms);
		if (outcome == OUTCOME_BODY)
			return HTTP_BODY;
		if (outcome == OUTCOME_NOT_MODIFIED)
			return HTTP_NOT_MODIFIED;
		if (outcome == OUTCOME_FAIL)
			return HTTP_FAILED;
		if (attempt == req->attempts) {
			if (attempt > 1)
				add_to_error(t->err, " (after %d attempts)", attempt);
			return HTTP_FAILED;
		}
		if (wait_ms > req->retry_after_max_ms) {
			add_to_error(t->err, "; the server asks to retry after %ld s, longer "
				     "than the %ld s allowed; giving up", wait_ms / 1000,
				     req->retry_after_max_ms / 1000);
			return HTTP_FAILED;
		}
		delay = backoff_ms(req, attempt);
		if (wait_ms > delay)
			delay = wait_ms;
		if (req->on_retry)
			req->on_retry(req->ctx, t->err->msg, attempt + 1, req->attempts, delay);
		sleep_ms(delay);
	}
	return HTTP_FAILED;
}

int http_get(const http_request *req, http_response *resp, mc_err *err)
{
	struct curl_slist *headers = NULL;
	char errbuf[CURL_ERROR_SIZE];
	struct transfer t;
	int result = HTTP_FAILED;
	mc_err own;
	CURL *h = NULL;

	http_response_release(resp);
	memset(&t, 0, sizeof(t));
	t.req = req;
	t.resp = resp;
	t.err = err ? err : &own;
	resp->is_file = !strncasecmp(req->url, "file://", 7);
	if (conditional_headers(&t, &headers))
		goto nomem;
	h = curl_easy_init();
	if (!h)
		goto nomem;
	errbuf[0] = '\0';
	if (set_options(h, &t, headers, errbuf))
		goto out;
	result = attempts(h, &t, errbuf);
	goto out;
nomem:
	mc_error(t.err, "out of memory setting up the request");
out:
	if (result == HTTP_FAILED)
		sbuf_release(&resp->body);
	free(t.retry_after);
	reset_decoding(&t);
	curl_easy_cleanup(h);
	curl_slist_free_all(headers);
	return result;
}
