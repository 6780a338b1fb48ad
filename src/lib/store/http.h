/*
 * http: one careful GET with libcurl. Conditional (If-None-Match,
 * If-Modified-Since), gzip transfer encoding decoded with a cap on the
 * decoded size enforced while the bytes arrive, redirects followed up to a
 * limit (http and https only), connect and total timeouts, and retries
 * with exponential backoff and jitter on timeouts, connection errors, 408,
 * 429 and 5xx, honouring Retry-After. file:// URLs are read the same way
 * (no validators, no retries).
 *
 * Ownership: an http_response owns its body and strings;
 * http_response_release() frees them. The request's strings are borrowed
 * for the duration of http_get().
 */
#ifndef MODELCAT_HTTP_H
#define MODELCAT_HTTP_H

#include <stddef.h>
#include "base/util.h"

/* Progress of the current attempt: bytes received so far and the expected
 * total (0 when unknown), as counted on the wire. */
typedef void http_progress_fn(void *ctx, unsigned long long now, unsigned long long total);
/* A retry is about to wait delay_ms: why, and which attempt comes next. */
typedef void http_retry_fn(void *ctx, const char *why, int next_attempt, int attempts,
			   long delay_ms);

typedef struct http_request {
	const char *url;                  /* what to get */
	const char *etag;                 /* sent as If-None-Match, or NULL */
	const char *last_modified;        /* sent as If-Modified-Since, or NULL */
	unsigned long long max_bytes;     /* cap on the (decoded) body */
	long connect_timeout_ms;          /* per attempt */
	long timeout_ms;                  /* whole transfer, per attempt */
	long max_redirects;               /* redirects followed at most */
	int attempts;                     /* tries in all (1: no retry) */
	long retry_base_ms;               /* first backoff delay */
	long retry_max_ms;                /* longest backoff delay */
	long retry_after_max_ms;          /* longest Retry-After honoured; a
					     longer one ends the retries */
	http_progress_fn *progress;       /* or NULL */
	http_retry_fn *on_retry;          /* or NULL */
	void *ctx;                        /* passed to progress and on_retry */
} http_request;

/* Defaults for a request (the caller sets url and what it wants). */
void http_request_init(http_request *req);

enum http_result {
	HTTP_FAILED = -1,       /* no usable response: err says why */
	HTTP_BODY = 0,          /* 200 (or a file read): body holds it */
	HTTP_NOT_MODIFIED = 1   /* 304 to a conditional request */
};

typedef struct http_response {
	long status;                      /* final HTTP status; 0 for file:// or
					     when no response came */
	sbuf body;                        /* decoded body */
	char *etag;                       /* validators of the final response, */
	char *last_modified;              /* or NULL */
	char *content_type;               /* or NULL */
	char *effective_url;              /* after redirects, or NULL */
	long long content_length;         /* Content-Length, -1 if none */
	unsigned long long wire_bytes;    /* bytes received (before decoding) */
	int attempts;                     /* tries made */
	int is_file;                      /* the URL was file:// */
} http_response;

void http_response_init(http_response *resp);
void http_response_release(http_response *resp);

/* Once per program, before any http_get(): 0, or -1 (message printed to
 * nothing: the caller reports it). */
int http_global_init(void);
void http_global_cleanup(void);

/* The User-Agent sent: "modelcat/VERSION". */
const char *http_user_agent(void);

/*
 * GET req->url into resp (which must be initialised). Returns HTTP_BODY
 * (0), HTTP_NOT_MODIFIED (1) or HTTP_FAILED (-1) with one line in err,
 * without the URL: the last status or error after the retries, a body over
 * the cap, a truncated body, too many redirects, a timeout. Each retry's
 * reason goes to req->on_retry as it happens. Bounded: at most
 * req->attempts tries, each at most timeout_ms, with waits of at most
 * retry_max_ms (or retry_after_max_ms) between them.
 */
int http_get(const http_request *req, http_response *resp, mc_err *err);

#endif
