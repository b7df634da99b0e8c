/* tests/san/lsan_roots.c, in the sanitizer builds: LeakSanitizer's global scan is off and the
 * writable segments of every module but the sanitizer runtimes are its roots instead. Each
 * case runs in a child that exits, so the leak check at its exit is the one judged:
 * - a block held only by this program's global is no leak;
 * - a block held only by libc's (setenv's environment array) is no leak: other modules'
 *   segments are roots too;
 * - a block nothing holds is still a leak: the check still runs and still finds it.
 * (A module dlopen'ed after start is registered at exit; the CLI tests that load the HCCL
 * stand-ins meet that path.) A build without the sanitizer (the plain `make tests`) has
 * nothing to check. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/san/sanitized.h"

static void *volatile held; /* this program's bss; volatile, or the store is dropped as dead */

static void by_global(void)
{
	held = malloc(4096);
	memset(held, 1, 4096);
}

static void by_libc(void)
{
	/* glibc's environ is grown with malloc, held only by libc's own data */
	char name[32];
	for (int i = 0; i < 64; i++) {
		snprintf(name, sizeof(name), "LSAN_ROOTS_%d", i);
		setenv(name, "1", 1);
	}
}

static void nothing_holds(void)
{
	void *volatile p = malloc(4096);
	memset(p, 2, 4096);
	p = NULL;
}

/* the child's wait status after fn and exit(0), its stderr (the leak report) discarded */
static int in_child(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		fn();
		exit(0);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

static int sanitizer_checks_leaks(void)
{
#ifndef SANITIZED
	print_message("# not a sanitizer build: no leak check to hold to its roots\n");
	return 0;
#else
	const char *o = getenv("ASAN_OPTIONS");
	if (o && strstr(o, "detect_leaks=0")) {
		print_message("# ASAN_OPTIONS turns the leak check off: nothing to compare\n");
		return 0;
	}
	return 1;
#endif
}

static void test_held_is_no_leak(void **state)
{
	(void)state;
	if (!sanitizer_checks_leaks())
		skip();
	int st = in_child(by_global);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	st = in_child(by_libc);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_lost_is_a_leak(void **state)
{
	(void)state;
	if (!sanitizer_checks_leaks())
		skip();
	int st = in_child(nothing_holds);
	/* the sanitizer's exit code (1 under ASan, 23 for LSan alone), or SIGABRT with
	 * abort_on_error=1 as make check sets it */
	assert_true((WIFEXITED(st) && WEXITSTATUS(st) != 0) ||
		    (WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_is_no_leak),
		cmocka_unit_test(test_lost_is_a_leak),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
