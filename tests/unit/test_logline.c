/* The pieces under the HCCL log triage: the line reader (probes/logs/logline.h) on lines copied
 * verbatim from tests/data/real-logs/<case>/node0/ (each row names its case), the value
 * readers (probes/logs/logtext.h), and the log sources of hlog_scan_path: one file, gzip, a
 * directory of node folders, standard input. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "probes/logs/hccllog.h"
#include "probes/logs/logline.h"
#include "probes/logs/logtext.h"
#include "tests/unit/span.h"

#define ANY (-2)	/* an int field a row does not check */
#define ANY_T INT64_MIN /* t_us not checked */
#define S(lit) ((struct pspan){lit, sizeof(lit) - 1})

/* ---- hlog__line_parse ---- */

struct line_case {
	const char *from; /* the tests/data/real-logs case the line is from */
	const char *line;
	const char *msg; /* what l.msg starts with, at its first place in line; NULL: any */
	int level, pid, rank, dev;
	int64_t t_us;
	int cont, error;
	const char *code; /* the code token in msg, "" for none */
};

/* Times are the stamps read as UTC, in µs since the epoch. */
static const struct line_case lines[] = {
	/* a line as grep -rn printed it: the path and line number come off before the level */
	{"hicann-hccl-fd-logic-superpod-spans-two-physical",
	 "debug/plog/plog-3003627_20260205184335411.log:14:[ERROR] HCCL(3003627,scatter_test):"
	 "2026-02-05-18:44:26.379.547 [transport_manager.cc:885] [3003959][TransportManager]"
	 "[PrintErrorInfo]local rank information: nicType[VNIC_TYPE], logicSuperPodId[logic_1], "
	 "phySuperPodId[0]. Note: Do not configure ranks belonging to different physical "
	 "superpod ID info a single logical superpod ID",
	 "HCCL(3003627,scatter_test)", HLINE_ERROR, 3003627, -1, -1, ANY_T, 0, 1, ""},
	/* a plog line: the level bracket comes off, HCCL(pid,proc):stamp stays in msg */
	{"hiascend-hcclug36-rank9-not-connected",
	 "[ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.229 [topoinfo_exchange_server.cc:113] "
	 "[57044][Get][Connection]topo exchange server get socket timeout! timeout[720 s]",
	 "HCCL(10261,python):2025-09-11-01:20:11.205.229", HLINE_ERROR, 10261, -1, -1,
	 1757553611205229LL, 0, 1, ""},
	/* errNo[...] is not a code token */
	{"vllm-ascend-1815-ej0002-port-down",
	 "[ERROR] HCCL(38011,python):2025-07-15-12:45:32.997.778 [adapter_hccp.cc:647] "
	 "[38011][Init][RaRdma]errNo[0x0000000005000013] rdma init fail. return: ret[328004]",
	 "HCCL(38011,python)", HLINE_ERROR, 38011, -1, -1, 1752583532997778LL, 0, 1, ""},
	/* an empty process name */
	{"vllm-ascend-10591-allgather-transport-init-after-minutes",
	 "[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.333 [transport_manager.cc:954] "
	 "[86231][InitChannelStage][RunFailed]Transport init error! createLink "
	 "para:rank[7]-localUserrank[7]-localIpAddr[80.5.5.39/7], "
	 "remoteRank[15]-remoteUserrank[15]-remoteIpAddr[80.5.5.67/7], machineType[0], "
	 "linkMode[1], isUsedRdma[1], tag[AllGather_group_name_119]",
	 "HCCL(80812,):", HLINE_ERROR, 80812, -1, -1, 1781662903853333LL, 0, 1, ""},
	/* torch's [rankN]: prefix over CANN's screen form: a code without a level is an error,
	 * the pid and the stamp after it are read */
	{"vllm-ascend-405-ej0003-port-60000-bound",
	 "[rank0]: EJ0003: [PID: 159] 2025-03-26-17:01:02.816.428 Failed to bind the IP port. "
	 "Reason: The IP address and port have been bound already.",
	 "EJ0003: [PID: 159]", HLINE_NONE, 159, 0, -1, 1743008462816428LL, 0, 1, "EJ0003"},
	/* torch_npu's prefix: RankID:-1 is no rank, so [rank0] stays; its stamp has no
	 * fraction */
	{"vllm-ascend-405-ej0003-port-60000-bound",
	 "[rank0]: [ERROR] 2025-03-26-17:01:03 (PID:159, Device:0, RankID:-1) ERR02200 DIST call "
	 "hccl api failed.",
	 "2025-03-26-17:01:03 (PID:159", HLINE_ERROR, 159, 0, 0, 1743008463000000LL, 0, 1,
	 "ERR02200"},
	/* CANN's TraceBack block under an error: its heading is context; a frame that says
	 * "failed" reads as an error by its words, and continues the one above (cont) */
	{"vllm-ascend-405-ej0003-port-60000-bound",
	 "[rank0]:         TraceBack (most recent call last):", "TraceBack", HLINE_NONE, -1, 0, -1,
	 -1, 1, 0, ""},
	{"vllm-ascend-405-ej0003-port-60000-bound",
	 "[rank0]:         host nic listen start failed, port[60000], "
	 "return[11][FUNC:StartListenSocket][FILE:network_manager.cc][LINE:1163]",
	 "host nic listen start failed", HLINE_NONE, -1, 0, -1, -1, 1, 1, ""},
	/* a Python exception line is an error */
	{"vllm-ascend-405-ej0003-port-60000-bound",
	 "[rank0]: RuntimeError: "
	 "createHCCLComm:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1479 HCCL function "
	 "error: HcclGetRootInfo(&hcclID), error code is 11",
	 "RuntimeError: createHCCLComm", HLINE_NONE, -1, 0, -1, -1, 0, 1, ""},
	/* Ray's "(Name pid=N) " */
	{"verl-3947-multinode-hccl-init-code4",
	 "(TaskRunner pid=30188) RuntimeError: "
	 "create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: "
	 "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error "
	 "code is 4",
	 "RuntimeError: create_config", HLINE_NONE, 30188, -1, -1, -1, 0, 1, ""},
	/* a traceback frame: indented after the prefix */
	{"verl-pr332-ej0001-hccp-previous-process",
	 "(TaskRunner pid=467613)   File "
	 "\"/home/ma-user/anaconda3/envs/verl/lib/python3.10/site-packages/torch/distributed/"
	 "distributed_c10d.py\", line 4159, in barrier",
	 "File \"/home/ma-user/", HLINE_NONE, 467613, -1, -1, -1, 1, 0, ""},
	/* vLLM's "LEVEL MM-DD hh:mm:ss [file:line]" (no year: no time) re-printing CANN's
	 * indented lines */
	{"vllm-ascend-2406-pd-hrtRaAiQpCreate-change-package",
	 "(VllmWorker rank=1 pid=308436) ERROR 08-17 13:03:25 [multiproc_executor.py:546]         "
	 "Transport init error. Reason: [Create][DestLink]Create Dest error! creakLink "
	 "para:rank[1]-localUserrank[1]-localIpAddr[[10.46.132.101](http://10.46.132.101/)], "
	 "dst_rank[0]-remoteUserrank[0]-remote_ip_addr[[10.46.132.101](http://10.46.132.101/)]",
	 "Transport init error.", HLINE_ERROR, 308436, -1, -1, -1, 1, 1, ""},
	/* older vLLM: "file.py:572]" without the opening bracket */
	{"vllm-ascend-167-ray-visible-devices-invalid-device",
	 "(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         "
	 "halGetDeviceInfo get device type version failed , "
	 "ret:4[FUNC:Init][FILE:config_manager.cpp][LINE:61]",
	 "halGetDeviceInfo", HLINE_ERROR, 118835, -1, -1, -1, 1, 1, ""},
	/* Python logging: time, name, level, place */
	{"ascend-pytorch-54-lmdeploy-idle-fftsplus-timeout",
	 "2024-10-21 10:42:00,218 - lmdeploy - ERROR - model_agent.py:489 - Rank[2] failed.",
	 "Rank[2] failed.", HLINE_ERROR, -1, -1, -1, 1729507320218000LL, 0, 1, ""},
	{"ascend-pytorch-54-lmdeploy-idle-fftsplus-timeout", "EI9999: Inner Error!",
	 "EI9999:", HLINE_NONE, -1, -1, -1, -1, 0, 1, "EI9999"},
	/* the line after "EI9999: Inner Error!" carries [FUNC:..][FILE:..]: it continues it */
	{"ascend-pytorch-54-lmdeploy-idle-fftsplus-timeout",
	 "EI9999: 2024-10-21-10:42:00.358.410  The error from device(chipId:3, dieId:0), serial "
	 "number is 9, hccl fftsplus task timeout occurred during task execution, stream_id:5, "
	 "sq_id:5, task_id:38827, stuck notify num:1, "
	 "timeout:30min(default).[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_"
	 "proc.cc][LINE:1435]",
	 "EI9999: 2024", HLINE_NONE, -1, -1, -1, 1729507320358410LL, 1, 1, "EI9999"},
	/* Python's traceback heading is an error (its text follows it: l.header) */
	{"ascend-pytorch-54-lmdeploy-idle-fftsplus-timeout",
	 "Traceback (most recent call last):", "Traceback", HLINE_NONE, -1, -1, -1, -1, 0, 1, ""},
	{"ascend-pytorch-54-lmdeploy-idle-fftsplus-timeout",
	 "  File \"/opt/lmdeploy/lmdeploy/pytorch/engine/model_agent.py\", line 486, in "
	 "_start_tp_process",
	 "File \"/opt/", HLINE_NONE, -1, -1, -1, -1, 1, 0, ""},
	/* torch_npu's prefix alone */
	{"llamafactory-3839-ej0001-hccp-busy",
	 "[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api "
	 "failed.",
	 "2024-05-21-11:57:54 (PID:927000", HLINE_ERROR, 927000, 3, 3, 1716292674000000LL, 0, 1,
	 "ERR02200"},
	/* NCCL's debug prefix: host:pid:tid and the GPU's local index, left in the message */
	{"real-logs-new/batch31/nccl-1235-multinode-llm-ng30903-cuda-calloc-out-of-memory-dev3",
	 "ng30903:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'",
	 "ng30903:3063028", HLINE_NONE, 3063028, -1, 3, -1, 0, 1, ""},
	/* mpirun --timestamp-output: C's ctime() before Open MPI's rank prefix */
	{"real-logs-new/batch36/ucx-3513-mtt-ompi-tcp-destination-unreachable-rank273-to-272",
	 "Wed Jun 26 22:35:41 2019[1,273]<stderr>:[clx-orion-058:21759] pml_ucx.c:380  Error: "
	 "ucp_ep_create(proc=272) failed: Destination is unreachable",
	 NULL, ANY, ANY, 273, -1, 1561588541000000LL, 0, 1, ""},
	/* horovodrun's prefix, the rank alone, under C's ctime() */
	{"real-logs-new/batch67/horovod-2431-network-interface-enp129s0f1-missing-on-rank-13-host-gloo",
	 "Tue Nov 10 10:05:04 2020[13]<stderr>:terminate called after throwing an instance of "
	 "'gloo::EnforceNotMet'",
	 "terminate called", ANY, ANY, 13, -1, 1605002704000000LL, 0, 1, ""},
	/* srun names the task, its rank; "tasks 0-3" would name none */
	{"real-logs-new/batch67/k-net-30-slurm-cgroup-oom-kill-gpu20-15-step-9411285",
	 "srun: error: gpu20-15: task 0: Out Of Memory",
	 "srun: error:", ANY, ANY, 0, -1, -1, 0, 1, ""},
	/* NCCL before 2.4 wrote its level WARN without "NCCL": still what failed */
	{"real-logs-new/batch33/horovod-666-seyun-eth0-vclab-eno2-connection-closed-by-remote-peer",
	 "seyun:17283:17549 [3] include/socket.h:371 WARN Connection closed by remote peer",
	 "seyun:17283", HLINE_NONE, 17283, -1, 3, -1, 0, 1, ""},
	/* ... and a WARN a benign form vouches for is not */
	{"real-logs-new/batch23/healthy-nccl-tests-82-2host-v100-broadcast-socket-ibverbs-warn",
	 "v100-gpu-1:14926:14926 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
	 "v100-gpu-1:14926", HLINE_NONE, 14926, -1, 0, -1, 0, 0, ""},
	/* under a launcher's prefix: the pid the message gives wins over the wrapper's */
	{"vllm-ascend-9447-a3-2node-socket-timeout",
	 "(EngineCore_DP0 pid=106187) [ERROR] 2026-05-21-21:41:10 (PID:106335, Device:0, "
	 "RankID:-1) ERR00100 PTA call acl api failed.",
	 "2026-05-21-21:41:10 (PID:106335", HLINE_ERROR, 106335, -1, 0, 1779399670000000LL, 0, 1,
	 "ERR00100"},
	/* MindIE: "[YYYY-MM-DD hh:mm:ss.fffff]" (five digits of fraction), then a lower-case
	 * "[error]"; "rank:1" in the text is no prefix. Where msg starts (at the "[36815]" that
	 * follows) and that bracket's number are not checked. */
	{"gpustack-2021-310p-mindie-hcclcomminitrootinfo",
	 "[2025-05-13 02:25:58.64217] [error] [36815] [hccl_runner.cpp:132] AllGatherHcclRunner:0 "
	 "HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4",
	 NULL, HLINE_ERROR, ANY, -1, -1, 1747103158642170LL, 0, 1, ""},
	/* torch's "[W file:line]": a warning; its words ("error code is 107020") make it an
	 * error line */
	{"llamafactory-5347-zero3-hccl-fftsplus-timeout",
	 "[W NPUStream.cpp:382] Warning: NPU warning, error code is 107020[Error]: .",
	 "Warning: NPU warning", HLINE_WARN, -1, -1, -1, -1, 0, 1, ""},
	/* CANN's screen form with [PID: n] and the stamp after the code */
	{"vllm-ascend-3413-rl-ei0002-remote-rank-24",
	 "EI0002: [PID: 2969] 2025-10-11-15:09:34.713.335 The wait execution of the Notify "
	 "register times out. Reason: The Notify register has not received the Notify record from "
	 "remote rank: [24]. base information: [streamID:[109], taskID[38], taskType[Notify Wait], "
	 "tag[AllReduce_group_name_1654NHRAllReduceComm_device], AlgType(level "
	 "0-1-2):[ring-NHR-NHR].]. task information: [notify id:[0x0000000000000213], stage:[0], "
	 "remote rank:[24]]. group information: [group:[group_name_1654], user define "
	 "information[Unspecified], rankSize[32], rankId[25 24]]",
	 "EI0002: [PID: 2969]", HLINE_NONE, 2969, -1, -1, 1760195374713335LL, 0, 1, "EI0002"},
	/* glog without brackets: the level letter, date, time, thread and place come off; F and
	 * E are errors, I is not */
	{"xllm-350-hccl-get-root-info-failed",
	 "F20251111 12:28:58.504206 214989 collective_service.cpp:37] Check failed: status == "
	 "HCCL_SUCCESS (1 vs. 0) HCCL get root info failed.",
	 "Check failed: status", HLINE_ERROR, -1, -1, -1, ANY_T, 0, 1, ""},
	{"xllm-350-hccl-get-root-info-failed",
	 "I20251111 12:28:58.490254 215011 worker_server.cpp:72] Create worker server with device: "
	 "0",
	 "Create worker server", HLINE_INFO, -1, -1, -1, ANY_T, 0, 0, ""},
	/* Ray's C++ core: the level's initial, the process and the thread inside the time's
	 * bracket; E is an error whatever the words */
	{"real-logs-new/batch967/openrlhf-845-multinode-ray-ppo-mismatched-workerid-ignoring-rpc-"
	 "hang-unresolved",
	 "(ActorModelRayActor pid=11099, ip=172.24.168.115) [2025-03-09 13:44:58,420 E 11099 11160] "
	 "core_worker.h:1564: Mismatched WorkerID: ignoring RPC for previous worker "
	 "0761da2bc149dd351cca0f0b53571a946891db77ca0ec340b4233089, current worker ID: "
	 "7373fe30e495eee8dcea24200851874fedaf6fa57508d89d98b97aa1",
	 "core_worker.h:1564: Mismatched", HLINE_ERROR, ANY, -1, -1, 1741527898420000LL, 0, 1, ""},
};

static void check_line(const struct line_case *c, size_t i)
{
	struct hlog_line l;
	struct pspan raw = span(c->line);
	hlog__line_parse(raw, &l);
	if (c->msg) {
		const char *at = strstr(c->line, c->msg);
		assert_non_null(at);
		if (l.msg.s != at)
			fail_msg("row %zu (%s): msg starts at offset %td, want %td (\"%.40s\")", i,
				 c->from, l.msg.s - c->line, at - c->line, c->msg);
	}
	/* msg runs to the end of the line (none of these has trailing blanks) */
	assert_ptr_equal(l.msg.s + l.msg.n, c->line + raw.n);
	if (c->level != ANY && l.level != c->level)
		fail_msg("row %zu (%s): level %d, want %d", i, c->from, l.level, c->level);
	if (c->pid != ANY && l.pid != c->pid)
		fail_msg("row %zu (%s): pid %d, want %d", i, c->from, l.pid, c->pid);
	if (l.rank != c->rank)
		fail_msg("row %zu (%s): rank %d, want %d", i, c->from, l.rank, c->rank);
	if (l.dev != c->dev)
		fail_msg("row %zu (%s): dev %d, want %d", i, c->from, l.dev, c->dev);
	if (c->t_us != ANY_T && l.t_us != c->t_us)
		fail_msg("row %zu (%s): t_us %lld, want %lld", i, c->from, (long long)l.t_us,
			 (long long)c->t_us);
	if (l.cont != c->cont)
		fail_msg("row %zu (%s): cont %d, want %d", i, c->from, l.cont, c->cont);
	if (c->error != ANY && l.error != c->error)
		fail_msg("row %zu (%s): error %d, want %d", i, c->from, l.error, c->error);
	assert_int_equal(l.kernel, 0);
	if (!c->code[0]) {
		if (l.code_at != -1)
			fail_msg("row %zu (%s): a code at %d, want none", i, c->from, l.code_at);
		return;
	}
	const char *want = strstr(l.msg.s, c->code);
	assert_non_null(want);
	if (l.code_at != want - l.msg.s || l.code_len != (int)strlen(c->code))
		fail_msg("row %zu (%s): code at %d len %d, want %td len %zu", i, c->from, l.code_at,
			 l.code_len, want - l.msg.s, strlen(c->code));
}

/* Whether line is a whole line of a file in tests/data/real-logs/<from>/node0/ (from may name
 * a case under tests/data/ by its path: "real-logs-new/batch31/CASE"). */
static int in_real_logs(const char *from, const char *line)
{
	char dir[256], path[512];
	static char buf[1 << 20];
	snprintf(dir, sizeof(dir),
		 strchr(from, '/') ? "tests/data/%s/node0" : "tests/data/real-logs/%s/node0", from);
	DIR *d = opendir(dir);
	if (!d)
		fail_msg("cannot read '%s'", dir);
	size_t len = strlen(line);
	int found = 0;
	for (struct dirent *de; !found && (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		for (const char *p = buf; !found && (p = strstr(p, line)); p++)
			found = (p == buf || p[-1] == '\n') &&
				(p[len] == '\0' || p[len] == '\n' || p[len] == '\r');
	}
	closedir(d);
	return found;
}

static void test_real_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (!in_real_logs(lines[i].from, lines[i].line))
			fail_msg("row %zu is not a line of %s", i, lines[i].from);
		check_line(&lines[i], i);
	}
}

/* The kernel log. The real logs hold none, so these lines are made up in the three forms
 * logline.c reads: dmesg, dmesg -T, and syslog/journal. */
/* Only "host:pid:tid [N]" at the start is NCCL's prefix: a host and port, then a bracket, is
 * not, and gives no device. */
/* A command the shell echoes under set -x is no message, whatever its arguments say
 * ("data.truncation=error"): the first line of a real run, read from its file. */
static void test_shell_trace(void **state)
{
	(void)state;
	static char buf[1 << 14];
	FILE *f = fopen("tests/data/real-logs-new/batch967/rldecisionagent-char-count-verl-grpo-"
			"smollm-135m-1gpu-vllm-step1-healthy/node0/stdout.txt",
			"rb");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	assert_non_null(strstr(buf, "data.truncation=error"));
	struct hlog_line l;
	hlog__line_parse(span(buf), &l);
	assert_int_equal(l.level, HLINE_DEBUG);
	assert_int_equal(l.error, 0);
	/* not a line that only starts with a plus: a sum, a diff's "+ " with a blank after it */
	static const char *const not_trace[] = {"+5 errors in the last epoch", "+  error: x", "+",
						"2024-05-21 11:58:06 ERROR + rm -rf /x failed"};
	for (size_t i = 0; i < sizeof(not_trace) / sizeof(not_trace[0]); i++) {
		hlog__line_parse(span(not_trace[i]), &l);
		assert_int_not_equal(l.level, HLINE_DEBUG);
	}
}

static void test_nccl_prefix_only(void **state)
{
	(void)state;
	static const char *const cand[] = {"connect to 10.0.0.2:29500 [3] failed",
					    "node7:29500 [3] failed", "a:1:2 [x] failed"};
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		struct hlog_line l;
		hlog__line_parse((struct pspan){cand[i], strlen(cand[i])}, &l);
		if (l.dev != -1 || l.host.n)
			fail_msg("'%s': dev %d, host '%.*s', want none", cand[i], l.dev,
				 (int)l.host.n, l.host.s);
	}
	/* the host of a whole prefix (NVIDIA/nccl#1634's two hosts in one log), inside msg */
	static const char *const line =
		"HGX-H100-04:589474:589541 [0] NCCL INFO Plugin Path : "
		"/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so";
	struct hlog_line l;
	hlog__line_parse(span(line), &l);
	assert_ptr_equal(l.host.s, line);
	assert_int_equal(l.host.n, strlen("HGX-H100-04"));
}

static void test_kernel_lines(void **state)
{
	static const struct {
		const char *line, *msg;
		int error;
	} k[] = {
		{"[ 2211.004512] hns3 0000:bd:00.0: failed to init ring, ret = -12", "hns3 0000:bd",
		 1},
		{"[Tue Dec  1 09:40:15 2026] npu_drv: device 2 ecc error", "npu_drv:", 1},
		{"Dec  1 09:40:15 node-a kernel: [ 2211.004512] hns3 0000:bd:00.0: link is up",
		 "hns3 0000:bd", 0},
		{"Dec  1 09:40:15 node-a kernel: audit: type=1400", "audit:", 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct hlog_line l;
		hlog__line_parse(span(k[i].line), &l);
		if (l.msg.s != strstr(k[i].line, k[i].msg))
			fail_msg("kernel row %zu: msg at offset %td", i, l.msg.s - k[i].line);
		assert_int_equal(l.kernel, 1);
		assert_int_equal(l.error, k[i].error);
		assert_int_equal(l.level, HLINE_NONE);
		assert_int_equal(l.pid, -1);
		assert_int_equal(l.cont, 0);
	}
	/* not a kernel stamp: two dots, or a word */
	struct hlog_line l;
	hlog__line_parse(S("[1.2.3] x"), &l);
	assert_int_equal(l.kernel, 0);
	hlog__line_parse(S("[abc] x"), &l);
	assert_int_equal(l.kernel, 0);
}

/* grep's prefix comes off only when it is a path: not a time, a host, a URL or a source file
 * that NCCL names before its message. */
static void test_grep_prefix(void **state)
{
	static const struct {
		const char *line, *msg;
	} g[] = {
		{"run/plog/plog-1_2.log:[ERROR] HCCL(1,p):x", "HCCL(1,p)"},
		{"plog-1_2.log:7:[ERROR] HCCL(1,p):x", "HCCL(1,p)"},
		{"a/b.txt:12:EI0006: x", "EI0006"},
		{"2025-01-02-03:04:05 [ERROR] x", "2025-01-02"},
		{"host-a:11:12 [0] NCCL WARN x", "host-a"},
		{"init.cc:1247 NCCL WARN x", "init.cc"},
		{"https://x/y: down", "https"},
		{"torch/a.cpp:64", "torch/a.cpp"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		struct hlog_line l;
		hlog__line_parse(span(g[i].line), &l);
		if (l.msg.s != strstr(g[i].line, g[i].msg))
			fail_msg("grep row %zu: msg at offset %td", i, l.msg.s - g[i].line);
	}
}

static void test_line_edges(void **state)
{
	struct hlog_line l;
	(void)state;
	/* empty and blank lines */
	hlog__line_parse((struct pspan){"", 0}, &l);
	assert_int_equal(l.msg.n, 0);
	assert_int_equal(l.error, 0);
	assert_int_equal(l.t_us, -1);
	assert_int_equal(l.pid, -1);
	assert_int_equal(l.code_at, -1);
	hlog__line_parse(S("   \t "), &l);
	assert_int_equal(l.msg.n, 0);
	assert_int_equal(l.error, 0);
	/* a span that is not NUL-terminated: the reader stops at its end */
	static const char cut[] = "[rank12]: EI0006 and more";
	hlog__line_parse((struct pspan){cut, 16}, &l);
	assert_int_equal(l.rank, 12);
	assert_int_equal(l.msg.n, 6);
	assert_int_equal(l.code_at, 0);
	assert_int_equal(l.code_len, 6);
	/* "[Rank 3]:" and Open MPI's "[1,3]<stderr>:" */
	hlog__line_parse(S("[Rank 3]: x"), &l);
	assert_int_equal(l.rank, 3);
	assert_int_equal(l.msg.s[0], 'x');
	hlog__line_parse(S("[1,3]<stderr>: RuntimeError: boom"), &l);
	assert_int_equal(l.rank, 3);
	assert_int_equal(l.error, 1);
	assert_true(probe__starts(l.msg, "RuntimeError"));
	/* srun -l's label (mlcommons training_results_v4.0, numactl under srun), its rank
	 * marked as a label; ip(8)'s interface index is none */
	hlog__line_parse(S("0: <0-7,64-71> is invalid"), &l);
	assert_int_equal(l.rank, 0);
	assert_int_equal(l.rank_label, 1);
	assert_int_equal(l.error, 1);
	assert_true(probe__starts(l.msg, "<0-7"));
	hlog__line_parse(S(" 12: RuntimeError: boom"), &l);
	assert_int_equal(l.rank, 12);
	hlog__line_parse(S("2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 state DOWN"), &l);
	assert_int_equal(l.rank, -1);
	assert_int_equal(l.rank_label, 0);
	/* a host's label before a traceback (DeepSpeed's pdsh runner, real-logs-new batch588,
	 * huggingface/transformers#21373): the heading is an error, the frame context; the
	 * label before other words stays the message's */
	hlog__line_parse(S("node2: Traceback (most recent call last):"), &l);
	assert_int_equal(l.error, 1);
	assert_int_equal(l.header, 1);
	hlog__line_parse(S("node2:   File \"run_clm.py\", line 659, in <module>"), &l);
	assert_int_equal(l.error, 0);
	assert_int_equal(l.cont, 1);
	assert_true(probe__starts(l.msg, "File"));
	hlog__line_parse(S("node2: training step 3"), &l);
	assert_true(probe__starts(l.msg, "node2:"));
	hlog__line_parse(S("error: Traceback follows"), &l);
	assert_true(probe__starts(l.msg, "error:"));
	hlog__line_parse(S("WARNING: Traceback (most recent call last):"), &l);
	assert_true(probe__starts(l.msg, "WARNING:"));
	assert_int_equal(l.header, 0);
	/* torch elastic's role label and a job runner's task label before the rank's own
	 * (real-logs-new batch923, NVIDIA-NeMo/Speech#14747): the heading is an error, the
	 * frame context; a heading behind a prefix no rule knows is still one, unless a level
	 * below error is among the prefix's words */
	hlog__line_parse(S("finetune/0 [default2]:[rank2]: Traceback (most recent call last):"), &l);
	assert_int_equal(l.error, 1);
	assert_int_equal(l.header, 1);
	assert_int_equal(l.rank, 2);
	hlog__line_parse(S("finetune/0 [default2]:[rank2]:   File \"/opt/NeMo/nemo/lightning/io/"
			   "pl.py\", line 288, in load_checkpoint"),
			 &l);
	assert_int_equal(l.error, 0);
	assert_int_equal(l.frame, 1);
	assert_true(probe__starts(l.msg, "File"));
	/* pytest's mark on a failure's report (ray-project/ray_lightning#61): a frame under it is
	 * a frame; a word that opens with E is no mark */
	hlog__line_parse(S("E                         File \"python/ray/_raylet.pyx\", line 501, in "
			   "ray._raylet.execute_task"),
			 &l);
	assert_int_equal(l.frame, 1);
	assert_true(probe__starts(l.msg, "File"));
	hlog__line_parse(S("Epoch 3:   5%"), &l);
	assert_true(probe__starts(l.msg, "Epoch"));
	/* an exception class named for what it is, not Error (real: Ascend/MindSpeed-LLM 9aa0543,
	 * pyarrow 25 on ARM64); the same word alone is a label */
	hlog__line_parse(S("pyarrow.lib.ArrowInvalid: Index not in dictionary bounds"), &l);
	assert_int_equal(l.error, 1);
	hlog__line_parse(S("Invalid: 0.000  "), &l);
	assert_int_equal(l.error, 0);
	/* the one table of class-name tails, heading a line and as a word anywhere */
	assert_true(hlog__class_tail("BackendCompilerFailed", 21, 1));
	assert_true(hlog__class_tail("KeyboardInterrupt", 17, 1));
	assert_true(hlog__class_tail("Error", 5, 1));
	assert_false(hlog__class_tail("Invalid", 7, 1));
	assert_false(hlog__class_tail("ArrowInvalid", 12, 0));
	assert_true(hlog__class_tail("RuntimeError", 12, 0));
	assert_false(hlog__class_tail("on_Error", 8, 0));
	hlog__line_parse(S("[default2]: step 3"), &l);
	assert_true(probe__starts(l.msg, "step 3"));
	assert_int_equal(l.rank, -1);
	hlog__line_parse(S("data/0 files read"), &l);
	assert_true(probe__starts(l.msg, "data/0"));
	hlog__line_parse(S("data/0 [info] files read"), &l);
	assert_true(probe__starts(l.msg, "data/0"));
	/* the heading behind a prefix no rule knows: a blank or mark before it, no level below
	 * error among the prefix's words; a control byte or a NUL before it is no separator
	 * (strchr would match the NUL), nor a letter */
	static const struct {
		struct pspan line;
		int header;
	} tb[] = {
		{S("job-7 @@ Traceback (most recent call last):"), 1},
		{S("job-7 \001Traceback (most recent call last):"), 0},
		{S("job-7 \0Traceback (most recent call last):"), 0},
		{S("2024 W 1 warning @@ Traceback (most recent call last):"), 0},
		{S("xTraceback (most recent call last):"), 0},
	};
	for (size_t i = 0; i < sizeof(tb) / sizeof(tb[0]); i++) {
		hlog__line_parse(tb[i].line, &l);
		if (l.header != tb[i].header)
			fail_msg("row %zu: header %d, want %d", i, l.header, tb[i].header);
	}
	/* a log pasted into Markdown notes (real-logs-new batch308, saforem2/vault): the quote
	 * marks are the page's; a Python prompt is none */
	hlog__line_parse(S("> srun: error: nid008576: task 2: Out Of Memory"), &l);
	assert_int_equal(l.rank, 2);
	hlog__line_parse(S("  > > 3: RuntimeError: boom"), &l);
	assert_int_equal(l.rank, 3);
	assert_true(probe__starts(l.msg, "RuntimeError"));
	hlog__line_parse(S(">>> 3: x"), &l);
	assert_int_equal(l.rank, -1);
	/* the step's daemon through a task's stream: the label is taken off, no rank given */
	hlog__line_parse(S("0: slurmstepd: error: Detected 1 oom_kill event in StepId=1.0."), &l);
	assert_int_equal(l.rank, -1);
	assert_true(probe__starts(l.msg, "slurmstepd"));
	hlog__line_parse(S("123456: x"), &l);
	assert_int_equal(l.rank, -1);
	hlog__line_parse(S("12:30:01 error"), &l);
	assert_int_equal(l.rank, -1);
	hlog__line_parse(S("[rank3]: x"), &l);
	assert_int_equal(l.rank_label, 0);
	/* under a warning or info level, an error code does not make the line an error */
	hlog__line_parse(S("[WARNING] HCCL(1,p):2026-01-06-15:38:29.000.001 [a.cc:1] EI0006"), &l);
	assert_int_equal(l.level, HLINE_WARN);
	assert_int_equal(l.error, 0);
	assert_int_equal(l.code_at, (int)(l.msg.n - 6));
	hlog__line_parse(S("[INFO] HCCL(1,p):2026-01-06-15:38:29.000.001 [a.cc:1] x"), &l);
	assert_int_equal(l.level, HLINE_INFO);
	assert_int_equal(l.error, 0);
	assert_int_equal(l.pid, 1);
	/* an HTTP status of a failed request is an error at no level, an answer (2xx, 3xx) or a
	 * number that only starts like one is not, and an INFO level keeps its word */
	static const struct {
		const char *line;
		int error;
	} http[] = {
		{"GET /v1/models -> [status code: 404]", 1},
		{"upstream answered: status code is 503", 1},
		{"HTTP status=500 from 10.0.0.2:8000", 1},
		{"GET /v1/models -> [status code: 200]", 0},
		{"status code: 4040 bytes", 0},
		{"status: 404x", 0},
		{"[INFO] response status code is 404", 0},
		/* a process that hangs is a failure even in an INFO line, not in a DEBUG one */
		{"[INFO] 2031-01-05 10:00:00 some processes are hanging (60 s without progress)", 1},
		{"[DEBUG] 2031-01-05 10:00:00 some processes are hanging", 0},
		{"[INFO] hanging_protocol=on", 0},
	};
	for (size_t i = 0; i < sizeof(http) / sizeof(http[0]); i++) {
		hlog__line_parse(span(http[i].line), &l);
		if (l.error != http[i].error)
			fail_msg("'%s': error %d, expected %d", http[i].line, l.error, http[i].error);
	}
}

/* ---- hlog__code_token ---- */

static void test_code_token(void **state)
{
	static const struct {
		const char *s;
		int at, len;
	} c[] = {
		{"EI0006", 0, 6},
		{"EJ0001: Failed", 0, 6},
		{"x ERR02200 DIST", 2, 8},
		{"(E39999)", 1, 6},
		{"EZ9999:", 0, 6},
		{"[EE9999]", 1, 6},
		{"xEI0006", -1, 0},	   /* inside a word */
		{"EI00061", -1, 0},	   /* a longer word */
		{"EI006 ", -1, 0},	   /* too short */
		{"ei0006", -1, 0},	   /* lower case */
		{"E09999", -1, 0},	   /* the second character is not 1-9 or a letter */
		{"ERR0220 ", -1, 0},	   /* ERR and 4 digits */
		{"HCCL_E_TIMEOUT", -1, 0}, /* inside an identifier */
		{"[ERROR] x EI0002", 10, 6},
		{"errNo[0x0000000005000013]", -1, 0},
		{"", -1, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int len = 99;
		int at = hlog__code_token(span(c[i].s), &len);
		if (at != c[i].at || len != c[i].len)
			fail_msg("\"%s\": at %d len %d, want %d len %d", c[i].s, at, len, c[i].at,
				 c[i].len);
	}
	/* the span's end, not the NUL, ends the token */
	int len;
	assert_int_equal(hlog__code_token((struct pspan){"EI00067", 6}, &len), 0);
	assert_int_equal(len, 6);
	assert_int_equal(hlog__code_token((struct pspan){"EI0006", 5}, &len), -1);
}

/* ---- probes/logs/logtext.h ---- */

static void test_int_after(void **state)
{
	int v;
	(void)state;
	/* HCCL prints an unknown rank as 4294967295 or -1: no rank, *out untouched */
	v = 7;
	assert_int_equal(
		hlog__int_after(S("remote rank [4294967295].base information"), "remote rank", &v),
		0);
	assert_int_equal(v, 7);
	assert_int_equal(hlog__int_after(S("(PID:159, Device:0, RankID:-1)"), "RankID:", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(hlog__int_after(S("rank 2147483647"), "rank", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(hlog__int_after(S("rank 2147483646"), "rank", &v), 1);
	assert_int_equal(v, 2147483646);
	/* the separators real lines use */
	static const char *const forms[] = {"rank[3]", "rank(3)", "rank: 3",
					    "rank 3",  "rank=3",  "rank:[3]"};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		v = -1;
		assert_int_equal(hlog__int_after(span(forms[i]), "rank", &v), 1);
		assert_int_equal(v, 3);
	}
	/* as in the real EI0002 line */
	assert_int_equal(
		hlog__int_after(S("from remote rank: [24]. base information"), "remote rank", &v),
		1);
	assert_int_equal(v, 24);
	v = 5;
	assert_int_equal(hlog__int_after(S("rank[x]"), "rank", &v), 0);
	assert_int_equal(hlog__int_after(S("no key here"), "rank", &v), 0);
	assert_int_equal(hlog__int_after(S("rank"), "rank", &v), 0);
	assert_int_equal(v, 5);
}

static void test_num_at(void **state)
{
	long long v;
	(void)state;
	/* errNo: all 16 hex digits */
	assert_int_equal(hlog__num_at(S("[0x0000000005000013]"), &v), 1);
	assert_int_equal(v, 0x5000013LL);
	assert_int_equal(hlog__num_at(S("0x000000000500000b"), &v), 1);
	assert_int_equal(v, 0x500000bLL);
	assert_int_equal(hlog__num_at(S("0xFFFFFFFFFFFFFFFF"), &v), 1);
	assert_int_equal(v, 0x7fffffffffffffffLL); /* kept at the cap */
	assert_int_equal(hlog__num_at(S("(-67)"), &v), 1);
	assert_int_equal(v, -67);
	assert_int_equal(hlog__num_at(S(": 16666 |"), &v), 1);
	assert_int_equal(v, 16666);
	assert_int_equal(hlog__num_at(S("4294967295"), &v), 1);
	assert_int_equal(v, 4294967295LL);
	v = 9;
	assert_int_equal(hlog__num_at(S("0xg"), &v), 0);
	assert_int_equal(hlog__num_at(S("x1"), &v), 0);
	assert_int_equal(hlog__num_at(S("    1"), &v), 0); /* at most 3 separators */
	assert_int_equal(hlog__num_at((struct pspan){"", 0}, &v), 0);
	assert_int_equal(v, 9);
	/* the span's end ends the number */
	assert_int_equal(hlog__num_at((struct pspan){"12345", 2}, &v), 1);
	assert_int_equal(v, 12);
}

static void test_ip_at(void **state)
{
	char ip[HLOG_IPLEN];
	(void)state;
	assert_int_equal(hlog__ip_at(S("192.168.20.148], notifyType[1]"), ip, sizeof(ip)), 14);
	assert_string_equal(ip, "192.168.20.148");
	assert_int_equal(hlog__ip_at(S("80.5.5.39/7]"), ip, sizeof(ip)), 9);
	assert_string_equal(ip, "80.5.5.39");
	assert_int_equal(hlog__ip_at(S("127.10.0.1 : 60000]"), ip, sizeof(ip)), 10);
	assert_string_equal(ip, "127.10.0.1");
	/* IPv6: "::" or eight groups */
	assert_int_equal(hlog__ip_at(S("fe80::1ff:fe23:4567:890a]"), ip, sizeof(ip)), 24);
	assert_string_equal(ip, "fe80::1ff:fe23:4567:890a");
	assert_int_equal(hlog__ip_at(S("2001:db8:0:0:0:0:2:1 x"), ip, sizeof(ip)), 20);
	assert_string_equal(ip, "2001:db8:0:0:0:0:2:1");
	assert_int_equal(hlog__ip_at(S("::1"), ip, sizeof(ip)), 3);
	assert_string_equal(ip, "::1");
	/* not addresses: a time, a version, a part over 255, a fifth part */
	ip[0] = 'z';
	assert_int_equal(hlog__ip_at(S("15:38:29"), ip, sizeof(ip)), 0);
	assert_int_equal(hlog__ip_at(S("15:38:29.881.877"), ip, sizeof(ip)), 0);
	assert_int_equal(hlog__ip_at(S("256.1.1.1"), ip, sizeof(ip)), 0);
	assert_int_equal(hlog__ip_at(S("1.2.3.4.5"), ip, sizeof(ip)), 0);
	assert_int_equal(hlog__ip_at(S("1.2.3.4567"), ip, sizeof(ip)), 0);
	assert_int_equal(hlog__ip_at(S("1.2.3"), ip, sizeof(ip)), 0);
	assert_int_equal(hlog__ip_at(S("8.1.RC1"), ip, sizeof(ip)), 0);
	assert_int_equal(ip[0], 'z');
	/* the copy is cut to the buffer */
	char small[8];
	assert_int_equal(hlog__ip_at(S("192.168.10.4"), small, sizeof(small)), 12);
	assert_string_equal(small, "192.168");
	/* after a key, and the n-th anywhere */
	assert_int_equal(
		hlog__ip_after(S("localIpAddr[10.0.0.3/0]"), "localIpAddr", ip, sizeof(ip)), 1);
	assert_string_equal(ip, "10.0.0.3");
	assert_int_equal(
		hlog__nth_ip(S("at 15:38:29 from 10.0.0.1 to 10.0.0.2"), 1, ip, sizeof(ip)), 1);
	assert_string_equal(ip, "10.0.0.2");
	assert_int_equal(hlog__nth_ip(S("at 15:38:29 from 10.0.0.1"), 1, ip, sizeof(ip)), 0);
	assert_string_equal(ip, "");
}

static void test_name_after(void **state)
{
	char name[HLOG_NAMELEN];
	(void)state;
	/* from the real EI0002 line */
	assert_int_equal(hlog__name_after(S("group information: [group:[group_name_1654], user "
					    "define information[Unspecified]"),
					  "group:", name, sizeof(name)),
			 1);
	assert_string_equal(name, "group_name_1654");
	assert_int_equal(
		hlog__name_after(S("op=hccl_world_group.x-1;rest"), "op", name, sizeof(name)), 1);
	assert_string_equal(name, "hccl_world_group.x-1");
	char small[5];
	assert_int_equal(
		hlog__name_after(S("group:[group_name_1654]"), "group:", small, sizeof(small)), 1);
	assert_string_equal(small, "grou");
	name[0] = 'z';
	assert_int_equal(hlog__name_after(S("group:[]"), "group:", name, sizeof(name)), 0);
	assert_int_equal(hlog__name_after(S("no key"), "group:", name, sizeof(name)), 0);
	assert_int_equal(hlog__name_after(S("group:[x]"), "group:", name, 0), 0);
	assert_int_equal(name[0], 'z');
	int dev = -1;
	char ip[HLOG_IPLEN];
	assert_int_equal(hlog__uid_after(S("Cluster Exception Location[IP/ID]:[10.0.0.3/0], "),
					 "Cluster Exception Location[IP/ID]:", ip, sizeof(ip),
					 &dev),
			 1);
	assert_string_equal(ip, "10.0.0.3");
	assert_int_equal(dev, 0);
}

static void test_stamp(void **state)
{
	(void)state;
	assert_int_equal(hlog__stamp_at("2025-09-11-01:20:11.205.229", 27), 1757553611205229LL);
	assert_int_equal(hlog__stamp_at("2025-09-11-01:20:11.205.229", 26), -1);
	assert_int_equal(hlog__stamp_at("2025-09-11 01:20:11.205.229", 27), -1);
	assert_int_equal(hlog__stamp_at("1969-12-31-23:59:59.999.999", 27), -1);
	assert_int_equal(hlog__stamp_at("2025-02-31-24:00:00.000.000", 27), -1);
	assert_int_equal(hlog__days(1970, 1, 1), 0);
	assert_int_equal(hlog__days(2000, 3, 1), 11017);
}

/* ---- hlog_scan_path ---- */

static char err[256];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

/* Each scan test works in its own directory under /tmp, removed after it, failed or not. */
static int tmp_setup(void **state)
{
	char *d = strdup("/tmp/test_logline.XXXXXX");
	if (!d || !mkdtemp(d)) {
		free(d);
		return -1;
	}
	*state = d;
	return 0;
}

static int tmp_teardown(void **state)
{
	char *d = *state;
	int rc = nftw(d, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(d);
	return rc;
}

/* dir/rel in path, the folders on the way made */
static void make_path(char *path, size_t len, const char *dir, const char *rel)
{
	snprintf(path, len, "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*s = '/';
	}
}

static void put(const char *dir, const char *rel, const void *buf, size_t len)
{
	char path[512];
	make_path(path, sizeof(path), dir, rel);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* dir/rel as gzip, mode "wb" (a new file) or "ab" (another member appended) */
static void put_gz(const char *dir, const char *rel, const char *mode, const char *text)
{
	char path[512];
	make_path(path, sizeof(path), dir, rel);
	gzFile g = gzopen(path, mode);
	assert_non_null(g);
	assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
	assert_int_equal(gzclose(g), Z_OK);
}

static void scan(const char *path, struct hlog_report *r)
{
	hlog_report_init(r);
	int rc = hlog_scan_path(path, r, err, sizeof(err));
	if (rc)
		fail_msg("%s: %d %s", path, rc, err);
}

static const char plog[] =
	"[INFO] HCCL(4242,python3):2026-01-06-15:38:29.881.877 [externalinput.cc:598] "
	"[4242][HCCL_ENV] HCCL_CONNECT_TIMEOUT set by default to [120]s\n"
	"[ERROR] HCCL(4242,python3):2026-01-06-15:40:50.113.403 [hccl_socket_manager.cc:797] "
	"[4242][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[0] timeout[120 s]\n"
	"[ERROR] HCCL(4242,python3):2026-01-06-15:40:50.113.706 [hccl_socket_manager.cc:583] "
	"[4242]   | 192.168.10.4(3) | 16666 | 192.168.10.1(0) | 3234403008 | client | time out | "
	"DISABLE | LinkInfo\n";

static void assert_skips(const struct hlog_report *r, size_t binary, size_t special, size_t gz)
{
	assert_int_equal(r->skip[HLOG_SKIP_BINARY], binary);
	assert_int_equal(r->skip[HLOG_SKIP_SPECIAL], special);
	assert_int_equal(r->skip[HLOG_SKIP_GZIP], gz);
	assert_int_equal(r->skip[HLOG_SKIP_UNREADABLE], 0);
	assert_int_equal(r->skip[HLOG_SKIP_LIMIT], 0);
	assert_int_equal(r->skipped, binary + special + gz);
}

static void test_scan_file(void **state)
{
	struct hlog_report r;
	char path[512];
	const char *d = *state;
	put(d, "plog-4242_1.log", plog, sizeof(plog) - 1);
	snprintf(path, sizeof(path), "%s/plog-4242_1.log", d);
	scan(path, &r);
	assert_int_equal(r.nfile, 1);
	assert_string_equal(r.file[0].name, "plog-4242_1.log"); /* the base name */
	assert_string_equal(r.file[0].node, "");
	assert_int_equal(r.file[0].pid, 4242);
	assert_int_equal(r.lines, 3);
	assert_int_equal(r.file[0].lines, 3);
	assert_int_equal(r.bytes, sizeof(plog) - 1);
	assert_int_equal(r.nev, 2);
	assert_int_equal(r.errors, 2);
	assert_skips(&r, 0, 0, 0);
	assert_int_equal(hlog_conclude(&r), 0);
	/* one file without a node folder or a server named in it is the node of the device IP
	 * it writes from (its LINK_ERROR_INFO source) */
	assert_string_equal(r.file[0].node, "192.168.10.1");
	assert_string_equal(r.ev[0].node, "192.168.10.1");
	assert_int_equal(r.file[0].rank, 0);
	assert_int_equal(r.kind, HLOG_SOCKET_TIMEOUT);
	assert_int_equal(r.rank, 3);
	hlog_report_release(&r);

	/* a file that names its server: that is its node */
	static const char srv[] =
		"[ERROR] HCCL(2003,python3):2026-01-06-15:40:50.142.013 "
		"[transport_manager.cc:1325] "
		"[2043][InitChannelStage][Timeout]Transport init error! createLink "
		"para:rank[2]-localUserrank[2]-localIpAddr[10.0.0.3/0], "
		"remoteRank[3]-remoteUserrank[3]-remoteIpAddr[10.0.0.4/0], machineType[1]\n";
	put(d, "srv.log", srv, sizeof(srv) - 1);
	snprintf(path, sizeof(path), "%s/srv.log", d);
	scan(path, &r);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nfile, 1);
	assert_string_equal(r.file[0].host, "10.0.0.3");
	assert_string_equal(r.file[0].node, "10.0.0.3");
	assert_string_equal(r.ev[0].node, "10.0.0.3");
	hlog_report_release(&r);
}

static void test_scan_gzip(void **state)
{
	struct hlog_report r;
	char path[512];
	const char *d = *state;
	/* gzip is told by its magic bytes, not by its name */
	put_gz(d, "rotated.1", "wb", plog);
	snprintf(path, sizeof(path), "%s/rotated.1", d);
	scan(path, &r);
	assert_int_equal(r.nfile, 1);
	assert_string_equal(r.file[0].name, "rotated.1");
	assert_int_equal(r.lines, 3);
	assert_int_equal(r.bytes, sizeof(plog) - 1); /* inflated */
	assert_int_equal(r.nev, 2);
	assert_skips(&r, 0, 0, 0);
	hlog_report_release(&r);

	/* two members, as log rotation appends them */
	put_gz(d, "rotated.1", "ab", "EI0006: second member\n");
	scan(path, &r);
	assert_int_equal(r.nfile, 1);
	assert_int_equal(r.lines, 4);
	assert_int_equal(r.nev, 3);
	assert_skips(&r, 0, 0, 0);
	hlog_report_release(&r);

	/* cut in the middle: not read, counted as bad gzip */
	char big[40000];
	size_t n = 0;
	for (int i = 0; n + 80 < sizeof(big); i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "EI0006 line %d of a long log %x\n",
				      i, (unsigned)(i * 2654435761u));
	put_gz(d, "cut.log.gz", "wb", big);
	snprintf(path, sizeof(path), "%s/cut.log.gz", d);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);
	assert_int_equal(truncate(path, st.st_size / 2), 0);
	scan(path, &r);
	assert_int_equal(r.nfile, 0);
	assert_int_equal(r.lines, 0);
	assert_int_equal(r.nev, 0);
	assert_skips(&r, 0, 0, 1);
	hlog_report_release(&r);

	/* only the gzip header */
	assert_int_equal(truncate(path, 10), 0);
	scan(path, &r);
	assert_int_equal(r.nfile, 0);
	assert_skips(&r, 0, 0, 1);
	hlog_report_release(&r);
}

static void test_scan_dir(void **state)
{
	struct hlog_report r;
	char path[512], target[512];
	const char *d = *state;
	put(d, "node1/x.txt", plog, sizeof(plog) - 1);
	put(d, "node1/core.bin",
	    "\x7f"
	    "ELF\x02\x01\x01\0\0\0EI0006\n",
	    17);
	put_gz(d, "node1/old/plog-1.log.gz", "wb", "EI0006: from the gzip\n");
	put(d, "top.log", "[ERROR] nothing known\n", 22);
	/* a symlink to a file that is read anyway, and one out of the tree: neither followed */
	snprintf(path, sizeof(path), "%s/node1/link.log", d);
	assert_int_equal(symlink("x.txt", path), 0);
	snprintf(path, sizeof(path), "%s/node1/passwd", d);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	snprintf(path, sizeof(path), "%s/node1/fifo", d);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* a symlink to a directory */
	snprintf(path, sizeof(path), "%s/node2", d);
	snprintf(target, sizeof(target), "%s/node1", d);
	assert_int_equal(symlink(target, path), 0);
	scan(d, &r);
	/* name order: node1/core.bin (binary), node1/fifo, node1/link.log, node1/old/...,
	 * node1/passwd, node1/x.txt, node2 (symlink), top.log */
	assert_int_equal(r.nfile, 3);
	assert_string_equal(r.file[0].name, "node1/old/plog-1.log.gz");
	assert_string_equal(r.file[0].node, "node1");
	assert_string_equal(r.file[1].name, "node1/x.txt");
	assert_string_equal(r.file[1].node, "node1");
	assert_string_equal(r.file[2].name, "top.log");
	assert_string_equal(r.file[2].node, "");
	assert_int_equal(r.lines, 1 + 3 + 1);
	assert_skips(&r, 1, 4, 0);
	assert_int_equal(r.nunk, 1);
	assert_string_equal(r.unk[0].file, "top.log");
	assert_int_equal(hlog_conclude(&r), 0);
	for (size_t i = 0; i < r.nev; i++)
		if (!strncmp(r.ev[i].file, "node1/", 6))
			assert_string_equal(r.ev[i].node, "node1");
	assert_string_equal(r.file[2].node, "node0");
	hlog_report_release(&r);

	/* what cannot be read at all */
	snprintf(path, sizeof(path), "%s/no-such", d);
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_path(path, &r, err, sizeof(err)), -ENOENT);
	char want[600];
	snprintf(want, sizeof(want), "cannot read '%s': No such file or directory", path);
	assert_string_equal(err, want);
	assert_int_equal(r.nfile, 0);
	assert_int_equal(hlog_scan_path(NULL, &r, err, sizeof(err)), -EINVAL);
	hlog_report_release(&r);
}

/* "-" reads fd 0: the content is put in a pipe that stands in for it */
static void scan_stdin(const void *buf, size_t len, struct hlog_report *r)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_true(len < 65536); /* fits in the pipe before anyone reads */
	assert_int_equal(write(p[1], buf, len), (ssize_t)len);
	assert_int_equal(close(p[1]), 0);
	int saved = dup(0);
	assert_true(saved >= 0);
	assert_int_equal(dup2(p[0], 0), 0);
	assert_int_equal(close(p[0]), 0);
	hlog_report_init(r);
	int rc = hlog_scan_path("-", r, err, sizeof(err));
	assert_int_equal(dup2(saved, 0), 0);
	assert_int_equal(close(saved), 0);
	if (rc)
		fail_msg("stdin: %d %s", rc, err);
}

static void test_scan_stdin(void **state)
{
	struct hlog_report r;
	const char *d = *state;
	scan_stdin(plog, sizeof(plog) - 1, &r);
	assert_int_equal(r.nfile, 1);
	assert_string_equal(r.file[0].name, "stdin");
	assert_string_equal(r.file[0].node, "");
	assert_int_equal(r.lines, 3);
	assert_int_equal(r.nev, 2);
	assert_skips(&r, 0, 0, 0);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_string_equal(r.file[0].node, "192.168.10.1");
	assert_int_equal(r.rank, 3);
	hlog_report_release(&r);

	/* a gzip piped in */
	char path[512];
	static char gz[4096];
	put_gz(d, "p.gz", "wb", plog);
	snprintf(path, sizeof(path), "%s/p.gz", d);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(gz, 1, sizeof(gz), f);
	fclose(f);
	assert_true(n > 18 && n < sizeof(gz));
	scan_stdin(gz, n, &r);
	assert_int_equal(r.nfile, 1);
	assert_int_equal(r.lines, 3);
	assert_int_equal(r.nev, 2);
	hlog_report_release(&r);

	/* nothing at all */
	scan_stdin("", 0, &r);
	assert_int_equal(r.nfile, 1);
	assert_int_equal(r.lines, 0);
	hlog_report_release(&r);
}

/* Frames of a native stack, as gdb and lldb print them, and Python's as pybind11 prints them,
 * are frames; a program's comment that starts with '#' is not (real lines: real-logs-new batches 483 and 119). */
static void test_native_frames(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int frame;
	} k[] = {
		{"#0  0x00007fe08975c8e7 in sched_yield () at ../sysdeps/unix/syscall-template.S:84", 1},
		{"#2  std::this_thread::yield () at /usr/include/c++/5/thread:270", 1},
		{"#8  0x00007f04fc98d6e6 in ncclGroupEnd () from /usr/lib/x86_64-linux-gnu/libnccl.so.2",
		 1},
		{"    frame #10: 0x00007ff58df57708 libcudart.so.11.0`cudaEventSynchronize + 344", 1},
		{"# nccl-tests version 2.17.9 nccl-headers=22902 nccl-library=22902", 0},
		{"#  Rank  0 Group  0 Pid 206828 on   gpu-1-43 device  0 [0009:01:00] NVIDIA GH200 120GB",
		 0},
		{"#1 step (of 3) done", 0},
		{"#4  0x in", 0},
		{"frame #", 0},
		/* pybind11's frames under "At:" (real: gpustack/gpustack#2194, MindIE's ATB models) */
		{"  /usr/local/Ascend/atb-models/atb_llm/models/base/model_utils.py(14): <module>", 1},
		{"  <frozen importlib._bootstrap>(241): _call_with_frames_removed", 1},
		/* a path and a count that is no frame */
		{"/data/train.log(3): opened", 0},
		{"/usr/lib/x.py(): nothing", 0},
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct hlog_line l;
		hlog__line_parse(span(k[i].line), &l);
		if (l.frame != k[i].frame)
			fail_msg("%s: frame %d, want %d", k[i].line, l.frame, k[i].frame);
	}
}

/* A log viewer's cells before each message, a time stamp among empty ones, are a prefix: the
 * frame under them is a frame (real lines: real-logs-new batch 733, tensorflow-53098); a
 * results table's row, whose cells hold no time stamp, and a message with a '|' of its own
 * are left whole. */
/* Coloured output loses its terminal sequences and nothing else: Ray's prefix (real-logs-new
 * batch1026, GoogleCloudPlatform/ai-on-gke's KubeRay notebook), an OSC title, a charset's
 * ESC ( B, and sequences cut short at the end of the buffer or before a newline. */
static void test_strip_ansi(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"\x1b[2m\x1b[36m(RayTrainWorker pid=1146)\x1b[0m 2023-04-06 16:16:26.491021: I x",
		 "(RayTrainWorker pid=1146) 2023-04-06 16:16:26.491021: I x"},
		{"\x1b]0;title\a\x1b[1;31mERROR\x1b(B\x1b[m failed", "ERROR failed"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ ok", "link ok"},
		{"a\x1b[31\nb", "a\nb"},
		{"a\x1b\nb", "a\nb"},
		{"tail \x1b[", "tail "},
		{"tail \x1b", "tail "},
		{"no escapes", "no escapes"},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char buf[128];
		size_t n = strlen(cases[k].in);
		memcpy(buf, cases[k].in, n);
		size_t m = hlog__strip_ansi(buf, n);
		if (m != strlen(cases[k].out) || memcmp(buf, cases[k].out, m))
			fail_msg("case %zu: got \"%.*s\"", k, (int)m, buf);
	}
}

static void test_viewer_cells(void **state)
{
	(void)state;
	static const struct {
		const char *line, *msg;
		int frame;
	} k[] = {
		{"  |   |   | 2021-11-17 12:30:37 | File \"/usr/local/lib/python3.6/dist-packages/"
		 "tensorflow/python/ops/variables.py\", line 68, in getter",
		 "File \"/usr/local/lib/python3.6/dist-packages/tensorflow/python/ops/variables.py\", "
		 "line 68, in getter",
		 1},
		{"2021-11-17 12:30:31 | 20211117", "20211117", 0},
		{"|        8 |        2 |    float |     sum |", NULL, 0},
		{"  |   |   | x | File \"a.py\", line 1, in f", NULL, 0},
		{"  |   |   | 2021-11-17 12:30:37 |", NULL, 0},
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct hlog_line l;
		hlog__line_parse(span(k[i].line), &l);
		if (l.frame != k[i].frame)
			fail_msg("%s: frame %d, want %d", k[i].line, l.frame, k[i].frame);
		if (k[i].msg && (l.msg.n != strlen(k[i].msg) || memcmp(l.msg.s, k[i].msg, l.msg.n)))
			fail_msg("%s: message '%.*s', want '%s'", k[i].line, (int)l.msg.n, l.msg.s,
				 k[i].msg);
		if (!k[i].msg && l.msg.s[0] != k[i].line[strspn(k[i].line, " ")])
			fail_msg("%s: a prefix was taken: '%.*s'", k[i].line, (int)l.msg.n, l.msg.s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_lines),
		cmocka_unit_test(test_shell_trace),
		cmocka_unit_test(test_nccl_prefix_only),
		cmocka_unit_test(test_kernel_lines),
		cmocka_unit_test(test_grep_prefix),
		cmocka_unit_test(test_line_edges),
		cmocka_unit_test(test_code_token),
		cmocka_unit_test(test_int_after),
		cmocka_unit_test(test_num_at),
		cmocka_unit_test(test_ip_at),
		cmocka_unit_test(test_name_after),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_native_frames),
		cmocka_unit_test(test_viewer_cells),
		cmocka_unit_test(test_strip_ansi),
		cmocka_unit_test_setup_teardown(test_scan_file, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_scan_gzip, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_scan_dir, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_scan_stdin, tmp_setup, tmp_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
