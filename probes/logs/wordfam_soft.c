/* The word families (see wordfam.c), second part: the software and what it was given.
 * Collectives that do not match, builds, packages and versions that do not fit, values and
 * settings refused, and what the node could not give the program once it ran (after
 * wordfam_node.c's rows, before wordfam_proc.c's). */
#include <stddef.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/wordfam.h"

const struct family hlog__fams_soft[] = {
	/* ranks that called different collectives, or the same one differently, in a library's
	 * own words: Horovod's "Mismatched ALLREDUCE CPU/GPU device selection: One rank specified
	 * device GPU, but another rank specified device CPU.", TensorFlow's "Invalid argument:
	 * Shape mismatch in the collective instance 106", the Neuron runtime's "mismatching
	 * number of cc ops, expected 3 received 6. Check if ranks 0 and 1 are using the same
	 * neff". Before "invalid", whose word such a line may carry */
	{.cat = HCAT_OP_MISMATCH,
	 .name = "collective-mismatch",
	 .what = "the ranks called different collectives, or one with different arguments",
	 .fix = "make every rank make the same collective calls in the same order with the same "
		"shapes, types and devices (the same program and data path on every rank)",
	 .any = {"mismatched", "mismatching", "mismatch between", "shape mismatch", "size mismatch",
		 /* Gloo's words under its size check: "op.preamble.length <= op.nbytes. 8 vs
		  * 4." then "Is there a distributed collective mismatch in your code?" */
		 "collective mismatch"},
	 .also = {"allreduce", "allgather", "alltoall", "broadcast", "reducescatter",
		  "reduce_scatter", "collective", "another rank", "ranks",
		  /* Accelerate: "Cannot apply desired operation due to shape mismatches. All
		   * shapes across devices must be valid." */
		  "across devices", "across ranks"}},
	/* and Gloo's size check alone, the enforce that fails when a peer sends more bytes than
	 * this rank's call expects: "[enforce fail at .../gloo/transport/tcp/pair.cc:446]
	 * op.preamble.length <= op.nbytes. 256000 vs 128000" (ranks passing tensors of
	 * different sizes to the same collective) */
	{.cat = HCAT_OP_MISMATCH,
	 .name = "collective-mismatch",
	 .any = {"preamble.length <= "}},
	/* code built for other GPUs than these: CUDA's cudaErrorInvalidDeviceFunction ("Cuda
	 * failure 'invalid device function'"), cudaErrorNoKernelImageForDevice ("no kernel image
	 * is available for execution on the device") and cudaErrorSymbolNotFound: the binary
	 * (NCCL, PyTorch) lacks this GPU's architecture. Before "invalid", whose words it shares */
	{.cat = HCAT_VERSION,
	 .name = "gpu-arch",
	 .what = "the program was not built for this GPU's architecture",
	 .fix = "install a build (NCCL, PyTorch, the extension) compiled for this GPU's compute "
		"capability (nvidia-smi --query-gpu=compute_cap), or build it with that "
		"architecture (TORCH_CUDA_ARCH_LIST, NVCC_GENCODE)",
	 .any = {"invalid device function", "no kernel image is available",
		 /* cudaErrorSymbolNotFound, a kernel the binary lacks for this GPU: NCCL 2.14
		  * on an RTX 5090 (sm_120), "NCCL WARN Cuda failure 'named symbol not found'" */
		 "named symbol not found",
		 /* HIP's: "hipErrorNoBinaryForGpu: Unable to find code object for all current
		  * devices!" (a code object built for gfx90a:xnack+ on a GPU run xnack-) */
		 "NoBinaryForGpu", "unable to find code object"}},
	/* a job step asking for more than its allocation holds: Slurm's "srun: error: Unable to
	 * create step for job 551: More processors requested than permitted" */
	{.cat = HCAT_CONFIG,
	 .name = "allocation",
	 .what = "the job step asks for more than the job's allocation holds",
	 .fix = "ask the step for no more tasks, CPUs, GPUs or nodes than the job was given (srun "
		"-n/-c/--gpus within the sbatch or salloc request), or request a larger allocation",
	 .any = {"than permitted", "than allowed", "than allocated"},
	 .also = {"request", "processors", "nodes", "tasks", "cpus", "gpus"}},
	/* a node the job names that its allocation does not hold: PRRTE under LSF, "The specified
	 * LSF affinity file contained a node (server1.example.com) that is not in your
	 * allocation." (LSF names hosts fully qualified, the file did not); Open MPI's "Hostfile
	 * ... contains at least one node not present in the allocation" */
	{.cat = HCAT_CONFIG,
	 .name = "allocation",
	 .what = "the job names a node its allocation does not hold",
	 .fix = "name only the hosts the scheduler gave the job, spelled as it spells them (a short "
		"name is no match for a fully qualified one): build the hostfile, rankfile or "
		"affinity file from the allocation (scontrol show hostnames, $LSB_HOSTS, "
		"$PBS_NODEFILE) instead of writing it by hand",
	 .any = {"not in your allocation", "not in the allocation", "not in allocation",
		 "not present in the allocation", "not part of the allocation",
		 "not part of your allocation", "outside the allocation", "outside your allocation"}},
	/* a message over the size its channel is set to carry: gRPC's "StatusCode.
	 * RESOURCE_EXHAUSTED details = \"Sent message larger than max (544715979 vs.
	 * 536870912)\"" (Flower sending a model's weights in one message) */
	{.cat = HCAT_CONFIG,
	 .name = "message-size",
	 .what = "a message was larger than the most its channel is set to carry",
	 .fix = "raise the channel's limit on both ends to more than the size the line names "
		"(gRPC's grpc.max_send_message_length and grpc.max_receive_message_length, or the "
		"framework's setting that sets them), or send less in one message",
	 .any = {"larger than max", "larger than the max", "larger than maximum",
		 "exceeds the maximum message size", "exceeds max message size"}},
	/* a check of the job's shape that failed: its ranks against its devices or nodes
	 * (Megatron-DeepSpeed's "AssertionError: expected local-rank to be the same as rank %
	 * device-count.", vLLM's "local_world_size (16) must be less than or equal to the number
	 * of visible devices (8).", TensorRT-LLM's "Only 8 GPUs are available, but 16 are
	 * required.") */
	{.cat = HCAT_CONFIG,
	 .name = "world-size",
	 .what = "the job's ranks do not fit its devices or nodes",
	 .fix = "make the ranks started on each node (nproc_per_node, the local world size, "
		"the tensor and pipeline sizes) match the devices visible there, and the world "
		"size the nodes times the ranks per node",
	 .any = {"world_size", "world size", "worldsize", "local_rank", "local-rank",
		 "device-count", "device count", "visible devices", "nproc_per_node",
		 "gpus are available", "npus are available", "devices are available",
		 "gpus available", "npus available", "devices available",
		 /* and the devices a process found against the one it needs: HPL-MxP started
		  * without a device per rank, "ERROR 1 (0->node1): 4 devices detected but HPL MxP
		  * needs exactly 1 device per process" */
		 "devices detected", "gpus detected", "npus detected"},
	 .also = {"must be", "expected", "should be", "same as", "less than", "greater than",
		  "equal to", "required", "requested", "needs exactly", "need exactly",
		  /* two sizes the line says differ: TensorRT-LLM's "AssertionError: Engine world
		   * size (1) != Runtime world size (8)" (an engine built for another launch) */
		  "!="}},
	/* a program that needs more members than the job gave it: GPCNeT's "ERROR: this
	 * application must be run on at least 2 nodes" (started on one); not a wait for them */
	{.cat = HCAT_CONFIG,
	 .name = "world-size",
	 .fix = "start the job on as many nodes, processes or devices as the line asks for (the "
		"launcher's node and task counts, its host list), or a program meant for that size",
	 .any = {"run on at least", "run with at least", "requires at least", "require at least",
		 "needs at least", "need at least",
		 /* and a count the job's own files give against the one it was started with:
		  * OpenFOAM's "\"system/decomposeParDict\" specifies 16 processors but job was
		  * started with 4 processors." */
		 "was started with", "were started with",
		 /* and a step that asks for more than the job holds: Slurm's "srun: error: Only
		  * allocated 4 nodes asked for 5" */
		 "only allocated"},
	 .also = {"node", "process", "rank", "gpu", "npu", "device", "host", "task"},
	 .not = {"waiting", "wait for"}},
	/* the rank table against the node it runs on: "ranktable config devId[1], but local
	 * devId[3]", "... in the rank table does not match ..." */
	{.cat = HCAT_CONFIG,
	 .name = "ranktable",
	 .what = "the rank table does not match the node",
	 .fix = "correct the rank table's entry for this node (its device ids are the physical "
		"ids, its device_ip the NPU NIC's address, as hccn_tool and npu-smi show them), or "
		"generate it again",
	 .any = {"ranktable", "rank table", "rank_table"},
	 .also = {"but local", "inconsistent", "mismatch", "not match", "differ", "but the"}},
	/* the IOMMU refusing a device's DMA (a GPU's peer-to-peer writes, a NIC's to GPU memory):
	 * "DMAR: [DMA Write] Request device [02:00.0] fault addr cd139000 [fault reason 05] PTE
	 * Write access is not set", "AMD-Vi: Event logged [IO_PAGE_FAULT ...]" */
	{.cat = HCAT_CONFIG,
	 .name = "iommu",
	 .what = "the IOMMU blocked a device's DMA (peer-to-peer between GPUs, or a NIC's to GPU "
		 "memory)",
	 .fix = "put the IOMMU in pass-through mode for the devices (iommu=pt on the kernel "
		"command line, with intel_iommu=on or amd_iommu=on) or turn it off, and check that "
		"PCIe ACS does not redirect peer-to-peer traffic; reboot, then run again",
	 .any = {"dmar", "amd-vi", "iommu"},
	 .also = {"fault reason", "io_page_fault", "page fault", "fault addr"}},
	/* a framework build without the operation the job asks for on its device: TensorFlow's
	 * "No OpKernel was registered to support Op 'NcclAllReduce' used by {{node
	 * NcclAllReduce}}" (a build without NCCL, on Windows) */
	{.cat = HCAT_CONFIG,
	 .name = "no-kernel",
	 .what = "the installed build of the framework has no implementation of the operation for "
		 "this device",
	 .fix = "install a build of the framework that has the operation for the device (a GPU "
		"build with NCCL for NCCL collectives), or choose a strategy or backend the build "
		"has",
	 .any = {"no opkernel was registered", "no registered kernels"}},
	/* Python's words for a package the code imports that is not installed where it runs:
	 * "No module named 'numpy'" (one name: the package itself is missing) */
	{.cat = HCAT_CONFIG,
	 .name = "missing-package",
	 .what = "a package the program imports is not installed",
	 .fix = "install the package the line names into the environment the job runs in (the "
		"same Python, virtual environment or container image on every node), or point the "
		"job at the environment that has it",
	 .form = hlog__wf_module_missing},
	/* and in the importing code's own words, raised as the import's failure: SGLang's
	 * "ImportError: DeepEP is not installed. Please install DeepEP package from ..." (a
	 * warning that goes on without it names no failure and is no error line) */
	{.cat = HCAT_CONFIG,
	 .name = "missing-package",
	 .any = {"is not installed", "are not installed"},
	 .also = {"ImportError", "ModuleNotFoundError", "please install"}},
	/* and for a part of one that is installed, which that release lacks ("No module named
	 * 'tbe.common.repository_manager...'", a CANN whose Python parts do not fit the
	 * interpreter; "No module named 'atb_llm.models.qwen2_moe...'", a release without the
	 * model) */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .what = "software versions do not fit together",
	 .fix = "install the release of the package the line names that the calling code was "
		"made for (its requirements name it), the same on every node",
	 .form = hlog__wf_module_part_missing},
	/* the dynamic linker's own words: a library built against another version of one it
	 * loads ("undefined symbol: _ZN3Mki...", "symbol lookup error", "version `GLIBCXX_3.4.30'
	 * not found (required by ...)") */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the same, compatible versions of the driver, runtime and libraries on "
		"every node; the library the line names was built against another version of one "
		"it loads",
	 .any = {"undefined symbol", "symbol lookup error", "not found (required by",
		 /* a kernel module built against another kernel or driver stack: "nv_peer_mem:
		  * disagrees about version of symbol ib_register_peer_memory_client", "Unknown
		  * symbol ib_register_peer_memory_client (err -22)" */
		 "disagrees about version of symbol", "unknown symbol",
		 /* CUDA's words for code built by a toolkit newer than the driver runs:
		  * "the provided PTX was compiled with an unsupported toolchain." */
		 "unsupported toolchain"}},
	/* pip's resolver on packages installed that do not fit together: "torchvision 0.26.0
	 * requires torch==2.11.0, but you have torch 2.12.0.dev20260411+rocm7.1 which is
	 * incompatible." (the sentence on one line or wrapped after its comma) */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the releases the line's requirement names (pip check lists every such "
		"conflict), or a release of the requiring package made for the one installed, the "
		"same on every node",
	 .any = {"but you have"},
	 .also = {"which is incompatible"}},
	/* and a defect the line places in a release of a package (wordfam_forms.c): NeMo RL's
	 * check, "AssertionError: FAIL: 2047/2048 logprobs are NaN on iteration 2 (prefix caching
	 * is broken in vLLM 0.14.0)" */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install a release of the package the line names without the defect (the one "
		"before it, or the one that fixes it), the same on every node",
	 .form = hlog__wf_broken_in_release},
	/* and a program's own words for a function its library lacks (wordfam_forms.c) */
	{.cat = HCAT_VERSION, .name = "version", .form = hlog__wf_symbol_not_in_lib},
	/* Python's words for a call that does not fit the function it calls, across packages: a
	 * caller written for another release of the callee. DeepSpeed's elastic agent under a
	 * newer torch, "TypeError: DSElasticAgent._set_master_addr_port() takes 3 positional
	 * arguments but 4 were given" */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the releases of the two packages the traceback passes between that are "
		"made for each other (the caller's requirements name the callee's versions), the "
		"same on every node",
	 .any = {"positional arguments but", "positional argument but",
		 "unexpected keyword argument"},
	 .also = {"TypeError"}},
	/* Python's words for a module the caller expected another release of: "AttributeError:
	 * module 'torch_npu' has no attribute 'npu_rope'" (vLLM-Ascend 0.7.1 on a torch_npu
	 * without the operator). An object's missing attribute ("'NoneType' object has no
	 * attribute") is a bug, not this */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the release of the module the line names that the calling package was "
		"made for (its requirements name it), the same on every node",
	 .any = {"has no attribute"},
	 .also = {"module '"}},
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the releases of the package whose class the line names and of the "
		"package calling it that are made for each other (the caller's requirements name "
		"the callee's versions), the same on every node",
	 .form = hlog__wf_package_object_attr},
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the same, compatible versions of the driver, runtime and libraries on "
		"every "
		"node",
	 /* a package built for another chip: "the socversion Ascend910B1 of bin package does
	  * not match the current device socverison Ascend310P3" (CANN's SoC version) */
	 .any = {"version", "socversion", "soc_version", "package"},
	 /* "CUDA driver version is insufficient for CUDA runtime version" */
	 .also = {"mismatch", "incompatible", "not match", "don't match", "doesn't match",
		  "upgrade", "downgrade",
		  "not supported", "unsupported",
		  "insufficient", "too old",
		  /* nvidia-container-cli's "requirement error: unsatisfied condition: cuda>=11.0,
		   * please update your driver to a newer version" */
		  "newer version",
		  /* one version wanted, another there: Horovod's "HorovodVersionMismatchError:
		   * Framework tensorflow installed with version 2.3.0 but found version 2.4.1."
		   * (its class's hump too) */
		  "but found", "Mismatch",
		  /* pip's resolver: "Cannot install A and B because these package versions have
		   * conflicting dependencies." */
		  "conflicting dependencies"}},
	/* a requirement on a version that the node does not meet, a bound without the word
	 * "version": nvidia-container-cli's "requirement error: unsatisfied condition: cuda>=10.0"
	 * (the image's CUDA needs a newer driver than the host's) */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install the driver or runtime release the requirement on the line asks for, or "
		"use a build (a container image, a package) made for the release the node has",
	 .any = {"unsatisfied condition", "requirement error", "requirement not met",
		 "requirements not met"},
	 .also = {">=", "<=", "version"}},
	/* a build that does not fit what the node has, said without the word "version": "NVIDIA
	 * H800 with CUDA capability sm_90 is not compatible with the current PyTorch
	 * installation." (a framework built for older GPUs) */
	{.cat = HCAT_VERSION,
	 .name = "version",
	 .fix = "install a build made for this hardware and driver (the framework's release notes "
		"name the architectures and drivers each build supports), the same on every node",
	 .any = {"not compatible", "incompatible"},
	 .also = {"installation", "capability", "driver", "build"}},
	/* two values the job was given that must agree and do not: Megatron's "AssertionError:
	 * AnnealingLR: class input value 1e-06 and checkpointvalue 1e-05 for minimum learning
	 * rate do not match" (the launch's settings against the checkpoint it resumes). The
	 * collectives', versions' and shapes' mismatches have rows of their own before it. */
	{.cat = HCAT_CONFIG,
	 .name = "values-differ",
	 .what = "two values the job was given must agree and do not",
	 .fix = "read the two values the line names and where each comes from (the launch's "
		"arguments, a config file, the checkpoint being resumed) and make them agree",
	 .any = {"do not match", "does not match", "don't match", "doesn't match"},
	 .also = {"value", "values", "setting", "checkpoint", "config", "argument", "parameter"}},
	/* the same said of two parts of the cluster that must agree: HP-MPI's "MPI_Init: The IB
	 * ports choosen for IB connection setup do not have the same subnet_prefix." */
	{.cat = HCAT_CONFIG,
	 .name = "values-differ",
	 .any = {"do not have the same", "does not have the same", "don't have the same"}},
	/* a library call refused one of its arguments, in the library's own words for it
	 * (EINVAL's text, CUDA_ERROR_INVALID_VALUE, ncclInvalidArgument, flagcxInvalidArgument,
	 * XCCL's "[INVALID PARAMETER]"): the program passed it, not the job's settings, so a bug
	 * or parts that do not fit together; before "invalid", whose words these share */
	{.cat = HCAT_UNRESOLVED,
	 .name = "invalid-argument",
	 .what = "a library call refused one of its arguments",
	 .fix = "read which call refused it (the line, the error stack or traceback above it) and "
		"the versions of the libraries on both sides of that call (driver, runtime, the "
		"communication library and its plugin); a known bug of one of them, or two that "
		"do not fit, is the usual cause",
	 .any = {"invalid argument", "invalid value for an argument", "invalidargument",
		 "invalid_argument", "invalid parameter", "_invalid_value"}},
	/* a size the job chose that does not divide by another it chose: MLC-LLM's
	 * "AssertionError: num_kv_heads(8) must be divisible by tensor_parallel_shards", vLLM's
	 * "Weight input_size_per_partition = 192 is not divisible by weight quantization block_k
	 * = 128.", MindSpore's "shape 4 can not be divisible by strategy value 8"; einops splitting
	 * a tensor over the sequence-parallel ranks, "Shape mismatch, can't divide axis of length
	 * 20 in chunks of 8" (not a division by zero, a bug) */
	{.cat = HCAT_CONFIG,
	 .name = "divisible",
	 .what = "a size the job chose does not divide evenly by another it chose",
	 .fix = "choose sizes that divide: the model's heads, layers, hidden or shard sizes by the "
		"tensor, pipeline or expert parallel size (or the strategy's split), and the number "
		"of devices by their product; change the parallel sizes or the model's own to fit",
	 .any = {"divisible by", "be a multiple of", "not a multiple of", "can't divide",
		 "cannot divide", "can not divide"},
	 .not = {"zero"}},
	/* a value the program refuses: "Invalid DP number per node: 0", "invalid device
	 * ordinal", "rank size 16 is invalid", "The size of npuDeviceIds does not equal to
	 * worldSize" (not a bad pointer or address, which is a bug) */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given is refused",
	 .fix = "correct the value the line names (the job's arguments, its rank table or "
		"environment), the same on every node, then run again",
	 .any = {"invalid", "not a valid", "illegal", "not equal", "not allow",
		 /* a requirement on two values, unmet: Kripke's "Assertion Failed: Number of MPI
		  * ranks must match decomposition, expected 12288 ranks" */
		 "must match",
		 /* in Chinese: "非法" (illegal), "校验失败" (failed its check): MindIE's
		  * "BackendConfig配置参数校验失败" */
		 "非法", "校验失败"},
	 .also = {"number", "size", "count", "rank", "device", "parameter", "option",
		  "value", "config", "setting", "ordinal",
		  /* Python's argparse: "error: argument --kv-cache-dtype: invalid choice: 'int8'" */
		  "choice",
		  /* Slurm refusing a request: "sbatch: error: Invalid generic resource (gres)
		   * specification", "sbatch: error: Batch job submission failed: Invalid
		   * account or account/partition combination specified" */
		  "specification", "account", "partition",
		  /* in Chinese: "参数" (parameter), "配置" (setting) */
		  "参数", "配置",
		  /* a path the job was given: CANN's "EK0001: Path [...] for [profilerResultPath]
		   * is invalid or does not exist." */
		  "path", "directory",
		  /* a program's input that it refuses: HPL's ">>> Illegal input in file HPL.dat.
		   * Exiting ... <<<" (a process grid larger than the processes started) */
		  "input",
		  /* a scheduler's job named by an id it does not know: Slurm's "srun: error:
		   * Unable to confirm allocation for job 7241252: Invalid job id specified" (a
		   * shell left from an allocation that has ended) */
		  "job id"},
	 .not = {"memory", "pointer", "address", "access", "instruction", "handle",
		 /* HCCL's one-sided memory: "The parameter memHandle[0xfffd7cc769e0] is invalid." */
		 "memhandle", "mem_handle",
		 /* a runtime's own object, not a value given: CUDA_ERROR_INVALID_CONTEXT in UCX's
		  * "cuCtxGetDevice(&this_device) is failed. ret:invalid device context" */
		 "invalid device context", "invalid context",
		 /* a value found at a place in memory, as a check of data reads it: nvbandwidth's
		  * "Invalid value when checking the pattern at 0x70a640000000" */
		 " at 0x"}},
	/* a check of two values the job was given, failed: HPL-MxP's "ERROR 2 (22->a0003):
	 * Number of processes (32) != nprow (8) * npcol (8)"; not a program's own assertion
	 * ("Assertion `((count) != 0)' failed", "Check nnopExecutor != nullptr failed", ggml's
	 * "GGML_ASSERT: .../ggml-backend.c:226: offset + size <= ggml_nbytes(tensor)"), a bug */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given does not fit another",
	 .fix = "correct the values the line compares (the job's arguments, its process count "
		"and grid, its rank table or environment), the same on every node, then run again",
	 .any = {" != "},
	 .also = {"number", "size", "count", "rank", "device", "parameter", "option", "value",
		  "processes", "nodes"},
	 .not = {"assert", "_assert", "check", "nullptr", "null", "memory", "pointer", "address"}},
	/* the same told as an order between two named quantities: nekRS's "Error in setup: MPI
	 * tasks > number of elements!" */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .fix = "correct the values the line compares (the job's arguments, its process count "
		"and its problem's size, its rank table or environment), the same on every node, "
		"then run again",
	 .form = hlog__wf_word_compare,
	 .also = {"number", "size", "count", "rank", "device", "parameter", "option", "value",
		  "processes", "nodes", "tasks"},
	 .not = {"assert", "_assert", "check", "nullptr", "null", "memory", "pointer", "address"}},
	/* a bound on a value stated in words by the check that refused it: DALI's "Assert on
	 * "num_shards_ > shard_id_" failed: num_shards needs to be greater than shard_id",
	 * DeepSpeed's "Micro batch size per gpu: 0 has to be greater than 0" (an assertion, but
	 * one that says what the value must be: the job's value, not the program, is wrong) */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given is outside the bound the program states",
	 .fix = "give the value the line names within the bound it states (the job's arguments, "
		"its process or shard counts, its configuration), the same on every node, then run "
		"again",
	 .form = hlog__wf_bound_stated},
	/* a value quoted whole and called invalid, with no noun to say what it was for: numactl
	 * refusing the CPUs it was given, "<0-7,64-71> is invalid" */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given is refused",
	 .fix = "correct the value the line names (the job's arguments, its rank table or "
		"environment), the same on every node, then run again",
	 .form = hlog__wf_quoted_invalid,
	 .not = {"memory", "pointer", "address", "access", "instruction", "handle"}},
	/* settings that exclude each other, or a request the hosts cannot meet as asked: Open
	 * MPI's help text "Your job has requested more processes than the ppr for this topology
	 * can support: ... Please revise the conflict and try again.", Lmod's "cannot be loaded
	 * due to a conflict" (not packages whose versions conflict, which the version rows read,
	 * nor a hardware unit's own "conflict") */
	{.cat = HCAT_CONFIG,
	 .name = "conflict",
	 .what = "settings the job was given conflict with each other",
	 .fix = "read the settings the lines around it name (process counts per node and the "
		"node's cores or devices, modules loaded together, options given twice) and keep "
		"one consistent set on every node, then run again",
	 .any = {"conflict",
		 /* said of two settings in words: vLLM on Neuron, "RuntimeError:
		  * NEURON_RT_VISIBLE_CORES cannot be used with multi-processing execution on
		  * vLLM." */
		 "cannot be used with", "can not be used with", "can't be used with",
		 "cannot be combined with", "cannot be used together", "mutually exclusive"},
	 .not = {"version", "dependenc", "memory", "address", "aicore", "bank"}},
	/* a plugin the program looks for and does not find: Slurm built without the MPI plugin
	 * the job asks for, "srun: error: Couldn't find the specified plugin name for mpi/pmix
	 * looking at all files", "srun: error: cannot find mpi plugin for mpi/pmix" (after
	 * the version rows: a plugin that does not load because it needs another version of a
	 * library, "version `FABRIC_1.7' not found (required by .../libnccl-net.so)", is theirs) */
	{.cat = HCAT_CONFIG,
	 .name = "plugin-missing",
	 .what = "a plugin the job asks for is not installed where it runs",
	 .fix = "install the plugin the line names on every node (a scheduler's MPI plugin: srun "
		"--mpi=list shows those it has), or ask for one that is installed",
	 .any = {"plugin"},
	 .also = {"couldn't find", "could not find", "cannot find", "can't find", "unable to find",
		  "not found", "no such plugin"}},
	/* what the software says it cannot do with the setup it was given: xLLM's LCCL "do not
	 * support pcie > 2 rank! rankSize_ = 4", "... is not supported on this platform" */
	{.cat = HCAT_CONFIG,
	 .name = "unsupported",
	 .what = "the job asks for something the software does not support",
	 .fix = "change the setup the line names to one the software supports (the number of "
		"ranks, the topology or links between devices, the mode or option), or use a "
		"release that supports it",
	 .any = {"not support", "not supported", "unsupported", "does not support",
		 "do not support", "is not available",
		 /* with a word of time between: DeepSpeed's "Automatic adjustment of ZeRO's
		  * optimizer state partitioning with a new world size is not currently
		  * supported." (a checkpoint of another world size) */
		 "not currently supported", "not yet supported",
		 /* a setup the software says it does not run on: Unsloth's "RuntimeError: Unsloth
		  * currently does not work on multi GPU setups - sadly we are a 2 brother team
		  * ..." */
		 "does not work on", "do not work on",
		 /* and the setups it is limited to: vLLM-Ascend's "NotImplementedError: Torchair
		  * graph mode only works with following model types:['deepseek', 'pangu']." */
		 "only works with", "only work with", "only works on", "only supports",
		 "is only supported", "are only supported",
		 /* an operation without a kernel for the data type it was given: aclnn's
		  * "Tensor scale not implemented for DT_FLOAT16, should be in dtype support list
		  * [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]." */
		 "not implemented for"},
	 /* not a warning that a setup may fail, which the next line then does or does not:
	  * Transformers' "You are using a model of type llama to instantiate a model of type .
	  * This is not supported for all configurations of models and can yield errors." */
	 .sure = 1},
	/* SIGBUS: a process touched a page of shared memory whose backing store had run out (a
	 * container's /dev/shm of 64 MB under NCCL: "Caught signal 7 (Bus error: nonexistent
	 * physical address)" in ncclGroupEnd); not the PCIe AER's "PCIe Bus Error", a device's */
	{.cat = HCAT_RESOURCE,
	 .name = "bus-error",
	 .what = "a process was killed by SIGBUS: it touched shared memory whose backing store had "
		 "run out",
	 .fix = "give the container more shared memory (docker --shm-size or --ipc=host; on "
		"Kubernetes an emptyDir of medium Memory on /dev/shm) and check df /dev/shm on the "
		"node; if /dev/shm has room, read the kernel log for memory faults",
	 .any = {"sigbus", "bus error", "signal 7"},
	 /* nor an AI Core's memory engine reporting its bus's error type, which msaicerr reads
	  * out: "mte_err_type bit[26:24]=110  meaning:write bus error" (the device's) */
	 .not = {"pcie", "mte_err_type"}},
	/* a resource the program needs to start, found too small for it: HPE Slingshot's
	 * "cxi_write_bw: Insufficient 2M huge pages. Need 8 to run", "insufficient resources"
	 * (a permission that is too narrow is the permission row's; after the bus error, whose
	 * line may offer "insufficient shared memory" as its cause) */
	{.cat = HCAT_RESOURCE,
	 .name = "insufficient",
	 .what = "a resource the job needs is too small for it",
	 .fix = "give the node or the job more of what the line names (huge pages: vm.nr_hugepages "
		"or the boot's hugepages=; memory, ports or handles: the limits of the job, its "
		"container or the node), or ask for less, then run again",
	 .any = {"insufficient"},
	 /* nor a buffer an API was handed too small: NVML's NVML_ERROR_INSUFFICIENT_SIZE under
	  * Slurm's GPU accounting, "slurmstepd: error: NVML: Failed to get Compute running
	  * procs(7): Insufficient Size" */
	 .not = {"permission", "privilege", "rights", "access", "insufficient size"}},
	/* a process ended by SIGKILL, which it cannot catch: most often the kernel's OOM killer
	 * or the scheduler's memory limit (MVAPICH's "MPI process (rank: 16, pid: 107546)
	 * terminated with signal 9", torch elastic's "exitcode: -9", a container's exit code 137).
	 * Not a launcher's own kill of what is left once the job failed ("forcefully exiting
	 * via Signals.SIGKILL") */
	{.cat = HCAT_RESOURCE,
	 .name = "killed",
	 .what = "a process was killed with SIGKILL, most often by the kernel's OOM killer or a "
		 "memory limit",
	 .fix = "read the kernel log of the node at that time (dmesg -T | grep -i -e oom -e "
		"killed) and the scheduler's record of the job (sacct -o MaxRSS,State); give the "
		"job more memory or use less (batch size, workers per node, data loader workers)",
	 .any = {"signal 9", "sigkill", "exitcode: -9", "exit code -9", "exit code: -9",
		 "exit code 137", "exitcode: 137", "return code 137", "oomkilled",
		 /* a Python launcher's child whose returncode is -9 (killed by signal 9):
		  * DeepSpeed's "... exits with return code = -9" */
		 "return code = -9", "returncode = -9", "returncode=-9"},
	 .not = {"forcefully", "sending process", "closing signal", "via signals"}},
	/* a launcher stopped from outside, the job with it: torch elastic's agent, "Received 1
	 * death signal, shutting down workers" (SIGHUP when the terminal that started it closed;
	 * SIGTERM from a scheduler's cancel, time limit or preemption). Its peers' lost
	 * connections and closed rendezvous follow from it */
	{.cat = HCAT_CONFIG,
	 .name = "stopped-from-outside",
	 .what = "the job's launcher was stopped by a signal from outside the job",
	 .fix = "find who sent it: a terminal or ssh session that closed (start the job detached: "
		"sbatch, nohup, tmux), or the scheduler (sacct -j JOB -o State,ExitCode,Timelimit: a "
		"cancel, the time limit, a preemption); then run again where nothing stops it",
	 .any = {"death signal"}},
	/* a file the job names that could not be opened, no reason given: HPX under Torque,
	 * "Could not open nodefile: '/var/spool/torque/aux//20775.smic3'" (the scheduler's node
	 * file on a disk that only the first node has). A device node's or a library's refusal
	 * has rows of its own; any other cause the line names outranks this one. A descriptor
	 * for a socket is no file: perftest's "Unable to open file descriptor for socket
	 * connection Unable to init the socket connection" after its connect failed */
	{.cat = HCAT_CONFIG,
	 .name = "file-unopened",
	 .what = "a file the job names could not be opened",
	 .fix = "check the file the line names on the node that printed it: that it is there (a "
		"local disk or a mount the other nodes do not share, a file the scheduler writes on "
		"one node only) and that the job's user may read it; give every node the same files "
		"at the same path",
	 .any = {"could not open", "couldn't open", "cannot open", "can't open", "unable to open",
		 "failed to open"},
	 .also = {"file", "nodefile", "hostfile", "rankfile", "machinefile", "'/", "\"/", ": /"},
	 .not = {"/dev/", "shared object", "device", "file descriptor"}},
};
const size_t hlog__nfams_soft = sizeof(hlog__fams_soft) / sizeof(hlog__fams_soft[0]);
