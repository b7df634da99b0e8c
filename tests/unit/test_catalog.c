/* The catalog of the other stacks (probes/logs/catalog.h): every row on a real line, each
 * naming who prints it and where it was seen (a public issue thread, a vendor or project doc,
 * or the format string of the stack's own source with its values filled in). A line must
 * give its row's name and kind through the whole line reader (hlog__recognise as the scan
 * calls it), and every row of the catalog must be one a line here gives. Then libibverbs'
 * completion statuses against <infiniband/verbs.h>, and causes through the scan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#ifdef HAVE_IBVERBS
#include <infiniband/verbs.h>
#endif

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/logtext.h"
#include "probes/logs/hlogint.h"

struct ccase {
	const char *from;
	const char *line;
	const char *detail; /* the row's name, or the completion status's */
	int cat;
	const char *peer; /* the peer address or host the cause names, "" for none */
};

static const struct ccase cases[] = {
	/* NCCL */
	{"NCCL net_ib/p2p.cc, NCCL GitHub issue (ncclCommShrink on RoCE, 2.30.4)",
	 "[2026-09-09 10:46:33] ubuntu2:319733:319761 [1] transport/net_ib/p2p.cc:648 NCCL WARN "
	 "NET/IB: Got completion from peer 10.153.235.13<40554> with status=IBV_WC_RETRY_EXC_ERR(12) "
	 "opcode=IBV_WC_RECV_RDMA_WITH_IMM(129) vendor_err=129 localGid ::ffff:1.1.2.2 "
	 "remoteGids::ffff:1.1.1.4 hca mlx5_1",
	 "ib-retry-exceeded", HCAT_LINK_DOWN, "10.153.235.13"},
	{"NCCL net_ib.cc (2.1x), NCCL GitHub issue on Azure InfiniBand",
	 "node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer "
	 "10.2.0.5<33092> with error 12, opcode 0, len 0, vendor err 129 (Recv)",
	 "ib-retry-exceeded", HCAT_LINK_DOWN, "10.2.0.5"},
	{"NCCL net_ib.cc, a GPUDirect RDMA debugging write-up",
	 "NET/IB: Got completion from peer node20<57713> with status=4 opcode=0 len=0 vendor err 81 "
	 "(Send) hca mlx5_0",
	 "ib-loc-prot", HCAT_CONFIG, ""},
	{"NCCL net_ib.cc, an EFA setup note (NVSwitch fabric NIC picked)",
	 "NET/IB: Got completion from peer with status=IBV_WC_REM_ACCESS_ERR(10)", "ib-rem-access",
	 HCAT_CONFIG, ""},
	{"NCCL net_ib/p2p.cc, NCCL GitHub issue (ncclCommShrink on RoCE, 2.30.4)",
	 "[2026-09-09 10:46:34] ubuntu4:250415:250528 [1] transport/net_ib/p2p.cc:783 NCCL WARN "
	 "NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7fa5a800e028, "
	 "comm=0x7fa5a800e000 (send), wr_id=0, qp_num=21535)",
	 "ib-cqe", HCAT_LINK_DOWN, ""},
	{"NCCL net_ib.cc, an EFA setup note",
	 "NET/IB: ibp198s0f0:1 async fatal event on QP: local access violation work queue error",
	 "ib-ev-qp-access", HCAT_UNRESOLVED, ""},
	/* verbs' completion statuses as ibv_wc_status_str() words them */
	{"kvcache-ai/Mooncake#955 (vLLM with Mooncake's transfer engine, KV cache over RoCE)",
	 "E1023 04:59:20.346201 375956 worker_pool.cpp:294] Worker: Process failed for slice "
	 "(opcode: 1, source_addr: 0x7f8b6f185000, length: 4096, dest_addr: 0x7ebb87185000, "
	 "local_nic: mlx5_9, peer_nic: 192.168.1.161:16360@mlx5_7, dest_rkey: 1894181, "
	 "retry_cnt: 0): transport retry counter exceeded",
	 "ib-retry-exceeded", HCAT_LINK_DOWN, "192.168.1.161"},
	{"ai-dynamo/nixl#1983 (SGLang prefill/decode over NIXL, UCX on EFA's SRD)",
	 "[1784621081.896649] [kimi-k2-7-disagg-on-sp-v1-prefill-92c6hc-07210529-x04q3qgn-pod:537  "
	 ":1]       srd_iface.c:221  UCX  ERROR send completion[0] with error on "
	 "rdmap132s0/0x55cf4425cfb0: Work Request Flushed Error, vendor_err 0x1 wr_id "
	 "0x7f8b20022480",
	 "ib-wr-flush", HCAT_RANK_STUCK, ""},
	/* verbs' async events, by ibv_event_type_str's names */
	{"NVIDIA/nccl#230 (4 nodes, the NIC's device fatal event)",
	 "2019-06-02T16:13:44.884Z: [1,12]<stdout>:container-e275-1553839402050-12124-01-000057:"
	 "815:864 [0] transport/net_ib.cu:80 NCCL WARN NET/IB : Got async event : local "
	 "catastrophic error",
	 "ib-ev-device-fatal", HCAT_HARDWARE, ""},
	/* UCX */
	{"openucx/ucx#1881 (endpoint timeouts on three hosts)",
	 "Sun Oct  1 17:18:44 2017[1,7]<stdout>:[1506867524.064665] [clx-hercules-012:26727:0]     "
	 "ucp_worker.c:373  UCX  ERROR Error Endpoint timeout was not handled for ep 0xac1510",
	 "ucx-endpoint-timeout", HCAT_NET, ""},
	{"openucx/ucx#10738 (ucx_perftest over a bond device)",
	 "[1750835683.514020] [TENCENT64:1392 :0]         libperf.c:1183 UCX  ERROR ucp_ep_create() "
	 "failed: Destination is unreachable",
	 "ucx-unreachable", HCAT_NET, ""},
	{"svenreiche/Genesis-1.3-Version4#273 (MPICH on UCX on an Azure VM's MANA NIC)",
	 "UCX ERROR uct_iface_open(ud_verbs/mana_0:1) failed: Address not valid",
	 "ucx-transport-unopened", HCAT_CONFIG, ""},
	/* Ray */
	{"vllm-project/vllm#14186 (a node registered under another address)",
	 "(autoscaler +13s) Error: No available node types can fulfill resource request "
	 "{'node:111.6.168.225': 0.001, 'GPU': 1.0}. Add suitable node types to this cluster to "
	 "resolve this issue.",
	 "ray-unfulfillable", HCAT_CONFIG, ""},
	{"NCCL socket.cc, a vLLM deployment FAQ",
	 "NCCL WARN NET/Socket : Connect to 192.168.1.11:12345 failed : Connection refused",
	 "nccl-socket-connect", HCAT_NET, "192.168.1.11"},
	{"NVSHMEM's ibrc transport (deepseek-ai/DeepEP#223, nvidia_peermem not loaded)",
	 "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:nvshmemt_init:1851: neither "
	 "nv_peer_mem, or nvidia_peermem detected. Skipping transport.",
	 "gdr-module-missing", HCAT_CONFIG, ""},
	{"NCCL graph/search.cc (NVIDIA/nccl#1240, an image's NCCL_GRAPH_FILE on a one-GPU VM)",
	 "Spotllm:73025:73112 [0] graph/search.cc:719 NCCL WARN XML Import Channel : dev 1 not "
	 "found.",
	 "nccl-topo-file", HCAT_CONFIG, ""},
	{"NCCL bootstrap.cc, a vLLM multi-node write-up",
	 "NCCL WARN Bootstrap : no socket interface found", "nccl-no-interface", HCAT_CONFIG, ""},
	{"NCCL bootstrap.cc, Lightning-AI/pytorch-lightning#14986 (two nodes' ranks colliding)",
	 "hpc-25-14:18569:18835 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 1 of 8 ranks "
	 "has already checked in",
	 "nccl-rank-twice", HCAT_CONFIG, ""},
	{"RCCL proxy.cc, an AMD cluster report",
	 "g1064:11146:11197 [3] /long_pathname_so_that_rpms_can_package_the_debug_info/src/extlibs/"
	 "rccl/build/src/proxy.cpp:912 NCCL WARN Proxy Call to rank 3 failed (Connect)",
	 "nccl-proxy-call", HCAT_NET, ""},
	/* the proxy's res=3 (an internal error) is not the connection's failure: the call's own
	 * "unhandled system error" speaks for the line */
	{"NCCL proxy.cc via XLA, a JAX issue",
	 "Execution of replica 0 failed: INTERNAL: NCCL operation ncclGroupEnd() failed: unhandled "
	 "system error (run with NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry "
	 "(may be unrelated) '[Service thread] Error encountered progressing operation=Connect, "
	 "res=3, closing connection'",
	 "ncclSystemError", HCAT_UNRESOLVED, ""},
	{"NCCL proxy.cc's format string, res=2 (ncclSystemError) filled in",
	 "node1:4242:4260 [0] proxy.cc:1485 NCCL WARN [Service thread] Error encountered "
	 "progressing operation=Connect, res=2, closing connection",
	 "nccl-proxy-connect", HCAT_NET, ""},
	{"NCCL checks.h's CUDACHECK format string, cudaGetErrorString(cudaErrorInvalidValue)",
	 "node1:4242:4260 [1] transport.cc:154 NCCL WARN Cuda failure 'invalid argument'",
	 "nccl-cuda-failure", HCAT_UNRESOLVED, ""},
	{"NCCL checks.h's CUDACHECK format string, cudaGetErrorString(cudaErrorECCUncorrectable)",
	 "node1:4242:4260 [1] enqueue.cc:1520 NCCL WARN Cuda failure 'uncorrectable ECC error "
	 "encountered'",
	 "nccl-cuda-failure", HCAT_HARDWARE, ""},
	{"NCCL init.cc, a one-device-per-thread example's issue",
	 "ubuntu1583:1585 [0] init.cc:738 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both "
	 "on CUDA device 1000",
	 "duplicate-gpu", HCAT_CONFIG, ""},
	{"a 3-node DeepSeek V3 run's log on a blog (real-logs-new batch83), the same check's words",
	 "Error: rank 27 and rank 19 both on CUDA device 53000 (PCI 53:00.0)",
	 "duplicate-gpu", HCAT_CONFIG, ""},
	{"NCCL alloc.h, an RL training (colocated SGLang) note",
	 "include/alloc.h:324 NCCL WARN Failed to CUDA calloc 2097152 / 10485760 bytes",
	 "cuda-calloc", HCAT_RESOURCE, ""},
	/* ncclGetErrorString's texts in vLLM's pynccl_wrapper "NCCL error: %s" */
	{"vLLM pynccl_wrapper with ncclGetErrorString(1)",
	 "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
	 "ncclUnhandledCudaError", HCAT_UNRESOLVED, ""},
	{"vLLM docs (troubleshooting), pynccl_wrapper",
	 "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
	 "ncclSystemError", HCAT_UNRESOLVED, ""},
	{"vLLM pynccl_wrapper with ncclGetErrorString(3)",
	 "RuntimeError: NCCL error: internal error - please report this issue to the NCCL "
	 "developers",
	 "ncclInternalError", HCAT_UNRESOLVED, ""},
	{"hiyouga/LLaMA-Factory#7233 (the last error under an unhandled system error)",
	 "[rank1]: Error while creating shared memory segment /dev/shm/nccl-LeXlEJ (size 9637888)",
	 "nccl-shm-create", HCAT_RESOURCE, ""},
	{"Horovod's troubleshooting page (two nodes with one hostname)",
	 "node1:22671:22795 [1] transport/p2p.cu:431 WARN failed to open CUDA IPC handle : 30 "
	 "unknown error",
	 "nccl-cuda-ipc", HCAT_CONFIG, ""},
	/* Open MPI's openib BTL, as a users-list archive wrapped it after "with status" */
	{"Open MPI users list 2009-08 #10454 (node14 to node40)",
	 "RETRY EXCEEDED ERROR status number 12 for wr_id 13606831800 opcode 11119",
	 "ib-retry-exceeded", HCAT_LINK_DOWN, ""},
	{"Open MPI btl_openib_component.c's format, unwrapped, with our values",
	 "[0,1,6][btl_openib_component.c:1375:btl_openib_component_progress] from node14 to: "
	 "node40 error polling HP CQ with status WORK REQUEST FLUSHED ERROR status number 5 for "
	 "wr_id 13606831800 opcode 11119",
	 "ib-wr-flush", HCAT_RANK_STUCK, ""},
	{"vLLM pynccl_wrapper with ncclGetErrorString(4)",
	 "RuntimeError: NCCL error: invalid argument (run with NCCL_DEBUG=WARN for details)",
	 "ncclInvalidArgument", HCAT_CONFIG, ""},
	{"vLLM pynccl_wrapper with ncclGetErrorString(5)",
	 "RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)",
	 "ncclInvalidUsage", HCAT_CONFIG, ""},
	{"a fault-injection report (r0_api, NCCL 2.2x)",
	 "r0 fail reason='peer failed or declined', r0_api='remote process exited or there was a "
	 "network error'",
	 "ncclRemoteError", HCAT_UNRESOLVED, ""},
	/* torch and Gloo */
	{"c10d socket.cpp format, filled",
	 "torch.distributed.DistNetworkError: The client socket has failed to connect to any "
	 "network address of (node-1, 29500).",
	 "store-unreachable", HCAT_NET, "node-1"},
	{"c10d TCPStore.cpp format, filled",
	 "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 "
	 "clients joined.",
	 "store-clients-missing", HCAT_RANK_STUCK, ""},
	{"c10d TCPStore.cpp format, filled (torchrun's rendezvous keys)",
	 "torch.distributed.DistStoreError: wait timeout after 600000ms, keys: "
	 "/torchelastic/role_info/2",
	 "store-key-wait", HCAT_RANK_STUCK, ""},
	{"c10d ProcessGroupGloo.cpp format, filled",
	 "RuntimeError: [Rank 2]: Ranks 1, 3 failed to pass monitoredBarrier in 30000 ms",
	 "monitored-barrier", HCAT_RANK_STUCK, ""},
	{"gloo tcp/device.cc, pytorch issue 135355",
	 "[rank0]: RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:276] "
	 "ss1.ss_family == ss2.ss_family. 2 vs 10",
	 "gloo-address-family", HCAT_CONFIG, ""},
	{"torch flight recorder analyser, pytorch issue 140563",
	 "collective state: scheduled", "fr-collective-scheduled", HCAT_RANK_STUCK, ""},
	{"glibc gai_strerror(EAI_AGAIN) through Python",
	 "socket.gaierror: [Errno -3] Temporary failure in name resolution", "host-unresolved3",
	 HCAT_NET, ""},
	{"MPICH ch3:nemesis tcp error stack, filled",
	 "MPID_nem_tcp_init(373).............: gethostbyname failed, worker-3 (errno 1)",
	 "host-unresolved2", HCAT_NET, ""},
	{"Open MPI's help text, real (radical-pilot issue 2417)",
	 "An ORTE daemon has unexpectedly failed after launch and before",
	 "mpi-daemon-no-callback", HCAT_NET, ""},
	{"Gloo's tcp/device.cc under vLLM, real (gpustack issue 4128)",
	 "(EngineCore_DP0 pid=90) ERROR 01-04 15:58:26 [core.py:866] RuntimeError: [enforce fail at "
	 "/pytorch/third_party/gloo/gloo/transport/tcp/device.cc:212] ifa != nullptr. Unable to "
	 "find interface for: [0.0.0.189]",
	 "gloo-no-interface2", HCAT_CONFIG, ""},
	{"aws-ofi-nccl's fi_getinfo with FI_ENODATA, real (aws-ofi-nccl issue 1020)",
	 "[2025-10-16 22:16:08] ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN "
	 "NET/OFI OFI fi_getinfo() call failed: No data available",
	 "ofi-no-provider", HCAT_CONFIG, ""},
	{"MPICH CH4/OFI error stack, real (fds issue 7868)",
	 "MPIDI_NM_mpi_init_hook(719): OFI addrinfo() failed "
	 "(ofi_init.h:719:MPIDI_NM_mpi_init_hook:No data available)",
	 "ofi-no-provider2", HCAT_CONFIG, ""},
	{"a transfer engine's runtime return value, real (vllm-ascend issue 8420)",
	 "E0419 16:59:47.826516 19842 ascend_direct_transport.cpp:487] Register mem ret:207000.",
	 "acl-version", HCAT_VERSION, ""},
	{"MindSpore's runtime call, real (MindSpore FAQ, msrun on nodes that share a host name)",
	 "Call aclrtSetDevice failed, ret[107001]. Got device count[8] and device id[9], please "
	 "check if device id is valid.",
	 "acl-config", HCAT_CONFIG, ""},
	{"musl gai_strerror(EAI_NONAME) through BusyBox nslookup, real (ms-swift issue 6368)",
	 "nslookup: can't resolve 'dlc1dwuhvtro4c27-master-0': Name does not resolve",
	 "host-unresolved4", HCAT_NET, ""},
	{"PRRTE's error log format with OPAL's Unreachable, filled",
	 "[node-b:01234] [[1234,1],3] PRTE_ERROR_LOG: Unreachable in file base/grpcomm_base_stubs.c "
	 "at line 123",
	 "mpi-unreachable", HCAT_NET, ""},
	{"Open MPI help-mpi-runtime (MPI_INIT failed), filled",
	 "  --> Returned \"Unreachable\" (-12) instead of \"Success\" (0)", "mpi-unreachable2",
	 HCAT_NET, ""},
	{"OpenSSH 8+ when sshd drops a connection before the key exchange",
	 "kex_exchange_identification: Connection closed by remote host", "ssh-closed", HCAT_NET,
	 ""},
	{"Python socket.gaierror (glibc gai_strerror)",
	 "socket.gaierror: [Errno -2] Name or service not known", "host-unresolved", HCAT_NET,
	 ""},
	{"torch reducer.cpp, a torchrun training issue",
	 "RuntimeError: Expected to have finished reduction in the prior iteration before starting "
	 "a new one. This error indicates that your module has parameters that were not used in "
	 "producing loss.",
	 "ddp-unused-params", HCAT_CONFIG, ""},
	{"PyTorch Lightning, real-logs-new batch696 (a 4-GPU trainer that stalled)",
	 "RuntimeError: It looks like your LightningModule has parameters that were not used in "
	 "producing the loss returned by training_step.",
	 "lightning-unused-params", HCAT_CONFIG, ""},
	{"torch comm.cpp, a fastai DistributedTrainer note",
	 "RuntimeError: Exception occured in `DistributedTrainer` when calling event `before_fit`:  "
	 "DDP expects same model across all ranks, but Rank 1 has 221 params, while rank 0 has "
	 "inconsistent 0 params.",
	 "ddp-model-differs", HCAT_OP_MISMATCH, ""},
	{"Gloo pair.cc, a PyTorch forum thread (Ubuntu host name on 127.0.1.1)",
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect "
	 "[127.0.1.1]:62431: Connection refused",
	 "gloo-loopback-host", HCAT_CONFIG, "127.0.1.1"},
	{"Gloo pair.cc format (non-loopback peer), filled",
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect "
	 "[10.0.0.12]:62431: Connection refused",
	 "gloo-connect", HCAT_NET, "10.0.0.12"},
	{"Gloo pair.cc, a distributed-training troubleshooting note",
	 "RuntimeError: Gloo connectFullMesh failed with "
	 "[/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
	 "gloo-full-mesh", HCAT_NET, ""},
	{"Gloo pair.cc, a torchft write-up",
	 "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:538] Read error "
	 "[10.32.80.130]:60313: Connection reset by peer",
	 "gloo-peer-closed", HCAT_RANK_STUCK, "10.32.80.130"},
	{"Gloo pair.cc, a Kaggle training log",
	 "[rank1]: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by "
	 "peer [172.19.2.2]:33177",
	 "gloo-peer-closed2", HCAT_RANK_STUCK, "172.19.2.2"},
	{"gpustack/gpustack#3352 (a VM given 2 NPUs told to use device 4)",
	 "[ERROR] RUNTIME(42,mindie_llm_backend_connector):2025-11-18-09:33:13.666.323 "
	 "[runtime.cc:5632]58 GetVisibleDevices:[INIT][DEFAULT]set ASCEND_RT_VISIBLE_DEVICES:[4] "
	 "error, input data rang[0-2)",
	 "visible-devices-range", HCAT_CONFIG, ""},
	{"vllm-project/vllm#12670 (a Ray driver node without a GPU)",
	 "ERROR 02-09 02:31:11 engine.py:389] Ray does not allocate any GPUs on the driver node. "
	 "Consider adjusting the Ray placement group or running the driver on a GPU node.",
	 "ray-driver-no-device", HCAT_CONFIG, ""},
	{"vllm-project/vllm#12997 (GLOO_SOCKET_IFNAME names an interface the host lacks)",
	 "(RayWorkerWrapper pid=317, ip=10.68.27.14) ERROR 02-11 22:51:15 worker_base.py:574] "
	 "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa "
	 "!= nullptr. Unable to find address for: eth0 [repeated 6x across cluster]",
	 "gloo-no-interface", HCAT_CONFIG, ""},
	{"vllm-project/vllm-ascend#1972 (a vector core timeout code)",
	 "ERROR 07-23 10:35:57 [core.py:586] RuntimeError: Worker failed with error 'ACL stream "
	 "synchronize failed, error code:507034', please check the stack trace above for the root "
	 "cause",
	 "acl-task-fault", HCAT_UNRESOLVED, ""},
	{"vllm-project/vllm-ascend#1193 (a timeout code: a peer did not keep up)",
	 "(RayWorkerWrapper pid=11394, ip=10.0.1.4) ERROR 06-12 09:47:56 [worker_base.py:620] "
	 "RuntimeError: ACL stream synchronize failed, error code:507048",
	 "acl-timeout", HCAT_RANK_STUCK, ""},
	/* CANN's ReportCallError: the code's kind gives the row */
	{"vllm-project/vllm-ascend#2800 (TP worker on device 1)",
	 "(VllmWorker TP1 pid=961) ERROR 09-07 01:11:09 [multiproc_executor.py:596] EH9999: [PID: 961] "
	 "2025-09-07-01:11:09.333.567 synchronize stream failed, runtime result = 507048[FUNC:"
	 "ReportCallError][FILE:log_inner.cpp][LINE:161]",
	 "acl-timeout", HCAT_RANK_STUCK, ""},
	{"vllm-project/vllm-ascend#3141 (device memory exhausted)",
	 "[rank7]:[E928 07:22:40.736525688 compiler_depend.ts:429] operator():build/CMakeFiles/"
	 "torch_npu.dir/compiler_depend.ts:128 NPU function error: call "
	 "aclnnMoeDistributeDispatchV2 failed, error code is 207001",
	 "acl-memory", HCAT_RESOURCE, ""},
	{"vllm-project/vllm#17363 (a device id the container does not see)",
	 "(RayWorkerWrapper pid=23379, ip=10.0.0.5) ERROR 04-29 08:20:50 [worker_base.py:620] "
	 "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU "
	 "function error: c10_npu::SetDevice(device_id_), error code is 107001",
	 "acl-config", HCAT_CONFIG, ""},
	{"hccn_tool -net_health -g, MindSpore's rank table tutorial (mindspore-ai/docs "
	 "tutorials/source_en/parallel/rank_table.md)",
	 "net health status: Fault",
	 "npu-net-health", HCAT_NET, ""},
	{"Gloo unbound_buffer.cc, an RL training report",
	 "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed "
	 "out waiting 1800000ms for recv operation to complete",
	 "gloo-recv-timeout", HCAT_RANK_STUCK, ""},
	/* MPI */
	{"MPICH, a code comment quoting the error",
	 "Fatal error in PMPI_Test: Message truncated, error stack:", "mpi-truncated",
	 HCAT_OP_MISMATCH, ""},
	{"Open MPI's mca_base help text (glotzerlab/software#120, openib on an Expanse GPU node)",
	 "A requested component was not found, or was unable to be opened.  This",
	 "mpi-component-missing", HCAT_CONFIG, ""},
	{"Open MPI's rmaps help text (dstackai/dstack#2451, a hostfile without slots=)",
	 "Either request fewer slots for your application, or make more slots",
	 "mpi-not-enough-slots", HCAT_CONFIG, ""},
	{"MPICH, a VASP troubleshooting page",
	 "Abort(537470981) on node 71 (rank 71 in comm 0): Fatal error in PMPI_Allreduce: Invalid "
	 "communicator, error stack:",
	 "mpi-invalid-comm", HCAT_CONFIG, ""},
	{"Cray MPICH, an OLCF Frontier report",
	 "MPICH ERROR [Rank 0] [job id 2853270.0] [Fri Dec 13 13:41:36 2024] [frontier05084] - "
	 "Abort(2665871) (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Other MPI error, error "
	 "stack:",
	 "mpi-init", HCAT_UNRESOLVED, ""},
	{"Open MPI help-mpi-runtime, an Open MPI users thread",
	 "An MPI communication peer process has unexpectedly disconnected.  This",
	 "mpi-peer-gone", HCAT_RANK_STUCK, ""},
	{"Open MPI, an OpenFOAM troubleshooting page",
	 "MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD", "mpi-abort",
	 HCAT_UNRESOLVED, ""},
	{"Open MPI mpirun, an Open MPI users thread",
	 "mpirun noticed that process rank 0 with PID 77967 on node n342 exited on signal 9 "
	 "(Killed).",
	 "mpi-rank-killed", HCAT_RESOURCE, ""},
	{"Open MPI, an Open MPI users thread",
	 "There are not enough slots available in the system to satisfy the 4 slots", "mpi-slots",
	 HCAT_CONFIG, ""},
	{"Open MPI's bml/r2, hpc/charliecloud#166 (Omni-Path nodes, openib without interfaces)",
	 "At least one pair of MPI processes are unable to reach each other for",
	 "mpi-no-transport", HCAT_CONFIG, ""},
	{"PMIx, an OpenFOAM run log",
	 "[liuliang6Rm80Xos9qrQ:918138] PMIX ERROR: UNREACHABLE in file server/pmix_server.c at line "
	 "1741",
	 "pmix-unreachable", HCAT_RANK_STUCK, ""},
	/* tests and engines */
	{"nccl-tests common.cu format, filled (a failing run)", "# Out of bounds values : 8 FAILED",
	 "wrong-results", HCAT_HARDWARE, ""},
	{"nccl-tests, an NCCL eBPF experiment log", "Test NCCL failure common.cu:210 'invalid usage'",
	 "nccl-test-failure", HCAT_NET, ""},
	{"vLLM ray_utils.py, vLLM issue 7107",
	 "ValueError: The number of required GPUs exceeds the total number of available GPUs in the "
	 "cluster.",
	 "world-exceeds-devices", HCAT_CONFIG, ""},
	{"rdma-core ibdev2netdev, openshift sriov-network-operator issue 635",
	 "mlx5_18 port 1 ==> net1 (Down)", "ibdev2netdev-down", HCAT_LINK_DOWN, ""},
	{"NVIDIA SHARP daemon, NVIDIA/nccl issue 1219",
	 "[C25L19:1:28576 unique id 1201360626793454896] ERROR collect_ports_data: device mlx5_0 "
	 "port 1 is not valid (port is used by SM)",
	 "sharp-port-sm", HCAT_CONFIG, ""},
	{"NVIDIA SHARP aggregation manager, NVIDIA/nccl issue 1425",
	 "Local Port validation failed. error: FabricProvider must bind to port with master SM (SM "
	 "LID:35 local LID:2. Exiting.",
	 "sharp-am-port", HCAT_CONFIG, ""},
	{"nvidia-smi nvlink -s, Azure azhpc-diagnostics issue 73",
	 "         Link 3: <inactive>", "nvlink-inactive", HCAT_LINK_DOWN, ""},
	/* kernel */
	{"e1000e, a kernel mailing list thread",
	 "[   34.084816] e1000e: eth1 NIC Link is Down", "kernel-link-down", HCAT_LINK_DOWN, ""},
	{"pcie aer.c, a linux-pci thread",
	 "Dec  1 02:16:37 bd-cpu18 kernel: pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error "
	 "received: id=0008",
	 "pcie-aer", HCAT_HARDWARE, ""},
	{"ext4, a Linux read-only file system note",
	 "kernel: EXT4-fs error (device sda1): ext4_journal_check_start:83: comm kworker: Detected "
	 "aborted journal",
	 "fs-error", HCAT_HARDWARE, ""},
	{"block layer, the kernel's fault-injection docs",
	 "print_req_error: I/O error, dev nvme0n1, sector 9240", "disk-io-error", HCAT_HARDWARE, ""},
	{"mm/oom_kill.c, a worker crash report",
	 "[Kernel dmesg] [18492.104] Memory cgroup out of memory: Killed process 4182 "
	 "(order-worker) total-vm:812044kB, anon-rss:518420kB, file-rss:1240kB, shmem-rss:0kB",
	 "oom-killer-cgroup", HCAT_RESOURCE, ""},
	{"mm/oom_kill.c, a Raspberry Pi monitoring test",
	 "Sep 15 12:08:17 raspberrypiz2 kernel: Out of memory: Killed process 571 (python) "
	 "total-vm:2071252kB, anon-rss:257104kB file-rss:1576kB",
	 "oom-killer", HCAT_RESOURCE, ""},
	{"mm/oom_kill.c dump_header, b4rtaz/distributed-llama issue 59 (a Raspberry Pi cluster)",
	 "May 19 08:46:24 ubuntu kernel: [107061.602328] main invoked oom-killer: "
	 "gfp_mask=0x1100dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), order=0, oom_score_adj=0",
	 "oom-killer-invoked", HCAT_RESOURCE, ""},
	/* the rows below are each stack's format string with values of ours filled in */
	{"NCCL net_ib.cu before 2.12: \"NET/IB : Got completion with error %d, opcode %d, len %d, "
	 "vendor err %d\"",
	 "gpu-a:4021:4090 [1] transport/net_ib.cu:812 NCCL WARN NET/IB : Got completion with error "
	 "12, opcode 0, len 8, vendor err 244",
	 "ib-retry-exceeded", HCAT_LINK_DOWN, ""},
	{"NCCL net_ib.cu before 2.12, a status out of libibverbs' enum",
	 "NCCL WARN NET/IB : Got completion with error 99, opcode 1, len 0, vendor err 0",
	 "ib-completion-old", HCAT_LINK_DOWN, ""},
	{"NVIDIA/nccl b247dc9 (a 1024-rank job whose peer's node dropped the SYN)",
	 "rank_604.s12gn3064.4031852.log:[0604/1024][2025-02-16 22:31:34,422] [misc/socket.cc:586] "
	 "[s12gn3064:pid=3942408] NCCL WARN socketPollConnect poll() returned 1, no POLLOUT events",
	 "nccl-connect-poll", HCAT_NET, ""},
	{"NVIDIA/nccl#520 (p4d nodes, an OFI plugin from the wrong branch)",
	 "compute-dy-p4d24xlarge-5: compute-dy-p4d24xlarge-5:3048:4991 [2] graph/rings.cc:38 NCCL "
	 "WARN Error : ring 2 does not loop back to start (7 != 2)",
	 "nccl-ring-disagree", HCAT_VERSION, ""},
	{"aws/aws-parallelcluster#1517 (slurmctld draining a node of less memory)",
	 "[2020-08-13T10:20:03.698] error: Node ip-10-2-1-120 has low real_memory size (63622 < "
	 "64000)",
	 "slurm-node-low-memory", HCAT_CONFIG, ""},
	{"clusterinthecloud/terraform#11 (sinfo -R's reason for drained nodes)",
	 "Low RealMemory                          compute[001-003]    ",
	 "slurm-drain-low-memory", HCAT_CONFIG, ""},
	{"awslabs/awsome-distributed-ai#195 (a node's reason when slurmd found no GPU)",
	 "Reason=gres/gpu count reported lower than configured (0 < 8)",
	 "slurm-node-gres-count", HCAT_CONFIG, ""},
	{"NCCL socket.cc: \"socketStartConnect: exceeded timeouts (%d)\"",
	 "h7:310:355 [2] misc/socket.cc:512 NCCL WARN socketStartConnect: exceeded timeouts (20)",
	 "nccl-connect-timeouts", HCAT_NET, ""},
	{"NCCL ibvwrap.cc: WARN(\"Call to ibv_create_cq failed\")",
	 "n1:77:91 [0] misc/ibvwrap.cc:270 NCCL WARN Call to ibv_create_cq failed",
	 "ib-create-cq", HCAT_RESOURCE, ""},
	{"vllm-project/vllm-ascend#4502 (torch_npu used before the engine forked)",
	 "(EngineCore_DP0 pid=14421) ERROR 11-27 08:19:08 [core.py:708] RuntimeError: Cannot "
	 "re-initialize NPU in forked subprocess. To use NPU with multiprocessing, you must use the "
	 "'spawn' start method",
	 "torch-fork-reinit", HCAT_CONFIG, ""},
	{"pytorch/pytorch#163063 (NCCL_ALGO=NVLS left set by an earlier test)",
	 "Error : no algorithm/protocol available for function Broadcast with datatype ncclInt8. "
	 "NCCL_ALGO was set to NVLS.",
	 "nccl-no-algorithm", HCAT_CONFIG, ""},
	{"NVIDIA/nccl#1837 (NCCL_SOCKET_IFNAME naming no interface)",
	 "[trainer0|0]:ncclSocketInit: connecting to address  with family 59936 is neither "
	 "AF_INET(2) nor AF_INET6(10)",
	 "nccl-socket-family", HCAT_CONFIG, ""},
	{"horovod/horovod#3871 (horovodrun under WSL2)",
	 "[1,0]<stdout>:ce1a35ee222c:687:748 [0] graph/xml.cc:332 NCCL WARN Could not find real "
	 "path of /sys/class/pci_bus/0000:03/../../0000:03:00.0",
	 "nccl-topo-sysfs", HCAT_CONFIG, ""},
	{"sail-sg/zero-bubble-pipeline-parallelism#60 (Megatron on two H200 nodes)",
	 "lzm-h200-10:74737:75914 [1] transport/net_socket.cc:488 NCCL WARN NET/Socket : peer "
	 "10.0.5.194<41988> message truncated : receiving 4 bytes instead of 2. If you believe your "
	 "socket network is in healthy state,           there may be a mismatch in collective "
	 "sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks",
	 "nccl-message-truncated", HCAT_OP_MISMATCH, "10.0.5.194"},
	{"NVIDIA/nccl#2428 (an eRDMA device that cannot be opened)",
	 "NCCL WARN NET/IB : Unable to open device erdma_1", "nccl-ib-open-device", HCAT_CONFIG,
	 ""},
	{"jbornschein/mpi4py-examples#11 (four Raspberry Pis, a link-local address)",
	 "WARNING: Open MPI failed to TCP connect to a peer MPI process.  This", "mpi-tcp-connect",
	 HCAT_NET, ""},
	{"horovod/horovod#209 (Docker containers behind masquerading)",
	 "[mydocker01:06805] btl: tcp: Match incoming connection from [[27443,1],1] 44.128.0.4 "
	 "with locally known IP 2.2.2.77 failed (iface 0/4)!",
	 "mpi-tcp-unknown-source", HCAT_CONFIG, ""},
	{"aws/aws-ofi-nccl#785 (a P5 instance with a subset of its GPUs, the static topology)",
	 "2a8874e7d1e6:2196:2275 [1] graph/xml.h:101 NCCL WARN Attribute arch of node cpu not "
	 "found",
	 "nccl-topo-attribute", HCAT_CONFIG, ""},
	{"Horovod docs/troubleshooting.rst (InfiniBand: too little pinned memory)",
	 "NCCL WARN Call to ibv_create_qp failed", "ib-create-qp", HCAT_RESOURCE, ""},
	{"ray-project/ray#11675 (RaySGD on two Azure nodes, NCCL over IB)",
	 "(pid=21785, ip=10.221.0.5) ray-default-worker-5ee698a00:21785:22521 [0] misc/ibvwrap.cc:252 "
	 "NCCL WARN Call to ibv_reg_mr failed",
	 "ib-reg-mr", HCAT_RESOURCE, ""},
	/* the driver's own number names the kind (drvError_t): 6 is DRV_ERROR_OUT_OF_MEMORY */
	{"MindCluster's fault diagnosis test data (plog-10972, a 2 MB huge-page allocation)",
	 "[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 "
	 "DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=2097152(Byte), "
	 "type=2, moduleId=7, drvFlag=18374686479671772161, drvRetCode=6, device_id=0!",
	 "drv-resource", HCAT_RESOURCE, ""},
	/* the device plugin's fault records: the most severe level names the NPU */
	{"MindCluster's documentation (Volcano's vcjob-fault-npu-cm on node133)",
	 "[{\"FaultDeviceList\":[{\"fault_type\":\"CardNetworkUnhealthy\",\"npu_name\":\"A"
	 "scend910-0\",\"fault_level\":\"PreSeparateNPU\",\"fault_handling\":\"PreSeparate"
	 "NPU\",\"large_model_fault_level\":\"PreSeparateNPU\",\"fault_code\":\"81078603\""
	 "},{\"fault_type\":\"CardUnhealthy\",\"npu_name\":\"Ascend910-4\",\"fault_level\""
	 ":\"SeparateNPU\",\"fault_handling\":\"SeparateNPU\",\"large_model_fault_level\":"
	 "\"SeparateNPU\",\"fault_code\":\"A8028801,A4028801,80E18402,80E18401\"}],\"NodeN"
	 "ame\":\"node133\",\"UnhealthyNPU\":[\"Ascend910-4\"],\"NetworkUnhealthyNPU\":[\""
	 "Ascend910-0\"],\"NodeDEnable\":true,\"NodeHealthState\":\"CardUnhealthy\",\"Upda"
	 "teTime\":1744182212}]",
	 "npu-fault-record", HCAT_HARDWARE, ""},
	/* NodeD's, of a part of the node: no device of the job's */
	{"MindCluster's documentation (NodeD's ConfigMap, a CPU at SeparateFault)",
	 "{\"NodeInfo\":{\"FaultDevList\":[{\"DeviceType\":\"CPU\",\"DeviceId\":1,\"FaultC"
	 "ode\":[\"00000011\"],\"FaultLevel\":\"SeparateFault\"}],\"NodeStatus\":\"UnHealt"
	 "hy\"},\"CheckCode\":\"3a2934c3cb875f2256c770c75a6fdf24594fcf64481ac6cd0d0f74b8fe"
	 "a88855\"}",
	 "node-fault-record", HCAT_HARDWARE, ""},
	/* the reason in errno's words decides: too little memory, or a buffer refused */
	{"NVIDIA/nccl-tests#206 (IB only, ulimit -l 8192)",
	 "Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory", "ib-reg-mr",
	 HCAT_RESOURCE, ""},
	{"modelscope/ms-swift#6107 (Megatron SFT on two nodes, the cause not settled)",
	 "[2025-10-13 10:12:54] iv-ydin754tmoxjd1twgixh:1458548:1480527 [0] misc/ibvwrap.cc:182 NCCL "
	 "WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument",
	 "ib-reg-mr", HCAT_UNRESOLVED, ""},
	{"a CUDA-aware MPI job over UCX (cgpu17, the cause not settled)",
	 "0: [1580511823.093560] [cgpu17:53890:1]          ib_md.c:478  UCX  ERROR "
	 "ibv_reg_mr(address=0x2aab4bc00000, length=131072, access=0xf) failed: Bad address",
	 "ib-reg-mr", HCAT_UNRESOLVED, ""},
	/* a DEVX verb the kernel's mlx5_ib does not have: the user-space libraries are newer */
	{"openucx/ucx#7229 (rdma-core over CentOS 7.9's kernel)",
	 "  rc_mlx5_devx.c:99   UCX  ERROR mlx5dv_devx_create_event_channel() failed: Protocol not "
	 "supported",
	 "rdma-verb-unsupported", HCAT_VERSION, ""},
	/* UCX's mlx5 syndrome words, each the row of its ibv_wc_status */
	{"openucx/ucx#5199 (Open MPI 4.0.3 with UCX 1.8.0, DC transport)",
	 "[master:19546:0:19546] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_0:1/IB "
	 "(synd 0x15 vend 0x81 hw_synd 0/0)",
	 "ib-retry-exceeded", HCAT_LINK_DOWN, ""},
	{"UCX ib_mlx5_log.c format, filled (the remote-access syndrome)",
	 "[n1:77:0:77] ib_mlx5_log.c:143  Error on QP 0x1a2 wqe[3]: Remote access (synd 0x13 vend "
	 "0x88 hw_synd 0/0)",
	 "ib-rem-access", HCAT_CONFIG, ""},
	{"UCX ib_mlx5_log.c format, filled (receiver not ready)",
	 "[n1:77:0:77] ib_mlx5_log.c:143  Receive-no-ready retry count exceeded on mlx5_0:1/RoCE "
	 "(synd 0x16 vend 0x82 hw_synd 0/0)",
	 "ib-rnr-retry-exceeded", HCAT_RANK_STUCK, ""},
	/* Open MPI's component selection */
	{"open-mpi/ompi#11669 (pimpleFoam under mpirun, UCX PML on cn557)",
	 "No components were able to be opened in the pml framework.", "mpi-no-component",
	 HCAT_CONFIG, ""},
	{"open-mpi/ompi#11669 (the same run)", "[cn557:1724353] PML ucx cannot be selected",
	 "mpi-component-select", HCAT_CONFIG, ""},
	{"torch elastic's root-cause block (torch/distributed/elastic/multiprocessing/errors)",
	 "  traceback : Signal 9 (SIGKILL) received by PID 5120", "rank-sigkill", HCAT_RESOURCE,
	 ""},
	{"torch elastic's root-cause block, a fault signal",
	 "  traceback : Signal 11 (SIGSEGV) received by PID 5121", "rank-crashed", HCAT_UNRESOLVED,
	 ""},
	{"Open MPI's opal backtrace handler: \"[%s:%d] Failing at address: %p\"",
	 "[worker-3:9910] Failing at address: 0x7f00dead0010", "native-crash", HCAT_UNRESOLVED, ""},
	{"MindSpore's msrun launcher (parallel/cluster/process_entity/_api.py)",
	 "[ERROR] ME(5100:1,MainProcess):2025-01-02-03:04:05.678.901 [_api.py:268] Worker process "
	 "5188 exit with exception.",
	 "launcher-worker-exit", HCAT_UNRESOLVED, ""},
	{"MVAPICH2's rdma_iba_hca_init error stack",
	 "Fatal error in MPI_Init: Other MPI error, error stack: rdma_iba_hca_init(1502)..: cannot "
	 "create cq",
	 "mpi-create-cq", HCAT_RESOURCE, ""},
	{"nvidia's kernel driver: \"NVRM: Xid (PCI:%s): %d, ...\"",
	 "Mar 3 10:00:01 gpu9 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off "
	 "the bus.",
	 "nvidia-xid", HCAT_HARDWARE, ""},
	{"the kernel's bonding driver (real-logs-new batch563, coreos/bugs#2515)",
	 "[ 1203.422721] bond1: link status definitely down for interface ens3f1, disabling it",
	 "bond-member-down", HCAT_LINK_DOWN, ""},
	{"the kernel's bonding driver (real-logs-new batch563, coreos/bugs#2515)",
	 "[ 1203.467563] bond1: now running without any active interface!", "bond-no-member",
	 HCAT_LINK_DOWN, ""},
	{"nvidia's kernel driver, a program's Xid (real-logs-new batch211, gpud's Xid readme)",
	 "[Fri Aug 30 11:43:14 2024] NVRM: Xid (PCI:0000:cb:00): 109, pid=1797828, "
	 "name=pt_main_thread, Ch 00000008, errorString CTX SWITCH TIMEOUT, Info 0x58005",
	 "nvidia-xid-program", HCAT_UNRESOLVED, ""},
	{"nvidia's kernel driver, the GSP firmware's Xid (open-gpu-kernel-modules#446)",
	 "[Fri Mar  3 04:27:08 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=1346198, name=nvidia-smi, Timeout waiting for RPC from GSP! Expected function 103 (GSP_RM_ALLOC) (0x80 0x38).",
	 "nvidia-xid-gsp", HCAT_VERSION, ""},
	{"CANN's operator selection: \"Cannot find bin of op %s, integral key %s.\"",
	 "EZ9999: [PID: 12] 2025-03-04-05:06:07.000.001 Cannot find bin of op Cumsum, integral key "
	 "0/1/|bool/ND/.",
	 "op-binary-missing", HCAT_VERSION, ""},
	{"CANN's operator selection, its second line", "       Cannot find binary for op Cumsum.",
	 "op-binary-missing2", HCAT_VERSION, ""},
	{"the runtime's EE1001 for a device outside the visible ones",
	 "EE1001: [PID: 9] The argument is invalid.Reason: Set visible device failed, invalid "
	 "device=3, input visible devices:0,1",
	 "visible-device-invalid", HCAT_CONFIG, ""},
	{"glibc strerror(ECONNABORTED) after a connect",
	 "n5:61:80 [3] NCCL WARN socketStartConnect: Connect to 192.0.2.44<51000> failed : "
	 "Software caused connection abort",
	 "errno-conn-aborted", HCAT_NET, "192.0.2.44"},
	{"glibc strerror(EHOSTUNREACH), the last retry of NCCL's socketPollConnect",
	 "n5:61:80 [3] NCCL INFO socketPollConnect: connect returned No route to host, retrying "
	 "(20/20) after sleep for 2000 msec",
	 "errno-no-route", HCAT_NET, ""},
	{"glibc strerror(ENETUNREACH) from a launcher",
	 "ERROR: connect to 198.51.100.7 port 8265 failed: Network is unreachable",
	 "errno-net-unreachable", HCAT_NET, "198.51.100.7"},
	/* (c10d's try of one family to listen on, "The server socket cannot be initialized on
	 * [::]:29400 (errno: 97 - ...)", is a try it makes again on IPv4, no event) */
	{"glibc strerror(EAFNOSUPPORT) after perror's call name, filled",
	 "ERROR: socket: Address family not supported by protocol", "errno-afnosupport",
	 HCAT_CONFIG, ""},
	{"MVAPICH2 error_sighandler format, filled",
	 "[gpu-07:mpi_rank_3][error_sighandler] Caught error: Bus error (signal 7)",
	 "mpi-signal-crash", HCAT_UNRESOLVED, ""},
	{"strerror(EACCES) from NCCL's shared memory (pytorch/pytorch#37004)",
	 "node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission "
	 "denied",
	 "errno-access", HCAT_CONFIG, ""},
	{"glibc strerror(ECONNREFUSED) from an HTTP client",
	 "requests.exceptions.ConnectionError: [Errno 111] Connection refused",
	 "errno-refused", HCAT_NET, ""},
	{"strerror(EADDRNOTAVAIL) from NCCL's bootstrap bind (rwth-i6/returnn#1470)",
	 "nd20-01:275975:275975 [0] misc/socket.cc:379 NCCL WARN Call to bind failed : Cannot "
	 "assign requested address",
	 "errno-addr-not-avail", HCAT_CONFIG, ""},
	{"glibc strerror(ECONNRESET) from c10d's store client",
	 "torch.distributed.DistNetworkError: Connection reset by peer",
	 "errno-reset", HCAT_NET, ""},
	{"glibc strerror(EPIPE) from a writer",
	 "send failed on fd 14: Broken pipe", "errno-broken-pipe", HCAT_RANK_STUCK, ""},
	{"Slurm's SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT text from srun (NVIDIA/pyxis#107)",
	 "srun: error: slurm_receive_msgs: [[n1.mytestdomain]:6818] failed: Socket timed out on "
	 "send/recv operation",
	 "slurm-rpc-timeout", HCAT_NET, ""},
	{"glibc strerror(ENODEV) from a verbs call (NVIDIA/nccl#799)",
	 "72bf7b08-26f3-4ebc-8b9d-85df3e4414c0:76786:77145 [3] misc/ibvwrap.cc:284 NCCL WARN Call "
	 "to ibv_modify_qp failed with error No such device",
	 "errno-no-device", HCAT_CONFIG, ""},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void recognise(const char *text, struct hlog_event *e)
{
	struct hlog_line l;
	struct pspan raw = {text, strlen(text)};
	hlog__line_parse(raw, &l);
	memset(e, 0, sizeof(*e));
	e->rank = e->peer_rank = e->dev = e->peer_dev = e->pid = -1;
	e->value = e->result = e->group_size = -1;
	e->work.seq = e->work.enq = e->work.done = e->work.numel = -1;
	e->work.timeout_ms = e->work.ran_ms = -1;
	e->work.pg_rank = -1;
	if (!hlog__recognise(probe__trim(raw), &l, e))
		e->kind = HLOG_NONE;
}

static void test_every_line(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		const struct ccase *c = &cases[i];
		struct hlog_event e;
		recognise(c->line, &e);
		if (e.kind != HLOG_INNER || strcmp(e.detail, c->detail) || e.cat != c->cat)
			fail_msg("%s:\n%s\n got %s %s (%s), want %s (%s)", c->from, c->line,
				 hlog_kind_name(e.kind), e.detail, hcat_name(e.cat), c->detail,
				 hcat_name(c->cat));
		if (strcmp(e.peer_ip, c->peer))
			fail_msg("%s: peer '%s', want '%s'", c->from, e.peer_ip, c->peer);
	}
}

/* The monitored barrier's culprit is the first rank it lists, not the rank that reports it;
 * a line that lists none is not the row's. */
static void test_barrier_culprit(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int rank, peer;
	} b[] = {
		{"RuntimeError: [Rank 0]: Ranks 12, 13 failed to pass monitoredBarrier in 600000 ms", 12,
		 0},
		{"RuntimeError: Rank 5 failed to pass monitoredBarrier in 1000 ms", 5, -1},
	};
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		struct hlog_event e;
		recognise(b[i].line, &e);
		assert_string_equal(e.detail, "monitored-barrier");
		assert_int_equal(e.rank, b[i].rank);
		assert_int_equal(e.peer_rank, b[i].peer);
	}
	struct hlog_event e;
	recognise("monitoredBarrier: some ranks failed to pass monitoredBarrier", &e);
	assert_string_not_equal(e.detail, "monitored-barrier");
}

/* hccn_tool's health check that passed is no failure, nor one with no detect address set
 * ("Init": nothing probed) */
static void test_net_health_success(void **state)
{
	(void)state;
	struct hlog_event e;
	recognise("net health status: Success", &e);
	assert_string_not_equal(e.detail, "npu-net-health");
	recognise("net health status: Init", &e);
	assert_string_not_equal(e.detail, "npu-net-health");
	recognise("net health status: Initx", &e);
	assert_string_equal(e.detail, "npu-net-health");
	recognise("net health status: Receive timeout", &e);
	assert_string_equal(e.detail, "npu-net-health");
}

/* A port's state is down only when down is the state's whole value: ibstat's other states,
 * and the word down inside another word, are not; nor are Open MPI's words without one of its
 * frameworks' names, nor a runtime result no table names. */
static void test_state_and_words_not_over_read(void **state)
{
	(void)state;
	struct hlog_event e;
	static const char *const not_down[] = {
		"\t\tState: Active", "\t\tPhysical state: LinkUp", "\t\tState: Initializing",
		"download state: downloading 3 of 7", "job state: down-scaled to 4 workers"};
	for (size_t i = 0; i < sizeof(not_down) / sizeof(not_down[0]); i++) {
		recognise(not_down[i], &e);
		if (e.kind == HLOG_LINK_DOWN)
			fail_msg("'%s' was read as a link down", not_down[i]);
	}
	recognise("\t\tState: Down", &e);
	assert_int_equal(e.kind, HLOG_LINK_DOWN);
	recognise("link state: DOWN (cable unplugged)", &e);
	assert_int_equal(e.kind, HLOG_LINK_DOWN);
	recognise("the option cannot be selected in this build", &e);
	assert_string_not_equal(e.detail, "mpi-component-select");
	recognise("EH9999: synchronize stream failed, runtime result = 123456", &e);
	assert_string_not_equal(e.detail, "acl-timeout");
	/* a shell's report of a job SIGPIPE ended (NVIDIA/pyxis#122), not a socket's EPIPE */
	recognise("22: slurmstepd: error: pyxis:     /etc/enroot/hooks.d/10-shadow.sh: line 70: "
		  "3474706 Broken pipe             yes 2> /dev/null",
		  &e);
	assert_string_not_equal(e.detail, "errno-broken-pipe");
}

/* Every row is tested: a catalog row no line here gives is a row nobody has seen work. */
static void test_every_row_seen(void **state)
{
	(void)state;
	const struct hlog_sig *s;
	size_t rows = 0;
	for (size_t i = 0; (s = hlog__sig_at(i)); i++, rows++) {
		int seen = 0;
		for (size_t k = 0; k < NCASES && !seen; k++)
			seen = !strcmp(cases[k].detail, s->detail);
		/* the completion, event, syndrome and runtime-result rows stand for the status,
		 * event or code kind they read */
		if (!seen && (!strcmp(s->detail, "ib-completion") || !strcmp(s->detail, "ib-async-event") ||
			      !strcmp(s->detail, "ib-syndrome") ||
			      !strcmp(s->detail, "ompi-openib-status") ||
			      !strncmp(s->detail, "ib-wc-text-", 11) ||
			      !strcmp(s->detail, "acl-runtime-result") ||
			      !strncmp(s->detail, "acl-ret", 7)))
			seen = 1;
		if (!seen)
			fail_msg("catalog row '%s' has no real line in this test", s->detail);
		assert_non_null(s->meaning);
		assert_true(s->meaning[0] && s->fix[0]);
		assert_ptr_equal(hlog__sig_find(s->detail), s);
	}
	assert_true(rows >= 40);
}

/* The statuses are enum ibv_wc_status's, value for value. */
static void test_ib_status(void **state)
{
	(void)state;
#ifdef HAVE_IBVERBS
#define WC(x) {x, #x}
	static const struct {
		int v;
		const char *name;
	} wc[] = {
		WC(IBV_WC_SUCCESS),	     WC(IBV_WC_LOC_LEN_ERR),	   WC(IBV_WC_LOC_QP_OP_ERR),
		WC(IBV_WC_LOC_EEC_OP_ERR),   WC(IBV_WC_LOC_PROT_ERR),	   WC(IBV_WC_WR_FLUSH_ERR),
		WC(IBV_WC_MW_BIND_ERR),	     WC(IBV_WC_BAD_RESP_ERR),	   WC(IBV_WC_LOC_ACCESS_ERR),
		WC(IBV_WC_REM_INV_REQ_ERR),  WC(IBV_WC_REM_ACCESS_ERR),	   WC(IBV_WC_REM_OP_ERR),
		WC(IBV_WC_RETRY_EXC_ERR),    WC(IBV_WC_RNR_RETRY_EXC_ERR), WC(IBV_WC_LOC_RDD_VIOL_ERR),
		WC(IBV_WC_REM_INV_RD_REQ_ERR), WC(IBV_WC_REM_ABORT_ERR),   WC(IBV_WC_INV_EECN_ERR),
		WC(IBV_WC_INV_EEC_STATE_ERR), WC(IBV_WC_FATAL_ERR),	   WC(IBV_WC_RESP_TIMEOUT_ERR),
		WC(IBV_WC_GENERAL_ERR),	     WC(IBV_WC_TM_ERR),		   WC(IBV_WC_TM_RNDV_INCOMPLETE),
	};
	for (size_t i = 0; i < sizeof(wc) / sizeof(wc[0]); i++) {
		assert_string_equal(hlog__ib_status_name(wc[i].v), wc[i].name);
		assert_non_null(hlog__ib_status(wc[i].v));
	}
	assert_null(hlog__ib_status_name(sizeof(wc) / sizeof(wc[0])));
	/* the texts read from lines are ibv_wc_status_str's, and there are 18 of them */
	int texts = 0;
	for (size_t i = 0; i < sizeof(wc) / sizeof(wc[0]); i++)
		if (hlog__ib_status_text(wc[i].v)) {
			assert_string_equal(hlog__ib_status_text(wc[i].v),
					    ibv_wc_status_str((enum ibv_wc_status)wc[i].v));
			texts++;
		}
	assert_int_equal(texts, 18);
	/* the async events are enum ibv_event_type's, named as ibv_event_type_str names them */
	for (int v = IBV_EVENT_CQ_ERR; v <= IBV_EVENT_WQ_FATAL; v++)
		assert_string_equal(hlog__ib_event_name(v), ibv_event_type_str((enum ibv_event_type)v));
	assert_null(hlog__ib_event_name(IBV_EVENT_WQ_FATAL + 1));
	assert_int_equal(hlog__ib_event(IBV_EVENT_DEVICE_FATAL)->cat, HCAT_HARDWARE);
	assert_null(hlog__ib_event(IBV_EVENT_PORT_ACTIVE));
#else
	skip();
#endif
	assert_null(hlog__ib_status(-1));
	assert_int_equal(hlog__ib_status(12)->cat, HCAT_LINK_DOWN);
	assert_string_equal(hlog__ib_status(5)->detail, "ib-wr-flush");
}

/* Through the scan: the cause names the row, the peer and the row's fix. */
static void test_causes(void **state)
{
	(void)state;
	char err[128];
	struct hlog_report r;
	static const struct {
		const char *detail; /* the first case of that row */
		const char *cause;
	} want[] = {
		{"ib-retry-exceeded",
		 "ib-retry-exceeded on node node0, device 1, peer 10.153.235.13: the transport gave "
		 "up"},
		{"gloo-loopback-host",
		 "gloo-loopback-host on node node0, peer 127.0.1.1: Gloo was told to connect"},
		{"world-exceeds-devices",
		 "world-exceeds-devices on node node0: the engine's world size"},
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		size_t i = 0;
		while (i < NCASES && strcmp(cases[i].detail, want[k].detail))
			i++;
		assert_true(i < NCASES);
		const char *line = cases[i].line;
		hlog_report_init(&r);
		assert_int_equal(hlog_scan_buf("node0/job.log", "node0", line, strlen(line), &r, err,
					       sizeof(err)),
				 0);
		assert_int_equal(hlog_conclude(&r), 0);
		if (strncmp(r.cause, want[k].cause, strlen(want[k].cause)))
			fail_msg("cause \"%s\"\nwant \"%s...\"", r.cause, want[k].cause);
		assert_string_equal(r.detail, cases[i].detail);
		hlog_report_release(&r);
	}
}

/* A failure between two ends names the other end, with its port, even where the line gives
 * this end's address too (NVIDIA/nccl#1814: the local GID, an IPv4-mapped address). */
static void test_two_ends_peer(void **state)
{
	(void)state;
	char err[128];
	struct hlog_report r;
	const char *line =
		"hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from "
		"peer 172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) "
		"localGid ::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221";
	hlog_report_init(&r);
	assert_int_equal(hlog_scan_buf("node0/job.log", "node0", line, strlen(line), &r, err,
				       sizeof(err)),
			 0);
	assert_int_equal(hlog_conclude(&r), 0);
	assert_string_equal(r.detail, "ib-retry-exceeded");
	assert_string_equal(r.ip, "172.36.143.59");
	assert_int_equal(r.port, 44206);
	hlog_report_release(&r);
}

/* A recognised line's device in any form the extractor reads; a table of ranks and devices
 * (an indented line with no failure) is still no event. Our lines, in torch_npu's and
 * nccl-tests' formats. */
static void test_device_forms(void **state)
{
	(void)state;
	struct hlog_event e;
	recognise("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 5; 30.00 GiB "
		  "total capacity; 28.00 GiB already allocated; 0 bytes free)",
		  &e);
	assert_int_equal(e.cat, HCAT_RESOURCE);
	assert_int_equal(e.dev, 5);
	recognise("   Rank  3 Pid  77 on node-b device  3 [0x00] NVIDIA A100-SXM4-40GB", &e);
	assert_int_equal(e.kind, HLOG_NONE);
	/* the invalid device the runtime names, not the process's own */
	recognise("EE1001: The argument is invalid.Reason: Set visible device failed, invalid "
		  "device=4, input visible devices:4",
		  &e);
	assert_string_equal(e.detail, "visible-device-invalid");
	assert_int_equal(e.dev, 4);
	/* HCCL's CQE heartbeat (hicann/hccl's fault guide, EI0013): each end's device IP, the
	 * remote one after "remoteIP", and "deviceId[127.10.0.1]" (an address) is no device 127 */
	recognise("[ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:"
		  "1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error "
		  "status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[127.10.0.1],"
		  "deviceId[127.10.0.1],deviceIp[127.11.0.1]}, remoteIP{server[127.10.0.2],"
		  "deviceId[127.10.0.2],deviceIp[127.11.0.2]}",
		  &e);
	assert_int_equal(e.kind, HLOG_ERROR_CQE);
	assert_string_equal(e.ip, "127.11.0.1");
	assert_string_equal(e.peer_ip, "127.11.0.2");
	assert_int_equal(e.dev, -1);
	assert_int_equal(e.peer_dev, -1);
	int id = -1;
	assert_int_equal(hlog__int_after((struct pspan){"deviceId[127.10.0.1]", 20}, "deviceId", &id),
			 0);
	assert_int_equal(hlog__int_after((struct pspan){"deviceId[4], x 1.5", 18}, "deviceId", &id),
			 1);
	assert_int_equal(id, 4);
}

/* r: the report of one file node0/out.log holding text, concluded. */
static void scan_text(const char *text, struct hlog_report *r)
{
	char err[128];
	hlog_report_init(r);
	assert_int_equal(hlog_scan_buf("node0/out.log", "node0", text, strlen(text), r, err,
				       sizeof(err)),
			 0);
	assert_int_equal(hlog_conclude(r), 0);
}

/* A failure inside a record of "key : value" lines is the rank its rank field names (our
 * record, in the form of torch elastic's root-cause block); a rank field far above is not. */
static void test_record_rank(void **state)
{
	(void)state;
	struct hlog_report r;
	static const char rec[] = "Root Cause (first observed failure):\n"
				  "[0]:\n"
				  "  time      : 2026-01-02_03:04:05\n"
				  "  host      : node-b\n"
				  "  rank      : 5 (local_rank: 1)\n"
				  "  exitcode  : -9 (pid: 4100)\n"
				  "  error_file: <N/A>\n"
				  "  traceback : Signal 9 (SIGKILL) received by PID 4100\n";
	scan_text(rec, &r);
	assert_string_equal(r.detail, "rank-sigkill");
	assert_int_equal(r.cat, HCAT_RESOURCE);
	assert_int_equal(r.rank, 5);
	hlog_report_release(&r);
	static const char far[] = "  rank      : 5 (local_rank: 1)\n1\n2\n3\n4\n5\n6\n7\n8\n9\n"
				  "  traceback : Signal 9 (SIGKILL) received by PID 4100\n";
	scan_text(far, &r);
	assert_string_equal(r.detail, "rank-sigkill");
	assert_int_equal(r.rank, -1);
	hlog_report_release(&r);
}

/* A message a terminal wrapped is its first line's rank's; a blank line or a line with its
 * own prefix ends the wrap (our lines, in the form of c10d's heartbeat monitor). */
static void test_wrapped_rank(void **state)
{
	(void)state;
	struct hlog_report r;
	static const char wrapped[] =
		"[rank3]:[E101 10:00:00.000000000 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID "
		"0(default_pg) Rank 3] ProcessGroupNCCL'\n"
		"s watchdog got stuck for 600 seconds without making progress in monitoring enqueued "
		"collectives.\n";
	scan_text(wrapped, &r);
	assert_string_equal(r.detail, "watchdog-hang");
	assert_int_equal(r.rank, 3);
	hlog_report_release(&r);
	static const char apart[] =
		"[rank3]:[E101 10:00:00.000000000 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID "
		"0(default_pg) Rank 3] ProcessGroupNCCL'\n"
		"\n"
		"s watchdog got stuck for 600 seconds without making progress in monitoring enqueued "
		"collectives.\n";
	scan_text(apart, &r);
	assert_int_equal(r.rank, -1);
	hlog_report_release(&r);
}

/* A failed call's device from the header of the very next line (our lines, in torch_npu's
 * form); two lines further it is another message's. */
static void test_next_line_device(void **state)
{
	(void)state;
	struct hlog_report r;
	static const char next[] =
		"RuntimeError: Initialize:x.cpp:1 NPU function error: aclrtSetDevice(2), error code "
		"is 107001\n"
		"[ERROR] 2026-02-03-04:05:06 (PID:77, Device:2, RankID:-1) ERR00100 PTA call acl api "
		"failed\n";
	scan_text(next, &r);
	assert_int_equal(r.dev, 2);
	hlog_report_release(&r);
	static const char later[] =
		"RuntimeError: Initialize:x.cpp:1 NPU function error: aclrtSetDevice(2), error code "
		"is 107001\n"
		"some other line\n"
		"[ERROR] 2026-02-03-04:05:06 (PID:77, Device:2, RankID:-1) ERR00100 PTA call acl api "
		"failed\n";
	scan_text(later, &r);
	assert_int_equal(r.dev, -1);
	hlog_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_line),
		cmocka_unit_test(test_barrier_culprit),
		cmocka_unit_test(test_net_health_success),
		cmocka_unit_test(test_state_and_words_not_over_read),
		cmocka_unit_test(test_every_row_seen),
		cmocka_unit_test(test_ib_status),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_two_ends_peer),
		cmocka_unit_test(test_device_forms),
		cmocka_unit_test(test_record_rank),
		cmocka_unit_test(test_wrapped_rank),
		cmocka_unit_test(test_next_line_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
