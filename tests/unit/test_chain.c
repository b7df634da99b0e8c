/* The place of a file in a collected bundle (probes/logs/bundle.c), and the chain of waits
 * across workers and devices (probes/logs/chain.c): a row per layout, and small bundles made
 * of real HCCL lines (the forms of tests/data/ascend-fd-st, README there) with the devices,
 * IPs and ranks changed to build each shape of graph. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/bundle.h"
#include "probes/logs/hccllog.h"

static char err[256];

static void test_places(void **state)
{
	static const struct {
		const char *path, *worker;
		int kind, pid, dev, rank;
	} rows[] = {
		{"worker-1/process_log/run/plog/plog-114650_20250619092607511.log", "worker-1",
		 HLOG_FK_PLOG_RUN, 114650, -1, -1},
		{"b/worker-0/process_log/debug/plog/plog-59420_20250124110314898.log", "worker-0",
		 HLOG_FK_PLOG_DEBUG, 59420, -1, -1},
		/* a device log of a host process is named by the process */
		{"worker-0/process_log/debug/device-11/device-1382_20250806223914702.log", "worker-0",
		 HLOG_FK_DEVICE, 1382, 11, -1},
		/* the device's own log is named by the device */
		{"job/ascend/device_log/slog/dev-os-3/device-0/device-0_20230607152210099.log", "",
		 HLOG_FK_DEVICE, -1, 0, -1},
		{"job/ascend/device_log/slog/x/device-5_20230607152210099.log", "", HLOG_FK_DEVICE, -1,
		 5, -1},
		{"job/ascend/environment_check/worker-9/npu_info_after.txt", "worker-9", HLOG_FK_ENV,
		 -1, -1, -1},
		{"npu_info_before.txt", "", HLOG_FK_ENV, -1, -1, -1},
		{"job/ascend/process_log/rank_76/debug/plog/plog-12337_20230704214646084.log", "",
		 HLOG_FK_PLOG_DEBUG, 12337, -1, 76},
		{"modelarts-job-testdt-proc-rank-6-device-6.txt", "", HLOG_FK_SCREEN, -1, 6, 6},
		{"train_call/worker-2/rank-0.txt", "worker-2", HLOG_FK_SCREEN, -1, -1, 0},
		{"worker_3/stdout.txt", "worker-3", HLOG_FK_OTHER, -1, -1, -1},
		{"node1/plog-7_1.log", "", HLOG_FK_PLOG_DEBUG, 7, -1, -1},
		/* names that only look like it */
		{"workers-1/plog-x_1.log", "", HLOG_FK_OTHER, -1, -1, -1},
		{"worker-/device-/plog-_1.log", "", HLOG_FK_OTHER, -1, -1, -1},
		{"worker-99999999999/a.log", "", HLOG_FK_OTHER, -1, -1, -1},
		{"", "", HLOG_FK_OTHER, -1, -1, -1},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hlog_place p;
		hlog__bundle_place(rows[i].path, &p);
		if (strcmp(p.worker, rows[i].worker) || p.kind != rows[i].kind ||
		    p.pid != rows[i].pid || p.dev != rows[i].dev || p.rank != rows[i].rank)
			fail_msg("%s: worker '%s' kind %s pid %d dev %d rank %d", rows[i].path,
				 p.worker, hlog__fkind_name(p.kind), p.pid, p.dev, p.rank);
	}
	char node[64];
	hlog__bundle_node("/tmp/b/worker-1/process_log/run/plog/p.log", "process_log/run/plog/p.log",
			  node, sizeof(node));
	assert_string_equal(node, "worker-1");
	hlog__bundle_node("/tmp/b/n3/plog.log", "n3/plog.log", node, sizeof(node));
	assert_string_equal(node, "n3");
	hlog__bundle_node("/tmp/b/plog.log", "plog.log", node, sizeof(node));
	assert_string_equal(node, "");
}

static void add(struct hlog_report *r, const char *name, const char *node, const char *s)
{
	assert_int_equal(hlog_scan_buf(name, node, s, strlen(s), r, err, sizeof(err)), 0);
}

#define SETUP(pid, rank, n, dev, ip)                                                             \
	"[INFO] HCCL(" pid ",python3):2025-06-19-09:26:21.655.782 [topoinfo_detect.cc:506] "      \
	"[1][HCCL_TRACE][Flat]SetupAgent rankNum[" n "], rank[" rank "], rootInfo "               \
	"identifier[x], server[10.0.0.1%eth0], serverPort[60000]deviceType[2], logicDevId[" dev \
	"], phydevId[" dev "], deviceIp[" ip "]\n"
#define ROW(pid, t, dst, src)                                                                    \
	"[ERROR] HCCL(" pid ",python3):2025-06-19-09:28:" t " [hccl_socket_manager.cc:553] [1]   " \
	"|  " dst "   |  16666  |   " src "   |  0  |  client  | time out |\n"
#define P2P(pid, t, dev, peer)                                                                   \
	"[ERROR] HCCL(" pid ",python3):2025-06-19-09:28:" t " [p2p_mgmt.cc:305] "                 \
	"[1][Wait][P2PConnected]connected p2p timeout, timeout:130 s. local logicDevid:" dev     \
	", remote physic id:" peer ".\n"

static const char *hop(const struct hlog_report *r, size_t k)
{
	static char buf[4][160];
	hlog_hop_name(&r->chain[k], buf[k % 4], sizeof(buf[0]));
	return buf[k % 4];
}

/* w0 dev 2 -> w1 dev 2 (its device IP) -> w1 dev 0 (P2P) -> w1 dev 1 (P2P), and w1 dev 3 ->
 * w1 dev 1: the root is w1 dev 1, reached by the longest chain */
static void test_longest_chain(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add(&r, "worker-0/run/plog/plog-10_1.log", "worker-0", SETUP("10", "2", "16", "2", "10.9.0.2"));
	add(&r, "worker-0/debug/plog/plog-10_2.log", "worker-0",
	    ROW("10", "30.000.000", "10.9.1.2(10)", "10.9.0.2(2)"));
	add(&r, "worker-1/run/plog/plog-20_1.log", "worker-1", SETUP("20", "8", "16", "0", "10.9.1.0"));
	add(&r, "worker-1/run/plog/plog-21_1.log", "worker-1", SETUP("21", "9", "16", "1", "10.9.1.1"));
	add(&r, "worker-1/run/plog/plog-22_1.log", "worker-1", SETUP("22", "10", "16", "2", "10.9.1.2"));
	add(&r, "worker-1/run/plog/plog-23_1.log", "worker-1", SETUP("23", "11", "16", "3", "10.9.1.3"));
	add(&r, "worker-1/debug/plog/plog-22_2.log", "worker-1",
	    ROW("22", "31.000.000", "10.9.1.0(8)", "10.9.1.2(10)"));
	add(&r, "worker-1/debug/plog/plog-20_2.log", "worker-1", P2P("20", "32.000.000", "0", "1"));
	add(&r, "worker-1/debug/plog/plog-23_2.log", "worker-1", P2P("23", "32.500.000", "3", "1"));
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nchain, 4);
	assert_int_equal(r.loop, -1);
	assert_string_equal(hop(&r, 0), "worker-0 dev 2");
	assert_string_equal(hop(&r, 1), "worker-1 dev 2");
	assert_string_equal(hop(&r, 2), "worker-1 dev 0");
	assert_string_equal(hop(&r, 3), "worker-1 dev 1");
	assert_string_equal(r.node, "worker-1");
	assert_int_equal(r.dev, 1);
	assert_int_equal(r.rank, 9);
	assert_string_equal(r.detail, "root-device");
	assert_null(strstr(r.cause, "never started"));
	hlog_report_release(&r);
}

/* two devices wait on each other; a third names a rank its 3-rank job has not */
static void test_cycle(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add(&r, "worker-0/run/plog/plog-1_1.log", "worker-0", SETUP("1", "0", "3", "0", "10.8.0.1"));
	add(&r, "worker-0/debug/plog/plog-1_2.log", "worker-0",
	    ROW("1", "40.000.000", "10.8.1.1(1)", "10.8.0.1(0)"));
	add(&r, "worker-1/run/plog/plog-2_1.log", "worker-1", SETUP("2", "1", "3", "0", "10.8.1.1"));
	add(&r, "worker-1/debug/plog/plog-2_2.log", "worker-1",
	    ROW("2", "39.000.000", "10.8.0.1(0)", "10.8.1.1(1)"));
	add(&r, "worker-1/run/plog/plog-3_1.log", "worker-1", SETUP("3", "2", "3", "1", "10.8.1.2"));
	add(&r, "worker-1/debug/plog/plog-3_2.log", "worker-1",
	    ROW("3", "39.000.000", "3.0.0.0(3)", "10.8.1.2(2)"));
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nchain, 3);
	assert_int_equal(r.loop, 0);
	/* told from the member that waited first */
	assert_string_equal(hop(&r, 0), "worker-1 dev 0");
	assert_string_equal(hop(&r, 1), "worker-0 dev 0");
	assert_string_equal(hop(&r, 2), "worker-1 dev 0");
	assert_string_equal(r.detail, "wait-cycle");
	assert_int_equal(r.cat, HCAT_OP_MISMATCH);
	hlog_report_release(&r);
}

/* a wait for a device whose log is not here ends there, named by its address */
static void test_absent_root(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add(&r, "worker-1/run/plog/plog-2_1.log", "worker-1", SETUP("2", "1", "3", "0", "10.8.1.1"));
	add(&r, "worker-1/debug/plog/plog-2_2.log", "worker-1",
	    ROW("2", "39.000.000", "10.8.0.1(0)", "10.8.1.1(1)"));
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nchain, 2);
	assert_string_equal(hop(&r, 1), "10.8.0.1");
	assert_false(r.chain[1].has_log);
	assert_int_equal(r.chain[1].rank, 0);
	assert_string_equal(r.detail, "root-absent");
	hlog_report_release(&r);
}

/* a transport init toward a server and device whose log is not here: named by both, device 0
 * included; toward a server alone: by the server */
static void test_absent_device(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char *const remote[] = {"10.7.0.2/0", "10.7.0.2"};
	static const char *const want[] = {"10.7.0.2 dev 0", "10.7.0.2"};
	for (int k = 0; k < 2; k++) {
		char line[512];
		snprintf(line, sizeof(line),
			 "[ERROR] HCCL(903,python3.8):2025-07-30-19:36:56.167.730 "
			 "[transport_manager.cc:777] [16542][Create][DestLink]Transport init error! "
			 "createLink para:rank[443]-localUserrank[443]-localIpAddr[], dst_rank[0]-"
			 "remoteUserrank[0]-remoteIpAddr[%s], machineType[1], serverId[], "
			 "linkMode[1], tag[AllGather_group_name_0]\n",
			 remote[k]);
		hlog_report_init(&r);
		add(&r, "worker-3/run/plog/plog-5_1.log", "worker-3",
		    SETUP("5", "2", "3", "2", "10.7.3.2"));
		add(&r, "worker-3/debug/plog/plog-5_2.log", "worker-3", line);
		assert_int_equal(hlog_conclude(&r), 0);
		assert_int_equal(r.nchain, 2);
		assert_string_equal(hop(&r, 0), "worker-3 dev 2");
		assert_string_equal(hop(&r, 1), want[k]);
		assert_string_equal(r.detail, "root-absent");
		hlog_report_release(&r);
	}
}

/* waits between processes that no line places on a device: the rank reasoning decides, and
 * a rank whose own log states only its device IP is not "never started" */
static void test_rank_log_by_ip(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add(&r, "a.log", "n1", ROW("1", "40.000.000", "10.1.0.6(5)", "10.1.0.1(0)"));
	add(&r, "b.log", "n2", ROW("2", "40.000.001", "10.1.0.6(5)", "10.1.0.2(1)"));
	add(&r, "c.log", "n6",
	    "[INFO] HCCL(6,python3):2025-06-19-09:26:23.860.936 [network_manager.cc:561] "
	    "[6][Start][Vnic]Listen on ip[10.1.0.6], port[16666] sucess, devPhyId[2], "
	    "devLogicId[2], isAutoPort[0]\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nchain, 0);
	assert_int_equal(r.rank, 5);
	assert_null(strstr(r.cause, "never started"));
	assert_non_null(strstr(r.cause, "rank 5"));
	hlog_report_release(&r);
}

/* more files than a bundle has: no chain is drawn, and the rest still concludes */
static void test_bounds(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	char name[64];
	for (int i = 0; i < 4100; i++) {
		snprintf(name, sizeof(name), "worker-%d/debug/plog/plog-%d_1.log", i % 7, i);
		add(&r, name, "", P2P("1", "32.000.000", "0", "1"));
	}
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nchain, 0);
	assert_int_not_equal(r.cat, HCAT_NONE);
	hlog_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_places),	    cmocka_unit_test(test_longest_chain),
		cmocka_unit_test(test_cycle),	    cmocka_unit_test(test_absent_root),
		cmocka_unit_test(test_absent_device), cmocka_unit_test(test_rank_log_by_ip),
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
