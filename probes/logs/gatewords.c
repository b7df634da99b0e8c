/* The words of the line automaton's gates that guard the recogniser (catalog.h): data of
 * their own, read by the automaton's builder (catalog.c) and kept beside nothing that calls
 * it, so that the recogniser's files and the catalog do not call each other. */
#include <stddef.h>

#include "probes/logs/catalog.h"

/* The recognition gate: of every branch of hlogmatch.c's recognise_signature, api_line,
 * hlog__chain_line and hlog__watchdog_line, a literal its test needs (the first of a test
 * that needs two, each of a test that takes one of several); link_row's '|' is a gate of its
 * own (below). A line with none of these, no '|', no catalog or inner needle, no IP key, no
 * code token, that is no error and continues nothing (or holds no device key:
 * hlog__devkey_words), is recognised by no branch. tests/unit/test_linegate.c checks every
 * line of the real logs both ways. */
const char *const hlog__recog_words[] = {
	/* hlog__watchdog_line: its own gate's words (below) */
	/* hlog__chain_line */
	"SetupAgent rankNum", "hcom init by file success", "hcclCommInitInfo:", "Listen on ip[",
	"connected p2p timeout", "Wait Enable P2P Failed", "[TaskException]",
	/* recognise_signature */
	"Cluster Exception Location", "Heartbeat", "ROCE CQE ERROR", "cqe error status",
	"cqe err status", "error cqe status", "An error CQE occurred", "EI0013", "EI0005",
	"arguments for collective communication are inconsistent", "CMD information",
	"cmdType check fail", "[RankConsistentImpl][CompareFrame]", ", remote end ",
	"mismatch between collectives",
	"Mismatched collective detected", "collective mismatch error", "EI0016",
	"tlsStatus are inconsistent", "for config \"tls\" is invalid", "rankList for enabled tls",
	"TLS SWITCH", "EI0019", "EJ0003", "have already been bound", "have been bound already",
	"Failed to bind the IP port", "listen start failed", "address already in use",
	"failed to listen", "errno", "listen on ip", "EJ0001", "already in use",
	"another process is using it", "another process is utilizing it", "in use by another",
	"used by another process",
	"Failed to initialize the HCCP process",
	"tsd client wait response fail", "Open TsdClient failed", "ra_rdev_init_check_ip",
	"[check][ip]fail", "inconsistent with the IP address", "EJ0002", "network port is down",
	"state DOWN", "PORT_DOWN", ": down", ": not present", ": absent",
	"ra hdc message process failed", "link down",
	"link status: down", "async event", "async error event", "cclUniqueId from [",
	"[DisplayConnectedRank]", "[DisplayConnectionedRank]",
	"topo exchange server get socket timeout", "topo exchange agent get socket timeout",
	"TopoExchangeAgent", "client socket has timed out", "EI0015", "List of unconnected ranks",
	"Failed to connect agent", "wait socket establish timeout", "Transport init error",
	"EI0009", "fails to connect to dstRank", "detects no exception event",
	"No abnormal periods", "consistency of cluster script behavior",
	"behaviors of different ranks are inconsistent", "EI0006", "Getting socket times out",
	"Get_Socket_Timeout", "EI0002", "has not received the Notify record", "Task run failed",
	"fftsplus task timeout", "stuck notify num", "Entry-Hccl",
	/* api_line */
	"function error:", "errNo[", " fail, error:", "fails to invoke the ", "Check failed:",
	"hcclRet ->", "init failed", "call hccl api failed", "call acl api failed",
	NULL};

/* The watchdog gate: every test of hlog__watchdog_line needs one of these; most lines that
 * open the recognition gate hold none, and its eight searches of each were 1 % of the
 * instructions of judging a log. These words open the recognition gate too. */
const char *const hlog__watchdog_words[] = {
	"Watchdog caught collective operation timeout", "last enqueued", "watchdog got stuck for",
	"Heartbeat monitor timed out", "operations have failed or timed out",
	"taking the entire process down", "watchdog thread terminated with exception",
	"Exception raised from checkTimeout",
	/* the report's tail on a line of its own (a wrapped line) */
	"WorkNCCL(SeqNum=", "WorkHCCL(SeqNum=", NULL};

/* The table gate: a link table's row (hlogsig.c's link_row) needs its bar. A bar is common
 * in lines of no table (logging formats' "[WARNING  | py.warnings ]", result tables): where
 * it was the only word of the recognition gate, every signature was tried on such a line,
 * 80 searches of it; now only link_row is. */
const char *const hlog__pipe_words[] = {"|", NULL};

/* The device gate: every key of hlogmatch.c's device_of holds one of these (in any case). */
const char *const hlog__devkey_words[] = {"chipId:", "phy_id", "dev", NULL};

/* The outcome gate: the stems of the words that state a run's outcome (okwords.c reads a
 * line for one only when the automaton saw a stem: every line of a log is asked). */
const char *const hlog__outcome_stems[] = {"succe", "complet", "finish", "done", "passed",
					     NULL};

/* The context gate: every literal hlogctx.c's hlog__tool_command and hlog__port_line look
 * for (a device tool's name, nvidia-smi's GPU heading, a port table's link layer and active
 * state); a line with none says nothing of the lines below it. */
const char *const hlog__context_words[] = {"hccn_tool",	  "npu-smi",	   "nvidia-smi",
					     "link layer:", "link_layer:", "state: active",
					     "PORT_ACTIVE", "(UUID:",	   NULL};
