/* hcclctl: main and the command table. Each group lives in its own cmd/<group>.c. */
#include <signal.h>
#include <stdio.h>

#include "cmd/analyze.h"
#include "cmd/cli/cli.h"
#include "cmd/doctor/doctor.h"
#include "cmd/lib/fanout.h"
#include "cmd/probe/probe.h"
#include "cmd/run/run.h"

static const struct cmd top_commands[] = {
	{ .name = "ranktable",
	  .summary = "generate, validate, show and compare HCCL rank tables",
	  .subs = ranktable_commands },
	{ .name = "run",
	  .summary = "run collectives across ranks and report bandwidth and correctness",
	  .subs = run_commands },
	{ .name = "probe",
	  .summary = "check this node's links: HCCS (npu-smi), RDMA ports, NPU RoCE NICs (hccn_tool)",
	  .subs = probe_commands },
	{ .name = "doctor",
	  .summary = "preflight every node (rank table, NPUs, links, ports, host) and name the root "
		     "cause of a failed job",
	  .run = cmd_doctor, .opts = doctor_opts, .args = "[FILE...]", .max_args = -1,
	  .args_complete = COMPLETE_FILE },
	{ .name = "exec", .summary = "run a command on many hosts over SSH, a report per host",
	  .run = cmd_exec, .opts = exec_opts, .args = "-- COMMAND [ARG...]", .min_args = 1,
	  .max_args = -1 },
	{ .name = "analyze",
	  .summary = "merge flight-recorder dumps of all ranks: missing ranks, divergence, culprit",
	  .run = cmd_analyze, .opts = analyze_opts, .args = "DUMP...", .min_args = 1,
	  .max_args = -1, .args_complete = COMPLETE_FILE },
	{ .name = "run-node", .summary = "the parent of one server's ranks under run --ssh",
	  .run = cmd_run_node, .opts = run_node_opts, .args = "-- run COLLECTIVE ...",
	  .min_args = 2, .max_args = -1, .hidden = 1 },
	{ 0 },
};

int main(int argc, char **argv)
{
	int rc = cli_main(argc, argv, top_commands);
	if (g_opts.strict && rc == EXIT_WARN)
		rc = EXIT_FAIL;
	if (cli_exit_map)
		rc = cli_exit_map(rc);
	out_finish(rc);
	if (rc == EXIT_PIPE) { /* stdout was closed by its reader: end as seq | head does */
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_UNKNOWN;
	return rc;
}
