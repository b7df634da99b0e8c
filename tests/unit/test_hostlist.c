/* Slurm host list expressions expanded (rt_hostlist_expand): the forms SLURM_JOB_NODELIST
 * takes, zero padding kept, and each refusal with its offset. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
