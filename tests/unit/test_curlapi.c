/* cmd/cli/curlapi.c, the loader of libcurl: a library that is not there and one that is not
 * libcurl each fail with the library named (and, for libcurl's own soname, the package), the
 * real one fills every pointer, and the process-wide load happens once. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cmd/cli/curlapi.h"

static void test_missing(void **state)
{
	struct libcurl_api a;
	char err[512];
	(void)state;
	memset(&a, 0x5a, sizeof(a));
	assert_int_equal(libcurl_load("libhcclctl-test-none.so.4", &a, err, sizeof(err)), -ELIBACC);
	assert_string_equal(err, "cannot load libhcclctl-test-none.so.4, the library hcclctl reads "
				 "URLs with (libhcclctl-test-none.so.4: cannot open shared object "
				 "file: No such file or directory)");
	assert_null(a.easy_init); /* nothing half-filled is left to call */
	assert_null(a.version_info);
}

static void test_not_curl(void **state)
{
	struct libcurl_api a;
	char err[512];
	(void)state;
	/* a library that loads but lacks the symbols: zlib, which hcclctl links anyway */
	assert_int_equal(libcurl_load("libz.so.1", &a, err, sizeof(err)), -ELIBACC);
	assert_non_null(strstr(err, "libz.so.1 has no symbol curl_easy_init: not the libcurl"));
	assert_null(a.easy_init);
}

static void test_real(void **state)
{
	struct libcurl_api a;
	char err[512] = "";
	(void)state;
	assert_int_equal(libcurl_load(LIBCURL_SONAME, &a, err, sizeof(err)), 0);
	void *const *p = (void *const *)&a;
	for (size_t i = 0; i < sizeof(a) / sizeof(void *); i++)
		assert_non_null(p[i]);
	curl_version_info_data *v = a.version_info(CURLVERSION_NOW);
	assert_non_null(v);
	assert_true(v->version_num >= 0x071002); /* 7.16.2, where these functions all exist */
	CURL *c = a.easy_init();
	assert_non_null(c);
	assert_int_equal(a.easy_setopt(c, CURLOPT_TIMEOUT_MS, 1000L), CURLE_OK);
	assert_string_equal(a.easy_strerror(CURLE_OK), "No error");
	a.easy_cleanup(c);
}

static void test_once(void **state)
{
	char err[512] = "";
	(void)state;
	const struct libcurl_api *one = libcurl(err, sizeof(err));
	assert_non_null(one);
	assert_ptr_equal(libcurl(err, sizeof(err)), one);
	assert_non_null(one->easy_perform);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_not_curl),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
