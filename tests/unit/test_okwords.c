/* A run's own statement that it succeeded (probes/logs/okwords.c): the real lines that say so,
 * the real lines that only look like it (another thing's job, one test of a suite, a rank
 * table's status, a wait), and what it does to a report: error lines in a file whose run
 * states success were lived through, unless another file holds errors without one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/hccllog.h"
#include "probes/logs/hlogint.h"
#include "probes/npu/hcclcodes.h"

static long ok(const char *line)
{
	return hlog__run_ok_hits((struct pspan){line, strlen(line)}, NULL);
}

static void test_statements(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int says;
	} t[] = {
		/* real: MLPerf training v2.1 result logs (run_stop of a run that reached its target) */
		{":::MLLOG {\"namespace\": \"\", \"time_ms\": 1662604864152, \"event_type\": "
		 "\"INTERVAL_END\", \"key\": \"run_stop\", \"value\": null, \"metadata\": {\"file\": "
		 "\"./train.py\", \"lineno\": 417, \"status\": \"success\", \"epoch_num\": 9}}",
		 1},
		/* real: Hugging Face Trainer's last line */
		{"Training completed. Do not forget to share your model on huggingface.co/models =)", 1},
		/* real: SkyPilot's job queue and a benchmark's end */
		{"\xe2\x9c\x93 Job finished (status: SUCCEEDED).", 1},
		{"status: SUCCEEDED", 1},
		{"Benchmark task completed successfully!", 1},
		{"\xe2\x9c\x85 Experiment finished.", 1},
		/* real: MindCluster's fault diagnosis ends its own job, not the training's */
		{"The diag job is complete.", 0},
		/* real: a health check's one test among several */
		{"2026-01-16 15:41:14,745 - INFO - gpu-3505 - GPU Fryer Test Succeeded: GPU Fryer "
		 "test succeeded",
		 0},
		/* real: vllm-ascend's rank table, whose status says the table is whole */
		{"(Worker_DP0_TP1_EP1 pid=140528) INFO 09-12 03:40:02 "
		 "[llmdatadist_c_mgr_connector.py:688] {'version': '1.2', 'server_count': '2', "
		 "'status': 'completed', 'server_list': [",
		 0},
		/* real: ModelArts' sidecar, still waiting */
		{"[ModelArts Service Log][sidecar] waiting for training complete", 0},
		/* real: NeMo's end of pretraining (awsome-distributed-training's BioNeMo job, 4
		 * nodes); the verb before the run, and a step of it that is no run */
		{" 0: [NeMo I 2024-03-01 07:12:25 pretrain:41] ************** Finished Training "
		 "***********",
		 1},
		{"Completed training in 421.6 s", 1},
		{"Finished training epoch 3", 0},
		{"Finished training step 100, loss 2.31", 0},
		/* conditions and denials */
		{"not all tests passed", 0},
		{"if training completed, upload the checkpoint", 0},
		{"Epoch 3 finished", 0},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if ((ok(t[i].line) > 0) != t[i].says)
			fail_msg("%s: expected %d", t[i].line, t[i].says);
	/* where the statement starts (1 + its offset): the status, not the line */
	const char *m = "x \"status\": \"success\"";
	assert_int_equal(ok(m), 4);
}

static void scan(struct hlog_report *r, const char *name, const char *text)
{
	char err[256];
	assert_int_equal(hlog_scan_buf(name, "node0", text, strlen(text), r, err, sizeof(err)), 0);
}

static void test_survived(void **state)
{
	(void)state;
	struct hlog_report r;
	/* real lines (MLPerf v5.1, Nebius): a TCPStore broken pipe after the run_stop */
	static const char run[] =
		" 0: :::MLLOG {\"namespace\": \"\", \"key\": \"run_stop\", \"value\": null, "
		"\"metadata\": {\"status\": \"success\"}}\n"
		" 9: [rank9]:[W1016 00:45:40.574786631 TCPStore.cpp:106] [c10d] sendBytes failed on "
		"SocketImpl(fd=102, addr=[worker-1]:55620, remote=[worker-0]:29500): Broken pipe\n";
	hlog_report_init(&r);
	scan(&r, "node0/stdout.txt", run);
	hlog_conclude(&r);
	assert_int_not_equal(r.cat, HCAT_NONE);
	const struct hlog_file *f = hlog_run_survived(&r);
	assert_non_null(f);
	assert_int_equal(f->ok_line, 1);
	assert_non_null(strstr(f->ok_text, "\"status\": \"success\""));
	hlog_report_release(&r);

	/* the same, with another file whose errors no success statement covers */
	hlog_report_init(&r);
	scan(&r, "node0/stdout.txt", run);
	scan(&r, "node1/stdout.txt", "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
	hlog_conclude(&r);
	assert_null(hlog_run_survived(&r));
	assert_non_null(hlog_run_success(&r));
	hlog_report_release(&r);

	/* no cause at all: nothing to survive */
	hlog_report_init(&r);
	scan(&r, "a.log", "Training completed. Do not forget to share your model on "
			  "huggingface.co/models =)\n");
	hlog_conclude(&r);
	assert_int_equal(r.cat, HCAT_NONE);
	assert_null(hlog_run_survived(&r));
	hlog_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statements),
		cmocka_unit_test(test_survived),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
