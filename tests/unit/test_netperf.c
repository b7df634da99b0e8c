/* probe net's library side: the schedule of disjoint pairs, the verdicts on a matrix, the
 * protocol parser's located errors and the challenge. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/lib/netperf.h"

/* Every pair meets exactly once, pairs of a round are disjoint, n-1 rounds (n when odd). */
static void test_schedule(void **state)
{
	(void)state;
	for (size_t n = 0; n <= 17; n++) {
		size_t met[17][17] = {{0}}, pairs[9][2], total = 0;
		size_t rounds = np_rounds(n);
		assert_int_equal(rounds, n < 2 ? 0 : n % 2 ? n : n - 1);
		for (size_t r = 0; r < rounds; r++) {
			int busy[17] = {0};
			size_t np = np_round_pairs(n, r, pairs);
			assert_int_equal(np, n / 2);
			for (size_t k = 0; k < np; k++) {
				size_t a = pairs[k][0], b = pairs[k][1];
				assert_true(a < b && b < n);
				assert_false(busy[a] || busy[b]);
				busy[a] = busy[b] = 1;
				met[a][b]++;
				total++;
			}
		}
		assert_int_equal(np_round_pairs(n, rounds, pairs), 0);
		assert_int_equal(total, n * (n ? n - 1 : 0) / 2);
		for (size_t a = 0; a < n; a++)
			for (size_t b = a + 1; b < n; b++)
				assert_int_equal(met[a][b], 1);
	}
}

static void fill(struct np_matrix *m, double bps)
{
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->n; j++)
			if (i != j) {
				np_link_at(m, i, j)->measured = 1;
				np_link_at(m, i, j)->bps = bps;
			}
}

/* One link at half rate: it and no other is slow, and no node is named. */
static void test_one_slow_link(void **state)
{
	struct np_matrix m;
	(void)state;
	assert_int_equal(np_matrix_init(&m, 4), 0);
	fill(&m, 200e6);
	np_link_at(&m, 0, 1)->bps = 100e6;
	np_link_at(&m, 2, 3)->bps = 170e6; /* 85 %: not slow */
	np_matrix_judge(&m, 0.8);
	assert_true(m.median_bps == 200e6);
	assert_true(m.threshold_bps == 160e6);
	assert_int_equal(m.nmeasured, 12);
	assert_int_equal(m.nslow, 1);
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 4; j++)
			assert_int_equal(np_link_at(&m, i, j)->status, i == j ? PROBE_SKIP
								       : i == 0 && j == 1
									       ? PROBE_WARN
									       : PROBE_PASS);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(m.node[i].status, PROBE_PASS);
		assert_int_equal(m.node[i].links, 6);
	}
	assert_true(np_link_at(&m, 0, 1)->ratio == 0.5);
	np_matrix_release(&m);
}

/* A node whose every link is slow is named; a failed link is FAIL, and not in the median. */
static void test_slow_node_and_failure(void **state)
{
	struct np_matrix m;
	(void)state;
	assert_int_equal(np_matrix_init(&m, 8), 0);
	fill(&m, 1e9);
	for (size_t j = 0; j < 8; j++)
		if (j != 5) {
			np_link_at(&m, 5, j)->bps = 4e8;
			np_link_at(&m, j, 5)->bps = 4e8;
		}
	np_link_at(&m, 1, 2)->measured = 0;
	np_link_at(&m, 1, 2)->failed = 1;
	np_matrix_judge(&m, 0.8);
	assert_int_equal(m.nmeasured, 55);
	assert_int_equal(m.nslow, 14);
	assert_int_equal(m.nfailed, 1);
	assert_int_equal(m.node[5].status, PROBE_WARN);
	assert_int_equal(m.node[5].slow, 14);
	assert_int_equal(np_link_at(&m, 1, 2)->status, PROBE_FAIL);
	for (size_t i = 0; i < 8; i++)
		if (i != 5)
			assert_int_equal(m.node[i].status, PROBE_PASS);
	np_matrix_release(&m);

	/* nothing measured: no median, nothing slow */
	assert_int_equal(np_matrix_init(&m, 3), 0);
	np_matrix_judge(&m, 0.8);
	assert_int_equal(m.nmeasured, 0);
	assert_true(m.median_bps == 0);
	np_matrix_release(&m);
}

static void bad_line(const char *line, const char *want)
{
	struct np_msg m;
	char err[256] = "";
	assert_int_equal(np_msg_parse(&m, line, strlen(line), err, sizeof(err)), -EINVAL);
	if (strcmp(err, want))
		fail_msg("\"%s\": got \"%s\", want \"%s\"", line, err, want);
}

static void test_parse(void **state)
{
	struct np_msg m;
	char err[256], buf[NP_LINE_MAX];
	const char *l = "measure host=10.0.0.2 port=4000 ms=400 bytes=0 pings=50";
	(void)state;
	assert_int_equal(np_msg_parse(&m, l, strlen(l), err, sizeof(err)), 0);
	assert_int_equal(m.kind, NP_MEASURE);
	assert_string_equal(m.host, "10.0.0.2");
	assert_int_equal(m.port, 4000);
	assert_int_equal(m.ms, 400);
	assert_int_equal(m.pings, 50);
	assert_int_equal(np_msg_format(&m, buf, sizeof(buf)), (int)strlen(l) + 1);
	assert_memory_equal(buf, l, strlen(l));

	l = "result rtt_us=41.5 rtt_p99_us=90 fwd_bps=191000000 rev_bps=95000000 fwd_bytes=1 "
	    "rev_bytes=2";
	assert_int_equal(np_msg_parse(&m, l, strlen(l), err, sizeof(err)), 0);
	assert_true(m.res.rtt_us == 41.5 && m.res.fwd_bps == 191e6 && m.res.rev_bytes == 2);

	bad_line("measure host=a;b port=1 ms=1 bytes=1 pings=1",
		 "column 14: host: not a host name or address (letters, digits, . - _ : %)");
	bad_line("measure host=h port=1 ms=1 bytes=1", "column 35: missing pings=");
	bad_line("ping n=1 n=2", "column 10: n given twice");
	bad_line("ping n=0", "column 8: n: 0 is out of range 1..1000000");
	bad_line("ping x=1", "column 6: unknown key \"x\"");
	bad_line("ping  n=1", "column 6: expected key=value, got an empty word");
	bad_line("hcclnet1 ready port=70000", "column 21: port: expected a port 1..65535");
	bad_line("ready port=1", "column 1: unknown message \"ready\"");
	bad_line("ok\r", "column 3: control or non-ASCII byte 0x0d");
	bad_line("result rtt_us=nan rtt_p99_us=1 fwd_bps=1 rev_bps=1 fwd_bytes=1 rev_bytes=1",
		 "column 15: rtt_us: expected a number >= 0, got \"nan\"");
	bad_line("auth mac=00", "column 10: mac: expected 64 lowercase hex digits");
	bad_line("error", "column 6: error without a text");
}

static void test_secret_and_mac(void **state)
{
	unsigned char k1[NP_KEY_LEN], k2[NP_KEY_LEN];
	char err[200], a[NP_MAC_HEX + 1], b[NP_MAC_HEX + 1];
	const char *nonce = "0123456789abcdef0123456789abcdef";
	(void)state;
	assert_int_equal(
		np_secret_parse(k1, " 000102030405060708090a0b0c0d0e0f\n", 35, err, sizeof(err)),
		0);
	assert_int_equal(k1[15], 15);
	assert_int_equal(
		np_secret_parse(k2, "000102030405060708090a0b0c0d0e0F", 32, err, sizeof(err)), 0);
	assert_int_equal(np_secret_parse(k2, "00010203", 8, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the secret must be 32 hex digits, got 8 characters");
	assert_int_equal(np_mac(k1, nonce, a), 0);
	assert_int_equal(np_mac(k2, nonce, b), 0);
	assert_int_equal(strlen(a), NP_MAC_HEX);
	assert_true(np_mac_equal(a, b)); /* the same key, whatever the case of its hex */
	k2[0] ^= 1;
	assert_int_equal(np_mac(k2, nonce, b), 0);
	assert_false(np_mac_equal(a, b));
	assert_false(np_mac_equal(a, "short"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_one_slow_link),
		cmocka_unit_test(test_slow_node_and_failure),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_secret_and_mac),
	};
	return cmocka_run_group_tests_name("netperf", tests, NULL, NULL);
}
