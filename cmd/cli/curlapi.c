/* Opens libcurl at run time and fills the function table from one list of symbols. It is
 * in cmd/cli/, the lowest layer of cmd/, as it needs nothing of cmd/ and both of its users
 * reach it from there: --version (cmd/cli/version.c) and every URL (cmd/lib/fetch.c). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cli/curlapi.h"

#define SYM(f, field) { #f, offsetof(struct libcurl_api, field) }
static const struct {
	const char *name;
	size_t off;
} syms[] = {
	SYM(curl_easy_init, easy_init),
	SYM(curl_easy_setopt, easy_setopt),
	SYM(curl_easy_perform, easy_perform),
	SYM(curl_easy_getinfo, easy_getinfo),
	SYM(curl_easy_reset, easy_reset),
	SYM(curl_easy_cleanup, easy_cleanup),
	SYM(curl_easy_strerror, easy_strerror),
	SYM(curl_slist_append, slist_append),
	SYM(curl_slist_free_all, slist_free_all),
	SYM(curl_version_info, version_info),
};

int libcurl_load(const char *soname, struct libcurl_api *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "cannot load %s, the library hcclctl reads URLs with (%s)",
			 soname, dlerror());
		return -ELIBACC;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *p = dlsym(h, syms[i].name);
		if (!p) {
			snprintf(err, errlen, "%s has no symbol %s: not the libcurl hcclctl needs",
				 soname, syms[i].name);
			dlclose(h);
			memset(a, 0, sizeof(*a));
			return -ELIBACC;
		}
		memcpy((char *)a + syms[i].off, &p, sizeof(p));
	}
	return 0;
}

static struct libcurl_api api;
static int api_rc;
static char api_err[512];

static void load_once(void)
{
	api_rc = libcurl_load(LIBCURL_SONAME, &api, api_err, sizeof(api_err));
}

const struct libcurl_api *libcurl(char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_once);
	if (api_rc) {
		snprintf(err, errlen, "%s", api_err);
		return NULL;
	}
	return &api;
}
