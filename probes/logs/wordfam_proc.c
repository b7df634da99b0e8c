/* The word families (see wordfam.c), last part: processes and their peers. A crash, an
 * address that is empty, connections refused, lost, unreachable or timed out, waits that ran
 * out, advice the program printed, and the news that a process failed without why (after
 * wordfam_node.c's and wordfam_soft.c's rows). */
#include <stddef.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/wordfam.h"

/* The words that say a line is about the job's own settings: the "invalid" row needs one of
 * them beside a refused value, and the "code-check" row's guess of a package's defect holds
 * only without them (the same list, so that the two rows split such exceptions between them) */
#define JOB_SETTING_WORDS "config", "setting", "option", "argument", "parameter", "variable"

const struct family hlog__fams_proc[] = {
	/* a crash explains the refused connections and timeouts of its peers; a cause its own
	 * process stated before it (memory, a setting, versions) explains the crash */
	{.cat = HCAT_UNRESOLVED,
	 .name = "crash",
	 .what = "a process crashed",
	 .fix = "find the first process that died (its core dump or the launcher's line naming its "
		"rank) "
		"and the lines before it in that rank's log; the other ranks' errors follow from "
		"it",
	 .any = {"segmentation fault", "sigsegv", "signal 11", "core dumped", "illegal instruction",
		 "sigill", "sigabrt", "bus error", "terminate called", "exited on signal",
		 "killed by signal",
		 /* an exception nothing caught, which ends the process as "terminate called"
		  * does: Ray's "logging.cc:97: Unhandled exception: N3c105ErrorE. what(): ..." */
		 "unhandled exception",
		 /* a crash handler's heading: Open MPI's "*** Process received signal ***", UCX's
		  * "==== backtrace (tid: 548615) ====" (or "==== backtrace ====") over the frames
		  * of a process it caught */
		 "received signal", "= backtrace",
		 /* the ROCm runtime's GPU page fault, after which it aborts the process: "Memory
		  * access fault by GPU node-4 (Agent handle: 0x1992e500) on address (nil). Reason:
		  * Unknown." */
		 "memory access fault",
		 /* the MMU refusing a process's access, a GPU's or the kernel's: amdgpu's "[gfxhub]
		  * page fault (src_id:0 ring:24 vmid:10 pasid:32769, for process ...)", "general
		  * protection fault" */
		 "page fault", "protection fault"}},
	/* an address whose host is empty ("ray start --address=:6379", "connect to ... address
	 * :6379", "tcp://:29500"): the variable that should hold the master's host was empty
	 * when the command line was made, so every connection goes nowhere */
	{.cat = HCAT_CONFIG,
	 .name = "empty-host",
	 .what = "an address with no host was given (an empty variable)",
	 .fix = "set the master's host where the job's command line is made (MASTER_ADDR, the "
		"head node's address, --address HOST:PORT) on every node, then run again",
	 .any = {"connect", "address", "addr", "host"},
	 .form = hlog__wf_empty_host},
	/* a service that answers requests with an HTTP error: "[status code: 404]" */
	{.cat = HCAT_UNRESOLVED,
	 .name = "http-error",
	 .what = "a service answered requests with an HTTP error",
	 .fix = "the service the job talks to is up but refuses or cannot serve the request: check "
		"the address and path it is asked for (an API path or model name the service does "
		"not have) and the service's own log",
	 .form = hlog__wf_http_status},
	{.cat = HCAT_NET,
	 .name = "refused",
	 .what = "a peer refused the connection",
	 .fix = "the peer was not listening at that address and port: check that it started, that "
		"the "
		"address and port are the ones it listens on, and that no firewall rejects them",
	 .any = {"connection refused", "refused"}},
	{.cat = HCAT_NET,
	 .name = "unreachable",
	 .what = "a peer cannot be reached",
	 .fix = "check the route from this node to the peer (ip route, the interface the job binds "
		"to, "
		"firewalls)",
	 .any = {"unreachable", "no route to host", "not reachable"}},
	/* a connection that was up and went away, in words that do not say the peer closed it
	 * (a peer that reset or closed it is the catalog's, as a rank that stopped): Open MPI's
	 * "ORTE has lost communication with a remote daemon", NCCL's "Connect to
	 * 10.0.0.2<40815> failed : Software caused connection abort" (ECONNABORTED) */
	{.cat = HCAT_NET,
	 .name = "connection-lost",
	 .what = "a connection to a peer was lost",
	 .fix = "find out whether the peer the line names is still running (its own log, the "
		"launcher's exit lines): if it died, its first error is the cause; if it runs, "
		"check the network between the two nodes (link state, routes, firewall, the "
		"interface the job binds to)",
	 .any = {"lost communication", "lost connection", "connection lost", "lost contact",
		 "connection abort", "connection aborted"}},
	/* links that were being set up and never came up: HCCL's "Wait links establish
	 * completed failed, local role is client. ret[9]", "failed to establish connection" */
	{.cat = HCAT_NET,
	 .name = "link-setup",
	 .what = "links between ranks could not be set up",
	 .fix = "check that the peer ranks started and reached the same step, and that this node "
		"reaches them on the addresses and ports the job uses (device IPs and their "
		"links for NPUs: hccn_tool -i N -link -g, -net_health -g; routes and firewall "
		"for host sockets)",
	 .any = {"links establish", "link establish", "establish link", "establish links",
		 "establish connection", "establish the connection", "connection establishment"},
	 .also = {"fail", "failed", "failure", "timeout", "timed out", "error"}},
	{.cat = HCAT_NET,
	 .name = "connect-timeout",
	 .what = "a connection to a peer timed out",
	 .fix = "check that the peer's address and port are reachable from this node (firewall, "
		"routes, "
		"the interface the job binds to) and that the peer was up and listening",
	 .any = {"timed out", "timeout", "time out"},
	 /* a service that never came up at the address it was looked for at */
	 .also = {"connect", "become available", "to be available", "unavailable"},
	 /* a wait for the others to arrive, whose advice names connecting: JAX's coordination
	 * service, "cluster registration failed ... tasks crashed earlier before connecting",
	 * "Barrier timed out. Id: [Init]Wait_for_all_tasks_to_register" (the timeout's below) */
	 .not = {"barrier", "registration", "to register"}},
	{.cat = HCAT_NET,
	 .name = "connect-failed",
	 .what = "a connection to a peer could not be made",
	 .fix = "check that the peer the line names is up and listening at that address and "
		"port, and that this node reaches it (routes, firewall, the interface the job "
		"binds to)",
	 .any = {"failed to connect", "connect failed", "connection failed", "could not connect",
		 "unable to connect", "cannot connect", "can't connect", "not connected to",
		 /* perftest's client: "Couldn't connect to 192.168.125.211:18515" */
		 "couldn't connect",
		 /* the failure said before the verb: DCGM's exporter, "failed to initialize DCGM:
		  * error connecting to nv-hostengine:" */
		 "error connecting to", "failed connecting to", "failure connecting to",
		 "link failed", "failed to link",
		 /* a retry of a connection, on the line a log ends on: it never came back */
		 "retry to connect", "retrying to connect"}},
	/* a connection that could not be finished: Open MPI's "A process or daemon was unable
	 * to complete a TCP connection to another process" */
	{.cat = HCAT_NET,
	 .name = "connect-failed",
	 .fix = "check that the peer the lines name is up and reachable from this node (firewall "
		"on the remote host, routes, the interface the job binds to)",
	 .any = {"unable to complete", "could not complete", "failed to complete",
		 "unable to establish", "could not establish", "failed to establish"},
	 .also = {"connection", "connect"}},
	/* torch elastic's agent and its rendezvous store: the exception's class and message
	 * (torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py, "The connection to
	 * the C10d store has failed. See inner exception for details."). A wrapper: its inner
	 * exception, where a rule knows it, names the address and says more */
	{.cat = HCAT_NET,
	 .name = "rendezvous",
	 .what = "the elastic agent could not reach its rendezvous store",
	 .fix = "check that the rendezvous host (--rdzv-endpoint HOST:PORT, the first node) is up "
		"and its agent started, that its name resolves the same on every node, and that "
		"the port is open between the nodes (a firewall, a Kubernetes service or a "
		"cluster that exposes only some ports)",
	 .any = {"rendezvousconnectionerror", "connection to the c10d store"}},
	/* the launcher's list of hosts and their slots (below the network's families: a host of
	 * the list that cannot be reached is the network's, "host=gadi-gpu-v100-0011 was not
	 * reachable via ssh"): Open MPI's "A hostfile was provided that
	 * contains multiple definitions of the slot count", "Please correct the hostfile and try
	 * again", DeepSpeed's and MPICH's host and machine files */
	{.cat = HCAT_CONFIG,
	 .name = "hostfile",
	 .what = "the launcher's host list is wrong",
	 .fix = "correct the host file the launcher reads (one line per host with its slots, "
		"names that resolve to the nodes meant, as many slots as ranks), then run again",
	 .any = {"hostfile", "host file", "machinefile", "machine file", "slot count"}},
	/* a member of the cluster given up for dead when its heartbeats stopped: Ray's "The node
	 * with node id: ... has been marked dead because the detector has missed too many
	 * heartbeats from it" (its daemon crashed or was killed, the node was lost or
	 * preempted, or the network to it failed) */
	{.cat = HCAT_UNRESOLVED,
	 .name = "node-lost",
	 .what = "a node was given up for dead: its heartbeats stopped",
	 .fix = "read that node's own logs and its kernel log for why its daemon stopped (a crash, "
		"the OOM killer, a preempted or rebooted node, a scale-down) and check the network "
		"to it; the job's other errors follow from losing it",
	 .any = {"marked dead", "marked as dead",
		 /* Flux's overlay giving up on a broker: "overlay.crit[1150]: disconnecting: no
		  * heartbeat for 5.1m" */
		 "no heartbeat"}},
	/* a process that ended because it learned that another of the job died, and says so:
	 * JAX's coordination service, "Terminating process because the JAX distributed service
	 * detected fatal errors. This most likely indicates that another task died". The one
	 * that reports it is not the cause; whose death it reports is. */
	{.cat = HCAT_RANK_STUCK,
	 .name = "peer-died",
	 .says = WF_SAYS_PEER_DIED,
	 .what = "a process stopped because another process of the job died",
	 .fix = "find the process that died first (the task or rank the lines name, else the first "
		"to stop by time across the job's logs) and read its own log and its node's kernel "
		"log (a crash, the OOM killer, a preemption); the process that reports it is not "
		"the cause",
	 .any = {"another task", "another process", "another rank", "another worker",
		 "other task", "other process", "other rank", "other worker", "peer task",
		 "peer process"},
	 .also = {"died", "crashed", "was preempted"}},
	/* a process stuck in a call into the kernel that does not return (state D), which the
	 * kernel reports after 120 s: "INFO: task ior:142307 blocked for more than 120 seconds."
	 * over a call trace in Lustre's client; a GPU driver or an NFS server not answering do
	 * the same. The ranks that wait for it are not the cause. */
	{.cat = HCAT_RANK_STUCK,
	 .name = "blocked-task",
	 .says = WF_SAYS_WAITS,
	 .what = "a process is stuck in a call into the kernel that does not return",
	 .fix = "read the call trace under the line: the module it ends in names what does not "
		"answer (a network file system's client such as nfs or Lustre's ptlrpc/osc: its "
		"server or the network to it; a GPU or NIC driver: the device, dmesg around it); "
		"the process cannot be killed until the call returns, so the node may need a reboot",
	 .any = {"blocked for more than"}},
	/* a process that stopped making progress: "some processes are hanging", "hung", Horovod's
	 * "Stalled ops:" and "[missing ranks: 1]" */
	{.cat = HCAT_RANK_STUCK,
	 .name = "hang",
	 .says = WF_SAYS_WAITS,
	 .what = "a process hangs",
	 .fix = "find the rank that stopped making progress (its own log, py-spy dump or gdb on "
		"its process, the last collective each rank entered); the ranks waiting for it "
		"are not the cause",
	 .any = {"hanging", "hung", "deadlock", "stalled", "missing ranks",
		 /* TensorFlow's master, every 10 s: "CreateSession still waiting for response
		  * from worker: /job:worker/replica:0/task:12" */
		 "still waiting"},
	 /* a hang foretold is none: vLLM's "Error executing method 'init_device'. This might
	  * cause deadlock in distributed execution." under the error that happened */
	 .sure = 1,
	 .not = {"possible deadlock"}},
	/* a communicator some of whose ranks stopped answering: NCCL's RAS client, a row of its
	 * table "    0         1         2       7-8        16        15   RUNNING  INCOMPLETE"
	 * over "Missing communicator data from 1 rank" (not data a failed operation left
	 * incomplete, nor a read or download cut short) */
	{.cat = HCAT_RANK_STUCK,
	 .name = "hang",
	 .says = WF_SAYS_WAITS,
	 .any = {"incomplete"},
	 .sure = 1,
	 .not = {"data", "read", "download", "response"}},
	/* a wait given up on in other words: MosaicML streaming's "RuntimeError: Waiting for
	 * local rank 0, bailing out: 60.000 < 60.053 sec." */
	{.cat = HCAT_RANK_STUCK,
	 .name = "timeout",
	 .what = "a wait ran out",
	 .fix = "a wait for another rank or service ran out: find the rank that was late or "
		"stopped (its own log, the first error by time across ranks); raise the timeout "
		"only when it is known to be merely slow",
	 .any = {"waiting for", "waited for"},
	 .also = {"bailing out", "giving up", "gave up"}},
	{.cat = HCAT_RANK_STUCK,
	 .name = "timeout",
	 .any = {"timed out", "timeout", "time out", "deadline exceeded", "超时",
		 /* the scheduler ending a job that used up its time: Slurm's "slurmstepd:
		  * error: *** JOB 8384637 ON nid001044 CANCELLED AT 2023-05-02T03:58:46 DUE TO
		  * TIME LIMIT ***" (a job that hung, or one given too little time) */
		 "due to time limit"}},
	/* a process that says it waits for another and names what: Ray's "Waiting for placement
	 * group to be scheduled", PyTorch's point-to-point example "Rank 1 waiting to receive from
	 * Rank 0", XLA's "This thread has been waiting for `initialize clique for rank 6; ...`".
	 * Only as the line a log ends on, and no error line (hccllog.c): the wait never ended (in
	 * the middle of a log it ended; MPICH's "demux engine error waiting for event" is an
	 * error met while waiting); not "Done waiting for other agents", nor vLLM's count
	 * "Waiting: 0 reqs" */
	{.cat = HCAT_RANK_STUCK,
	 .name = "waiting",
	 .says = WF_SAYS_WAITS,
	 .what = "a process was waiting for another (a rank, a worker, a service or a resource) "
		 "that had not come when its log ended",
	 .fix = "find what it waited for, named on the line: the rank or worker that never "
		"reached the same step (its own log, py-spy dump --pid PID), or the service or "
		"resource that never came up (the scheduler's or autoscaler's log); the process "
		"that waits is not the cause",
	 .any = {"waiting for", "waiting to", "been waiting"},
	 .not = {"done waiting", "finished waiting", "stopped waiting", "no longer waiting",
		 "after waiting", "error waiting", "failed waiting", "while waiting"},
	 .end_only = 1},
	/* and a refusal said to hold at this moment, the program waiting for it to change, as
	 * the line a log ends on: Ray's "The actor or task with ID ... cannot be scheduled right
	 * now. It requires {CPU: 4.000000} for placement, however the cluster currently cannot
	 * provide the requested resources." (a run whose log goes on got them) */
	{.cat = HCAT_RANK_STUCK,
	 .name = "waiting",
	 .says = WF_SAYS_WAITS,
	 .any = {"right now"},
	 .also = {"cannot", "can't", "unable to", "not"},
	 .end_only = 1},
	/* and a peer or service said not to be ready yet, as the line a log ends on: Paddle's
	 * launcher, "not ready endpoints:['192.168.4.7:6070']" under "server not ready, wait 3
	 * sec to retry...", KubeRay's "Cluster is NOT ready." (not a status read out, nvidia-smi's
	 * "IMEX daemon status is -3 (not READY)" on a machine that does not use it) */
	{.cat = HCAT_RANK_STUCK,
	 .name = "waiting",
	 .says = WF_SAYS_WAITS,
	 .any = {"not ready"},
	 .not = {"status", "(not ready"},
	 .end_only = 1},
	/* and a step said to take longer than it should, as the line a log ends on: JAX's
	 * "UserWarning: TPU backend initialization is taking more than 60.0 seconds. Did you run
	 * your code on all TPU hosts?" (a log that goes on saw the step end) */
	{.cat = HCAT_RANK_STUCK,
	 .name = "waiting",
	 .says = WF_SAYS_WAITS,
	 .any = {"is taking more than", "is taking longer than", "are taking more than",
		 "are taking longer than", "taking longer than expected"},
	 .end_only = 1},
	/* an error line that ends in the program's own advice on a setting: TensorRT-LLM's
	 * "... may use dynamic buffer which will fail with NIXL backend. It is recommended to
	 * set cacheTransceiverConfig.MaxTokensInBuffer to a value greater than the maximum ISL"
	 * (after the rows for what failed, whose words say more) */
	{.cat = HCAT_CONFIG,
	 .name = "advised-setting",
	 .what = "the program says a setting of the job does not fit what it does",
	 .fix = "set what the line advises (the option or variable it names, to the value or bound "
		"it gives), the same on every node, then run again",
	 .any = {"recommended to set", "please set", "consider setting", "try setting",
		 "you should set", "you must set", "you need to set",
		 /* one setting that asks for another: vLLM on Neuron, "ValueError: When setting
		  * pa_num_blocks (512) in override_neuron_config," / "you must also set
		  * --num-gpu-blocks-override to the same value" */
		 "you must also set", "must also be set",
		 /* a limit the job's setting put, and the advice to raise it: Grid's
		  * "ShmBufferMalloc exceeded shared heap size -- try increasing with --shm <MB>
		  * flag" */
		 "try increasing", "try to increase", "please increase", "consider increasing",
		 "you can increase", "you may need to increase"},
	 /* not advice on how to debug: torch_npu's "If you want to get the accurate stacktrace,
	  * please set environment variable ASCEND_LAUNCH_BLOCKING=1." under every asynchronous
	  * operator error, MindIE's "enable log: export ASDOPS_LOG_LEVEL=ERROR, export
	  * ASDOPS_LOG_TO_STDOUT=1" after an operator that failed */
	 .not = {"stacktrace", "stack trace", "debug", "launch_blocking", "_debug",
		 "_launch_blocking", "enable log", "_log_level", "_log_to_stdout"}},
	/* the program's advice to check one setting, on the line that failed: ascend-deployer's
	 * "fatal: [172.0.0.99]: FAILED! => {\"changed\": false, \"msg\": \"login harbor
	 * failed, please check whether docker proxy is set\"}" */
	{.cat = HCAT_CONFIG,
	 .name = "advised-setting",
	 .fix = "check the setting the line names on the node it names (its value, or whether it "
		"is there at all), set it as the job needs, then run again",
	 .any = {"check whether", "check if"},
	 .also = {"is set", "are set", "is configured", "are configured"}},
	/* the same advice as the assignment to make: oneCCL's "EXCEPTION: to get local_idx/count
	 * from ATL, set CCL_ZE_IPC_EXCHANGE=sockets explicitly" */
	{.cat = HCAT_CONFIG,
	 .name = "advised-setting",
	 .fix = "set what the line advises (the variable it names, to the value it gives), the "
		"same on every node, then run again",
	 .form = hlog__wf_set_assignment,
	 .not = {"stacktrace", "stack trace", "debug", "launch_blocking", "_debug",
		 "_launch_blocking", "enable log", "_log_level", "_log_to_stdout"}},
	/* Python's exception for a value refused, said of the job's configuration, where no row
	 * above says more of it: Accelerate's
	 * "ValueError: When using `deepspeed_config_file`, the following accelerate config
	 * variables will be ignored:" (a launch configured twice) */
	{.cat = HCAT_CONFIG,
	 .name = "invalid",
	 .what = "a value the job was given is refused",
	 .fix = "correct the configuration the line names (its file, the launcher's options or "
		"the environment), then run again",
	 .any = {"ValueError:"},
	 .also = {JOB_SETTING_WORDS}},
	/* a program whose source does not parse, said by Python as it loads the file: verl's
	 * "SyntaxError: keyword argument repeated: backend" (a file edited by hand); the file and
	 * line are on the lines above it */
	{.cat = HCAT_CONFIG,
	 .name = "source",
	 .what = "a source file the job runs does not parse",
	 .fix = "correct the line the traceback names in that file (an edit to it), or, when the "
		"file belongs to an installed package, run it under the Python release the package "
		"supports",
	 .any = {"SyntaxError:", "IndentationError:", "TabError:"}},
	/* Python's exceptions for code that broke its own assumptions (an assertion, an attribute,
	 * key, index or type its code expected), where no row above names a setting or a resource
	 * and the line names none of the job's settings: DeepSpeed's "KeyError: torch.bfloat16"
	 * in ZeRO-2's gradient buckets, verl's "AssertionError" on a parameter left on the CPU
	 * after validation. Inside a framework such a failure is most often a defect of its
	 * release or of releases that do not fit together, a guess the fix says how to check */
	/* an assert that compares the job's sizes: the sizes it was started with (processes,
	 * devices, steps or samples) do not fit what the program requires of them; before
	 * code-check, whose bare "AssertionError" this reads further */
	{.cat = HCAT_CONFIG,
	 .name = "size-check",
	 .what = "the program's check of the job's sizes failed: the number of processes, "
		 "devices, steps or samples it was started with does not fit what it requires",
	 .fix = "read the assert's statement in the traceback (the sizes it compares) and start "
		"the job with sizes that pass it: the process count (--nproc_per_node, -np, "
		"WORLD_SIZE) the program was written for, or steps, batch and data sizes that "
		"divide by it",
	 .form = hlog__wf_assert_sizes},
	{.cat = HCAT_VERSION,
	 .name = "code-check",
	 .weak = 1,
	 .what = "a package's own code failed a check of its assumptions, which most often is a "
		 "defect of its release or releases that do not fit together",
	 .fix = "search the package's issues for the exception's message and compare the "
		"versions of the packages its traceback passes through with each one's "
		"requirements; install the release that fixes it, or releases made for each "
		"other, the same on every node",
	 .any = {"AssertionError", "AttributeError:", "KeyError:", "TypeError:", "IndexError:",
		 "NotImplementedError", "UnboundLocalError:"},
	 /* nor one stating what the code requires of the node ("AssertionError: Megatron
	  * requires CUDA."): the node's state, which the lines above it say */
	 .not = {JOB_SETTING_WORDS, "environment", "requires", "required"}},
	/* a Python exception whose own line is missing or says nothing a row above knows: the
	 * frames of its traceback still say a process failed */
	{.cat = HCAT_UNRESOLVED,
	 .name = "exception",
	 .weak = 1,
	 .what = "a process raised an exception",
	 .fix = "read the exception at the end of the traceback and the lines before it in that "
		"process's log; the first process to fail by time is the place to start",
	 .any = {"traceback (most recent call last)", "file \"", "raise "},
	 .also = {"traceback", ", line ", "error", "exception"}},
	/* words that say the process gave up, not only that something went wrong: "Fatal error
	 * in MPI_Init: Other MPI error", "Abort(1091215): Fatal error in ...", "... aborting job".
	 * The job failed, so it is a failure with an unknown cause, not a warning */
	{.cat = HCAT_UNRESOLVED,
	 .name = "fatal",
	 .weak = 1,
	 .what = "a process stopped on a fatal error",
	 .fix = "read the line and the lines after it (an error stack, the launcher's summary) in "
		"that process's log; the first process to stop by time is the place to start",
	 .any = {"fatal", "abort", "aborted", "aborting", "mpi_abort",
		 /* glog's CHECK, which aborts the process: "Check failed: ret == LLM_SUCCESS
		  * Initialize LlmDataList failed", "*** Check failure stack trace: ***" */
		 "check failed", "check failure stack trace",
		 /* a launcher that gave up on its daemons: Open MPI's "ORTE was unable to
		  * reliably start one or more daemons." (the lines before it say why) */
		 "unable to reliably start",
		 /* and one ending what is left of the job once a process failed: DeepSpeed's
		  * "sigkill_handler] Killing subprocess 3698707" */
		 "killing subprocess"}},
	/* a process that ended with a failing exit code, which says that it failed, not why:
	 * torch elastic's "failed (exitcode: 1) local_rank: 3 (pid: 429)", Ray's "Some Ray
	 * subprocesses exited unexpectedly:", a CI runner's "Error: Process completed with exit
	 * code 143." After the fatal family: a fatal line says more */
	{.cat = HCAT_UNRESOLVED,
	 .name = "exit",
	 .weak = 1,
	 .says = WF_SAYS_TASK_ENDED,
	 .what = "a process ended with a failing exit code",
	 .fix = "read that process's own log (the rank or service the line names) for its first "
		"error; the first process to end by time is the place to start",
	 .form = hlog__wf_exit_failed},
	/* a Python exception's own line, alone: "IndexError: list index out of range"; after the
	 * exit family, which says more of "subprocess.CalledProcessError: Command ... returned
	 * non-zero exit status 255." */
	{.cat = HCAT_UNRESOLVED,
	 .name = "exception",
	 .weak = 1,
	 .fix = "read the exception and the lines before it in that process's log (its traceback "
		"names the call that raised); the first process to fail by time is the place to "
		"start",
	 .form = hlog__wf_exception_class},
	/* a stack dump that ends in a wait, with no exception under it: the process was waiting
	 * in that call when its stack was printed (TorchRec's "tensor_awaitable.wait()  # finish
	 * lengths all2all" down to "id_list_features_awaitable=self._id_list_features_awaitable.
	 * wait()" on the ranks that hung). No line's words reach this row: the scan names it for
	 * such a dump (hccllog.c) */
	{.cat = HCAT_RANK_STUCK,
	 .name = "waiting-call",
	 .says = WF_SAYS_WAITS,
	 .what = "a process was waiting in a call when its stack was printed: the dump's innermost "
		 "frames are a collective or a wait that had not returned",
	 .fix = "find what it waited for: the ranks or workers that had not reached the same call "
		"(their own logs and stacks: py-spy dump --pid PID), not this one"},
};
const size_t hlog__nfams_proc = sizeof(hlog__fams_proc) / sizeof(hlog__fams_proc[0]);
