/* probe_tool_run's contract with the tool it starts, which the CLI tests see only through
 * fake tools that print recorded output: the tool's stdin is empty, it runs in a process
 * group of its own (the deadline kills the group), LC_ALL=C whatever ours is, and a missing
 * or non-executable path, an exit status, a signal, a deadline and the output cap each come
 * back as the header says.
 *
 * harness: timed (its ranks and tools run against wall-clock deadlines)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/tool/tool.h"

/* Runs /bin/sh -c script; returns probe_tool_run's code, r filled. */
static int sh(const char *script, long timeout_ms, struct probe_tool_result *r, char *err)
{
	char *argv[] = {(char *)"sh", (char *)"-c", (char *)script, NULL};
	return probe_tool_run("/bin/sh", argv, timeout_ms, r, err, PROBE_ERRLEN);
}

static void test_environment(void **state)
{
	struct probe_tool_result r;
	char err[PROBE_ERRLEN], want[64];
	(void)state;
	assert_int_equal(setenv("LC_ALL", "zh_CN.UTF-8", 1), 0);
	assert_int_equal(setenv("HCCLCTL_TOOL_TEST", "kept", 1), 0);
	/* our stdin holds bytes the tool must not see */
	int p[2], saved = dup(0);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "abc", 3), 3);
	close(p[1]);
	assert_int_equal(dup2(p[0], 0), 0);
	close(p[0]);
	/* stdin empty, the locale, the rest of our environment, its own group, both streams */
	assert_int_equal(sh("wc -c; echo \"$LC_ALL $HCCLCTL_TOOL_TEST\"; env | grep -c '^LC_ALL=';"
			    "cut -d' ' -f5 /proc/$$/stat; echo $$; echo oops >&2",
			    10000, &r, err),
			 0);
	dup2(saved, 0);
	close(saved);
	snprintf(want, sizeof(want), "0\nC kept\n1\n");
	assert_memory_equal(r.out, want, strlen(want));
	long pgid = 0, pid = -1;
	assert_int_equal(sscanf(r.out + strlen(want), "%ld %ld", &pgid, &pid), 2);
	assert_int_equal(pgid, pid);
	assert_int_not_equal(pgid, (long)getpgrp());
	assert_string_equal(r.errout, "oops\n");
	assert_int_equal(r.status, 0);
	assert_int_equal(r.signal, 0);
	assert_string_equal(getenv("LC_ALL"), "zh_CN.UTF-8"); /* ours is untouched */
	probe_tool_result_release(&r);
	unsetenv("LC_ALL");
	unsetenv("HCCLCTL_TOOL_TEST");
}

static void test_status_and_signal(void **state)
{
	struct probe_tool_result r;
	char err[PROBE_ERRLEN];
	(void)state;
	assert_int_equal(sh("exit 3", 10000, &r, err), 0);
	assert_int_equal(r.status, 3);
	assert_int_equal(r.signal, 0);
	probe_tool_result_release(&r);
	assert_int_equal(sh("kill -TERM $$", 10000, &r, err), 0);
	assert_int_equal(r.status, -1);
	assert_int_equal(r.signal, 15);
	probe_tool_result_release(&r);
}

static void test_cannot_start(void **state)
{
	struct probe_tool_result r;
	char err[PROBE_ERRLEN], dir[] = "/tmp/test_tool_run.XXXXXX", path[64];
	char *argv[] = {(char *)"tool", NULL};
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(probe_tool_run(path, argv, 10000, &r, err, sizeof(err)), -ENOENT);
	char want[128];
	snprintf(want, sizeof(want), "cannot run '%s': No such file or directory", path);
	assert_string_equal(err, want);
	probe_tool_result_release(&r);

	FILE *f = fopen(path, "w"); /* there, but not executable */
	assert_non_null(f);
	fputs("#!/bin/sh\necho hi\n", f);
	fclose(f);
	assert_int_equal(probe_tool_run(path, argv, 10000, &r, err, sizeof(err)), -EACCES);
	snprintf(want, sizeof(want), "cannot run '%s': Permission denied", path);
	assert_string_equal(err, want);
	probe_tool_result_release(&r);
	unlink(path);
	rmdir(dir);
}

/* A tool that leaves a child holding the pipes (as a hung npu-smi does): the deadline
 * kills the whole group, and what came before it is returned. */
static void test_deadline(void **state)
{
	struct probe_tool_result r;
	char err[PROBE_ERRLEN], stat[64];
	(void)state;
	assert_int_equal(sh("sleep 60 & echo $!; sleep 60", 300, &r, err), -ETIMEDOUT);
	assert_string_equal(err,
			    "sh -c sleep 60 & echo $!; sleep 60: no answer within 1 s (killed)");
	long left = strtol(r.out, NULL, 10);
	assert_true(left > 0);
	probe_tool_result_release(&r);
	/* the child it left is gone too (or a zombie until its new parent reaps it) */
	snprintf(stat, sizeof(stat), "/proc/%ld/stat", left);
	int alive = 1;
	for (int i = 0; i < 200 && alive; i++) {
		char line[256] = "";
		FILE *f = fopen(stat, "r");
		if (f && fgets(line, sizeof(line), f)) {
			const char *close_paren = strrchr(line, ')');
			alive = !close_paren || close_paren[2] != 'Z';
		} else {
			alive = 0;
		}
		if (f)
			fclose(f);
		if (alive)
			usleep(10000);
	}
	assert_false(alive);
}

static void test_cap(void **state)
{
	struct probe_tool_result r;
	char err[PROBE_ERRLEN];
	(void)state;
	assert_int_equal(sh("head -c 5000000 /dev/zero", 30000, &r, err), 0);
	assert_int_equal(r.outlen, PROBE_TOOL_CAP);
	assert_int_equal(r.truncated, 1);
	assert_int_equal(r.status, 0);
	probe_tool_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_environment),
		cmocka_unit_test(test_status_and_signal),
		cmocka_unit_test(test_cannot_start),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_cap),
	};
	return cmocka_run_group_tests_name("tool_run", tests, NULL, NULL);
}
