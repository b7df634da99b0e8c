/* Reads the input of a command: a file, "-" for stdin, or an http(s) URL through libcurl
 * with certificate verification, a timeout and the same size cap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "cli.h"
#include "ranktable/ranktable.h"

struct sink {
	char *buf;
	size_t len, cap;
	int over;
};

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t add = size * n;
	if (s->len + add > s->cap) {
		s->over = 1;
		return 0; /* aborts the transfer */
	}
	char *nb = realloc(s->buf, s->len + add + 1);
	if (!nb)
		return 0;
	s->buf = nb;
	memcpy(s->buf + s->len, p, add);
	s->len += add;
	s->buf[s->len] = 0;
	return add;
}

static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

static int fetch_url(const char *url, size_t cap, char **buf, size_t *len, char *err,
		     size_t errlen)
{
	struct sink s = { .cap = cap };
	char cerr[CURL_ERROR_SIZE] = "";
	long status = 0;
	int rc = -EIO;
	CURL *c = curl_easy_init();
	if (!c) {
		snprintf(err, errlen, "%s: cannot start libcurl", url);
		return -ENOMEM;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "hcclctl/" HCCLCTL_VERSION);
	CURLcode cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (s.over) {
		snprintf(err, errlen, "%s: larger than %zu bytes", url, cap);
		rc = -EFBIG;
	} else if (cc != CURLE_OK) {
		snprintf(err, errlen, "%s: %s", url, *cerr ? cerr : curl_easy_strerror(cc));
	} else if (status >= 400) {
		snprintf(err, errlen, "%s: HTTP %ld", url, status);
		rc = status == 404 ? -ENOENT : -EIO;
	} else {
		*buf = s.buf ? s.buf : calloc(1, 1);
		*len = s.len;
		s.buf = NULL;
		rc = *buf ? 0 : -ENOMEM;
	}
	free(s.buf);
	curl_easy_cleanup(c);
	return rc;
}

int fetch_input(const char *what, size_t cap, char **buf, size_t *len, char *err, size_t errlen)
{
	if (is_url(what))
		return fetch_url(what, cap, buf, len, err, errlen);
	return rt_read_file(what, cap, buf, len, err, errlen);
}
