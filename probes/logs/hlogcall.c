/* The collective calls each process states, compared across the processes of one job. NCCL
 * with NCCL_DEBUG_SUBSYS=COLL logs every call it is given (enqueue.cc: "%s: opCount %lx
 * sendbuff %p recvbuff %p count %zu datatype %d op %d root %d comm %p [nranks=%d] stream %p"),
 * at INFO: a job whose ranks called different collectives, or one with other counts or types,
 * hangs or corrupts without a line reading as an error. The n-th call on a communicator must
 * be the same call on every rank of it, so calls with one opCount on communicators of one size
 * that differ name the mismatch. Two communicators of one size in one process share opCounts
 * for unrelated calls, so such a process is left out of the comparison; send and receive
 * differ by design and are never compared. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/logtext.h"

#define CALLS_PER_FILE 256 /* a mismatch shows within the calls an excerpt holds */
#define CALLS_MAX 8192

/* The number after key in m, in base (the first one there); 0 when none. */
static int num_after(struct pspan m, const char *key, int base, unsigned long long *v)
{
	const char *p = hlog__find(m, key);
	if (!p)
		return 0;
	const char *s = p + strlen(key), *e = m.s + m.n;
	if (base == 16 && e - s > 2 && s[0] == '0' && s[1] == 'x')
		s += 2;
	unsigned long long n = 0;
	int d = 0;
	for (; s < e && d < 16; s++, d++) {
		int x = *s >= '0' && *s <= '9'		       ? *s - '0'
			: base == 16 && *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
							       : -1;
		if (x < 0)
			break;
		n = n * (unsigned)base + (unsigned)x;
	}
	*v = n;
	return d > 0;
}

/* Reads one call from m into c; 0 when m is not one, or is a send or a receive. */
static int parse_call(struct pspan m, struct hlog_call *c)
{
	const char *p = hlog__find(m, ": opCount ");
	if (!p)
		return 0;
	const char *b = p;
	while (b > m.s && isalpha((unsigned char)b[-1]))
		b--;
	size_t nl = (size_t)(p - b);
	if (!nl || nl >= sizeof(c->name) || (nl >= 4 && !memcmp(b, "Send", 4)) ||
	    (nl >= 4 && !memcmp(b, "Recv", 4)))
		return 0;
	memcpy(c->name, b, nl);
	c->name[nl] = '\0';
	struct pspan rest = {p, (size_t)(m.s + m.n - p)};
	unsigned long long dt, op, root, nr;
	if (!num_after(rest, ": opCount ", 16, &c->opcount) ||
	    !num_after(rest, " count ", 10, &c->count) || !num_after(rest, " datatype ", 10, &dt) ||
	    !num_after(rest, " op ", 10, &op) || !num_after(rest, " root ", 10, &root) ||
	    !num_after(rest, " comm ", 16, &c->comm) || !num_after(rest, "[nranks=", 10, &nr) ||
	    nr < 2 || nr > 1u << 20)
		return 0;
	c->dtype = (int)(dt & 0xffff);
	c->op = (int)(op & 0xffff);
	c->root = (int)(root & 0xfffff);
	c->nranks = (int)nr;
	return 1;
}

void hlog__call_line(struct hlog_report *r, const struct hlog_line *l, const char *file,
		     const char *node, unsigned no, struct pspan line, unsigned *in_file)
{
	struct hlog_call c;
	/* the process, from NCCL's prefix ("host:pid:tid [dev]", also behind grep's file name):
	 * without it the line's calls cannot be told from another process's */
	if (*in_file >= CALLS_PER_FILE || r->ncall >= CALLS_MAX || l->pid < 0 || !l->host.n ||
	    !parse_call(l->msg, &c))
		return;
	snprintf(c.writer, sizeof(c.writer), "%.*s:%d", (int)l->host.n, l->host.s, l->pid);
	c.dev = l->dev;
	if (r->ncall == r->call_cap) {
		size_t cap = r->call_cap ? 2 * r->call_cap : 64;
		struct hlog_call *n = realloc(r->call, cap * sizeof(*n));
		if (!n)
			return; /* a call less: the comparison is a cause of its own, never needed
				 */
		r->call = n;
		r->call_cap = cap;
	}
	snprintf(c.node, sizeof(c.node), "%s", node ? node : "");
	snprintf(c.file, sizeof(c.file), "%s", file);
	c.line = no;
	probe__copy(c.text, sizeof(c.text), line);
	r->call[r->ncall++] = c;
	++*in_file;
}

void hlog__calls_append(struct hlog_report *r, const struct hlog_report *p)
{
	for (size_t i = 0; i < p->ncall && r->ncall < CALLS_MAX; i++) {
		if (r->ncall == r->call_cap) {
			size_t cap = r->call_cap ? 2 * r->call_cap : 64;
			struct hlog_call *n = realloc(r->call, cap * sizeof(*n));
			if (!n)
				return;
			r->call = n;
			r->call_cap = cap;
		}
		r->call[r->ncall++] = p->call[i];
	}
}

static int same_call(const struct hlog_call *a, const struct hlog_call *b)
{
	return !strcmp(a->name, b->name) && a->count == b->count && a->dtype == b->dtype &&
	       a->op == b->op && a->root == b->root;
}

/* A call's place, to sort by: its process's communicator (writer, size, comm) or its place
 * on one (size, opCount). */
struct place {
	const struct hlog_call *c;
	size_t i;
	int two; /* its process has two communicators of this size: opCounts do not align */
};

static int by_writer(const void *x, const void *y)
{
	const struct hlog_call *a = ((const struct place *)x)->c, *b = ((const struct place *)y)->c;
	int w = strcmp(a->writer, b->writer);
	if (w || a->nranks != b->nranks)
		return w ? w : a->nranks < b->nranks ? -1 : 1;
	return a->comm < b->comm ? -1 : a->comm > b->comm;
}

static int by_place(const void *x, const void *y)
{
	const struct place *p = x, *q = y;
	if (p->c->nranks != q->c->nranks)
		return p->c->nranks < q->c->nranks ? -1 : 1;
	if (p->c->opcount != q->c->opcount)
		return p->c->opcount < q->c->opcount ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

static int by_place_same(const struct place *p, const struct place *q)
{
	return p->c->nranks == q->c->nranks && p->c->opcount == q->c->opcount;
}

/* The first place (by opCount) where two processes whose communicators align made different
 * calls: the odd call (the one fewer processes made) in *odd, one of the others in *other. */
static int differing(const struct hlog_report *r, size_t *odd, size_t *other)
{
	struct place *pl = malloc((r->ncall + 1) * sizeof(*pl));
	if (!pl)
		return 0; /* the comparison is a cause of its own, never needed */
	for (size_t i = 0; i < r->ncall; i++)
		pl[i] = (struct place){&r->call[i], i, 0};
	qsort(pl, r->ncall, sizeof(*pl), by_writer);
	for (size_t a = 0, b; a < r->ncall; a = b) {
		int two = 0;
		for (b = a + 1; b < r->ncall && !strcmp(pl[b].c->writer, pl[a].c->writer) &&
				pl[b].c->nranks == pl[a].c->nranks;
		     b++)
			two |= pl[b].c->comm != pl[a].c->comm;
		for (size_t k = a; k < b; k++)
			pl[k].two = two;
	}
	qsort(pl, r->ncall, sizeof(*pl), by_place);
	int found = 0;
	for (size_t a = 0, b; a < r->ncall; a = b) {
		for (b = a + 1; b < r->ncall && by_place_same(&pl[a], &pl[b]); b++)
			;
		size_t ref = a;
		while (ref < b && pl[ref].two)
			ref++;
		size_t k = ref + 1;
		while (k < b && (pl[k].two || !strcmp(pl[k].c->writer, pl[ref].c->writer) ||
				 same_call(pl[k].c, pl[ref].c)))
			k++;
		if (ref >= b || k >= b || (found && pl[ref].c->opcount >= r->call[*odd].opcount))
			continue;
		size_t nr = 0, nk = 0;
		for (size_t j = a; j < b; j++)
			if (!pl[j].two) {
				nr += same_call(pl[j].c, pl[ref].c);
				nk += same_call(pl[j].c, pl[k].c);
			}
		*odd = nr < nk ? pl[ref].i : pl[k].i;
		*other = nr < nk ? pl[k].i : pl[ref].i;
		found = 1;
	}
	free(pl);
	return found;
}

static void describe(struct sbuf *b, const struct hlog_call *c)
{
	sb_add(b, "%s count %llu datatype %d op %d root %d on %s", c->name, c->count, c->dtype,
	       c->op, c->root, c->writer);
}

int hlog__calls_conclude(struct hlog_report *r)
{
	size_t o = 0, t = 0;
	if (!differing(r, &o, &t))
		return 0;
	const struct hlog_call *odd = &r->call[o], *other = &r->call[t];
	char before[200];
	hlog__recast(r, HLOG_MISMATCH, HCAT_OP_MISMATCH, "call-arguments-differ", before,
		     sizeof(before));
	/* a single file names no node: the process's host does */
	if (odd->node[0])
		snprintf(r->node, sizeof(r->node), "%s", odd->node);
	else
		snprintf(r->node, sizeof(r->node), "%.*s", (int)strcspn(odd->writer, ":"),
			 odd->writer);
	snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->node);
	/* the odd process's GPU; its rank in the communicator is in no call line */
	r->dev = odd->dev;
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	sb_add(&b,
	       "the processes made different calls as call %llx of a communicator of %d ranks: ",
	       odd->opcount, odd->nranks);
	describe(&b, odd);
	sb_add(&b, ", but ");
	describe(&b, other);
	if (before[0])
		sb_add(&b, "; what else the logs report follows from it: %s", before);
	hlog__set_fix(r,
		      "make every rank of the group call the same collectives in the same order "
		      "with the same count, type, operation and root (a branch taken on some "
		      "ranks only, a size computed per rank, an early return); TORCH_DISTRIBUTED_"
		      "DEBUG=DETAIL or NCCL_DEBUG_SUBSYS=COLL on every rank shows the calls");
	const struct hlog_call *q[2] = {odd, other};
	for (int k = 0; k < 2; k++) {
		struct hlog_quote *e = &r->evidence[r->nevidence++];
		snprintf(e->file, sizeof(e->file), "%s", q[k]->file);
		e->line = q[k]->line;
		snprintf(e->text, sizeof(e->text), "%s", q[k]->text);
	}
	return 1;
}
