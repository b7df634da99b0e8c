/* PyTorch's collective watchdog lines (torch_npu's WorkHCCL, PyTorch's WorkNCCL): what each
 * line is read as, and the cause concluded from several ranks' lines. The line forms are those
 * of the real cases in tests/data/real-logs (README there); the cross-rank cases the real logs
 * do not cover (a rank that wrote but did not time out, a desync) are built from the same
 * forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hccllog.h"

static char err[256];

static void conclude(struct hlog_report *r, const char *text)
{
	hlog_report_init(r);
	assert_int_equal(hlog_scan_buf("stdout.txt", "node0", text, strlen(text), r, err,
				       sizeof(err)),
			 0);
	assert_int_equal(hlog_conclude(r), 0);
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("\"%s\"\ndoes not contain\n\"%s\"", s, part);
}

#define TO(r, seq, op, n)                                                                      \
	"[rank" #r "]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank " #r              \
	"] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" #seq ", OpType=" op \
	", NumelIn=" #n ", NumelOut=" #n ", Timeout(ms)=600000) ran for 600020 milliseconds "   \
	"before timing out.\n"

static void test_fields(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, TO(1, 808, "ALLREDUCE", 9801523)
		     "[rank1]:[E626 06:24:44.906457629 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID "
		     "0(default_pg) Rank 1] Exception (either an error or timeout) detected by "
		     "watchdog at work: 808, last enqueued NCCL work: 811, last completed NCCL work: "
		     "807.\n"
		     "[PG 3 Rank 5] Process group watchdog thread terminated with exception: [Rank 5] "
		     "Watchdog caught collective operation timeout: WorkHCCL(SeqNum=9141, "
		     "OpType=_ALLGATHER_BASE, Timeout(ms)=600000) ran for 600020 milliseconds before "
		     "timing out.\n");
	assert_int_equal(r.nev, 3);
	const struct hlog_event *t = &r.ev[0], *s = &r.ev[1], *x = &r.ev[2];
	assert_int_equal(t->kind, HLOG_WATCHDOG);
	assert_int_equal(t->sub, HLOG_SUB_NONE);
	assert_int_equal(t->rank, 1);
	assert_int_equal(t->work.seq, 808);
	assert_int_equal(t->work.numel, 9801523);
	assert_int_equal(t->work.timeout_ms, 600000);
	assert_int_equal(t->work.ran_ms, 600020);
	assert_string_equal(t->op, "ALLREDUCE");
	assert_string_equal(t->detail, "NCCL");
	assert_int_equal(s->sub, HLOG_SUB_WD_STATE);
	assert_string_equal(s->work.pg, "PG 0");
	assert_int_equal(s->work.pg_rank, 1);
	assert_int_equal(s->work.seq, 808);
	assert_int_equal(s->work.enq, 811);
	assert_int_equal(s->work.done, 807);
	/* the work's own tag, inside the exception's */
	assert_string_equal(x->work.pg, "PG 3");
	assert_int_equal(x->work.pg_rank, 5);
	assert_int_equal(x->rank, 5);
	assert_string_equal(x->op, "_ALLGATHER_BASE");
	assert_string_equal(x->detail, "HCCL");
	assert_int_equal(x->work.numel, -1);
	hlog_report_release(&r);
}

static void test_all_reported(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, TO(0, 808, "ALLREDUCE", 5) TO(1, 808, "ALLREDUCE", 5) TO(2, 808, "ALLREDUCE", 5));
	assert_int_equal(r.kind, HLOG_WATCHDOG);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "timeout-elsewhere");
	assert_int_equal(r.rank, -1);
	assert_string_equal(r.cause, "ranks 0-2 timed out in ALLREDUCE #808 after 600 s: each had "
				     "entered it, so the rank holding it up is one that did not "
				     "report here (its log is missing, it is stuck before the "
				     "collective, or it crashed)");
	assert_contains(r.fix, "py-spy dump");
	hlog_report_release(&r);
}

/* rank 3 logged, and did not time out: it never reached the collective */
static void test_rank_missing(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, "[rank3]: saving checkpoint to /ckpt/step_1200\n" TO(0, 1201, "ALLREDUCE", 5)
		     TO(1, 1201, "ALLREDUCE", 5) TO(2, 1201, "ALLREDUCE", 5));
	assert_string_equal(r.detail, "not-in-collective");
	assert_int_equal(r.rank, 3);
	assert_string_equal(r.node, "node0");
	assert_string_equal(r.cause, "rank 3 wrote to these logs but did not time out, while ranks "
				     "0-2 timed out in ALLREDUCE #1201 after 600 s: it never entered "
				     "that collective, and it is the rank the others wait for");
	hlog_report_release(&r);
}

static void test_desync(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, TO(0, 40, "ALLREDUCE", 1024) TO(1, 40, "ALLREDUCE", 2048));
	assert_int_equal(r.cat, HCAT_OP_MISMATCH);
	assert_string_equal(r.detail, "collective-desync");
	assert_int_equal(r.rank, 1);
	assert_int_equal(r.peer_rank, 0);
	assert_contains(r.cause, "ALLREDUCE of 1024 elements against ALLREDUCE of 2048 elements");
	hlog_report_release(&r);
	conclude(&r, TO(0, 40, "ALLREDUCE", 1024) TO(1, 40, "BROADCAST", 1024));
	assert_string_equal(r.detail, "collective-desync");
	hlog_report_release(&r);
	/* sizes differ by design in a gather: not a desync */
	conclude(&r, TO(0, 40, "GATHER", 1024) TO(1, 40, "GATHER", 0));
	assert_string_equal(r.detail, "timeout-elsewhere");
	hlog_report_release(&r);
}

static void test_mixed(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, TO(0, 96120, "ALLREDUCE", 5) TO(0, 96117, "ALLREDUCE", 5) TO(7, 64088, "ALLREDUCE", 5));
	assert_string_equal(r.detail, "timeout-elsewhere");
	assert_contains(r.cause, "rank 0 in ALLREDUCE #96117 after 600 s, rank 7 in ALLREDUCE "
				 "#64088 after 600 s");
	hlog_report_release(&r);
}

static void test_hang_only(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, "[rank7]:[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID "
		     "0(default_pg) Rank 7] ProcessGroupNCCL's watchdog got stuck for 480 seconds "
		     "without making progress in monitoring enqueued collectives.\n");
	assert_string_equal(r.detail, "watchdog-hang");
	assert_int_equal(r.rank, 7);
	assert_contains(r.cause, "the collective watchdog of rank 7 (node node0) was itself "
				 "blocked for 480 s");
	hlog_report_release(&r);
}

/* the heartbeat monitor's line (ProcessGroupNCCL.cpp's heartbeatMonitor: logPrefix() and
 * "Heartbeat monitor timed out! Process will be terminated after dumping debug info.
 * workMetaList_.size()=N") names the blocked watchdog's rank, with no duration */
static void test_heartbeat_monitor(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, "[rank3]:[E1202 01:02:03.000000000 ProcessGroupNCCL.cpp:1429] [PG 0 Rank 3] "
		     "Heartbeat monitor timed out! Process will be terminated after dumping debug "
		     "info. workMetaList_.size()=1\n");
	assert_string_equal(r.detail, "watchdog-hang");
	assert_int_equal(r.rank, 3);
	assert_contains(r.cause, "the collective watchdog of rank 3 (node node0) was itself "
				 "blocked: a call");
	hlog_report_release(&r);
}

/* the watchdog's notes after a timeout are context, never a cause */
static void test_notes(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude(&r, "[rank1]:[E324 13:00:25.428107952 compiler_depend.ts:634] To avoid data "
		     "inconsistency, we are taking the entire process down.\n");
	assert_int_equal(r.nev, 1);
	assert_int_equal(r.ev[0].sub, HLOG_SUB_WD_NOTE);
	assert_int_equal(r.nunk, 0);
	assert_int_equal(r.errors, 1); /* "[E324 ...]" is an error level */
	assert_int_not_equal(r.cat, HCAT_RANK_STUCK);
	hlog_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),	     cmocka_unit_test(test_all_reported),
		cmocka_unit_test(test_rank_missing), cmocka_unit_test(test_desync),
		cmocka_unit_test(test_mixed),	     cmocka_unit_test(test_hang_only),
		cmocka_unit_test(test_notes),	     cmocka_unit_test(test_heartbeat_monitor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
