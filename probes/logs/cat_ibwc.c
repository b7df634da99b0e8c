/* libibverbs' completion statuses as catalog rows. The statuses are the values of enum
 * ibv_wc_status in libibverbs' <infiniband/verbs.h> (rdma-core); NCCL's NET/IB transport prints
 * the one a failed work request completed with ("Got completion from peer 10.0.0.2<40554> with
 * status=IBV_WC_RETRY_EXC_ERR(12)", older releases "with error 12"). What each means for a
 * collective job, and what to do, is ours. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/logtext.h"

#define IB(name, cat, meaning, fix) {{NULL}, cat, name, meaning, fix, 0, NULL}

static const char ib_net_fix[] =
	"check the port on both hosts (ibstat / ibv_devinfo: State Active, Physical state LinkUp), "
	"their error counters (perfquery, ethtool -S for RoCE), the cable and the switch port; if "
	"the peer process had already exited, its own log holds the cause";
static const char ib_mem_fix[] =
	"memory registration or GPUDirect RDMA failed the check: load nvidia-peermem (or use "
	"NCCL_NET_GDR_LEVEL=LOC to test without it), check ulimit -l (unlimited) and the IOMMU / "
	"ACS settings of the PCIe switches";

/* Indexed by the status value. */
static const struct hlog_sig ib_wc[] = {
	IB("ib-success", HCAT_NONE, "the work request completed", ""),
	IB("ib-loc-len", HCAT_OP_MISMATCH,
	   "a message was longer than the receive buffer posted for it (sizes differ between ranks)",
	   "make every rank issue the same collective with the same count and type"),
	IB("ib-loc-qp-op", HCAT_CONFIG, "the queue pair could not run the request (bad QP setup)",
	   ib_mem_fix),
	IB("ib-loc-eec-op", HCAT_CONFIG, "the end-to-end context could not run the request",
	   ib_mem_fix),
	IB("ib-loc-prot", HCAT_CONFIG,
	   "the NIC was refused access to a local buffer (protection error): its memory "
	   "registration does not cover it",
	   ib_mem_fix),
	IB("ib-wr-flush", HCAT_RANK_STUCK,
	   "the request was flushed because its queue pair had already failed: a consequence of "
	   "an earlier error on the same connection",
	   "look for the first completion error before it, on this host and on the peer"),
	IB("ib-mw-bind", HCAT_CONFIG, "a memory window could not be bound", ib_mem_fix),
	IB("ib-bad-resp", HCAT_LINK_DOWN, "the peer's NIC answered with a response of the wrong type",
	   ib_net_fix),
	IB("ib-loc-access", HCAT_CONFIG, "the NIC could not access a local buffer", ib_mem_fix),
	IB("ib-rem-inv-req", HCAT_OP_MISMATCH,
	   "the peer refused the request as invalid (a message larger than it posted for, or an "
	   "operation it does not allow)",
	   "make every rank issue the same collectives with the same sizes; check that both ends "
	   "run the same NCCL version"),
	IB("ib-rem-access", HCAT_CONFIG,
	   "the peer refused access to its buffer (remote access error): its registration does not "
	   "cover the request, or the wrong NIC was picked",
	   "select the NICs that reach each other (NCCL_IB_HCA) and check GPUDirect RDMA on the "
	   "peer (nvidia-peermem)"),
	IB("ib-rem-op", HCAT_LINK_DOWN, "the peer's NIC could not complete the operation", ib_net_fix),
	IB("ib-retry-exceeded", HCAT_LINK_DOWN,
	   "the transport gave up after its retries (no acknowledgement from the peer): the link or "
	   "the switch path dropped packets, or the peer process had died",
	   ib_net_fix),
	IB("ib-rnr-retry-exceeded", HCAT_RANK_STUCK,
	   "the peer posted no receive in time (receiver not ready) after every retry: the peer "
	   "process is stuck or gone",
	   "find why the peer stopped receiving: its own log, a hang, or its exit"),
	IB("ib-loc-rdd-viol", HCAT_CONFIG, "reliable datagram domain violation", ib_mem_fix),
	IB("ib-rem-inv-rd-req", HCAT_CONFIG, "the peer refused an RDMA read as invalid", ib_mem_fix),
	IB("ib-rem-abort", HCAT_RANK_STUCK, "the peer aborted the operation",
	   "read the peer's log for why it aborted"),
	IB("ib-inv-eecn", HCAT_CONFIG, "invalid end-to-end context number", ib_mem_fix),
	IB("ib-inv-eec-state", HCAT_CONFIG, "invalid end-to-end context state", ib_mem_fix),
	IB("ib-fatal", HCAT_HARDWARE, "the NIC reported a fatal error",
	   "check the NIC (dmesg for mlx5 / firmware errors, mlxlink / ibstat), reset or replace it"),
	IB("ib-resp-timeout", HCAT_LINK_DOWN, "the peer's response did not arrive in time", ib_net_fix),
	IB("ib-general", HCAT_HARDWARE, "the NIC reported a general error",
	   "check the NIC's kernel messages and firmware"),
	IB("ib-tm", HCAT_CONFIG, "tag matching error", ib_mem_fix),
	IB("ib-tm-rndv-incomplete", HCAT_CONFIG, "tag matching rendezvous did not complete",
	   ib_mem_fix),
};

/* Same order as ib_wc; a test checks them against <infiniband/verbs.h>. */
static const char *const ib_wc_name[] = {
	"IBV_WC_SUCCESS",	   "IBV_WC_LOC_LEN_ERR",	"IBV_WC_LOC_QP_OP_ERR",
	"IBV_WC_LOC_EEC_OP_ERR",   "IBV_WC_LOC_PROT_ERR",	"IBV_WC_WR_FLUSH_ERR",
	"IBV_WC_MW_BIND_ERR",	   "IBV_WC_BAD_RESP_ERR",	"IBV_WC_LOC_ACCESS_ERR",
	"IBV_WC_REM_INV_REQ_ERR",  "IBV_WC_REM_ACCESS_ERR",	"IBV_WC_REM_OP_ERR",
	"IBV_WC_RETRY_EXC_ERR",	   "IBV_WC_RNR_RETRY_EXC_ERR",	"IBV_WC_LOC_RDD_VIOL_ERR",
	"IBV_WC_REM_INV_RD_REQ_ERR", "IBV_WC_REM_ABORT_ERR",	"IBV_WC_INV_EECN_ERR",
	"IBV_WC_INV_EEC_STATE_ERR", "IBV_WC_FATAL_ERR",		"IBV_WC_RESP_TIMEOUT_ERR",
	"IBV_WC_GENERAL_ERR",	   "IBV_WC_TM_ERR",		"IBV_WC_TM_RNDV_INCOMPLETE",
};

#define NIB (sizeof(ib_wc) / sizeof(ib_wc[0]))
_Static_assert(sizeof(ib_wc_name) / sizeof(ib_wc_name[0]) == NIB, "one name per status");

const struct hlog_sig *hlog__ib_status(long long status)
{
	return status >= 0 && (size_t)status < NIB ? &ib_wc[status] : NULL;
}

const char *hlog__ib_status_name(long long status)
{
	return status >= 0 && (size_t)status < NIB ? ib_wc_name[status] : NULL;
}

/*
 * libibverbs' asynchronous events (enum ibv_event_type), by the names ibv_event_type_str()
 * gives them (rdma-core's libibverbs/enum_strs.c): NCCL prints "NET/IB : Got async event :
 * local catastrophic error" and "async fatal event on QP (...): local access violation work
 * queue error", Open MPI and UCX the same names. Only the events that report a failure have a
 * kind; the others (port active, LID change, ...) are NULL. Indexed by the enum's value; a
 * test checks every name against the installed libibverbs.
 */
static const char ib_hca_fix[] =
	"take the node out of the job and check the NIC: its kernel messages (dmesg: mlx5 health "
	"or syndrome lines), firmware (mlxfwreset / flint), then reset or replace it";
static const struct {
	const char *name;
	struct hlog_sig row;
} ib_ev[] = {
	{"CQ error", IB("ib-ev-cq", HCAT_UNRESOLVED,
			"a completion queue failed (overrun: more work requests than it was sized "
			"for)", "read the log of the library that owns the queue for the request "
			"that overran it")},
	{"local work queue catastrophic error",
	 IB("ib-ev-qp-fatal", HCAT_HARDWARE,
	    "the NIC could not go on with a queue pair and stopped it (a work queue "
	    "catastrophic error)", ib_hca_fix)},
	{"invalid request local work queue error",
	 IB("ib-ev-qp-req", HCAT_OP_MISMATCH,
	    "the peer's request was invalid for this queue pair (an operation it does not allow "
	    "or a message longer than posted for)",
	    "make every rank issue the same collectives with the same sizes; check that both ends "
	    "run the same library versions")},
	{"local access violation work queue error",
	 IB("ib-ev-qp-access", HCAT_UNRESOLVED,
	    "a request broke the memory protection of a queue pair (a key or access right the "
	    "registration does not give): the software that registered the memory or posted the "
	    "request is at fault, which the event does not name",
	    "compare with a library release that worked (NCCL and its net plugin register memory "
	    "differently between releases); check GPUDirect RDMA (nvidia-peermem loaded, or "
	    "NCCL_NET_GDR_LEVEL=LOC to test without it) and ulimit -l")},
	{"communication established", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"send queue drained", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"path migrated", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"path migration request error",
	 IB("ib-ev-path-mig", HCAT_LINK_DOWN, "moving a connection to its alternate path failed",
	    ib_net_fix)},
	{"local catastrophic error",
	 IB("ib-ev-device-fatal", HCAT_HARDWARE,
	    "the NIC reported a catastrophic error of the device itself: every connection on it "
	    "is lost until it is reset",
	    ib_hca_fix)},
	{"port active", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"port error",
	 IB("ib-ev-port", HCAT_LINK_DOWN, "a port of the NIC left the active state (link down)",
	    ib_net_fix)},
	{"LID change", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"P_Key change", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"SM change", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"SRQ catastrophic error",
	 IB("ib-ev-srq-fatal", HCAT_HARDWARE, "the NIC could not go on with a shared receive queue",
	    ib_hca_fix)},
	{"SRQ limit reached", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"last WQE reached", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"client reregistration", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"GID table change", {{NULL}, HCAT_NONE, NULL, NULL, NULL, 0, NULL}},
	{"WQ fatal",
	 IB("ib-ev-wq-fatal", HCAT_HARDWARE, "the NIC could not go on with a work queue",
	    ib_hca_fix)},
};
#define NEV (sizeof(ib_ev) / sizeof(ib_ev[0]))

const char *hlog__ib_event_name(long long ev)
{
	return ev >= 0 && (size_t)ev < NEV ? ib_ev[ev].name : NULL;
}

const struct hlog_sig *hlog__ib_event(long long ev)
{
	return ev >= 0 && (size_t)ev < NEV && ib_ev[ev].row.detail ? &ib_ev[ev].row : NULL;
}

/* The failure event a line names, the longest name found (one name can end another's):
 * the event's kind and row, or 0 to leave the line to the other rows. */
static int ib_event(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	size_t best = NEV, len = 0;
	if (!hlog__has_nocase(m, "async"))
		return 0;
	for (size_t i = 0; i < NEV; i++)
		if (strlen(ib_ev[i].name) > len && hlog__has(m, ib_ev[i].name))
			best = i, len = strlen(ib_ev[i].name);
	if (best == NEV || !ib_ev[best].row.detail)
		return 0;
	e->cat = ib_ev[best].row.cat;
	e->value = (long long)best;
	snprintf(e->detail, sizeof(e->detail), "%s", ib_ev[best].row.detail);
	return 1;
}

/*
 * A completion error as the mlx5 provider's users word its syndrome: UCX's ib_mlx5_log.c (and
 * NVIDIA's SNAP/SPDK, which copy it) print "Transport retry count exceeded on mlx5_0:1/IB (synd
 * 0x15 vend 0x81 hw_synd 0/0)" or "Error on QP 0x.. wqe[..]: Remote access (synd 0x..)". Each
 * text is the syndrome of one enum ibv_wc_status value, whose row is the meaning. Longest
 * first where one text holds another.
 */
static const struct {
	const char *text;
	int status;
} mlx5_synd[] = {
	{"Receive-no-ready retry count exceeded", 13}, {"Transport retry count exceeded", 12},
	{"WR flushed because QP in error state", 5},   {"Local QP operation", 2},
	{"Local protection", 4},			{"Memory window bind", 6},
	{"Remote side aborted", 16},			{"Local length", 1},
	{"Bad response", 7},				{"Local access", 8},
	{"Invalid request", 9},				{"Remote access", 10},
	{"Remote QP", 11},
};

static int ib_syndrome(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	for (size_t i = 0; i < sizeof(mlx5_synd) / sizeof(mlx5_synd[0]); i++) {
		const struct hlog_sig *s = hlog__ib_status(mlx5_synd[i].status);
		if (!hlog__has(m, mlx5_synd[i].text) || !s)
			continue;
		e->cat = s->cat;
		e->value = mlx5_synd[i].status;
		snprintf(e->detail, sizeof(e->detail), "%s", s->detail);
		return 1;
	}
	return 0;
}

/* Open MPI's openib BTL on a failed completion (btl_openib_component.c): "from node14 to:
 * node40 error polling HP CQ with status RETRY EXCEEDED ERROR status number 12 for wr_id ...",
 * its own name of the status and then the number, which is the enum ibv_wc_status value. A
 * mail archive wraps the line after "with status": the part with the number is read alone. */
static int ompi_status(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	long long v;
	struct pspan a = hlog__after(m, "status number");
	if (!(hlog__has(m, "with status") || hlog__has(m, "ERROR status number")) || !a.s ||
	    !hlog__num_at(a, &v))
		return 0;
	const struct hlog_sig *s = hlog__ib_status(v);
	if (!s || v <= 0)
		return 0;
	e->cat = s->cat;
	e->value = v;
	snprintf(e->detail, sizeof(e->detail), "%s", s->detail);
	return 1;
}

/* A failed completion as libibverbs' ibv_wc_status_str() names its status (rdma-core's
 * libibverbs/enum_strs.c), which transfer engines and UCX print: "... retry_cnt: 0): transport
 * retry counter exceeded", "send completion[0] with error on rdmap132s0: Work Request Flushed
 * Error". Indexed by the enum ibv_wc_status value; a test checks every text against the
 * installed libibverbs. NULL where the text is too plain to tell a verbs completion from any
 * other failure ("success", "operation aborted", "fatal error", "general error", "TM error",
 * "response timeout error"). */
#define IB_WC_TEXTS(X)                                                                         \
	X(1, "local length error")                                                             \
	X(2, "local QP operation error")                                                       \
	X(3, "local EE context operation error")                                               \
	X(4, "local protection error")                                                         \
	X(5, "Work Request Flushed Error")                                                     \
	X(6, "memory management operation error")                                              \
	X(7, "bad response error")                                                             \
	X(8, "local access error")                                                             \
	X(9, "remote invalid request error")                                                   \
	X(10, "remote access error")                                                           \
	X(11, "remote operation error")                                                        \
	X(12, "transport retry counter exceeded")                                              \
	X(13, "RNR retry counter exceeded")                                                    \
	X(14, "local RDD violation error")                                                     \
	X(15, "remote invalid RD request")                                                     \
	X(17, "invalid EE context number")                                                     \
	X(18, "invalid EE context state")                                                      \
	X(23, "TM software rendezvous")
#define WC_TEXT_AT(v, text) [v] = text,
static const char *const ib_wc_text[NIB] = {IB_WC_TEXTS(WC_TEXT_AT)};

const char *hlog__ib_status_text(long long status)
{
	return status >= 0 && (size_t)status < NIB ? ib_wc_text[status] : NULL;
}

/* The status whose text the line holds, the longest where one holds another ("local access
 * error" is not in "remote access error", but a longer text wins all the same). */
static int ib_wctext(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)x;
	size_t best = NIB, len = 0;
	for (size_t i = 0; i < NIB; i++) {
		size_t l = ib_wc_text[i] ? strlen(ib_wc_text[i]) : 0;
		if (l > len && hlog__has(m, ib_wc_text[i]))
			best = i, len = l;
	}
	const struct hlog_sig *s = best < NIB ? hlog__ib_status((long long)best) : NULL;
	if (!s)
		return 0;
	e->cat = s->cat;
	e->value = (long long)best;
	snprintf(e->detail, sizeof(e->detail), "%s", s->detail);
	return 1;
}

/* One row per text, so that the line automaton finds each by its own words. */
#define WC_TEXT_ROW(v, text)                                                                   \
	{{text}, HCAT_LINK_DOWN, "ib-wc-text-" #v,                                             \
	 "an InfiniBand/RoCE work request completed with an error (libibverbs' name of its "   \
	 "status says which)",                                                                 \
	 ib_net_fix, 0, ib_wctext},

static const struct hlog_sig verbs_rows[] = {
	{{"status number"}, HCAT_LINK_DOWN, "ompi-openib-status",
	 "an InfiniBand work request completed with an error (the status says which)", ib_net_fix,
	 0, ompi_status},
	{{"(synd 0x"}, HCAT_LINK_DOWN, "ib-syndrome",
	 "an InfiniBand/RoCE work request completed with an error (the syndrome's words say "
	 "which)", ib_net_fix, 0, ib_syndrome},
	{{"event"}, HCAT_HARDWARE, "ib-async-event",
	 "the NIC raised an asynchronous error event (the event's name says which)", ib_hca_fix, 0,
	 ib_event},
	IB_WC_TEXTS(WC_TEXT_ROW)
};

const struct hlog_sigtab hlog__cat_verbs = {"verbs", verbs_rows,
					     sizeof(verbs_rows) / sizeof(verbs_rows[0])};
