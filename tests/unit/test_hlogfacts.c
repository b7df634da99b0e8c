/* The software each node states, compared across the nodes of a job (probes/logs/hlogfacts.c).
 * The lines are real: NVIDIA/nccl#1267 (four hosts, one with another NCCL build) and #1634 (a
 * network plugin on one host only), as tests/data/real-logs-new keeps them (batches 33 and 34).
 * The cases where nothing may be concluded combine those lines; the line that asks for a
 * version and the out-of-memory line are written for this test in the forms libraries use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/hlogint.h"

static char err[256];

#define V14 "NCCL version 2.14.3+cuda11.7\n"
#define V19 "NCCL version 2.19.3+cuda12.3\n"
#define DRV(h) h ":525765:525765 [0] NCCL INFO cudaDriverVersion 12000\n"

static void scan(struct hlog_report *r, const char *node, const char *text)
{
	assert_int_equal(hlog_scan_buf("stdout.txt", node, text, strlen(text), r, err, sizeof(err)),
			 0);
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("\"%s\"\ndoes not contain\n\"%s\"", s, part);
}

static void test_version_differs(void **state)
{
	(void)state;
	struct hlog_report r;
	hlog_report_init(&r);
	scan(&r, "node0", DRV("instance-8g-96c-2") V19);
	scan(&r, "node1", DRV("instance-8g-96c-1") V14);
	scan(&r, "node2", DRV("instance-8g-96c-3") V19);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_VERSION);
	assert_string_equal(r.detail, "differs-across-nodes");
	/* the odd one out, not the first or the majority */
	assert_string_equal(r.node, "node1");
	assert_string_equal(r.cause, "NCCL differs across the nodes of the job: 2.14.3+cuda11.7 on "
				     "node1, but 2.19.3+cuda12.3 on node0,node2");
	assert_int_equal(r.nevidence, 2);
	assert_string_equal(r.evidence[0].text, "NCCL version 2.14.3+cuda11.7");
	assert_int_equal(r.evidence[0].line, 2);
	assert_string_equal(r.evidence[1].text, "NCCL version 2.19.3+cuda12.3");
	hlog_report_release(&r);

	/* the same versions everywhere: a healthy log stays healthy */
	hlog_report_init(&r);
	scan(&r, "node0", DRV("instance-8g-96c-2") V19);
	scan(&r, "node1", DRV("instance-8g-96c-3") V19);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_NONE);
	hlog_report_release(&r);
}

/* One file with the lines of two hosts: the host of NCCL's prefix is the node compared. */
static void test_plugin_on_one_host(void **state)
{
	(void)state;
	struct hlog_report r;
	hlog_report_init(&r);
	scan(&r, "node0",
	     "HGX-H100-11:18226:18274 [5] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. "
	     "Using internal network plugin.\n"
	     "HGX-H100-04:589474:589541 [0] NCCL INFO Plugin Path : "
	     "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_VERSION);
	assert_string_equal(r.node, "node0");
	assert_contains(r.cause, "NCCL net plugin differs across the nodes of the job: none on "
				 "HGX-H100-11 (in node0), but loaded on HGX-H100-04");
	hlog_report_release(&r);
}

/* The network NCCL chose on each node (real: NVIDIA-NeMo/Speech#4035, InfiniBand on one node
 * and sockets on the other): a node's devices and settings, not a release */
static void test_network_differs(void **state)
{
	(void)state;
	struct hlog_report r;
	hlog_report_init(&r);
	scan(&r, "node0", "gpu01:596387:596387 [0] NCCL INFO Using network IBext\n");
	scan(&r, "node1", "gpu02:693036:693036 [0] NCCL INFO Using network Socket\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_CONFIG);
	assert_string_equal(r.detail, "network-differs");
	assert_contains(r.cause, "NCCL network differs across the nodes of the job: IBext on gpu01");
	assert_contains(r.fix, "NCCL_IB_DISABLE");
	hlog_report_release(&r);
}

/* What is not a node's own version, and what cannot be compared. */
static void test_nothing_to_compare(void **state)
{
	(void)state;
	struct hlog_report r;
	/* a version asked for is not the one installed */
	hlog_report_init(&r);
	scan(&r, "node0", V19);
	scan(&r, "node1", "this build requires NCCL version 2.14.3 or later\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_not_equal(r.cat, HCAT_VERSION);
	assert_int_equal(r.nfact, 1);
	hlog_report_release(&r);
	/* a host stating two builds (two environments in one log) is not compared */
	hlog_report_init(&r);
	scan(&r, "node0", V14 V19);
	scan(&r, "node1", V19);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_NONE);
	hlog_report_release(&r);
	/* one file with no node and no host prefix: one source, nothing to compare (its two
	 * builds are one host's two environments) */
	hlog_report_init(&r);
	scan(&r, NULL, V14 V19);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_NONE);
	hlog_report_release(&r);
	/* but a handshake that states this end's version and the peer's compares the two ends
	 * (real: PRRTE's "Local PRTE version" / "Peer PRTE version", real-logs-new batch202) */
	hlog_report_init(&r);
	scan(&r, NULL, "Local PRTE version: 3.0.7\nPeer PRTE version: 3.0.8\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_VERSION);
	assert_string_equal(r.detail, "differs-across-nodes");
	hlog_report_release(&r);
}

/* A fault a line names outranks the versions; a timeout does not. */
static void test_precedence(void **state)
{
	(void)state;
	struct hlog_report r;
	hlog_report_init(&r);
	scan(&r, "node0", V14 "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
	scan(&r, "node1", V19);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_RESOURCE);
	hlog_report_release(&r);
}

/* The parts a bundle is scanned in, appended: the facts of both are compared, and a host that
 * stated two values in one part stays out. */
static void test_append(void **state)
{
	(void)state;
	struct hlog_report r, p;
	hlog_report_init(&r);
	hlog_report_init(&p);
	scan(&r, "node0", V14);
	scan(&p, "node1", V19);
	assert_int_equal(hlog__report_append(&r, &p, err, sizeof(err)), 0);
	assert_int_equal(r.nfact, 2);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_VERSION);
	hlog_report_release(&p);
	hlog_report_init(&p);
	scan(&p, "node1", V14);
	assert_int_equal(hlog__report_append(&r, &p, err, sizeof(err)), 0);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_NONE);
	hlog_report_release(&p);
	hlog_report_release(&r);
}

/* Many hosts, each restating its value on many lines: one fact per host, and the odd one out
 * named; a component name too long to keep is no fact (else each restatement was a new one). */
static void test_many_hosts(void **state)
{
	(void)state;
	struct hlog_report r;
	hlog_report_init(&r);
	char line[128];
	for (int rep = 0; rep < 3; rep++)
		for (int h = 0; h < 600; h++) {
			snprintf(line, sizeof(line), "host%d:1:2 [0] NCCL INFO cudaDriverVersion %s\n",
				 h, h == 417 ? "12020" : "12000");
			scan(&r, "node0", line);
		}
	assert_int_equal(r.nfact, 600);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_VERSION);
	assert_contains(r.cause, "cudaDriverVersion differs across the nodes of the job: 12020 on "
				 "host417 (in node0)");
	hlog_report_release(&r);
	hlog_report_init(&r);
	scan(&r, "node0", "AVeryLongComponentNameThatIsLongerThanAFactKeeps version 1.2\n"
			  "AVeryLongComponentNameThatIsLongerThanAFactKeeps version 1.2\n");
	assert_int_equal(r.nfact, 0);
	hlog_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_differs),
		cmocka_unit_test(test_network_differs),
		cmocka_unit_test(test_plugin_on_one_host),
		cmocka_unit_test(test_nothing_to_compare),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_many_hosts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
