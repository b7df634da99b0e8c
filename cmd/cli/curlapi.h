/* libcurl, opened with dlopen the first time a URL is read, not linked: the dynamic loader
 * spent ~10 ms of every hcclctl start (15 ms of CPU for --version) mapping and relocating
 * libcurl and the ~25 libraries it pulls in, and only fetch.c and --version -v call it.
 * The types and constants are <curl/curl.h>'s, checked at compile time as before. */
#ifndef HCCLCTL_CURLAPI_H
#define HCCLCTL_CURLAPI_H

#include <stddef.h>

#include <curl/curl.h>

#define LIBCURL_SONAME "libcurl.so.4"

/* One pointer per libcurl function hcclctl calls, with <curl/curl.h>'s signatures. */
struct libcurl_api {
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *c);
	CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
	void (*easy_reset)(CURL *c);
	void (*easy_cleanup)(CURL *c);
	const char *(*easy_strerror)(CURLcode cc);
	struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
	void (*slist_free_all)(struct curl_slist *l);
	curl_version_info_data *(*version_info)(CURLversion v);
};

/* Opens soname and fills a from it. 0, or -ELIBACC with err naming the library and the
 * loader's reason (which package to install is cmd/lib/'s: deploy_lib_packages). The library
 * stays open for the life of the process. */
int libcurl_load(const char *soname, struct libcurl_api *a, char *err, size_t errlen);

/* LIBCURL_SONAME, loaded once per process (the first caller loads it, any other thread
 * waits for that): the table, or NULL with err (libcurl_load's). */
const struct libcurl_api *libcurl(char *err, size_t errlen);

#endif
