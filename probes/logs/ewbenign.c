/* The forms in which error words say that nothing failed (errwords.c asks hlog__benign_at
 * of each error word it finds): a table of rows, each with the real form it stands for and,
 * where the words alone are not enough, the test that it holds there (ewholds.c). */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "probes/logs/logtext.h"
#include "probes/logs/logline.h"
#include "probes/logs/ewholds.h"

/* Forms that carry an error word and say that nothing failed. whole: 1 when the form vouches
 * for the whole line (a retry announced, a probe for an optional library), 2 for the rest of
 * its sentence (a condition's), 0 only for the words it spans; 3 as 1, for a form that ends a
 * word begun before it (a class name's tail: "SyntaxWarning:"). A "%d" matches a number. */

static const struct {
	const char *form;
	int whole;
	/* NULL, or: 0 when the form at m[at..at+len) does not vouch for this line after all */
	int (*holds)(struct pspan m, size_t at, size_t len);
} benign[] = {
	/* CANN's advice text: "Check the rank service processes with other errors or no errors" */
	{"no errors", 0, NULL},
	/* a counter of errors at zero, as ifconfig prints it: "RX errors 0  dropped 0  overruns 0" */
	{"errors 0", 0, NULL},
	/* a count of failures, labelled, at zero: vLLM's benchmark summary "Failed requests:
	 * 0"; a register of the AI core's dump "vector cube ecc 1bit error: 0," (the dump's
	 * other words still read). Not "0 failed": "device 0 failed on command" names a device */
	{"failed", 0, hlog__ew_counts_zero},
	{"error", 0, hlog__ew_counts_zero},
	/* and in a test suite's tally, counts after their labels: avocado's "RESULTS    : PASS 6
	 * | ERROR 0 | FAIL 0 | SKIP 0 | WARN 0 | INTERRUPT 0 | CANCEL 0" */
	{"fail", 0, hlog__ew_counts_zero},
	/* and one count per device, all at zero: gpu-burn's "errors: 0 - 0 - 0 - 0 - 0 - 0 - 0
	 * - 0   temps: 38 C - ..." */
	{"errors", 0, hlog__ew_counts_zero},
	/* a table's heading, the word a column's name: NCCL RAS's "Group     Comms     Nodes
	 * Ranks     Ranks     Ranks    Status  Errors" */
	{"errors", 0, hlog__ew_column_heading},
	/* and a section's title of a few words: dcgmi's "| NVLINK Error Counts |" over its links'
	 * counters, nvidia-smi -q's "ECC Errors" over its own */
	{"error", 0, hlog__ew_column_heading},
	/* mkdir's answer for a directory already there: "mkdir: cannot create directory
	 * 'logs': File exists" (a job script run again; what it wanted is in place) */
	{"cannot", 1, hlog__ew_dir_exists},
	/* and a benchmark's share of invalid answers: SGLang's "Invalid: 0.000" */
	{"invalid", 0, hlog__ew_counts_zero},
	/* and a tally's label after its count at zero, among other counts: kubectl's "Pods
	 * Statuses:    0 Active / 3 Succeeded / 0 Failed" */
	{"failed", 0, hlog__ew_zero_tally},
	/* and a count before its noun, at zero: a preflight audit's summary "[FAIL]  0/52
	 * failures" (the whole line: its tag is the check's name) */
	{"failures", 1, hlog__ew_zero_before},
	/* and a count at zero that opens the line's one sentence: HPL's summary "0 tests skipped
	 * because of illegal input values.", "0 tests completed and failed residual checks," */
	{"0 ", 1, hlog__ew_zero_subject},
	/* an error measured, a real number its value: OpenFOAM's "time step continuity errors :
	 * sum local = 0.000341587, global = 4.9514e-06" (a solver's residual, not a failure) */
	{"errors", 0, hlog__ew_real_value},
	/* and the heading of a data set's error measured, its numbers on the next line: PyTorch's
	 * quick start tutorial, "Test Error: " over " Accuracy: 4.1%, Avg loss: 2.166388" */
	{"error", 1, hlog__ew_split_heading},
	/* and a metric named for the error it measures: XGBoost's "[0]\ttrain-error:0.014433"
	 * (the training set's error rate after round 0) */
	{"error", 0, hlog__ew_real_value},
	/* and a top-k error rate, the k after '@': HRNet's "Test: Time 30.452  Loss 1.7528
	 * Error@1 63.143  Error@5 14.571  Accuracy@1 36.857" */
	{"Error@%d", 0, NULL},
	/* a setting's name with its value, as a launcher or a config dump prints it: "-
	 * timeout=datetime.timedelta(seconds=3600)", "timeout=1800" (a wait that ran out says
	 * "timed out" or "timeout" without '=' after it) */
	{"timeout=", 0, NULL},
	/* and with blanks around the '=': TensorFlow's "Waiting for the cluster, timeout = inf" */
	{"timeout", 0, hlog__ew_assigned},
	/* and the same said in words, a timeout set to a span of time: torch's "Synchronizing
	 * and adjusting timeout for all ProcessGroups to 0:01:40", "Setting the NCCL timeout to
	 * 1800 seconds" */
	{"timeout", 0, hlog__ew_set_to_span},
	/* or its value right after it, a setting compared with another: torch_npu's "Warning: The
	 * watchdog timeout 90000ms(which is set by init_process_group) is less than or equal to
	 * HCCL execution timeout 1836000ms!" (not "timeout 30s exceeded") */
	{"timeout", 0, hlog__ew_span_after},
	/* a field of a status table whose value says there is none: npu-smi's "Error Code
	 * : NA", "Error Information : NA" */
	{"error", 0, hlog__ew_none_value},
	/* and a node's flag at false: kubectl describe node's "Unschedulable:      false" */
	{"unschedulable", 0, hlog__ew_none_value},
	{"failure", 0, hlog__ew_none_value},
	/* and a timeout's field of a status table at none: nvidia-smi -q's fabric health, "Access
	 * Timeout Recovery : N/A" */
	{"timeout", 0, hlog__ew_none_value},
	/* HPC-X's hcoll without multicast: its vmc (multicast) communicator could not start and
	 * hcoll goes on over point-to-point, "[LOG_CAT_MCAST] MCAST rank=0: Error in
	 * initializing vmc communicator", "[LOG_CAT_P2P] Failed to create MCAST comm" (Azure
	 * GPU nodes whose fabric gives no multicast group; the runs finish) */
	{"Error in initializing vmc communicator", 1, NULL},
	{"Failed to create MCAST comm", 1, NULL},
	/* the source line of a Python warning, the warn call itself: "      warn(\"Couldn't
	 * find ffmpeg or avconv - defaulting to ffmpeg, but may not work\", RuntimeWarning)" */
	{"warn(", 1, hlog__ew_warn_call},
	/* a setting's value in a dump of settings, what the program does on bad input: verl's
	 * "'truncation': 'error'", XGBoost4J-Spark's "handle_invalid -> error" */
	{"error", 0, hlog__ew_quoted_value},
	/* a level of logging as a setting's value: oneCCL's "|CCL_WARN| value of CCL_LOG_LEVEL
	 * changed to be error (default:warn)" */
	{"error", 0, hlog__ew_level_value},
	/* a step that failed and the fallback taken, said in a clause of its own: TensorFlow's
	 * "W .../eager/context.cc:566] Unable to destroy server_ object, so releasing instead.",
	 * hccl_tools' "Failed to call hccn_tool, try to read /etc/hccn.conf instead" */
	{"instead", 1, hlog__ew_fallback_clause},
	/* and the fallback said first in a clause of its own: "[LOG_CAT_SBGP] Failed to dlopen
	 * libnuma.so. Fallback to GROUP_BY_SOCKET manual.", NCCL's "Could not find a path for
	 * pattern 1, falling back to simple order" (not to the CPU: see the holds) */
	{"fallback to", 1, hlog__ew_fallback_taken},
	{"falling back to", 1, hlog__ew_fallback_taken},
	{"fall back to", 1, hlog__ew_fallback_taken},
	/* a step that cannot be done as asked and the setting the program changed to go on,
	 * said in a clause of its own: Slurm's "srun: warning: can't run 1 processes on 2 nodes,
	 * setting nnodes to 1" */
	{", setting", 1, hlog__ew_adjusted},
	/* and in a sentence of its own, the setting quoted with its new value: Transformers'
	 * "`use_cache=True` is incompatible with gradient checkpointing. Setting
	 * `use_cache=False`." */
	{". setting", 1, hlog__ew_adjusted},
	/* and two values that disagree, the program saying in a clause of its own which one it
	 * goes on with: Accelerate's "Gradient accumulation steps mismatch:
	 * GradientAccumulationPlugin has 1, DeepSpeed config has 4. Using DeepSpeed's value." */
	{". using", 1, hlog__ew_value_taken},
	/* and a value refused and put back by the program itself: MindCluster's quick start,
	 * "[WARNING] [470] profiler.py: Invalid parameter export_type: None, reset it to text."
	 * (not advice to reset a device: NVRM's "Xid ... 63, ... New row marked for remapping,
	 * reset gpu to activate") */
	{", reset it to", 1, NULL},
	/* and the same put as what the program will do: ModelArts' toolkit, "the
	 * \"log-preview-size\" parameter exceeds the limit and will be set to the default value
	 * 5242880" */
	{"will be set to the default", 1, NULL},
	/* or a setting's source missing and the defaults taken: "[WARNING] Config file not found:
	 * , using default configuration." */
	{", using default", 1, NULL},
	/* or the failure said to matter only for an intent the run may not have, in a clause of
	 * its own: DeepSpeed on a first start, "[WARNING] [engine.py:2699:load_checkpoint] Unable
	 * to find latest file at .//checkpoint/.../latest, if trying to load latest checkpoint
	 * please ensure this file exists or pass an explicit checkpoint tag ..." */
	{", if trying to", 1, NULL},
	/* UCX comparing the version the program was built for with the library it loaded, and
	 * going on with it (seen in runs that then worked on two clusters years apart): "UCX
	 * WARN  UCP version is incompatible, required: 1.8, actual: 1.7 (release 0 ...)", "UCX
	 * WARN  UCP API version is incompatible: required >= 1.20, actual 1.19.0 (loaded from
	 * /lib64/libucp.so.0)" */
	{"UCP version is incompatible", 1, NULL},
	/* a message that says itself it may be ignored, the error it names being one the program
	 * expects: vLLM's "WARNING ... [triton_decode_attention.py:44] The following error message
	 * 'operation scheduled before its operands' can be ignored." */
	{"can be ignored", 1, NULL},
	/* a feature left unused by a setting the user chose, said as the reason: vLLM's "To see
	 * benefits of async output processing, enable CUDA graph. Since, enforce-eager is
	 * enabled, async output processor cannot be used" */
	{"cannot be used", 0, hlog__ew_setting_chosen},
	/* an option the program cannot honour and says, in a sentence of its own, that it goes on
	 * without: Slurm's "srun: warning: can't honor --ntasks-per-node set to 8 which doesn't
	 * match the requested tasks 16 with the number of requested nodes 16. Ignoring
	 * --ntasks-per-node." */
	{"Ignoring --", 1, hlog__ew_sentence_start},
	/* a second registration refused because the first is there, nothing missing: XLA's "E
	 * .../cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory
	 * for plugin cuDNN when one has already been registered" (TensorFlow and JAX both load
	 * the plugin) */
	{"when one has already been registered", 1, NULL},
	/* a statistic the framework cannot take on this machine, which it says and goes on
	 * without: TensorFlow on hosts whose /proc/cpuinfo has no bogomips (ARM servers, Ascend's
	 * among them), "W tensorflow/core/platform/profile_utils/cpu_utils.cc:98] Failed to find
	 * bogomips in /proc/cpuinfo; cannot determine CPU frequency" */
	{"; cannot determine CPU frequency", 1, NULL},
	/* a probe for an optional library that is not installed, said at the framework's
	 * warning level and gone on without: TensorFlow's "W tensorflow/compiler/tf2tensorrt/
	 * utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" (Ray Train and KubeRay
	 * jobs that finished) */
	{"Could not find TensorRT", 1, NULL},
	/* vLLM's own ops, absent where a platform plugin brings its own and said at vLLM's
	 * warning level: "WARNING 08-07 09:10:36 [_custom_ops.py:20] Failed to import from
	 * vllm._C with ModuleNotFoundError("No module named 'vllm._C'")" (vLLM-Ascend servers
	 * that started and answered) */
	{"Failed to import from vllm._C with ModuleNotFoundError", 1, NULL},
	/* Slurm's step daemon telling that what it said before of a setting is void: "slurmstepd:
	 * info: Setting TMPDIR to /scratch/3422263. Previous errors about TMPDIR can be
	 * discarded" (Lightning and Fabric runs that finished) */
	{"can be discarded", 1, NULL},
	/* TensorFlow's graph check that finds a type it cannot infer, said at its warning level
	 * and gone on without: "W tensorflow/core/common_runtime/forward_type_inference.cc:231]
	 * Type inference failed. This indicates an invalid graph that escaped type checking.
	 * Error message: INVALID_ARGUMENT: ..." (Horovod runs on two GPUs that finished) */
	{"Type inference failed. This indicates an invalid graph", 1, NULL},
	/* Hadoop's native library absent and its Java code taken instead, at its warning level:
	 * "WARN NativeCodeLoader: Unable to load native-hadoop library for your platform... using
	 * builtin-java classes where applicable" (Spark jobs that finished) */
	{"using builtin-java classes where applicable", 1, NULL},
	/* LAMMPS started in a directory it may not write, its default log file refused at its
	 * warning level and the run going on with the screen's output alone: "WARNING on proc 0:
	 * Cannot open log.lammps for writing: Read-only file system (src/lammps.cpp:511)" (three
	 * GPU and CPU cluster runs that finished) */
	{"Cannot open log.lammps for writing", 1, NULL},
	/* what the program does if something fails, said as its policy, no failure: NeMo's "[NeMo
	 * I ...] TFLOPs per sec per GPU will be calculated, conditioned on supported models.
	 * Defaults to -1 upon failure." (at the start of runs that finished) */
	{"upon failure", 0, NULL},
	/* RCCL trying an optional feature and going on without it: "init.cc:1954 NCCL WARN
	 * MSCCL++: Cannot enable MSCCL++; environment is not MSCCL compatible" (rccl-tests and
	 * training runs on MI300X and MI325X that finished) */
	{"environment is not MSCCL compatible", 1, NULL},
	/* NCCL's proxy service thread finding its peer's socket shut as the ranks end: "proxy.cc:
	 * 1497 NCCL WARN [Service thread] Could not receive type from localRank 6, res=3,
	 * closed=0" at the end of runs that finished (a rank that died says more elsewhere) */
	{"[Service thread] Could not receive type from localRank", 1, NULL},
	/* a figure the run reports about itself that it could not work out, and goes on
	 * without: NeMo's "Failed to calculate TFLOPs per sec per GPU." (its performance
	 * callback, at its error level, between training steps that go on) and the reason under
	 * it, "'Failed to extract valid model name from or missing FLOPs calculations for ...'" */
	{"Failed to", 1, hlog__ew_statistic},
	{"UCP API version is incompatible", 1, NULL},
	/* a failure foretold as what may come, not reported: NeMo's "[NeMo E ...] You are running
	 * multi-node training without SLURM handling the processes. Please note that this is not
	 * tested in NeMo and could result in errors." */
	{"errors", 0, hlog__ew_foretold},
	/* and as what one may see: Transformers' "This is a friendly reminder - the current text
	 * generation call will exceed the model's predefined maximum length (4096). Depending on
	 * the model, you may observe exceptions, performance degradation, or nothing at all." */
	{"exceptions", 0, hlog__ew_foretold},
	/* and with the words that name it between: maskrcnn_benchmark's "WARNING: When using
	 * more than one image per GPU you may encounter an out-of-memory (OOM) error if your GPU
	 * does not have sufficient memory." (a run that went on to converge) */
	{"error", 0, hlog__ew_foretold},
	/* advice under a condition, for its sentence: "If connection to the dashboard fails,
	 * check your firewall settings and network configuration." (Ray's banner after "Ray
	 * runtime started."), DeepSpeed's "[WARNING] [stage3.py:2164:step] 2 pytorch allocator
	 * cache flushes since last step. ... If you are unable to make the cache flushes go away
	 * consider adding get_accelerator().empty_cache() calls in your training loop ..." */
	{"If ", 2, hlog__ew_advice_if},
	/* a failure said not to happen: SkyPilot's "Streaming logs... (Ctrl-C to exit log
	 * streaming; job will not be killed)" */
	{"killed", 0, hlog__ew_negated},
	/* a refusal said to hold at this moment, the program waiting for it to change: Ray's
	 * "The actor or task with ID ... cannot be scheduled right now. ... The required
	 * resources may be added as autoscaling takes place" (the whole line; a log that ends
	 * on it is a wait that never ended, which the word families read) */
	{"right now", 1, hlog__ew_for_now},
	/* a step given up on and said so, the work going on without it: "Unable to save dataset
	 * to W&B, skipping!", nvidia-peermem's "ERROR detected invalid context, skipping further
	 * processing" (a peer memory region freed before its callback, harmless) */
	{", skipping", 1, NULL},
	/* the kubelet's "Evicted" is a pod's status or reason, said alone; the same word heading a
	 * label, a noun after it and the label's colon, names a count (vmtouch's page-cache
	 * report, "Evicted Pages: 3720495 (14G)") */
	{"Evicted", 0, hlog__ew_label_head},
	/* nccl-tests' legend under its table, printed on every run: "# Errors with asterisks
	 * indicate errors that have exceeded the maximum threshold." */
	{"Errors with asterisks indicate", 1, NULL},
	/* nccl-tests before 2.10 name the wrong-value column "error": "busbw  error" */
	{"busbw error", 0, NULL},
	/* a retry announced is not the failure: NCCL's "Call to connect returned Connection
	 * refused, retrying"; the last one of a count is ("No route to host, retrying (34/34)") */
	{"retrying", 1, hlog__ew_retries_left},
	/* the same announced in other words: Paddle's "Retry to connect to 127.0.1.1:63917 while
	 * the server is not yet listening.", c10d's "The server socket on [...]:40613 has timed
	 * out, will retry.", gRPC's "Retry in 998 milliseconds" */
	{"retry to", 1, hlog__ew_retries_left},
	{"will retry", 1, hlog__ew_retries_left},
	{"retry in", 1, hlog__ew_retries_left},
	/* c10d trying each address a name resolves to, and the store's connect again until its
	 * timeout (which says so in words of its own), logged as the line's whole message: "[W
	 * socket.cpp:601] [c10d] The client socket has failed to connect to [AIBOT]:29500 (system
	 * error: 10049 - The requested address is not valid in its context.)"; not an exception
	 * that says it ("RuntimeError: The client socket has failed to connect to ...") */
	{"The client socket has failed to connect to", 1, hlog__ew_one_address},
	/* and its tries of each address family: "[W socket.cpp:558] [c10d] The IPv6 network
	 * addresses of (pytorch-workers-0-0.pytorch-workers, 3389) cannot be retrieved (gai
	 * error: -2 - Name or service not known).", "[c10d] The client socket cannot be
	 * initialized to connect to [ai1.mbk.ifra]:23456 (errno: 97 - Address family not
	 * supported by protocol)." */
	{"The IPv6 network addresses of", 1, hlog__ew_one_address},
	{"The client socket cannot be initialized to connect to", 1, hlog__ew_one_address},
	/* and the store's server trying each family to listen on: "[W socket.cpp:401] [c10d]
	 * The server socket cannot be initialized on [::]:29501 (errno: 97 - Address family not
	 * supported by protocol)." (it listens on IPv4 next; when no family works it says "...
	 * has failed to listen on any local network address") */
	{"The server socket cannot be initialized on", 1, hlog__ew_one_address},
	/* and the time waited before the next try: LightGBM's "[Warning] Connecting to rank 1
	 * failed, waiting for 10000 milliseconds" */
	{"waiting for", 1, hlog__ew_wait_before_retry},
	/* Paddle's "connect addr=173.15.88.4:6070 failed 4 times with reason: Connection refused
	 * retry after 2 seconds" */
	{"retry after", 1, hlog__ew_retries_left},
	/* HCCL marks an error it turned into a warning: "[WARNING] ... ErrToWarn: ... failed" */
	{"ErrToWarn", 1, NULL},
	/* NCCL's proxy as a communicator is torn down, after the work is done (seen in six runs
	 * that then reported success, on two sites): its service thread's listening socket
	 * closed under it, "proxy.cc:1458 NCCL WARN [Service thread] Accept failed Resource
	 * temporarily unavailable" (or "... Accept failed Success"), and the close it was asked
	 * for, "NCCL WARN [Proxy Service 7] Failed to execute operation Close from rank 7,
	 * retcode 3" */
	{"[Service thread] Accept failed", 1, NULL},
	{"Failed to execute operation Close", 1, NULL},
	/* HCOLL's subgroup module without libnuma, going on without NUMA-aware groups (three
	 * runs whose tables then ended "0 OK"): "[LOG_CAT_SBGP] libnuma.so: cannot open shared
	 * object file: No such file or directory" */
	{"[LOG_CAT_SBGP] libnuma.so", 1, NULL},
	/* NCCL up to 2.7 without InfiniBand libraries, going on over sockets: "misc/ibvwrap.cc:63
	 * NCCL WARN Failed to open libibverbs.so[.1]" */
	{"Failed to open libibverbs", 1, NULL},
	/* a failure the program says it ignored, going on without what failed: Open MPI's
	 * "mca_base_component_repository_open: unable to open mca_btl_usnic: libfabric.so.1:
	 * cannot open shared object file: No such file or directory (ignored)" */
	{"(ignored)", 1, NULL},
	/* ssh whose ~/.ssh cannot be written, connecting all the same: "Failed to add the host to
	 * the list of known hosts (/root/.ssh/known_hosts)." */
	{"Failed to add the host to the list of known hosts", 1, NULL},
	/* a record whose own fields call it a warning and no error: MLPerf LoadGen's ":::MLLOG
	 * {"key": "warning_generic_message", "value": "CAS failed.", ... "metadata": {"is_error":
	 * false, "is_warning": true, ...}}" (its errors say "is_error": true; a result, "INVALID"
	 * among them, says false to both and stays read by its words) */
	{"\"is_error\": false, \"is_warning\": true", 1, NULL},
	/* libibverbs itself, on a provider not installed: "libibverbs: Warning: couldn't load
	 * driver 'libipathverbs-rdmav25.so': ...: cannot open shared object file" */
	{"libibverbs: Warning: couldn't load driver", 1, NULL},
	/* Python's warning categories, any class whose name ends "Warning" and the colon its
	 * report puts after it (advice, not failures; the words are the advice's): "FutureWarning:
	 * `torch.cuda.amp.custom_bwd(args...)` is deprecated", "UserWarning: Detected call of
	 * `lr_scheduler.step()` before `optimizer.step()`. ... Failure to do this will result in
	 * ...", Ray's "DeprecationWarning: ... This will raise an error in the future!", numpy's
	 * "_methods.py:129: RuntimeWarning: invalid value encountered in scalar divide", SGLang's
	 * "session_controller.py:57: SyntaxWarning: invalid escape sequence '\-'" (not torch's
	 * bare "Warning: NPU warning, error code is 107020": no class before it) */
	{"Warning:", 3, hlog__ew_warning_class},
	{"is deprecated", 1, NULL}, /* "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use" */
	{"has been deprecated", 1, NULL},
	/* a peer-to-peer capability report, CUDA's samples (p2pBandwidthLatencyTest, simpleP2P)
	 * printing what a pair of GPUs can do: "Device=0 CANNOT Access Peer Device=1" (the copies
	 * go through host memory instead) */
	{"CANNOT Access Peer", 1, NULL},
	/* a launcher that falls back and says so: DeepSpeed's runner on one node, "Unable to find
	 * hostfile, will proceed with training with local resources only." */
	{"will proceed with", 1, NULL},
	/* NCCL from 2.19 without InfiniBand libraries, going on over sockets (as "Failed to open
	 * libibverbs" above): "misc/ibvwrap.cc:173 NCCL WARN lib wrapper not initialized." */
	{"lib wrapper not initialized", 1, NULL},
	/* Hugging Face datasets offline, using its cache: "Using the latest cached version of the
	 * module from ... since it couldn't be found locally at ..." */
	{"Using the latest cached version", 1, NULL},
	/* Open MPI built with the openib BTL, run over UCX: "WARNING: There was an error
	 * initializing an OpenFabrics device." (the job goes on over the PML that works) */
	{"error initializing an OpenFabrics device", 1, NULL},
	/* Hugging Face's Trainer on inputs it cannot count tokens of: "Could not estimate the
	 * number of tokens of the input, floating-point operations will not be computed" */
	{"will not be computed", 1, NULL},
	/* Megatron-LM starting a run with no checkpoint yet: "WARNING: could not find the
	 * metadata file .../latest_checkpointed_iteration.txt", then "will not load any
	 * checkpoints and will start from random" */
	{"could not find the metadata file", 1, NULL},
	/* Open MPI counting the ranks that printed a help message already shown once: "415
	 * more processes have sent help message help-mpi-btl-openib.txt / error in device init",
	 * "1 more process has sent help message ..." (the message itself is read where it is
	 * printed) */
	{"sent help message", 1, NULL},
	/* and the advice it prints under that count: "Set MCA parameter \"orte_base_help_
	 * aggregate\" to 0 to see all help / error messages" */
	{"to see all help / error messages", 1, NULL},
	/* and its component selection at verbose level, a component that declines this node:
	 * "select: init of component openib returned failure" (another one is selected) */
	{"select: init of component", 1, NULL},
	/* PMIx's shared-memory store failing to take its lock under Slurm, printed by every rank
	 * of runs that then go on and finish: "PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c
	 * at line 168" (the store falls back to its other component) */
	{"gds_ds12_lock_pthread.c", 1, NULL},
	/* libfabric probing its optional device-memory backends at start, one not installed:
	 * "ze_hmem_dl_init():474<warn> Failed to dlopen libze_loader.so", "ofi_hmem_init():339<warn>
	 * Failed to initialize hmem iface FI_HMEM_ZE: No data available" (the provider goes on
	 * with the backends there are) */
	{"<warn> Failed to dlopen", 1, NULL},
	{"Failed to initialize hmem iface", 1, NULL},
	/* a solver arming its floating-point traps at start: OpenFOAM's "sigFpe : Enabling
	 * floating point exception trapping (FOAM_SIGFPE)." */
	{"exception trapping", 1, NULL},
	/* an interactive bash started without a terminal (a container's or a service's entry
	 * script run with -i), which goes on without job control: "bash: cannot set terminal
	 * process group (-1): Inappropriate ioctl for device", then "bash: no job control in this
	 * shell" */
	{"cannot set terminal process group", 1, NULL},
};

#define NBENIGN (sizeof(benign) / sizeof(benign[0]))

/* The length of form matched at s[0..n), 0 when it does not match. Case-insensitive unless
 * exact; ' ' matches a run of blanks, "%d" a run of digits; a form ending in a word character
 * must end at a word end. */
size_t hlog__benign_rows(void)
{
	return NBENIGN;
}

const char *hlog__benign_row_name(size_t row)
{
	return row < NBENIGN ? benign[row].form : NULL;
}

/* Whether benign row r may match at a byte a word character comes before: a form that
 * starts with a mark, or one that ends a word begun before it (whole 3). */
static int benign_inside_word(size_t r)
{
	return !hlog__word_char(benign[r].form[0]) || benign[r].whole == 3;
}

/* Where benign row r first matches in m at or after from, its length in *len; -1. */
static long benign_from(struct pspan m, size_t r, size_t from, size_t *len)
{
	for (size_t i = from; i < m.n; i++) {
		if (i && hlog__word_char(m.s[i - 1]) && !benign_inside_word(r))
			continue;
		size_t k = hlog__ew_match_at(m.s + i, m.n - i, benign[r].form, 0);
		if (k) {
			*len = k;
			return (long)i;
		}
	}
	return -1;
}

/* Where benign row r next matches in m at or after from and holds there, its length in *len;
 * -1. */
static long holding_from(struct pspan m, size_t r, size_t from, size_t *len)
{
	for (long i = benign_from(m, r, from, len); i >= 0; i = benign_from(m, r, (size_t)i + 1, len))
		if (!benign[r].holds || benign[r].holds(m, (size_t)i, *len))
			return i;
	return -1;
}

/* The benign rows by the lower case of the first byte a match starts on (a form that starts
 * with a blank, on ' ' and '\t'; with "%d", on each digit), in table order: one pass over a
 * line then tries only the rows that can start at each byte, instead of every row at every
 * byte (half of reading a log went there). */
static unsigned char benign_row[10 * NBENIGN]; /* a row is in 10 lists at most ("%d") */
static unsigned short benign_start[129];
static pthread_once_t benign_once = PTHREAD_ONCE_INIT;

static int benign_starts_on(size_t r, unsigned c)
{
	const char *f = benign[r].form;
	if (f[0] == '%' && f[1] == 'd')
		return c >= '0' && c <= '9';
	if (f[0] == ' ')
		return c == ' ' || c == '\t';
	return ((unsigned char)hlog__ew_lower(f[0]) & 127) == c;
}

static void build_benign_index(void)
{
	size_t k = 0;
	for (unsigned c = 0; c < 128; c++) {
		benign_start[c] = (unsigned short)k;
		for (size_t r = 0; r < NBENIGN; r++)
			if (benign_starts_on(r, c))
				benign_row[k++] = (unsigned char)r;
	}
	benign_start[128] = (unsigned short)k;
}

int hlog__benign_at(struct pspan m, size_t at, size_t len)
{
	_Static_assert(NBENIGN < 256, "benign rows index as bytes");
	pthread_once(&benign_once, build_benign_index);
	long best = -1;
	for (size_t i = 0; i < m.n; i++) {
		unsigned c = (unsigned char)hlog__ew_lower(m.s[i]) & 127;
		int after_word = i && hlog__word_char(m.s[i - 1]);
		for (unsigned j = benign_start[c]; j < benign_start[c + 1]; j++) {
			size_t r = benign_row[j], k;
			if (best >= 0 && r >= (size_t)best)
				break; /* in table order: no lower row is left at this byte */
			if (after_word && !benign_inside_word(r))
				continue;
			if (!(k = hlog__ew_match_at(m.s + i, m.n - i, benign[r].form, 0)) ||
			    (benign[r].holds && !benign[r].holds(m, i, k)))
				continue;
			size_t end = benign[r].whole == 2 ? hlog__ew_sentence_end(m, i + k) : i + k;
			if (benign[r].whole == 1 || benign[r].whole == 3 || (i <= at && at + len <= end))
				best = (long)r;
		}
	}
	return (int)best;
}

int hlog__benign_row_in(struct pspan m, size_t row)
{
	size_t k;
	return row < NBENIGN && holding_from(m, row, 0, &k) >= 0;
}

/* Whether a row of the forms that say a try is to be made again holds in m: a retry
 * announced, and with addresses, c10d's try of one address of several. */
static int tries_again(struct pspan m, int addresses)
{
	size_t k;
	for (size_t r = 0; r < NBENIGN; r++)
		if ((benign[r].holds == hlog__ew_retries_left ||
		     benign[r].holds == hlog__ew_wait_before_retry ||
		     (addresses && benign[r].holds == hlog__ew_one_address)) &&
		    holding_from(m, r, 0, &k) >= 0)
			return 1;
	return 0;
}

int hlog__retry_left(struct pspan m)
{
	return tries_again(m, 1);
}

int hlog__retry_announced(struct pspan m)
{
	return tries_again(m, 0);
}
