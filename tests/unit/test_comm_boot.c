/* libcomm bootstrap: the token, the rendezvous (auth, hello checks, timeouts) and the mesh,
 * with ranks as threads over 127.0.0.1.
 *
 * harness: timed (its ranks and tools run against wall-clock deadlines)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "libcomm/internal.h"
#include "tests/unit/comm_ranks.h"

static void test_token(void **state)
{
	(void)state;
	struct comm_root_info ri;
	struct comm__token t;
	char err[COMM_ERRLEN];
	unsigned char sec[16];
	for (int i = 0; i < 16; i++)
		sec[i] = (unsigned char)(i * 17);
	assert_int_equal(comm_root_info_make(&ri, "127.0.0.1", 29500, sec, err, sizeof(err)), 0);
	assert_string_equal(ri.token, "comm3:127.0.0.1:29500:00112233445566778899aabbccddeeff");
	assert_int_equal(comm__token_parse(ri.token, &t, err, sizeof(err)), 0);
	assert_string_equal(t.host, "127.0.0.1");
	assert_int_equal(t.port, 29500);
	assert_memory_equal(t.secret, sec, 16);

	assert_int_equal(comm_root_info_make(&ri, "::1", 7, sec, err, sizeof(err)), 0);
	assert_string_equal(ri.token, "comm3:[::1]:7:00112233445566778899aabbccddeeff");
	assert_int_equal(comm__token_parse(ri.token, &t, err, sizeof(err)), 0);
	assert_string_equal(t.host, "::1");
	assert_int_equal(t.port, 7);

	/* a fresh secret each time */
	struct comm_root_info r2;
	assert_int_equal(comm_root_info_make(&ri, "node-1.example", 1, NULL, err, sizeof(err)), 0);
	assert_int_equal(comm_root_info_make(&r2, "node-1.example", 1, NULL, err, sizeof(err)), 0);
	assert_string_not_equal(ri.token, r2.token);

	static const struct {
		const char *tok, *why;
	} bad[] = {
		{ "comm9:h:1:00112233445566778899aabbccddeeff", "version" },
		{ "comm:h:1:00112233445566778899aabbccddeeff", "start" },
		{ "comm3:h:1:00112233445566778899aabbccddeefg", "hex" },
		{ "comm3:h:1:00112233445566778899aabbccddeef", "expected" },
		{ "comm3:h:65536:00112233445566778899aabbccddeeff", "range" },
		{ "comm3:h:1x:00112233445566778899aabbccddeeff", "port" },
		{ "comm3:h::00112233445566778899aabbccddeeff", "port" },
		{ "comm3::1:00112233445566778899aabbccddeeff", "empty host" },
		{ "comm3:h h:1:00112233445566778899aabbccddeeff", "character" },
		{ "comm3:[::1:1:00112233445566778899aabbccddeeff", "]" },
		{ "comm3:::1:1:00112233445566778899aabbccddeeff", "character ':'" },
		{ "comm3:h:123456:00112233445566778899aabbccddeeff", "port" },
		{ "comm3:h:1:00112233445566778899aabbccddeeff ", "hex" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		int rc = comm__token_parse(bad[i].tok, &t, err, sizeof(err));
		if (rc != COMM_E_INVAL || !strstr(err, bad[i].why))
			fail_msg("'%s': rc %d, err '%s', wanted '%s'", bad[i].tok, rc, err, bad[i].why);
	}
	assert_int_not_equal(comm_root_info_make(&ri, "bad host", 1, NULL, err, sizeof(err)), 0);
	assert_int_not_equal(comm_root_info_make(&ri, "h", 70000, NULL, err, sizeof(err)), 0);
}

static int body_check(struct rank_arg *a)
{
	if (comm_rank(a->c) != a->rank || comm_size(a->c) != a->nranks)
		return -100;
	return comm_barrier(a->c);
}

static void meet(int n)
{
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, n, 5000);
	assert_non_null(r);
	struct rank_arg *a = calloc((size_t)n, sizeof(*a));
	ranks_setup(a, n, &ri, 5000, 5000);
	for (int i = 0; i < n; i++)
		a[i].body = body_check;
	ranks_run(a, n);
	for (int i = 0; i < n; i++) {
		if (a[i].rc || a[i].body_rc)
			fail_msg("n=%d rank %d: init %d body %d: %s", n, i, a[i].rc, a[i].body_rc,
				 a[i].err);
	}
	assert_int_equal(comm_rendezvous_refused(r, NULL, 0), 0);
	comm_rendezvous_stop(r);
	free(a);
}

static void test_meet(void **state)
{
	(void)state;
	static const int ns[] = { 1, 2, 3, 5, 8 };
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		meet(ns[i]);
}

static void test_wrong_secret(void **state)
{
	(void)state;
	struct comm_root_info ri, bad;
	struct comm_rendezvous *r = rdv_start(&ri, 2, 5000);
	assert_non_null(r);
	/* same host and port, another secret */
	bad = ri;
	char *sec = strrchr(bad.token, ':') + 1;
	sec[0] = sec[0] == '0' ? '1' : '0';
	struct rank_arg a[3];
	ranks_setup(a, 2, &ri, 5000, 5000);
	ranks_setup(&a[2], 1, &bad, 2000, 2000);
	a[2].cfg.nranks = 2; /* says it is rank 0 of 2, like a real rank would */
	ranks_run(&a[2], 1);
	assert_int_equal(a[2].rc, COMM_E_AUTH);
	assert_non_null(strstr(a[2].err, "secret"));
	char why[COMM_ERRLEN];
	assert_int_equal(comm_rendezvous_refused(r, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "refused connection from 127.0.0.1:"));
	assert_non_null(strstr(why, "wrong secret"));
	/* the job itself is unharmed */
	a[0].body = a[1].body = body_check;
	ranks_run(a, 2);
	for (int i = 0; i < 2; i++)
		if (a[i].rc || a[i].body_rc)
			fail_msg("rank %d: %s", i, a[i].err);
	/* a connection that never speaks is refused too, and does not block the server */
	comm_rendezvous_stop(r);
}

static void expect_all(struct rank_arg *a, int n, int code, const char *const *needles)
{
	for (int i = 0; i < n; i++) {
		if (a[i].rc != code)
			fail_msg("rank %d: rc %d (%s), wanted %s: %s", i, a[i].rc,
				 comm_status_name(a[i].rc), comm_status_name(code), a[i].err);
		for (const char *const *nd = needles; *nd; nd++)
			if (!strstr(a[i].err, *nd))
				fail_msg("rank %d: '%s' lacks '%s'", i, a[i].err, *nd);
	}
}

static void test_duplicate(void **state)
{
	(void)state;
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, 2, 3000);
	struct rank_arg a[2];
	ranks_setup(a, 2, &ri, 5000, 5000);
	a[1].cfg.rank = 0; /* two rank 0s, on hosts h0 and h1 */
	ranks_run(a, 2);
	static const char *const want[] = { "duplicate rank 0", "host h0", "host h1", NULL };
	expect_all(a, 2, COMM_E_BOOTSTRAP, want);
	comm_rendezvous_stop(r);
}

static void test_world_size(void **state)
{
	(void)state;
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, 2, 3000);
	struct rank_arg a[2];
	ranks_setup(a, 2, &ri, 5000, 5000);
	a[1].cfg.nranks = 3;
	ranks_run(a, 2);
	static const char *const want[] = { "world size disagreement", "rank 1 (host h1) says 3",
					    NULL };
	expect_all(a, 2, COMM_E_BOOTSTRAP, want);
	comm_rendezvous_stop(r);
}

static void test_digest(void **state)
{
	(void)state;
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, 3, 3000);
	struct rank_arg a[3];
	ranks_setup(a, 3, &ri, 5000, 5000);
	a[0].cfg.digest = a[1].cfg.digest = "aaaa1111";
	a[2].cfg.digest = "bbbb2222";
	ranks_run(a, 3);
	static const char *const want[] = { "digest mismatch", "rank 2 (host h2) has bbbb2222",
					    "rank 0 (host h0)", "aaaa1111", NULL };
	expect_all(a, 3, COMM_E_BOOTSTRAP, want);
	comm_rendezvous_stop(r);
}

static void test_missing_rank(void **state)
{
	(void)state;
	struct comm_root_info ri;
	struct comm_rendezvous *r = rdv_start(&ri, 4, 1000);
	struct rank_arg a[4];
	ranks_setup(a, 4, &ri, 3000, 3000);
	a[1] = a[3]; /* ranks 0 and 3 come; 1 and 2 never do */
	int64_t t0 = mono_ms();
	ranks_run(a, 2);
	int64_t dt = mono_ms() - t0;
	static const char *const want[] = { "2 of 4 ranks never said hello: ranks 1-2", NULL };
	expect_all(a, 2, COMM_E_TIMEOUT, want);
	assert_true(dt >= 900 && dt < 2900);
	comm_rendezvous_stop(r);
}

static void test_no_rendezvous(void **state)
{
	(void)state;
	struct comm_root_info ri;
	char err[COMM_ERRLEN];
	/* a port nobody listens on: the rank retries until its deadline, then names it */
	assert_int_equal(comm_root_info_make(&ri, "127.0.0.1", 1, NULL, err, sizeof(err)), 0);
	struct rank_arg a[1];
	ranks_setup(a, 1, &ri, 500, 500);
	ranks_run(a, 1);
	assert_int_equal(a[0].rc, COMM_E_TIMEOUT);
	assert_non_null(strstr(a[0].err, "no rendezvous at 127.0.0.1:1"));
}

static void test_bad_config(void **state)
{
	(void)state;
	struct comm_root_info ri;
	char err[COMM_ERRLEN];
	struct comm *c = NULL;
	assert_int_equal(comm_root_info_make(&ri, "127.0.0.1", 1, NULL, err, sizeof(err)), 0);
	struct comm_config cfg = { .rank = 2, .nranks = 2 };
	assert_int_equal(comm_init(&c, &ri, &cfg, err, sizeof(err)), COMM_E_INVAL);
	assert_non_null(strstr(err, "rank 2 of 2"));
	cfg.rank = 0;
	setenv("HCCLCTL_EXEC_TIMEOUT", "soon", 1);
	assert_int_equal(comm_init(&c, &ri, &cfg, err, sizeof(err)), COMM_E_INVAL);
	assert_non_null(strstr(err, "HCCLCTL_EXEC_TIMEOUT='soon'"));
	unsetenv("HCCLCTL_EXEC_TIMEOUT");
	setenv("HCCLCTL_ALGO", "tree", 1);
	assert_int_equal(comm_init(&c, &ri, &cfg, err, sizeof(err)), COMM_E_INVAL);
	assert_non_null(strstr(err, "HCCLCTL_ALGO='tree'"));
	unsetenv("HCCLCTL_ALGO");
	assert_null(c);
}

static void test_names(void **state)
{
	(void)state;
	for (int i = 0; i < COMM_DTYPE_COUNT; i++)
		assert_int_equal(comm_dtype_parse(comm_dtype_name((enum comm_dtype)i)), i);
	for (int i = 0; i < COMM_OP_COUNT; i++)
		assert_int_equal(comm_op_parse(comm_op_name((enum comm_op)i)), i);
	for (int i = 0; i < COMM_ALGO_COUNT; i++)
		assert_int_equal(comm_algo_parse(comm_algo_name((enum comm_algo)i)), i);
	for (int i = 0; i < COMM_COLL_COUNT; i++)
		assert_int_equal(comm_coll_parse(comm_coll_name((enum comm_coll)i)), i);
	assert_int_equal(comm_dtype_parse("float"), -1);
	assert_int_equal(comm_dtype_parse(NULL), -1);
	assert_int_equal(comm_dtype_size(COMM_BF16), 2);
	assert_string_equal(comm_status_name(COMM_E_MISMATCH), "mismatch");
	assert_string_equal(comm_status_name(COMM_OK), "ok");
	assert_string_equal(comm_status_name(-99), "unknown");
}


/* Init, collectives, failures and destroy leave no file descriptor or thread behind. */
static void test_no_leaks(void **state)
{
	int fds = open_fds(), tasks = settled_threads(-1);
	meet(4);
	test_duplicate(state);
	test_wrong_secret(state);
	test_missing_rank(state);
	assert_int_equal(open_fds(), fds);
	assert_int_equal(settled_threads(tasks), tasks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_token),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_meet),
		cmocka_unit_test(test_wrong_secret),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_world_size),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_missing_rank),
		cmocka_unit_test(test_no_rendezvous),
		cmocka_unit_test(test_no_leaks),
	};
	return cmocka_run_group_tests_name("comm_boot", tests, NULL, NULL);
}
