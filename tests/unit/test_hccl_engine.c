/* The pure parts of `run --engine hccl`: the stall judgement the ranks make from their
 * progress records, HCCL's and ACL's code names against hccl_types.h and acl_base.h, the
 * dtype and op mapping, and CANN's version.info reader. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/lib/hcclapi.h"
#include "cmd/run/hccljudge.h"
#include "probes/host/cannver.h"

#define BUSY(steps, idle) { HCCL_RANK_BUSY, steps, 11, idle, idle, 0, 0, -1, 0 }
#define DONE(steps) { HCCL_RANK_DONE, steps, 0, 0, 0, 0, 0, -1, 0 }

static void test_judge_done_and_wait(void **state)
{
	int cul[4], nc = -1;
	(void)state;
	struct hccl_progress all_done[3] = { DONE(7), DONE(7), DONE(7) };
	assert_int_equal(hccl_judge(all_done, 3, 5000, cul, &nc), HCCL_JUDGE_DONE);
	assert_int_equal(nc, 0);
	/* one rank still moving: nobody is judged, however long the others wait */
	struct hccl_progress moving[3] = { DONE(9), BUSY(8, 4999), DONE(9) };
	assert_int_equal(hccl_judge(moving, 3, 5000, cul, &nc), HCCL_JUDGE_WAIT);
	struct hccl_progress one_moving[3] = { BUSY(8, 6000), BUSY(9, 100), BUSY(8, 6000) };
	assert_int_equal(hccl_judge(one_moving, 3, 5000, cul, &nc), HCCL_JUDGE_WAIT);
}

static void test_judge_behind(void **state)
{
	int cul[4], nc = -1;
	(void)state;
	/* "hang after": the others finished, rank 1 never completed its call */
	struct hccl_progress after[3] = { DONE(9), BUSY(8, 5000), DONE(9) };
	assert_int_equal(hccl_judge(after, 3, 5000, cul, &nc), HCCL_JUDGE_BEHIND);
	assert_int_equal(nc, 1);
	assert_int_equal(cul[0], 1);
	/* more iterations queued: the others stall on the next one, a step further */
	struct hccl_progress queued[4] = { BUSY(12, 5200), BUSY(12, 5100), BUSY(11, 9000),
					   BUSY(12, 5300) };
	assert_int_equal(hccl_judge(queued, 4, 5000, cul, &nc), HCCL_JUDGE_BEHIND);
	assert_int_equal(nc, 1);
	assert_int_equal(cul[0], 2);
	/* two ranks behind are both named, in rank order */
	struct hccl_progress two[4] = { BUSY(3, 6000), BUSY(5, 6000), BUSY(3, 6000), DONE(6) };
	assert_int_equal(hccl_judge(two, 4, 5000, cul, &nc), HCCL_JUDGE_BEHIND);
	assert_int_equal(nc, 2);
	assert_int_equal(cul[0], 0);
	assert_int_equal(cul[1], 2);
}

static void test_judge_all_stuck(void **state)
{
	int cul[4], nc = -1;
	(void)state;
	/* "hang before": every rank stopped at the same step: no one to blame */
	struct hccl_progress before[3] = { BUSY(8, 5001), BUSY(8, 5002), BUSY(8, 5003) };
	assert_int_equal(hccl_judge(before, 3, 5000, cul, &nc), HCCL_JUDGE_ALL_STUCK);
	assert_int_equal(nc, 3);
	/* the stall limit is a limit: a millisecond short is still a wait */
	before[2].idle_ms = 4999;
	assert_int_equal(hccl_judge(before, 3, 5000, cul, &nc), HCCL_JUDGE_WAIT);
}

static void test_judge_failed_first(void **state)
{
	int cul[4], nc = -1;
	(void)state;
	/* a failure is the verdict even while another rank stalls */
	struct hccl_progress f[4] = { BUSY(4, 9000), DONE(5), BUSY(4, 9000), DONE(5) };
	f[2].state = HCCL_RANK_FAILED;
	f[3].state = HCCL_RANK_FAILED;
	assert_int_equal(hccl_judge(f, 4, 5000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(nc, 2);
	assert_int_equal(cul[0], 2);
	assert_int_equal(cul[1], 3);
	/* the first to fail leads: rank 3 failed 40 ms before rank 2, rank 0 before both */
	f[3].failed_ms = 140;
	f[2].failed_ms = 100;
	assert_int_equal(hccl_judge(f, 4, 5000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(nc, 2);
	assert_int_equal(cul[0], 3);
	assert_int_equal(cul[1], 2);
	f[0].state = HCCL_RANK_FAILED;
	f[0].failed_ms = 300;
	assert_int_equal(hccl_judge(f, 4, 5000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(nc, 3);
	assert_int_equal(cul[0], 0);
	assert_int_equal(cul[1], 3);
	assert_int_equal(cul[2], 2);
	/* a broken connection to a peer is an echo: the rank with its own error leads, even
	 * when the echo looks older (rank 0's record was read later than rank 3's) */
	f[0].code = 13; /* HCCL_E_TCP_TRANSFER */
	f[3].code = 7;	/* HCCL_E_UNAVAIL */
	f[2].code = 9;	/* HCCL_E_TIMEOUT */
	assert_int_equal(hccl_judge(f, 4, 5000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(nc, 3);
	assert_int_equal(cul[0], 3);
	assert_int_equal(cul[1], 0);
	assert_int_equal(cul[2], 2);
	/* an ACL code with the same number is not an HCCL echo */
	f[2].acl = 1;
	assert_int_equal(hccl_judge(f, 4, 5000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(cul[0], 3);
	assert_int_equal(cul[1], 2);
	assert_int_equal(cul[2], 0);
}

/* HCCL_EXEC_TIMEOUT below the stall limit: the healthy ranks' streams time out (507048,
 * async 0) while the hung rank is still in HCCL: it is named, not the first to time out */
static void test_judge_device_timeout(void **state)
{
	struct hccl_progress p[3] = { 0 };
	int cul[3], nc;
	(void)state;
	for (int r = 0; r < 3; r++)
		p[r] = (struct hccl_progress){ .state = HCCL_RANK_FAILED, .steps = 10, .acl = 1,
					       .code = 507048, .async = 0, .failed_ms = 100 + r };
	p[1] = (struct hccl_progress){ .state = HCCL_RANK_BUSY, .steps = 10, .idle_ms = 2100,
				       .async = -1 };
	/* within the grace of the first give-up, rank 2 may still be about to give up too */
	p[2] = (struct hccl_progress){ .state = HCCL_RANK_BUSY, .steps = 10, .idle_ms = 2100,
				       .async = -1 };
	p[0].failed_ms = HCCL_JUDGE_GRACE_MS - 1;
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_WAIT);
	assert_int_equal(nc, 0);
	/* past it, both still in HCCL are named */
	p[0].failed_ms = HCCL_JUDGE_GRACE_MS;
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_BEHIND);
	assert_int_equal(nc, 2);
	/* the stall limit is not waited past */
	p[0].failed_ms = 100;
	assert_int_equal(hccl_judge(p, 3, 100, cul, &nc), HCCL_JUDGE_BEHIND);
	/* rank 2 gave up as well: only rank 1 is left */
	p[0].failed_ms = 100;
	p[2] = (struct hccl_progress){ .state = HCCL_RANK_FAILED, .steps = 10, .acl = 1,
				       .code = 507048, .async = 0, .failed_ms = HCCL_JUDGE_GRACE_MS };
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_BEHIND);
	assert_int_equal(nc, 1);
	assert_int_equal(cul[0], 1);
	/* HCCL_E_TIMEOUT as the async error reads the same */
	p[0].code = p[2].code = 507018;
	p[0].async = p[2].async = 9;
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_BEHIND);
	assert_int_equal(cul[0], 1);
	/* a stream that failed for a reason of its own stays the cause */
	p[2].async = 21;
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(cul[0], 2);
	/* and a host call that returned HCCL_E_TIMEOUT failed on its own rank first */
	p[2] = (struct hccl_progress){ .state = HCCL_RANK_FAILED, .steps = 9, .code = 9,
				       .async = -1 };
	p[0].async = 9;
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_FAILED);
	/* nobody left in HCCL: the failures are all there is */
	p[1] = p[0];
	p[2] = p[0];
	assert_int_equal(hccl_judge(p, 3, 10000, cul, &nc), HCCL_JUDGE_FAILED);
	assert_int_equal(nc, 3);
}

static void test_support_and_visible(void **state)
{
	char why[200];
	(void)state;
	assert_int_equal(hccl_supported(COMM_COLL_ALLREDUCE, COMM_FP64, COMM_SUM, why, sizeof(why)),
			 -ENOTSUP);
	assert_string_equal(why, "HcclAllReduce takes no fp64: HCCL reduces int8, int16, int32, "
				 "int64, fp16, fp32 and bf16");
	assert_int_equal(hccl_supported(COMM_COLL_REDUCESCATTER, COMM_BF16, COMM_PROD, why,
					sizeof(why)), -ENOTSUP);
	assert_string_equal(why, "HcclReduceScatter takes no prod on bf16");
	assert_int_equal(hccl_supported(COMM_COLL_ALLREDUCE, COMM_BF16, COMM_MAX, why, sizeof(why)),
			 0);
	assert_int_equal(hccl_supported(COMM_COLL_ALLREDUCE, COMM_INT8, COMM_PROD, why, sizeof(why)),
			 0);
	assert_int_equal(hccl_supported(COMM_COLL_ALLGATHER, COMM_FP64, COMM_PROD, why, sizeof(why)),
			 0);
	assert_int_equal(hccl_supported(COMM_COLL_BROADCAST, COMM_FP64, COMM_SUM, why, sizeof(why)),
			 0);
	assert_int_equal(hccl_visible_position("4,5,6,7", 6), 2);
	assert_int_equal(hccl_visible_position("4-7", 7), 3);
	assert_int_equal(hccl_visible_position("0-1,4-7,12", 12), 6);
	assert_int_equal(hccl_visible_position("6,2", 2), 1);
	assert_int_equal(hccl_visible_position("4,5", 3), -1);
	assert_int_equal(hccl_visible_position("4,,5", 5), -2);
	assert_int_equal(hccl_visible_position("4,", 4), -2);
	assert_int_equal(hccl_visible_position("7-4", 5), -2);
	assert_int_equal(hccl_visible_position("-1", 1), -2);
	assert_int_equal(hccl_visible_position("a", 0), -2);
	assert_int_equal(hccl_visible_position("", 0), -2);
	assert_int_equal(hccl_visible_position("99999999999999999999", 0), -2);
	assert_int_equal(hccl_visible_position("0-65535,1", 1), -2);
}

static void test_names(void **state)
{
	(void)state;
	/* hccl_types.h */
	assert_string_equal(hccl_result_name(0), "HCCL_SUCCESS");
	assert_string_equal(hccl_result_name(2), "HCCL_E_PTR");
	assert_string_equal(hccl_result_name(4), "HCCL_E_INTERNAL");
	assert_string_equal(hccl_result_name(9), "HCCL_E_TIMEOUT");
	assert_string_equal(hccl_result_name(21), "HCCL_E_REMOTE");
	assert_string_equal(hccl_result_name(22), "HCCL_E_SUSPENDING");
	/* the newer codes, from the one table the log triage reads too */
	assert_string_equal(hccl_result_name(23), "HCCL_E_OPRETRY_FAIL");
	assert_string_equal(hccl_result_name(24), "HCCL_E_OOM");
	assert_string_equal(hccl_result_name(1041), "HCCL_E_IN_STATUS");
	assert_string_equal(hccl_result_name(25), "HCCL_E_?");
	assert_string_equal(hccl_result_name(-1), "HCCL_E_?");
	/* acl_base.h */
	assert_string_equal(hccl_acl_error_name(507046), "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
	assert_string_equal(hccl_acl_error_name(507011), "ACL_ERROR_RT_MODEL_EXECUTE");
	assert_string_equal(hccl_acl_error_name(507057), "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR");
	assert_string_equal(hccl_acl_error_name(507048), "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT");
	assert_string_equal(hccl_acl_error_name(107001), "ACL_ERROR_RT_INVALID_DEVICEID");
	assert_null(hccl_acl_error_name(12345));
	assert_int_equal(HCCL_ROOT_INFO_SIZE, 4108);
}

static void test_types(void **state)
{
	(void)state;
	/* hccl_types.h's HcclDataType values */
	assert_int_equal(hccl_dtype_of(COMM_INT8), 0);
	assert_int_equal(hccl_dtype_of(COMM_INT32), 2);
	assert_int_equal(hccl_dtype_of(COMM_FP16), 3);
	assert_int_equal(hccl_dtype_of(COMM_FP32), 4);
	assert_int_equal(hccl_dtype_of(COMM_INT64), 5);
	assert_int_equal(hccl_dtype_of(COMM_FP64), 10);
	assert_int_equal(hccl_dtype_of(COMM_BF16), 11);
	assert_int_equal(hccl_dtype_of(COMM_DTYPE_COUNT), -1);
	assert_int_equal(hccl_op_of(COMM_SUM), 0);
	assert_int_equal(hccl_op_of(COMM_PROD), 1);
	assert_int_equal(hccl_op_of(COMM_MAX), 2);
	assert_int_equal(hccl_op_of(COMM_MIN), 3);
	assert_int_equal(hccl_op_of(COMM_OP_COUNT), -1);
}

static void test_version_info(void **state)
{
	char v[64], err[128];
	const char *t;
	(void)state;
	t = "Version=8.0.RC2\nversion_dir=x\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "8.0.RC2");
	/* the install info's lower-case key, CRLF, blanks around it, a key before it */
	t = "package_name=Ascend-cann-toolkit\r\n  version=7.0.0 \r\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "7.0.0");
	/* the length bounds the text: no NUL needed, nothing read past it */
	t = "Version=1.2.3";
	assert_int_equal(cann_version_parse(t, 11, v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "1.2");
	t = "name=x\nVersion=\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "2:9: the version is empty");
	t = "Version=8.0;rm\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "1:12: byte 0x3b in the version");
	t = "innerversion=1\n\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "no version= line");
	assert_int_equal(cann_version_parse("", 0, v, sizeof(v), err, sizeof(err)), -ENOENT);
	/* version.cfg: the HCCL line's part after the colon, before the runtime's */
	t = "# version: 1.0\nruntime_running_version=[7.5.0.1.129:8.0.RC2]\n"
	    "hccl_running_version=[7.5.0.1.129:8.0.RC3]\r\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "8.0.RC3");
	t = "# version: 1.0\nruntime_running_version=[7.6.T13.0.B094:8.0.T63]\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "8.0.T63");
	t = "hccl_running_version=[8.1.0]\n"; /* no inner version: all of it */
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "8.1.0");
	t = "hccl_running_version=[7.5.0:8.0.RC3\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "1:22: hccl_running_version= takes [INNER:VERSION]");
	t = "runtime_running_version=[7.5:]\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "1:30: the version is empty");
	t = "hccl_upgrade_version=[7.5:8.0]\n";
	assert_int_equal(cann_version_parse(t, strlen(t), v, sizeof(v), err, sizeof(err)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_done_and_wait), cmocka_unit_test(test_judge_behind),
		cmocka_unit_test(test_judge_all_stuck),	    cmocka_unit_test(test_judge_failed_first),
		cmocka_unit_test(test_names),		    cmocka_unit_test(test_types),
		cmocka_unit_test(test_version_info),	    cmocka_unit_test(test_judge_device_timeout),
		cmocka_unit_test(test_support_and_visible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
