/* Whether a line is an error, by its words (probes/logs/errwords.c): every row of the error
 * words and of the benign forms read on a real line, verbatim, each with where it is from
 * (a case under tests/data/real-logs, or a public issue thread); then whole lines in formats
 * no prefix rule knows, which must read as errors, and informational lines that must not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/logline.h"
#include "tests/unit/span.h"

/* A row's real line: from names a case under tests/data/real-logs (then line is a piece of
 * the line, which is read whole from the case's files) or a public thread (then line is the
 * whole line, copied verbatim). */
struct row_line {
	const char *row; /* the table row's form */
	const char *from;
	const char *line;
};

#define REAL "tests/data/real-logs/"

/* The whole line of case from's files that holds piece, into buf; or line itself when from
 * is a thread's address. */
static const char *real_line(const char *from, const char *line, char *buf, size_t len)
{
	if (!strncmp(from, "https://", 8))
		return line;
	char cmd[512];
	if (strchr(line, '\'') || strchr(from, '\''))
		fail_msg("a piece to look for has a quote: %s", line);
	snprintf(cmd, sizeof(cmd), "grep -rhF -m1 -- '%s' '" REAL "%s'", line, from);
	FILE *p = popen(cmd, "r");
	if (!p)
		fail_msg("popen: %s", cmd);
	if (!fgets(buf, (int)len, p))
		buf[0] = '\0';
	pclose(p);
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		fail_msg("no line with \"%s\" in " REAL "%s", line, from);
	return buf;
}

static const struct row_line word_lines[] = {
	{"Unavailable: ",
	 "../real-logs-new/batch1008/tensorflow-7767-ps-restart-worker-unavailable-eof",
	 "op_kernel.cc:993] Unavailable: {"},
	{"Internal: ",
	 "../real-logs-new/batch773/dls-example-20-8xp100-transformer-checkpoint-save-s3-unable-to-"
	 "connect-endpoint-unresolved",
	 "op_kernel.cc:1192] Internal: : Unable to connect to endpoint"},
	{"page fault",
	 "../real-logs-new/batch897/legacy-rocm-build-2196-rocm-bandwidth-test-gpu-burn-gfxhub-page-"
	 "fault-sdma0-unresolved",
	 "amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:10 pasid:32769"},
	{"-E-",
	 "../real-logs-new/batch905/sriov-network-operator-317-cx6-lx-mstconfig-failed-to-open-"
	 "device-exit-status-3",
	 "RunCommand(): -E- Failed to open the device"},
	/* syzbot's report "general protection fault in six_lock_ip_waiter" to linux-kernel */
	{"protection fault", "https://syzkaller.appspot.com/bug?extid=13b85e45ca365499aad5",
	 "Oops: general protection fault, probably for non-canonical address 0xdffffc000000000e: "
	 "0000 [#1] PREEMPT SMP KASAN NOPTI"},
	{"corrupted",
	 "../real-logs-new/batch895/azhpc-diagnostics-test-samples-nvidia-smi-inforom-corrupted-gpu-"
	 "0008-v100",
	 "WARNING: infoROM is corrupted at gpu 0008:00:00.0"},
	{"unschedulable",
	 "../real-logs-new/batch666/ray-docs-kuberay-volcano-test-cluster-1-queue-capacity-gang-"
	 "unschedulable",
	 "tasks in gang unschedulable"},
	{"lost carrier",
	 "../real-logs-new/batch837/azurehpc-health-checks-test-data-1dev-6flap-syslog-ib6-lost-"
	 "carrier",
	 "ib6: lost carrier"},
	{"pending page blacklist : yes",
	 "../real-logs-new/batch854/azurehpc-health-checks-test-data-bad-nvsmi8-retired-pages-dbe-"
	 "pending-blacklist",
	 "Pending Page Blacklist            : Yes"},
	{"no space left on device",
	 "../real-logs-new/batch879/lustre-wiki-handling-full-osts-ost2-99-percent-dd-enospc",
	 "No space left on device"},
	/* (LAMMPS's "Cannot open log.lammps for writing: Read-only file system" is a warning
	 * it goes on after: a benign row) */
	{"read-only file system", "https://github.com/DataBiosphere/azul/pull/190",
	 "OSError: [Errno 30] Read-only file system: '/home/sbx_user1068'"},
	{"stale file handle",
	 "../real-logs-new/batch648/tvm-ffi-667-multi-host-cold-cache-ninja-link-stale-file-handle-"
	 "on-nfs",
	 "final link failed: Stale file handle"},
	{"broken pipe",
	 "../real-logs-new/batch356/wespeaker-171-concurrent-torchrun-jobs-one-node-finished-job-"
	 "takes-rdzv-store-broken-pipe",
	 "RuntimeError: Broken pipe"},
	{"device or resource busy",
	 "../real-logs-new/batch267/aws-ofi-nccl-fff50b8b-gin-gdaki-alltoall-shutdown-failed-to-"
	 "close-fid-domain-busy",
	 "Failed to close fid_domain: Device or resource busy"},
	{"transport endpoint is not connected",
	 "../real-logs-new/batch328/gperfstudy-gke-4node-flux-impi-lulesh-343rank-ofi-poll-failed-"
	 "transport-endpoint-not-connected-rank141",
	 "Transport endpoint is not connected"},
	{"memory access fault",
	 "../real-logs-new/batch830/aiter-2059-glm5-sglang-mi355-tp8-fused-moe-memory-access-fault-"
	 "unresolved",
	 "Memory access fault by GPU node-7"},
	{"error", "llamafactory-3839-ej0001-hccp-busy", "[ERROR] HCCL error in:"},
	{"errors", "vllm-ascend-5461-a2-2node-ei0006-mc2", "with other errors or no errors"},
	{"fail", "https://github.com/firemodels/fds/issues/5853",
	 "pkt_RTS_handler(317)............: fail failed"},
	{"fails", "vllm-ascend-5461-a2-2node-ei0006-mc2", "Nnopbase fails to invoke"},
	{"failed", "https://github.com/firemodels/fds/issues/5853",
	 "pkt_RTS_handler(317)............: fail failed"},
	{"failure", "vllm-ascend-1815-ej0002-port-down", "the connection failure between"},
	{"fatal", "https://github.com/SmileiPIC/Smilei/issues/819",
	 "Abort(1090959) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI error, "
	 "error stack:"},
	{"exception", "ascend-pytorch-doc-ei0002-heartbeat-lost", "Cluster Exception Location"},
	{"exceptions", "hicann-hccl-fd-ei0006-hcom-allreduce-detect-dst-device0",
	 "dstRank reports other exceptions"},
	{"abort", "https://github.com/NVIDIA/nccl-tests/issues/166",
	 "ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
	 "10.0.0.2<45763> failed : Software caused connection abort"},
	{"aborted", "https://github.com/pytorch/gloo/issues/33",
	 "mpirun noticed that process rank 1 with PID 29013 on node 172.17.27.12 exited on signal 6 "
	 "(Aborted)."},
	{"refused", "https://github.com/pytorch/gloo/issues/33",
	 "  what():  [enforce fail at /home/sayantan/gloo_GIT/gloo/gloo/transport/tcp/pair.cc:498] "
	 "optval == 0. 111 vs 0. SO_ERROR: Connection refused"},
	{"timeout", "llamafactory-7396-nccl-watchdog-allreduce-pg1",
	 "Watchdog caught collective operation timeout"},
	{"timed out", "openrlhf-265-vllm-client-socket-docker-bridge",
	 "The client socket has timed out after 1800s while trying to connect to (172.17.0.2"},
	{"unreachable", "https://github.com/shadowsocksr/shadowsocksr/issues/85",
	 "[Errno 101] Network is unreachable"},
	{"no route", "https://github.com/shadowsocksr/shadowsocksr/issues/85",
	 "2016-05-20 08:20:27 ERROR    [Errno 113] No route to host"},
	{"cannot", "https://github.com/firemodels/fds/issues/5853",
	 "dcp_recv(165)...................: Internal MPI error!  Cannot read from remote process"},
	{"could not", "https://github.com/bytedance/byteps/issues/61",
	 "worker-pytorch-0:24:24 [1] NCCL INFO Could not find real path of "
	 "/sys/class/net/eth0/device"},
	{"can't",
	 "../real-logs-new/batch66/ms-swift-6368-pai-dlc-worker-nslookup-cant-resolve-master-0-torchrun",
	 "dlc1dwuhvtro4c27-master-0"},
	{"couldn't", "../real-logs-new/batch143/lsgunth-perftest-1-ib-send-lat-port-1-state-down",
	 "set the link layer"},
	{"state is down", "../real-logs-new/batch143/lsgunth-perftest-1-ib-send-lat-port-1-state-down",
	 "Port number 1 state is Down"},
	{"too small", "../real-logs-new/batch142/phy-clusters-6-impi-dapl-rlimit-memlock-64k-cu01-cu02",
	 "[0] DAPL startup: RLIMIT_MEMLOCK too small"},
	{"invalid", "vllm-ascend-167-ray-visible-devices-invalid-device", "The argument is invalid"},
	{"linkdown", "https://github.com/hicann/driver/blob/ef377e950a32b1641c108c59481e39e9643b7d63/docs/en/Ascend_950_HCCN_Tool/Ascend_950_HCCN_Tool/querying-the-status-information-of-a-historical-link-establishment-process-of-a-port.md",
	 "| 0   | 0    | 4    | 1     | Thu Jan 1 00:00:00 1970 | "
	 "L0:link_proc|L1:wait_detect|L2:linkdown|L3:linkdown_off   |"},
	{"link_fail", "https://github.com/hicann/driver/blob/ef377e950a32b1641c108c59481e39e9643b7d63/docs/en/Ascend_950_HCCN_Tool/Ascend_950_HCCN_Tool/querying-the-status-information-of-a-historical-link-establishment-process-of-a-port.md",
	 "| 0   | 0    | 4    | 0     | Thu Jan 1 00:00:00 1970 | "
	 "L0:link_proc|L1:link_fail                                 |"},
	{"incompatible",
	 "../real-logs-new/batch427/dcgm-31-a100-mig-dcgmi-diag-r1-gpu0-mig-configuration-incompatible",
	 "MIG configuration is incompatible with the diagnostic because it prevents access to the "
	 "entire GPU."},
	{"incomplete",
	 "../real-logs-new/batch427/rocm-cvs-rcclras-2-28-3-2node-16gpu-incomplete-rank3-gpu3-missing-"
	 "10-245-40-180",
	 "#0-0 (488feb6f1c97a0e1) INCOMPLETE"},
	{"unrecognized argument",
	 "../real-logs-new/batch444/haibinlai-apac-hpc-ai-2024-qiming-204802-hoomd-2node-256rank-"
	 "openmpi-module-conflict-intel-mpi-hydra-unrecognized-argument-x",
	 "hydra_arg.c:91): unrecognized argument x"},
	{"unrecognized",
	 "../real-logs-new/batch451/anuhpc2025-hpc-xenon-cluster-hpl-cpu-job1435-4node-32rank-mpirun-"
	 "map-by-rankfile-file-unrecognized-modifier-orte-init-failed",
	 "The mapping request contains an unrecognized modifier:"},
	{"oom-kill",
	 "../real-logs-new/batch449/aws-parallelcluster-2701-head-node-python-global-oom-kill-lustre-"
	 "ptlrpc-skipped-messages",
	 "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom"},
	{"no heartbeat",
	 "../real-logs-new/batch471/flux-core-7654-tuolumne2150-heartbeat-overdue-overlay-disconnect-"
	 "no-heartbeat-5-1m",
	 "overlay.crit[1150]: disconnecting: no heartbeat for 5.1m"},
	{"sq full",
	 "../real-logs-new/batch466/inferencex-998-mi300x-disagg-bnxt-re-ibgda-rdma-send-queue-full",
	 "SQ full (batch): ep=0 depth=4351 requested=1 max=4351"},
	{"not compatible with the current",
	 "../real-logs-new/batch498/llm-action-h800-env-install-sm-90-not-compatible-pytorch-1-13-1-cuda-11-7",
	 "NVIDIA H800 with CUDA capability sm_90 is not compatible with the current PyTorch installation."},
	{"do not have the same", "../real-logs-new/batch950/hpmpi-227-ib-port-gid-subnet-prefix-mismatch",
	 "do not have the same subnet_prefix"},
	{"return code: ", "../real-logs-new/batch953/modelarts-trouble-13-0074-training-end-return-code-137-process-exits",
	 "[Modelarts Service Log]Training end with return code: 137"},
	{"return code = ", "../real-logs-new/batch269/qwen-vl-series-finetune-79-deepspeed-launcher-return-code-minus9-host-ram-oom",
	 "exits with return code = -9"},
	{"return code ", "../real-logs-new/batch366/scr-510-crusher180-autofs-nfs-halt-scr-flock-errno-524-rank0",
	 "scr_fetch_latest: return code 1, 0.000708 secs"},
	{"errdisabled", "../real-logs-new/batch720/arista-eos-errdisabled-et23-et24-link-flap",
	 "Et23                                  errdisabled       link-flap"},
	{"= backtrace",
	 "../real-logs-new/batch435/openhpc-ohpc-2059-ucx-ohpc-1-17-update-breaks-openmpi5-gnu13-5-0-"
	 "3-segfault-backtrace",
	 "==== backtrace (tid: 548615) ===="},
	{"= backtrace", "../real-logs-new/batch936/ucx-3776-osu-latency-cuda-gdr-copy-without-cuda-copy-segfault",
	 "==== backtrace ===="},
	{"not available, please use",
	 "../real-logs-new/batch431/performance-study-cyclecloud-amg2023-256n-job4799-hpc-140-mlx5-"
	 "ib0-not-available-pml-ob1-vs-ucx",
	 "is not available, please use one or more of: "},
	{"deadlock",
	 "../real-logs-new/batch273/verl-pr6405-fsdp2-gemma4-buffer-broadcast-order-inv-freq-128-vs-256-rank0-rank1-hang",
	 "NCCL deadlock: rank0 sends 128 elements, rank1 expects 256"},
	{"err=", "../real-logs-new/batch57/arjunausers-216-e001-psm2-no-hfi-units-active-openib-no-active-ports",
	 "e001.53882PSM2 no hfi units are active (err=23)"},
	{"exit_status=",
	 "../real-logs-new/batch390/cbio-cluster-256-torque-smufin-mpi-160rank-5node-exit-status-271-mem-240g-oom",
	 "Exit_status=271"},
	{"exit code ",
	 "../real-logs-new/batch328/gperfstudy-gke-4node-flux-impi-lulesh-343rank-ofi-poll-failed-"
	 "transport-endpoint-not-connected-rank141",
	 "flux-job: task(s) exited with exit code 143"},
	{"exit code: ", "../real-logs-new/batch57/nccl-tests-36-azure-nc24rs-v3-2vm-ib-unhandled-system-error",
	 "Exit code:    3"},
	{"exit code=", "../real-logs-new/batch32/vllm-ascend-946-2node-910b-qwen25-72b-raylet-exit-code-1",
	 "raylet [exit code=1]"},
	{"exitcode: ", "../real-logs-new/batch133/metax-forum-430-maca-torchrun-eaddrinuse-29500-rank5",
	 "exitcode: 1"},
	{"exitcode : ",
	 "../real-logs-new/batch312/aicr-benchmarks-megatron-2node-a0003-rank1-cuda-unknown-error-rank0-"
	 "store-wait-timeout-600s",
	 "exitcode  : 1 (pid: 54305)"},
	{"table full",
	 "../real-logs-new/batch412/kubernetes-71261-node-nf-conntrack-table-full-dropping-packet-"
	 "kube-proxy-max-786432",
	 "nf_conntrack: table full, dropping packet"},
	{"blocked for more than",
	 "../real-logs-new/batch414/io-500-dev-62-ior-hard-mpiio-lustre-hung-task-ior-d-state-osc-"
	 "io-fsync-end",
	 "INFO: task ior:142307 blocked for more than 120 seconds."},
	{"dropping packet",
	 "../real-logs-new/batch412/kubernetes-18604-kube-proxy-node-nf-conntrack-table-full-"
	 "dropping-packet-limits-too-low",
	 "dropping packet"},
	{"killed", "https://github.com/lllyasviel/Fooocus/issues/1117", "Killed"},
	{"as unhealthy",
	 "../real-logs-new/batch1262/gpu-operator-docs-troubleshooting-device-plugin-xid79-gpu-"
	 "adb24b25-marked-unhealthy",
	 "XidCriticalError: Xid=79 on Device=GPU-adb24b25-1db1-436e-d958-ddee5da83d07; marking "
	 "device as unhealthy."},
	{"marked unhealthy",
	 "../real-logs-new/batch1262/gpu-operator-docs-troubleshooting-device-plugin-xid79-gpu-"
	 "adb24b25-marked-unhealthy",
	 "device marked unhealthy: GPU-adb24b25-1db1-436e-d958-ddee5da83d07"},
	{"killing subprocess",
	 "../real-logs-new/batch1255/deepspeed-2946-t5-11b-8gpu-launcher-kills-8-ranks-return-code-"
	 "9-unresolved",
	 "[launch.py:318:sigkill_handler] Killing subprocess 3698707"},
	{"marked dead",
	 "../real-logs-new/batch365/ray-25231-random-shuffle-1tb-node-172-31-73-171-marked-dead-"
	 "lagging-heartbeats",
	 "has been marked dead because the detector has missed too many heartbeats from it"},
	{"marked as dead",
	 "../real-logs-new/batch198/ray-28562-chaos-many-actors-raylet-172-31-84-216-marked-dead-"
	 "gcs-lost-60s",
	 "mistakenly been marked as dead by the GCS"},
	{"失败",
	 "../real-logs-new/batch51/mind-cluster-fd-diag-mindie-2node-instance-backendconfig-invalid-worker1-device11",
	 "BackendConfig配置参数校验失败"},
	{"错误", "../real-logs-new/batch51/mind-cluster-fd-diag-2worker-npu-link-down-flap-worker0-device2",
	 "Link Down: NPU端闪断错误"},
	{"超时", "../real-logs-new/batch51/mind-cluster-fd-diag-2worker-npu-link-down-flap-worker0-device2",
	 "notify wait超时"},
	{"singletons will be started",
	 "../real-logs-new/batch76/ompi-13523-srun-mpi-pmi2-no-pmix-server-4-singletons-proc-0-of-1",
	 "4 singletons will be started"},
	{"fallen off the bus", "../real-logs-new/batch6/nvsentinel-155-dmesg-gpu-fallen-off-bus",
	 "NVRM: fallen off the bus"},
	{"segmentation fault", "https://github.com/mpi4py/mpi4py/issues/281",
	 "Segmentation fault (core dumped)"},
	{"received signal",
	 "../real-logs-new/batch238/nccl-1669-alltoall-ras-query-during-init-crash-nccl-2-26-2-fixed-2-27-3",
	 "[rtptest1621:405884] *** Process received signal ***"},
	{"unknown option",
	 "../real-logs-new/batch259/gpu-operator-1595-nvlink5-driver-daemonset-fm-start-script-unknown-option-fabricmanager-cfg",
	 "Unknown option: /usr/share/nvidia/nvswitch/fabricmanager.cfg"},
	{"death signal",
	 "../real-logs-new/batch244/ultralytics-918-yolov8-8gpu-ddp-terminal-closed-elastic-agent-sighup-death-signal",
	 "WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, shutting down workers"},
	{"failing to",
	 "../real-logs-new/batch246/hipace-1185-perlmutter-large-mesh-hang-mpich-cq-exhaustion-warning-pe4",
	 "PE 4: MPICH WARNING: OFI is failing to make progress on posting a receive."},
	{"fault reason",
	 "../real-logs-new/batch341/tensorflow-32654-mirroredstrategy-4x1080ti-p2p-dmar-pte-write-"
	 "faults-iommu",
	 "Request device [02:00.0] fault addr cd139000 [fault reason 05]"},
	{"io_page_fault", "https://github.com/amd/xdna-driver/pull/181",
	 "AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x001a address=0xfffc8000 flags=0x0050]"},
	{"no opkernel",
	 "../real-logs-new/batch341/tensorflow-44281-windows-mirroredstrategy-2gpu-no-opkernel-"
	 "ncclallreduce",
	 "No OpKernel was registered to support Op"},
	{"oomkilled",
	 "../real-logs-new/batch328/gperfstudy-gke-32node-flux-mfem-2816rank-pods-oomkilled-"
	 "mfem-0-6-13-25",
	 "mfem-0-z6rhn    0/1     OOMKilled                0             107s"},
	{"died",
	 "../real-logs-new/batch318/alcf-nccl-tests-polaris-torch-nccl-aws-libfabric-gdr-phb-2x2-"
	 "silent-hang-rank0-signal15-after-1x4-2x1-pass",
	 "x3103c0s7b0n0.hsn.cm.polaris.alcf.anl.gov: rank 0 died from signal 15"},
	{"no such file or directory",
	 "../real-logs-new/batch240/cloudai-720-mpijob-ngc-pytorch-worker-no-sshd-launcher-missing-success",
	 "/bin/bash: line 1: /usr/sbin/sshd: No such file or directory"},
	{"soft lockup",
	 "../real-logs-new/batch1322/flexflow-train-261-inception-2gpu-kernel-soft-lockup-cpu29-"
	 "unresolved",
	 "watchdog: BUG: soft lockup - CPU#29 stuck for 22s! [inception:274704]"},
	{"hard lockup", "../ascend-fd-st/st_module_testcase/kg_parse",
	 "NMI watchdog: Watchdog detected hard LOCKUP on cpu 34"},
	{"bad address",
	 "../real-logs-new/batch1309/kharma-44-delta-a100-ucx-cma-process-vm-readv-bad-address-"
	 "device-mpi-buffers",
	 "process_vm_readv(pid=94123 length=25800) returned -1: Bad address"},
	{"no such device",
	 "../real-logs-new/batch794/k8s-rdma-sriov-dev-plugin-33-rdma-create-ep-no-such-device-"
	 "unresolved",
	 "rdma_create_ep: No such device"},
	{"function not implemented",
	 "../real-logs-new/batch119/sigma2-documentation-olivia-openmpi-single-node-ofi-fi-domain-"
	 "function-not-implemented-c1-3",
	 "  Error: Function not implemented (38)"},
	{"operation not supported",
	 "../real-logs-new/batch406/pytorch-65022-aws-efa-tensorpipe-ibv-h-172-operation-not-"
	 "supported",
	 "In operator() at tensorpipe/common/ibv.h:172 \"\": Operation not supported"},
	{"input/output error",
	 "../real-logs-new/batch306/pytorch-cuda-mpi-error-job422332-cgpu17-ucx-ibv-reg-mr-bad-"
	 "address-mpi-bcast-err-other-abort",
	 "pml_ucx.c:775  Error: ucx send failed: Input/output error"},
	{"not accessible",
	 "../real-logs-new/batch242/deepep-223-test-internode-2node-nvidia-peermem-not-loaded-peer-gpu-not-accessible",
	 "/sgl-workspace/nvshmem/src/host/topo/topo.cpp:469: [GPU 1] Peer GPU 0 is not accessible, exiting ..."},
	{"out of memory", "nccl-962-proxy-cuda-oom", "include/alloc.h:178 NCCL WARN Cuda failure"},
	{"bad_alloc",
	 "../real-logs-new/batch699/lightgbm-2077-two-machines-143g-data-std-bad-alloc-after-linking-"
	 "network",
	 "std::bad_alloc"},
	{"insufficient",
	 "../real-logs-new/batch296/shs-docs-cxi-write-bw-use-hp-insufficient-2m-huge-pages-need-8",
	 "cxi_write_bw: Insufficient 2M huge pages. Need 8 to run"},
	{"core dumped", "https://github.com/mpi4py/mpi4py/issues/281",
	 "Segmentation fault (core dumped)"},
	{"illegal", "https://github.com/NVIDIA/nccl/issues/629",
	 "A03-R28-I49-2-6000166:104934:104934 [1] init.cc:204 NCCL WARN Cuda failure 'an illegal "
	 "memory access was encountered'"},
	{"terminate called", "vllm-ascend-382-torch-npu-watchdog-allreduce",
	 "terminate called after throwing"},
	{"connection reset", "https://github.com/NVIDIA/nccl/issues/629",
	 "A03-R28-I49-3-9000018:46841:46987 [0] include/socket.h:428 NCCL WARN Net : Call to recv "
	 "from 11.127.49.2<36048> failed : Connection reset by peer"},
	{"lost communication", "https://github.com/open-mpi/ompi/issues/11830",
	 "ORTE has lost communication with a remote daemon."},
	{"undefined symbol", "https://github.com/Ascend/pytorch/issues/35",
	 "/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/torch_npu/lib/"
	 "libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!"},
	{"not found (required by",
	 "../real-logs-new/batch115/awsome-distributed-ai-292-aws-ofi-nccl-1-9-0-libfabric-fabric-"
	 "1-7-not-found",
	 "not found (required by"},
	{"no module named", "llamafactory-5638-ec0010-tbe-import-failed", "No module named"},
	{"unable", "https://github.com/open-mpi/ompi/issues/12103",
	 "A process or daemon was unable to complete a TCP connection"},
	{"aborting",
	 "../real-logs-new/batch226/alcf-docs-polaris-conda-python-mpidi-cray-init-gpu-support-enabled-gtl-not-linked-mpi4py-import",
	 "aborting job:"},
	{"is not linked",
	 "../real-logs-new/batch226/alcf-docs-polaris-conda-python-mpidi-cray-init-gpu-support-enabled-gtl-not-linked-mpi4py-import",
	 "GPU_SUPPORT_ENABLED is requested, but GTL library is not linked"},
	{"too large",
	 "../real-logs-new/batch136/olcf-user-docs-summit-spectrum-mpi-pmix-msg-header-size-25836785-over-limit-16777216",
	 "A received msg header indicates a size that is too large:"},
	{"exceeds", "../real-logs-new/batch153/gpustack-5014-ascend-vllm-ray-raylet-dev-shm-9663676416-lt-10200547328",
	 "System memory request exceeds memory available in /dev/shm"},
	{"permission denied", "https://github.com/chrysn/aiocoap/pull/350",
	 "Network error: [Errno 13] Permission denied"},
	{"not permitted", "../real-logs-new/batch216/mpi-operator-642-openshift-sriov-worker-sshd-chroot-not-permitted",
	 "chroot(\"/run/sshd\"): Operation not permitted [preauth]"},
	{"unknown host", "../real-logs-new/batch216/volcano-778-mpi-job-hostnetwork-mpiworker-host-unknown",
	 "ping: unknown host lm-mpi-job-mpiworker-0.lm-mpi-job"},
	{"service not known",
	 "../real-logs-new/batch42/pytorch-operator-333-worker-host-not-found-master-not-ready",
	 "ValueError: host not found: Name or service not known"},
	{"address already in use", "https://github.com/pytorch/gloo/issues/33",
	 "C++ exception with description \"[/home/sayantan/gloo_GIT/gloo/gloo/transport/tcp/"
	 "pair.cc:135] bind: Address already in use\" thrown in the test body."},
	{"mismatch", "opendde-23-fingerprint-allgather-shapes", "Detected mismatch between"},
	{"NCCL WARN", "https://github.com/NVIDIA/nccl/issues/1814",
	 "hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer "
	 "172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) localGid "
	 "::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221"},
	{"ECONNREFUSED", "https://github.com/chrysn/aiocoap/pull/350",
	 "Network error: [Errno 111] Connection refused (ECONNREFUSED, received through"},
	{"EHOSTUNREACH", "https://github.com/chrysn/aiocoap/pull/350",
	 "Network error: [Errno 113] No route to host (EHOSTUNREACH, received through"},
	{"ENETUNREACH", "https://github.com/chrysn/aiocoap/pull/350",
	 "Network error: [Errno 101] Network is unreachable (ENETUNREACH, received"},
	{"exceeded", "https://github.com/deepseek-ai/DeepEP/issues/86",
	 "es/bootstrap/uid/ncclSocket/ncclsocket_socket.cpp:socketStartConnect:488: "
	 "socketStartConnect: exceeded timeouts (3)socketStartConnect: exceeded timeouts (3)"},
	{"too many open files", "https://github.com/NVIDIA/nccl/issues/127",
	 "Socket.h(166):\"too many open files\""},
	{"panic", "../real-logs-new/batch56/qnsm-44-dpdk-link0-0gbps-down-panic-some-links-down",
	 "PANIC in app_check_link():"},
	{"links are down",
	 "../real-logs-new/batch56/qnsm-44-dpdk-link0-0gbps-down-panic-some-links-down",
	 "Some links are DOWN"},
	{"exited unexpectedly", "https://github.com/vllm-project/vllm-ascend/issues/946",
	 "Some Ray subprocesses exited unexpectedly:"},
	{"stalled", "https://github.com/horovod/horovod/issues/429", "Stalled ops:"},
	{"port not active", "https://github.com/MoonshotAI/checkpoint-engine/issues/1",
	 "W0911 06:19:37.204383  3746 rdma_context.cpp:433] Device mlx5_3 port not active"},
	{"try again", "https://github.com/kubeflow/mpi-operator/issues/733",
	 "Please correct the hostfile and try again."},
	{"please correct", "https://github.com/kubeflow/mpi-operator/issues/733",
	 "Please correct the hostfile and try again."},
	{"missing ranks", "https://github.com/horovod/horovod/issues/1012",
	 "[1,0]<stderr>:[2019-04-13 13:53:31.851506: W horovod/common/operations.cc:588] "
	 "HorovodBroadcast_dense_1_bias_Momentum_0 [missing ranks: 1]"},
	{"hanging", "https://github.com/vllm-project/vllm-ascend/issues/12533",
	 "(EngineCore_DP0 pid=39058) INFO 07-21 16:16:42 [shm_broadcast.py:705] No available shared "
	 "memory broadcast block found in 60 seconds. This typically happens when some processes "
	 "are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache "
	 "quantization)."},
	{"failing at address", "https://github.com/mindspore-lab/mindyolo/issues/238",
	 "[notebook-2a7fcf5e-9744-41c7-9c1c-5e37eeafdf60:3436928] Failing at address: 0xb8"},
	/* the page pads the block's lines with blanks; without them */
	{"SIGSEGV", "https://github.com/NVIDIA/Megatron-LM/issues/1880",
	 "  traceback : Signal 11 (SIGSEGV) received by PID 3304209"},
	{"SIGKILL", "https://github.com/lzhxmu/CPPO/issues/6",
	 "  traceback : Signal 9 (SIGKILL) received by PID 14750"},
	{"signal 9",
	 "../real-logs-new/batch183/"
	 "peridigm-12-mvapich-mpirun-rsh-stampede-rank16-signal9-out-of-memory",
	 "[c557-203.stampede.tacc.utexas.edu:mpispawn_1][child_handler] MPI process (rank: 16, "
	 "pid: 107546) terminated with signal 9 -> abort job"},
	{"unknown symbol",
	 "../real-logs-new/batch186/nv-peer-memory-39-ubuntu-kernel-upgrade-nv-peer-mem-symbol-"
	 "version-ib-register-peer-memory-client",
	 "[76463.688326] nv_peer_mem: Unknown symbol ib_register_peer_memory_client (err -22)"},
	{"disagrees about version",
	 "../real-logs-new/batch186/nv-peer-memory-39-ubuntu-kernel-upgrade-nv-peer-mem-symbol-"
	 "version-ib-register-peer-memory-client",
	 "[76463.688316] nv_peer_mem: disagrees about version of symbol "
	 "ib_register_peer_memory_client"},
	{"Evicted", "https://github.com/kubeflow/trainer/issues/301",
	 "Reason:         Evicted"},
	{"Unsupported value",
	 "https://github.com/NVIDIA/gpu-operator/commit/5831d10a48056383ddad28f4bf29b99bd7ccb560",
	 "spec.operator.defaultRuntime: Unsupported value: \"\": supported values:"},
	{"DPANIC", "https://github.com/NVIDIA/gpu-operator/commit/bdbb03ba7cc264e4a282f1ed9e87bd596b3bb93c",
	 "2021-08-23T13:43:50.931Z        DPANIC  controllers.ClusterPolicy"},
	{"NVRM: Xid", "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1150",
	 "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by "
	 "previous Xid 149"},
	{"OUT_OF_MEMORY", "../real-logs-new/batch631/smk-simple-slurm-29-slurmstepd-oom-kill-state-out-of-memory",
	 "State: OUT_OF_MEMORY (exit code 0)"},
	{"OUT_OF_ME+", "../real-logs-new/batch631/autosubmit-382-sacct-out-of-memory-0-125",
	 "`1488666.bat+      batch                 bsc32          4 OUT_OF_ME+    0:125 `"},
	{"err!", "../real-logs-new/batch616/gpu-operator-559-a40-node-a44-nvidia-smi-gpu0-err-bus-19-00",
	 "|   0  ERR!                On   | 00000000:19:00.0 Off |"},
	{"err!", "https://github.com/Azure/azhpc-diagnostics/issues/77",
	 "| N/A   29C    P0   ERR! / 250W |    593MiB / 16160MiB |      0%      Default |"},
	{"(exception class or assertion)", "https://github.com/pytorch/pytorch/issues/61839",
	 "subprocess.CalledProcessError: Command '['/opt/tiger/conda/bin/python3', '-u', "
	 "'train_imagenet.py', '--local_rank=7']' died with <Signals.SIGSEGV: 11>."},
	/* and a C macro's report of its failed assertion, no other error word on it */
	{"(exception class or assertion)",
	 "../real-logs-new/batch383/"
	 "llama-cpp-7427-b2950-rpc-server-gtx1070-ggml-assert-tensor-write-out-of-bounds-regression",
	 "GGML_ASSERT: /usr/local/src/ai/llamacpp/llama.cpp/ggml-backend.c:226: offset + size"},
	{"not equal", "../real-logs-new/batch36/itove-ascend-notes-mindie-npudeviceids-vs-worldsize",
	 "does not equal to worldSize"},
	{"not allow", "../real-logs-new/batch36/itove-ascend-notes-mindie-npudeviceids-vs-worldsize",
	 "does not allow repetitive"},
	{"not match", "../real-logs-new/batch42/vllm-ascend-6676-bin-package-ascend910b1-on-310p3",
	 "does not match the current device"},
	{"command not found",
	 "../real-logs-new/batch38/ompi-599-2node-orted-command-not-found-slave-install-path",
	 "bash: orted: command not found"},
	{"readonly variable",
	 "../real-logs-new/batch162/"
	 "open-sora-657-colossalai-run-hostfile-2node-bash-readonly-ssh-connection-torchrun-bad-exit-code",
	 "/bin/bash: SSH_CONNECTION: readonly variable"},
	{"unbound variable",
	 "../real-logs-new/batch147/pyxis-101-srun-node001-pyxis-enroot-nvidia-container-cli-not-found-98-nvidia-hook",
	 "HOME: unbound variable"},
	/* (their quotes keep them from the file search: the lines as real-logs-new batches 565
	 * and 304 hold them) */
	{"don't match", "https://github.com/NVIDIA/gpu-operator/issues/544",
	 "nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 "
	 "don't match with driver version 530.41.03. Please update with matching NVIDIA driver "
	 "package."},
	{"doesn't match",
	 "../real-logs-new/batch265/vllm-ascend-9689-moe-dp-extract-hidden-states-gloo-cpu-group-"
	 "preamble-8-vs-4-collective-mismatch",
	 "Received data size doesn"},
	{"integer expression expected",
	 "../real-logs-new/batch548/mlcommons-training-v2-1-asustek-escn4a-e11-4xa100-hugectr-dlrm-"
	 "trial-3-stops-after-asyncreader-init-no-run-start",
	 "./run_and_time.sh: line 40: [: : integer expression expected"},
};

/* Benign rows: the line, and whether the whole line reads as an error when the parser reads
 * it (the "no errors" line is advice text, context whatever its words). */
struct benign_line {
	const char *row;
	const char *from;
	const char *line;
	int error;
};

static const struct benign_line benign_lines[] = {
	{"no errors", "vllm-ascend-5461-a2-2node-ei0006-mc2", "with other errors or no errors", 0},
	{"busbw error", "healthy-nccl-583-a100-error-column", "busbw  error     time", 0},
	{"errors 0",
	 "../real-logs-new/batch46/ml-engineering-network-debug-ifconfig-rx-tx-errors-0-healthy",
	 "RX errors 0  dropped 0  overruns 0  frame 0", 0},
	{"failed",
	 "../real-logs-new/batch53/vllm-ascend-community-testing-omni7b-910b4-bench-0-failed-healthy",
	 "Failed requests:", 0},
	/* and in a table of box-drawing cells, a stage's cell between the label and its count */
	{"failed",
	 "../real-logs-new/batch536/mindie-llm-quickstart-daemon-start-aisbench-perf-8-requests-0-"
	 "failed-healthy",
	 "\xe2\x94\x82 Failed Requests          \xe2\x94\x82 total    \xe2\x94\x82 0          "
	 "        \xe2\x94\x82",
	 0},
	{"error",
	 "../real-logs-new/batch34/vllm-ascend-10122-310p-qwen36-27b-w8a8-aicore-l0c-conflict-device0",
	 "vector cube ecc 1bit error: 0,", 1},
	{"Errors with asterisks indicate", "https://github.com/ROCm/rccl/pull/2078",
	 "# Errors with asterisks indicate errors that have exceeded the maximum threshold.", 0},
	{"retrying", "https://github.com/Oneflow-Inc/oneflow/issues/3586",
	 "worker:101542:101934 [0] NCCL INFO Call to connect returned Connection timed out, "
	 "retrying",
	 0},
	{"retry to",
	 "../real-logs-new/batch105/ppasr-142-paddle-launch-master-resolves-loopback-127-0-1-1-port-63917",
	 "Retry to connect to 127.0.1.1:63917 while the server is not yet listening.", 0},
	{"will retry", "../real-logs-new/batch45/lightcompress-365-c10d-client-socket-timeout-mo-sy-cn-40613",
	 "[c10d] The server socket on [::ffff:36.xxx.xxx.13]:40613 has timed out, will retry.", 0},
	{"The client socket has failed to connect to",
	 "../real-logs-new/batch340/fairseq-syngec-glat-8gpu-resume-c10d-localhost-errno99-"
	 "warnings-healthy",
	 "[c10d] The client socket has failed to connect to [localhost]:18630", 0},
	{"The IPv6 network addresses of",
	 "../real-logs-new/batch148/jobset-93-pytorch-c10d-gai-error-pytorch-workers-0-0-3389-"
	 "benign-healthy",
	 "[c10d] The IPv6 network addresses of (pytorch-workers-0-0.pytorch-workers, 3389)", 0},
	{"The client socket cannot be initialized to connect to",
	 "../real-logs-new/batch304/mlperf-v5-0-mangoboost-4x-mi300x-llama2-lora-32rank-rccl-c10d-"
	 "errno97-msccl-warn-run-stop-success-healthy",
	 "[c10d] The client socket cannot be initialized to connect to [ai1.mbk.ifra]:23456", 0},
	{"retry after",
	 "../real-logs-new/batch364/paddle-docs-hackathon113-dcu-2node-4rank-fleet-gen-comm-id-"
	 "refused-retry-healthy",
	 "failed 4 times with reason: Connection refused retry after 2 seconds", 0},
	{"retry in",
	 "../real-logs-new/batch91/tensorflow-17852-ps-worker-grpc-connect-failed-10-0-1-4-14417-connection-refused-errno-111",
	 "Retry in 998 milliseconds", 0},
	{"ErrToWarn", "vllm-ascend-5468-driver-24.1-too-old-for-cann",
	 "ErrToWarn: QuerySqeInfoByHead status failed", 0},
	{"Failed to open libibverbs", "https://github.com/NVIDIA/nccl/issues/367",
	 "c6ad99331184:117277:117277 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open "
	 "libibverbs.so[.1]",
	 0},
	{"(ignored)",
	 "../real-logs-new/batch257/hpc-beginning-workshop-pr7-cuda-aware-ompi-4-0-3-adroit-mlx4-0-usnic-openib-warnings-healthy",
	 "[adroit-h11g1:04999] mca_base_component_repository_open: unable to open mca_btl_usnic: "
	 "libfabric.so.1: cannot open shared object file: No such file or directory (ignored)",
	 0},
	{"Failed to add the host to the list of known hosts",
	 "../real-logs-new/batch57/aks-rdma-infiniband-150-mi300x-16rank-rccl-tests-known-hosts-warning-healthy",
	 "Failed to add the host to the list of known hosts", 0},
	{"\"is_error\": false, \"is_warning\": true",
	 "../real-logs-new/batch1331/inference-results-v4-1-amd-8xmi300x-turin-llama2-70b-99-"
	 "offline-cas-failed-warnings-result-valid-healthy",
	 "\"value\": \"CAS failed.\"", 0},
	{"libibverbs: Warning: couldn't load driver", "https://github.com/NVIDIA/nccl/issues/1044",
	 "libibverbs: Warning: couldn't load driver 'libipathverbs-rdmav25.so': "
	 "libipathverbs-rdmav25.so: cannot open shared object file: No such file or directory",
	 0},
	{"Warning:", "healthy-bionemo-740-future-warnings", "selective_scan_interface.py:239",
	 0},
	{"sent help message",
	 "../real-logs-new/batch239/ompi-8403-ucx-pml-multinode-sim-openib-device-init-warning-mlx5-0-healthy",
	 "415 more processes have sent help message help-mpi-btl-openib.txt / error in device init",
	 0},
	{"sent help message",
	 "../real-logs-new/batch363/uibk-hpc-24-lcc3-task01-osu-bw-n001-n002-openib-mlx4-0-ib-port-"
	 "not-selected-healthy",
	 "1 more process has sent help message help-mpi-btl-openib.txt / error in device init", 0},
	{"error", "https://github.com/dmlc/wormhole/issues/48", "[0]\ttrain-error:0.014433", 0},
	{"The server socket cannot be initialized on", "pytorch-74316-c10d-errno-97-address-family",
	 "[W socket.cpp:401] [c10d] The server socket cannot be initialized on [::]:29501 (errno: "
	 "97 - Address family not supported by protocol).",
	 0},
	{"cannot set terminal process group",
	 "../real-logs-new/batch398/amazon-sagemaker-examples-smddp-mnist-2x-p4d-16-ranks-efa-"
	 "training-success-healthy",
	 "bash: cannot set terminal process group (-1): Inappropriate ioctl for device", 0},
	{"gds_ds12_lock_pthread.c",
	 "../real-logs-new/batch304/mlperf-v5-0-google-a3-ultra-8x-h200-sd-64rank-all-reduce-perf-"
	 "pmix-gds-lock-busbw-239-run-stop-success-healthy",
	 "PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c at line 168", 0},
	{"<warn> Failed to dlopen",
	 "../real-logs-new/batch363/podman-nccl-testing-30606107-perlmutter-podman-hpc-1gpu-aws-ofi-"
	 "cxi-libfabric-dlopen-libcuda-warn-healthy",
	 "cuda_hmem_dl_init():294<warn> Failed to dlopen libcuda.so", 0},
	{"Failed to initialize hmem iface",
	 "../real-logs-new/batch363/podman-nccl-testing-30606107-perlmutter-podman-hpc-1gpu-aws-ofi-"
	 "cxi-libfabric-dlopen-libcuda-warn-healthy",
	 "Failed to initialize hmem iface FI_HMEM_CUDA: No data available", 0},
	{"to see all help / error messages",
	 "../real-logs-new/batch239/ompi-8403-ucx-pml-multinode-sim-openib-device-init-warning-mlx5-0-healthy",
	 "to 0 to see all help / error messages", 0},
	{"select: init of component",
	 "../real-logs-new/batch257/ucx-8511-ompi-pml-ucx-mlx5-0-openib-no-preset-params-init-error-warnings-healthy",
	 "select: init of component openib returned failure", 0},
	{"exception trapping",
	 "../real-logs-new/batch274/excalibur-csd3-cclake-openfoam7-motorbike-simplefoam-112rank-2node-roce-ompi3-ucx-healthy",
	 "sigFpe : Enabling floating point exception trapping (FOAM_SIGFPE).", 0},
	{"errors",
	 "../real-logs-new/batch274/excalibur-csd3-cclake-openfoam7-motorbike-simplefoam-112rank-2node-roce-ompi3-ucx-healthy",
	 "time step continuity errors : sum local = 0.000341587, global = 4.9514e-06", 0},
	{", setting",
	 "../real-logs-new/batch253/mlperf-v5-1-cisco-2x-c885a-h200-llama2-70b-lora-16rank-srun-warning-pg-not-destroyed-run-stop-success-healthy",
	 "1 processes on 2 nodes, setting nnodes to 1", 0},
	{". setting",
	 "../real-logs-new/batch161/ms-swift-3485-2node-docker-qwen2audio-lora-ddp-node-rank0-train-"
	 "progress-futurewarning-autocast-healthy",
	 "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`.", 0},
	{"error",
	 "../real-logs-new/batch457/hongxinxiang-multi-gpu-tutorial-run-md-ddp-launch-2node-8rank-nccl-"
	 "warn-failed-open-libibverbs-socket-training-done-healthy",
	 "Test Error: ", 0},
	{"failed",
	 "../real-logs-new/batch666/kueue-docs-run-job-sample-job-admitted-3-pods-succeeded-healthy",
	 "Pods Statuses:    0 Active / 3 Succeeded / 0 Failed", 0},
	{"failed",
	 "../real-logs-new/batch649/vllm-26478-bench-serve-qwen3-0-6b-1000-requests-healthy",
	 "Failed requests:                         0          <<<<<<< New line", 0},
	{"invalid",
	 "../real-logs-new/batch480/sglang-11407-npu-qwen3-vl-30b-a3b-tp2-gsm8k-accuracy-healthy",
	 "Invalid: 0.000", 0},
	{"error",
	 "../real-logs-new/batch481/nccl-1597-efa-h200-2node-openmpi-cpi-16-procs-pi-result-healthy",
	 "pi is approximately 3.1415926544231274, Error is 0.0000000008333343", 0},
	{", reset it to",
	 "../real-logs-new/batch452/mind-cluster-docs-en-quickstart-resnet50-acjob-1node-8npu-"
	 "torchvision-profiler-warnings-healthy",
	 "Invalid parameter export_type: None, reset it to text.", 0},
	{", using default",
	 "../real-logs-new/batch432/omni-infer-server-0-log-npu-vllm-0-9-1-dp-deepseek-viztracer-"
	 "event-mismatch-model-inspect-failed",
	 "Config file not found: , using default configuration.", 0},
	{"errors",
	 "../real-logs-new/batch505/superbenchmark-data-gpu-burn-a100-80gb-8gpu-errors-0-all-8-ok-"
	 "healthy",
	 "errors: 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0   temps:", 0},
	{"errors",
	 "../real-logs-new/batch505/rocm-cvs-rcclras-2-28-3-1node-8gpu-8-ranks-running-ok-no-errors-"
	 "healthy",
	 "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors", 0},
	{"cannot",
	 "../real-logs-new/batch506/mlperf-hpc-v0-7-tacc-frontera-16node-64rank-cosmoflow-horovod-"
	 "ibrun-target-reached-healthy",
	 "mkdir: cannot create directory", 0},
	{"errors",
	 "../real-logs-new/batch510/gpu-recipes-a4-qwen3-30b-nemo-2node-16gpu-b200-gke-max-steps-20-"
	 "nemo-e-benign-healthy",
	 "this is not tested in NeMo and could result in errors.", 0},
	{"error",
	 "../real-logs-new/batch1044/training-results-v2-1-dell-32x-xe8545-a100-maskrcnn-128rank-"
	 "singularity-oom-advice-warning-run-stop-success-healthy",
	 "you may encounter an out-of-memory (OOM) error if your GPU does not have", 0},
	{"Failed to",
	 "../real-logs-new/batch1012/gpu-recipes-a4-qwen3-30b-nemo-4node-32gpu-b200-ep8-max-steps-"
	 "20-healthy",
	 "nemo_logging:417] Failed to calculate TFLOPs per sec per GPU.", 0},
	{"Failed to",
	 "../real-logs-new/batch1012/gpu-recipes-a4-qwen3-30b-nemo-4node-32gpu-b200-ep8-max-steps-"
	 "20-healthy",
	 "Failed to extract valid model name from or missing FLOPs calculations for qwen3_30b", 0},
	{"exceptions",
	 "../real-logs-new/batch1004/gaudi-tutorials-localgpt-llama2-70b-deepspeed-8hpu-local-llm-"
	 "loaded-healthy",
	 "Depending on the model, you may observe exceptions, performance degradation, or nothing at "
	 "all.", 0},
	{"[Service thread] Accept failed",
	 "../real-logs-new/batch515/mlperf-v5-0-oracle-8x-bm-gpu-h200-retinanet-64rank-proxy-close-"
	 "retcode-3-after-status-success-healthy",
	 "proxy.cc:1458 NCCL WARN [Service thread] Accept failed Resource temporarily unavailable", 0},
	{"Failed to execute operation Close",
	 "../real-logs-new/batch515/mlperf-v5-0-oracle-8x-bm-gpu-h200-retinanet-64rank-proxy-close-"
	 "retcode-3-after-status-success-healthy",
	 "Failed to execute operation Close from rank", 0},
	{"[LOG_CAT_SBGP] libnuma.so",
	 "../real-logs-new/batch502/aicr-benchmarks-job9666-nccl-tests-sendrecv-2-node-rtx-pro-6000-"
	 "24-6-gbs-libnuma-warn-healthy",
	 "[LOG_CAT_SBGP] libnuma.so: cannot open shared object file", 0},
	{", if trying to",
	 "../real-logs-new/batch490/superbenchmark-data-megatron-deepspeed-2node-gpt-6-7b-5-of-5-"
	 "iterations-benign-warnings-healthy",
	 "latest, if trying to load latest checkpoint please ensure this file exists", 0},
	{"right now",
	 "../real-logs-new/batch641/xgboost-ray-36-elastic-restart-actors-4-node-cluster-healthy",
	 "cannot be scheduled right now. It requires {actor_cpus: 4.000000}", 0},
	{"can be ignored",
	 "../real-logs-new/batch437/surajssd-llm-k8s-deepseek-v25-vllm-0-8-3-ray-2node-tp8-pp2-ib-"
	 "gdrdma-nccl-2-21-5-serving-healthy",
	 "can be ignored. [repeated 14x across cluster]", 0},
	{"Warning:",
	 "../real-logs-new/batch970/sglang-6370-router-dp2-tp8-launch-server-across-two-nodes",
	 "SyntaxWarning: invalid escape sequence", 0},
	{"Evicted",
	 "../real-logs-new/batch983/skypilot-training-best-practices-nvme-vs-s3-mount-load-and-"
	 "save-benchmark-healthy",
	 "Evicted Pages: 3720495 (14G)", 0},
	{"waiting for",
	 "../real-logs-new/batch995/lightgbm-886-maintainer-two-machine-socket-parallel-example-"
	 "healthy",
	 "Connecting to rank 1 failed, waiting for 10000 milliseconds", 0},
	{"Ignoring --",
	 "../real-logs-new/batch1001/mlperf-v4-0-oracle-16x-bm-gpu-h100-8-sd-nemo-128rank-run-stop-"
	 "success-2500-steps-healthy",
	 "with the number of requested nodes 16. Ignoring --ntasks-per-node.", 0},
	{"cannot be used",
	 "../real-logs-new/batch967/rldecisionagent-char-count-verl-grpo-smollm-135m-1gpu-vllm-"
	 "step1-healthy",
	 "Since, enforce-eager is enabled, async output processor cannot be used", 0},
	{"when one has already been registered",
	 "../real-logs-new/batch475/mlcommons-training-v4-1-clemson-6x8-h100-apptainer-bert-48-ranks-"
	 "nccl-2-18-5-nvls-ib-sharp-xla-unable-to-register-factory-run-stop-success-healthy",
	 "Attempting to register factory for plugin cuDNN when one has already been registered", 0},
	{"; cannot determine CPU frequency",
	 "../real-logs-new/batch626/"
	 "ascend-huawei-avod-npu-1p-tf-train-pyramid-cars-mix-precision-to-step-200000-infershape-"
	 "warnings-healthy",
	 "Failed to find bogomips in /proc/cpuinfo; cannot determine CPU frequency", 0},
	{"Failed to import from vllm._C with ModuleNotFoundError",
	 "../real-logs-new/batch934/cs-self-learning-vllm-ascend-v1-qwen2-5-7b-serve-startup-complete-"
	 "completions-200-healthy",
	 "Failed to import from vllm._C with ModuleNotFoundError", 0},
	{"can be discarded", "../real-logs-new/batch1166/cfr24-3422263-lightning-2node-ddp-slurm-healthy",
	 "Previous errors about TMPDIR can be discarded", 0},
	{"will be set to the default",
	 "../real-logs-new/batch1171/ascend-modelzoo-tf-meta-sgd-id1236-modelarts-1p-npu-proc-rank-0-"
	 "device-0-exit-minus-9-return-247-unresolved",
	 "parameter exceeds the limit and will be set to the default value", 0},
	{"Type inference failed. This indicates an invalid graph",
	 "../real-logs-new/batch1185/merlin-dataloader-horovod-notebook-2xv100-type-inference-warning-"
	 "healthy",
	 "Type inference failed. This indicates an invalid graph that escaped type checking", 0},
	{"Error@%d",
	 "../real-logs-new/batch1193/modelzoo-pytorch-hrnet-id0446-gpu-2-epochs-loss-perf-checkpoint-"
	 "healthy",
	 "Error@1 63.143", 0},
	{"using builtin-java classes where applicable",
	 "../real-logs-new/batch1192/deeplearningexamples-dlrm-preproc-spark-submit-train-log-dgx1v-5-"
	 "executors-healthy",
	 "Unable to load native-hadoop library for your platform", 0},
	{"Could not find TensorRT",
	 "../real-logs-new/batch1062/ray-docs-vicuna-13b-lightning-deepspeed-zero3-16node-finished-"
	 "healthy",
	 "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find "
	 "TensorRT", 0},
	{"Cannot open log.lammps for writing",
	 "../real-logs-new/batch1066/performance-study-google-gce-gpu-lammps-reaxff-kokkos-32node-"
	 "256rank-flux-exit0-healthy",
	 "WARNING on proc 0: Cannot open log.lammps for writing: Read-only file system", 0},
	{"upon failure",
	 "../real-logs-new/batch1080/gpu-recipes-a4-qwen2-5-7b-nemo-1node-8gpu-b200-max-steps-20-"
	 "healthy",
	 "conditioned on supported models. Defaults to -1 upon failure.", 0},
	{"environment is not MSCCL compatible",
	 "../real-logs-new/batch529/mlperf-v5-0-mangoboost-2x-mi300x-llama2-70b-lora-16rank-rccl-"
	 "mscclpp-warn-c10d-ipv6-socket-warn-run-stop-success-healthy",
	 "NCCL WARN MSCCL++: Cannot enable MSCCL++; environment is not MSCCL compatible", 0},
	{"[Service thread] Could not receive type from localRank",
	 "../real-logs-new/batch515/mlperf-v5-0-oracle-8x-bm-gpu-h200-retinanet-64rank-proxy-close-"
	 "retcode-3-after-status-success-healthy",
	 "NCCL WARN [Service thread] Could not receive type from localRank", 0},
	{"UCP version is incompatible",
	 "../real-logs-new/batch320/abci2-allreduce-inter-vnode-2node-v100-nccl284-ucx-ucp-version-"
	 "incompatible-warn-healthy",
	 "UCX  WARN  UCP version is incompatible, required: 1.8, actual: 1.7", 0},
	{"UCP API version is incompatible",
	 "../real-logs-new/batch431/aicr-benchmarks-nccl-tests-2node-16xb200-sharp-ab8-job36311-ucx-"
	 "api-version-warn-libnuma-run-a-run-b-healthy",
	 "UCX  WARN  UCP API version is incompatible: required >= 1.20, actual 1.19.0", 0},
	{"error",
	 "../real-logs-new/batch281/nixl-pr115-nixlbench-2gpu-ucx-vram-batch64-single-node-healthy",
	 "env UCX_LOG_LEVEL=ERROR UCX_TLS=^gdr_copy mpirun --allow-run-as-root -np 2", 0},
	{"failed",
	 "../real-logs-new/batch296/shs-docs-cxibwcheck-4node-dual-nic-nid000008-000011-40gbs-test-passed-healthy",
	 "Hosts = 4 Count = 8 Skipped = 0 Failed = 0 Missing = 0", 0},
	{"Warning:",
	 "../real-logs-new/batch268/megatron-pyxis-llama-70b-fsdp-fp8-8node-64x-mi325x-10-iters-destroy-pg-warning-nan-summary-healthy",
	 "/opt/venv/lib/python3.10/site-packages/numpy/core/_methods.py:129: RuntimeWarning: invalid "
	 "value encountered in scalar divide",
	 0},
	{"Warning:", "https://github.com/ShannonAI/mrc-for-flat-nested-ner/issues/56",
	 "Epoch 0:   0%|            | 1/2239 [00:00<17:25,  2.14it/s, loss=0.795, v_num=1]/usr/"
	 "local/lib/python3.6/dist-packages/torch/optim/lr_scheduler.py:123: UserWarning: Detected "
	 "call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you "
	 "should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  "
	 "Failure to do this will result in PyTorch skipping the first value of the learning rate "
	 "schedule.",
	 0},
	{"is deprecated", "healthy-bionemo-740-future-warnings", "tensor_parallel.py:25", 0},
	{"Warning:",
	 "../real-logs-new/batch35/ray-pr55754-serve-llm-test-passed-deprecation-warning-healthy",
	 "WARNING deprecation.py:50 -- DeprecationWarning:", 0},
	{"has been deprecated",
	 "../real-logs-new/batch35/ray-pr55754-serve-llm-test-passed-deprecation-warning-healthy",
	 "WARNING deprecation.py:50 -- DeprecationWarning:", 0},
	{"CANNOT Access Peer",
	 "../real-logs-new/batch65/autodl-blog-2x-rtx2080ti-pcie-p2p-not-supported-nccl-tests-all-reduce-4gbps-healthy",
	 "Device=0 CANNOT Access Peer Device=1", 0},
	{"fail", "../real-logs-new/batch146/avocado-misc-tests-839-ib-write-bw-basic-6-of-6-pass-healthy",
	 "RESULTS    : PASS 6 | ERROR 0 | FAIL 0 |", 0},
	{"will proceed with",
	 "../real-logs-new/batch144/deepspeed-716-reference-local-run-no-hostfile-warning-healthy",
	 "Unable to find hostfile, will proceed with training", 0},
	{"lib wrapper not initialized",
	 "../real-logs-new/batch144/deepspeed-8248-v0172-working-run-nccl-ibvwrap-lib-wrapper-warn-socket-healthy",
	 "NCCL WARN lib wrapper not initialized.", 0},
	{"Using the latest cached version",
	 "../real-logs-new/batch81/bigscience-gpt2-hf-ds-1832555-4-nodes-deepspeed-zero-trainer-completed-healthy",
	 "WARNING:datasets.load:Using the latest cached version of the module from", 0},
	{", skipping", "../real-logs-new/batch169/ezpz-fsdp-sunspot-2nodes-24xpu-xccl-ccl-warn-healthy",
	 "Unable to save dataset to W&B, skipping!", 0},
	{"timeout=", "../real-logs-new/batch169/ezpz-fsdp-sunspot-2nodes-24xpu-xccl-ccl-warn-healthy",
	 "- timeout=datetime.timedelta(seconds=3600)", 0},
	{"timeout",
	 "../real-logs-new/batch733/tensorflow-53098-mwms-deepfm-2-workers-k8s-variable-init-"
	 "traceback-unresolved",
	 "2021-11-17 12:30:36,707 [INFO] Waiting for the cluster, timeout = inf", 0},
	{"timeout",
	 "../real-logs-new/batch182/torchtitan-aurora-blendcorpus-2node-24xpu-fsdp-llama2-steps-"
	 "healthy",
	 "Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40", 0},
	{"timeout",
	 "../real-logs-new/batch313/chiro2001-dsv41-a3-21-hccl8-allreduce-phy6-13-8rank-3rounds-"
	 "watchdog-warnings-healthy",
	 "Warning: The watchdog timeout 90000ms(which is set by init_process_group) is less than or "
	 "equal to HCCL execution timeout 1836000ms!",
	 0},
	{"killed",
	 "../real-logs-new/batch190/nebius-solution-library-skypilot-2node-h100-ib-send-bw-mlx5-0-"
	 "361gbps-job-succeeded-healthy",
	 "(Ctrl-C to exit log streaming; job will not be killed)", 0},
	{"If ",
	 "../real-logs-new/batch884/awesome-ml-sys-openrlhf-devlog-ray-start-head-3-gpus-runtime-"
	 "started-healthy",
	 "  If connection to the dashboard fails, check your firewall settings and network "
	 "configuration.",
	 0},
	{"If ",
	 "../real-logs-new/batch899/ssbandjl-nccl-tests-deepseek-coder-2dpu-torchrun-zero3-steps-"
	 "then-ctrl-c-healthy",
	 "If you are unable to make the cache flushes go away consider adding", 0},
	{". using",
	 "../real-logs-new/batch910/gnosia93-training-on-eks-g6e-48xlarge-4pod-1proc-llama3-8b-"
	 "deepspeed-efa-no-gdr-steps-progress-healthy",
	 "Gradient accumulation steps mismatch: GradientAccumulationPlugin has 1, DeepSpeed config "
	 "has 4. Using DeepSpeed", /* the line goes on "'s value." */
	 0},
	{"timeout",
	 "../real-logs-new/batch917/gpu-operator-2511-one-node-cuda-validator-init-error-gpu-fabric-"
	 "state-in-progress-unresolved",
	 "            Access Timeout Recovery                    : N/A", 0},
	{"0 ",
	 "../real-logs-new/batch196/lbnl-hpl-doc-etna0-4node-32rank-hpl-2-2-n166656-4x8-residual-"
	 "passed-healthy",
	 "0 tests skipped because of illegal input values.", 0},
	{"failures",
	 "../real-logs-new/batch167/anemoi-isambard-ai-job3323547-10node-40rank-gh200-audit-warn-unset-vars-training-finished-healthy",
	 "0/52 failures", 0},
	{"error initializing an OpenFabrics device",
	 "../real-logs-new/batch167/ompi-7188-cx6-wvhpc02n018-mlx5-0-openib-init-warning-pml-ucx-app-runs-fine-healthy",
	 "WARNING: There was an error initializing an OpenFabrics device.", 0},
	{"will not be computed",
	 "../real-logs-new/batch165/ascend-docs-trl-quickstart-dpo-npu-kernel-4-19-90-warning-loss-eval-healthy",
	 "floating-point operations will not be computed", 0},
	{"error",
	 "../real-logs-new/batch212/mmm-readme-sunspot-2node-24xpu-fsdp-oneccl-mnist-10-epochs-"
	 "healthy",
	 "|CCL_WARN| value of CCL_LOG_LEVEL changed to be error (default:warn)", 0},
	{"error",
	 "../real-logs-new/batch227/mind-cluster-docs-en-npu-info-before-npu-smi-8npu-health-ok-ecc-zero-healthy",
	 "Error Code                     : NA", 0},
	{"unschedulable",
	 "https://github.com/kubernetes/website/blob/0375563fd11e8f3eb39c605d1c42da8e485ff949/"
	 "content/en/docs/tasks/debug/debug-cluster/_index.md",
	 "Unschedulable:      false", 0},
	{"instead",
	 "../real-logs-new/batch220/dlperf-tf2-resnet50-4n8g-multiworkermirrored-nccl-10-11-0-2-32xv100-"
	 "600-steps-finished-healthy",
	 "Unable to destroy server_ object, so releasing instead.", 0},
	{"instead",
	 "../real-logs-new/batch326/perfstudy-aws-eks-gpu-osu-latency-cuda-hh-2node-flux-cwd-"
	 "error-omb-localrank-warning-healthy",
	 "0.034s: flux-shell[1]: ERROR: host flux-sample-15: Could not change dir to "
	 "/opt/results/osu/size4: No such file or directory. Going to /tmp instead", 0},
	{"fallback to",
	 "../real-logs-new/batch431/aicr-benchmarks-nccl-tests-2node-16xb200-sharp-ab8-job36311-ucx-"
	 "api-version-warn-libnuma-run-a-run-b-healthy",
	 "[LOG_CAT_SBGP] Failed to dlopen libnuma.so. Fallback to GROUP_BY_SOCKET manual.", 0},
	{"falling back to",
	 "../real-logs-new/batch86/nemo-run-266-slurm-multinode-nccl-2-25-1-could-not-find-net-with-"
	 "id-0-internal-error",
	 "NCCL WARN Could not find a path for pattern 1, falling back to simple order", 0},
	{"fall back to",
	 "../real-logs-new/batch353/training-on-eks-c7-g6e-8xlarge-4node-aws-ofi-nccl-no-eligible-"
	 "efa-provider-falls-back-to-net-socket",
	 "NCCL_OFI_TUNER is not available for platform : g6e.8xlarge, Fall back to NCCL", 0},
	{"error",
	 "../real-logs-new/batch826/llm-action-dcgmi-doc-h800-nvlink-8-links-up-error-counts-zero-"
	 "healthy",
	 "| NVLINK Error Counts", 0},
	{"errors",
	 "../real-logs-new/batch826/llm-action-nvidia-smi-doc-h800-q-fabric-completed-remapped-rows-"
	 "0-nvlink-status-healthy",
	 "    ECC Errors", 0},
	{"failure",
	 "../real-logs-new/batch826/llm-action-nvidia-smi-doc-h800-q-fabric-completed-remapped-rows-"
	 "0-nvlink-status-healthy",
	 "Remapping Failure Occurred", 0},
	{"could not find the metadata file",
	 "../real-logs-new/batch167/bigscience-meg-ds-3d-gpt2-52b-n16-64gpu-tp4-pp16-compiler-warning-no-checkpoint-metadata-iterations-healthy",
	 "WARNING: could not find the metadata file", 0},
	/* a setting's value in a dump of settings; the run's status is no setting (below) */
	{"error",
	 "../real-logs-new/batch1121/rldecisionagent-retool-verl-sft-torchrun-2rank-sp2-final-"
	 "validation-healthy",
	 "max_length", 0},
	/* hcoll going on without multicast (three runs of the same study, each finished) */
	{"Error in initializing vmc communicator",
	 "../real-logs-new/batch328/perfstudy-azure-cyclecloud-gpu-8n-kripke-hpcx-hcoll-mcast-vmc-"
	 "init-errors-solve-finished-healthy",
	 "Error in initializing vmc communicator", 0},
	{"Failed to create MCAST comm",
	 "../real-logs-new/batch1052/performance-study-cyclecloud-gpu-8n-kripke-job31-64rank-hcoll-"
	 "mcast-vmc-init-error-completed-fom-healthy",
	 "Failed to create MCAST comm", 0},
	/* the source line of a Python warning, the warn call */
	{"warn(",
	 "../real-logs-new/batch1144/gpu-recipes-a4-qwen2-5-7b-nemo-1node-8gpu-b200-jun13-rerun-max-"
	 "steps-20-healthy",
	 "avconv - defaulting to ffmpeg, but may not work", 0},
	{"error",
	 "../real-logs-new/batch1110/cudf-spark-examples-242-ngc-xgboost-gpu-tracker-conf-ignores-"
	 "rabit-tracker-host-traceback",
	 "handle_invalid -> error", 0},
};

/* The row of form; of the benign rows that share a form, the first that holds on line. */
static long find_row(const char *form, int benign, const char *line)
{
	size_t n = benign ? hlog__benign_rows() : hlog__error_rows() + 1;
	for (size_t r = 0; r < n; r++) {
		const char *f = benign ? hlog__benign_row_name(r) : hlog__error_row_name(r);
		if (f && !strcmp(f, form) && (!benign || hlog__benign_row_in(span(line), r)))
			return (long)r;
	}
	return -1;
}

/* Every error row matches its real line, and every row has one. */
static void test_error_rows(void **state)
{
	(void)state;
	unsigned char seen[256] = {0};
	assert_true(hlog__error_rows() + 1 <= sizeof(seen));
	for (size_t i = 0; i < sizeof(word_lines) / sizeof(word_lines[0]); i++) {
		const struct row_line *w = &word_lines[i];
		char buf[8192];
		const char *line = real_line(w->from, w->line, buf, sizeof(buf));
		long r = find_row(w->row, 0, line);
		if (r < 0)
			fail_msg("no row \"%s\" (%s)", w->row, w->from);
		if (hlog__error_row_at(span(line), (size_t)r) < 0)
			fail_msg("row \"%s\" does not match its line from %s", w->row, w->from);
		seen[r] = 1;
		/* and the line reads as an error, unless its writer called it informational (a
		 * library there that the loader refused is an error at any level) or it is CANN's
		 * advice text under an error ("Solution: ...") */
		struct hlog_line l;
		hlog__line_parse(span(line), &l);
		int info = strstr(line, " NCCL INFO ") && !strstr(line, "(required by");
		if (l.error != (!info && !strstr(line, "Solution:")))
			fail_msg("line of \"%s\" (%s): error %d", w->row, w->from, l.error);
	}
	for (size_t r = 0; r <= hlog__error_rows(); r++)
		if (!seen[r])
			fail_msg("error row \"%s\" has no real line here", hlog__error_row_name(r));
}

/* Every benign row matches its real line, covers the error words it is for, and every row has
 * one. */
static void test_benign_rows(void **state)
{
	(void)state;
	unsigned char seen[256] = {0};
	assert_true(hlog__benign_rows() <= sizeof(seen));
	for (size_t i = 0; i < sizeof(benign_lines) / sizeof(benign_lines[0]); i++) {
		const struct benign_line *b = &benign_lines[i];
		char buf[8192];
		const char *line = real_line(b->from, b->line, buf, sizeof(buf));
		long r = find_row(b->row, 1, line);
		if (r < 0)
			fail_msg("no benign row \"%s\" that holds on its line from %s", b->row,
				 b->from);
		seen[r] = 1;
		struct hlog_line l;
		hlog__line_parse(span(line), &l);
		if (l.error != b->error)
			fail_msg("line of benign \"%s\" (%s): error %d, want %d", b->row, b->from,
				 l.error, b->error);
	}
	for (size_t r = 0; r < hlog__benign_rows(); r++)
		if (!seen[r])
			fail_msg("benign row \"%s\" has no real line here", hlog__benign_row_name(r));
	/* a status's value is what happened, no setting: MindIE's "{'status': 'error', ..."
	 * (real-logs-new batch 480, itove-ascend-help-1) */
	const char *st = "return initialize error result: {'status': 'error', 'npuBlockNum': '0'";
	const char *ev = strstr(st, "'error'") + 1;
	assert_true(hlog__benign_at(span(st), (size_t)(ev - st), 5) < 0);
	/* a warn call inside a failure's words is no warning's source line */
	const char *nw = "RuntimeError: failed in warn(msg)";
	assert_true(hlog__benign_at(span(nw), 14, 6) < 0);
	/* the covering is of the words the form spans: "no errors" leaves "other errors" */
	int len;
	char buf[8192];
	struct pspan m = span(real_line(benign_lines[0].from, benign_lines[0].line, buf,
					sizeof(buf)));
	int at = hlog__error_word(m, &len, NULL);
	assert_true(at >= 0);
	assert_int_equal(strncmp(m.s + at, "errors", 6), 0);
	assert_true(at < (int)(strstr(m.s, "no errors") - m.s));
	/* a condition followed by no request to the reader is no advice: protobuf's "If you
	 * cannot immediately regenerate your protos, some other possible workarounds are:" */
	m = span(real_line("../real-logs-new/batch571/thudm-glm-130b-eval-log-tensorboardx-"
			   "protobuf-descriptors-8rank-import-fail",
			   "If you cannot immediately regenerate", buf, sizeof(buf)));
	at = hlog__error_word(m, &len, NULL);
	assert_true(at >= 0);
	assert_int_equal(strncmp(m.s + at, "cannot", 6), 0);
	/* a reason that is a state the user set vouches; one that is itself a failure does not,
	 * nor a state in another sentence */
	static const char *const unused[] = {
	    "Since the store is down, the cache cannot be used",
	    "The cache cannot be used because the disk is full",
	    "X is enabled. Since then the cache cannot be used"};
	for (size_t k = 0; k < sizeof(unused) / sizeof(unused[0]); k++) {
		m = span(unused[k]);
		at = hlog__error_word(m, &len, NULL);
		if (at < 0 || strncmp(m.s + at, "cannot", 6))
			fail_msg("\"%s\": its \"cannot\" vouched for", unused[k]);
	}
	/* a wait for something other than time is no retry announced */
	m = span("[Warning] Connecting to rank 1 failed, waiting for the master to restart");
	assert_true(hlog__error_word(m, &len, NULL) >= 0);
	assert_int_equal(hlog__retry_left(m), 0);
	m = span("[Warning] Connecting to rank 1 failed, waiting for 10000 milliseconds");
	assert_int_equal(hlog__retry_left(m), 1);
	/* the kubelet's reason, alone after its label, stays an error */
	m = span("Reason:         Evicted");
	assert_true(hlog__error_word(m, &len, NULL) >= 0);
	m = span("the cache cannot be used since caching is disabled");
	assert_int_equal(hlog__error_word(m, &len, NULL), -1);
	/* a status's name heads its message; inside a sentence it is a word */
	m = span("W op_kernel.cc:993] Unavailable: EOF");
	assert_int_equal(hlog__error_word(m, &len, NULL), 20);
	assert_int_equal(hlog__error_word(span("Unavailable: EOF"), &len, NULL), 0);
	assert_int_equal(hlog__error_word(span("host memory Internal: 4 GB"), &len, NULL), -1);
	assert_int_equal(hlog__error_word(span("internal: 4 GB"), &len, NULL), -1);
}

/* Lines in formats no prefix rule knows read as errors by their words; what a writer calls
 * informational, identifiers and words inside other words do not. */
static void test_lines(void **state)
{
	(void)state;
	static const struct {
		const char *from, *line;
		int error;
	} k[] = {
		/* MPI's fatal error, and its stack under it */
		{"https://github.com/SmileiPIC/Smilei/issues/819",
		 "Abort(1090959) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI "
		 "error, error stack:",
		 1},
		/* Gloo's connect refused */
		{"https://github.com/pytorch/gloo/issues/33",
		 "  what():  [enforce fail at /home/sayantan/gloo_GIT/gloo/gloo/transport/tcp/"
		 "pair.cc:498] optval == 0. 111 vs 0. SO_ERROR: Connection refused",
		 1},
		/* NCCL WARN with an InfiniBand completion status; the INFO trace after it is not */
		{"https://github.com/NVIDIA/nccl/issues/1814",
		 "hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from "
		 "peer 172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) "
		 "localGid ::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221",
		 1},
		{"https://github.com/NVIDIA/nccl/issues/1814",
		 "hostname-test:984:1357 [4] NCCL INFO transport/net.cc:1298 -> 6", 0},
		/* a setting named as the key of a number is no error; a key of text is read by
		 * its value */
		{"https://github.com/kubeflow/trainer/issues/1504",
		 "  rdzv_configs     : {'timeout': 900}", 0},
		{"https://github.com/kubeflow/trainer/issues/1504",
		 "    \"message\": \"RendezvousConnectionError: The connection to the C10d store has "
		 "failed. See inner exception for details.\",",
		 1},
		/* c10d's client socket trying one address, which it retries until its timeout (a
		 * log that ends on it is read as failed where it ends); and the connect that gave
		 * up on every address */
		{"https://github.com/gensyn-ai/rl-swarm/issues/197",
		 "[W427 01:04:16.149509694 socket.cpp:752] [c10d] The client socket has failed to "
		 "connect to [::ffff:198.18.0.1]:3254 (errno: 110 - Connection timed out).",
		 0},
		{"https://github.com/hpcaitech/Open-Sora/issues/667",
		 "[E socket.cpp:753] [c10d] The client socket has failed to connect to any network "
		 "address of (6841231, 47389).",
		 1},
		/* the kernel's OOM killer */
		{"https://github.com/0jc1/py-autovod/issues/7",
		 "[Sun Mar 30 08:24:00 2025] Out of memory: Killed process 7899 (python) "
		 "total-vm:26,184,840kB, anon-rss:153,700,88kB, file-rss:0kB, shmem-rss:0kB, UID:0 "
		 "pgtables:38964kB oom_score_adj:0",
		 1},
		/* NCCL INFO lines that name a missing optional plugin */
		{"https://github.com/NVIDIA/nccl/issues/690",
		 "[0] node0:13571:13571 [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) "
		 "returned 2 : libnccl-net.so: cannot open shared object file: No such file or "
		 "directory",
		 0},
		/* a C macro's label with ERROR among its parts, heading a message: an error; the
		 * same name with a value, or a register's count, is none */
		{"../real-logs-new/batch1067/ompi-714-torque-ompi-1-8-6-concurrent-mpirun-third-"
		 "node-plm-base-launch-support-not-found-unresolved",
		 "ORTE_ERROR_LOG: Not found in file base/plm_base_launch_support.c at line 99", 1},
		{"a settings dump (ours)", "NCCL_ASYNC_ERROR_HANDLING: True", 0},
		{"amdgpu's register dump", "amdgpu:      WALKER_ERROR: 0x0", 0},
		/* an identifier is not a word: TORCH_NCCL_ASYNC_ERROR_HANDLING */
		{"healthy-torchtitan-171-fsdp-tp-training",
		 "[rank0]:2024-03-27 14:30:01,177 - root - WARNING - "
		 "ENV[TORCH_NCCL_ASYNC_ERROR_HANDLING] = 1 will be overridden to 3 based on job "
		 "config",
		 0},
		/* a count of failures in a box-drawing table: at zero no error, above it one (the
		 * second in aisbench's format) */
		{"../real-logs-new/batch536/mindie-llm-quickstart-daemon-start-aisbench-perf-8-"
		 "requests-0-failed-healthy",
		 "\xe2\x94\x82 Failed Requests          \xe2\x94\x82 total    \xe2\x94\x82 0    "
		 "              \xe2\x94\x82",
		 0},
		{"aisbench's format",
		 "\xe2\x94\x82 Failed Requests          \xe2\x94\x82 total    \xe2\x94\x82 3    "
		 "              \xe2\x94\x82",
		 1},
		{"aisbench's format",
		 "\xe2\x94\x82 Failed Requests \xe2\x94\x82 total \xe2\x94\x82 0.5 \xe2\x94\x82", 1},
		/* nccl-tests' passing summary */
		{"healthy-nccl-tests-h100-16-ranks", "# Out of bounds values : 0 OK", 0},
		/* a retry with tries left is not the failure; the last of its count is (our lines,
		 * in the form of NCCL's socketPollConnect) */
		{"NCCL socket.cc's format",
		 "socketPollConnect: connect returned Connection refused, retrying (3/35) after "
		 "sleep for 300 msec",
		 0},
		{"NCCL socket.cc's format",
		 "socketPollConnect: connect returned Connection refused, retrying (35/35) after "
		 "sleep for 3500 msec",
		 1},
		{"NCCL socket.cc's format", "connect returned No route to host, retrying (7/5)", 1},
		{"NCCL socket.cc's format", "connect returned No route to host, retrying (2/)", 0},
		/* a retry in other words (ours, in Paddle's and a client's forms) */
		{"Paddle tcp_utils' format",
		 "Retry to connect to 10.0.0.5:63917 failed while the server is not yet listening.", 0},
		{"a client's format", "connect to 10.0.0.5 failed, will retry in 5 s", 0},
		/* a crash handler's frames-only dump, and the kernel's Xid report (ours) */
		{"opal backtrace's format", "[n2:411] Failing at address: (nil)", 1},
		{"nvidia driver's format", "NVRM: Xid (PCI:0000:1a:00): 63, Row Remapper", 1},
		{"an identifier, not the word", "export NVRM_XID_LOG=1; exceeded_count=0", 0},
		/* an exit code that is 0, or no number, says nothing failed */
		{"../real-logs-new/batch338/ml-dev-env-openshift-6node-24xh100-roce-torch-allreduce-"
		 "bench-nccl-2-23-4-avgbw-194-healthy",
		 "=== Benchmark completed with exit code: 0 ===", 0},
		{"a job record's format", "Exit_status=0", 0},
		{"a job record's format", "exit code: None", 0},
		{"a job record's format", "Exit_status=-15", 1},
		/* Python's traceback heading: an error, and a heading */
		{"https://github.com/NVIDIA/nccl/issues/875", "Traceback (most recent call last):", 1},
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct hlog_line l;
		hlog__line_parse(span(k[i].line), &l);
		if (l.error != k[i].error)
			fail_msg("line %zu (%s): error %d, want %d", i, k[i].from, l.error,
				 k[i].error);
	}
	struct hlog_line l;
	hlog__line_parse(span("Traceback (most recent call last):"), &l);
	assert_int_equal(l.header, 1);
	/* only the first 4 KiB of a line is read for words, and no byte past the span */
	static char big[8192];
	memset(big, 'x', sizeof(big));
	memcpy(big + 5000, " failed", 7);
	int len;
	assert_int_equal(hlog__error_word((struct pspan){big, sizeof(big)}, &len, NULL), -1);
	memcpy(big + 100, " failed", 7);
	assert_int_equal(hlog__error_word((struct pspan){big, 104}, &len, NULL), -1);
	assert_int_equal(hlog__error_word((struct pspan){big, 107}, &len, NULL), 101);
	assert_int_equal(len, 6);
	assert_int_equal(hlog__retry_left(span("retrying (1/2)")), 1);
	assert_int_equal(hlog__retry_left(span("retrying (2/2)")), 0);
	assert_int_equal(hlog__retry_left(span("Call to connect returned refused, retrying")), 1);
	assert_int_equal(hlog__retry_left(span("no retry here")), 0);
}

/* The automaton's gate of each row: a row in prose whole (its longest word alone, "device"
 * or "transport", is in most lines of a healthy log), a row with a label's colon by its
 * longest run (a table pads its blanks: "Pending Page Blacklist            : Yes"); and a
 * line gated in by every row's gate word matches that row where its real line does. */
static void test_gate_words(void **state)
{
	(void)state;
	static const struct {
		const char *row, *gate;
	} k[] = {
		{"no space left on device", "no space left on device"},
		{"transport endpoint is not connected", "transport endpoint is not connected"},
		{"pending page blacklist : yes", "blacklist"},
		{"exit code: ", "code:"},
		{"error", "error"},
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		long r = find_row(k[i].row, 0, "");
		assert_true(r >= 0);
		struct pspan w;
		assert_true(hlog__error_gate_word((size_t)r, &w));
		if (w.n != strlen(k[i].gate) || memcmp(w.s, k[i].gate, w.n))
			fail_msg("gate of \"%s\": \"%.*s\", expected \"%s\"", k[i].row, (int)w.n, w.s,
				 k[i].gate);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_rows),
		cmocka_unit_test(test_benign_rows),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_gate_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
