/* HCCL log scan and root cause: the fixtures of tests/data/plog (see its README) and inline
 * variants. Fix texts are checked by a command or variable they name, not word for word. */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hccllog.h"

#define DATA "tests/data/plog/"

static char err[256];

static void assert_prefix(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)))
		fail_msg("\"%s\"\ndoes not start with\n\"%s\"", s, prefix);
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("\"%s\"\ndoes not contain\n\"%s\"", s, part);
}

static void scan(const char *dir, struct hlog_report *r)
{
	hlog_report_init(r);
	int rc = hlog_scan_dir(dir, r, err, sizeof(err));
	if (rc)
		fail_msg("%s: %s", dir, err);
	assert_int_equal(hlog_conclude(r), 0);
}

static void add_file(struct hlog_report *r, const char *path, const char *name, const char *node)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(hlog_scan_buf(name, node, buf, n, r, err, sizeof(err)), 0);
}

static void add_text(struct hlog_report *r, const char *name, const char *node, const char *s)
{
	assert_int_equal(hlog_scan_buf(name, node, s, strlen(s), r, err, sizeof(err)), 0);
}

/* The category text concludes to, read as one file (HCAT_NONE: no error); its error lines in
 * *errors when that is not NULL. */
static int cat_of(const char *text, size_t *errors)
{
	struct hlog_report r;
	hlog_report_init(&r);
	add_text(&r, "stdout.txt", "node0", text);
	assert_int_equal(hlog_conclude(&r), 0);
	int cat = r.cat;
	if (errors)
		*errors = r.errors;
	hlog_report_release(&r);
	return cat;
}

/* Reads text as one file of node and concludes: the category and detail must be these, the
 * cause must start with cause and the fix name fix (NULL: not checked). */
static void conclude_text(struct hlog_report *r, const char *name, const char *node,
			  const char *text, int cat, const char *detail, const char *cause,
			  const char *fix)
{
	hlog_report_init(r);
	add_text(r, name, node, text);
	assert_int_equal(hlog_conclude(r), 0);
	assert_int_equal(r->cat, cat);
	assert_string_equal(r->detail, detail);
	if (cause)
		assert_prefix(r->cause, cause);
	if (fix)
		assert_contains(r->fix, fix);
}

/* The event at file:line, or fail. */
static const struct hlog_event *event_at(const struct hlog_report *r, const char *file,
					 unsigned line)
{
	for (size_t i = 0; i < r->nev; i++)
		if (!strcmp(r->ev[i].file, file) && r->ev[i].line == line)
			return &r->ev[i];
	fail_msg("no event at %s:%u", file, line);
	return NULL;
}

static void test_ei0006_late(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "ei0006", &r);
	assert_int_equal(r.nfile, 5);
	assert_int_equal(r.lines, 43);
	assert_int_equal(r.skipped, 0);
	assert_int_equal(r.nev, 14);
	assert_int_equal(r.nunk, 0); /* LINK_ERROR_INFO frame and trace lines: not new errors */
	assert_int_equal(r.kind, HLOG_SOCKET_TIMEOUT);
	assert_int_equal(r.rank, 3);
	assert_string_equal(r.node, "n4");
	assert_string_equal(r.ip, "192.168.10.4");
	assert_string_equal(
		r.cause,
		"rank 3 (node n4, 192.168.10.4) is the rank the others wait for: it "
		"started late, at 15:41:03, after the first timeout at 15:40:50; the EI0006 "
		"socket timeouts on ranks 0,1,2 waiting for it are consequences");
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "timeout-elsewhere");
	assert_int_equal(r.dev, -1);
	assert_int_equal(r.port, -1);
	assert_string_equal(r.group, "");
	assert_contains(r.fix, "grep -r Entry-HcclCommInitRootInfoInner");
	assert_contains(r.fix, "HCCL_CONNECT_TIMEOUT");
	assert_non_null(r.first);
	assert_string_equal(r.first->file, "n1/plog/plog-2001_20260106153829881.log");
	assert_int_equal(r.first->line, 10);
	assert_int_equal(r.nevidence, 1);
	assert_string_equal(r.evidence[0].file, r.first->file);
	assert_int_equal(r.evidence[0].line, 10);
	assert_string_equal(r.evidence[0].text, r.first->text);

	/* the LINK_ERROR_INFO row: src is the writer, dest the peer, TlsStatus DISABLE */
	const struct hlog_event *e = event_at(&r, "n2/plog/plog-2002_20260106153829881.log", 10);
	assert_int_equal(e->kind, HLOG_SOCKET_TIMEOUT);
	assert_int_equal(e->sub, HLOG_SUB_LINK_ROW);
	assert_string_equal(e->node, "n2");
	assert_int_equal(e->rank, 1);
	assert_int_equal(e->peer_rank, 3);
	assert_string_equal(e->ip, "192.168.10.2");
	assert_string_equal(e->peer_ip, "192.168.10.4");
	assert_int_equal(e->value, 0);
	assert_int_equal(e->pid, 2002);
	/* 2026-01-06-15:40:50.113.706 read as UTC */
	assert_int_equal(e->t_us, 1767714050113706LL);
	assert_prefix(e->text, "[ERROR] HCCL(2002,python3):2026-01-06-15:40:50.113.706 "
			       "[hccl_socket_manager.cc:583] [2042]   | 192.168.10.4(3) | 16666 |");
	/* Transport init error: localIpAddr / remoteIpAddr are server/device */
	e = event_at(&r, "n3/plog/plog-2003_20260106153829881.log", 11);
	assert_int_equal(e->sub, HLOG_SUB_TRANSPORT);
	assert_int_equal(e->rank, 2);
	assert_int_equal(e->peer_rank, 3);
	assert_string_equal(e->ip, "10.0.0.3");
	assert_int_equal(e->dev, 0);
	assert_string_equal(e->peer_ip, "10.0.0.4");
	/* the screen form has no time: sorted last */
	assert_string_equal(r.ev[r.nev - 1].file, "n1/train.log");
	assert_int_equal(r.ev[r.nev - 1].t_us, -1);
	assert_string_equal(r.file[4].name, "n4/plog/plog-2004_20260106154102500.log");
	assert_int_equal(r.file[4].rank, 3);
	hlog_report_release(&r);
	assert_null(r.ev);
	assert_int_equal(r.nev, 0);
}

static const char *const chain[] = {"n1/plog/plog-2001_20260106153829881.log",
				    "n2/plog/plog-2002_20260106153829881.log",
				    "n3/plog/plog-2003_20260106153829881.log"};

static void load_chain(struct hlog_report *r)
{
	char path[256];
	hlog_report_init(r);
	for (int i = 0; i < 3; i++) {
		char node[4] = {'n', (char)('1' + i), 0, 0};
		snprintf(path, sizeof(path), DATA "ei0006/%s", chain[i]);
		add_file(r, path, chain[i], node);
	}
}

/* An EI0006 whose own line names no peer, the line under it the address it could not reach
 * (a DeepEP bench across two 910C hosts, unknown-zyz/afd_demo's error guide): a connection
 * that timed out toward that address, not a wait that names no peer. */
static void test_ei0006_peer_below(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"[rank0] WARMUP FAIL @ iter 0: aclnnNotifyDispatch failed,\n"
		"        EI0006 Communication_Error_Get_Socket: Getting socket times out.\n"
		"        srcRank[192.168.0.125/0] connect destRank[192.168.0.192/0] fail.\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_NET, "connect-timeout",
		      "rank 0 on node node0 could not connect to 192.168.0.192 within the connect "
		      "timeout",
		      NULL);
	assert_string_equal(r.ip, "192.168.0.192");
	hlog_report_release(&r);
}

/* A refused connection whose line under it names the server by its host and port, not an
 * address (MPICH's Hydra proxy, LLNL/mcdc#148): the port is the cause's. */
static void test_port_below_host(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"[proxy:0:23@quartz2664] HYDU_sock_connect (lib/utils/sock.c:140): unable to connect "
		"from \"quartz2664\" to \"quartz79\" (No route to host)\n"
		"[proxy:0:23@quartz2664] main (proxy/pmip.c:105): unable to connect to server quartz79 "
		"at port 43377 (check for firewalls!)\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_NET, "errno-no-route", NULL, NULL);
	assert_int_equal(r.port, 43377);
	hlog_report_release(&r);
}

/* The same with a host whose name ends in ".local" (pmodels/mpich#4599): a role word inside a
 * host's name ("node100.local") says nothing of which end the port is. */
static void test_port_below_dotted_host(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"[proxy:0:1@node168.local] HYDU_sock_connect (utils/sock/sock.c:145): unable to "
		"connect from \"node168.local\" to \"node100.local\" (Connection refused)\n"
		"[proxy:0:1@node168.local] main (pm/pmiserv/pmip.c:183): unable to connect to server "
		"node100.local at port 54762 (check for firewalls!)\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_NET, "errno-refused", NULL, NULL);
	assert_int_equal(r.port, 54762);
	hlog_report_release(&r);
}

/* Horovod's stall inspector at warning level (horovod/horovod#429): the ops it lists and the
 * rank they wait for, on the line under "Stalled ops:", are a hang of that rank. */
static void test_horovod_stall(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"WARNING: One or more tensors were submitted to be reduced, gathered or broadcasted "
		"by subset of ranks and are waiting for remainder of ranks for more than 60 "
		"seconds.\n"
		"Stalled ops:\n"
		"allreduce.avg_loss [missing ranks: 1]\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_RANK_STUCK, "words:hang",
		      "a process hangs", NULL);
	assert_int_equal(r.rank, 1);
	hlog_report_release(&r);
}

/* A message that ends in ':' goes on under it, in lines with no prefix of their own: the
 * address there is the cause's (ray-project/ray's version check, as gpustack/gpustack#1640
 * shows it). */
static void test_message_continued(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] = "RuntimeError: Version mismatch: The cluster was started with:\n"
				  "    Ray: 2.43.0\n"
				  "    Python: 3.11.10\n"
				  "This process on node 10.18.215.196 was started with:\n"
				  "    Ray: 2.44.1\n"
				  "    Python: 3.11.10\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_VERSION, "words:version", NULL,
		      NULL);
	assert_string_equal(r.ip, "10.18.215.196");
	hlog_report_release(&r);
	/* a line with its own prefix is a message of its own, not the one above it */
	static const char log2[] = "RuntimeError: Version mismatch: The cluster was started with:\n"
				   "[2025-01-01 10:00:00] connected to 10.0.0.9\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log2, HCAT_VERSION, "words:version", NULL,
		      NULL);
	assert_string_equal(r.ip, "");
	hlog_report_release(&r);
}

/* MPICH's error stack (firemodels/fds#7868): the rank its head names is that of the stack's
 * lines under it, where the cause is (no OFI provider). */
static void test_stack_rank(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"Abort(1094799) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Other "
		"MPI error, error stack:\n"
		"MPIR_Init_thread(666)......: \n"
		"MPID_Init(922).............: \n"
		"MPIDI_NM_mpi_init_hook(719): OFI addrinfo() failed "
		"(ofi_init.h:719:MPIDI_NM_mpi_init_hook:No data available)\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_CONFIG, "ofi-no-provider2", NULL,
		      NULL);
	assert_int_equal(r.rank, 0);
	hlog_report_release(&r);
}

/* One failure told twice, once with its rank (mit-han-lab's K-Net#30 under Slurm): the rank
 * of srun's line is the cause's. */
static void test_sibling_rank(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"slurmstepd-gpu20-15: error: Detected 1 oom-kill event(s) in StepId=9411285.0. Some "
		"of your processes may have been killed by the cgroup out-of-memory handler.\n"
		"srun: error: gpu20-15: task 0: Out Of Memory\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_RESOURCE, "words:memory", NULL,
		      NULL);
	assert_int_equal(r.rank, 0);
	hlog_report_release(&r);
}

/* A line longer than the text kept of it (one paste of a traceback and NCCL's message,
 * aws-samples/awsome-distributed-training#192): the peer and its port past the cut are kept. */
static void test_long_line_peer(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", "
		"line 1906, in broadcast 10: work = default_pg.broadcast([tensor], opts) 10: "
		"torch.distributed.DistBackendError: NCCL error in: /opt/conda/conda-bld/"
		"pytorch_1696588393313/work/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, "
		"unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5 10: "
		"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
		"device error. 10: Last error: 10: socketStartConnect: Connect to 127.0.0.1<45069> "
		"failed : Software caused connection abort\n";
	/* the code alone names no kind; the address its last error names is still read */
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_UNRESOLVED, "ncclSystemError",
		      NULL, NULL);
	assert_string_equal(r.ip, "127.0.0.1");
	assert_int_equal(r.port, 45069);
	hlog_report_release(&r);
}

/* UCX over Open MPI (mlcommons/training_results_v3.5#5): the address handle's destination is
 * the peer's address, the InfiniBand port number no socket's port, and the rank whose
 * endpoint failed, two lines on, the peer rank. */
static void test_ucx_peer_rank_below(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"[1695144496.484294] [hpci5201:103648:0]       ib_device.c:1250 UCX  ERROR   "
		"ibv_create_ah(dlid=49152 sl=0 port=1 src_path_bits=0 dgid=::ffff:192.160.0.55 "
		"sgid_index=3 traffic_class=106) for UD verbs connect on bnxt_re0 failed: Connection "
		"timed out\n"
		"[hpci5201:103648] pml_ucx.c:419  Error: ucp_ep_create(proc=1) failed: Endpoint "
		"timeout\n"
		"[hpci5201:103648] pml_ucx.c:472  Error: Failed to resolve UCX endpoint for rank 1\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_NET, "words:connect-timeout",
		      NULL, NULL);
	assert_string_equal(r.ip, "192.160.0.55");
	assert_int_equal(r.port, -1);
	assert_int_equal(r.peer_rank, 1);
	hlog_report_release(&r);
}

/* An uncaught exception's what() line says why the process ended (PaddlePaddle/PaddleOCR
 * #13435): Gloo's pair timeout, not a crash; the rank the timed-out rank waited for is the
 * cause's, the one that reported it the peer's side of the line. */
static void test_what_line(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"terminate called after throwing an instance of 'gloo::TimeoutException'\n"
		"  what():  [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:587] TIMEOUT "
		"self_rank = 0 pair_rank = 1 peer_str = [172.16.32.105]:36265\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_RANK_STUCK, "words:timeout", NULL,
		      NULL);
	assert_int_equal(r.rank, 1);
	assert_string_equal(r.ip, "172.16.32.105");
	assert_int_equal(r.port, 36265);
	hlog_report_release(&r);
}

/* A line its writer logged as a warning yields to one logged as an error, whatever their
 * families' ranks (kvcache-ai/Mooncake#166's transfer-engine bench: glog's W line adjusts a
 * flag it calls invalid, the E line is the failure); among lines of one level the family's
 * rank decides, in either order. */
static void test_warning_yields(void **state)
{
	(void)state;
#define W_INVALID                                                                              \
	"W0331 10:52:07.700984 297905 transfer_engine_bench.cpp:410] Invalid flag: buffer size is " \
	"smaller than require_size, adjust to 68719476736\n"
#define E_TIMEOUT                                                                              \
	"E0331 10:52:26.144185 297911 rdma_endpoint.cpp:385] [Handshake] Failed to modify QP to "   \
	"RTR, check mtu, gid, peer lid, peer qp num: Connection timed out [110]\n"
	static const struct {
		const char *text;
		int cat;
		const char *detail;
	} t[] = {
		{W_INVALID E_TIMEOUT, HCAT_NET, "words:connect-timeout"},
		{E_TIMEOUT W_INVALID, HCAT_NET, "words:connect-timeout"},
		/* two warnings: the family's rank, as before */
		{"W0331 10:52:26.144185 297911 rdma_endpoint.cpp:385] connect: Connection timed out\n"
		 "W0331 10:52:07.700984 297905 transfer_engine_bench.cpp:410] Invalid flag: buffer "
		 "size is smaller than require_size\n",
		 HCAT_CONFIG, "words:invalid"},
	};
#undef W_INVALID
#undef E_TIMEOUT
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct hlog_report r;
		conclude_text(&r, "node0/stdout.txt", "node0", t[i].text, t[i].cat, t[i].detail, NULL,
			      NULL);
		hlog_report_release(&r);
	}
}

/* A log whose last line is still waiting stopped there: what it waited for never came
 * (tensorflow/tensorflow#12745, a master waiting on workers 12 and 17). A wait that the log
 * goes on past is no failure. */
static void test_ended_waiting(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char stopped[] =
		"I tensor flow/core/distributed_runtime/master.cc:193] CreateSession still waiting "
		"for response from worker: /job:worker/replica:0/task:12\n"
		"I tensor flow/core/distributed_runtime/master.cc:193] CreateSession still waiting "
		"for response from worker: /job:worker/replica:0/task:17\n";
	conclude_text(&r, "node0/stdout.txt", "node0", stopped, HCAT_RANK_STUCK, "words:hang", NULL,
		      NULL);
	hlog_report_release(&r);
	static const char went_on[] =
		"I tensor flow/core/distributed_runtime/master.cc:193] CreateSession still waiting "
		"for response from worker: /job:worker/replica:0/task:12\n"
		"I tensorflow/core/distributed_runtime/master_session.cc:1004] Start master session "
		"with config:\n";
	hlog_report_init(&r);
	add_text(&r, "node0/stdout.txt", "node0", went_on);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.errors, 0);
	hlog_report_release(&r);
}

/* Rust's anyhow chain (ai-dynamo/dynamo#1188): a failure under "Caused by:" is the head's,
 * and the peer the head names by host and port is the one refused. A "Caused by:" far from
 * any error line heads nothing. */
static void test_caused_by_chain(void **state)
{
	struct hlog_report r;
	(void)state;
	static const char log[] =
		"ERROR dynamo_runtime::worker: Application shutdown with error: Failed to connect to "
		"etcd server with config ClientOptions { etcd_url: [\"http://localhost:2379\"], "
		"etcd_connect_options: None, attach_lease: true }\n"
		"\n"
		"Caused by:\n"
		"    0: creating primary lease\n"
		"    1: grpc request error: status: Unavailable, message: \"tcp connect error: "
		"Connection refused (os error 111)\", details: [], metadata: MetadataMap { headers: "
		"{} }\n";
	conclude_text(&r, "node0/stdout.txt", "node0", log, HCAT_NET, "errno-refused", NULL, NULL);
	assert_string_equal(r.ip, "localhost");
	assert_int_equal(r.port, 2379);
	hlog_report_release(&r);
	static const char far[] =
		"ERROR worker: Failed to connect to etcd server at http://localhost:2379\n"
		"step 1\nstep 2\nstep 3\nstep 4\n"
		"Caused by:\n"
		"    0: tcp connect error: Connection refused (os error 111)\n";
	conclude_text(&r, "node0/stdout.txt", "node0", far, HCAT_NET, "errno-refused", NULL, NULL);
	assert_string_equal(r.ip, "");
	hlog_report_release(&r);
}

static void test_ei0006_nolog(void **state)
{
	struct hlog_report r;
	(void)state;
	load_chain(&r);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.kind, HLOG_SOCKET_TIMEOUT);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "never-connected");
	assert_int_equal(r.rank, 3);
	/* no log of rank 3: its node is not known (the waiters' node is not blamed) */
	assert_string_equal(r.node, "");
	assert_string_equal(r.ip, "192.168.10.4");
	assert_string_equal(r.cause,
			    "rank 3 (192.168.10.4) is the rank the others wait for, and no "
			    "log from it was found: it never started, or its log is missing; "
			    "the EI0006 socket timeouts on ranks 0,1,2 waiting for it are "
			    "consequences");
	hlog_report_release(&r);
}

static void test_ei0006_exited(void **state)
{
	struct hlog_report r;
	(void)state;
	load_chain(&r);
	add_text(
		&r, "n4/plog/plog-2004_1.log", "n4",
		"[INFO] HCCL(2004,python3):2026-01-06-15:38:30.100.203 [op_base.cc:1218] "
		"[2004]Entry-HcclAllReduce: tag[AllReduce_1], count[1024], dataType[float32], "
		"op[sum], localRank[3], streamId[5],comm[0x5581e2a0], deviceLogicId[0]\n"
		"[INFO] HCCL(2004,python3):2026-01-06-15:38:31.000.000 [x.cc:1] [2004]last line\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "timeout-elsewhere");
	assert_int_equal(r.rank, 3);
	assert_string_equal(r.node, "n4");
	assert_prefix(r.cause,
		      "rank 3 (node n4, 192.168.10.4) is the rank the others wait for: "
		      "its log ends at 15:38:31, before the first timeout at 15:40:50 (the "
		      "process exited or hung)");
	hlog_report_release(&r);

	/* present all along and silent: it never called the collective */
	load_chain(&r);
	add_text(&r, "n4/plog/plog-2004_1.log", "n4",
		 "[INFO] HCCL(2004,python3):2026-01-06-15:38:30.100.203 [op_base.cc:1218] "
		 "[2004]Entry-HcclBroadcast: tag[Broadcast_1], localRank[3]\n"
		 "[INFO] HCCL(2004,python3):2026-01-06-15:45:00.000.000 [x.cc:1] [2004]still "
		 "here\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "timeout-elsewhere");
	assert_string_equal(r.node, "n4");
	assert_prefix(r.cause, "rank 3 (node n4, 192.168.10.4) is the rank the others wait for: "
			       "its log shows no error: it did not call the same collective");
	hlog_report_release(&r);
}

static void test_chain_follow(void **state)
{
	struct hlog_report r;
	(void)state;
	/* ranks 0 and 1 wait for 2, which waits for 5: 5 is the root */
	hlog_report_init(&r);
	add_text(&r, "a.log", "n1",
		 "[ERROR] HCCL(1,p):2026-01-06-15:40:50.000.000 [m.cc:1] [1]   | 10.1.0.3(2) | "
		 "16666 | 10.1.0.1(0) | 1 | client | time out | DISABLE | LinkInfo\n");
	add_text(&r, "b.log", "n2",
		 "[ERROR] HCCL(2,p):2026-01-06-15:40:50.000.001 [m.cc:1] [2]   | 10.1.0.3(2) | "
		 "16666 | 10.1.0.2(1) | 1 | client | time out | DISABLE | LinkInfo\n");
	add_text(&r, "c.log", "n3",
		 "[ERROR] HCCL(3,p):2026-01-06-15:40:51.000.000 [m.cc:1] [3]   | 10.1.0.6(5) | "
		 "16666 | 10.1.0.3(2) | 1 | client | time out | DISABLE | LinkInfo\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.rank, 5);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "never-connected");
	assert_string_equal(r.ip, "10.1.0.6");
	assert_prefix(r.cause, "rank 5 (10.1.0.6) is the rank the others wait for, and no log");
	/* a cycle: 5 waits for 2 again; the rank most waited for stays */
	add_text(&r, "d.log", "n6",
		 "[ERROR] HCCL(6,p):2026-01-06-15:40:52.000.000 [m.cc:1] [6]   | 10.1.0.3(2) | "
		 "16666 | 10.1.0.6(5) | 1 | client | time out | DISABLE | LinkInfo\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.rank, 2);
	assert_int_equal(r.cat, HCAT_OP_MISMATCH);
	assert_string_equal(r.detail, "wait-cycle");
	assert_string_equal(r.node, "n3");
	assert_prefix(r.cause, "rank 2 (node n3, 10.1.0.3) is the rank the others wait for, and it "
			       "waits for rank 5 in turn");
	assert_contains(r.cause, " in turn: the ranks wait on each other");
	assert_contains(r.cause, "the EI0006 socket timeouts on ranks 0,1,5 waiting for it are "
				 "consequences");
	hlog_report_release(&r);
}

static void test_heartbeat(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "heartbeat", &r);
	assert_int_equal(r.nfile, 7);
	assert_int_equal(r.kind, HLOG_HEARTBEAT_LOST);
	assert_int_equal(r.rank, 2);
	assert_string_equal(r.node, "n3");
	assert_string_equal(r.ip, "10.0.0.3");
	assert_string_equal(r.cause,
			    "rank 2 (node n3, 10.0.0.3 device 0) stopped answering: "
			    "heartbeat lost reported by 3 ranks; the EI0002 notify timeouts "
			    "on ranks 0,1,3 waiting for it are consequences");
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "heartbeat-lost");
	assert_int_equal(r.dev, 0);
	assert_contains(r.fix, "dmesg");
	assert_contains(r.fix, "hccn_tool -i DEV -link -g");
	assert_contains(r.fix, "HCCL_EXEC_TIMEOUT");
	assert_string_equal(r.first->file, "n1/plog/plog-3001_20260106153829881.log");
	assert_int_equal(r.first->line, 8);
	const struct hlog_event *e = r.first;
	assert_string_equal(e->peer_ip, "10.0.0.3");
	assert_int_equal(e->peer_dev, 0);
	assert_string_equal(e->ip, "10.0.0.1"); /* Discoverer */
	assert_int_equal(e->dev, 0);
	/* EI0002's remote rank; the wrapped line after it takes its time and pid */
	e = event_at(&r, "n4/train.log", 1);
	assert_int_equal(e->kind, HLOG_NOTIFY_TIMEOUT);
	assert_int_equal(e->peer_rank, 2);
	assert_int_equal(e->pid, 3004);
	const struct hlog_event *w = event_at(&r, "n4/train.log", 3);
	assert_int_equal(w->kind, HLOG_HEARTBEAT_LOST);
	assert_int_equal(w->t_us, e->t_us);
	assert_int_equal(w->pid, 3004);
	/* the job log of pid 3004 on n4 is rank 3's */
	for (size_t i = 0; i < r.nfile; i++)
		if (!strcmp(r.file[i].name, "n4/train.log"))
			assert_int_equal(r.file[i].rank, 3);
	hlog_report_release(&r);
}

static void test_cqe(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "cqe", &r);
	assert_int_equal(r.kind, HLOG_ERROR_CQE);
	assert_string_equal(r.node, "n1");
	assert_int_equal(r.rank, 0);
	assert_string_equal(r.ip, "192.168.10.1");
	assert_string_equal(r.peer_ip, "192.168.10.2");
	assert_string_equal(r.cause,
			    "the RoCE link 192.168.10.1 (node n1, rank 0) -> 192.168.10.2 "
			    "failed: error CQE status 12 (retransmit timeout) reported by 1 "
			    "rank; the EI0002 notify timeouts on rank 1 are consequences");
	assert_int_equal(r.cat, HCAT_LINK_DOWN);
	assert_string_equal(r.detail, "error-cqe");
	assert_int_equal(r.dev, 0);
	assert_contains(r.fix, "hccn_tool -i DEV -link_stat -g");
	assert_contains(r.fix, "-optical -g");
	assert_contains(r.fix, "-fec -g");
	assert_contains(r.fix, "HCCL_RDMA_RETRY_CNT");
	assert_int_equal(r.first->line, 7);
	assert_int_equal(r.first->value, 12);
	/* the ROCE device log's hex status */
	const struct hlog_event *e =
		event_at(&r, "n1/device-0/device-4001_20260106153829881.log", 1);
	assert_int_equal(e->kind, HLOG_ERROR_CQE);
	assert_int_equal(e->value, 0x15);
	hlog_report_release(&r);
}

static void test_mismatch(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "mismatch", &r);
	assert_int_equal(r.kind, HLOG_MISMATCH);
	assert_int_equal(r.rank, 0);
	assert_int_equal(r.peer_rank, 1);
	assert_string_equal(r.node, "n1");
	assert_string_equal(r.cause,
			    "collective mismatch between rank 0 (node n1) and rank 1 (node "
			    "n2): parameter count, local end 16512, remote end 8320");
	assert_int_equal(r.cat, HCAT_OP_MISMATCH);
	assert_string_equal(r.detail, "arguments-differ");
	assert_prefix(r.fix, "fix the script so that every rank calls the same collectives in the "
			     "same order");
	assert_string_equal(r.first->file, "n1/plog/plog-5001_20260106153829881.log");
	/* rank 1's own lines are the other finding */
	assert_int_equal(r.nfindings, 1);
	assert_int_equal(r.findings[0].cat, HCAT_OP_MISMATCH);
	assert_string_equal(r.findings[0].node, "n2");
	assert_string_equal(r.findings[0].message, "mismatch");
	assert_int_equal(r.findings[0].count, 2);
	assert_string_equal(r.findings[0].at.file, "n2/plog/plog-5002_20260106153829881.log");
	assert_int_equal(r.findings[0].at.line, 7);
	hlog_report_release(&r);
}

static void test_tls(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "tls", &r);
	assert_int_equal(r.kind, HLOG_TLS);
	assert_string_equal(r.node, "n1");
	assert_int_equal(r.rank, -1); /* two against two */
	assert_string_equal(r.cause,
			    "TLS switch differs between NPUs (reported on node n1): enabled "
			    "on ranks 0,1, disabled on ranks 2,3");
	assert_int_equal(r.cat, HCAT_CONFIG);
	assert_string_equal(r.detail, "tls");
	assert_contains(r.fix, "hccn_tool -i $i -tls -g | grep switch");
	assert_contains(r.fix, "hccn_tool -i N -tls -s enable");
	hlog_report_release(&r);

	/* only the device logs: TLS SWITCH (1) on two NPUs, (0) on one */
	hlog_report_init(&r);
	add_text(&r, "n1/device-0/d.log", "n1", "rs_ssl_init(1529) : TLS SWITCH (1)\n");
	add_text(&r, "n1/device-1/d.log", "n1", "rs_ssl_init(1529) : TLS SWITCH (1)\n");
	add_text(&r, "n2/device-0/d.log", "n2", "rs_ssl_init(1529) : TLS SWITCH (0)\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.kind, HLOG_TLS);
	assert_int_equal(r.cat, HCAT_CONFIG);
	assert_string_equal(r.detail, "tls");
	assert_string_equal(r.node, "n2");
	assert_string_equal(r.cause, "TLS switch differs between NPUs: an unknown rank (node n2) "
				     "logs TLS SWITCH (0), the others (1)");
	hlog_report_release(&r);

	/* rank-table mode: LINK_ERROR_INFO rows whose TlsStatus differ */
	hlog_report_init(&r);
	add_text(&r, "a.log", "n1",
		 "[ERROR] HCCL(1,p):2026-01-06-15:40:50.000.000 [m.cc:1] [1]   | 10.1.0.2(1) | "
		 "16666 | 10.1.0.1(0) | 1 | client | time out | ENABLE | LinkInfo\n");
	add_text(&r, "b.log", "n2",
		 "[ERROR] HCCL(2,p):2026-01-06-15:40:50.000.001 [m.cc:1] [2]   | 10.1.0.1(0) | "
		 "16666 | 10.1.0.2(1) | 1 | server | time out | DISABLE | LinkInfo\n"
		 "[ERROR] HCCL(2,p):2026-01-06-15:40:50.000.001 [m.cc:1] [2]   | 10.1.0.3(2) | "
		 "16666 | 10.1.0.2(1) | 1 | client | time out | DISABLE | LinkInfo\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.kind, HLOG_TLS);
	assert_int_equal(r.cat, HCAT_CONFIG);
	assert_string_equal(r.detail, "tls");
	assert_int_equal(r.rank, 0);
	assert_string_equal(r.node, "n1");
	assert_prefix(r.cause, "TLS switch differs between NPUs: rank 0 (node n1, 10.1.0.1) has "
			       "TlsStatus ENABLE, its peers DISABLE; the EI0006 socket timeouts on "
			       "ranks 0,1 are consequences");
	hlog_report_release(&r);
}

static void test_clean(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "clean", &r);
	assert_int_equal(r.kind, HLOG_NONE);
	assert_int_equal(r.nev, 4); /* Entry- lines only */
	assert_int_equal(r.rank, -1);
	assert_string_equal(r.node, "");
	assert_null(r.first);
	assert_int_equal(r.cat, HCAT_NONE);
	assert_string_equal(r.detail, "");
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.nunk, 0);
	assert_int_equal(r.nevidence, 0);
	assert_int_equal(r.nfindings, 0);
	assert_string_equal(r.cause, "no error in 14 lines of 2 files");
	assert_string_equal(r.fix, "");
	hlog_report_release(&r);

	/* nothing at all */
	hlog_report_init(&r);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.kind, HLOG_NONE);
	assert_int_equal(r.cat, HCAT_NONE);
	assert_string_equal(r.detail, "");
	assert_string_equal(r.cause, "no error in 0 lines of 0 files");
	hlog_report_release(&r);

	/* glog INFO and WARNING lines are no errors, whatever words they have */
	conclude_text(&r, "stdout.txt", "node0",
		      "I20251111 12:28:58.490254 215011 worker_server.cpp:72] retry after failed "
		      "connect\n"
		      "W20251111 12:28:58.490299 215011 worker_server.cpp:80] slow start\n",
		      HCAT_NONE, "", NULL, NULL);
	assert_int_equal(r.errors, 0);
	assert_string_equal(r.cause, "no error in 2 lines of 1 file");
	hlog_report_release(&r);
}

static void test_garbage(void **state)
{
	struct hlog_report r;
	(void)state;
	scan(DATA "garbage", &r);
	/* read: n2 (CRLF), n3's notes.txt (any name is read) and plog (truncated last line),
	 * x.log; skipped: the binary file and the symlink */
	assert_int_equal(r.nfile, 4);
	assert_int_equal(r.lines, 16);
	assert_int_equal(r.skipped, 2);
	assert_int_equal(r.skip[HLOG_SKIP_BINARY], 1);
	assert_int_equal(r.skip[HLOG_SKIP_SPECIAL], 1);
	assert_int_equal(r.skip[HLOG_SKIP_UNREADABLE], 0);
	assert_int_equal(r.skip[HLOG_SKIP_GZIP], 0);
	assert_int_equal(r.skip[HLOG_SKIP_LIMIT], 0);
	assert_string_equal(r.file[0].name, "n2/plog/plog-8002_20260106153829881.log");
	assert_string_equal(r.file[1].name, "n3/plog/notes.txt");
	assert_string_equal(r.file[1].node, "n3");
	assert_string_equal(r.file[2].name, "n3/plog/plog-8003_20260106153829881.log");
	assert_string_equal(r.file[3].name, "x.log");
	/* no node folder and no server named in it */
	assert_string_equal(r.file[3].node, "node0");
	assert_int_equal(event_at(&r, "n3/plog/notes.txt", 1)->kind, HLOG_SOCKET_TIMEOUT);
	/* "[ERROR] just text at the top level" is an error no rule explains */
	assert_int_equal(r.nunk, 1);
	assert_string_equal(r.unk[0].file, "x.log");
	assert_int_equal(r.unk[0].line, 1);
	assert_string_equal(r.unk[0].node, "node0");
	assert_string_equal(r.unk[0].text, "[ERROR] just text at the top level");
	assert_int_equal(r.kind, HLOG_HEARTBEAT_STUCK);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "heartbeat-stuck");
	assert_int_equal(r.dev, 3);
	assert_string_equal(r.ip, "10.0.0.5");
	assert_int_equal(r.rank, -1);
	assert_string_equal(r.cause,
			    "10.0.0.5 device 3 hung: heartbeat stuck reported by 1 rank; the "
			    "EI0006 socket timeouts on rank 7 waiting for it are "
			    "consequences");
	assert_contains(r.fix, "py-spy dump --pid PID");
	assert_contains(r.fix, "HCCL_EXEC_TIMEOUT");
	/* CRLF: no '\r' kept */
	assert_null(strchr(r.first->text, '\r'));
	assert_null(strchr(r.first->text, '?'));
	/* the truncated row still names both ends */
	const struct hlog_event *e = event_at(&r, "n3/plog/plog-8003_20260106153829881.log", 7);
	assert_int_equal(e->rank, 7);
	assert_int_equal(e->peer_rank, 3);
	assert_int_equal(e->value, -1); /* no TlsStatus column */
	hlog_report_release(&r);
}

static void test_buf_edges(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_buf(NULL, NULL, "", 0, &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(hlog_scan_buf("x", NULL, NULL, 1, &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(hlog_scan_buf("x", NULL, NULL, 0, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nfile, 1);

	/* a 100 KB line: the signature at its start is read, one past 64 KiB is not */
	size_t big = 100000;
	char *b = malloc(big + 1);
	assert_non_null(b);
	memset(b, 'x', big);
	memcpy(b, "EI0006: Getting socket times out\x01", 33);
	memcpy(b + 70000, "EI0002", 6);
	assert_int_equal(hlog_scan_buf("long.log", "n9", b, big, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nev, 1);
	assert_int_equal(r.ev[0].kind, HLOG_SOCKET_TIMEOUT);
	assert_int_equal(strlen(r.ev[0].text), HLOG_TEXTLEN - 1);
	assert_int_equal(r.ev[0].text[32], '?'); /* the control byte */
	assert_int_equal(r.truncated, 1);
	/* a NUL past the first 4 KiB does not make a file binary */
	memset(b, 'y', big);
	memcpy(b + 5000, "\nEI0006\0 x\n", 11);
	assert_int_equal(hlog_scan_buf("nul.log", "n9", b, 6000, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nev, 2);
	assert_int_equal(r.skipped, 0);
	/* one in the first 4 KiB does */
	assert_int_equal(hlog_scan_buf("bin.log", "n9", "EI0006\0", 7, &r, err, sizeof(err)), 0);
	assert_int_equal(r.skipped, 1);
	assert_int_equal(r.skip[HLOG_SKIP_BINARY], 1);
	assert_int_equal(r.nfile, 3);
	assert_int_equal(r.nev, 2);
	free(b);
	hlog_report_release(&r);

	/* the event cap */
	size_t n = HLOG_MAX_EVENTS + 10, len = n * 7;
	b = malloc(len);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++)
		memcpy(b + i * 7, "EI0006\n", 7);
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_buf("many.log", "", b, len, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nev, HLOG_MAX_EVENTS);
	assert_int_equal(r.dropped, 10);
	assert_int_equal(r.lines, n);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.kind, HLOG_SOCKET_TIMEOUT);
	assert_int_equal(r.cat, HCAT_UNRESOLVED);
	assert_string_equal(r.detail, "no-peer");
	/* no node folder, no server named: the one node is "node0" */
	assert_string_equal(r.node, "node0");
	assert_string_equal(r.file[0].node, "node0");
	assert_string_equal(r.cause, "an EI0006 socket timeout on node node0 names no peer, and "
				     "nothing else in the logs says why");
	assert_contains(r.fix, "hccn_tool -i DEV -ping -g");
	free(b);
	hlog_report_release(&r);
}

static void test_config_kinds(void **state)
{
	static const struct {
		const char *line;
		int kind, cat;
		const char *detail, *ip, *cause, *fix;
		const char *node; /* NULL: n1 */
		long long port;
	} cases[] = {
		{"[ERROR] HCCL(1009464,all_reduce_test):2025-03-15-00:41:48.470.172 "
		 "[hccl_socket.cc:110] "
		 "[1009464][InitGroupStage][RanktableDetect] socket type[0], listen on "
		 "ip[192.168.2.199] and specific port[16666] fail. Please check the port status "
		 "and "
		 "whether the port is being used by other process.",
		 HLOG_PORT_BOUND, HCAT_CONFIG, "port-bound", "192.168.2.199",
		 "port 16666 on 192.168.2.199 (node n1, NPU side) cannot be listened on: another "
		 "process holds it",
		 "HCCL_NPU_SOCKET_PORT_RANGE", NULL, 16666},
		{"EJ0001: Failed to initialize the HCCP process. Reason: Maybe the last training "
		 "process is running. Solution: Wait for 10s after killing the last training "
		 "process "
		 "and try again.",
		 HLOG_NPU_BUSY, HCAT_RESOURCE, "npu-busy", "",
		 "NPU busy on node n1: HCCP could not start on it (EJ0001)",
		 "fuser -v /dev/davinci*", NULL, -1},
		{"[ERROR] HCCP(77,python3):2026-01-06-15:38:29.000.001 [ra_rdev.c:90] "
		 "ra_rdev_init_check_ip(90) : [check][ip]fail, ip(192.168.100.7) is inconsistent "
		 "with "
		 "the IP address(192.168.100.9) of the network adapter",
		 HLOG_DEVICE_IP, HCAT_CONFIG, "device-ip", "192.168.100.7",
		 "device_ip in the rank table differs from the NPU NIC's IP on node n1 "
		 "(192.168.100.7 vs NIC 192.168.100.9)",
		 "hccn_tool -i PHY_ID -ip -g", NULL, -1},
		{"[ERROR] HCCP(77,python3):2026-01-06-15:38:29.000.001 [ra_hdc.c:1] ra hdc message "
		 "process failed ret(-67)",
		 HLOG_LINK_DOWN, HCAT_LINK_DOWN, "nic-down", "",
		 "an NPU NIC is down on node n1: ra hdc message process failed",
		 "hccn_tool -i DEV -link -g", NULL, -1},
		/* a host NIC's port state, as iproute2's rdma tool and ibv_devinfo print it: no
		 * error word, the state says it */
		{"link mlx5_2/1 subnet_prefix fe80:0000:0000:0000 lid 17 sm_lid 1 lmc 0 state DOWN "
		 "physical_state DISABLED",
		 HLOG_LINK_DOWN, HCAT_LINK_DOWN, "rdma-port-error", "",
		 "an RDMA NIC port went down on node n1 (mlx5_2): link mlx5_2/1", "ibv_devinfo", NULL, -1},
		{"\t\t\tstate:\t\t\tPORT_DOWN (1)", HLOG_LINK_DOWN, HCAT_LINK_DOWN,
		 "rdma-port-error", "", "an RDMA NIC port went down on node n1", "ibv_devinfo", NULL,
		 -1},
		/* ibstat's port block (microsoft/mscclpp#493: mlx5_1 "State: Down", "Physical state:
		 * Disabled") */
		{"\t\tState: Down", HLOG_LINK_DOWN, HCAT_LINK_DOWN, "rdma-port-error", "",
		 "an RDMA NIC port went down on node n1: State: Down", "ibstat", NULL, -1},
		{"EI0015: No rank in the communicator can connect to the root node within the "
		 "timeout "
		 "period. List of unconnected ranks: \"[1,5,]\"",
		 HLOG_ROOT_TIMEOUT, HCAT_RANK_STUCK, "never-connected", "",
		 "ranks 1,5 never connected to the root (node n1)", "HCCL_CONNECT_TIMEOUT", "",
		 -1}, /* the node of rank 1 is not known */
		{"[ERROR] HCCL(5,p):2026-01-06-15:38:29.000.001 [topoinfo_exchange_agent.cc:1] [5]"
		 "TopoExchangeAgent: connect server[127.10.0.1 : 60000] failed",
		 HLOG_ROOT_TIMEOUT, HCAT_NET, "root-unreachable", "127.10.0.1",
		 "node n1 cannot reach the root 127.10.0.1:60000 (its connection timed out)",
		 "HCCL_SOCKET_IFNAME", NULL, 60000},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hlog_report r;
		conclude_text(&r, "n1/plog/p.log", "n1", cases[i].line, cases[i].cat,
			      cases[i].detail, cases[i].cause, cases[i].fix);
		assert_int_equal(r.kind, cases[i].kind);
		assert_string_equal(r.ip, cases[i].ip);
		assert_string_equal(r.node, cases[i].node ? cases[i].node : "n1");
		assert_int_equal(r.port, cases[i].port);
		assert_non_null(r.first);
		assert_int_equal(r.nevidence, 1);
		assert_int_equal(r.evidence[0].line, 1);
		assert_string_equal(r.evidence[0].file, "n1/plog/p.log");
		hlog_report_release(&r);
	}
}

/* The root is the node of the server's lines, not of an agent's list of the ranks that never
 * came (the hiascend HCCL guide's EI0015 page: the server on one node, an agent on another);
 * with no log of the missing ranks, the verdict starts at the root's node. */
static void test_root_node_from_server(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add_text(&r, "n0/plog/s.log", "n0",
		 "[ERROR] HCCL(1041081,all_reduce_test):2000-03-15-01:20:01.624.966 "
		 "[topoinfo_exchange_server.cc:314] [1041362][InitGroupStage][RanktableDetect]topo "
		 "exchange server get socket timeout! timeout[120 s]\n"
		 "[ERROR] HCCL(1041081,all_reduce_test):2000-03-15-01:20:01.625.145 "
		 "[topoinfo_exchange_server.cc:517] [1041362][InitGroupStage][DisplayConnectionedRank]"
		 "connected rankinfo[LINE 0]: [0000000000000000],[0000000000000002],"
		 "[0000000000000004],[0000000000000006];\n");
	add_text(&r, "n1/plog/a.log", "n1",
		 "[ERROR] HCCL(1041085,all_reduce_test):2000-03-15-01:20:01.630.122 "
		 "[topoinfo_exchange_base.cc:145] [1041085][InitGroupStage][RanktableDetect] "
		 "TopoDetect ERROR occur !!! fault_type[1], fault_info[\"Failed to connect "
		 "agent[1,3,5,7,]\"]\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_string_equal(r.detail, "never-connected");
	assert_int_equal(r.rank, 1);
	assert_string_equal(r.node, "n0");
	assert_non_null(strstr(r.cause, "ranks 1,3,5,7 never connected to the root (node n0)"));
	hlog_report_release(&r);
}

/* A watchdog that died of another exception than a timeout (pytorch/pytorch#113128: "...
 * watchdog thread terminated with exception: CUDA error: uncorrectable ECC error
 * encountered") is that exception's failure, not a collective timeout nothing explains. */
static void test_watchdog_other_exception(void **state)
{
	struct hlog_report r;
	(void)state;
	conclude_text(&r, "n1/job.log", "n1",
		      "[default0]:[rank12]:[E817 17:40:34.227531918 ProcessGroupNCCL.cpp:1515] [PG 0 "
		      "(default_pg) Rank 12] Process group watchdog thread terminated with exception: "
		      "CUDA error: uncorrectable ECC error encountered\n",
		      HCAT_HARDWARE, "words:hardware", "a device reported a hardware fault on node n1",
		      NULL);
	assert_int_equal(r.rank, 12);
	hlog_report_release(&r);
}

static void test_earliest_wins(void **state)
{
	struct hlog_report r;
	(void)state;
	/* EJ0001 at init explains the later heartbeat loss */
	hlog_report_init(&r);
	add_text(
		&r, "n2/plog/p.log", "n2",
		"[ERROR]HCCL(9,p):2026-01-06-16:00:00.000.000[task_exception_handler.cc:610][9]"
		"[TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[10.0.0.7/1], "
		"Arrival Time:[Tue Jan  6 15:59:58 2026], Discoverer:[10.0.0.2/0], "
		"ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, "
		"2. "
		"Network Disconnected\n");
	add_text(&r, "n7/plog/p.log", "n7",
		 "[ERROR] TSDCLIENT(8,p):2026-01-06-15:38:00.000.000 [tsd.cc:1] [8]tsd client wait "
		 "response fail, device response code[1]\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.kind, HLOG_NPU_BUSY);
	assert_int_equal(r.cat, HCAT_RESOURCE);
	assert_string_equal(r.detail, "npu-busy");
	assert_string_equal(r.node, "n7");
	assert_int_equal(r.first->pid, 8);
	hlog_report_release(&r);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(hlog_kind_name(HLOG_NONE), "none");
	assert_string_equal(hlog_kind_name(HLOG_SOCKET_TIMEOUT), "socket-timeout");
	assert_string_equal(hlog_kind_name(HLOG_HEARTBEAT_LOST), "heartbeat-lost");
	assert_string_equal(hlog_kind_name(HLOG_ERROR_CQE), "error-cqe");
	assert_string_equal(hlog_kind_name(HLOG_NKINDS), "?");
	assert_string_equal(hlog_kind_name(-1), "?");
	for (int k = 0; k < HLOG_NKINDS; k++)
		assert_string_not_equal(hlog_kind_name(k), "?");
	assert_string_equal(hlog_skip_name(HLOG_SKIP_BINARY), "binary");
	assert_string_equal(hlog_skip_name(HLOG_SKIP_GZIP), "bad gzip");
	assert_string_equal(hlog_skip_name(HLOG_NSKIP), "?");
	assert_string_equal(hlog_skip_name(-1), "?");
	for (int k = 0; k < HLOG_NSKIP; k++)
		assert_string_not_equal(hlog_skip_name(k), "?");
}

static void test_dir_errors(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_dir(DATA "no-such-dir", &r, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot read '" DATA "no-such-dir': No such file or directory");
	assert_int_equal(hlog_scan_dir(DATA "README", &r, err, sizeof(err)), -ENOTDIR);
	assert_string_equal(err, "'" DATA "README' is not a directory");
	hlog_report_release(&r);
}

/* An indented error under a line that is no error is no part of an explained block: it is
 * kept as unexplained and the log does not pass; under a recognised error it is that error's
 * trace. */
static void test_indented_errors(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add_text(&r, "a.txt", "n1", "hello\n  ERROR: boom\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nunk, 1);
	assert_int_equal(r.unk[0].line, 2);
	assert_int_equal(r.cat, HCAT_UNRESOLVED);
	assert_string_equal(r.cause, "unclassified error line at a.txt:2: ERROR: boom");
	hlog_report_release(&r);
	hlog_report_init(&r);
	add_text(&r, "b.txt", "n1",
		 "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process.\n"
		 "        TraceBack (most recent call last):\n"
		 "        ERROR: something below it\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.nunk, 0);
	assert_int_equal(r.cat, HCAT_RESOURCE);
	hlog_report_release(&r);
}

/* a code that only says a wait timed out is told in its own meaning, naming no sender */
static void test_code_wait(void **state)
{
	(void)state;
	struct hlog_report r;
	hlog_report_init(&r);
	add_text(&r, "stdout.txt", "node0",
		 "EE1002: 2024-09-03-16:50:00.041.231 Stream synchronize timeout. "
		 "rtDeviceSynchronize execute failed, reason=[stream sync timeout]\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.cause, "EE1002 on node node0: waiting for a stream to finish timed "
				     "out; the cause is on what it waited for (which the log does "
				     "not name)");
	hlog_report_release(&r);
}

static void test_times(void **state)
{
	struct hlog_report r;
	(void)state;
	hlog_report_init(&r);
	add_text(&r, "t.log", "",
		 "[ERROR] HCCL(1,p):1970-01-01-00:00:01.000.002 [a.cc:1] EI0006\n"
		 "[ERROR] HCCL(2,p):2026-13-01-00:00:00.000.000 [a.cc:1] EI0006\n"
		 "[ERROR] HCCL(3,p):2024-02-29-23:59:59.999.999 [a.cc:1] EI0006\n");
	assert_int_equal(r.nev, 3);
	assert_int_equal(r.ev[0].t_us, 1000002);
	assert_int_equal(r.ev[1].t_us, 1000002); /* month 13: no time of its own */
	assert_int_equal(r.ev[1].pid, 2);
	assert_int_equal(r.ev[2].t_us, 1709251199999999LL);
	hlog_report_release(&r);
}

/* Line families of other launchers and layers (glog CHECKs of a serving engine, torch's store
 * bootstrap, a stream's event wait, a runtime feature code): the kind, the culprit and the
 * cause, with numbers and wording other than the real cases under tests/data/real-logs. */
static void test_other_families(void **state)
{
	static const struct {
		const char *text;
		int cat;
		const char *detail;
		int rank, dev;
		const char *cause, *fix;
	} cases[] = {
		{"I0312 08:00:01.000001 77 worker.cpp:12] Create worker with device: 3\n"
		 "E0312 08:00:02.123456 78 comm.cpp:41] Check failed: HcclCommInitRootInfo(n, &id, "
		 "r, &c) == HCCL_SUCCESS (11 vs. 0) HCCL comm init rank failed.\n",
		 HCAT_NET, "result-code", -1, -1,
		 "HCCL comm init rank failed on node n1, with HCCL_E_TCP_CONNECT (11)", "plog"},
		{"[3] is setting up HCCL communicator and retrieving hcclUniqueId from [2] via "
		 "c10d "
		 "key-value store by key '1', but store->get('1') got error: Timeout\n"
		 "RuntimeError: [5] is setting up HCCL communicator and retrieving hcclUniqueId "
		 "from "
		 "[2] via c10d key-value store by key '1', but store->get('1') got error: "
		 "Timeout\n",
		 HCAT_RANK_STUCK, "root-late", 2, -1,
		 "rank 2 did not publish the communicator id in time: rank 3 (node n1) and 1 more "
		 "timed out waiting for it",
		 "init_process_group timeout="},
		/* any error of the store's get, not only its timeout, says the root did not
		 * publish: its store (in the root's process) went away */
		{"RuntimeError: [6] is setting up NCCL communicator and retrieving ncclUniqueId "
		 "from [1] via c10d key-value store by key '3', but store->get('3') got error: "
		 "Connection reset by peer\n",
		 HCAT_RANK_STUCK, "root-late", 1, -1,
		 "rank 1 did not publish the communicator id in time: rank 6 (node n1)",
		 "init_process_group timeout="},
		/* torch 1.x spelt the verb "retreiving": the same wait */
		{"RuntimeError: [4] is setting up NCCL communicator and retreiving ncclUniqueId "
		 "from [0] via c10d key-value store by key '0', but store->get('0') got error: "
		 "Socket Timeout\n",
		 HCAT_RANK_STUCK, "root-late", 0, -1,
		 "rank 0 did not publish the communicator id in time: rank 4 (node n1)",
		 "init_process_group timeout="},
		/* a rank the line names as its own, under a header that names none */
		{"[PID: 9] 2026-01-16-04:52:41.266.655 Allocation_Failure(EI0007): Failed to "
		 "allocate resource[qp] with info [aicpu rank:5,localUserrank:5,localIpAddr: "
		 "10.0.0.5,deviceLogicId:2,send_cq_depth:1024]. Reason: Memory resources are "
		 "exhausted.\n",
		 HCAT_RESOURCE, "oom", 5, 2, "EI0007 on node n1", NULL},
		{"EE9999 The error from device(chipId:5, dieId:0), serial number is 2, event wait "
		 "timeout occurred during task execution, stream_id:9, sq_id:9, task_id:1, "
		 "event_id=2, timeout=600.\n",
		 HCAT_RANK_STUCK, "timeout-elsewhere", -1, 5,
		 "EE9999 on node n1, device 5: a device stream waited on an event past its limit",
		 "HCCL_EXEC_TIMEOUT"},
		{"EH9999: [PID: 9] 2025-01-02-03:04:05.000.006 rtSetTaskFailCallback failed, "
		 "runtime "
		 "result = 207000.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n",
		 HCAT_VERSION, "feature-unsupported", -1, -1,
		 "EH9999 on node n1: The runtime refused a call as a feature", "npu-smi info"},
		/* the later wording puts the rank table's address first, the NIC's after
		 * "inconsistent with" */
		{"[ERROR] HCCP(5,python):2025-01-21-16:59:39.962.565 [ra_host.c:480]tid:6,"
		 "ra_rdev_init_check_ip(480) : [check][ip]fail, ret(129) the IP address(10.0.0.5) "
		 "in "
		 "the ranktable is inconsistent with the IP address(10.0.0.6) of the network "
		 "adapter, "
		 "please make sure they're consistent. num(2)\n",
		 HCAT_CONFIG, "device-ip", -1, -1,
		 "device_ip in the rank table differs from the NPU NIC's IP on node n1 (10.0.0.5 "
		 "vs "
		 "NIC 10.0.0.6)",
		 "hccn_tool"},
		/* the root's list with either spelling of its tag, and the count it needed: the
		 * ranks above the highest that connected are missing too */
		{"[ERROR] HCCL(1,p):2025-11-21-01:20:01.625.103 [s.cc:501] [2][InitGroupStage]"
		 "[DisplayConnectionedRank]total connected num is [3],line num is [1]\n"
		 "[ERROR] HCCL(1,p):2025-11-21-01:20:01.625.112 [s.cc:503] [2][InitGroupStage]"
		 "[DisplayConnectionedRank]need connect rankNum is [6]\n"
		 "[ERROR] HCCL(1,p):2025-11-21-01:20:01.625.145 [s.cc:517] [2][InitGroupStage]"
		 "[DisplayConnectionedRank]connected rankinfo[LINE 0]: [0000000000000000],"
		 "[0000000000000001],[0000000000000002];\n",
		 HCAT_RANK_STUCK, "never-connected", 3, -1,
		 "ranks 3,4,5 never connected to the root (node n1; 3 ranks did)",
		 "HCCL_CONNECT_TIMEOUT"},
		{"[ERROR] HCCL(7,p):2025-10-23-16:28:59.392.635 [t.cc:695] [7][InitGroupStage]"
		 "[RanktableCheck]devices have same superDeviceId[0x1000000] in superPod[sp_3]. "
		 "Current device info: serverId[10.1.1.1], rankId[4], group[hccl_world_group]. "
		 "Another device info: rankId[9].\n",
		 HCAT_CONFIG, "super-device-id", 4, -1,
		 "super-device-id on node n1, rank 4 and rank 9: Two devices of one SuperPoD "
		 "report the same superDeviceId",
		 "HCCL_LOGIC_SUPERPOD_ID"},
		{"[ERROR] HCCL(5,t):2026-02-05-18:44:26.379.547 [transport_manager.cc:885] [6]"
		 "[TransportManager][PrintErrorInfo]local rank information: nicType[VNIC_TYPE], "
		 "logicSuperPodId[lp_2], phySuperPodId[3]. Note: Do not configure ranks belonging "
		 "to different physical superpod ID info a single logical superpod ID\n",
		 HCAT_CONFIG, "logic-superpod", -1, -1,
		 "logic-superpod on node n1: Ranks of different physical SuperPoDs were put in one "
		 "logical SuperPoD",
		 "HCCL_LOGIC_SUPERPOD_ID"},
		/* torch's collective check, NCCL's own and its receiver's size check */
		{"[rank3]: RuntimeError: Detected mismatch between collectives on ranks. Rank 3 is "
		 "running collective: CollectiveFingerPrint(SequenceNumber=12, OpType=BROADCAST, "
		 "TensorShape=[8], TensorDtypes=Float), but Rank 5 is running collective: "
		 "CollectiveFingerPrint(SequenceNumber=12, OpType=ALLREDUCE, TensorShape=[8], "
		 "TensorDtypes=Float).Collectives differ in the following aspects:   Op type: "
		 "BROADCASTvs ALLREDUCE\n",
		 HCAT_OP_MISMATCH, "arguments-differ", 3, -1,
		 "collective mismatch between rank 3 (node n1) and rank 5: differ in the following "
		 "aspects:",
		 "same collectives in the same order"},
		{"h1:11:12 [0] init.cc:1247 NCCL WARN Mismatched collective detected, please check "
		 "your collective calls at and around rank 6. You can use NCCL_DEBUG=INFO\n",
		 HCAT_OP_MISMATCH, "arguments-differ", 6, -1,
		 "collective mismatch between rank 6 (node n1) and its peer: around rank 6", NULL},
		{"h1:11:12 [0] transport/net_ib.cc:1038 NCCL WARN NET/IB : req 0/1 tag 0 peer "
		 "10.2.0.7<41000> collective mismatch error, local size 1024 remote size 512\n",
		 HCAT_OP_MISMATCH, "arguments-differ", -1, -1,
		 "collective mismatch between node n1 and its peer 10.2.0.7: local size 1024 remote "
		 "size 512",
		 NULL},
		/* a host RDMA port event, and torch's store client that cannot reach the store */
		{"h1:11:12 [2] NCCL WARN NET/IB : Got async event : port error\n", HCAT_LINK_DOWN,
		 "rdma-port-error", -1, -1,
		 "an RDMA NIC port went down on node n1: async event : port error", "ibstat"},
		{"[E socket.cpp:922] [c10d] The client socket has timed out after 600s while "
		 "trying to connect to (10.3.0.4, 29500).\n",
		 HCAT_NET, "root-unreachable", -1, -1,
		 "node n1 cannot reach the root 10.3.0.4:29500 (its connection timed out)",
		 "HCCL_SOCKET_IFNAME"},
		/* one rank failing links inside its own server and across: the fault is at it,
		 * not on the path to the other node */
		{"EI0009: Transport init error. Reason: [Create][DestLink]Create Dest error! "
		 "createLink para:rank[2]-localUserrank[2]-localIpAddr[10.9.0.1], dst_rank[3]-"
		 "remoteUserrank[3]-remote_ip_addr[10.9.0.1]\n"
		 "EI0009: Transport init error. Reason: [Create][DestLink]Create Dest error! "
		 "createLink para:rank[2]-localUserrank[2]-localIpAddr[10.9.0.1], dst_rank[5]-"
		 "remoteUserrank[5]-remote_ip_addr[10.9.0.2]\n",
		 HCAT_NET, "many-links", 2, -1,
		 "many links from rank 2 (node n1, 10.9.0.1) cannot be set up: to ranks 3 "
		 "(10.9.0.1), 5 (10.9.0.2), whose logs are not here; links that stay on this "
		 "server "
		 "fail too, so the fault is at this rank",
		 "hccn_tool"},
		/* and when none of them leaves the server, no network is to blame */
		{"EI0009: Transport init error. Reason: [Create][DestLink]Create Dest error! "
		 "createLink para:rank[6]-localUserrank[6]-localIpAddr[10.9.0.7], dst_rank[4]-"
		 "remoteUserrank[4]-remote_ip_addr[10.9.0.7]\n"
		 "EI0009: Transport init error. Reason: [Create][DestLink]Create Dest error! "
		 "createLink para:rank[6]-localUserrank[6]-localIpAddr[10.9.0.7], dst_rank[1]-"
		 "remoteUserrank[1]-remote_ip_addr[10.9.0.7]\n",
		 HCAT_UNRESOLVED, "local-links", 6, -1,
		 "many links from rank 6 (node n1, 10.9.0.7) cannot be set up: to ranks 4 "
		 "(10.9.0.7), 1 (10.9.0.7), whose logs are not here; none of them leaves this "
		 "server",
		 "same communicators in the same order"},
		{"[ERROR] HCCL(8,):2025-10-21 07:56:47.198.454 [t.cc:727][9][InitGroupStage]"
		 "[RanktableCheck]errNo[0x0000000005010001] server_id[] is invalid\n",
		 HCAT_CONFIG, "ranktable", -1, -1,
		 "ranktable on node n1: HCCL refused the rank table", "hcclctl ranktable validate"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hlog_report r;
		conclude_text(&r, "n1/stdout.txt", "n1", cases[i].text, cases[i].cat,
			      cases[i].detail, cases[i].cause, cases[i].fix);
		assert_int_equal(r.rank, cases[i].rank);
		assert_int_equal(r.dev, cases[i].dev);
		hlog_report_release(&r);
	}
}

/* The rank a store bootstrap waited for, whose own log is not here, is named with the node
 * whose lines name it: "node" is never empty for a verdict read off a line. */
static void test_store_root_node(void **state)
{
	(void)state;
	static const char text[] =
		"RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from "
		"[0] via c10d key-value store by key '0', but store->get('0') got error: Socket "
		"Timeout\n";
	struct hlog_report r;
	conclude_text(&r, "n2/stdout.txt", "n2", text, HCAT_RANK_STUCK, "root-late",
		      "rank 0 did not publish the communicator id in time: rank 3 (node n2)",
		      "init_process_group timeout=");
	assert_int_equal(r.rank, 0);
	assert_int_equal(r.peer_rank, 3);
	assert_string_equal(r.node, "n2");
	hlog_report_release(&r);
}

/* HCCL's task exception reports of two ranks of one group, in two files. */
static void two_tasks(struct hlog_report *r, const char *t0, const char *op0, const char *t1,
		      const char *op1)
{
	static const char fmt[] =
		"[ERROR] HCCL(%d,t):%s [task_exception_handler.cc:908] [%d][TaskExecStage]"
		"[Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], "
		"tag[%s_10.0.0.1%%eth_60000_0_17], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
		"[ERROR] HCCL(%d,t):%s [task_exception_handler.cc:771] [%d][TaskExecStage]"
		"[Timeout][Host]Task run failed, groupRank information is group:"
		"[10.0.0.1%%eth_60000_0_17], user define information[], rankSize[4], rankId[%d].\n";
	char buf[2][1024];
	snprintf(buf[0], sizeof(buf[0]), fmt, 41, t0, 41, op0, 41, t0, 41, 2);
	snprintf(buf[1], sizeof(buf[1]), fmt, 42, t1, 42, op1, 42, t1, 42, 3);
	hlog_report_init(r);
	add_text(r, "n1/plog-41.log", "n1", buf[0]);
	add_text(r, "n2/plog-42.log", "n2", buf[1]);
	assert_int_equal(hlog_conclude(r), 0);
}

static void test_task_split(void **state)
{
	struct hlog_report r;
	(void)state;
	/* different collectives at the same point: a desync, whenever each timed out */
	two_tasks(&r, "2025-10-24-11:18:29.499.235", "AllReduce", "2025-10-24-11:18:29.513.755",
		  "AllGather");
	assert_int_equal(r.cat, HCAT_OP_MISMATCH);
	assert_string_equal(r.detail, "different-ops");
	assert_int_equal(r.rank, 2);
	assert_int_equal(r.peer_rank, 3);
	assert_string_equal(r.group, "10.0.0.1%eth_60000_0_17");
	assert_string_equal(r.cause,
			    "rank 2 of group 10.0.0.1%eth_60000_0_17 (node n1) timed out in "
			    "AllReduce while rank 3 (node n2) timed out in AllGather: the ranks did "
			    "not call the same collective at the same point");
	assert_int_equal(r.nevidence, 2);
	hlog_report_release(&r);
	/* the same collective 5 min 44 s apart: the later one arrived late */
	two_tasks(&r, "2025-10-24-22:03:14.946.261", "AllReduce", "2025-10-24-22:08:58.890.365",
		  "AllReduce");
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "arrived-late");
	assert_int_equal(r.rank, 3);
	assert_int_equal(r.peer_rank, 2);
	assert_string_equal(r.node, "n2");
	assert_prefix(r.cause, "rank 3 of group 10.0.0.1%eth_60000_0_17 (node n2) reached "
			       "AllReduce 343s after rank 2 did");
	assert_contains(r.fix, "HCCL_EXEC_TIMEOUT");
	hlog_report_release(&r);
	/* and in the other order of files the same rank */
	two_tasks(&r, "2025-10-24-22:08:58.890.365", "AllReduce", "2025-10-24-22:03:14.946.261",
		  "AllReduce");
	assert_string_equal(r.detail, "arrived-late");
	assert_int_equal(r.rank, 2);
	hlog_report_release(&r);
	/* a group line without its rank first, then the op line: read, not decided on */
	hlog_report_init(&r);
	add_text(&r, "n1/plog-41.log", "n1",
		 "[ERROR] HCCL(41,t):2025-10-24-11:18:29.499.235 [t.cc:771] [41][TaskExecStage]"
		 "[Timeout][Host]Task run failed, groupRank information is group:[g1], user "
		 "define information[], rankSize[4].\n"
		 "[ERROR] HCCL(41,t):2025-10-24-11:18:29.499.247 [t.cc:908] [41][TaskExecStage]"
		 "[Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], "
		 "tag[AllReduce_g1], AlgType(level 0-1-2):[ring].\n");
	assert_int_equal(hlog_conclude(&r), 0);
	assert_string_equal(r.detail, "timeout-elsewhere");
	hlog_report_release(&r);
	/* seconds apart: one wait on a third rank, which these lines do not name */
	two_tasks(&r, "2025-10-24-22:03:14.946.261", "AllReduce", "2025-10-24-22:03:20.890.365",
		  "AllReduce");
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_string_equal(r.detail, "timeout-elsewhere");
	assert_int_equal(r.peer_rank, -1);
	hlog_report_release(&r);
}

/* HCCL's detector names the far end by server and device: on the same server, that device of
 * the reporter's node. */
static void test_detect_same_server(void **state)
{
	struct hlog_report r;
	(void)state;
	scan("tests/data/real-logs/hicann-hccl-fd-ei0006-hcom-allreduce-detect-dst-device0", &r);
	assert_int_equal(r.cat, HCAT_RANK_STUCK);
	assert_int_equal(r.rank, 0);
	assert_int_equal(r.dev, 0);
	assert_string_equal(r.node, "node0");
	assert_prefix(r.cause, "rank 0 (node node0, 192.0.2.199 device 0) is the rank the others "
			       "wait for");
	hlog_report_release(&r);
}

/* Lines whose words say no failure that the lines around them show to be one: a message a
 * native stack trace follows (dmlc's LOG(FATAL), apache/mxnet#5297), and a retry to connect
 * a log ends on (Paddle's tcp_utils, PPASR#142), which in a job of two nodes aimed at a
 * loopback address is that address's fault. */
static void test_shown_by_neighbours(void **state)
{
	(void)state;
	struct hlog_report r;
	conclude_text(&r, "w.log", "node0",
		      "[08:41:20] src/x/store.cc:37: the frobnicator is off\n\n"
		      "Stack trace returned 10 entries:\n"
		      "[bt] (0) /usr/lib/libx.so(_ZN4dmlc15LogMessageFatalD1Ev+0x29) [0x2ad12f389769]\n",
		      HCAT_UNRESOLVED, "unclassified",
		      "unclassified error line at w.log:1: [08:41:20] src/x/store.cc:37: the "
		      "frobnicator is off",
		      NULL);
	hlog_report_release(&r);
	/* a stack trace under an error line adds nothing */
	conclude_text(&r, "w.log", "node0",
		      "thread 'main' panicked at 'index out of bounds', src/main.rs:4:5\n"
		      "stack backtrace:\n",
		      HCAT_UNRESOLVED, "unclassified", "unclassified error line at w.log:1:", NULL);
	assert_int_equal(r.errors, 1);
	hlog_report_release(&r);
	static const char retry[] = "I0224 13:50:30.278173 1512912 tcp_utils.cc:107] Retry to "
				    "connect to %s:63917 while the server is not yet listening.\n";
	char a[300], b[300];
	snprintf(a, sizeof(a), retry, "10.0.0.5");
	snprintf(a + strlen(a), sizeof(a) - strlen(a), "%s",
		 "I0224 13:50:36.101 1512912 tcp_utils.cc:130] Successfully connected to "
		 "10.0.0.5:63917\n");
	conclude_text(&r, "w.log", "node0", a, HCAT_NONE, "", NULL, NULL);
	hlog_report_release(&r);
	snprintf(a, sizeof(a), retry, "10.0.0.5");
	conclude_text(&r, "w.log", "node0", a, HCAT_NET, "words:connect-failed", NULL, NULL);
	assert_string_equal(r.ip, "10.0.0.5");
	hlog_report_release(&r);
	snprintf(a, sizeof(a), retry, "127.0.1.1");
	conclude_text(&r, "w.log", "node0", a, HCAT_NET, "words:connect-failed", NULL, NULL);
	hlog_report_release(&r);
	snprintf(b, sizeof(b), "I0224 13:50:30.574 1498980 tcp_utils.cc:181] The server starts "
			       "to listen on IP_ANY:63917\n");
	hlog_report_init(&r);
	add_text(&r, "node0/w.log", "node0", b);
	add_text(&r, "node1/w.log", "node1", a);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_equal(r.cat, HCAT_CONFIG);
	assert_string_equal(r.detail, "loopback-peer");
	assert_string_equal(r.ip, "127.0.1.1");
	assert_int_equal(r.port, 63917);
	assert_string_equal(r.node, "node1");
	hlog_report_release(&r);
}

/* The files of the real cases one after another, up to 4 MiB, as one log. */
static struct {
	char *p;
	size_t n, cap;
} all;

static int add_real(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (all.n >= (4u << 20))
		return 1;
	if (type != FTW_F || strstr(path, ".expect") || strstr(path, "README"))
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t want = all.n + (size_t)st->st_size + 1;
	if (want > all.cap) {
		all.cap = want * 2;
		all.p = realloc(all.p, all.cap);
		assert_non_null(all.p);
	}
	all.n += fread(all.p + all.n, 1, (size_t)st->st_size, f);
	all.p[all.n++] = '\n';
	fclose(f);
	return 0;
}

/* Judged in two stages on two threads (linepipe.h) or on one, a log reads the same: the
 * same lines, errors and events, and the same cause with the same evidence. */
static void test_two_stages_same(void **state)
{
	(void)state;
	nftw("tests/data/real-logs", add_real, 16, FTW_PHYS);
	nftw("tests/data/real-logs-new", add_real, 16, FTW_PHYS);
	assert_true(all.n >= (4u << 20));
	struct hlog_report r[2];
	for (int k = 0; k < 2; k++) {
		hlog_report_init(&r[k]);
		r[k].threads = k + 1;
		assert_int_equal(hlog_scan_buf("all.log", "node0", all.p, all.n, &r[k], err,
					       sizeof(err)),
				 0);
		assert_int_equal(hlog_conclude(&r[k]), 0);
	}
	assert_true(r[0].nev > 100);
	assert_int_equal(r[0].lines, r[1].lines);
	assert_int_equal(r[0].blank, r[1].blank);
	assert_int_equal(r[0].errors, r[1].errors);
	assert_int_equal(r[0].truncated, r[1].truncated);
	assert_int_equal(r[0].nev, r[1].nev);
	for (size_t i = 0; i < r[0].nev; i++) {
		assert_int_equal(r[0].ev[i].line, r[1].ev[i].line);
		assert_int_equal(r[0].ev[i].kind, r[1].ev[i].kind);
		assert_int_equal(r[0].ev[i].rank, r[1].ev[i].rank);
		assert_int_equal(r[0].ev[i].dev, r[1].ev[i].dev);
		assert_string_equal(r[0].ev[i].detail, r[1].ev[i].detail);
		assert_string_equal(r[0].ev[i].text, r[1].ev[i].text);
	}
	assert_int_equal(r[0].nkbhit, r[1].nkbhit);
	for (size_t i = 0; i < r[0].nkbhit; i++) {
		assert_int_equal(r[0].kbhit[i].ent, r[1].kbhit[i].ent);
		assert_int_equal(r[0].kbhit[i].count, r[1].kbhit[i].count);
	}
	assert_int_equal(r[0].cat, r[1].cat);
	assert_string_equal(r[0].cause, r[1].cause);
	assert_string_equal(r[0].fix, r[1].fix);
	assert_int_equal(r[0].nevidence, r[1].nevidence);
	for (size_t i = 0; i < r[0].nevidence; i++)
		assert_string_equal(r[0].evidence[i].text, r[1].evidence[i].text);
	assert_int_equal(r[0].first_error.line, r[1].first_error.line);
	for (int k = 0; k < 2; k++)
		hlog_report_release(&r[k]);
	free(all.p);
}

/* A traceback's heading logged at INFO that ends the file is an exception cut off, whatever
 * its level (real line: NVIDIA/cudf-spark-examples#242, XGBoost4J-Spark relaying its
 * tracker's stderr); with the program's lines going on below it, it is not. */
static void test_quiet_traceback_at_end(void **state)
{
	(void)state;
	static const char head[] =
		"22/11/08 02:00:18 INFO RabitTracker$TrackerProcessLogger: Traceback (most recent "
		"call last):\n";
	struct hlog_report r;
	hlog_report_init(&r);
	add_text(&r, "stdout.txt", "node0",
		 "22/11/08 02:00:16 INFO XGBoostSpark: Running XGBoost 2.0.0-SNAPSHOT with "
		 "parameters:\n");
	add_text(&r, "tracker.txt", "node0", head);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_int_not_equal(r.cat, HCAT_NONE);
	assert_true(r.has_lone_frame);
	hlog_report_release(&r);
	char more[512];
	snprintf(more, sizeof(more), "%s%s", head,
		 "22/11/08 02:00:19 INFO XGBoostSpark: training done\n");
	assert_int_equal(cat_of(more, NULL), HCAT_NONE);
}

/* A failure the program tried again from another way and went on is no error; the same
 * retry with the program failing again, or with nothing after it, is (real lines:
 * ggml-org/llama.cpp#26297, llama-server on three GPUs). */
static void test_retry_went_on(void **state)
{
	(void)state;
	static const char burst[] =
		"1.06.520.077 E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 51748.72 "
		"MiB "
		"on device 1: cudaMalloc failed: out of memory\n"
		"1.06.520.084 E ggml_gallocr_reserve_n_impl: failed to allocate CUDA1 buffer of "
		"size "
		"54262464512\n"
		"1.06.520.086 E graph_reserve: failed to allocate compute buffers\n"
		"1.06.520.107 W sched_reserve: compute buffer allocation failed, retrying without "
		"pipeline parallelism\n";
	static const char went_on[] =
		"1.07.304.130 I srv    load_model: initializing, n_slots = 1, "
		"n_ctx_slot = 50176, kv_unified = 'false'\n";
	char text[2048];
	size_t errors;
	snprintf(text, sizeof(text), "%s%s", burst, went_on);
	assert_int_equal(cat_of(text, &errors), HCAT_NONE);
	assert_int_equal(errors, 0);
	/* the retry failed too */
	snprintf(text, sizeof(text), "%s%s%s", burst, went_on, burst);
	assert_int_equal(cat_of(text, NULL), HCAT_RESOURCE);
	/* a retry by another process, logged before the failure (grep's context pasted under
	 * it: mindspore-lab/mindact#1983, real-logs-new batch 7) retries nothing of it */
	static const char other[] =
		"[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.722.000 "
		"[mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['3']\n"
		"scheduler.log-58-[WARNING] "
		"DISTRIBUTED(162146,ffffb85d0c80,python):2025-03-10-09:40:20.507.092 "
		"[mindspore/ccsrc/distributed/cluster/cluster_context.cc:153] Finalize] This log "
		"means the cluster is successfully created. Retry to finalize the node and exit "
		"cluster...\n"
		"scheduler.log-59-[WARNING] "
		"DISTRIBUTED(162146,ffffb85d0c80,python):2025-03-10-09:40:25.507.237 "
		"[mindspore/ccsrc/distributed/cluster/topology/meta_server_node.cc:98] Finalize] "
		"The meta server node can not be finalized because there are still 4 alive "
		"nodes.\n";
	cat_of(other, &errors);
	assert_true(errors > 0);
	/* the file ends on the retry: what came of it is not known */
	assert_int_equal(cat_of(burst, NULL), HCAT_RESOURCE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_code_wait),
		cmocka_unit_test(test_ei0006_late),
		cmocka_unit_test(test_ei0006_peer_below),
		cmocka_unit_test(test_port_below_host),
		cmocka_unit_test(test_port_below_dotted_host),
		cmocka_unit_test(test_horovod_stall),
		cmocka_unit_test(test_message_continued),
		cmocka_unit_test(test_stack_rank),
		cmocka_unit_test(test_sibling_rank),
		cmocka_unit_test(test_long_line_peer),
		cmocka_unit_test(test_ucx_peer_rank_below),
		cmocka_unit_test(test_what_line),
		cmocka_unit_test(test_warning_yields),
		cmocka_unit_test(test_ended_waiting),
		cmocka_unit_test(test_caused_by_chain),
		cmocka_unit_test(test_ei0006_nolog),
		cmocka_unit_test(test_ei0006_exited),
		cmocka_unit_test(test_chain_follow),
		cmocka_unit_test(test_heartbeat),
		cmocka_unit_test(test_cqe),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_tls),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_buf_edges),
		cmocka_unit_test(test_config_kinds),
		cmocka_unit_test(test_root_node_from_server),
		cmocka_unit_test(test_watchdog_other_exception),
		cmocka_unit_test(test_earliest_wins),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_dir_errors),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_indented_errors),
		cmocka_unit_test(test_other_families),
		cmocka_unit_test(test_store_root_node),
		cmocka_unit_test(test_task_split),
		cmocka_unit_test(test_detect_same_server),
		cmocka_unit_test(test_shown_by_neighbours),
		cmocka_unit_test(test_two_stages_same),
		cmocka_unit_test(test_quiet_traceback_at_end),
		cmocka_unit_test(test_retry_went_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
