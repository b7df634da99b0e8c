/* Slurm host list expressions expanded (rt_hostlist_expand): the forms SLURM_JOB_NODELIST
 * takes, zero padding kept, and each refusal with its offset; and text made valid UTF-8 for
 * JSON (rt_utf8_repair). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ranktable/ranktable.h"

static char err[256];

static void expands(const char *in, const char *want)
{
	char *out = NULL;
	size_t len = 0;
	int rc = rt_hostlist_expand(in, strlen(in), &out, &len, err, sizeof(err));
	if (rc)
		fail_msg("%s: %s", in, err);
	assert_string_equal(out, want);
	assert_int_equal(len, strlen(want));
	free(out);
}

static void refuses(const char *in, const char *msg)
{
	char *out = (char *)1;
	size_t len = 9;
	assert_int_equal(rt_hostlist_expand(in, strlen(in), &out, &len, err, sizeof(err)), -EINVAL);
	assert_null(out);
	assert_int_equal(len, 0);
	assert_string_equal(err, msg);
}

/* Folds names[0..n) (all of them, in order) and compares. */
static void folds(const char *const *names, size_t n, size_t len, const char *want)
{
	int idx[16];
	char out[512];
	for (size_t i = 0; i < n; i++)
		idx[i] = (int)i;
	memset(out, 'x', sizeof(out));
	rt_hostlist_fold(names, idx, n, out, len);
	assert_string_equal(out, want);
}

/* Suffixes past 2^63 (20 digits) once saturated to n[9223372036854775807,...]: compared as
 * digit strings, runs cross a carry, leading zeros stay as written. */
static void test_fold(void **state)
{
	(void)state;
	const char *big[] = { "n100000000000000000000", "n99999999999999999999",
			      "n9223372036854775808",	"n99999999999999999998",
			      "n9223372036854775807",	"n18446744073709551616" };
	folds(big, 6, 512, "n[9223372036854775807-9223372036854775808,18446744073709551616,"
			   "99999999999999999998-100000000000000000000]");
	const char *zeros[] = { "n00000000000000000010", "n00000000000000000009",
				"n00000000000000000012", "n00000000000000000099",
				"n00000000000000000100" };
	folds(zeros, 5, 512, "n[00000000000000000009-00000000000000000010,00000000000000000012,"
			     "00000000000000000099-00000000000000000100]");
	const char *gpu[] = { "gpu07", "gpu01", "gpu02", "gpu03", "gpu04", "gpu10", "gpu09", "gpu08" };
	folds(gpu, 8, 512, "gpu[01-04,07-10]");
	const char *mixed[] = { "n8", "n09", "n9", "n10", "n1" };
	folds(mixed, 5, 512, "n[1,8-9,09-10]");
	const char *ip[] = { "10.77.0.4", "10.77.0.1", "10.77.0.2", "10.77.0.3", "10.77.0.7" };
	folds(ip, 5, 512, "10.77.0.[1-4,7]");
	const char *one[] = { "n123456789012345678901234" };
	folds(one, 1, 512, "n123456789012345678901234");
	const char *other[] = { "a1", "b", "c3", "d", "e", "f", "g", "h", "i", "j" };
	folds(other, 10, 512, "a1,b,c3,d,e,f,g,h and 2 more");
	folds(other, 2, 512, "a1,b");
	/* cut short, always terminated */
	folds(big, 6, 10, "n[9223372");
	folds(other, 10, 4, "a1,");
	folds(big, 6, 1, "");
}

static void test_forms(void **state)
{
	(void)state;
	expands("gpu1", "gpu1\n");
	expands("gpu1,gpu2", "gpu1\ngpu2\n");
	expands("gpu[01-04,07],login1", "gpu01\ngpu02\ngpu03\ngpu04\ngpu07\nlogin1\n");
	expands("n[8-11]", "n8\nn9\nn10\nn11\n");
	expands("n[098-101]", "n098\nn099\nn100\nn101\n");
	expands("rack[1-2]-n[1-2].ib", "rack1-n1.ib\nrack1-n2.ib\nrack2-n1.ib\nrack2-n2.ib\n");
	expands("a,,b,", "a\nb\n");
	expands("10.0.0.[1-3]", "10.0.0.1\n10.0.0.2\n10.0.0.3\n");
}

static void test_refused(void **state)
{
	(void)state;
	refuses("a[3-1]", "host list: at offset 2: range runs backwards");
	refuses("a[1-2", "host list: at offset 1: '[' not closed");
	refuses("x],y", "host list: at offset 1: ']' without '['");
	refuses("n[]", "host list: at offset 1: empty '[]'");
	refuses("n[a]", "host list: at offset 2: expected a number in '[...]'");
	refuses("n[1-]", "host list: at offset 4: expected a number after '-'");
	refuses("n[1;2]", "host list: at offset 3: expected ',' or ']'");
	refuses("n[1234567890]", "host list: at offset 2: expected a number in '[...]'");
	refuses(",,", "host list: at offset 0: no host named");
	refuses("a,b\nc", "host list: at offset 3: a control byte in the list");
	refuses("h[1-70000]", "host list: at offset 2: more than 65536 names");
	refuses("a[1]b[1]c[1]d[1]e[1]f[1]g[1]h[1]i[1]",
		"host list: at offset 33: more than 8 '[...]' in one name");
}

/* Bytes that are no part of valid UTF-8 become "\xNN"; valid sequences (two, three and
 * four bytes) stay; valid text is left alone (NULL). */
static void test_utf8_repair(void **state)
{
	(void)state;
	assert_null(rt_utf8_repair("plain ascii"));
	assert_null(rt_utf8_repair("\xc2\xbd \xe4\xb8\xad \xf0\x9f\x98\x80"));
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"Desktop/\xd0\xc2\xbd\xa8/x", "Desktop/\\xd0\xc2\xbd\\xa8/x"},
		{"\xff", "\\xff"},
		{"cut \xe4\xb8", "cut \\xe4\\xb8"},		/* a sequence cut short */
		{"over \xc0\xaf", "over \\xc0\\xaf"},	/* an overlong '/' */
		{"\x80\x80\x80", "\\x80\\x80\\x80"}, /* continuation bytes alone */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = rt_utf8_repair(cases[i].in);
		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_utf8_repair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
