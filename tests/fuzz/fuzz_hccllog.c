/* Fuzzes the HCCL log triage as doctor --logs runs it: any bytes, split into two files of two
 * nodes, through hlog_scan_buf and hlog_conclude. Both give 0 and never read outside the input.
 * The report is then checked for what its readers (the text and JSON output) rely on: every
 * string terminated and free of control bytes, every enum in range, the counts within their
 * caps and adding up, r.first inside r.ev, and the promise of hlogcause.c that nothing that
 * reads as an error is concluded to be "none": HCAT_NONE only when no event but ENTRY and
 * TLS_SWITCH lines (and the lines that place a process) and no unexplained error line was
 * seen; a chain of waits within its cap, every hop a device or an address. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/logtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[2] = {"n1/plog/plog-1_1.log", "n2/plog/plog-2_1.log"};
static const char *const nodes[2] = {"n1", "n2"};

/* s is a C string within its len bytes (the sizeof of its array). */
#define TERMINATED(s) assert(memchr((s), '\0', sizeof(s)) != NULL)

/* ... and prints as one line: no control byte. */
static void clean(const char *s, size_t len)
{
	const char *end = memchr(s, '\0', len);
	assert(end);
	for (; s < end; s++)
		assert((unsigned char)*s >= 0x20 && *s != 0x7f);
}

#define CLEAN(s) clean((s), sizeof(s))

static void check_event(const struct hlog_report *r, size_t i)
{
	const struct hlog_event *e = &r->ev[i];
	assert(e->kind > HLOG_NONE && e->kind < HLOG_NKINDS);
	assert(e->sub >= HLOG_SUB_NONE && e->sub <= HLOG_SUB_NOT_ADDR);
	assert(e->cat >= HCAT_NONE && e->cat < HCAT_N);
	assert(e->fi < r->nfile && e->line >= 1 && e->head <= e->line);
	assert(e->line <= r->file[e->fi].lines);
	CLEAN(e->file);
	CLEAN(e->node);
	CLEAN(e->ip);
	CLEAN(e->peer_ip);
	CLEAN(e->code);
	CLEAN(e->group);
	CLEAN(e->op);
	CLEAN(e->detail);
	CLEAN(e->text);
	CLEAN(e->work.pg);
	assert(e->work.seq >= -1 && e->work.enq >= -1 && e->work.done >= -1);
	assert(e->work.numel >= -1 && e->work.timeout_ms >= -1 && e->work.ran_ms >= -1);
	assert(e->work.pg_rank >= -1);
	assert(e->kind == HLOG_WATCHDOG || (e->work.seq == -1 && !e->work.pg[0]));
	assert(e->text[0]); /* a blank line is never an event */
	assert(!strcmp(e->file, r->file[e->fi].name) && !strcmp(e->node, r->file[e->fi].node));
	assert(e->t_us >= -1 && e->pid >= -1 && e->group_size >= -1);
	assert(e->rank >= -1 && e->peer_rank >= -1 && e->dev >= -1 && e->peer_dev >= -1);
	if (i) {
		const struct hlog_event *p = &r->ev[i - 1];
		/* sorted by time, untimed last */
		assert(p->t_us < 0 ? e->t_us < 0 : e->t_us < 0 || p->t_us <= e->t_us);
	}
}

static void check_quote(const struct hlog_quote *q)
{
	CLEAN(q->file);
	CLEAN(q->text);
	assert(q->line >= 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hlog_report r;
	char err[256];
	/* the first byte picks where the second file starts */
	size_t cut = size ? (size_t)data[0] * size / 256 : 0;
	size_t len[2] = {cut, size - cut};
	const char *part[2] = {(const char *)data, (const char *)data + cut};
	/* the reader's stripping of terminal sequences: in place, never longer, never out of
	 * the buffer */
	char *copy = malloc(size ? size : 1);
	assert(copy);
	memcpy(copy, data, size);
	size_t kept = hlog__strip_ansi(copy, size);
	assert(kept <= size);
	if (!memchr(data, '\x1b', size)) /* nothing to take: the bytes unchanged */
		assert(kept == size && !memcmp(copy, data, size));
	free(copy);
	hlog_report_init(&r);
	for (int k = 0; k < 2; k++) {
		err[0] = '\0';
		int rc = hlog_scan_buf(names[k], nodes[k], part[k], len[k], &r, err, sizeof(err));
		assert(rc == 0);
	}
	assert(hlog_conclude(&r) == 0);

	/* what was read */
	assert(r.nfile + r.skipped == 2 && r.nfile <= 2);
	size_t skipped = 0;
	for (int k = 0; k < HLOG_NSKIP; k++)
		skipped += r.skip[k];
	assert(skipped == r.skipped && r.skip[HLOG_SKIP_BINARY] == r.skipped);
	assert(r.bytes <= size && r.truncated <= r.lines);
	size_t lines = 0, nev = 0, errors = 0;
	for (size_t i = 0; i < r.nfile; i++) {
		const struct hlog_file *f = &r.file[i];
		CLEAN(f->name);
		CLEAN(f->node);
		CLEAN(f->ip);
		CLEAN(f->host);
		assert(f->node[0]); /* named by its folder, or node0 */
		assert(f->errors <= f->lines && f->nev <= f->lines);
		assert(f->pid >= -1 && f->rank >= -1 && f->dev >= -1);
		assert(f->first_us >= -1 && f->last_us >= -1);
		assert((f->first_us < 0) == (f->last_us < 0) && f->first_us <= f->last_us);
		lines += f->lines;
		nev += f->nev;
		errors += f->errors;
	}
	assert(lines == r.lines && errors == r.errors);
	assert(nev == r.nev && r.nev <= HLOG_MAX_EVENTS);
	for (size_t i = 0; i < r.nev; i++)
		check_event(&r, i);

	/* the error lines no rule explains: all counted, the first kept */
	assert(r.nunk <= r.errors);
	for (size_t i = 0; i < r.nunk && i < HLOG_MAX_UNK; i++) {
		const struct hlog_unk *u = &r.unk[i];
		CLEAN(u->file);
		CLEAN(u->node);
		CLEAN(u->text);
		assert(u->line >= 1 && u->node[0] && u->text[0]);
		if (i)
			assert(strcmp(r.unk[i - 1].file, u->file) < 0 ||
			       (!strcmp(r.unk[i - 1].file, u->file) &&
				r.unk[i - 1].line < u->line));
	}

	/* the software each host stated: one value per component and host, on a line read (a
	 * line may state several: "Driver Version: 535.54.03   CUDA Version: 12.2") */
	assert(r.nfact <= r.fact_cap && r.nfact <= r.bytes);
	for (size_t i = 0; i < r.nfact; i++) {
		const struct hlog_fact *f = &r.fact[i];
		CLEAN(f->comp);
		CLEAN(f->value);
		CLEAN(f->host);
		CLEAN(f->text);
		assert(f->comp[0] && f->value[0] && f->host[0] && f->line >= 1);
		for (size_t k = 0; k < i; k++)
			assert(strcasecmp(r.fact[k].comp, f->comp) || strcmp(r.fact[k].host, f->host));
	}

	/* the cause */
	assert(r.kind >= HLOG_NONE && r.kind < HLOG_NKINDS);
	assert(r.cat >= HCAT_NONE && r.cat < HCAT_N);
	CLEAN(r.detail);
	CLEAN(r.node);
	CLEAN(r.group);
	CLEAN(r.ip);
	CLEAN(r.peer_ip);
	CLEAN(r.cause);
	CLEAN(r.fix);
	assert(r.cause[0]);
	assert((r.cat == HCAT_NONE) == !r.fix[0] && (r.cat == HCAT_NONE) == !r.detail[0]);
	if (r.cat == HCAT_NONE) {
		/* a log passes only when no line reads as an error */
		assert(r.kind == HLOG_NONE && !r.first && !r.nunk && !r.nevidence && !r.errors);
		for (size_t i = 0; i < r.nev; i++)
			assert(r.ev[i].kind == HLOG_ENTRY || r.ev[i].kind == HLOG_TLS_SWITCH ||
			       r.ev[i].kind == HLOG_PLACE);
	}
	/* a cause from the knowledge base, a line's words, the versions the nodes state or the
	 * calls two processes made differently stands on its lines, not on an event */
	if (r.kind != HLOG_NONE && r.kind != HLOG_KB && r.kind != HLOG_WORDS &&
	    r.kind != HLOG_ROSTER && strcmp(r.detail, "differs-across-nodes") &&
	    strcmp(r.detail, "call-arguments-differ"))
		assert(r.first);
	/* the two calls that differ are quoted */
	if (!strcmp(r.detail, "call-arguments-differ"))
		assert(r.nevidence >= 2);
	/* the roll call speaks only for logs without an error line, and quotes its lines */
	if (r.kind == HLOG_ROSTER)
		assert(!r.errors && !r.first && r.nevidence >= 1 &&
		       (r.cat == HCAT_CONFIG || r.cat == HCAT_RANK_STUCK));
	/* its line is an unexplained one of a family, or an unexplained event's own (a failure
	 * code its words explain), quoted first, the code's lines after it */
	if (r.kind == HLOG_WORDS)
		assert(!r.first && ((r.word_row >= 0 && r.nunk >= 1) || r.nev >= 1) &&
		       r.nevidence >= 1 && r.nevidence <= HLOG_MAX_EVIDENCE);
	if (r.kind == HLOG_KB)
		assert(r.kb_entity && r.kb_entity[0] && r.nevidence >= 1 && r.nkbhit >= 1);
	assert(!r.first || (r.first >= r.ev && r.first < r.ev + r.nev));
	assert(r.rank >= -1 && r.peer_rank >= -1 && r.dev >= -1 && r.port >= -1);
	assert(r.ndevs >= 0 && r.ndevs <= (int)(sizeof(r.devs) / sizeof(r.devs[0])));
	for (int i = 0; i < r.ndevs; i++)
		assert(r.devs[i] >= 0);

	/* the chain of waits: hops within their cap, a cycle's start inside it and repeated at
	 * its end, every hop a device with a log or an address */
	assert(r.nchain <= HLOG_MAX_HOPS && r.loop >= -1);
	assert(r.nchain != 1);
	if (r.loop >= 0)
		assert((size_t)r.loop + 2 < r.nchain + 1 && r.nchain >= 3);
	for (size_t i = 0; i < r.nchain; i++) {
		const struct hlog_hop *h = &r.chain[i];
		CLEAN(h->worker);
		CLEAN(h->ip);
		assert(h->dev >= -1 && h->rank >= -1 && h->pid >= -1);
		assert(h->has_log ? h->dev >= 0 : h->ip[0] != '\0');
	}

	/* the evidence and the other findings */
	assert(r.nevidence <= HLOG_MAX_EVIDENCE && r.nfindings <= HLOG_MAX_FINDINGS);
	assert(r.cat == HCAT_NONE || r.nevidence >= 1);
	for (size_t i = 0; i < r.nevidence; i++)
		check_quote(&r.evidence[i]);
	for (size_t i = 0; i < r.nfindings; i++) {
		const struct hlog_finding *g = &r.findings[i];
		assert(g->cat >= HCAT_NONE && g->cat < HCAT_N && g->count >= 1);
		CLEAN(g->node);
		CLEAN(g->message);
		assert(g->message[0]);
		check_quote(&g->at);
	}
	hlog_report_release(&r);
	return 0;
}
