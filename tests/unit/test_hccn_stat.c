/* hccn_parse_stat and the counter table: the real -stat -g captures of
 * tests/data/hccn_tool/real (README names them) read back counter by counter, with LF and CRLF
 * ends, the layouts and mistakes a reader must reject by line, and which family each counter
 * of the DCMI field list falls in. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/nic/hccn_stat.h"

#define REAL "tests/data/hccn_tool/real/"

static char err[256];
static struct hccn_stat st;

/* The file, with every "\n" made "\r\n" when crlf; the caller frees it. */
static char *load(const char *name, size_t *len, int crlf)
{
	char path[256];
	snprintf(path, sizeof(path), REAL "%s", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char raw[4096], *out = malloc(8192);
	assert_non_null(out);
	size_t n = fread(raw, 1, sizeof(raw), f), o = 0;
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		if (crlf && raw[i] == '\n')
			out[o++] = '\r';
		out[o++] = raw[i];
	}
	*len = o;
	return out;
}

static void parse_real(const char *name, int crlf)
{
	size_t len;
	char *b = load(name, &len, crlf);
	assert_int_equal(hccn_parse_stat(b, len, &st, err, sizeof(err)), 0);
	free(b);
}

static void counter_is(size_t i, const char *name, unsigned long long v, unsigned line)
{
	assert_true(i < st.n);
	assert_string_equal(st.c[i].name, name);
	assert_int_equal(st.c[i].value, v);
	assert_int_equal(st.c[i].line, line);
}

static size_t findings(size_t *idx, enum probe_status *worst)
{
	return hccn_stat_findings(&st, idx, HCCN_STAT_MAX, worst);
}

static void test_real_elided_doc(void **state)
{
	size_t idx[HCCN_STAT_MAX];
	enum probe_status w;
	(void)state;
	for (int crlf = 0; crlf < 2; crlf++) {
		parse_real("stat_elided_mindcluster-doc.txt", crlf);
		assert_int_equal(st.n, 8);
		assert_int_equal(st.nelided, 1);
		counter_is(0, "mac_tx_mac_pause_num", 0, 2);
		counter_is(1, "mac_rx_mac_pause_num", 0, 3);
		counter_is(2, "mac_tx_pfc_pkt_num", 0, 4);
		counter_is(3, "roce_qp_status_err_num", 0, 6);
		counter_is(4, "nic_tx_all_pkg_num", 122404, 7);
		counter_is(5, "nic_tx_all_oct_num", 16921741, 8);
		counter_is(6, "nic_rx_all_pkg_num", 6414803, 9);
		counter_is(7, "nic_rx_all_oct_num", 482237805, 10);
		assert_int_equal(findings(idx, &w), 0);
		assert_int_equal(w, PROBE_PASS);
	}
}

static void test_real_trimmed_clean(void **state)
{
	size_t idx[HCCN_STAT_MAX];
	enum probe_status w;
	unsigned long long v = 99;
	(void)state;
	parse_real("stat_910a_trimmed_mindcluster-kgparse-before.txt", 0);
	assert_int_equal(st.n, 2);
	assert_int_equal(st.nelided, 0);
	counter_is(0, "roce_rx_err_pkt_num", 0, 2);
	counter_is(1, "roce_tx_err_pkt_num", 0, 3);
	assert_int_equal(hccn_stat_get(&st, "roce_tx_err_pkt_num", &v), 1);
	assert_int_equal(v, 0);
	assert_int_equal(hccn_stat_get(&st, "roce_new_pkt_rty_num", &v), 0);
	assert_int_equal(findings(idx, &w), 0);
	assert_int_equal(w, PROBE_PASS);
}

static void test_real_roce_errors(void **state)
{
	size_t idx[HCCN_STAT_MAX];
	enum probe_status w;
	(void)state;
	for (int crlf = 0; crlf < 2; crlf++) {
		parse_real("stat_roce-err_dev6_mindcluster-st-worker0-after.txt", crlf);
		assert_int_equal(st.n, 2);
		counter_is(0, "roce_rx_err_pkt_num", 13, 2);
		counter_is(1, "roce_tx_err_pkt_num", 77, 3);
		assert_int_equal(findings(idx, &w), 2);
		assert_int_equal(idx[0], 0);
		assert_int_equal(idx[1], 1);
		assert_int_equal(w, PROBE_WARN);
		assert_string_equal(hccn_stat_rule_for("roce_rx_err_pkt_num")->what,
				    "RoCE packets in error");
	}
}

static void rejects(const char *text, const char *msg)
{
	memset(err, 0, sizeof(err));
	assert_int_equal(hccn_parse_stat(text, strlen(text), &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, msg);
}

static void test_rejects_by_line(void **state)
{
	(void)state;
	rejects("packet statistics:\nroce_rx_err_pkt_num:N/A\n",
		"line 2: counter roce_rx_err_pkt_num has a value that is not a count: \"N/A\"");
	rejects("packet statistics:\nroce_rx_err_pkt_num:-1\n",
		"line 2: counter roce_rx_err_pkt_num has a value that is not a count: \"-1\"");
	rejects("a:1\nb:18446744073709551616\n",
		"line 2: counter b has a value that is not a count: \"18446744073709551616\"");
	rejects("a:1\nb:1 2\n", "line 2: counter b has a value that is not a count: \"1 2\"");
	rejects("packet statistics:\n\nmac_rx_bad_pkt_num:\n",
		"line 3: counter mac_rx_bad_pkt_num has no value: \"mac_rx_bad_pkt_num:\"");
	rejects("x:1\ny:2\nx:3\n", "line 3: counter x given twice (first on line 1)");
	rejects("x:1\nsomething else\n",
		"line 2: not a \"name:value\" counter line: \"something else\"");
	rejects("x:1\nmac rx bad:4\n", "line 2: not a counter name: \"mac rx bad\"");
	rejects("packet statistics:\n...\n", "no \"name:value\" counter in the output");
	rejects("", "no \"name:value\" counter in the output");
	rejects("The device is not exist!\n", "line 1: the device does not exist");
	rejects("Error: Cmd execute failed!\n", "line 1: command failed");
}

static void test_layouts(void **state)
{
	static const char text[] = "  packet statistics:  \r\n"
				   "mac_tx_pfc_pkt_num : 51234\r\n"
				   "\tmac_rx_pfc_pri3_pkt_num:\t880\r\n"
				   "\xe2\x80\xa6\r\n"
				   "roce_new_pkt_rty_num: 18446744073709551615";
	(void)state;
	assert_int_equal(hccn_parse_stat(text, sizeof(text) - 1, &st, err, sizeof(err)), 0);
	assert_int_equal(st.n, 3);
	assert_int_equal(st.nelided, 1);
	counter_is(0, "mac_tx_pfc_pkt_num", 51234, 2);
	counter_is(1, "mac_rx_pfc_pri3_pkt_num", 880, 3);
	counter_is(2, "roce_new_pkt_rty_num", 18446744073709551615ULL, 5);
}

static void test_too_many(void **state)
{
	char *b = malloc(64 * (HCCN_STAT_MAX + 1));
	size_t o = 0;
	(void)state;
	assert_non_null(b);
	for (int i = 0; i <= HCCN_STAT_MAX; i++)
		o += (size_t)snprintf(b + o, 64, "c%d:%d\n", i, i);
	assert_int_equal(hccn_parse_stat(b, o, &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 129: more than 128 counters");
	free(b);
}

/* Every field of the DCMI network packet statistics list in its family: errors WARN, flow
 * control, congestion notification and traffic PASS. */
static void test_families(void **state)
{
	static const struct {
		const char *name, *what;
		enum probe_status st;
	} cases[] = {
		{"roce_rx_err_pkt_num", "RoCE packets in error", PROBE_WARN},
		{"roce_tx_err_pkt_num", "RoCE packets in error", PROBE_WARN},
		{"roce_verification_err_num", "RoCE packets failing checks", PROBE_WARN},
		{"roce_qp_status_err_num", "packets to a queue pair in error", PROBE_WARN},
		{"roce_err_qp_status_num", "packets to a queue pair in error", PROBE_WARN},
		{"roce_new_pkt_rty_num", "RoCE retransmissions", PROBE_WARN},
		{"roce_out_of_order_num", "RoCE packets out of sequence", PROBE_WARN},
		{"roce_err_psn_num", "RoCE packets out of sequence", PROBE_WARN},
		{"roce_unexpected_ack_num", "unexpected ACKs", PROBE_PASS},
		{"roce_err_ack_num", "unexpected ACKs", PROBE_PASS},
		{"mac_rx_fcs_err_pkt_num", "frames with a bad FCS", PROBE_WARN},
		{"mac_rx_bad_pkt_num", "bad Ethernet frames", PROBE_WARN},
		{"mac_tx_bad_pkt_num", "bad Ethernet frames", PROBE_WARN},
		{"mac_rx_bad_oct_num", "bytes of bad frames", PROBE_PASS},
		{"mac_tx_mac_pause_num", "flow control", PROBE_PASS},
		{"mac_rx_pause_num", "flow control", PROBE_PASS},
		{"mac_tx_pfc_pkt_num", "flow control", PROBE_PASS},
		{"mac_rx_pfc_pri7_pkt_num", "flow control", PROBE_PASS},
		{"roce_rx_cnp_pkt_num", "congestion notification", PROBE_PASS},
		{"roce_ecn_db_num", "congestion notification", PROBE_PASS},
		{"roce_rx_all_pkt_num", "traffic", PROBE_PASS},
		{"mac_tx_total_oct_num", "traffic", PROBE_PASS},
		{"roce_tx_rc_pkt_num", "traffic", PROBE_PASS},
		{"roce_cqe_num", "traffic", PROBE_PASS},
		{"nic_rx_all_pkg_num", "traffic", PROBE_PASS},
		{"roce_future_err_num", "other error counters", PROBE_WARN},
		{"nic_rx_drop_num", "other error counters", PROBE_WARN},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hccn_stat_rule *r = hccn_stat_rule_for(cases[i].name);
		assert_non_null(r);
		assert_string_equal(r->what, cases[i].what);
		assert_int_equal(r->status, cases[i].st);
		assert_true(r->why && *r->why);
	}
	assert_null(hccn_stat_rule_for("roce_something_num"));
}

/* Findings come grouped by family in table order, zero counters and PASS families left out. */
static void test_findings_order(void **state)
{
	static const char text[] = "mac_rx_fcs_err_pkt_num:4\nroce_tx_err_pkt_num:0\n"
				   "mac_tx_pfc_pkt_num:9\nroce_rx_err_pkt_num:5\n"
				   "roce_unexpected_ack_num:3\nroce_new_pkt_rty_num:2\n";
	size_t idx[HCCN_STAT_MAX];
	enum probe_status w;
	(void)state;
	assert_int_equal(hccn_parse_stat(text, sizeof(text) - 1, &st, err, sizeof(err)), 0);
	assert_int_equal(findings(idx, &w), 3);
	assert_string_equal(st.c[idx[0]].name, "roce_rx_err_pkt_num");
	assert_string_equal(st.c[idx[1]].name, "roce_new_pkt_rty_num");
	assert_string_equal(st.c[idx[2]].name, "mac_rx_fcs_err_pkt_num");
	assert_int_equal(w, PROBE_WARN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_elided_doc),	 cmocka_unit_test(test_real_trimmed_clean),
		cmocka_unit_test(test_real_roce_errors), cmocka_unit_test(test_rejects_by_line),
		cmocka_unit_test(test_layouts),		 cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_families),	 cmocka_unit_test(test_findings_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
