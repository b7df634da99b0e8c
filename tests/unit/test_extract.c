/* The extractors of probes/logs/extract.h on real lines, one row a line, each naming where the
 * line was printed (the stack's own source or the public report it was posted in). A row
 * lists every value the line gives, in order, as "what/role=value": a value read where none
 * is, or one with the wrong role, fails as surely as one missed. Then the wrong values the
 * triage used to give (a port of -1, a rank table's IP swapped with the NIC's) through the
 * whole scan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/extract.h"
#include "probes/logs/hccllog.h"

struct xcase {
	const char *from; /* who prints the line, and where it was seen */
	const char *line;
	const char *want; /* every value, "what/role=value" separated by spaces */
	const char *group;
};

static const struct xcase cases[] = {
	{"HCCP ra_rdev_init_check_ip, as the CANN HCCL fault guide (EI0014) quotes it",
	 "[ERROR] HCCP(166192,eExecutor):2025-01-21-16:59:39.962.565 [ra_host.c:480]tid:167056,"
	 "ra_rdev_init_check_ip(480) : [check][ip]fail, ret(129) the IP address(127.10.0.0) in the "
	 "ranktable is inconsistent with the IP address(127.10.0.1) of the network adapter",
	 "ip/table=127.10.0.0 ip/nic=127.10.0.1", ""},
	{"HCCP ra_rdev_init_check_ip, older releases (tests/unit/test_hccllog.c's form)",
	 "[ERROR] HCCP(77,python3):2026-01-06-15:38:29.000.001 [ra_rdev.c:90] "
	 "ra_rdev_init_check_ip(90) : [check][ip]fail, ip(192.168.100.7) is inconsistent with "
	 "the IP address(192.168.100.9) of the network adapter",
	 "ip/table=192.168.100.7 ip/nic=192.168.100.9", ""},
	/* the format string of HCCP's ra_host.c with its two values: localIp (the table's),
	 * then interfaceIp (the NIC's) */
	{"HCCP ra_host.c hccp_err format, filled",
	 "[check][ip]failed, ret(129) the IP address(10.0.0.1) in the ranktable is inconsistent "
	 "with the IP(10.0.0.2)address of the network adapter, please make sure they're "
	 "consistent. num(8)",
	 "ip/table=10.0.0.1 ip/nic=10.0.0.2", ""},
	{"NCCL transport/net_ib/p2p.cc WARN, NCCL GitHub issue (ncclCommShrink on RoCE, 2.30.4)",
	 "[2026-09-09 10:46:33] ubuntu2:319733:319761 [1] transport/net_ib/p2p.cc:648 NCCL WARN "
	 "NET/IB: Got completion from peer 10.153.235.13<40554> with status=IBV_WC_RETRY_EXC_ERR(12) "
	 "opcode=IBV_WC_RECV_RDMA_WITH_IMM(129) vendor_err=129 localGid ::ffff:1.1.2.2 "
	 "remoteGids::ffff:1.1.1.4 hca mlx5_1",
	 "ip/remote=10.153.235.13 port/remote=40554 ip/local=1.1.2.2 ip/remote=1.1.1.4 rdma/any=mlx5_1",
	 ""},
	{"NCCL net_ib.cc WARN (older form), NCCL GitHub issue on Azure IB",
	 "node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer "
	 "10.2.0.5<33092> with error 12, opcode 0, len",
	 "ip/remote=10.2.0.5 port/remote=33092", ""},
	{"NCCL NET/Socket WARN, a vLLM deployment FAQ",
	 "NCCL WARN NET/Socket : Connect to 192.168.1.11:12345 failed : Connection refused",
	 "ip/remote=192.168.1.11 port/remote=12345", ""},
	{"c10d socket.cpp, vLLM issue 3771",
	 "[W socket.cpp:663] [c10d] The client socket has failed to connect to "
	 "[::ffff:172.16.8.232]:39623 (errno: 110 - Connection timed out)",
	 "ip/remote=172.16.8.232 port/remote=39623", ""},
	{"c10d socket.cpp, fairseq training log",
	 "[W socket.cpp:558] [c10d] The client socket has failed to connect to [localhost]:18630 "
	 "(errno: 99 - Cannot assign requested address).",
	 "host/remote=localhost port/remote=18630", ""},
	{"c10d socket.cpp, a Windows training report",
	 "[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:601] [c10d] The client socket has failed "
	 "to connect to [DESKTOP-63Q8UGP]:29500 (system error: 10049 - The requested address is not "
	 "valid in its context.).",
	 "host/remote=DESKTOP-63Q8UGP port/remote=29500", ""},
	{"c10d TCPStore client, tests/data/real-logs (torch store timeout)",
	 "[c10d] The client socket has timed out after 1800s while trying to connect to "
	 "(172.17.0.2, 44737).",
	 "ip/remote=172.17.0.2 port/remote=44737", ""},
	{"c10d socket.cpp bind, PyTorch elastic docs (MASTER_PORT in use)",
	 "RuntimeError: The server socket has failed to listen on any local network address. The "
	 "server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The "
	 "server socket has failed to bind to ?UNKNOWN? (errno: 98 - Address already in use).",
	 "ip/local=:: port/local=29500", ""},
	{"c10d socket.cpp (torch 2.2+), a user's TCPStore traceback",
	 "RuntimeError: The server socket has failed to listen on any local network address. port: "
	 "29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use",
	 "port/any=29500", ""},
	{"Gloo transport/tcp/pair.cc, a torchft write-up",
	 "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:538] Read error "
	 "[10.32.80.130]:60313: Connection reset by peer",
	 "ip/remote=10.32.80.130 port/remote=60313", ""},
	{"Gloo transport/tcp/pair.cc, an sglang launcher log",
	 "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection "
	 "closed by peer [127.0.0.1]:58054",
	 "ip/remote=127.0.0.1 port/remote=58054", ""},
	{"HCCL socket listen, tests/data/real-logs (EI0019, NPU port 16666 bound)",
	 "socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail. Please check "
	 "the port status",
	 "ip/local=192.168.20.160 port/local=16666", ""},
	{"HCCL topo exchange agent, tests/data/plog (root port)",
	 "[TopoExchangeAgent][Connect]connect server[127.10.0.1 : 60000] failed",
	 "ip/remote=127.10.0.1 port/remote=60000", ""},
	{"HCCL EI0009, CANN HCCL fault guide",
	 "Transport init error. Reason: [Create][DestLink]Create Dest error! createLink "
	 "para:rank[1]-localUserrank[1]-localIpAddr[172.16.0.114], dst_rank[0]-remoteUserrank[0]-"
	 "remote_ip_addr[172.16.0.115]",
	 "rank/any=1 rank/local=1 ip/local=172.16.0.114 rank/remote=0 rank/remote=0 "
	 "ip/remote=172.16.0.115",
	 ""},
	{"HCCL connect detector, CANN HCCL fault guide (EI0006)",
	 "This node (server 10.0.0.1, device ID 1) detects that srcRank (server 10.0.0.1, device ID "
	 "1) fails to connect to dstRank (server 10.0.0.2, device ID 0)",
	 "ip/local=10.0.0.1 dev/local=1 ip/local=10.0.0.1 dev/local=1 ip/remote=10.0.0.2 "
	 "dev/remote=0",
	 ""},
	{"HCCL LINK_ERROR_INFO row (dest | dest_port | src | ...): user_rank in the cells",
	 "| 10.20.0.31(29) | 16666 | 10.20.0.2(0) | 344832056 | server | time out | DISABLE |",
	 "ip/any=10.20.0.31 rank/any=29 ip/any=10.20.0.2 rank/any=0", ""},
	{"HCCL EI0002, CANN HCCL fault guide",
	 "The Notify register has not received the Notify record from remote rank: [24]. base "
	 "information: [streamID:[3], taskID[12], tag[AllReduce_group_name_1654], "
	 "AlgType(level 0-1-2):[fullmesh-ring-NHR].] group information: [group:[group_name_1654], "
	 "user define information[Unknown], rankSize[32], rankId[25 24]]",
	 "rank/remote=24 rank/any=25", "group_name_1654"},
	{"MPICH abort, an ALCF Polaris report",
	 "MPICH ERROR [Rank 3] [job id 7b36a3f1] [Mon Sep 23 22:55:29 2024] [x3106c0s25b1n0] - "
	 "Abort(875110671) (rank 3 in comm 0): Fatal error in PMPI_Alltoallv: Other MPI error, error "
	 "stack:",
	 "rank/any=3 rank/any=3", ""},
	{"NCCL init, NCCL GitHub issue (ncclCommShrink on RoCE)",
	 "ubuntu2:321050:321050 [1] NCCL INFO [Rank 1] ncclCommInitRank comm 0x5563e3b79140 rank 1 "
	 "nranks 4 cudaDev 1 nvmlDev 1 busId b1000 commId 0xef3a13f82ff54f6a - Init START",
	 "rank/any=1 rank/any=1 dev/any=1", ""},
	{"TensorFlow on CUDA (nagadit/DeepFaceLab_Linux#89, an uncorrectable ECC error)",
	 "F tensorflow/stream_executor/lib/statusor.cc:34] Attempting to fetch value instead of "
	 "handling error Internal: failed initializing StreamExecutor for CUDA device ordinal 0: "
	 "Internal: failed call to cuDevicePrimaryCtxRetain: CUDA_ERROR_ECC_UNCORRECTABLE: "
	 "uncorrectable ECC error encountered",
	 "dev/any=0", ""},
	{"NVIDIA's device plugin (NVIDIA/k8s-device-plugin#231): a key after a qualified name's dot",
	 "Pod Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc "
	 "error: code = Unknown desc = Unable to retrieve list of available devices: error creating "
	 "nvml.Device 3: nvml: GPU is lost, which is unexpected",
	 "dev/any=3", ""},
	{"the NVIDIA driver at boot (microsoft/pai#4344): a GPU by its minor number",
	 "[   38.773764] NVRM: rm_init_adapter failed for device bearing minor number 0",
	 "dev/any=0", ""},
	{"OpenSSH under DeepSpeed's pdsh launcher (deepspeedai/DeepSpeedExamples#894)",
	 "localhost: ssh: connect to host localhost port 22: Connection refused",
	 "host/remote=localhost port/remote=22", ""},
	{"a host's name not followed by its port is no host", "host node3 is down, port 22 open",
	 "port/any=22", ""},
	{"the NVIDIA driver's Xid (leptonai/gpud's docs): a GPU's PCI address without its function",
	 "[6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has "
	 "fallen off the bus.",
	 "pci/any=0000:91:00.0", ""},
	{"the kernel's amdgpu driver (ROCm/ROCm#4021): a PCI address ended by a colon",
	 "[13850.912648] amdgpu 0000:1c:00.0: {1}uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) "
	 "detected!",
	 "pci/any=0000:1c:00.0", ""},
	{"no PCI address: a bus without its domain, a time, an IPv6 address, more hex after it",
	 "at 91:00.0 and 12:30:45.1, fe80::1:2, 0000:91:00, 0000:1c:00.0:1f", "ip/any=fe80::1:2", ""},
	{"gRPC's target with its brackets percent-encoded (kubernetes-sigs/dra-driver-nvidia-gpu#328): "
	 "no address read from the escape",
	 "Startup probe failed: Query Status returned error code: 14 - failed to connect to all "
	 "addresses; last error: UNKNOWN: ipv6:%5B::%5D:50005: Address family not supported by "
	 "protocol",
	 "", ""},
	{"a version after a dot is no key's value", "torch 2.1.dev20230901 and cuda 12.1.dev 5",
	 "", ""},
	{"NCCL to a link-local IPv6 peer (wenet-e2e/wenet#1891): the zone before the port",
	 "voicec105:90736:91655 [0] include/socket.h:403 NCCL WARN Connect to "
	 "fe80::c4eb:49ff:fe04:e32d%6<57335> failed : Network is unreachable",
	 "ip/remote=fe80::c4eb:49ff:fe04:e32d port/remote=57335", ""},
	{"torch_npu / vLLM Ascend device forms",
	 "device-3 device(4) devId: 5 dev 6 chip 7 phy_id[8] physic id 9 logicDevid:10 npu 11",
	 "dev/any=3 dev/any=4 dev/any=5 dev/any=6 dev/any=7 dev/any=8 dev/any=9 dev/any=10 "
	 "dev/any=11",
	 ""},
	{"rank forms: RankID, rank of group, tcp:// host, port=, what is not a value",
	 "RankID:12 rank 2 of group tp_group tcp://node-7:18630 port=8080 port -1 rank:-1 "
	 "std::string 15:38:29 rankSize:4 ranks 8",
	 "rank/any=12 rank/any=2 host/any=node-7 port/any=18630 port/any=8080", "tp_group"},
	{"HCCL heartbeat IP/ID and the watchdog's device lines",
	 "[HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival "
	 "Time:[Mon Jan 1 00:00:00 2024], Discoverer:[127.10.0.2/0]",
	 "ip/any=127.10.0.1 ip/local=127.10.0.2", ""},
	{"Ray's worker prefix on a vLLM-Ascend traceback, vllm-ascend#1193: the worker's own node",
	 "(RayWorkerWrapper pid=11394, ip=10.0.1.4) ERROR 06-12 09:47:56 [worker_base.py:620] "
	 "RuntimeError: ACL stream synchronize failed, error code:507048",
	 "ip/local=10.0.1.4", ""},
	{"Gloo pair.cc under vLLM-Ascend, vllm-ascend#5158",
	 "(Worker_DP1_TP0_EP4 pid=459) ERROR 12-18 08:52:14 [multiproc_executor.py:822] "
	 "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:544] Connection "
	 "closed by peer [172.26.182.3]:39056",
	 "ip/remote=172.26.182.3 port/remote=39056", ""},
	{"grep over MindCluster's device logs, the hiascend Atlas 800 troubleshooting page: a file "
	 "and its line, not a host and port",
	 "/hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt:2020[2454.830701] {6}"
	 "[Hardware Error]  error_type: 3, multi-bit ECC",
	 "dev/any=2", ""},
	{"PSM3 under Open MPI, open-mpi/ompi#13293: the rank in its prefix, host:rankN.program",
	 "[1750340274.709417260] server1:rank0.a.out: Unable to create UDP socket for ens256: "
	 "Address family not supported by protocol",
	 "rank/any=0", ""},
	{"a sentence that ends on the value, awslabs/awsome-distributed-ai#203",
	 "register_rail_mr_buffer:617 NCCL WARN NET/OFI Unable to register memory (type = 2) for "
	 "device 4. RC: -22, Error: Invalid argument",
	 "dev/any=4", ""},
	{"torch's [rankN] prefix under Ray, OpenRLHF/OpenRLHF#621: the line parser's, not a value "
	 "of the text (which names rank 12)",
	 "(RayWorkerWrapper pid=92234, ip=172.19.24.110) [rank1]:[E1224 13:23:05.483840160 "
	 "ProcessGroupNCCL.cpp:542] [Rank 12] Collective WorkNCCL(SeqNum=1, OpType=BROADCAST, "
	 "NumelIn=778567680, NumelOut=778567680, Timeout(ms)=1800000) raised the following async "
	 "exception: NCCL error: remote process exited or there was a network error, NCCL version "
	 "2.21.5",
	 "ip/local=172.19.24.110 rank/any=12", ""},
	{"srun to a node's slurmd, NVIDIA/pyxis#107: a host name in brackets and its port",
	 "srun: error: slurm_receive_msgs: [[n1.mytestdomain]:6818] failed: Socket timed out on "
	 "send/recv operation",
	 "host/any=n1.mytestdomain port/any=6818", ""},
	{"torch_npu's source location, vllm-project/vllm-ascend#1443: a path's file and line, not "
	 "a host and port",
	 "(train pid=8464) RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/"
	 "compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code "
	 "is 507048",
	 "", ""},
	{"UCX's pml under Open MPI, openucx/ucx#9908",
	 "[gpu1:1581048] pml_ucx.c:472 Error: Failed to resolve UCX endpoint for rank 9",
	 "rank/remote=9", ""},
	{"the kernel's PCIe AER report, rwth-i6/returnn#1486: a PCI vendor:device pair is no "
	 "device index; the port's own PCI address is read",
	 "[  +0.000003] pcieport 0000:00:03.0:   device [8086:6f08] error status/mask=00001000/"
	 "00002000",
	 "pci/any=0000:00:03.0", ""},
	{"MPICH's PMI client, pmodels/mpich#6621: connect's object, then 'on' and its port",
	 "[unset]: Unable to connect to MAC-140753 on 54163",
	 "host/remote=MAC-140753 port/remote=54163", ""},
	{"ENOSPC's words end in \"device\", kvcache-ai/Mooncake#640: the number after them is the "
	 "errno, no device",
	 "W0717 18:50:07.754983 3957032 rdma_context.cpp:199] The buffer length exceeds device "
	 "max_mr_size, shrink it to 68719476736: No space left on device [28]",
	 "", ""},
	{"UCX's UD address handle (mlcommons training_results_v3.5#5): the verbs port number is "
	 "no socket's port, dgid is the other end's address",
	 "[1695144496.484294] [hpci5201:103648:0]       ib_device.c:1250 UCX  ERROR   "
	 "ibv_create_ah(dlid=49152 sl=0 port=1 src_path_bits=0 dgid=::ffff:192.160.0.55 "
	 "sgid_index=3 traffic_class=106) for UD verbs connect on bnxt_re0 failed: Connection "
	 "timed out",
	 "ip/remote=192.160.0.55 rdma/any=bnxt_re0", ""},
	{"PyTorch's out-of-memory message under srun's label (MLCommons training results v5.1): "
	 "the GPU by its index",
	 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.16 GiB. GPU 7 has a "
	 "total capacity of 139.80 GiB of which 1.28 GiB is free.",
	 "dev/any=7", ""},
	{"a host named gpu-N and NCCL's host:pid prefix are no GPU index, nor is a PCI bus id",
	 "0: slurmstepd: error: *** STEP 152.13 ON gpu-153 CANCELLED AT 2025-04-30T01:52:49 DUE "
	 "TO TIME LIMIT *** GPU-94:3087588:3089801 [0] proxy.cc:1458 NCCL WARN x; Unable to "
	 "determine the device handle for GPU 0000:0F:00.0: Unknown Error",
	 "pci/any=0000:0f:00.0", ""},
	{"HPE Slingshot's Cassini NIC in the kernel log (its troubleshooting guide): the cxi "
	 "device, not its net device",
	 "[Thu Jul 13 01:57:31 2023] cxi_core 0000:c3:00.0: cxi3[hsn3]: C_EC_UNCOR_NS: "
	 "C1_PCT error: tct_cam_ucor (42)",
	 "pci/any=0000:c3:00.0 rdma/any=cxi3", ""},
	{"Gloo's pair timeout (PaddlePaddle/PaddleOCR#13435): its own rank and its pair's",
	 "  what():  [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:587] TIMEOUT self_rank = "
	 "0 pair_rank = 1 peer_str = [172.16.32.105]:36265",
	 "rank/local=0 rank/remote=1 ip/remote=172.16.32.105 port/remote=36265", ""},
	{"NCCL's proxy under vLLM on Ray, vllm-project/vllm#798: the rank it called is the peer; "
	 "Ray's prefix is the worker's own address",
	 "(LLMEngine pid=2347640, ip=10.58.226.15) Proxy Call to rank 7 failed (Connect)",
	 "ip/local=10.58.226.15 rank/remote=7", ""},
	/* gRPC's resolver names each address it tried with its scheme (marin-community/marin#7650:
	 * JAX's coordination service on a GB200 rack) */
	{"gRPC subchannel error, as JAX's coordination client logs it",
	 "ipv4:10.186.213.145:13305: Failed to connect to remote host: Connection refused",
	 "ip/remote=10.186.213.145 port/remote=13305", ""},
	/* a word that merely ends in the letters is no scheme: "lipv4:" */
	{"the scheme word only", "lipv4:10.0.0.1:80 and 12:10.0.0.2", "", ""},
	{"Horovod's task service, a Python tuple with its address quoted (horovod/horovod#2432)",
	 "horovod.runner.common.util.network.NoValidAddressesFound: Horovod was unable to connect to "
	 "task service #1 on any of the following addresses: {'ens192': [('192.168.21.50', 8394)]}.",
	 "ip/any=192.168.21.50 port/any=8394", ""},
	/* a host name of digits alone, read by the resolver as one number (inet_aton) */
	{"c10d socket.cpp, hpcaitech/Open-Sora issue 667",
	 "[E socket.cpp:753] [c10d] The client socket has failed to connect to any network address "
	 "of (6841231, 47389).",
	 "ip/remote=0.104.99.143 port/remote=47389", ""},
	/* a card's number after the Chinese word for card (hw-native-sys/simpler#1686) */
	{"a runner's damaged-card message in Chinese",
	 "错误: NPU 卡 7 已损坏，无法使用（本机损坏卡: 7）", "dev/any=7 dev/any=7", ""},
	/* a process by its index in the job */
	{"JAX's coordination service naming the task that stopped (JAX's fault-tolerance guide)",
	 "/job:jax_worker/replica:0/task:3", "rank/any=3", ""},
	{"srun's report of one task, a Perlmutter Megatron-DeepSpeed run (saforem2/vault)", "srun: error: nid008576: task 2: Out Of Memory",
	 "rank/any=2", ""},
	{"a task's name is no index: the kernel's hung-task report (IO500 io500-dev#62)",
	 "INFO: task ior:142307 blocked for more than 120 seconds.", "", ""},
	{"a pair of small numbers after an address is no address (made up)",
	 "the address of (3, 29500) was refused", "", ""},
};

static void serialise(const struct hx_vals *x, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < x->n && n < len; i++) {
		const struct hx_val *v = &x->v[i];
		int w = v->what == HX_IP || v->what == HX_HOST || v->what == HX_PCI || v->what == HX_RDMA
				? snprintf(out + n, len - n, "%s%s/%s=%s", i ? " " : "",
					   hlog__xwhat_name(v->what), hlog__xrole_name(v->role), v->s)
				: snprintf(out + n, len - n, "%s%s/%s=%lld", i ? " " : "",
					   hlog__xwhat_name(v->what), hlog__xrole_name(v->role), v->n);
		n += w > 0 ? (size_t)w : 0;
	}
}

static void test_real_lines(void **state)
{
	(void)state;
	char got[1024];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xcase *c = &cases[i];
		struct hx_vals x;
		hlog__extract((struct pspan){c->line, strlen(c->line)}, &x);
		serialise(&x, got, sizeof(got));
		if (strcmp(got, c->want))
			fail_msg("%s:\n%s\n got  %s\n want %s", c->from, c->line, got, c->want);
		if (strcmp(x.group, c->group))
			fail_msg("%s: group '%s', want '%s'", c->from, x.group, c->group);
	}
}

/* More values than fit: the first HX_MAX kept, the rest counted; nothing read past the span. */
static void test_bounds(void **state)
{
	(void)state;
	char line[HX_MAX * 16 + 64];
	size_t n = 0;
	for (int i = 0; i < HX_MAX + 5; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "rank %d ", i);
	struct hx_vals x;
	hlog__extract((struct pspan){line, n}, &x);
	assert_int_equal(x.n, HX_MAX);
	assert_int_equal(x.dropped, 5);
	assert_int_equal(x.v[HX_MAX - 1].n, HX_MAX - 1);
	/* a span that ends inside a value: "port 295" of "port 29500" */
	hlog__extract((struct pspan){"port 29500", 8}, &x);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.v[0].n, 295);
	hlog__extract((struct pspan){"10.0.0.1:", 9}, &x);
	assert_int_equal(x.n, 1);
	hlog__extract((struct pspan){NULL, 0}, &x);
	assert_int_equal(x.n, 0);
	assert_null(hlog__xfind(&x, HX_IP, HX_THIS));
}

static void conclude_line(struct hlog_report *r, const char *line)
{
	char err[128];
	hlog_report_init(r);
	assert_int_equal(hlog_scan_buf("node0/job.log", "node0", line, strlen(line), r, err,
				       sizeof(err)),
			 0);
	assert_int_equal(hlog_conclude(r), 0);
}

/* The wrong values the triage gave before one extractor read every line. */
static void test_known_wrong_values(void **state)
{
	(void)state;
	struct hlog_report r;
	/* "port -1": the port was only read as "port[N]" or "port N" */
	conclude_line(&r, cases[10].line);
	assert_string_equal(hcat_name(r.cat), "config");
	assert_string_equal(r.detail, "port-bound");
	assert_int_equal(r.port, 29500);
	assert_string_equal(r.ip, ""); /* "[::]" is every address, not a NIC */
	hlog_report_release(&r);
	conclude_line(&r, cases[11].line);
	assert_int_equal(r.port, 29500);
	hlog_report_release(&r);
	/* the table's and the NIC's IP swapped when the release wrote "IP(B)address" */
	conclude_line(&r, cases[2].line);
	assert_string_equal(r.detail, "device-ip");
	assert_string_equal(r.ip, "10.0.0.1");
	assert_string_equal(r.peer_ip, "10.0.0.2");
	hlog_report_release(&r);
	conclude_line(&r, cases[0].line);
	assert_string_equal(r.ip, "127.10.0.0");
	assert_string_equal(r.peer_ip, "127.10.0.1");
	hlog_report_release(&r);
}

/* The address a failure points at when the line does not say which end is which: a loopback
 * among others is this host's own interface list (real: horovod/horovod's driver under
 * volcano-sh/volcano#859); alone it is the address (a host name that resolves to loopback). */
static void test_peer_address(void **state)
{
	(void)state;
	static const struct {
		const char *line, *ip;
	} t[] = {
		{"ERROR: Task 1 declared addresses {'lo': [('127.0.0.1', 55651)], 'eth0': "
		 "[('192.168.101.5', 55651)]}, but has connected from a different address "
		 "192.168.101.0. This is not supported. Is the server behind NAT?",
		 "192.168.101.5"},
		{"Gloo connectFullMesh failed with ... no error: 127.0.1.1:43013 timed out",
		 "127.0.1.1"},
		{"listening on 0.0.0.0, then 10.1.2.3:5000 timed out", "10.1.2.3"},
		{"connection to 10.1.2.3 then 10.1.2.4 timed out", "10.1.2.3"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct hx_vals x;
		hlog__extract((struct pspan){t[i].line, strlen(t[i].line)}, &x);
		const struct hx_val *v = hlog__xfind_peer(&x, HX_IP);
		if (!v || strcmp(v->s, t[i].ip))
			fail_msg("row %zu: %s, want %s", i, v ? v->s : "none", t[i].ip);
	}
}

/* A device number no node has as many devices as is an id of another kind: NCCL names a GPU by
 * its PCI bus id in hex (real: pytorch/torchtitan#1224, "Duplicate GPU detected : rank 0 and
 * rank 1 both on CUDA device 6000"), a driver its invalid id 0xffff (real: the HIXL guide's
 * "invalid host device id 65535"). */
static void test_device_bound(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		long long dev; /* -1: none */
	} t[] = {
		{"init.cc:1015 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on CUDA "
		 "device 6000",
		 -1},
		{"[devdrv_pcie.c:1064][devmng][drvGetDeviceDevIDByHostDevID 1064] invalid host device "
		 "id 65535",
		 -1},
		{"NPU out of memory on device 7", 7},
		{"device 1023 is the last index read", 1023},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct hx_vals x;
		hlog__extract((struct pspan){t[i].line, strlen(t[i].line)}, &x);
		const struct hx_val *v = hlog__xfind(&x, HX_DEV, ~0u);
		if ((v ? v->n : -1) != t[i].dev)
			fail_msg("row %zu: device %lld, want %lld", i, v ? v->n : -1, t[i].dev);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_lines),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_known_wrong_values),
		cmocka_unit_test(test_peer_address),
		cmocka_unit_test(test_device_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
