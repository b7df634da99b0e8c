/* The family of an error line no rule knows, read from its words (probes/logs/wordfam.c): one
 * line per row written from the forms libc, the kernel and launchers print, the order of the
 * rows (a crash outranks a refused connection, both a timeout), and lines of no family. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/hlogint.h"

static const char *fam(const char *line)
{
	return hlog__word_family_name(hlog__word_family((struct pspan){line, strlen(line)}));
}

static void test_rows(void **state)
{
	(void)state;
	static const struct {
		const char *line, *family;
	} t[] = {
		{"worker 3: Segmentation fault (core dumped)", "crash"},
		{"process rank 1 with PID 99 on node n2 exited on signal 6 (Aborted).", "crash"},
		{"terminate called after throwing an instance of 'std::runtime_error'", "crash"},
		{"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", "memory"},
		{"mmap failed: Cannot allocate memory", "memory"},
		{"eth2: Link is Down", "link-down"},
		{"getaddrinfo node07: Name or service not known", "name-resolution"},
		{"Temporary failure in name resolution while resolving master", "name-resolution"},
		/* real: pytorch/pytorch#152077 (NCCL 2.14 on an RTX 5090, sm_120) */
		{"4d1a2ae696c8:50555:50555 [0] NCCL WARN Cuda failure 'named symbol not found'",
		 "gpu-arch"},
		/* real: gpustack/gpustack#5014 (Ray's object store on Ascend, W level) */
		{"[2026-03-25 05:44:29,435 W 39 39] (raylet) store_runner.cc:83: System memory "
		 "request exceeds memory available in /dev/shm. The request is for 10200547328 "
		 "bytes, and the amount available is 9663676416",
		 "memory"},
		/* real: radiasoft/devops#132 (Open MPI's vader in a container without ptrace):
		 * EPERM by its number alone */
		{"[v4.radia.run:00192] Read -1, expected 10024, errno = 1", "permission"},
		/* real: real-logs-new batch628 (Azure/azurehpc-health-checks#72): a variable the
		 * program needs, whatever its prefix */
		{"[1705939176] - ERROR:  nhc:  Health check failed:  check_all_reduce_dependencies: "
		 "HPCX_DIR is not set. Ensure HPCX is installed and sourced correctly.",
		 "setting"},
		/* real: real-logs-new batch995 (catboost/catboost#1342, a data path that names a
		 * directory): libc's words for EISDIR */
		{"AN EXCEPTION OCCURRED. (TFileError) (Is a directory) util/system/file.cpp:877: can "
		 "not read data from \"/my-data-folder\"",
		 "path-kind"},
		/* real: real-logs-new batch990 (mej/nhc#111, a node whose adapter was taken out) */
		{"ERROR:  nhc:  Health check failed:  check_hw_ib:  No Infiniband device was found.",
		 "link-down"},
		/* the plural, as libibverbs' example programs (ibv_rc_pingpong) print it on a node
		 * without an adapter */
		{"ERROR: No IB devices found", "link-down"},
		/* real: real-logs-new batch979 (Project-HAMi/volcano-vgpu-device-plugin#155, a
		 * container runtime that does not mount the driver's libraries): a status's name */
		{"E0902 08:11:42.623635       1 main.go:205] failed to initialize NVML: "
		 "ERROR_LIBRARY_NOT_FOUND",
		 "library-missing"},
		/* real: real-logs-new batch968 (modelscope/ms-swift#2098, torch_npu on a CANN
		 * whose operator library lacks the function) */
		{"RuntimeError: aclnnFusedInferAttentionScoreV2 or "
		 "aclnnFusedInferAttentionScoreV2GetWorkspaceSize not in libopapi.so, or "
		 "libopapi.sonot found.",
		 "version"},
		/* real: real-logs-new batch942 (Crusoe's support article on NVIDIA's driver
		 * container): "not set" without "is", the two lines of the message joined */
		{"prior driver reload failure due to UNLOAD_STORAGE_MODULES not set to \"true\"",
		 "setting"},
		/* real: real-logs-new batch944 (D2iQ Kaptain's troubleshooting page, a TFJob whose
		 * workers name an image that is not there) */
		{"  Warning  ErrImagePull             9m31s (x7 over 10m)    tf-operator  Error pod "
		 "tfjob-sample-worker-0 container tensorflow waiting message: rpc error: code = "
		 "NotFound desc = failed to pull and unpack image \"docker.io/mesosphere/kubeflow:"
		 "mnist-sdk-sample\": failed to resolve reference \"docker.io/mesosphere/kubeflow:"
		 "mnist-sdk-sample\": docker.io/mesosphere/kubeflow:mnist-sdk-sample: not found",
		 "image-pull"},
		/* real: real-logs-new batch911 (ufs-community/ufs-weather-model#2200, Open MPI ranks
		 * started by srun): its PMIx client found no server, the launch's, not the
		 * network's */
		{"  7: [h18c53:3565779] OPAL ERROR: Unreachable in file "
		 "../../../../../opal/mca/pmix/pmix3x/pmix3x_client.c at line 111",
		 "pmi-launch"},
		/* real: mosaicml/examples#292 (MosaicML streaming's wait for its local leader) */
		{"RuntimeError: Waiting for local rank 0, bailing out: 60.000 < 60.053 sec.",
		 "timeout"},
		/* real: AI-Hypercomputer/gpu-recipes#2 (JAX's coordination service on 32 nodes):
		 * a wait for tasks to register, though its advice names connecting */
		{"Stopping coordination service as cluster registration failed. This may be due to "
		 "1) some tasks crashed earlier before connecting, 2) some tasks were never "
		 "scheduled, or 3) scheduling delays. Consider setting a longer initialization "
		 "timeout if such delays are expected, the timeout is currently set to: 1h.",
		 "timeout"},
		/* real: huggingface/optimum-habana#505 (Habana's HCCL under Ray Train) */
		{"(RayTrainWorker pid=19045) [2023-11-02 13:17:59,227 E 19045 21937] logging.cc:97: "
		 "Unhandled exception: N3c105ErrorE. what(): Collective call returned error",
		 "crash"},
		/* real: kubeflow/trainer#301 (kubectl describe of an evicted TFJob pod) */
		{"Message:        The node was low on resource: memory.", "evicted"},
		/* real: NVIDIA/k8s-device-plugin#189 */
		{"2020/08/10 19:09:42 XidCriticalError: Xid=69 on Device=GPU-7540a9b3-eeb9-1214-1526-"
		 "f93c9ea826a8, the device will go unhealthy.",
		 "hardware"},
		/* real: Oneflow-Inc/DLPerf#103 (gRPC's status 14 in OneFlow's control client) */
		{"I1224 15:33:48.927119 234641 ctrl_client.cpp:234] LoadServer  gpu9 Failed at 0 "
		 "times error_code 14 error_message DNS resolution failed",
		 "name-resolution"},
		/* real: hpcaitech/ColossalAI#2959 and #5213 (colossalai run over ssh, paramiko) */
		{"Error: failed to run torchrun --nproc_per_node=2 --nnodes=2 --node_rank=1 "
		 "--master_addr=192.168.1.11 --master_port=29508 pretrain.py on 192.168.1.12, is "
		 "localhost: False, exception: not a valid RSA private key file",
		 "permission"},
		/* real: ms-swift issue 6368 (BusyBox nslookup on a PAI-DLC worker) */
		{"nslookup: can't resolve 'dlc1dwuhvtro4c27-master-0': Name does not resolve",
		 "name-resolution"},
		/* real: tensorflow issue 34156 (multi-worker ring all-reduce); not "invalid" */
		{"2019-11-11 11:45:07.182077: W tensorflow/core/framework/op_kernel.cc:1655] "
		 "OP_REQUIRES failed at collective_ops.cc:253 : Invalid argument: Shape mismatch in the "
		 "collective instance 106. Op at device /job:worker/replica:0/task:1/device:CPU:0 "
		 "expected shape [49] but another member in the group expected shape [64].",
		 "collective-mismatch"},
		/* real: mej/nhc issue 82 (a node whose InfiniBand cables were not in yet) */
		{"ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port is ACTIVE (LinkUp 100 "
		 "Gb/sec).",
		 "link-down"},
		/* real: ray-project/ray issue 49173 (a 30-node cluster whose disks filled) */
		{"the object cannot be created because the local object store is full and the local "
		 "disk utilization is over capacity. ray.exceptions.OutOfDiskError: Local disk is full",
		 "disk-full"},
		/* real: microsoft/pai issue 4344 (a GPU the driver could not bring up) */
		{"[   39.147720] NVRM: RmInitAdapter failed! (0x26:0xffff:1127)", "hardware"},
		/* real: NVIDIA/pyxis issue 168 (enroot asking the wrong registry) */
		{"slurmstepd: error: pyxis:     [ERROR] URL https://registry-1.docker.io/v2/evuedsoacr."
		 "azurecr.io/dc-ecosys-appl-eng/mlperf-nvidia/manifests/stable_diffusion-pyt returned "
		 "error code: 401 Unauthorized",
		 "permission"},
		/* real: aws-neuron/aws-neuron-sdk issue 779 (Ray Train on Trainium) */
		{"(RayTrainWorker pid=12769, ip=10.1.161.26) 2023-Oct-27 14:18:42.0222 12923:13118 ERROR "
		 "  ENC:validate_neff_cc_ops                    [nec_dev 0] mismatching number of cc ops, "
		 "expected 3 received 6. Check if ranks 0 and 1 are using the same neff",
		 "collective-mismatch"},
		/* real: MindCluster's fault diagnosis of a MindIE job, in Chinese */
		{"|              |  故障名称  | BackendConfig配置参数校验失败", "invalid"},
		/* real: Accelerate's troubleshooting guide */
		{"Cannot apply desired operation due to shape mismatches. All shapes across devices "
		 "must be valid.",
		 "collective-mismatch"},
		/* real: CSCS's documentation of Cray MPICH with GPU support */
		{"MPICH ERROR [Rank 0] [job id 410301.1] [Thu Feb 13 12:42:18 2025] [nid005414] - "
		 "Abort(-1) (rank 0 in comm 0): MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but "
		 "GTL library is not linked",
		 "library-missing"},
		/* real: open-mpi/ompi issue 13523 and pmodels/mpich issue 6924 */
		{"If srun is being used to launch application, 4 singletons will be started.",
		 "pmi-launch"},
		{"[unset]:   This singleton init program attempted to access some feature", "pmi-launch"},
		/* real: oneCCL issue 157 (a host with loopback only) */
		{"2025:02:17-17:20:51:( 2399) |CCL_ERROR| internal_kvs.cpp:289 fill_local_host_ip: "
		 "can't find interface  to get host IP",
		 "no-interface"},
		/* real: horovod issue 2431 (an interface one host lacks) */
		{"Tue Nov 10 10:05:04 2020[13]<stderr>:  what():  [enforce fail at /tmp/pip-install-"
		 "8anuqdv5/horovod/third_party/compatible_gloo/gloo/transport/tcp/device.cc:83] ifa != "
		 "nullptr. Unable to find address for: enp129s0f1",
		 "no-interface"},
		/* real: vllm-ascend issue 632 (npu-smi in a container whose NPU another holds) */
		{"dcmi model initialized failed, because the device is used. ret is -8020",
		 "device-held"},
		/* real: awsome-distributed-training issue 196 (no GRES in slurm.conf) */
		{"sbatch: error: Invalid generic resource (gres) specification", "invalid"},
		/* real: nccl-tests issue 264 (H100x8, fabric manager not running) */
		{"test: Test CUDA failure common.cu:941 'system not yet initialized'", "gpu-not-ready"},

		{"driver version 23.0 does not match the runtime, version mismatch", "version"},
		{"EC0010: Failed to import Python module [ModuleNotFoundError: No module named "
		 "'tbe.common.repository_manager.utils.repository_manager_log'.].",
		 "version"},
		{"connect to 10.0.0.2:29500 timed out after 30 s", "connect-timeout"},
		{"ERROR: Connection timed out while connecting to store", "connect-timeout"},
		{"dial tcp 10.0.0.2:8000: connect: connection refused", "refused"},
		{"sendto 10.0.0.9: Network is unreachable", "unreachable"},
		{"socket error: No route to host", "unreachable"},
		{"ORTE has lost communication with a remote daemon.", "connection-lost"},
		{"[2025-09-28 20:14:33.202857] [error] [710583] [lcal_comm.cpp:444] do not support "
		 "pcie > 2 rank! rankSize_ = 4",
		 "unsupported"},
		{"[ERROR] HCCL(55694,):2026-06-03-06:04:59.040.458 [hccl_socket_manager.cc:399] "
		 "[60446][Create][Sockets]Wait links establish completed failed, local role is "
		 "client. ret[9]",
		 "link-setup"},
		{"socketStartConnect: Connect to 10.0.0.2<40815> failed : Software caused connection "
		 "abort",
		 "connection-lost"},
		{"pmix fence: collective timeout on ring reset", "timeout"},
		{"DeadlineExceeded: deadline exceeded waiting for peers", "timeout"},
		{"NCCL_SOCKET_IFNAME is not set and no interface was found", "setting"},
		{"ValueError: Invalid DP number per node: 0", "invalid"},
		/* a framework's own code failing its assumptions (deepspeedai/DeepSpeed#7636,
		 * ZeRO-2's buckets), but not a requirement on the node (aicr-benchmarks' Megatron
		 * job on a node whose CUDA failed) nor two world sizes (NVIDIA/TensorRT-LLM#440) */
		{"[rank0]: KeyError: torch.bfloat16", "code-check"},
		/* DeepSpeed's launcher ending the rest once a rank failed (deepspeedai/DeepSpeed
		 * #2946) */
		{"[2023-03-05 06:40:25,173] [INFO] [launch.py:318:sigkill_handler] Killing "
		 "subprocess 3698707",
		 "fatal"},
		/* an assert that compares the job's sizes (alibaba/ROLL's QA page; KellerJordan/
		 * modded-nanogpt#115, a bare assert joined to its statement) or checks that a path
		 * is there (lambdal/deeplearning-benchmark); a tensor's expected size (saforem2/
		 * ezpz's torchtitan run) and an object's state are the code's own */
		{"AssertionError: batch_size 32 < chunks 64", "size-check"},
		{"AssertionError: world_size == 8 # this code is designed for 8xH100", "size-check"},
		{"AssertionError: expected size 4==4, stride 128==524288 at dim=1;", "code-check"},
		{"AssertionError: tensor.is_contiguous()", "code-check"},
		{"AssertionError: os.path.exists(path)", "missing-file"},
		/* a CPU the kernel's watchdog found stuck (flexflow/flexflow-train#261) */
		{"kernel:[256610.941256] watchdog: BUG: soft lockup - CPU#29 stuck for 22s! "
		 "[inception:274704]",
		 "cpu-lockup"},
		/* pip's resolver on two releases that do not fit, the second half of its wrapped
		 * sentence alone (pytorch/torchtitan@ab87f584, ROCm CI with a stale torchvision) */
		{"  but you have torch 2.12.0.dev20260411+rocm7.1 which is incompatible.", "version"},
		{"AssertionError: Megatron requires CUDA.", "exception"},
		{"AssertionError: Engine world size (1) != Runtime world size (8)", "world-size"},
		/* CUDA, for code not built for this GPU (NVIDIA/nccl#444) */
		{"[3] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device function'", "gpu-arch"},
		{"RuntimeError: CUDA error: no kernel image is available for execution on the device",
		 "gpu-arch"},
		/* Open MPI's help text (kubeflow/mpi-operator#733) */
		{"Please correct the hostfile and try again.", "hostfile"},
		/* an RDMA port without a link (MoonshotAI/checkpoint-engine#1) */
		{"W0911 06:19:37.204383  3746 rdma_context.cpp:433] Device mlx5_3 port not active",
		 "link-down"},
		/* Ray's memory monitor (vllm-project/vllm#2669) */
		{"Task was killed due to the node running low on memory.", "memory"},
		/* over a memory limit: YARN (yahoo/TensorFlowOnSpark#134), Dask's nanny
		 * (mozilla/jetstream#336) */
		{"17/11/25 18:23:24 ERROR YarnClusterScheduler: Lost executor 9 on harrisburg.cs."
		 "colostate.edu: Container killed by YARN for exceeding memory limits.", "memory"},
		{"distributed.nanny - WARNING - Worker exceeded 95% memory budget. Restarting",
		 "memory"},
		/* Ray's raylet counting its OOM kills (ray-project/ray#34695), its object store
		 * full (ray-project/ray#22176), a node given up for dead (ray-project/ray#25231) */
		{"[2023-04-19 16:22:19,798 E 329 329] (raylet) node_manager.cc:3069: 13 Workers "
		 "(tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other "
		 "reasons", "memory"},
		/* a library call refusing an argument (FlagOpen/FlagCX#143, vllm-kunlun#420):
		 * not the job's settings, which "invalid device ordinal" is */
		{"flagcxInvalidArgument: Invalid value for an argument.", "invalid-argument"},
		{"ValueError: [INVALID PARAMETER]: error code=1", "invalid-argument"},
		/* EINVAL's text names no value the job was given: a call refused its argument */
		{"bind: Invalid argument", "invalid-argument"},
		{"NCCL WARN Cuda failure 'invalid argument'", "invalid-argument"},
		/* a checkpoint of another world size (deepspeedai/DeepSpeed#3810) */
		{"deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used "
		 "a DP world size of 32 but the current world size is 128. Automatic adjustment of "
		 "ZeRO's optimizer state partitioning with a new world size is not currently "
		 "supported.", "unsupported"},
		/* the Neuron runtime over its limits (AWS Neuron training troubleshooting guide) */
		{"ERROR  TDRV:tdrv_one_tmpbuf_reserve                 Number of ONE TMPBUF pages "
		 "requested exceeded the max number of pages allowed (requested: 28, max allowed: 16).",
		 "limit"},
		{"ERROR  TDRV:copy_and_stage_mr                       Failed to reserve one tmpbuf "
		 "memory", "memory"},
		{"(remote_read pid=1225) [2022-02-07 04:20:03,942 E 1225 1225] plasma_store_provider.cc"
		 ":122: Failed to put object 641e0797 in object store because it is full. Object size "
		 "is 219375455268 bytes.", "store-full"},
		{"2022-05-25 15:32:08,924\tWARNING worker.py:1416 -- The node with node id: 46d26484 "
		 "and address: 172.31.73.171 and node name: 172.31.73.171 has been marked dead because "
		 "the detector has missed too many heartbeats from it.", "node-lost"},
		{"CUDA error: invalid device ordinal", "invalid"},
		/* argparse refusing an option's value (vllm-project/vllm-ascend#16954) */
		{"vllm serve: error: argument --kv-cache-dtype: invalid choice: 'int8' (choose from "
		 "auto, bfloat16)",
		 "invalid"},
		/* DPDK's link check (qnsm #44) */
		{"Some links are DOWN", "link-down"},
		/* Open MPI's openib help text (ArjunaUsers #216) */
		{"but there are no active ports detected (or Open MPI was unable to use", "link-down"},
		/* the NVIDIA driver (NVIDIA/dra-driver-nvidia-gpu #982) */
		{"[373871.354096] NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required "
		 "[NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_channel.c:2827",
		 "hardware"},
		/* a NCCL process in a container with a small /dev/shm (hugectr_backend #42) */
		{"[qgpuvb813-cvision:1    :0:381] Caught signal 7 (Bus error: nonexistent physical "
		 "address)",
		 "bus-error"},
		{"[ERROR] [Parse]ranktable config devId[1], but local devId[3]", "ranktable"},
		{"KV transfer task failed: [link] failed, error code is 7", "connect-failed"},
		{"Hello request failed: Not connected to 10.0.0.3:4000 yet", "connect-failed"},
		{"ERROR [x.py:5]   File \"/opt/a/b.py\", line 9, in run", "exception"},
		{"Traceback (most recent call last):", "exception"},
		{"    \"message\": \"RendezvousConnectionError: The connection to the C10d store has "
		 "failed. See inner exception for details.\",",
		 "rendezvous"},
		{"WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'w-1_17_0' "
		 "has failed to shutdown the rendezvous 'none' due to an error of type "
		 "RendezvousConnectionError.",
		 "rendezvous"},
		{"Fatal error in MPI_Init: Other MPI error, error stack:", "fatal"},
		{"Abort(204069007): Fatal error in internal_Init_thread: Other MPI error", "fatal"},
		{"invalid value 0 for parameter num_workers: must be positive", "setting"},
		{"RuntimeError: HBM multi-bit ECC error on device 3", "hardware"},
		{"mce: [Hardware Error]: Machine check events logged", "hardware"},
		{"torch.distributed: failed to connect to tcp://:29500", "empty-host"},
		{"worker: connect to store at address :6379 failed", "empty-host"},
		{"ERROR: could not reach the master host :29500", "empty-host"},
		{"Timed out waiting for the scheduler to become available", "connect-timeout"},
		{"error: POST /v1/completions [status code: 503]", "http-error"},
		{"WARNING: rank 3 appears hung after step 200", "hang"},
		{"some processes are hanging; failed to gather", "hang"},
		{"python3: symbol lookup error: /opt/lib/libx.so: undefined symbol: _ZN1a1bEv",
		 "version"},
		{"/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/libx.so)",
		 "version"},
		/* sgl-project/sglang#10748: Ascend's memory-fabric library */
		{"2025-09-22 20:20:40.102352 error 12789 pid[12789] [BM devmm_svm_gva.cpp:586] Alloc "
		 "gva local mem error. (ret=-1 size=0x2000000advise=0x2100008e)",
		 "memory"},
		/* vllm-project/vllm-ascend#5707: a second server on the same NPU */
		{"(EngineCore_DP0 pid=1102) ValueError: No available memory for the cache blocks. Try "
		 "increasing `gpu_memory_utilization` when initializing the engine.",
		 "memory"},
		/* aws-neuron/aws-neuron-sdk#713: the bootstrap of 32 ranks on one node */
		{"2023-Aug-01 16:12:43.0204 332066:332417 [18] bootstrap.cc:106 CCOM WARN Call to "
		 "accept failed : Too many open files",
		 "limit"},
		/* real-logs-new batch85, University of Delaware's DARWIN (UCX's MR cache) */
		{"[Thu Oct 31 21:32:31 2024] mlx5_core 0000:01:00.0: mlx5_cmd_check:794:(pid 57074): "
		 "CREATE_MKEY(0x200) op_mod(0x0) failed, status limits exceeded(0x8), syndrome "
		 "(0x59c8a4)",
		 "limit"},
		/* NVIDIA/nccl#1235 */
		{"ng30903:3063028:3066152 [3] include/alloc.h:185 NCCL WARN Failed to CUDA calloc "
		 "6291456 bytes",
		 "memory"},
		/* vllm-project/vllm-ascend#3114 (the page wraps the line; its first part) */
		{"(EngineCore_DP0 pid=14400) ERROR 09-23 03:01:22 [core.py:718] ValueError: Current "
		 "node has no NPU available. current_node_resource={'memory': 215",
		 "no-device"},
		/* NVIDIA/nccl#1016 */
		{"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: "
		 "3 (pid: 429) of binary: /usr/bin/python",
		 "exit"},
		/* real-logs-new batch183, Peridigm#12 (MVAPICH on TACC's Stampede) */
		{"[c557-203.stampede.tacc.utexas.edu:mpispawn_1][child_handler] MPI process (rank: "
		 "16, pid: 107546) terminated with signal 9 -> abort job",
		 "killed"},
		/* real-logs-new batch265, vllm-project/vllm-ascend#9689 (Gloo under vllm-ascend) */
		{"Is there a distributed collective mismatch in your code?", "collective-mismatch"},
		/* real-logs-new batch259, spectrocloud/CanvOS#700 */
		{"Jul 20 16:15:36 edge-...:  Kernel module \"ib_umad\" has not been loaded, fabric "
		 "manager cannot be started",
		 "module-not-loaded"},
		/* real-logs-new batch299, MLCommons training results v4.0 (Oracle's job 551) */
		{"srun: error: Unable to create step for job 551: More processors requested than "
		 "permitted",
		 "allocation"},
		/* real-logs-new batch296, HPE Slingshot's troubleshooting guide (cxi_write_bw,
		 * the Cassini NIC's kernel log) */
		{"cxi_write_bw: Insufficient 2M huge pages. Need 8 to run", "insufficient"},
		/* real-logs-new batch324, saforem2/ezpz's docs (torchtitan on Aurora's XPUs) */
		{"[rank7]: RuntimeError: level_zero backend failed with error: 40 "
		 "(UR_RESULT_ERROR_OUT_OF_RESOURCES)",
		 "limit"},
		/* real-logs-new batch325, MindCluster's fault-diagnosis test data (a device's
		 * black box) */
		{"device_id = 2, fail info: device_id-2 appeared multi ecc err, the physical "
		 "address is 0x400cd8d202e0",
		 "hardware"},
		/* real-logs-new batch328, converged-computing's Google performance study (kubectl
		 * get pods after MFEM on 32 nodes) */
		{"mfem-0-z6rhn    0/1     OOMKilled                0             107s", "memory"},
		/* real-logs-new batch326, converged-computing's performance study (nekRS on 128
		 * nodes) */
		{"Error in setup: MPI tasks > number of elements!", "invalid"},
		/* real-logs-new batch341, tensorflow/tensorflow#32654 (the kernel log of a
		 * MirroredStrategy run whose GPUs' peer-to-peer writes the IOMMU refused) */
		{"[1478401.486981] DMAR: [DMA Write] Request device [02:00.0] fault addr cd139000 "
		 "[fault reason 05] PTE Write access is not set",
		 "iommu"},
		/* real: amd/xdna-driver#181 (AMD's IOMMU refusing a device's read) */
		{"AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x001a address=0xfffc8000 flags=0x0050]",
		 "iommu"},
		/* real-logs-new batch341, tensorflow/tensorflow#44281 (Windows, no NCCL) */
		{"No OpKernel was registered to support Op 'NcclAllReduce' used by {{node "
		 "NcclAllReduce}} with these attrs: [reduction=\"sum\", shared_name=\"c1\", "
		 "T=DT_FLOAT, num_devices=2]",
		 "no-kernel"},
		/* real-logs-new batch350, ray-project/ray#28071 (a raylet whose worker ports were
		 * taken) */
		{"(raylet, ip=10.159.0.81) [2022-08-24 09:02:57,650 E 22814 22814] core_worker.cc:137: "
		 "Failed to register worker 8b8dd67cd10654be53e1445a598a750d637b6969e9008429076ceaba "
		 "to Raylet. Invalid: Invalid: No available ports. Please specify a wider port range",
		 "ports"},
		/* real-logs-new batch333, oracle-quickstart/oci-hpc's troubleshooting notes (a
		 * package missing, where a dotted name is a release's missing part) */
		{"2026-01-16 15:41:14,745 - WARNING - GPU SDC Test crashed: Required dependencies "
		 "not available: No module named 'numpy'",
		 "missing-package"},
		{"[Thu Jul 13 01:57:31 2023] cxi_core 0000:c3:00.0: cxi3[hsn3]: C_EC_UNCOR_NS: "
		 "C1_PCT error: tct_cam_ucor (42) (was first error at 1689213438:290566940)",
		 "hardware"},
		/* real-logs-new batch309, MLCommons training results v4.1 (Oracle's nvidia-smi
		 * sweep before a GPT-3 run) */
		{"inst-ghz1n-nrt-4k-gpu-instance-pool: Unable to determine the device handle for "
		 "GPU0000:0F:00.0: Unknown Error",
		 "hardware"},
		/* real-logs-new batch312, mghpcc/aicr-benchmarks (HPL-MxP's grid check) */
		{" ERROR 2 (22->a0003): Number of processes (32) != nprow (8) * npcol (8)",
		 "invalid"},
		/* real-logs-new batch322, converged-computing's performance study (Kripke) */
		{"Assertion Failed: Number of MPI ranks must match decomposition, expected 12288 "
		 "ranks",
		 "invalid"},
		/* an assignment advised, in oneCCL's words (real-logs-new batch308, on Aurora) */
		{"RuntimeError: oneCCL: global.cpp:150 getenv_local_coord: EXCEPTION: to get "
		 "local_idx/count from ATL, set CCL_ZE_IPC_EXCHANGE=sockets explicitly",
		 "advised-setting"},
		/* real-logs-new batch299, MLCommons training results v4.0 (numactl under srun -l) */
		{"0: <0-7,64-71> is invalid", "invalid"},
		{"Error: 'ens*' is not valid", "invalid"},
		/* a permission too narrow is no resource */
		{"ERROR: insufficient permissions to open /dev/infiniband/uverbs0", "permission"},
		/* real: real-logs-new batch660 (openstreetmap/operations#759, rasdaemon's record
		 * of a DIMM's corrected read errors; the DIMM was replaced) */
		{"1 2022-10-16 06:37:53 +0000 1 Corrected error(s): memory read error at "
		 "CPU_SrcID#1_MC#1_Chan#1_DIMM#0 location: 3:1:0:-1, addr 470094872512, grain 5, "
		 "syndrome 0  err_code:0x0101:0x0091 socket:1 imc:1 rank:0 bg:1 ba:3 row:0x16f2d "
		 "col:0x3f8",
		 "hardware"},
		/* real: real-logs-new batch657 (LSF's end of a job killed at its memory limit) */
		{"TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.", "memory"},
		/* real: real-logs-new batch644 (fgci-org/ansible-role-slurm#11, slurmd on pe4) */
		{"Feb 11 13:03:05 pe4 slurmd[22276]: error: Security violation, acct_gather_update "
		 "RPC from uid 994",
		 "permission"},
		/* real-logs-new batch293, HPE Slingshot's troubleshooting guide (cxiberstat) */
		{"x2510c7s6b0n0: Warning: encountered unexpected Link Mode NA for non-zero error rate "
		 "595424",
		 "link-errors"},
		/* real-logs-new batch273, deepspeedai/DeepSpeed#4985 (its elastic agent under a
		 * newer torch) */
		{"rogpt1: TypeError: DSElasticAgent._set_master_addr_port() takes 3 positional "
		 "arguments but 4 were given",
		 "version"},
		/* real-logs-new batch278, sparticlesteve's pytorch-nccl hang on Perlmutter */
		{"slurmstepd: error: *** JOB 8384637 ON nid001044 CANCELLED AT 2023-05-02T03:58:46 "
		 "DUE TO TIME LIMIT ***",
		 "timeout"},
		/* real-logs-new batch273, volcengine/verl#6405 */
		{"NCCL deadlock: rank0 sends 128 elements, rank1 expects 256", "hang"},
		/* real-logs-new batch57, arjunausers#216 (Omni-Path without an active port) */
		{"e001.53882PSM2 no hfi units are active (err=23)", "link-down"},
		/* real-logs-new batch270, geos-chem#822 (Slurm without its PMIx plugin) */
		{"srun: error: Couldn't find the specified plugin name for mpi/pmix looking at all "
		 "files",
		 "plugin-missing"},
		{"srun: error: cannot find mpi plugin for mpi/pmix", "plugin-missing"},
		/* real-logs-new batch115, aws-samples/awsome-distributed-training#292: a plugin
		 * that needs another version of a library is the version rows' */
		{" [0] NCCL INFO NET/Plugin : dlerror=/opt/amazon/efa/lib/libfabric.so.1: version "
		 "`FABRIC_1.7' not found (required by /fsx/ubuntu/awsome-distributed-training/"
		 "3.test_cases/10.FSDP/pt_fsdp/lib/python3.10/site-packages/torch/lib/../../../../"
		 "libnccl-net.so",
		 "version"},
		/* real-logs-new batch270, easybuild#18925 (libfabric's PSM3 on an Ethernet port) */
		{"login1:rank0: PSM3 can't open nic unit: 0 (err=23)", "no-interface"},
		/* real-logs-new batch271, ai-dynamo/dynamo#5523 (the line as one sentence) */
		{"may use dynamic buffer which will fail with NIXL backend. It is recommended to set "
		 "cacheTransceiverConfig.MaxTokensInBuffer to a value greater than the maximum ISL "
		 "of processed requests.",
		 "advised-setting"},
		/* real-logs-new batch254, ray-project/ray#14535 */
		{"ValueError: The configured object store size exceeds the capacity of /dev/shm. "
		 "This will harm performance.",
		 "memory"},
		/* real-logs-new batch244, ultralytics/ultralytics#918 */
		{"WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, "
		 "shutting down workers",
		 "stopped-from-outside"},
		/* real-logs-new batch246, Hi-PACE/hipace#1185 (Perlmutter) */
		{"PE 4: MPICH WARNING: OFI is failing to make progress on posting a receive. MPICH "
		 "suspects a hang due to completion queue exhaustion.",
		 "limit"},
		/* real-logs-new batch244, NVIDIA/nvidia-resiliency-ext#348 */
		{"ft_rendezvous_barrier.py:1458 [node-A...] Maximum number of nodes (4) exceeded. "
		 "This is likely a configuration error - please check max_nodes setting.",
		 "setting"},
		/* real-logs-new batch197, EleutherAI/gpt-neox#88 */
		{"10.141.250.227: /usr/bin/python3: can't open file 'train_mpu.py': [Errno 2] No "
		 "such file or directory",
		 "missing-file"},
		/* real-logs-new batch390, STEllAR-GROUP/hpx#1466 (Torque's node file on a disk the
		 * other nodes lack) */
		{"hpx::init: std::exception caught: Could not open nodefile: "
		 "'/var/spool/torque/aux//20775.smic3'",
		 "file-unopened"},
		/* real-logs-new batch287 (the verbs providers' directory missing in a container) */
		{"libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.",
		 "file-unopened"},
		/* real-logs-new batch390, open-mpi/ompi#13570: Open MPI's help text, its two wrapped
		 * lines read together */
		{"The specified LSF affinity file contained a node (server1.example.com) that is not "
		 "in your allocation. We therefore cannot map a process rank to it. Please",
		 "allocation"},
		/* real-logs-new batch396: munge on a node whose clock ran ahead, and Slurm's launch
		 * on one whose clock was off */
		{"[2021-09-22T14:11:30.278] error: Munge decode failed: Expired credential", "clock"},
		{"srun: error: Task launch for 1466614.0 failed on node compute-0-1: Job credential "
		 "expired",
		 "clock"},
		/* real-logs-new batch394, BigScience's tr8b chronicles (a resume whose settings
		 * differ from the checkpoint's) */
		{"AssertionError: AnnealingLR: class input value 1e-06 and checkpointvalue 1e-05 for "
		 "minimum learning rate do not match",
		 "values-differ"},
		/* ... but a package built for another chip stays a version's (real-logs-new batch37) */
		{"[ERROR] the socversion Ascend910B1 of bin package does not match the current device "
		 "socverison Ascend310P3. Please modify default socversion in run.sh or execute run.sh "
		 "with socversion parameter.",
		 "version"},
		/* real-logs-new batch399, adap/flower#3006 (gRPC's limit on one message) */
		{"grpc._channel._MultiThreadedRendezvous: <_MultiThreadedRendezvous of RPC that "
		 "terminated with:         status = StatusCode.RESOURCE_EXHAUSTED         details = "
		 "\"Sent message larger than max (544715979 vs. 536870912)\"",
		 "message-size"},
		/* real-logs-new batch401, horovod/horovod#2619 (built against one TensorFlow, run
		 * with another) */
		{"[1,1]<stderr>:horovod.common.exceptions.HorovodVersionMismatchError: Framework "
		 "tensorflow installed with version 2.3.0 but found version 2.4.1.",
		 "version"},
		/* real-logs-new batch408: OCI launching a bare-metal node, CycleCloud resuming one */
		{"2019-06-10 11:29:37,108 startnode  ERROR    bm-standard-e2-64-ad1-0003:  problem "
		 "launching instance: {'opc-request-id': 'E3D3A2D1DEB14B9C84CBB7FD6F2CA7B3/"
		 "90862EA821FF46290B355B89CAE3A926/B4D05FEBD75749F988B1C201434A2A1C', 'code': "
		 "'InternalError', 'message': 'Out of host capacity.', 'status': 500}",
		 "capacity"},
		{"allow_existing=False; Bucket NodeBucket(htc, available=0, size=Standard_F2s_v2, "
		 "id=50fb069a-f229-47c5-b531-de8f96e80963) does not have capacity: Required=1 "
		 "Available=0': See the rest in the log file",
		 "capacity"},
		/* real-logs-new batch412, kubernetes/kubernetes#71261 (a node's connection tracking
		 * full) */
		{"[Tue Nov 20 22:30:22 2018] nf_conntrack: table full, dropping packet",
		 "kernel-table-full"},
		/* real-logs-new batch414, IO500/io500-dev#62 (IOR in Lustre's client) */
		{"INFO: task ior:142307 blocked for more than 120 seconds.", "blocked-task"},
		/* real-logs-new batch427: DCGM's diagnostic on a GPU split by MIG (NVIDIA/DCGM#31),
		 * IBM Autopilot's PCIe bandwidth check, GPCNeT started on one node (SuperBench's
		 * test data), the NCCL RAS client's table (ROCm/cvs's test data) */
		{"print: GPU 0's MIG configuration is incompatible with the diagnostic because it "
		 "prevents access to the entire GPU.",
		 "setting"},
		{"[[ PCIEBW ]] FAIL", "pcie"},
		{"Node Status: PCIE Failed", "pcie"},
		{"ERROR: this application must be run on at least 2 nodes", "world-size"},
		{"    0         1         2       7-8        16        15   RUNNING  INCOMPLETE", "hang"},
		/* real-logs-new batch431 (converged-computing/performance-study, AMG2023 on 256
		 * nodes), batch430 (the Crater platform's RDMA guide; NVIDIA/k8s-device-plugin#23),
		 * batch126 (jax-ml/jax#18391), batch431 (MGHPCC's SHARP notes), batch297 (LUMI's
		 * training material) */
		{"[1725148412.663874] [cluster-256-hpc-140:19284:0]     ucp_context.c:1234 UCX  WARN  "
		 "network device 'mlx5_ib0:1' is not available, please use one or more of: "
		 "'eth0'(tcp), 'lo'(tcp)",
		 "link-down"},
		{"Couldn't allocate MR", "limit"},
		/* real-logs-new batch435 (openhpc/ohpc#2059: UCX's dump), batch434 (NVIDIA/nccl#33:
		 * NCCL 1) */
		{"==== backtrace (tid: 548615) ====", "crash"},
		/* real-logs-new batch837 (Azure/azurehpc-health-checks' IB flap test data) */
		{"Aug 17 06:18:01 jplc7eb7-vm-0 systemd-networkd[5398]: ib6: lost carrier",
		 "link-down"},
		/* real-logs-new batch830 (ROCm/aiter#5192: the ROCm runtime's GPU page fault) */
		{"Memory access fault by GPU node-6 (Agent handle: 0x501def90) on address "
		 "0x7f5e50c00000. Reason: Unknown.",
		 "crash"},
		/* real-logs-new batch444 (a student team's LSF jobs: SUSTech's APAC HPC-AI 2024),
		 * batch446 (AWS ParallelCluster's troubleshooting page, OCI's node problem
		 * detector page) */
		{"mpirun was unable to find the specified executable file, and therefore",
		 "not-installed"},
		{"[mpiexec@b03u14a] match_arg (../../../../../src/pm/i_hydra/libhydra/arg/"
		 "hydra_arg.c:91): unrecognized argument x",
		 "arguments"},
		{"2022-05-20 13:06:24,796 - [slurm_plugin.common:add_instances_for_nodes] - ERROR - "
		 "Encountered exception when launching instances for nodes (x1) ['spot-dy-t2micro-2']: "
		 "An error occurred (AuthFailure.ServiceLinkedRoleCreationNotPermitted) when calling "
		 "the RunInstances operation: The provided credentials do not have permission to "
		 "create the service-linked role for EC2 Spot Instances.",
		 "permission"},
		{"RdmaLink       True     RdmaLinkHasIssues      Healthcheck:: RDMA Link Error",
		 "link-down"},
		/* real-logs-new batch503 (an operator's notes of a 2-node SGLang prefill), batch502
		 * (MGHPCC's HPL on 27 nodes) */
		{"ImportError: DeepEP is not installed. Please install DeepEP package from "
		 "https://github.com/deepseek-ai/deepep.",
		 "missing-package"},
		{">>> Illegal input in file -251055167. Exiting ... <<<", "invalid"},
		/* real-logs-new batch512 (HPC Advisory Council's HPCG job results) */
		{"mpirun was unable to launch the specified application as it could not access",
		 "not-installed"},
		/* real-logs-new batch565 (NVIDIA/gpu-operator#544: the fabric manager's own check) */
		{"nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 "
		 "don't match with driver version 530.41.03. Please update with matching NVIDIA driver "
		 "package.",
		 "version"},
		/* real-logs-new batch547 (hicann/runtime's FAQ for aclrtSetDevice's 107001) */
		{"[ERROR] RUNTIME: Failed to get phy dev id by logic dev id, driver may not be loaded",
		 "module-not-loaded"},
		/* real-logs-new batch541 (HPC Advisory Council's job results): a job script with
		 * a quote left open, and Open MPI's openib help text (two lines joined) */
		{"/var/lib/slurm/slurmd/job00703/slurm_script: line 112: syntax error: unexpected "
		 "end of file",
		 "shell"},
		{"The OpenFabrics (openib) BTL failed to initialize while trying to allocate some "
		 "locked memory.  This typically can indicate that the",
		 "limit"},
		/* real-logs-new batch537 (a student team's HPL jobs: HPC-Xenon-Cluster); Open MPI's
		 * help text, its two lines joined as the triage joins a wrapped sentence */
		{"The SLURM process starter for OpenMPI was unable to locate a usable \"srun\" command "
		 "in its path. Please check your path",
		 "not-installed"},
		/* real-logs-new batch511 (LUMI's AI course notes) */
		{"srun: error: Unable to confirm allocation for job 7241252: Invalid job id specified",
		 "invalid"},
		/* real-logs-new batch497 (a SuperPod switch log in MindCluster's test data) */
		{"Jul 31 2025 18:36:19+08:00 Z3_22R_99_30 %%01DEVM/1/hwPortFail_active(l):CID=0x80fc0101-"
		 "alarmID=0x00f10509;The port failed partially. (EntPhysicalIndex=16863797, "
		 "EntPhysicalName=400GHL1/1/2:1, EntityTrapFaultID=132338, Reason=Port real lanes are "
		 "less than quarter of the configured lanes.)\",",
		 "link-down"},
		/* real-logs-new batch440 (HPL-MxP on anuhpc2025/HPC-Xenon-Cluster) */
		{" ERROR 1 (0->node1): 4 devices detected but HPL MxP needs exactly 1 device per "
		 "process at (src/driver.cpp:397)",
		 "world-size"},
		/* real-logs-new batch438 (kubeflow/kubeflow#109, ray-project/kuberay#889), batch439
		 * (MGHPCC's Megatron-LM job) */
		{"E0110 11:10:03.455096       1 election.go:226] error retrieving resource lock "
		 "default/tf-operator: endpoints \"tf-operator\" is forbidden: User "
		 "\"system:serviceaccount:default:tf-job-operator\" cannot get endpoints in the "
		 "namespace \"default\"",
		 "permission"},
		{"details = \"failed to connect to all addresses; last error: UNKNOWN: "
		 "ipv4:10.108.163.118:6379: Peer name 10.108.163.118 is not in peer certificate\"",
		 "certificate"},
		{"/var/spool/slurm/slurmd/job09770/slurm_script: line 13: 1: ERROR: global batch size "
		 "must be passed as first argument to job.sh",
		 "arguments"},
		/* real-logs-new batch1043 (wilicc/gpu-burn#94, gpu-burn built by CUDA 12.3 on an
		 * older driver) */
		{"Couldn't init a GPU test: Error in load module (gpu_burn-drv.cpp:238): the provided "
		 "PTX was compiled with an unsupported toolchain.",
		 "version"},
		/* real-logs-new batch1016 (unslothai/unsloth#724) */
		{"RuntimeError: Unsloth currently does not work on multi GPU setups - sadly we are a 2 "
		 "brother team so enabling it will require much more work, so we have to prioritize. "
		 "Please understand!",
		 "unsupported"},
		/* real-logs-new batch1063 (NVIDIA/DALI#510), batch83 (ALCF's Polaris DeepSpeed
		 * page): a bound on a value the job gave, stated by the check that refused it */
		{"RuntimeError: Critical error in pipeline: [/opt/dali/dali/pipeline/operators/reader/"
		 "loader/loader.h:57] Assert on \"num_shards_ > shard_id_\" failed: num_shards needs "
		 "to be greater than shard_id",
		 "invalid"},
		{"x3202c0s31b0n0: AssertionError: Micro batch size per gpu: 0 has to be greater than 0",
		 "invalid"},
		/* real-logs-new batch1094 (iat-cener/CFDWind#1): the job's own count of processes
		 * against the one it was started with */
		{"[0] \"/home/exampleCases/GABLS3/system/decomposeParDict\" specifies 16 processors "
		 "but job was started with 4 processors.",
		 "world-size"},
		/* real-logs-new batch1098 (a teaching cluster's committed Slurm error file) */
		{"srun: error: Only allocated 4 nodes asked for 5", "world-size"},
		/* real-logs-new batch707 (ComputeCanada/puppet-magic_castle#27), batch694
		 * (stackhpc/ansible-role-openhpc#95): a configuration file listing one entry twice */
		{"Feb 20 18:59:13 node2.int.rubberducky.calculquebec.cloud slurmd[57977]: fatal: "
		 "gres.conf duplicate records for gpu",
		 "setting"},
		{"Feb 24 09:21:38 nrel-control.novalocal slurmctld[26180]: error: Duplicated "
		 "NodeHostName nrel-hpc-0 in the config file",
		 "setting"},
		/* real-logs-new batch1077 (paboyle/Grid#438), batch265 (verl's FAQ on NPUs): a
		 * limit the job's setting put, and the advice to raise it */
		{"ShmBufferMalloc exceeded shared heap size -- try increasing with --shm <MB> flag",
		 "advised-setting"},
		{"Please increase rollout.update_weights_bucket_megabytes(2048 MB).",
		 "advised-setting"},
		{"WARN src/core.cu:225 failed to allocate 2101248 byte device buffer", "memory"},
		/* real-logs-new batch1005 (the Neuron runtime's device-memory page), batch420
		 * (yahoo/TensorFlowOnSpark#222): an allocation of a stated size refused */
		{"2025-May-15 20:58:33.897479 224822:224822 ERROR  TDRV:log_dev_mem                     "
		 "        Failed to allocate 4.000GB (alignment: none, usage: tensors) on ND 0:NC 4",
		 "memory"},
		{"2018-02-07 21:05:47.514579: E tensorflow/stream_executor/cuda/cuda_driver.cc:936] "
		 "failed to allocate 9.82G (10539692032 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY",
		 "memory"},
		{"NCCL Init failed (10) 'cuda malloc failed'", "memory"},
		{"Failed to start nvml with error:  could not load NVML library", "library-missing"},
		{"external/xla/xla/service/gpu/nccl_utils.cc:133: NCCL operation ncclGetUniqueId(&id) "
		 "failed: Unable to load NCCL library.",
		 "library-missing"},
		{"Error message: hwloc_set_cpubind returned \"Error\" for bitmap \"0\"", "binding"},
		{"srun: error: CPU binding outside of job step allocation, allocated CPUs are: "
		 "0x01FFFFFFFFFFFFFE01FFFFFFFFFFFFFE.",
		 "binding"},
		/* real-logs-new batch451 (committed job outputs: ANU's HPC-Xenon-Cluster, SUSTech's
		 * Qiming logs), batch449 (aws/aws-parallelcluster#2701), batch448/436 (MindSpeed's
		 * pages: glibc's static TLS) */
		{"srun: error:  mpi/pmix_v5: init: (null) [0]: mpi_pmix.c:193: pmi/pmix: can not load "
		 "PMIx library",
		 "library-missing"},
		{"The mapping request contains an unrecognized modifier:", "arguments"},
		{"vtune: Error: MPI application analysis is not possible if a result directory name "
		 "is not provided or contains @ characters.",
		 "arguments"},
		{"Apr 30 13:17:48 ip-10-0-33-4 kernel: [266333.003777] oom-kill:constraint="
		 "CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/"
		 "user.slice,task=python,pid=15850,uid=1000",
		 "memory"},
		{"ImportError: /root/miniconda3/envs/wqh39/bin/../lib/libgomp.so.1: cannot allocate "
		 "memory in static TLS block",
		 "static-tls"},
		/* real-logs-new batch482 (mlc-ai/mlc-llm#2838), batch404 (FAMBench's DeepSpeed MoE),
		 * batch429 (Isambard-AI's vLLM notes), batch460 (MindSpore's error analysis page) */
		{"AssertionError: num_kv_heads(8) must be divisible by tensor_parallel_shards",
		 "divisible"},
		{"AssertionError: 4 is not divisible by 8", "divisible"},
		{"ValueError: Weight input_size_per_partition = 192 is not divisible by weight "
		 "quantization block_k = 128.",
		 "divisible"},
		{"[ERROR]The strategy is ((8, 1)), shape 4 can not be divisible by strategy value 8",
		 "divisible"},
		/* real-logs-new batch471 (flux-framework/flux-core#7654, #6279) */
		{"Jun 04 14:00:56 tuolumne2150 flux[371635]: overlay.crit[1150]: disconnecting: no "
		 "heartbeat for 5.1m",
		 "node-lost"},
		{"flux-broker: could not find address associated with 192.16.1.1/24", "no-interface"},
		/* real-logs-new batch464 (hw-native-sys/simpler#1686), batch466
		 * (SemiAnalysisAI/InferenceX#998) */
		{"错误: NPU 卡 7 已损坏，无法使用（本机损坏卡: 7）", "hardware"},
		{"SQ full (batch): ep=0 depth=4351 requested=1 max=4351", "queue-full"},
		/* real-logs-new batch460 (an older version of MindSpore's CANN error page) */
		{"EK0001: Path [/ms_test/ci/user_scene/profiler_chinese_中文/resnet/scripts/train/data/"
		 "profiler] for [profilerResultPath] is invalid or does not exist. The Path name can "
		 "only contain A-Za-z0-9-_.",
		 "invalid"},
		/* real-logs-new batch458 (linux-rdma/perftest#228) */
		{"Couldn't connect to 192.168.125.211:18515", "connect-failed"},
		/* real-logs-new batch651 (aws/eks-node-monitoring-agent#243, the DCGM client) */
		{"failed to initialize DCGM: error connecting to nv-hostengine:", "connect-failed"},
		/* real-logs-new batch452 (Ascend/ascend-deployer's FAQ), batch454 (NCSA Delta's
		 * guide), batch455 (an engineer's committed SGLang notes) */
		{"fatal: [172.0.0.99]: FAILED! => {\"changed\": false, \"msg\": \"login harbor failed, "
		 "please check whether docker proxy is set\"}",
		 "advised-setting"},
		{"fatal: [172.0.0.100]: FAILED! => {\"msg\": \"Missing sudo password\"}", "permission"},
		{"Error: NMI watchdog is enabled. NMI uses one Core HW PMC counter.", "setting"},
		/* a month's name is no hedge (real-logs-new batch382, AWS Neuron's runtime) */
		{"2023-May-21 14:27:33.0045 102203:102204 [0] init.cc:655 CCOM WARN Unable to run "
		 "multi-instance workload.  Ofi plugin is not installed or EFA is not enabled",
		 "setting"},
		{"/usr/bin/ld: cannot find -lcudart", "library-missing"},
		/* real-logs-new batch195, ornladios/ADIOS2#3377 (a frame of MPICH's error stack) */
		{"MPIDI_UCX_get_local_upids(31): The function is currently not supported with ucx "
		 "netmod",
		 "unsupported"},
		/* real-logs-new batch205, hiyouga/LlamaFactory#7806: the release's own default
		 * that its Windows build lacks; a feature the job asked for that its build lacks
		 * is the job's setup */
		{"torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built "
		 "without libuv support, run with USE_LIBUV=0 to disable it.",
		 "version"},
		{"RuntimeError: the ibv transport was requested but TensorPipe was built without "
		 "InfiniBand support",
		 "backend-missing"},
		/* real-logs-new batch529, rwth-i6/returnn#1196 (Horovod, in the passive) */
		{"ValueError: MPI support has not been built.  If this is not expected, ensure MPI is "
		 "installed and reinstall Horovod with HOROVOD_WITH_MPI=1 to debug the build error.",
		 "backend-missing"},
		/* real-logs-new batch186, Mellanox/nv_peer_memory#39 */
		{"[76463.688316] nv_peer_mem: disagrees about version of symbol "
		 "ib_register_peer_memory_client",
		 "version"},
		/* vllm-project/vllm-ascend#946 */
		{"Some Ray subprocesses exited unexpectedly:", "exit"},
		/* real-logs-new batch755 (MindCluster's scheduling FAQ): a hostPath of the wrong
		 * kind */
		{"  Warning  FailedMount  8s (x5 over 15s)  kubelet, ubuntu      MountVolume.SetUp "
		 "failed for volume \"device-ascenddeviceplugin\" : hostPath type check failed: "
		 "/var/log/mindx-dl/ascend-device-plugin is not a directory",
		 "path-kind"},
		/* real-logs-new batch728 (JAX's fault-tolerance guide): the task that reports a
		 * peer's death is not the cause */
		{"F0929 17:42:48.594200 1044529 client.h:77] Terminating process because the JAX "
		 "distributed service detected fatal errors. This most likely indicates that "
		 "another task died; see the other task logs for more details.",
		 "peer-died"},
		/* real-logs-new batch769 (ComputationalRadiationPhysics/picongpu#3659): Open MPI's
		 * help text on a request the topology cannot meet */
		{"Please revise the conflict and try again.", "conflict"},
		/* real-logs-new batch801 (hao-ai-lab/FastVideo's committed Slurm log): a sequence
		 * parallel size that does not divide the latent frames */
		{"[rank7]: einops.EinopsError: Shape mismatch, can't divide axis of length 20 in "
		 "chunks of 8",
		 "divisible"},
		/* real-logs-new batch806 (Azure/azurehpc-health-checks' test data) */
		{"NVML: Unable to retrieve NVLink information as all links are inactive",
		 "link-down"},
		/* pip's resolver, as pex-tool/pex's tests expect its message */
		{"ERROR: Cannot install cowsay==5.0 and cowsay>=6.0 because these package versions "
		 "have conflicting dependencies.",
		 "version"},
		/* real-logs-new (haibinlai APAC HPC-AI 2024, Qiming): Lmod refusing a module */
		{"  ERROR: openmpi/4.1.2_gcc-11.2.0 cannot be loaded due to a conflict.", "conflict"},
	};
	/* lines that must not read as a family their words come near */
	static const struct {
		const char *line, *not_family, *why;
	} nots[] = {
		/* a division by zero is a bug, not sizes that do not divide (made up) */
		{"ZeroDivisionError: cannot divide by zero", "divisible",
		 "a division by zero read as sizes that do not divide"},
		/* pip's resolver (its message as pex-tool/pex's tests expect it): versions, which
		 * the version rows read, not settings that conflict */
		{"ERROR: Cannot install cowsay==5.0 and cowsay>=6.0 because these package versions "
		 "have conflicting dependencies.",
		 "conflict", "packages whose versions conflict read as conflicting settings"},
		/* another rank had died first (real: pmodels/mpich issue 6124): neither a launcher
		 * mismatch nor a peer's death the line reports */
		{"[0][0] PMI_Init failed: FAIL - init called when another process has exited "
		 "without calling init",
		 "pmi-launch", "a PMI_Init after another rank's exit read as a launcher mismatch"},
		{"[0][0] PMI_Init failed: FAIL - init called when another process has exited "
		 "without calling init",
		 "peer-died", "another process's exit read as a peer's death"},
		/* a provider's error number that reuses ENOTDIR's text (real: real-logs-new batch70,
		 * aws/aws-ofi-nccl#156) */
		{"[1,13]<stderr>:libfabric:35:1668017255::efa:cq:rxr_cq_write_tx_error():243<warn> "
		 "rxr_cq_write_tx_error: err: 20, prov_err: Not a directory (20)",
		 "path-kind", "a provider's error 20 read as a path of the wrong kind"},
		/* real: mlcommons training_results_v3.5 issue 5 */
		{"[hpci5201:103648] pml_ucx.c:472  Error: Failed to resolve UCX endpoint for rank 1",
		 "name-resolution", "a UCX endpoint read as a host name"},
		/* a warning that a setup may yield errors (real: real-logs-new batch217,
		 * huggingface/text-generation-inference#1383) */
		{"You are using a model of type llama to instantiate a model of type . This is not "
		 "supported for all configurations of models and can yield errors.",
		 "unsupported", "a warning that a setup can yield errors read as an unsupported setup"},
	};
	for (size_t i = 0; i < sizeof(nots) / sizeof(nots[0]); i++) {
		const char *got = fam(nots[i].line);
		if (got && !strcmp(got, nots[i].not_family))
			fail_msg("%s", nots[i].why);
	}
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *got = fam(t[i].line);
		if (!got || strcmp(got, t[i].family))
			fail_msg("'%s': expected %s, got %s", t[i].line, t[i].family,
				 got ? got : "(none)");
	}
}

static void test_order(void **state)
{
	(void)state;
	/* the crash explains the refused connection and the timeout around it */
	assert_string_equal(fam("rank 2 killed by signal 11; connection refused; timed out"),
			    "crash");
	/* SIGKILL's sender is most often the OOM killer: memory explains the crash */
	assert_string_equal(fam("rank 2 killed by signal 9; connection refused; timed out"),
			    "killed");
	/* not the launcher's own kill of the ranks left after a failure */
	const char *left = fam("Unable to shutdown process 4123 via Signals.SIGTERM, forcefully "
			       "exiting via Signals.SIGKILL");
	if (left && !strcmp(left, "killed"))
		fail_msg("the launcher's kill of what was left read as the cause");
	assert_string_equal(fam("connection refused after the store timed out"), "refused");
	/* a timeout while connecting is the network's, a bare one a late peer's */
	assert_string_equal(fam("connect() timeout"), "connect-timeout");
	assert_string_equal(fam("Timeout waiting for key rank_3"), "timeout");
	/* a setting's bound explains the timeout it causes */
	assert_string_equal(fam("HCCL_CONNECT_TIMEOUT must be at least 120: timed out"), "setting");
	/* what a process said before it crashed explains the crash */
	assert_string_equal(fam("RuntimeError: out of memory; Segmentation fault"), "memory");
	assert_string_equal(fam("Invalid rank size 0; terminate called after throwing"), "invalid");
	/* a host of the list that cannot be reached is the network's, not the list's */
	assert_string_equal(fam("RuntimeError: Using hostfile at /home/u/hostfile but "
				"host=gpu-0011 was not reachable via ssh."),
			    "unreachable");
	/* an invalid memory handle is a bug, not a value the job was given */
	assert_null(fam("The parameter memHandle[0xfffd7cc769e0] is invalid."));
	/* a bad pointer is a bug, not a value the job was given */
	assert_string_equal(fam("invalid memory access at 0x10, core dumped"), "crash");
	/* the bare news of an exception ranks below every family that names a kind */
	assert_string_equal(fam("Traceback (most recent call last): connection refused"),
			    "refused");
	/* out of memory as an API's result names it, inside its identifier (intel/intel-extension-
	 * for-pytorch#640: oneCCL on Level Zero), and as a CamelCase name; a word that merely
	 * ends in the letters is none */
	assert_string_equal(fam("2024:05:29-19:16:18:(202165) |CCL_ERROR| worker.cpp:338 "
				"ccl_worker_func: worker 0 caught internal exception: oneCCL: "
				"ze_call.cpp:28 do_call: EXCEPTION: ze error at "
				"zeCommandQueueExecuteCommandLists, code: "
				"ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"),
			    "memory");
	assert_string_equal(fam("hipMalloc failed: hipErrorOutOfMemory"), "memory");
	assert_string_equal(fam("error: CUDA_ERROR_OUT_OF_MEMORY at cuMemAlloc"), "memory");
	assert_null(fam("error: NOOUT_OF_MEMORYX set"));
	/* a buffer NVML was handed too small is no resource the job lacks (batch309, Lambda's
	 * run under Slurm's GPU accounting) */
	{
		const char *nvml = fam("16: slurmstepd: error: NVML: Failed to get Compute running "
				       "procs(7): Insufficient Size");
		assert_true(!nvml || strcmp(nvml, "insufficient"));
	}
	/* a program's own assertion comparing values is a bug's, not a value the job was given
	 * (real-logs-new batch35, open-mpi/ompi#7735) */
	{
		const char *as = fam("gather_in_place: opal_datatype_copy.h:147: "
				     "non_overlap_copy_content_same_ddt: Assertion `((iov_len_local) != "
				     "0) && ((count) != 0)' failed.");
		assert_true(!as || strcmp(as, "invalid"));
	}
	/* advice on debugging is no setting the job lacks, nor a name without a value */
	assert_null(fam("error: failed; set NCCL_DEBUG=INFO for details"));
	assert_null(fam("error: failed; set TORCH_DISTRIBUTED_DEBUG=DETAIL"));
	assert_null(fam("error: failed to set NCCL_IB_HCA"));
	assert_null(fam("error: failed to set A=1"));
	/* "invalid" with no noun and no value in quotes says too little for a family */
	assert_null(fam("error: the thing is invalid"));
	assert_null(fam("error: <> is invalid"));
	assert_null(fam("error: the checkoutofmemory flag was set"));
	/* HIP's name for a binary built for another GPU (OLCF's Frontier guide), and its text */
	assert_string_equal(fam(":1:hip_code_object.cpp      :460 : 43966602806 us: "
				"hipErrorNoBinaryForGpu: Unable to find code object for all current "
				"devices!"),
			    "gpu-arch");
	assert_string_equal(fam("Unable to find code object for all current devices"), "gpu-arch");
	/* advice to move a package's version (real: protobuf's, in THUDM/GLM-130B's evaluation
	 * log); advice to build with assertions for debugging names no missing backend (torch's
	 * line under every CUDA error) */
	assert_string_equal(fam(" 1. Downgrade the protobuf package to 3.20.x or lower."), "version");
	assert_null(fam("Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."));
	/* tries used up are no resource used up (real: MS-MPI in microsoft/CNTK#3380); a pool
	 * that is (gRPC's) still is */
	assert_string_equal(fam("unable to connect to 10.172.134.94 on port 24332, exhausted all "
				"endpoints"),
			    "connect-failed");
	assert_string_equal(fam("error: RESOURCE_EXHAUSTED: completion queue exhausted"), "limit");
	/* a port's state as one word (real: the Ascend 950 HCCN tool's adapt status table) */
	assert_string_equal(fam("| 0   | 0    | 4    | 0     | Thu Jan 1 00:00:00 1970 | "
				"L0:link_proc|L1:link_fail                                 |"),
			    "link-down");
	assert_string_equal(fam("L0:link_proc|L1:wait_detect|L2:linkdown|L3:linkdown_off"),
			    "link-down");
	/* causes a line offers as a numbered list are no family of the line's (Ray's worker
	 * died: "potential root causes. (1) ... OOM killer ... (2) ..."); one offered alone is */
	assert_null(fam("(raylet) A worker died or was killed while executing a task by an "
			"unexpected system error. There are some potential root causes. (1) The "
			"process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray "
			"stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV "
			"or other unexpected errors."));
	assert_string_equal(fam("ERROR: Unexpected bus error encountered in worker. This might be "
				"caused by insufficient shared memory (shm)."),
			    "bus-error");
	/* a word is found whatever the case of its first letter and however many of that
	 * letter come before it, and a line that ends on the letter holds no word */
	assert_string_equal(fam("error: o-o-o oo OUT OF MEMORY"), "memory");
	assert_string_equal(fam("error: Oo oO Out Of Memory"), "memory");
	assert_null(fam("error: o"));
	/* a needle's mark matches only itself ("(required by" needs its parenthesis) */
	assert_null(fam("libx.so: version 2 not found, required by libc"));
	/* an exit code of 0 is no failure; a fatal line says more than an exit code */
	assert_null(fam("worker 3: exit code 0, finished"));
	assert_string_equal(fam("Fatal error in MPI_Init; exit code 1"), "fatal");
	/* a device that is found is no missing device; found fewer than expected, the job's
	 * shape does not fit them */
	assert_null(fam("error: found 8 devices on node 3"));
	assert_string_equal(fam("error: found 8 devices available, expected 16"), "world-size");
		/* a word inside a name is no word: the call's name, not a timeout */
	assert_null(fam("rtDeviceSynchronizeWithTimeout execute failed"));
	/* a variable in capitals said to be unset, not a lower-case word or a short one */
	assert_null(fam("error: the value not set by the user"));
	assert_null(fam("error: AB not set"));
	/* nor a C++ function an assertion quotes, its scope and its call around the word
	 * (real-logs-new batch941, pytorch/pytorch#45826); the word in prose still is one */
	assert_null(fam("what():  owning_ptr == NullType::singleton() || owning_ptr->refcount_.load() > "
			"0 INTERNAL ASSERT FAILED at ../c10/util/intrusive_ptr.h:348"));
	assert_string_equal(fam("error: the singleton() init failed"), "pmi-launch");
	/* nor a class named after the pattern (real-logs-new batch948, HabanaAI/vllm-fork#484) */
	assert_null(fam("[19:08:34.165023][SYN_API       ][error][tid:44F8A] compileGraph: Failed to "
			"add recipe handle into Recipe-Singleton status 26[synFail]"));
	/* an empty host explains the refused connection it leads to; a host and port is none */
	assert_string_equal(fam("dial tcp :29500: connect: connection refused"), "empty-host");
	assert_string_equal(fam("connect failed: MASTER_ADDR=\":29500\""), "empty-host");
	/* real: tensorflow/tensorflow#62880 (gRPC's error JSON): a key and its number */
	assert_string_equal(fam(":{\"created\":\"@1706768248.511244031\",\"description\":\"Failed "
				"to pick subchannel\",\"file_line\":3941,\"referenced_errors\":"
				"[{\"description\":\"failed to connect to all addresses\"}]}"),
			    "connect-failed");
	assert_string_equal(fam("dial tcp 10.0.0.2:29500: connect: connection refused"), "refused");
	assert_string_equal(fam("failed to connect to [::1]:29500"), "connect-failed");
	/* a PCIe device's error report is no shared memory's */
	const char *aer = fam("pcieport 0000:00:01.0: AER: PCIe Bus Error: severity=Uncorrected");
	assert_string_not_equal(aer ? aer : "", "bus-error");
	/* real: easybuilders/easybuild-easyconfigs#13237 (test_c10d_nccl on 4 GPUs); and the
	 * kernel's PCIe AER */
	assert_string_equal(fam("  what():  CUDA error: uncorrectable NVLink error detected during "
				"the execution"),
			    "hardware");
	assert_string_equal(fam("pcieport 0000:00:03.0: AER: Uncorrected (Fatal) error received: "
				"0000:01:00.0"),
			    "hardware");
	/* a device's fault explains the crash after it */
	assert_string_equal(fam("uncorrectable ECC error encountered; core dumped"), "hardware");
	/* "version" alone is no mismatch */
	assert_null(fam("Error: version 2.1 of the plugin loaded"));
	/* an exception's own line says a process raised, below every family that names a kind;
	 * a module without the attribute asked for is another release of it, an object without
	 * one a defect of the code (the guess of code-check) */
	assert_string_equal(fam("RuntimeError: Trying to create tensor with negative dimension -2"),
			    "exception");
	assert_string_equal(fam("[rank3]: torch.distributed.DistBackendError: NCCL error: connection "
				"refused"),
			    "refused");
	assert_string_equal(fam("AttributeError: module 'torch_npu' has no attribute 'npu_rope'"),
			    "version");
	assert_string_equal(fam("AttributeError: 'NoneType' object has no attribute 'shape'"),
			    "code-check");
	/* real: LMCache/LMCache#1514 (a connector made for another release of Mooncake's store):
	 * an object of a package's class, named with its module's path */
	assert_string_equal(fam("[2025-09-04 01:00:51,159] LMCache ERROR: batch_get_buffer failed: "
				"'mooncake.store.MooncakeDistributedStore' object has no attribute "
				"'batch_get_buffer' (mooncakestore_connector.py:360:lmcache.v1."
				"storage_backend.connector.mooncakestore_connector)"),
			    "version");
	/* real: saforem2/torchtitan's known-bugs page (config-job-dump-folder) and
	 * uni-medical/SAM-Med3D#6: the job's own settings lack the key the code reads; a model's
	 * configuration class is its package's release (TinyLLaVA/TinyLLaVA_Factory#201), and a
	 * class that only ends in a holder's name is not one */
	assert_string_equal(fam("[rank0]: AttributeError: 'Config' object has no attribute 'job'"),
			    "arguments");
	assert_string_equal(fam("AttributeError: 'Namespace' object has no attribute 'rank'"),
			    "arguments");
	assert_string_equal(fam("AttributeError: 'omegaconf.dictconfig.DictConfig' object has no "
				"attribute 'name'"),
			    "arguments");
	assert_string_equal(fam("AttributeError: 'LlamaConfig' object has no attribute "
				"'embd_pdrop'"),
			    "code-check");
	assert_string_equal(fam("AttributeError: 'NamespaceArgs' object has no attribute 'x'"),
			    "code-check");
	/* real: Watsontao/mindrlhf (document/temp.md, a verl file edited by hand): a source that
	 * does not parse; Python's advice on its own syntax is no error */
	assert_string_equal(fam("SyntaxError: keyword argument repeated: backend"), "source");
	assert_null(fam("session_controller.py:57: SyntaxWarning: invalid escape sequence"));
	/* real: ArjunaCluster/ArjunaUsers#47: Slurm refusing the job's account */
	assert_string_equal(fam("sbatch: error: Batch job submission failed: Invalid account or "
				"account/partition combination specified"),
			    "invalid");
	/* real: vllm-project/vllm-ascend#2266: a mode limited to other models than the job's */
	assert_string_equal(fam("NotImplementedError: Torchair graph mode only works with following "
				"model types:['deepseek', 'pangu']."),
			    "unsupported");
	/* real: NVIDIA-NeMo/RL#1019: a node that cannot give a task the memory it asks for; what
	 * the software does not support stays that */
	assert_string_equal(fam("srun: error: Unable to create step for job 1853845: Memory required "
				"by task is not available"),
			    "memory");
	assert_string_equal(fam("RuntimeError: this mode is not available on this platform"),
			    "unsupported");
	/* real: NVIDIA/nccl#1394: Gloo's size check alone, a peer's tensor larger than this
	 * rank's */
	assert_string_equal(fam("  what():  [enforce fail at /opt/pytorch/pytorch/third_party/gloo/"
				"gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. "
				"256000 vs 128000"),
			    "collective-mismatch");
	/* real: huggingface/accelerate's DeepSpeed guide: a value refused, said of the job's
	 * configuration; a ValueError that names none is an exception */
	assert_string_equal(fam("ValueError: When using `deepspeed_config_file`, the following "
				"accelerate config variables will be ignored:"),
			    "invalid");
	assert_string_equal(fam("ValueError: too many values to unpack (expected 2)"), "exception");
	/* real: NVIDIA-NeMo/RL's docs (adding-new-models): a defect the line places in a release;
	 * an assertion that names no release is only code-check's guess (the line cannot tell
	 * the job's code from a package's) */
	assert_string_equal(fam("AssertionError: FAIL: 2047/2048 logprobs are NaN on iteration 2 "
				"(prefix caching is broken in vLLM 0.14.0)"),
			    "version");
	assert_string_equal(fam("AssertionError: bug in my_loss at step 3"), "code-check");
	/* real: Ascend/tools' msaicerr README: an AI Core's memory engine names its bus's error
	 * type, no process got SIGBUS */
	{
		const char *f = fam("    mte_err_type bit[26:24]=110  meaning:write bus error");
		assert_true(!f || strcmp(f, "bus-error"));
	}
	/* real: kvcache-ai/Mooncake#197 (the store's segments full): a status that names a pool
	 * with nothing left; vLLM's wait for a broadcast block is no pool run dry */
	assert_string_equal(fam("E0414 11:10:42.514200 18822 client.cpp:170] Failed to start put "
				"operation: NO_AVAILABLE_HANDLE"),
			    "exhausted");
	/* real: eth-cscs/alps-gh200-reproducers (gpudirect-oom): cudaErrorMemoryAllocation by its
	 * number alone; and ecmwf/anemoi-core#430 (every rank on GPU 0), cudaErrorDevicesUnavailable
	 * by its text */
	assert_string_equal(fam("CUDA error: 2"), "memory");
	assert_string_equal(fam("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or "
				"unavailable"),
			    "device-held");
	/* a number that is no such error: an iteration's, or a longer one */
	const char *other = fam("CUDA error: 21");
	assert_true(!other || strcmp(other, "memory"));
	/* real: NVIDIA/gpu-operator#227: what the driver container resolves is a version, no
	 * host name */
	const char *kv = fam("Could not resolve Linux kernel version");
	assert_true(!kv || strcmp(kv, "name-resolution"));
	/* real: vllm-project/vllm-ascend#12533 */
	assert_string_not_equal(fam("(EngineCore_DP0 pid=39058) INFO 07-21 16:16:42 "
				    "[shm_broadcast.py:705] No available shared memory broadcast block "
				    "found in 60 seconds. This typically happens when some processes "
				    "are hanging or doing some time-consuming work (e.g. compilation, "
				    "weight/kv cache quantization)."),
				"exhausted");
	/* the job's shape against its devices, said in an assertion, is its setting */
	assert_string_equal(fam("AssertionError: local_world_size (16) must be less than or equal "
				"to the number of visible devices (8)."),
			    "world-size");
	assert_null(fam("world size 16, 8 visible devices"));
	/* real: NVIDIA/TensorRT-LLM#2594 (a TP16 engine on two 8-GPU pods under mpirun) */
	assert_string_equal(fam("RuntimeError: Only 8 GPUs are available, but 16 are required."),
			    "world-size");
	/* devices counted with nothing asked of them is no shortage */
	assert_null(fam("INFO: 8 GPUs available, using 8"));
	/* a full disk; a package made for another chip */
	assert_string_equal(fam("[ERROR] TBE(116147,python):2024-12-11-15:58:23.895.658 [x.py:168]"
				"[repository_manager] msg_mgr_dump raise error[[Errno 28] No space "
				"left on device]"),
			    "disk-full");
	assert_string_equal(fam("[ERROR] the socversion Ascend910B1 of bin package does not match "
				"the current device socverison Ascend310P3."),
			    "version");
	/* real: volcano-sh/kthena#487 (a Ray worker pod whose leader address was never set) */
	assert_string_equal(fam("Error: Missing argument --ray_address"), "arguments");
	assert_string_equal(fam("train.py: error: unrecognized arguments: --nodes 2"), "arguments");
	/* real: apache/mxnet#5297 (dmlc's LOG(FATAL), a build without the distributed store) */
	assert_string_equal(fam("[08:41:20] src/kvstore/kvstore.cc:37: compile with "
				"USE_DIST_KVSTORE=1 to use dist_sync"),
			    "backend-missing");
	/* a backend the build lacks (deepspeedai/DeepSpeed#7312, nccl asked for on an NPU) */
	assert_string_equal(fam("RuntimeError: Distributed package doesn't have NCCL built in"),
			    "backend-missing");
	assert_null(fam("NCCL built in 12 s"));
	/* a driver older than the runtime (NVIDIA/nccl-tests#12) */
	assert_string_equal(fam("Cuda failure common.cu:891 'CUDA driver version is insufficient "
				"for CUDA runtime version'"),
			    "version");
	/* ranks that disagree on a collective, in Horovod's words (horovod/horovod#398) */
	assert_string_equal(fam("[1,2]<stderr>:tensorflow.python.framework.errors_impl."
				"FailedPreconditionError: Mismatched ALLREDUCE CPU/GPU device "
				"selection: One rank specified device GPU, but another rank specified "
				"device CPU."),
			    "collective-mismatch");
	assert_string_equal(fam("[1,2]<stderr>:tensorflow.python.framework.errors_impl."
				"FailedPreconditionError: the session stopped"),
			    "exception");
	/* a launcher that gave up (PoonLab/covizu#350), below what its earlier lines name */
	assert_string_equal(fam("ORTE was unable to reliably start one or more daemons."), "fatal");
	assert_string_equal(fam("bash: orted: command not found; ORTE was unable to reliably start "
				"one or more daemons."),
			    "not-installed");
	/* the loader's words for a library that is not there (eth-cscs/cscs-docs, srun on Alps) */
	assert_string_equal(fam("srun: error: plugin_load_from_file: dlopen(/usr/lib64/slurm/"
				"switch_hpe_slingshot.so): libjson-c.so.3: cannot open shared object "
				"file: No such file or directory"),
			    "library-missing");
	/* an access refused: ssh between the nodes (deepspeedai/DeepSpeed#5709) */
	assert_string_equal(fam("localhost: jiaming@localhost: Permission denied "
				"(publickey,password)."),
			    "permission");
	/* a GPU gone from the bus, in NVML's words (leptonai/gpud#604) */
	assert_string_equal(fam("failed to get remapped rows for GPU-ac896b35-5782-c478-4b2a-"
				"a661de07770f: failed to get device remapped rows: "
				"ERROR_GPU_IS_LOST"),
			    "hardware");
	/* glog's CHECK aborts the process */
	assert_string_equal(fam("Check failed: ret == LLM_SUCCESS Initialize LlmDataList failed"),
			    "fatal");
	/* words that say the process gave up rank below every family that names a kind */
	assert_string_equal(fam("Fatal error: connect to 10.0.0.2:7000 timed out"),
			    "connect-timeout");
}

static void test_none(void **state)
{
	(void)state;
	static const char *const none[] = {
		/* a socket's port, not a link's (no real line of this form yet: made up) */
		"bind to port failed: Address already in use",
		/* a level word before a colon is no exception's class */
		"Error: Trying to create tensor with negative dimension -2",
		"",
		"ERROR",
		/* a time of day and an answer are no address and no failed request */
		"ERROR at 12:30:45 in step 3",
		"error count 0, last status code: 200",
		/* advice on debugging is no setting of the job (real-logs-new batch24,
		 * vllm-project/vllm-ascend#9554) */
		"Since the operator is called asynchronously, the stacktrace may be inaccurate. If "
		"you want to get the accurate stacktrace, please set the environment variable "
		"ASCEND_LAUNCH_BLOCKING=1.",
		/* a name not in a list, no library after it (made up) */
		"Error: host node7 not in library host list",
		"Error: key abc not in lib",
		/* a socket's descriptor is no file a job names (real-logs-new batch458) */
		"Unable to open file descriptor for socket connection Unable to init the socket "
		"connection",
		/* nor advice to raise a log level (real-logs-new batch448, MindIE-LLM's FAQ) */
		"[standard_model.py:188] : [Model] >>> global rank-2 Execute type:1, "
		"Exception:Qwen25VL_VIT_graph nodes[1] infershape  fail, enable log: export "
		"ASDOPS_LOG_LEVEL=ERROR, export ASDOPS_LOG_TO_STDOUT=1",
		/* a state named as a possible reason is no error of a setting (real-logs-new
		 * batch349, a torch watchdog's flight recorder) */
		"[rank0]:[E1218 20:27:21.484955368 ProcessGroupNCCL.cpp:667] Stack trace of the "
		"failed collective not found, potentially because FlightRecorder is disabled.",
		/* a variable unset in prose, not a name in capitals, nor a lower-case key */
		"the value is not set, using the default",
		"my_var is not set here",
		/* a bound in the middle of a word is none (made up) */
		"Error: mustbe greater than 2",
		/* a runtime that says how it will start is no count against another (real-logs-new,
		 * pika's start-up note) */
		"The pika runtime will be started with only one worker thread because the",
		/* a hang foretold is none (real-logs-new batch42, vllm-project/vllm#6106) */
		"Error executing method init_device. This might cause deadlock in distributed "
		"execution.",
	};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (fam(none[i]))
			fail_msg("'%s' read as %s", none[i], fam(none[i]));
	assert_null(hlog__word_family_name(-1));
	assert_null(hlog__word_family_name(1000));
}

/* A wait said in words is a family only of the line a log ends on (a state the log never left):
 * hlog__word_family_end reads it there, hlog__word_family never, and neither reads a wait
 * that ended or an error met while waiting. */
static void test_end_only(void **state)
{
	(void)state;
	static const char *const waits[] = {
		/* real: real-logs-new batch589 (open-instruct, Ray's placement group) */
		"Waiting for placement group to be scheduled",
		/* real: real-logs-new batch369 (text-generation-inference's launcher) */
		"2024-05-01T01:19:32.778261Z  INFO shard-manager: text_generation_launcher: Waiting "
		"for shard to be ready... rank=3",
		/* real: real-logs-new batch163 (pytorch/pytorch#130739, a p2p example) */
		"Rank 1 waiting to receive from Rank 0",
		/* real: real-logs-new batch641 (xgboost_ray#36, Ray's task waiting for CPUs) */
		"2020-12-30 06:30:42,910 WARNING worker.py:1034 -- The actor or task with ID "
		"ffffffffffffffff0ab974dd03000000 cannot be scheduled right now. It requires "
		"{actor_cpus: 4.000000}, {CPU: 4.000000} for placement, however the cluster currently "
		"cannot provide the requested resources",
	};
	for (size_t i = 0; i < sizeof(waits) / sizeof(waits[0]); i++) {
		struct pspan s = {waits[i], strlen(waits[i])};
		int end = hlog__word_family_end(s);
		assert_string_equal(hlog__word_family_name(end), "waiting");
		assert_true(hlog__word_family_says(end) & WF_SAYS_WAITS);
		if (hlog__word_family(s) >= 0)
			fail_msg("'%s' read as %s in a log's middle", waits[i], fam(waits[i]));
	}
	static const char *const ended[] = {
		/* real: real-logs-new batch269 (awsome-distributed-training's DDP example) */
		"[2024-03-12 08:22:56,575] torch.distributed.elastic.agent.server.api: [INFO] Done "
		"waiting for other agents. Elapsed: 0.0005395412445068359 seconds",
		/* real: real-logs/mpi-bash-14-mvapich2-segv-multinode (MPICH's Hydra) */
		"[proxy:0:0@A-c7-025-01] main (pm/pmiserv/pmip.c:206): demux engine error waiting "
		"for event",
		/* real: real-logs-new batch257 (vLLM's count of queued requests, cut here) */
		"INFO 07-15 04:27:53 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
		"Avg generation throughput: 128.8 tokens/s, Running: 1 reqs, Waiting: 0 reqs",
		/* real: real-logs-new batch219 (OpenSSH's warning of a changed host key) */
		"Someone could be eavesdropping on you right now (man-in-the-middle attack)!",
	};
	for (size_t i = 0; i < sizeof(ended) / sizeof(ended[0]); i++) {
		int end = hlog__word_family_end((struct pspan){ended[i], strlen(ended[i])});
		if (end >= 0 && !strcmp(hlog__word_family_name(end), "waiting"))
			fail_msg("'%s' read as a wait never ended", ended[i]);
	}
}

/* Every row says a cause and a fix, its own or, where it leaves them out, those of the row of
 * its name before it: a family in several rows reads the same from each. */
static void test_texts(void **state)
{
	(void)state;
	int rows = 0;
	struct hlog_wordfam f;
	for (int r = 0; hlog__word_family_row(r, &f); r++, rows++) {
		if (!f.what || !f.what[0] || !f.fix || !f.fix[0])
			fail_msg("row %d (%s) says no cause or no fix", r, f.name);
		int first = hlog__word_family_named(f.name);
		struct hlog_wordfam g;
		assert_true(first >= 0 && hlog__word_family_row(first, &g));
		if (!strcmp(f.name, "hang") || !strcmp(f.name, "timeout"))
			assert_string_equal(f.what, g.what); /* rows that left theirs out */
	}
	assert_true(rows > 50);
	assert_false(hlog__word_family_row(-1, &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_end_only),
		cmocka_unit_test(test_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
