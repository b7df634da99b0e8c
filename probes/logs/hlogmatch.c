/* One line's event: a signature (hlogsig.c), an API that failed, an inner error or a code of
 * the catalog, with the device the line names; and the class of each kind of event. The texts
 * matched are those real plogs and screen output print (the fixtures under tests/data/plog and
 * tests/data/real-logs name their sources); what a code means is the catalog's (hcclcodes.c);
 * what a line is evidence of is decided in hlogcause.c. */
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/extract.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"
#include "probes/tool/ptext.h"
#include "ranktable/text.h"

enum hlog_cls hlog__class(const struct hlog_event *e)
{
	switch (e->kind) {
	case HLOG_SOCKET_TIMEOUT:
	case HLOG_NOTIFY_TIMEOUT:
	case HLOG_ROOT_TIMEOUT:
	case HLOG_FFTS_TIMEOUT:
		return HLOG_CLS_CONSEQ;
	case HLOG_WATCHDOG:
		return e->sub == HLOG_SUB_WD_NOTE ? HLOG_CLS_INFO : HLOG_CLS_CONSEQ;
	case HLOG_HEARTBEAT_LOST:
	case HLOG_HEARTBEAT_STUCK:
	case HLOG_HEARTBEAT:
	case HLOG_ERROR_CQE:
	case HLOG_LINK_DOWN:
	case HLOG_MISMATCH:
		return HLOG_CLS_FAULT;
	case HLOG_PORT_BOUND:
	case HLOG_TLS:
	case HLOG_NPU_BUSY:
	case HLOG_DEVICE_IP:
	case HLOG_VERSION:
		return HLOG_CLS_CONFIG;
	case HLOG_INNER:
	case HLOG_CODE:
		switch (e->cat) {
		case HCAT_LINK_DOWN:
		case HCAT_HARDWARE:
		case HCAT_OP_MISMATCH:
			return HLOG_CLS_FAULT;
		case HCAT_NET:
		case HCAT_RESOURCE:
		case HCAT_CONFIG:
		case HCAT_VERSION:
			return HLOG_CLS_CONFIG;
		case HCAT_RANK_STUCK:
			return HLOG_CLS_CONSEQ;
		default:
			return HLOG_CLS_INFO;
		}
	default:
		return HLOG_CLS_INFO;
	}
}

static const char *const dev_keys[] = {
	"chipId:",   "phy_id",	  "devid",   "deviceId=", "localDeviceId", "deviceId",
	"device_id", "device ID", "device[", "devId",	  "Device:",	   "deviceLogicId"};

/* (every key holds one of hlog__devkey_words, gatewords.c) */
/* The device a line names, in the forms real lines use. */
static void device_of(struct pspan m, const struct hlog_line *l, const struct hx_vals *x,
		      struct hlog_event *e)
{
	if (e->dev == HLOG_DEV_NONE_HERE) {
		e->dev = -1;
		return;
	}
	if (e->dev >= 0)
		return;
	for (size_t i = 0; i < sizeof(dev_keys) / sizeof(dev_keys[0]); i++)
		if (hlog__int_after(m, dev_keys[i], &e->dev))
			return;
	/* for a line already recognised (x given), any other form the extractor reads ("(NPU 2;
	 * 60.97 GiB total capacity; ...)", "npu 3", "device(3)") before the device of the line's
	 * header, which is the process's own; a line kept only for its device needs a key above
	 * (a table of ranks and devices is not a failure) */
	const struct hx_val *v = x ? hlog__xfind(x, HX_DEV, HX_THIS) : NULL;
	e->dev = v ? (int)v->n : l->dev;
}

/* "call failed" lines: which call, and the result it gave. */
static int api_line(struct pspan m, struct hlog_event *e)
{
	long long v;
	struct pspan a;
	/* torch_npu: "HCCL function error: HcclGetRootInfo(&hcclID), error code is 11",
	 * "OPS function error: HcclAllreduce, error code is 6" */
	if ((a = hlog__after(m, "function error:")).s) {
		hlog__op_name(m, "function error:", e->op, sizeof(e->op));
		struct pspan c = hlog__after(a, "error code is");
		if (c.s && hlog__num_at(c, &v))
			e->result = v;
		return 1;
	}
	/* the NIC a failed call is about: "ra rdma init failed, devid[0] ip[192.168.20.148]" */
	if (hlog__has(m, " ip[") && (hlog__has(m, "devid") || hlog__has(m, "phy_id")))
		hlog__ip_after(m, " ip[", e->ip, sizeof(e->ip));
	/* HCCL: "errNo[0x0000000005000002]HcclCommInitRootInfo failed", "[Init][RaRdma]errNo[..]
	 * rdma init fail. return: ret[328004]" */
	if ((a = hlog__after(m, "errNo[")).s && hlog__num_at(a, &v)) {
		long long res = herrno_result((unsigned long long)v);
		e->result = res >= 0 ? res : v;
		const char *close = memchr(a.s, ']', a.n);
		if (close) {
			struct pspan rest = {close + 1, a.n - (size_t)(close + 1 - a.s)};
			if (probe__starts(rest, "Hccl"))
				hlog__op_name(rest, "", e->op, sizeof(e->op));
		}
		return 1;
	}
	/* MindIE: "HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4" */
	if (hlog__has(m, "Hccl") && (a = hlog__after(m, " fail, error:")).s && hlog__num_at(a, &v)) {
		e->result = v;
		/* the call is the word just before " fail" */
		const char *end = hlog__find(m, " fail, error:"), *h = end;
		while (h > m.s && ((h[-1] >= 'A' && h[-1] <= 'Z') || (h[-1] >= 'a' && h[-1] <= 'z') ||
				   (h[-1] >= '0' && h[-1] <= '9')))
			h--;
		hlog__op_name((struct pspan){h, (size_t)(end - h)}, "", e->op, sizeof(e->op));
		hlog__int_after(m, "rank:", &e->rank);
		int sz;
		if (hlog__int_after(m, "rankSize:", &sz))
			e->group_size = sz;
		return 1;
	}
	/* "Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl
	 * module. ret = 4" */
	if ((a = hlog__after(m, "fails to invoke the ")).s) {
		hlog__op_name(m, "fails to invoke the ", e->op, sizeof(e->op));
		struct pspan c = hlog__after(a, "ret =");
		if (c.s && hlog__num_at(c, &v))
			e->result = v;
		return 1;
	}
	/* glog's CHECK of a result (xLLM): "Check failed: status == HCCL_SUCCESS (1 vs. 0) HCCL
	 * get root info failed.": the value is the first of "(A vs. B)", whatever the checked
	 * expression holds; then what the message says failed */
	const char *vs =
		hlog__has(m, "Check failed:") && hlog__has(m, "HCCL_SUCCESS") ? hlog__find(m, " vs. ") : NULL;
	const char *num = vs;
	while (num && num > m.s && ((num[-1] >= '0' && num[-1] <= '9') || num[-1] == '-'))
		num--;
	if (num && num < vs && num > m.s && num[-1] == '(' &&
	    hlog__num_at((struct pspan){num, (size_t)(vs - num)}, &v)) {
		e->result = v;
		struct pspan w = hlog__after((struct pspan){vs, m.n - (size_t)(vs - m.s)}, ") ");
		const char *end = w.s ? hlog__find(w, " failed") : NULL;
		if (end && end > w.s)
			snprintf(e->op, sizeof(e->op), "%.*s", (int)(end - w.s), w.s);
		return 1;
	}
	/* "[InitNic]call trace: hcclRet -> 19" */
	if ((a = hlog__after(m, "hcclRet ->")).s && hlog__num_at(a, &v)) {
		e->result = v;
		return 1;
	}
	/* "ra rdma init failed, devid[0] ip[192.168.20.148]": the NIC a failure is about */
	if (hlog__has(m, "init failed") && (hlog__has(m, "devid") || hlog__has(m, "phy_id"))) {
		hlog__ip_after(m, "ip", e->ip, sizeof(e->ip));
		snprintf(e->op, sizeof(e->op), "%s", hlog__has(m, "rdma") ? "rdma init" : "nic init");
		return 1;
	}
	/* torch_npu's ERR codes: "ERR02200 DIST call hccl api failed" */
	if (hlog__has(m, "call hccl api failed") || hlog__has(m, "call acl api failed"))
		return 1;
	return 0;
}


int hlog__recognise(struct pspan m, const struct hlog_line *l, struct hlog_event *e)
{
	struct hlog_hits hits;
	hlog__line_hits(m, &hits);
	return hlog__recognise_hits(m, l, e, &hits);
}

/* the gate (gatewords.c, which a new branch adds its literal to); a continued line that is
 * no error is kept only for a device key (hlog__recognise_hits) */
int hlog__recognise_may(const struct hlog_line *l, const struct hlog_hits *h)
{
	return hlog__hits_any(h) || l->code_at >= 0 || l->error ||
	       (l->cont && hlog__hits_gate(h, HLOG_GATE_DEVKEY));
}

int hlog__recognise_hits(struct pspan m, const struct hlog_line *l, struct hlog_event *e,
			 const struct hlog_hits *h)
{
	if (!hlog__recognise_may(l, h))
		return 0;
	if (l->code_at >= 0)
		snprintf(e->code, sizeof(e->code), "%.*s", l->code_len, l->msg.s + l->code_at);
	const struct hcode *c = e->code[0] ? hcode_find(e->code, strlen(e->code)) : NULL;
	const struct hinner *in = NULL;
	struct hx_vals x;
	hlog__extract_later(m, &x);
	int watch = hlog__hits_gate(h, HLOG_GATE_WATCHDOG);
	int ok = (watch && hlog__watchdog_line(m, l, e, 0)) ||
		 hlog__recognise_signature(m, &x, h, e);
	/* the rest of the stack: NCCL, torch, Gloo, MPI, the tests, engines and the kernel (before
	 * the inner errors, whose "out of memory" would take the kernel's OOM killer for the
	 * device's) */
	if (!ok && hlog__sig_match(m, &x, e, h))
		ok = 1;
	/* a library call NCCL makes to learn what the NIC offers, failing at INFO (logline.c
	 * judged its errno informational), is a probe it goes on from: "NCCL INFO Call to
	 * mlx5dv_get_data_direct_sysfs_path failed with error No such device errno 19" on a NIC
	 * without Data Direct. The same words at WARN are the failure; so is a connect's errno at
	 * INFO ("socketPollConnect ... No route to host"), which no "Call to" names */
	if (ok && l->info_errno && !strncmp(e->detail, "errno-", 6) && hlog__has(m, "Call to "))
		return 0; /* the event is dropped, as on every 0 */
	/* nor is a failure's text on a line a benign form vouches for whole, and so no error
	 * (c10d trying one address of several: "The client socket has failed to connect to
	 * [localhost]:18630 (errno: 99 - Cannot assign requested address).") */
	if (ok && !l->error && hlog__benign_at(m, 0, m.n) >= 0)
		return 0;
	if (!ok && (in = hlog__hits_inner(h))) {
		e->kind = in->cat == HCAT_VERSION ? HLOG_VERSION : HLOG_INNER;
		e->cat = in->cat;
		snprintf(e->detail, sizeof(e->detail), "%s", in->detail);
		/* a check that names the two ranks it compared: "Current device info: ...,
		 * rankId[0], ... Another device info: rankId[1]" */
		const char *other = hlog__find(m, "Another device info");
		if (other) {
			hlog__int_after((struct pspan){m.s, (size_t)(other - m.s)}, "rankId", &e->rank);
			hlog__int_after((struct pspan){other, m.n - (size_t)(other - m.s)}, "rankId",
				  &e->peer_rank);
		}
		ok = 1;
	}
	if (!ok && api_line(m, e)) {
		e->kind = HLOG_API;
		e->cat = e->result >= 0 ? hresult_cat(e->result) : HCAT_UNRESOLVED;
		ok = 1;
	}
	if (!ok && c) {
		e->kind = HLOG_CODE;
		e->cat = c->cat;
		ok = 1;
	}
	if (!ok && watch && hlog__watchdog_line(m, l, e, 1))
		return 1;
	/* an error line, or an indented line of an error block, that names a device ("Fail to
	 * get sq reg virtual addr, deviceId=2", "creat qp failed, localDeviceId[11]"): kept as
	 * context, so the cause can name every device involved */
	if (!ok && (l->cont || l->error)) {
		/* any form of device the extractor reads counts on a line whose own words say it
		 * failed ("open device 2 failed"); on a plain line of the block only a key does (a
		 * table of ranks and devices is no failure) */
		device_of(m, l, l->error ? &x : NULL, e);
		if (e->dev < 0 || e->dev == l->dev)
			return 0;
		e->kind = HLOG_API;
		e->cat = HCAT_UNRESOLVED;
		ok = 1;
	}
	if (!ok)
		return 0;
	int own = e->rank < 0 && !e->group[0] && e->sub != HLOG_SUB_DETECT;
	if (own && !l->rank_label)
		e->rank = l->rank;
	/* a rank the line names as its own ("with info [aicpu rank:7,localUserrank:7,...]")
	 * where its header said none (torch_npu's "RankID:-1") or only srun's label did */
	if (e->rank < 0 && own && !hlog__xgroup(&x)[0]) {
		const struct hx_val *rv = hlog__xfind(&x, HX_RANK, HX_THIS);
		if (rv && rv->n >= 0 && rv->n <= 0x7fffffff)
			e->rank = (int)rv->n;
	}
	/* srun's label, when nothing better names it, is taken after the message's head
	 * (hccllog.c's ctx_event): the heading of an error stack names the rank in words */
	device_of(m, l, &x, e);
	if (!e->cat) {
		static const int cats[HLOG_NKINDS] = {
			[HLOG_SOCKET_TIMEOUT] = HCAT_NET,	   [HLOG_NOTIFY_TIMEOUT] = HCAT_RANK_STUCK,
			[HLOG_ROOT_TIMEOUT] = HCAT_NET,		   [HLOG_FFTS_TIMEOUT] = HCAT_RANK_STUCK,
			[HLOG_HEARTBEAT_LOST] = HCAT_RANK_STUCK,   [HLOG_HEARTBEAT_STUCK] = HCAT_RANK_STUCK,
			[HLOG_HEARTBEAT] = HCAT_RANK_STUCK,	   [HLOG_ERROR_CQE] = HCAT_LINK_DOWN,
			[HLOG_LINK_DOWN] = HCAT_LINK_DOWN,	   [HLOG_MISMATCH] = HCAT_OP_MISMATCH,
			[HLOG_DETECT_NONE] = HCAT_OP_MISMATCH,	   [HLOG_PORT_BOUND] = HCAT_CONFIG,
			[HLOG_TLS] = HCAT_CONFIG,		   [HLOG_NPU_BUSY] = HCAT_RESOURCE,
			[HLOG_DEVICE_IP] = HCAT_CONFIG,		   [HLOG_VERSION] = HCAT_VERSION,
			[HLOG_TLS_SWITCH] = HCAT_NONE,		   [HLOG_ENTRY] = HCAT_NONE,
		};
		e->cat = e->kind > 0 && e->kind < HLOG_NKINDS ? cats[e->kind] : HCAT_UNRESOLVED;
		if (e->sub == HLOG_SUB_STUCK)
			e->cat = HCAT_RANK_STUCK;
	}
	return 1;
}
