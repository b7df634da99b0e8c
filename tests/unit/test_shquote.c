/* sh_quote and sh_join: every argument that reaches a remote shell goes through them, so
 * besides the expected strings, a real /bin/sh must give back exactly the words we quoted,
 * for nasty and for random bytes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/wait.h>
#include <unistd.h>

#include "cmd/lib/ssh.h"

static void assert_quoted(const char *arg, const char *want)
{
	char buf[256];
	size_t n = sh_quote(buf, sizeof(buf), arg);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_expected(void **state)
{
	(void)state;
	assert_quoted("", "''");
	assert_quoted("ls", "'ls'");
	assert_quoted("a b", "'a b'");
	assert_quoted("it's", "'it'\\''s'");
	assert_quoted("'", "''\\'''");
	assert_quoted("''", "''\\'''\\'''");
	assert_quoted("$(id)", "'$(id)'");
	assert_quoted("`id`;rm -rf /", "'`id`;rm -rf /'");
	assert_quoted("a\nb", "'a\nb'");
	assert_quoted("\\", "'\\'");
	assert_quoted("*?[a]~", "'*?[a]~'");
	assert_quoted("-n", "'-n'");
}

static void test_truncation(void **state)
{
	(void)state;
	char buf[6];
	/* like snprintf: the length it needs, and always a terminated prefix */
	assert_int_equal(sh_quote(buf, sizeof(buf), "abcdef"), 8);
	assert_string_equal(buf, "'abcd");
	assert_int_equal(sh_quote(NULL, 0, "it's"), 9);
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(sh_quote(buf, 1, "a"), 3);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(sh_quote(buf, 3, "'"), 6);
	assert_string_equal(buf, "''");
}

static void test_join(void **state)
{
	(void)state;
	const char *argv[] = { "printf", "%s\\n", "a b", "it's", "" };
	char *s = sh_join(5, argv);
	assert_non_null(s);
	assert_string_equal(s, "'printf' '%s\\n' 'a b' 'it'\\''s' ''");
	free(s);
	s = sh_join(0, argv);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

/* Runs `sh -c "printf '%s\0' QUOTED..."` and checks the words it prints are ours. */
static void assert_shell_roundtrip(int argc, const char *const *argv)
{
	char *cmd = sh_join(argc, argv);
	assert_non_null(cmd);
	size_t len = strlen(cmd) + 32;
	char *full = malloc(len);
	assert_non_null(full);
	snprintf(full, len, "printf '%%s\\0' %s", cmd);

	int out[2];
	assert_int_equal(pipe(out), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		execl("/bin/sh", "sh", "-c", full, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	size_t cap = 1 << 20, got = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	ssize_t n;
	while ((n = read(out[0], buf + got, cap - got)) > 0)
		got += (size_t)n;
	close(out[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	size_t off = 0;
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]);
		assert_true(off + l < got);
		assert_memory_equal(buf + off, argv[i], l);
		assert_int_equal(buf[off + l], '\0');
		off += l + 1;
	}
	assert_int_equal(off, got);
	free(buf);
	free(full);
	free(cmd);
}

static void test_shell_nasty(void **state)
{
	(void)state;
	const char *argv[] = {
		"", " ", "'", "''", "'\\''", "\"", "\\", "\\'", "$HOME", "${IFS}", "$(touch /x)",
		"`touch /x`", ";", "&&", "|", "a\nb", "\t", "*", "~", "#c", "!", "-e", "--",
		"1.2.3.4;touch /tmp/x", "%s%n", "\xff\xfe", "=", "a=b",
	};
	assert_shell_roundtrip((int)(sizeof(argv) / sizeof(argv[0])), argv);
}

static void test_shell_random(void **state)
{
	(void)state;
	enum { N = 64 };
	char *argv[N];
	const char *cargv[N];
	unsigned seed = 12345;
	for (int round = 0; round < 8; round++) {
		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245u + 12345u;
			size_t len = (seed >> 16) % 40;
			argv[i] = malloc(len + 1);
			assert_non_null(argv[i]);
			for (size_t k = 0; k < len; k++) {
				seed = seed * 1103515245u + 12345u;
				argv[i][k] = (char)(1 + (seed >> 16) % 255); /* any byte but NUL */
			}
			argv[i][len] = '\0';
			cargv[i] = argv[i];
		}
		assert_shell_roundtrip(N, cargv);
		for (int i = 0; i < N; i++)
			free(argv[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expected),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_shell_nasty),
		cmocka_unit_test(test_shell_random),
	};
	return cmocka_run_group_tests_name("shquote", tests, NULL, NULL);
}
