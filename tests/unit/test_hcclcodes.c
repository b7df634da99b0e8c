/* The error-code catalog: every row well formed, and real log text finding the row it should. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"

/* Operators read fixes with no documents at hand, and users read no source references. */
static void assert_self_contained(const char *text)
{
	assert_non_null(text);
	assert_true(text[0] != '\0');
	assert_null(strstr(text, ".md"));
	assert_null(strstr(text, "§"));
	assert_null(strstr(text, "http"));
	assert_null(strstr(text, "hiascend"));
}

static int well_formed_code(const char *c)
{
	size_t n = strlen(c);

	if (n == 8 && !strncmp(c, "ERR", 3)) {
		for (size_t i = 3; i < n; i++)
			if (c[i] < '0' || c[i] > '9')
				return 0;
		return 1;
	}
	if (n != 6 || c[0] != 'E')
		return 0;
	if (!((c[1] >= 'A' && c[1] <= 'Z') || (c[1] >= '0' && c[1] <= '9')))
		return 0;
	for (size_t i = 2; i < n; i++)
		if (c[i] < '0' || c[i] > '9')
			return 0;
	return 1;
}

static void test_cat_names(void **state)
{
	static const char *const want[HCAT_N] = {
		"none",	       "link-down", "network-unreachable", "memory/resource", "rank-stuck",
		"op-mismatch", "config",    "version-mismatch",	   "hardware",	      "unresolved",
	};

	(void)state;
	for (int i = 0; i < HCAT_N; i++) {
		assert_string_equal(hcat_name(i), want[i]);
		assert_int_equal(hcat_from_name(want[i]), i);
	}
	assert_string_equal(hcat_name(-1), "?");
	assert_string_equal(hcat_name(HCAT_N), "?");
	assert_int_equal(hcat_from_name("Link-Down"), -1);
	assert_int_equal(hcat_from_name("link"), -1);
	assert_int_equal(hcat_from_name(""), -1);
	assert_int_equal(hcat_from_name("?"), -1);
	assert_int_equal(hcat_from_name(NULL), -1);
}

static void test_code_rows(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct hcode *c; (c = hcode_at(n)); n++) {
		assert_non_null(c->code);
		assert_true(well_formed_code(c->code));
		/* a code is a failure; "none" would hide it */
		assert_true(c->cat > HCAT_NONE && c->cat < HCAT_N);
		assert_non_null(c->name);
		assert_null(strstr(c->name, "http"));
		assert_self_contained(c->meaning);
		assert_self_contained(c->fix);
		for (size_t j = 0; j < n; j++)
			assert_string_not_equal(hcode_at(j)->code, c->code);
		assert_ptr_equal(hcode_find(c->code, strlen(c->code)), c);
	}
	assert_true(n >= 40);
	assert_null(hcode_at(n));
	assert_null(hcode_at((size_t)-1));
}

static void expect_code(const char *code, int cat)
{
	const struct hcode *c = hcode_find(code, strlen(code));

	assert_non_null(c);
	assert_int_equal(c->cat, cat);
}

static void test_find_real_codes(void **state)
{
	(void)state;
	/* HCCL, HCCP, runtime, driver and torch_npu codes as real failures print them */
	expect_code("EI0001", HCAT_CONFIG);
	expect_code("EI0002", HCAT_RANK_STUCK);
	expect_code("EI0004", HCAT_CONFIG);
	expect_code("EI0005", HCAT_OP_MISMATCH);
	expect_code("EI0006", HCAT_NET);
	expect_code("EI0008", HCAT_VERSION);
	expect_code("EI0011", HCAT_RESOURCE);
	/* HCCL's guide: an SDMA copy whose address was not mapped, most often */
	expect_code("EI0012", HCAT_RESOURCE);
	expect_code("EI0013", HCAT_LINK_DOWN);
	expect_code("EI0014", HCAT_CONFIG);
	expect_code("EI0015", HCAT_NET);
	expect_code("EI0016", HCAT_CONFIG);
	expect_code("EI0019", HCAT_NET);
	expect_code("EI0020", HCAT_NET);
	expect_code("EJ0001", HCAT_RESOURCE);
	expect_code("EJ0002", HCAT_LINK_DOWN);
	expect_code("EJ0003", HCAT_NET);
	expect_code("EJ0004", HCAT_CONFIG);
	expect_code("EL0004", HCAT_RESOURCE);
	/* wrappers: their meaning is in the lines around them */
	expect_code("ERR00100", HCAT_UNRESOLVED);
	expect_code("ERR01100", HCAT_UNRESOLVED);
	expect_code("ERR02200", HCAT_UNRESOLVED);
	expect_code("ERR99999", HCAT_UNRESOLVED);
	expect_code("EI9999", HCAT_UNRESOLVED);
	expect_code("EE9999", HCAT_UNRESOLVED);
	expect_code("EZ9999", HCAT_UNRESOLVED);
	expect_code("EH9999", HCAT_UNRESOLVED);

	assert_string_equal(hcode_find("EI0006", 6)->name, "Get_Socket_Timeout");
	assert_string_equal(hcode_find("ERR02200", 8)->name, "DIST call hccl api failed");
}

static void test_find_exact_and_safe(void **state)
{
	static const char tail[] = {'E', 'J', '0', '0', '0', '2'}; /* no NUL after it */
	static const char hostile[] = {'E', 'I', '0', '0', '0', '\0', '6', '\xff'};

	(void)state;
	assert_ptr_equal(hcode_find("ei0006", 6), hcode_find("EI0006", 6));
	assert_ptr_equal(hcode_find("eJ0003", 6), hcode_find("EJ0003", 6));
	assert_ptr_equal(hcode_find("err02200", 8), hcode_find("ERR02200", 8));
	assert_null(hcode_find("EI00061", 7));
	assert_null(hcode_find("EI000", 5));
	assert_null(hcode_find("EI0006 ", 7));
	assert_null(hcode_find(" EI0006", 7));
	assert_null(hcode_find("ERR0220", 7));
	assert_null(hcode_find("EI0000", 6));
	/* len, not the NUL, ends the token */
	assert_ptr_equal(hcode_find("EI0006X", 6), hcode_find("EI0006", 6));
	assert_ptr_equal(hcode_find(tail, sizeof(tail)), hcode_find("EJ0002", 6));
	assert_null(hcode_find(tail, 5));
	assert_null(hcode_find("", 0));
	assert_null(hcode_find("EI0006", 0));
	assert_null(hcode_find(NULL, 0));
	assert_null(hcode_find(NULL, 6));
	assert_null(hcode_find(hostile, 6));
	assert_null(hcode_find(hostile, sizeof(hostile)));
	assert_null(hcode_find("\xc5\xa0I0006", 7));
}

static int kebab(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

static void test_inner_rows(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct hinner *h; (h = hinner_at(n)); n++) {
		assert_non_null(h->needle);
		assert_true(strlen(h->needle) >= 5);
		assert_true(h->cat > HCAT_NONE && h->cat < HCAT_N);
		assert_non_null(h->detail);
		assert_true(kebab(h->detail));
		assert_self_contained(h->meaning);
		assert_self_contained(h->fix);
		for (size_t j = 0; j < n; j++)
			assert_string_not_equal(hinner_at(j)->needle, h->needle);
		/* specific before general: no earlier needle may shadow this one */
		assert_ptr_equal(hinner_match(h->needle, strlen(h->needle)), h);
	}
	assert_true(n >= 40);
	assert_null(hinner_at(n));
	assert_null(hinner_at((size_t)-1));
}

static void expect_inner(const char *line, const char *detail, int cat)
{
	const struct hinner *h = hinner_match(line, strlen(line));

	assert_non_null(h);
	assert_string_equal(h->detail, detail);
	assert_int_equal(h->cat, cat);
}

static void test_inner_real_lines(void **state)
{
	(void)state;
	/* github.com/Ascend/pytorch/issues/54 */
	expect_inner(
		"EI9999: 2024-10-21-10:42:00.358.410  The error from device(chipId:3, dieId:0), "
		"serial number is 9, hccl fftsplus task timeout occurred during task execution, "
		"stream_id:5, sq_id:5, task_id:38827, stuck notify num:1, timeout:30min(default)."
		"[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc]",
		"fftsplus-timeout", HCAT_RANK_STUCK);
	/* github.com/hiyouga/LlamaFactory/issues/5347 */
	expect_inner("EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, "
		     "context_id=6, thread_id=0, err_type=13[hccl fftsplus timeout][FUNC:GetError]",
		     "fftsplus-timeout", HCAT_RANK_STUCK);
	expect_inner(
		"rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason]",
		"task-timeout", HCAT_RANK_STUCK);
	/* github.com/Ascend/pytorch/issues/166: a memory fault (the NPU shared with a sleeping
	 * engine), as HCCL's guide says an SDMA error most often is */
	expect_inner("there is a fftsplus sdma error, sdma channel is 2, sdmaState=0x6, "
		     "cqeStatus=0x70000.",
		     "sdma-error", HCAT_RESOURCE);
	/* github.com/vllm-project/vllm-ascend/issues/116: the runtime's own task report, whose
	 * jobs were mostly left unexplained: no kind */
	expect_inner(
		"[rank0]:         The error from device(chipId:0, dieId:0), serial number is 9. "
		"there is a sdma error, sdma channel is 2, irqStatus=0x220000, cqeStatus=0x3",
		"sdma-error", HCAT_UNRESOLVED);
	/* github.com/hiyouga/LlamaFactory/issues/3839 */
	expect_inner("        tsd client wait response fail, device response code[1]. unknown "
		     "device error.[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:290]",
		     "npu-busy", HCAT_RESOURCE);
	/* the HCCL user guide's EJ0002 page */
	expect_inner(
		"[ERROR] HCCP(46430,alltoallv_test):2023-09-21-03:43:49.546.469 [ra hdc.c:1270]"
		"tid:46430,ra_hdc_rdev_init(1270) : [init][ra_hdc_rdev]ra hdc message process "
		"failed ret(-67) phy_id(3)",
		"nic-down", HCAT_LINK_DOWN);
	expect_inner("RuntimeError: EJ0002: [PID: 38079] 2025-07-15-12:45:31.202.787 The network "
		     "port is down.",
		     "nic-down", HCAT_LINK_DOWN);
	/* the heartbeat names the cause even inside an EI0002 text */
	expect_inner(
		"EI0002: The wait execution of the Notify register times out. Reason: The "
		"Notify register has not received the Notify record from remote rank [unknown]."
		" Cluster Exception Location[IP/ID]:[90.90.92.240/1], ExceptionType:[Heartbeat "
		"Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected",
		"peer-exited", HCAT_RANK_STUCK);
	expect_inner("has not received the Notify record from remote rank: [24]. base information",
		     "notify-timeout", HCAT_RANK_STUCK);
	expect_inner("EI0002: ... Notify record ... ExceptionType:[Error cqe Occurred] ... has not "
		     "received the Notify record",
		     "error-cqe", HCAT_LINK_DOWN);
	expect_inner(
		"EI0006: 2024-08-05-18:15:21.270.506 Getting socket times out. Reason: Remote "
		"Rank did not send the data in time. Please check the reason for the rank being "
		"stuck",
		"peer-late", HCAT_RANK_STUCK);
	expect_inner(
		"[ERROR] HCCL(106335,):2026-05-21-21:39:58.705.534 [hccl_socket_manager.cc:796] "
		"[128655][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[0] "
		"timeout[120 s]",
		"link-setup-timeout", HCAT_NET);
	expect_inner(
		"[ERROR] HCCL(3626636,all_reduce_test):2000-03-15-13:18:47.639.860 "
		"[hccl_socket.cc:110] socket type[2], listen on ip[10.137.69.222%enp53s0f2] and "
		"specific port[60000] fail. Please check the port status and whether the port is "
		"being used by other process.",
		"port-bound", HCAT_CONFIG);
	expect_inner("EJ0003: [PID: 159] 2025-03-26-17:01:02.816.428 Failed to bind the IP port. "
		     "Reason: The IP address and port have been bound already.",
		     "port-bound", HCAT_CONFIG);
	expect_inner("[ERROR] HCCL(3743927,all_reduce_test) [rank_consistentcy_checker.cc:429] "
		     "[InitChannelStage][ParameterConflict]CMD information tag check fail. "
		     "local[AllGather_x], remote[AllReduce_x]",
		     "op-mismatch", HCAT_OP_MISMATCH);
	expect_inner(
		"[ERROR] HCCP(1609,python3) ra_rdev_init_check_ip(544) : [check][ip]fail, "
		"ret(-16) the IP address(29.4.84.36) in the ranktable is inconsistent with the "
		"IP(29.4.76.85)address of the network adapter",
		"device-ip-mismatch", HCAT_CONFIG);
	expect_inner(
		"ssl fd 42 err 1 errno 0, err code 167773208, err msg error:0A000418:SSL "
		"routines:tlsv1 alert unknown ca, The possible cause is that the TLS switch is "
		"inconsistent.",
		"tls-mismatch", HCAT_CONFIG);
	/* github.com/vllm-project/vllm-ascend/issues/1127 */
	expect_inner(
		"RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB (NPU 3; 60.96 GiB "
		"total capacity; 60.34 GiB already allocated)",
		"oom", HCAT_RESOURCE);
	/* github.com/vllm-project/vllm-ascend/issues/3141 */
	expect_inner(
		"Failed to allocate resource[DeviceMemory] with info [size:2147483648]. Reason: "
		"Memory resources are exhausted.",
		"oom", HCAT_RESOURCE);
	/* github.com/hw-native-sys/PTOAS/pull/875 */
	expect_inner(
		"Kernel task happen error, retCode=0x26, [aicore exception].[FUNC:PreCheckTaskErr]",
		"aicore-error", HCAT_UNRESOLVED);
	expect_inner("there is an exception of fftsplus aicore error, core id is 4, error code = "
		     "0x800000",
		     "aicore-error", HCAT_UNRESOLVED);
	expect_inner("HBM MULTI BIT ECC ERROR.time is 1700000000", "hbm-ecc", HCAT_HARDWARE);
	expect_inner("Device[3] lost heartbeat.", "device-lost", HCAT_HARDWARE);
	expect_inner("getRepoStopFlag in Run, throw HCCS LINK ERROR.", "hccs-link", HCAT_LINK_DOWN);
	expect_inner("EE9999: Inner Error!", "inner-error", HCAT_UNRESOLVED);
}

static void test_inner_bounds(void **state)
{
	static const char line[] = "xx hccl fftsplus task timeout yy";
	static const char cut[] = {'l', 'o', 's', 't', ' ', 'h', 'e',
				   'a', 'r', 't', 'b', 'e', 'a', 't'}; /* no NUL after it */

	(void)state;
	assert_null(hinner_match("all collectives finished", 24));
	assert_null(hinner_match("", 0));
	assert_null(hinner_match(NULL, 0));
	assert_null(hinner_match(NULL, 100));
	/* only s[0..len) is searched */
	assert_null(hinner_match(line, 20));
	assert_non_null(hinner_match(line, sizeof(line) - 1));
	assert_non_null(hinner_match(cut, sizeof(cut)));
	assert_null(hinner_match(cut, sizeof(cut) - 1));
	/* needles are case-sensitive: the vendor's exact text */
	assert_null(hinner_match("HCCL FFTSPLUS TASK TIMEOUT", 26));
	/* NUL bytes inside the range do not end it */
	assert_non_null(hinner_match("a\0b Inner Error! c", 18));
}

static void test_results(void **state)
{
	(void)state;
	assert_string_equal(hresult_name(0), "HCCL_SUCCESS");
	assert_string_equal(hresult_name(1), "HCCL_E_PARA");
	assert_string_equal(hresult_name(7), "HCCL_E_UNAVAIL");
	assert_string_equal(hresult_name(9), "HCCL_E_TIMEOUT");
	assert_string_equal(hresult_name(11), "HCCL_E_TCP_CONNECT");
	assert_string_equal(hresult_name(19), "HCCL_E_NETWORK");
	assert_string_equal(hresult_name(21), "HCCL_E_REMOTE");
	assert_string_equal(hresult_name(22), "HCCL_E_SUSPENDING");
	assert_string_equal(hresult_name(24), "HCCL_E_OOM");
	assert_string_equal(hresult_name(1041), "HCCL_E_IN_STATUS");
	for (long long v = 0; v <= 24; v++) {
		assert_non_null(hresult_name(v));
		assert_true(!strncmp(hresult_name(v), "HCCL_", 5));
		assert_non_null(hresult_meaning(v));
		assert_true(hresult_cat(v) >= HCAT_NONE && hresult_cat(v) < HCAT_N);
	}
	assert_int_equal(hresult_cat(0), HCAT_NONE);
	assert_int_equal(hresult_cat(9), HCAT_RANK_STUCK);
	assert_int_equal(hresult_cat(21), HCAT_LINK_DOWN);
	assert_null(hresult_name(25));
	assert_null(hresult_name(-1));
	assert_null(hresult_name(1040));
	assert_null(hresult_meaning(25));
	assert_int_equal(hresult_cat(25), HCAT_UNRESOLVED);
	assert_int_equal(hresult_cat(-9), HCAT_UNRESOLVED);
}

static void test_errno(void **state)
{
	(void)state;
	assert_int_equal(herrno_result(0x0000000005000013ULL), 19);
	assert_int_equal(herrno_result(0x000000000500000bULL), 11);
	assert_int_equal(herrno_result(0x0000000005000007ULL), 7);
	/* sub-module HCOM, as "[RanktableConfig]errNo[0x0000000005010001]" prints */
	assert_int_equal(herrno_result(0x0000000005010001ULL), 1);
	assert_int_equal(herrno_result(0x0000000005010009ULL), 9);
	assert_int_equal(herrno_result(0x0000000005000411ULL), 1041);
	/* a runtime return code, not an errNo */
	assert_int_equal(herrno_result(0x7020010ULL), -1);
	assert_int_equal(herrno_result(0x7010003ULL), -1);
	assert_int_equal(herrno_result(0), -1);
	assert_int_equal(herrno_result(19), -1);
	assert_int_equal(herrno_result(0x0000000105000013ULL), -1);
	assert_int_equal(herrno_result(0xffffffffffffffffULL), -1);
	assert_int_equal(herrno_result(0x0000000005040001ULL), -1);
	assert_int_equal(herrno_result(0x0000000006000001ULL), -1);
	assert_string_equal(hresult_name(herrno_result(0x0000000005000013ULL)), "HCCL_E_NETWORK");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cat_names),	cmocka_unit_test(test_code_rows),
		cmocka_unit_test(test_find_real_codes), cmocka_unit_test(test_find_exact_and_safe),
		cmocka_unit_test(test_inner_rows),	cmocka_unit_test(test_inner_real_lines),
		cmocka_unit_test(test_inner_bounds),	cmocka_unit_test(test_results),
		cmocka_unit_test(test_errno),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
