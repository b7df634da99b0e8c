/* The HCCL log triage after the cause: one job's processes sharing their ranks, the nodes
 * named from the files, and the other findings, one per kind and node, ranked by weight. */
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
#include "probes/logs/hlogcause.h"
#include "ranktable/base/plural.h"

static int by_pid(const void *pa, const void *pb, void *arg)
{
	const struct hlog_report *r = arg;
	const struct hlog_file *a = &r->file[*(const size_t *)pa];
	const struct hlog_file *b = &r->file[*(const size_t *)pb];
	int c = strcmp(a->node, b->node);
	if (c)
		return c;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* A job log line "EI0002: [PID: 3001] ..." and the plog of HCCL(3001,...) on the same node are
 * one process: files without a rank take it from a file of the same node and pid. */
void hlog__share_ranks(struct hlog_report *r)
{
	/* what a process says of itself (SetupAgent, hcom init: its rank and device IP) is its
	 * file's, and so is the rank its folder names (ModelArts' rank_N) */
	for (size_t i = 0; i < r->nev; i++) {
		const struct hlog_event *e = &r->ev[i];
		struct hlog_file *f = e->fi < r->nfile ? &r->file[e->fi] : NULL;
		if (!f || e->kind != HLOG_PLACE || e->sub || (e->pid >= 0 && e->pid != f->pid))
			continue;
		if (f->rank < 0 && e->rank >= 0 && !e->group[0])
			f->rank = e->rank;
		if (!f->ip[0] && e->ip[0])
			snprintf(f->ip, sizeof(f->ip), "%s", e->ip);
	}
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_place pl;
		hlog__bundle_place(r->file[i].name, &pl);
		if (r->file[i].rank < 0 && pl.rank >= 0)
			r->file[i].rank = pl.rank;
	}
	size_t *ix = malloc((r->nfile ? r->nfile : 1) * sizeof(*ix));
	if (!ix)
		return;
	for (size_t i = 0; i < r->nfile; i++)
		ix[i] = i;
	qsort_r(ix, r->nfile, sizeof(*ix), by_pid, r);
	for (size_t i = 0; i < r->nfile;) {
		size_t j = i;
		int rank = -1;
		for (; j < r->nfile && !by_pid(&ix[i], &ix[j], r); j++)
			if (rank < 0)
				rank = r->file[ix[j]].rank;
		for (size_t k = i; k < j && r->file[ix[i]].pid >= 0; k++)
			if (r->file[ix[k]].rank < 0)
				r->file[ix[k]].rank = rank;
		i = j;
	}
	free(ix);
}

/* A job folder whose environment check names one worker (ModelArts: JOB/ascend/
 * environment_check/worker-N/ beside JOB/ascend/process_log/): its files, and the job's
 * screen output beside it (JOB-proc-rank-N-device-D.txt), are that worker's. */
static void name_jobs(struct hlog_report *r)
{
	char job[HLOG_NODELEN] = "", worker[HLOG_NODELEN] = "";
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_place p;
		hlog__bundle_place(r->file[i].name, &p);
		const char *slash = strchr(r->file[i].name, '/');
		if (p.kind != HLOG_FK_ENV || !p.worker[0] || !slash ||
		    (size_t)(slash - r->file[i].name) >= sizeof(job))
			continue;
		if (worker[0] && strcmp(worker, p.worker))
			return; /* two workers: the folder is not one node */
		snprintf(worker, sizeof(worker), "%s", p.worker);
		snprintf(job, sizeof(job), "%.*s", (int)(slash - r->file[i].name), r->file[i].name);
	}
	if (!job[0] || !strcmp(job, worker))
		return;
	size_t jn = strlen(job);
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_file *f = &r->file[i];
		if (!strcmp(f->node, job) ||
		    (!f->node[0] && !strncmp(f->name, job, jn) && f->name[jn] == '-'))
			snprintf(f->node, sizeof(f->node), "%s", worker);
	}
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].fi < r->nfile)
			snprintf(r->ev[i].node, sizeof(r->ev[i].node), "%s", r->file[r->ev[i].fi].node);
	for (size_t i = 0; i < r->nunk && i < HLOG_MAX_UNK; i++)
		if (!strcmp(r->unk[i].node, job) ||
		    (!r->unk[i].node[0] && !strncmp(r->unk[i].file, job, jn)))
			snprintf(r->unk[i].node, sizeof(r->unk[i].node), "%s", worker);
}

/* An unexplained line without a node: its file's, else "node0". */
static void unk_node(struct hlog_report *r, struct hlog_unk *u)
{
	if (u->node[0])
		return;
	const struct hlog_file *f = u->file[0] ? hlog__file_named(r, u->file) : NULL;
	snprintf(u->node, sizeof(u->node), "%s", f && f->node[0] ? f->node : "node0");
}

/* Files that came without a node folder: named by the server the lines say they are on, else
 * by the device IP they write from, else "node0" (a single file or a paste is one node). */
void hlog__name_nodes(struct hlog_report *r)
{
	name_jobs(r);
	for (size_t i = 0; i < r->nfile; i++) {
		struct hlog_file *f = &r->file[i];
		if (f->node[0])
			continue;
		snprintf(f->node, sizeof(f->node), "%s",
			 f->host[0] ? f->host : f->ip[0] ? f->ip : "node0");
	}
	for (size_t i = 0; i < r->nev; i++)
		if (!r->ev[i].node[0] && r->ev[i].fi < r->nfile)
			snprintf(r->ev[i].node, sizeof(r->ev[i].node), "%s", r->file[r->ev[i].fi].node);
	for (size_t i = 0; i < r->nunk && i < HLOG_MAX_UNK; i++)
		unk_node(r, &r->unk[i]);
	/* and the lines kept apart from that list, so that they are found in it again */
	unk_node(r, &r->word_unk);
	unk_node(r, &r->first_error);
	unk_node(r, &r->lone_frame);
}

/* How strongly an event explains the others: a cause on the device or the NIC explains the
 * port and the timeouts after it, a port clash or a mismatch the timeouts, a heartbeat the
 * notify waits. A port clash explains what its peers saw of the server that never listened
 * (paddle#1503: "ERROR on binding 10.75.76.44: Address already in use [98]" on one node,
 * "peer=10.75.76.44: Connection reset by peer [104]" on another, two minutes on), so it
 * weighs as the other settings do, above a connection's failure. 0: not a cause. */
int hlog__weight(const struct hlog_event *e)
{
	switch (hlog__class(e)) {
	case HLOG_CLS_FAULT:
		return hlog__is_heartbeat(e->kind)	  ? 3
		       : e->kind == HLOG_MISMATCH ? 4
		       : e->cat == HCAT_OP_MISMATCH ? 4
						  : 5;
	case HLOG_CLS_CONFIG:
		return e->cat == HCAT_NET ? 4 : 5;
	default:
		return 0;
	}
}

/* The other findings: one per kind of line and node, ranked by weight, then time. */
void hlog__add_findings(struct hlog_report *r)
{
	int decided = r->kind != HLOG_NONE && r->cat != HCAT_UNRESOLVED;
	for (size_t i = 0; i < r->nev && r->nfindings < HLOG_MAX_FINDINGS; i++) {
		const struct hlog_event *e = &r->ev[i];
		/* a bare "call trace: hcclRet -> 9" is the error above it returning; the waits
		 * a decided cause explains are named in it as its consequences */
		if (e->kind == HLOG_ENTRY || e->kind == HLOG_TLS_SWITCH || e->kind == HLOG_PLACE ||
		    (e->kind == HLOG_API && !e->op[0] && !e->code[0]) ||
		    (decided && hlog__class(e) == HLOG_CLS_CONSEQ))
			continue;
		if (r->first && e->kind == r->first->kind && !strcmp(e->node, r->first->node))
			continue;
		int dup = 0;
		for (size_t k = 0; k < r->nfindings && !dup; k++) {
			struct hlog_finding *g = &r->findings[k];
			if (!strcmp(g->node, e->node) && g->cat == e->cat &&
			    strstr(g->message, hlog_kind_name(e->kind))) {
				g->count++;
				dup = 1;
			}
		}
		if (dup)
			continue;
		struct hlog_finding *g = &r->findings[r->nfindings++];
		memset(g, 0, sizeof(*g));
		g->cat = e->cat;
		g->count = 1;
		snprintf(g->node, sizeof(g->node), "%s", e->node);
		struct sbuf b = {g->message, sizeof(g->message), 0};
		sb_add(&b, "%s", hlog_kind_name(e->kind));
		if (e->code[0])
			sb_add(&b, " %s", e->code);
		if (e->op[0])
			sb_add(&b, " in %s", e->op);
		if (e->result >= 0 && e->kind == HLOG_API) {
			const char *rn = hresult_name(e->result);
			sb_add(&b, ", result %lld%s%s%s", e->result, rn ? " (" : "", rn ? rn : "",
			       rn ? ")" : "");
		}
		if (e->detail[0])
			sb_add(&b, " (%s)", e->detail);
		snprintf(g->at.file, sizeof(g->at.file), "%s", e->file);
		g->at.line = e->line;
		snprintf(g->at.text, sizeof(g->at.text), "%s", e->text);
	}
	/* ranked: faults and configuration causes first */
	for (size_t i = 1; i < r->nfindings; i++)
		for (size_t j = i; j > 0; j--) {
			struct hlog_finding *a = &r->findings[j - 1], *b = &r->findings[j];
			int wa = a->cat == HCAT_UNRESOLVED || a->cat == HCAT_NONE;
			int wb = b->cat == HCAT_UNRESOLVED || b->cat == HCAT_NONE;
			if (wa <= wb)
				break;
			struct hlog_finding t = *a;
			*a = *b;
			*b = t;
		}
	if (r->nunk && r->nfindings < HLOG_MAX_FINDINGS && r->kind != HLOG_NONE) {
		struct hlog_finding *g = &r->findings[r->nfindings++];
		memset(g, 0, sizeof(*g));
		g->cat = HCAT_UNRESOLVED;
		g->count = r->nunk;
		snprintf(g->node, sizeof(g->node), "%s", r->unk[0].node);
		snprintf(g->message, sizeof(g->message), "%zu error line%s no rule explains",
			 r->nunk, plural_s(r->nunk));
		snprintf(g->at.file, sizeof(g->at.file), "%s", r->unk[0].file);
		g->at.line = r->unk[0].line;
		snprintf(g->at.text, sizeof(g->at.text), "%s", r->unk[0].text);
	}
}
