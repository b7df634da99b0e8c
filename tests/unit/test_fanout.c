/* A host's stderr in a one-line message: what a remote shell says when hcclctl is not
 * installed ("bash: line 2: hcclctl: command not found\n") must reach doctor's and run's
 * messages as one clean line, and the full stderr must stay as it came (exec prints it). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Before cmocka.h, whose fail() macro would rewrite cli.h's fail(). */
#include "cmd/lib/fanout.h"

#include <cmocka.h>

/* A host whose stderr is text, as the fan-out leaves it when the host ends. */
static void host_with(struct fo_host *h, const char *text)
{
	memset(h, 0, sizeof(*h));
	if (text) {
		h->err.len = strlen(text);
		h->err.p = malloc(h->err.len + 1);
		assert_non_null(h->err.p);
		memcpy(h->err.p, text, h->err.len + 1);
	}
	fo_host_clean_stderr(h);
}

static void expect_line(const char *text, const char *want)
{
	struct fo_host h;
	host_with(&h, text);
	assert_string_equal(fo_stderr_line(&h), want);
	assert_string_equal(fo_stderr_tail(&h, 1), want);
	fo_host_release(&h);
}

static void test_one_line(void **state)
{
	(void)state;
	expect_line("bash: line 2: hcclctl: command not found\n",
		    "bash: line 2: hcclctl: command not found");
	expect_line("bash: line 2: hcclctl: command not found\r\n\r\n",
		    "bash: line 2: hcclctl: command not found");
	/* the last line with something on it, blank and CR-only lines skipped */
	expect_line("Warning: Permanently added '10.0.0.2' (ED25519) to the list of known hosts.\n"
		    "sh: 1: hcclctl: not found\n\n   \n",
		    "sh: 1: hcclctl: not found");
	/* a progress line overwritten with CR: the text after the last CR */
	expect_line("reading 10%\rreading 50%\rError: no NPU found\n", "Error: no NPU found");
	/* control bytes and runs of blanks become one space; no line end at all is fine */
	expect_line("  error:\t\tbad\x1b[0m   thing", "error: bad [0m thing");
	expect_line("", "");
	expect_line("\n\r\n \t\n", "");
	expect_line(NULL, "");
}

static void test_long_line(void **state)
{
	char buf[1200];
	struct fo_host h;
	(void)state;
	memset(buf, 'a', sizeof(buf) - 2);
	memcpy(buf + sizeof(buf) - 9, "THE END", 7);
	buf[sizeof(buf) - 2] = '\n';
	buf[sizeof(buf) - 1] = '\0';
	host_with(&h, buf);
	const char *l = fo_stderr_line(&h);
	assert_int_equal(strlen(l), FO_LINE_MAX - 1);
	assert_memory_equal(l, "...", 3);
	assert_string_equal(l + strlen(l) - 7, "THE END");
	fo_host_release(&h);
	assert_string_equal(fo_stderr_line(&h), "");
}

/* Several lines stay several lines, and stderr itself is untouched. */
static void test_tail_and_raw(void **state)
{
	struct fo_host h;
	(void)state;
	host_with(&h, "one\ntwo\nthree\n");
	assert_string_equal(fo_stderr_tail(&h, 2), "two\nthree\n");
	assert_string_equal(fo_stderr_tail(&h, 5), "one\ntwo\nthree\n");
	assert_string_equal(fo_stderr_tail(&h, 0), "");
	assert_string_equal(h.err.p, "one\ntwo\nthree\n");
	assert_int_equal(h.err.len, 14);
	fo_host_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_line),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_tail_and_raw),
	};
	return cmocka_run_group_tests_name("fanout", tests, NULL, NULL);
}
