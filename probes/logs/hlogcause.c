/* From events to one most likely cause. The order of reasoning: a fault or a configuration
 * cause that explains the rest (a down NIC explains the listen failure and the timeouts after
 * it; a dead rank the heartbeats and notify timeouts of the others) is preferred to the waits
 * it causes; only when there is none are the waits followed to the rank they point at. Waits
 * from one rank toward many peers, local and remote alike, are this node's network, not many
 * dead peers. Ranks are compared only within one group: HCCL numbers the ranks of each
 * sub-communicator from 0. Nothing that reads as an error is ever concluded to be "none". The families
 * of causes are hlogfault.c, hlogconfig.c, hlogroot.c and hlogwait.c; this file orders
 * them. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/bundle.h"
#include "probes/logs/catalog.h"
#include "probes/logs/extract.h"
#include "probes/logs/logtext.h"
#include "probes/logs/hlogcause.h"
#include "ranktable/base/plural.h"

static int ev_cmp(const void *pa, const void *pb)
{
	const struct hlog_event *a = pa, *b = pb;
	if ((a->t_us < 0) != (b->t_us < 0))
		return a->t_us < 0 ? 1 : -1;
	if (a->t_us != b->t_us)
		return a->t_us < b->t_us ? -1 : 1;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Nothing decided: the calls that failed, else the first unexplained error line. */
static void conclude_unresolved(struct hlog_report *r)
{
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	const struct hlog_event *api = NULL, *any = NULL, *named = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_ENTRY || e->kind == HLOG_TLS_SWITCH || e->kind == HLOG_PLACE)
			continue;
		if (!any)
			any = e;
		if (!api && e->kind == HLOG_API && (e->op[0] || e->result >= 0))
			api = e;
		/* a row of the tables that knows what failed but not whose fault it is (an AI
		 * core's exception, a task fault's code, a crash); not the wrapper of an inner
		 * error, whose cause is in the lines after it */
		if (!named && e->kind == HLOG_INNER && e->cat == HCAT_UNRESOLVED && e->detail[0] &&
		    strcmp(e->detail, "inner-error"))
			named = e;
	}
	/* no failed call to name: the named row says what failed, where, and what to read */
	if (!api && named) {
		r->kind = named->kind;
		r->first = named;
		hlog__conclude_catalog(r, named);
		return;
	}
	/* the same call may be reported again with its rank ("HcclCommInitRootInfo fail,
	 * error:2, rank:1, rankSize:4") */
	for (size_t i = 0; api && i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		if (e->kind == HLOG_API && e->rank >= 0 && api->rank < 0 && e->fi == api->fi &&
		    !strcmp(e->op, api->op)) {
			add_evidence(r, api);
			api = e;
		}
	}
	const struct hlog_event *c = api ? api : any;
	if (c) {
		r->kind = c->kind;
		r->first = c;
		r->rank = hlog__ev_rank(r, c);
		r->dev = c->dev;
		hlog__fill_context(r, c);
		snprintf(r->node, sizeof(r->node), "%s", c->node);
		if (api) {
			const char *rn = api->result >= 0 ? hresult_name(api->result) : NULL;
			sb_add(&b, "%s failed on node %s", api->op[0] ? api->op : "an HCCL call",
			       hlog__node_of(api));
			if (r->rank >= 0)
				sb_add(&b, ", rank %d", r->rank);
			if (api->group_size > 0)
				sb_add(&b, " of %d", api->group_size);
			if (r->dev >= 0)
				sb_add(&b, ", device %d", r->dev);
			if (api->result >= 0)
				sb_add(&b, ", with %s%s%lld%s", rn ? rn : "error ", rn ? " (" : "",
				       api->result, rn ? ")" : "");
			const char *m = api->result >= 0 ? hresult_meaning(api->result) : NULL;
			if (m && m[0])
				sb_add(&b, ": %s", m);
			int known = api->result >= 0 && hresult_cat(api->result) != HCAT_UNRESOLVED;
			sb_add(&b, "%s", known ? " (only the result code says so)" : "; no line says why");
		} else {
			sb_add(&b, "%s on node %s, and no line says why",
			       c->code[0] ? c->code : hlog_kind_name(c->kind), hlog__node_of(c));
		}
		int cat = api && api->result >= 0 ? hresult_cat(api->result) : HCAT_UNRESOLVED;
		int known = cat > HCAT_NONE && cat < HCAT_N && cat != HCAT_UNRESOLVED;
		hlog__set_what(r, known ? cat : HCAT_UNRESOLVED, known ? "result-code" : "no-explanation");
		hlog__set_fix(r, "collect the plogs of every rank (~/ascend/log/debug/plog on each node, "
			   "with ASCEND_GLOBAL_LOG_LEVEL=1 for more) and run this again on them; the "
			   "first error by time is the cause");
		add_evidence(r, c);
		for (size_t i = 0; i < r->nev; i++)
			if (r->ev[i].fi == c->fi && r->ev[i].head == c->head)
				add_evidence(r, &r->ev[i]);
		return;
	}
	if (r->nunk) {
		const struct hlog_unk *u = &r->unk[0];
		/* where it is, so that a reader can go to it */
		sb_add(&b, "unclassified error line at %s:%u: %.300s", u->file, u->line, u->text);
		snprintf(r->node, sizeof(r->node), "%s", u->node);
		hlog__set_what(r, HCAT_UNRESOLVED, "unclassified");
		/* the address, port and rank it names are where to look first */
		hlog__take_values(r, u->text);
		hlog__set_fix(r, "read the lines around it; if it is an HCCL or CANN failure this tool "
			   "does not know yet, the first error by time across all ranks' logs is the "
			   "place to start");
		struct hlog_quote *q = &r->evidence[r->nevidence++];
		snprintf(q->file, sizeof(q->file), "%s", u->file);
		q->line = u->line;
		snprintf(q->text, sizeof(q->text), "%s", u->text);
	}
}

/* A device the kernel or its driver names by its PCI address ("NVRM: Xid (PCI:0000:91:00): 79",
 * "amdgpu 0000:1c:00.0: amdgpu: uncorrectable hardware error"): for a fault of the device
 * itself or of its link, the first address in the lines behind the cause is the one to pull. */
static void pci_of_cause(struct hlog_report *r)
{
	if (r->cat != HCAT_HARDWARE && r->cat != HCAT_LINK_DOWN)
		return;
	for (size_t i = 0; i < r->nevidence && !r->pci[0]; i++)
		hlog__line_pci(r->evidence[i].text, r->pci, sizeof(r->pci));
}

/* The RDMA device of a line of file within 3 lines of q, as the cause's NIC. */
static void nic_near(struct hlog_report *r, const struct hlog_quote *q, const char *file,
		     unsigned line, const char *text)
{
	if (!strcmp(file, q->file) && line + 3 >= q->line && line <= q->line + 3)
		hlog__line_rdma(text, r->nic, sizeof(r->nic));
}

/* A cause whose lines name no rank has the rank their writer states as its own elsewhere in
 * its file (BKCL's "myrank 0" under "BKCL dont support send to one peer multi times", Open
 * MPI's "*** reported by process [1564344321,1]" under UCX's failed registration). Not for a
 * wait that ran out: the writer of that line is the one that waited, not the culprit. */
static void rank_of_writer(struct hlog_report *r)
{
	if (r->rank >= 0 || r->group[0] || !r->nevidence || r->cat == HCAT_NONE ||
	    r->cat == HCAT_RANK_STUCK || r->kind == HLOG_ROSTER)
		return;
	const struct hlog_file *f = hlog__file_named(r, r->evidence[0].file);
	if (f && f->self_rank >= 0)
		r->rank = f->self_rank;
}

/* A failure of unknown cause that names no rank has the rank a launcher says ended, in the
 * first unexplained line of its node that names one rank as the subject and says it ended:
 * Open MPI's "mpirun noticed that process rank 3 with PID 0 on node ubuntu154 exited on
 * signal 11 (Segmentation fault).", Paddle's launcher "Container rank 1 status failed cmd
 * [...] code 1 log log/workerlog.1". The crash or error quoted is that rank's, so it is the
 * one to read first. */
static void rank_that_ended(struct hlog_report *r)
{
	static const char *const ended[] = {"exited", "failed", "aborted", "killed", "crashed",
					    "terminated", "died"};
	if (r->rank >= 0 || r->group[0] || r->cat != HCAT_UNRESOLVED || !r->nunk)
		return;
	const char *node = r->reported_on[0] ? r->reported_on : r->unk[0].node;
	for (size_t i = 0; i < r->nunk && i < HLOG_MAX_UNK; i++) {
		const struct hlog_unk *u = &r->unk[i];
		struct pspan t = {u->text, strlen(u->text)};
		if (strcmp(u->node, node))
			continue;
		int says = 0;
		for (size_t k = 0; k < sizeof(ended) / sizeof(ended[0]) && !says; k++)
			says = hlog__has_nocase(t, ended[k]);
		struct hx_vals x;
		const struct hx_val *v;
		if (!says)
			continue;
		hlog__extract(t, &x);
		if ((v = hlog__xfind(&x, HX_RANK, HX_THIS)) && v->n >= 0 && v->n <= 1 << 24) {
			r->rank = (int)v->n;
			return;
		}
	}
}

/* The NIC a cause's lines name by its RDMA device ("link mlx5_2/1 state DOWN ...",
 * "ibv_create_ah(...) for UD verbs connect on bnxt_re0 failed"): whatever the failure, the
 * NIC it went through is where an operator looks. */
static void nic_of_cause(struct hlog_report *r)
{
	for (size_t i = 0; i < r->nevidence && !r->nic[0]; i++)
		hlog__line_rdma(r->evidence[i].text, r->nic, sizeof(r->nic));
	/* else the error lines right around the first one, its message spread over a few
	 * (UCX's "ibv_reg_mr(...) failed" above "failed to register address ... on
	 * md[3]=mlx4_0") */
	const struct hlog_quote *q = r->nevidence ? &r->evidence[0] : NULL;
	for (size_t i = 0; q && i < r->nev && !r->nic[0]; i++)
		nic_near(r, q, r->ev[i].file, r->ev[i].line, r->ev[i].text);
	for (size_t i = 0; q && i < r->nunk && i < HLOG_MAX_UNK && !r->nic[0]; i++)
		nic_near(r, q, r->unk[i].file, r->unk[i].line, r->unk[i].text);
	/* else the heading of the block the first line is indented under */
	for (size_t i = 0; q && i < r->nev && !r->nic[0]; i++)
		if (r->ev[i].line == q->line && !strcmp(r->ev[i].file, q->file))
			snprintf(r->nic, sizeof(r->nic), "%s", r->ev[i].head_nic);
}

/* Lines without a time before a file's first timed one (NCCL's WARN lines above the
 * framework's timed error they led to) happened before it: they take its time, so that the
 * order by time keeps the file's own order instead of putting them after every timed line.
 * A line with a time of its own that has no year (glog's) may be later: it is left. A
 * file's events are in the order of its lines. */
static void time_leading_lines(struct hlog_report *r)
{
	int64_t next = -1;
	for (size_t i = r->nev; i-- > 0;) {
		if (i + 1 < r->nev && r->ev[i].fi != r->ev[i + 1].fi)
			next = -1;
		if (r->ev[i].t_us >= 0)
			next = r->ev[i].t_us;
		else if (next >= 0 && !r->ev[i].yearless)
			r->ev[i].t_us = next;
	}
}

int hlog_conclude(struct hlog_report *r)
{
	if (!r)
		return -EINVAL;
	hlog__lone_frame_error(r);
	time_leading_lines(r);
	if (r->nev > 1)
		qsort(r->ev, r->nev, sizeof(*r->ev), ev_cmp);
	hlog__share_ranks(r);
	hlog__name_nodes(r);
	r->kind = HLOG_NONE;
	r->cat = HCAT_NONE;
	r->node[0] = r->ip[0] = r->peer_ip[0] = r->cause[0] = r->fix[0] = '\0';
	r->detail[0] = r->group[0] = r->reported_on[0] = r->pci[0] = r->nic[0] = '\0';
	r->rank = r->peer_rank = r->dev = -1;
	r->ndevs = 0;
	r->port = -1;
	r->first = NULL;
	r->nevidence = r->nfindings = 0;
	r->nchain = 0;
	r->loop = -1;
	const struct hlog_event *c = NULL;
	for (size_t i = 0; i < r->nev; i++)
		if (hlog__weight(&r->ev[i]) > (c ? hlog__weight(c) : 0))
			c = &r->ev[i];
	int rows = 0;
	const struct hlog_event *tls = hlog__tls_split(r, &rows);
	if (tls && (!c || ev_cmp(tls, c) < 0)) {
		r->kind = HLOG_TLS;
		r->first = tls;
		hlog__conclude_tls_split(r, tls, rows);
	} else if (c) {
		r->kind = c->kind;
		r->first = c;
		if (hlog__is_heartbeat(c->kind))
			hlog__conclude_heartbeat(r, c);
		else if (c->kind == HLOG_ERROR_CQE)
			hlog__conclude_cqe(r, c);
		else if (c->kind == HLOG_MISMATCH)
			hlog__conclude_mismatch(r, c);
		else if (c->kind == HLOG_INNER || c->kind == HLOG_CODE || c->kind == HLOG_VERSION)
			hlog__conclude_catalog(r, c);
		else
			hlog__conclude_config(r, c);
	} else {
		hlog__conclude_chain(r);
	}
	if (r->kind == HLOG_NONE)
		conclude_unresolved(r);
	if (r->cat == HCAT_NONE && (r->nunk || r->kind != HLOG_NONE))
		hlog__set_what(r, HCAT_UNRESOLVED, "unclassified");
	/* no rule of ours explains it: the knowledge base may */
	hlog__kb_conclude(r);
	/* nor the knowledge base: the words of the line still say the family */
	if (r->cat == HCAT_UNRESOLVED &&
	    (!strcmp(r->detail, "unclassified") || !strcmp(r->detail, "no-explanation")))
		hlog__words_conclude(r);
	else if (!strcmp(r->detail, "result-code") || r->cat == HCAT_UNRESOLVED ||
		 hlog__words_elsewhere(r))
		hlog__words_conclude(r); /* a row that names what failed, not why */
	/* nodes that run different software, else processes that made different calls at one
	 * place of a communicator (mismatched releases make mismatched calls): the failures or
	 * the silence between them follow from it, but not a fault a line names (memory,
	 * hardware, a link, the network) */
	if ((r->cat == HCAT_NONE || r->cat == HCAT_UNRESOLVED || r->cat == HCAT_RANK_STUCK) &&
	    !hlog__facts_conclude(r))
		hlog__calls_conclude(r);
	/* no line reads as an error: the roll call of the ranks may still show the failure */
	if (r->cat == HCAT_NONE && !r->errors)
		hlog__roster_conclude(r);
	/* only the frame of a table or headings, at an error level: still no pass */
	if (r->cat == HCAT_NONE && r->errors) {
		hlog__set_what(r, HCAT_UNRESOLVED, "unclassified");
		snprintf(r->cause, sizeof(r->cause),
			 "%zu line%s at an error level, none of them saying what failed", r->errors,
			 plural_s(r->errors));
		hlog__set_fix(r, "read the logs around those lines; collect every rank's plogs "
			   "(~/ascend/log/debug/plog) and run this again on them");
		struct hlog_quote *q = &r->evidence[r->nevidence++];
		snprintf(q->file, sizeof(q->file), "%s", r->first_error.file);
		q->line = r->first_error.line;
		snprintf(q->text, sizeof(q->text), "%s", r->first_error.text);
		snprintf(r->reported_on, sizeof(r->reported_on), "%s",
			 r->first_error.node[0] ? r->first_error.node : "node0");
		/* a process of that node stopped there, whatever the reason */
		snprintf(r->node, sizeof(r->node), "%s", r->reported_on);
	}
	if (r->cat == HCAT_NONE)
		snprintf(r->cause, sizeof(r->cause), "no error in %zu line%s of %zu file%s",
			 r->lines, plural_s(r->lines), r->nfile, plural_s(r->nfile));
	hlog__add_findings(r);
	/* where the lines behind the cause were written */
	for (size_t i = 0; i < r->nev && !r->reported_on[0] && r->first; i++)
		if (&r->ev[i] == r->first)
			snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->ev[i].node);
	if (!r->reported_on[0] && r->nunk)
		snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->unk[0].node);
	pci_of_cause(r);
	nic_of_cause(r);
	rank_of_writer(r);
	rank_that_ended(r);
	return 0;
}
