/* rx_fixed (probes/logs/rxfixed.h): the forms it takes and refuses, and its matches against
 * regexec's on the knowledge base's one expression that is tried on every line
 * (kg-config.json's "[EWI][A-Z0-9][0-9]{4}[):]", ascend-fd's error code of a CANN log). */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/rxfixed.h"

static void test_forms(void **state)
{
	(void)state;
	static const struct {
		const char *re;
		int ok;
		size_t n;
	} k[] = {
		{"[EWI][A-Z0-9][0-9]{4}[):]", 0, 7},
		{"ab\\.c", 0, 4},
		{"[]a]b", 0, 2},
		{"[a-]x", 0, 2},
		{"a.b", -1, 0},		/* '.' takes a whole character */
		{"[^a]b", -1, 0},	/* and so does a negated class */
		{"a*", -1, 0},
		{"x{2,3}", -1, 0},
		{"(ab)", -1, 0},
		{"a|b", -1, 0},
		{"^ab", -1, 0},
		{"[[:digit:]]", -1, 0},
		{"[A-A-Z]", -1, 0},	/* a '-' after a range */
		{"[a-Z]", -1, 0},
		{"[0-9]{33}", -1, 0},	/* past RX_FIXED_MAX */
		{"\xe9t\xe9", -1, 0},	/* not ASCII */
		{"\\d", -1, 0},
		{"", -1, 0},
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct rx_fixed f;
		int rc = rx_fixed_compile(k[i].re, &f);
		if (rc != k[i].ok || (!rc && f.n != k[i].n))
			fail_msg("'%s': %d with %zu positions, want %d with %zu", k[i].re, rc,
				 rc ? 0 : f.n, k[i].ok, k[i].n);
	}
}

static void test_matches(void **state)
{
	(void)state;
	const char *re = "[EWI][A-Z0-9][0-9]{4}[):]";
	static const char *const lines[] = {
		"[ERROR] ASCENDCL(123,python):2024-01-01 EE9999: Inner Error!",
		"EI0005: The arguments for collective communication are inconsistent",
		"ERR99999 UNKNOWN applicaiton exception",
		"W1234 no colon",
		"(EZ12345) five digits",
		"I00000)",
		"ei0005: lower case",
		"",
	};
	struct rx_fixed f;
	regex_t rx;
	assert_int_equal(rx_fixed_compile(re, &f), 0);
	assert_int_equal(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int want = !regexec(&rx, lines[i], 0, NULL, 0);
		if (rx_fixed_search(&f, lines[i], strlen(lines[i]), 4095) != want)
			fail_msg("'%s': want %d", lines[i], want);
	}
	/* a match past the bytes read, or past a NUL, is none */
	assert_int_equal(rx_fixed_search(&f, "xxEI0005:", 9, 8), 0);
	assert_int_equal(rx_fixed_search(&f, "xxEI0005:", 9, 9), 1);
	assert_int_equal(rx_fixed_search(&f, "x\0EI0005:", 9, 4095), 0);
	regfree(&rx);
}

/* Against regexec on random lines: forms whose last position takes few bytes (found by
 * memchr) and many (the window's walk), over an alphabet that makes partial matches common. */
static void test_random(void **state)
{
	(void)state;
	static const char *const res[] = {"[EWI][A-Z0-9][0-9]{4}[):]", "ab[0-9]c", "[a-c]{2}x",
					  "a[0-9]{2}[a-z]", "x", "[0-9]:[0-9]"};
	static const char abc[] = "EWIab0129:)xc ";
	unsigned seed = 11;
	for (size_t r = 0; r < sizeof(res) / sizeof(res[0]); r++) {
		struct rx_fixed f;
		regex_t rx;
		assert_int_equal(rx_fixed_compile(res[r], &f), 0);
		assert_int_equal(regcomp(&rx, res[r], REG_EXTENDED | REG_NOSUB), 0);
		for (int round = 0; round < 3000; round++) {
			char line[40];
			size_t n = (size_t)rand_r(&seed) % sizeof(line);
			for (size_t j = 0; j < n; j++)
				line[j] = abc[(size_t)rand_r(&seed) % (sizeof(abc) - 1)];
			line[n] = '\0';
			int want = !regexec(&rx, line, 0, NULL, 0);
			if (rx_fixed_search(&f, line, n, 4095) != want)
				fail_msg("%s on '%s': want %d", res[r], line, want);
		}
		regfree(&rx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
