/* HCCL_* environment: env-file parsing (export, quotes, comments, commands) and the range and
 * coherence rules, with the exact findings. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "probes/host/hcclenv.h"

static char err[256];

static void test_parse(void **state)
{
	struct henv e;
	(void)state;
	static const char f[] = "# set by the launcher\n"
				"source /usr/local/Ascend/ascend-toolkit/set_env.sh\n"
				"export HCCL_CONNECT_TIMEOUT=1200\n"
				"HCCL_BUFFSIZE=\"400\"   # MB\n"
				"export\tHCCL_IF_IP='10.0.0.1'\r\n"
				"HCCL_EXEC_TIMEOUT=600 ; echo set\n"
				"ASCEND_RT_VISIBLE_DEVICES=0,1\n"
				"HCCL_CONNECT_TIMEOUT=1800\n"
				"if [ -n \"$X\" ]; then\n";
	assert_int_equal(henv_parse(f, sizeof(f) - 1, &e, err, sizeof(err)), 0);
	assert_int_equal(e.n, 4);
	assert_string_equal(henv_get(&e, "HCCL_CONNECT_TIMEOUT"), "1800"); /* the last wins */
	assert_string_equal(henv_get(&e, "HCCL_BUFFSIZE"), "400");
	assert_string_equal(henv_get(&e, "HCCL_IF_IP"), "10.0.0.1");
	assert_string_equal(henv_get(&e, "HCCL_EXEC_TIMEOUT"), "600");
	assert_null(henv_get(&e, "ASCEND_RT_VISIBLE_DEVICES"));
	assert_int_equal(e.others, 1);
	assert_int_equal(e.ignored, 2);
	assert_int_equal(e.v[0].line, 8);
	assert_true(henv_per_node("HCCL_IF_IP"));
	assert_false(henv_per_node("HCCL_BUFFSIZE"));
	char *env[] = { (char *)"PATH=/bin", (char *)"HCCL_RDMA_TC=132", (char *)"HCCL_X", NULL };
	henv_from_environ(&e, env);
	assert_int_equal(e.n, 1);
	assert_string_equal(henv_get(&e, "HCCL_RDMA_TC"), "132");
	char big[400];
	memset(big, 'a', sizeof(big));
	memcpy(big, "HCCL_X=", 7);
	assert_int_equal(henv_parse(big, sizeof(big), &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 1: the value of HCCL_X is longer than 255 bytes");
}

static size_t check(const char *text, struct henv_finding *f, size_t max)
{
	struct henv e;
	assert_int_equal(henv_parse(text, strlen(text), &e, err, sizeof(err)), 0);
	return henv_check(&e, f, max);
}

static void test_ranges(void **state)
{
	struct henv_finding f[16];
	(void)state;
	size_t n = check("HCCL_CONNECT_TIMEOUT=60\nHCCL_BUFFSIZE=abc\nHCCL_RDMA_TC=130\n"
			 "HCCL_IF_BASE_PORT=65530\nHCCL_RDMA_RETRY_CNT=0\nHCCL_BUFFSIZE=0\n",
			 f, 16);
	assert_int_equal(n, 5);
	assert_int_equal(f[0].st, PROBE_FAIL);
	assert_string_equal(f[0].msg, "HCCL_CONNECT_TIMEOUT=60 is outside 120..7200");
	assert_string_equal(f[1].msg, "HCCL_IF_BASE_PORT=65530 is outside 1024..65520");
	assert_string_equal(f[2].msg, "HCCL_BUFFSIZE=0 is outside 1..2147483647");
	assert_string_equal(f[3].msg, "HCCL_RDMA_RETRY_CNT=0 is outside 1..7");
	assert_string_equal(f[4].msg, "HCCL_RDMA_TC=130 is not a multiple of 4");
	n = check("HCCL_BUFFSIZE=abc\n", f, 16);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].msg, "HCCL_BUFFSIZE=abc is not an integer: HCCL rejects it");
	/* within range: nothing, or notes only */
	n = check("HCCL_CONNECT_TIMEOUT=1200\nHCCL_EXEC_TIMEOUT=1768\nHCCL_BUFFSIZE=400\n", f, 16);
	assert_int_equal(n, 0);
	n = check("HCCL_EXEC_TIMEOUT=600\nHCCL_RDMA_TIMEOUT=22\n", f, 16);
	assert_int_equal(n, 2);
	assert_int_equal(f[0].st, PROBE_PASS);
	assert_string_equal(f[0].msg,
			    "HCCL_EXEC_TIMEOUT=600 is not a multiple of 68: Atlas training "
			    "(910) boards round it down to 544 s");
	assert_string_equal(f[1].msg, "HCCL_RDMA_TIMEOUT=22: A2 and A3 boards accept 5..20");
	n = check("HCCL_EXEC_TIMEOUT=20000\nHCCL_EVENT_TIMEOUT=30000\n", f, 16);
	assert_int_equal(n, 1);
	assert_string_equal(
		f[0].msg,
		"HCCL_EXEC_TIMEOUT=20000: Atlas training (910) boards accept at most 17340");
	n = check("HCCL_EXEC_TIMEOUT=40\nHCCL_EVENT_TIMEOUT=100\n", f, 16);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].msg,
			    "HCCL_EXEC_TIMEOUT=40 is not a multiple of 68: Atlas training "
			    "(910) boards round it down to 68 s");
}

static void test_coherence(void **state)
{
	struct henv_finding f[16];
	(void)state;
	/* 4.096 us x 2^24 x 7 = 481 s of retransmissions, above an exec timeout of 408 s */
	size_t n = check("HCCL_RDMA_TIMEOUT=24\nHCCL_EXEC_TIMEOUT=408\nHCCL_EVENT_TIMEOUT=600\n", f,
			 16);
	assert_int_equal(n, 2);
	assert_int_equal(f[0].st, PROBE_WARN);
	assert_string_equal(
		f[0].msg,
		"a lost RDMA packet is retried for 481 s (4.096 us x 2^24 x 7), not less than "
		"HCCL_EXEC_TIMEOUT=408 s: a broken link shows as an execution timeout "
		"instead of an RDMA error");
	assert_string_equal(f[1].msg, "HCCL_RDMA_TIMEOUT=24: A2 and A3 boards accept 5..20");
	/* the defaults (20, 7: 30 s) are well below */
	n = check("HCCL_EXEC_TIMEOUT=68\n", f, 16);
	assert_int_equal(n, 0);
	/* HCCL after the framework */
	n = check("HCCL_EXEC_TIMEOUT=1836\nHCCL_EVENT_TIMEOUT=1800\n", f, 16);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].msg,
			    "HCCL_EVENT_TIMEOUT=1800 is not above HCCL_EXEC_TIMEOUT=1836: "
			    "torch_npu gives up before HCCL can say which rank or link hung");
	n = check("HCCL_EXEC_TIMEOUT=7208\n", f, 16);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].msg,
			    "HCCL_EVENT_TIMEOUT=1868 (torch_npu's default) is not above "
			    "HCCL_EXEC_TIMEOUT=7208: torch_npu gives up before HCCL can say "
			    "which rank or link hung");
	n = check("HCCL_EXEC_TIMEOUT=0\nHCCL_EVENT_TIMEOUT=0\n", f, 16);
	assert_int_equal(n, 0);
	/* the intra-server link */
	n = check("HCCL_INTRA_PCIE_ENABLE=1\nHCCL_INTRA_ROCE_ENABLE=1\n", f, 16);
	assert_int_equal(n, 1);
	assert_int_equal(f[0].st, PROBE_FAIL);
	assert_string_equal(f[0].msg, "HCCL_INTRA_PCIE_ENABLE=1 and HCCL_INTRA_ROCE_ENABLE=1 "
				      "together are not supported");
	n = check("HCCL_INTRA_PCIE_ENABLE=0\n", f, 16);
	assert_int_equal(n, 1);
	assert_int_equal(f[0].st, PROBE_WARN);
	n = check("HCCL_INTRA_PCIE_ENABLE=0\nHCCL_INTRA_ROCE_ENABLE=1\n", f, 16);
	assert_int_equal(n, 0);
}

/* A name HCCL does not read: the closest known one when it is a misspelling (a warning, the
 * value meant is not set), a note when it is a name of its own; known names say nothing. */
static void test_unknown(void **state)
{
	struct henv_finding f[16];
	(void)state;
	assert_int_equal(check("HCCL_BUFSIZE=400\n", f, 16), 1);
	assert_int_equal(f[0].st, PROBE_WARN);
	assert_string_equal(f[0].msg,
			    "HCCL_BUFSIZE is not a variable HCCL reads: did you mean HCCL_BUFFSIZE?");
	assert_int_equal(check("HCCL_CONECT_TIMEOUTS=600\n", f, 16), 1);
	assert_string_equal(f[0].msg, "HCCL_CONECT_TIMEOUTS is not a variable HCCL reads: did "
				      "you mean HCCL_CONNECT_TIMEOUT?");
	assert_int_equal(check("HCCL_SITE_LABEL=rack7\n", f, 16), 1);
	assert_int_equal(f[0].st, PROBE_PASS);
	assert_string_equal(f[0].msg,
			    "HCCL_SITE_LABEL is not among the HCCL variables CANN documents");
	assert_int_equal(check("HCCL_WHITELIST_DISABLE=1\nHCCL_ASYNC_ERROR_HANDLING=1\n"
			       "HCCL_SOCKET_FAMILY=AF_INET\nHCCL_OP_EXPANSION_MODE=AIV\n",
			       f, 16),
			 0);
	/* the worst first: the range's failure, the misspelling, the note */
	assert_int_equal(check("HCCL_RDMA_TC=3\nHCCL_RDMA_TCC=4\nHCCL_ZZZ_MINE=1\n", f, 16), 3);
	assert_int_equal(f[0].st, PROBE_FAIL);
	assert_int_equal(f[1].st, PROBE_WARN);
	assert_string_equal(f[1].msg,
			    "HCCL_RDMA_TCC is not a variable HCCL reads: did you mean HCCL_RDMA_TC?");
	assert_int_equal(f[2].st, PROBE_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_coherence),
		cmocka_unit_test(test_unknown),
	};
	return cmocka_run_group_tests_name("hcclenv", tests, NULL, NULL);
}
