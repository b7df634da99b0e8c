/* The ranks' roll call (probes/logs/hlogroster.c): logs whose only failure is in the lines
 * where processes announce their ranks. Each row is a log (one file, or two for the merge of
 * two nodes' files) and the verdict: its category and detail, the rank named, and a part of
 * the cause. The announcing lines are written in the forms of real logs (sources in the rows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/catalog.h"
#include "probes/logs/hccllog.h"

static const struct {
	const char *name;
	const char *text, *text2; /* node0's file, and node1's (NULL: none) */
	int cat;
	const char *detail; /* "" when the log passes */
	int rank;
	const char *cause;
} rows[] = {
	/* NVIDIA/nccl-tests#17 and #107: a test built without MPI, started by mpirun -np 2 */
	{"one rank on two hosts: two jobs, not one",
	 "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 1048576(bytes) warmup iters: 5\n"
	 "#   Rank  0 Pid   1320 on ip-172-31-20-228 device  0 [0x00] Tesla V100-SXM2-16GB\n"
	 "#   Rank  0 Pid   2066 on ip-172-31-22-230 device  0 [0x00] Tesla V100-SXM2-16GB\n"
	 "#  Avg bus bandwidth    : 0\n",
	 NULL, HCAT_CONFIG, "duplicate-rank", 0,
	 "rank 0 was announced by two processes, on ip-172-31-20-228 and on ip-172-31-22-230"},
	/* a test run twice on one host: the same rank, the same host */
	{"one rank twice on one host: a rerun",
	 "#  Rank  0 Group  0 Pid  41 on node7 device  0 [0x1b] NVIDIA H100\n"
	 "#  Avg bus bandwidth    : 350.1\n"
	 "#  Rank  0 Group  0 Pid  77 on node7 device  0 [0x1b] NVIDIA H100\n"
	 "#  Avg bus bandwidth    : 351.0\n",
	 NULL, HCAT_NONE, "", -1, NULL},
	/* Lightning-AI/pytorch-lightning#4389: two nodes that each started ranks 0-3 of 8 */
	{"ranks claimed twice while the rest never came",
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8\n"
	 "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1,2,3]\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8\n"
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/8\n"
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/8\n",
	 NULL, HCAT_CONFIG, "duplicate-rank", 1,
	 "rank 1 was announced by two processes (x.log:1 and x.log:3) while ranks 2, 3, 4, 5, 6, 7 "
	 "of the world of 8 never were"},
	/* a log printed twice: every rank twice, none missing, and the job went on */
	{"every rank twice and none missing: a log printed twice",
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/2\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/2\n"
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/2\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/2\n"
	 "Epoch 0: 100%|##########| 10/10\n",
	 NULL, HCAT_NONE, "", -1, NULL},
	/* Lightning-AI/pytorch-lightning#8707: the second node never joined */
	{"the log stops in the roll call with half the world",
	 "GPU available: True, used: True\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8\n"
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/8\n"
	 "initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/8\n"
	 "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/8\n",
	 NULL, HCAT_RANK_STUCK, "world-incomplete", -1,
	 "the log stops while the ranks gather: 4 of the 8 ranks of the world announced "
	 "themselves, "
	 "and ranks 4, 5, 6, 7 never did"},
	{"half the world, then the job goes on: the other node logs elsewhere",
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n"
	 "All distributed processes registered. Starting with 4 processes\n",
	 NULL, HCAT_NONE, "", -1, NULL},
	{"two nodes' files that stop with the whole world between them: not this rule",
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n",
	 "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/4\n"
	 "initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/4\n",
	 HCAT_NONE, "", -1, NULL},
	{"two nodes' files that stop, one rank never announced anywhere",
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n",
	 "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/4\n", HCAT_RANK_STUCK, "world-incomplete", -1,
	 "the log stops while the ranks gather: 3 of the 4 ranks of the world announced "
	 "themselves, "
	 "and rank 3 never did"},
	/* open-mpi/ompi#12146's hello world, complete */
	{"MPI's hello world, every process of the world",
	 "Hello, World! I am process 0 of 2 on nid200185.\n"
	 "Hello, World! I am process 1 of 2 on nid200186.\n",
	 NULL, HCAT_NONE, "", -1, NULL},
	{"the same rank of MPI's world on two hosts",
	 "Hello, World! I am process 0 of 2 on nid200185.\n"
	 "Hello, World! I am process 0 of 2 on nid200186.\n",
	 NULL, HCAT_CONFIG, "duplicate-rank", 0,
	 "rank 0 was announced by two processes, on nid200185 and on nid200186"},
	/* an error line speaks first: the roll call never outranks what a line says */
	{"an error line: the roll call is not weighed",
	 "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n"
	 "ERROR: the widget exploded\n"
	 "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n",
	 NULL, HCAT_UNRESOLVED, NULL, -1, NULL},
	/* words that look like it and are not: a rank without a world ("rank 3 of" nothing), a
	 * member count that is not a rank's */
	{"a rank of nothing, a progress count",
	 "rank 3 of the job started\n"
	 "loading shard 1 of 8\n",
	 NULL, HCAT_NONE, "", -1, NULL},
};

static void test_row(void **state)
{
	size_t i = (size_t)(*(const size_t *)*state);
	struct hlog_report r;
	char err[256];
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_buf("x.log", "node0", rows[i].text, strlen(rows[i].text), &r,
				       err, sizeof(err)),
			 0);
	if (rows[i].text2)
		assert_int_equal(hlog_scan_buf("y.log", "node1", rows[i].text2,
					       strlen(rows[i].text2), &r, err, sizeof(err)),
				 0);
	assert_int_equal(hlog_conclude(&r), 0);
	if (r.cat != rows[i].cat)
		fail_msg("%s: category %d, want %d (%s)", rows[i].name, r.cat, rows[i].cat,
			 r.cause);
	if (rows[i].detail)
		assert_string_equal(r.detail, rows[i].detail);
	if (rows[i].detail && rows[i].detail[0]) {
		assert_int_equal(r.rank, rows[i].rank);
		assert_string_equal(hlog_kind_name(r.kind), "roll-call");
		assert_true(r.nevidence >= 1);
	}
	if (rows[i].cause && strncmp(r.cause, rows[i].cause, strlen(rows[i].cause)))
		fail_msg("%s: cause \"%s\"", rows[i].name, r.cause);
	hlog_report_release(&r);
}

#define NROWS (sizeof(rows) / sizeof(rows[0]))

int main(void)
{
	static size_t idx[NROWS];
	struct CMUnitTest tests[NROWS];
	for (size_t i = 0; i < NROWS; i++) {
		idx[i] = i;
		tests[i] = (struct CMUnitTest){rows[i].name, test_row, NULL, NULL, &idx[i]};
	}
	return cmocka_run_group_tests_name("roster", tests, NULL, NULL);
}
