/* The knowledge base in the triage: every line is matched against its entities, and when no
 * rule of hcclctl's own explains the job, the entity found that no other found entity causes
 * is the cause (a cause outranks what it causes), the most specific such one first. */
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logline.h"
#include "probes/logs/kb.h"

const struct kb *hlog__kb_of(const struct hlog_report *r)
{
	const struct kb *kb = r->kb;
	char err[200];
	if (!kb && kb_builtin(&kb, err, sizeof(err)))
		return NULL;
	return kb;
}

/* Whether every keyword of entity ent is plain prose (letters and blanks, no name in
 * capitals: "does not support"). Such words say what a line is about, not that it failed, so
 * they identify a fault only on a line whose own words are an error's: DALI's "DALI iterator
 * does not support resetting while epoch is not finished. Ignoring..." is no failure of
 * CANN's. A keyword with a code's marks ("pcs_err_cnt", "ctx is NULL", "[Hardware Error]:")
 * identifies on any line. */
static int plain_entity(const struct kb *kb, int ent)
{
	const struct kb_entity *e = kb_entity_at(kb, (size_t)ent);
	if (!e)
		return 0;
	for (int g = 0; g < e->ng; g++)
		for (int i = 0; i < kb_group_size(kb, e, g); i++) {
			const char *k = kb_keyword(kb, e, g, i);
			int caps = 0; /* capitals in a row: a name ("NULL", "MC") is a code's */
			for (; k && *k; k++) {
				if (*k >= 'A' && *k <= 'Z' && ++caps == 2)
					return 0;
				if (!(*k >= 'A' && *k <= 'Z'))
					caps = 0;
				if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || *k == ' '))
					return 0;
			}
		}
	return 1;
}

void hlog__kb_line(struct hlog_report *r, struct kb_scan *st, struct pspan line,
		   const struct hlog_line *l, int sys, int64_t t_us, const char *file,
		   const char *node, unsigned no, const struct kb_found *found)
{
	const struct kb *kb = hlog__kb_of(r);
	int hits[16], where = sys ? KB_IN_SYS : KB_IN_APP;
	int n = !kb	? 0
		: found ? kb_match_found(kb, st, found, line.s, line.n, where, hits, 16)
			: kb_match(kb, st, line.s, line.n, where, hits, 16);
	for (int i = 0; i < n; i++) {
		if (!l->error && plain_entity(kb, hits[i]))
			continue;
		size_t k = 0;
		while (k < r->nkbhit && r->kbhit[k].ent != hits[i])
			k++;
		if (k < r->nkbhit) {
			r->kbhit[k].count++;
			continue;
		}
		if (k == HLOG_MAX_KB)
			continue;
		struct hlog_kbhit *h = &r->kbhit[r->nkbhit++];
		memset(h, 0, sizeof(*h));
		h->ent = hits[i];
		h->count = 1;
		h->t_us = t_us;
		h->dev = l->dev;
		h->rank = l->rank;
		snprintf(h->node, sizeof(h->node), "%s", node ? node : "");
		snprintf(h->at.file, sizeof(h->at.file), "%s", file);
		h->at.line = no;
		probe__copy(h->at.text, sizeof(h->at.text), line);
	}
}

/* An entity that identifies less than this much of a line (any error code fits it) marks a
 * failure but never names its cause. */
#define KB_MIN_SPEC 8

static int caused(const struct kb *kb, const struct hlog_report *r, size_t i)
{
	for (size_t k = 0; k < r->nkbhit; k++)
		if (k != i && kb_causes(kb, r->kbhit[k].ent, r->kbhit[i].ent) &&
		    !kb_causes(kb, r->kbhit[i].ent, r->kbhit[k].ent))
			return 1;
	return 0;
}

static int before(const struct hlog_kbhit *a, const struct hlog_kbhit *b)
{
	if (a->t_us >= 0 && b->t_us >= 0 && a->t_us != b->t_us)
		return a->t_us < b->t_us;
	return 0;
}

static void add_quote(struct hlog_report *r, const struct hlog_quote *q)
{
	for (size_t i = 0; i < r->nevidence; i++)
		if (r->evidence[i].line == q->line && !strcmp(r->evidence[i].file, q->file))
			return;
	if (r->nevidence < HLOG_MAX_EVIDENCE)
		r->evidence[r->nevidence++] = *q;
}

/* The device and rank of the process the cause happened in: its own line's prefix, else
 * the prefix of a line of the same file that it explains (torch_npu puts the device in the
 * header of the error code line under a Python exception: "RuntimeError: Expected all tensors
 * to be on the same device ..." then "[ERROR] ... (PID:53741, Device:0, RankID:-1) ERR01002
 * OPS invalid type") */
static void where_of(struct hlog_report *r, const struct kb *kb, const struct hlog_kbhit *best)
{
	int dev = best->dev, rank = best->rank;
	for (size_t i = 0; i < r->nkbhit && (dev < 0 || rank < 0); i++) {
		const struct hlog_kbhit *h = &r->kbhit[i];
		if (h == best || strcmp(h->at.file, best->at.file) || !kb_causes(kb, best->ent, h->ent))
			continue;
		if (dev < 0)
			dev = h->dev;
		if (rank < 0)
			rank = h->rank;
	}
	/* else what the verdict it replaces had found stays */
	if (dev >= 0)
		r->dev = dev;
	if (rank >= 0)
		r->rank = rank;
	if (r->dev >= 0 && !r->ndevs)
		r->devs[r->ndevs++] = r->dev;
}

int hlog__kb_conclude(struct hlog_report *r)
{
	const struct kb *kb = hlog__kb_of(r);
	if (!kb || !r->nkbhit)
		return 0;
	/* a verdict of hcclctl's own rules stands; only "nothing explains it" is replaced */
	if (r->cat != HCAT_NONE && !(r->cat == HCAT_UNRESOLVED &&
				     (!strcmp(r->detail, "unclassified") ||
				      !strcmp(r->detail, "no-explanation"))))
		return 0;
	const struct hlog_kbhit *best = NULL;
	size_t best_spec = 0;
	for (size_t i = 0; i < r->nkbhit; i++) {
		if (caused(kb, r, i))
			continue;
		const struct hlog_kbhit *h = &r->kbhit[i];
		size_t spec = kb_specificity(kb, h->ent);
		if (spec < KB_MIN_SPEC)
			continue;
		if (!best || spec > best_spec || (spec == best_spec && before(h, best))) {
			best = h;
			best_spec = spec;
		}
	}
	if (!best)
		return 0;
	const struct kb_entity *e = kb_entity_at(kb, (size_t)best->ent);
	const struct kb_family *f = kb_family_of(e);
	struct sbuf b = { r->cause, sizeof(r->cause), 0 };
	r->cause[0] = '\0';
	r->kind = HLOG_KB;
	r->cat = f->cat;
	r->first = NULL;
	r->nevidence = 0;
	snprintf(r->detail, sizeof(r->detail), "%s", f->name);
	snprintf(r->node, sizeof(r->node), "%s", best->node);
	snprintf(r->reported_on, sizeof(r->reported_on), "%s", best->node[0] ? best->node : "");
	r->kb_entity = e->code;
	where_of(r, kb, best);
	if (e->name && e->name[0])
		hlog__sb_add(&b, "%s (%s)", e->name, e->code);
	else
		hlog__sb_add(&b, "%s (fault %s, a %s line)", f->cause, e->code,
			     e->log[0] ? e->log : "log");
	hlog__sb_add(&b, " on node %s", best->node[0] ? best->node : "node0");
	if (r->rank >= 0)
		hlog__sb_add(&b, ", rank %d", r->rank);
	if (r->dev >= 0)
		hlog__sb_add(&b, ", device %d", r->dev);
	add_quote(r, &best->at);
	size_t nc = 0;
	for (size_t i = 0; i < r->nkbhit; i++) {
		const struct hlog_kbhit *h = &r->kbhit[i];
		if (h == best || !kb_causes(kb, best->ent, h->ent))
			continue;
		hlog__sb_add(&b, "%s%s", nc++ ? ", " : "; it explains ",
			     kb_entity_at(kb, (size_t)h->ent)->code);
		add_quote(r, &h->at);
	}
	const char *fix = e->advice && e->advice[0] ? e->advice : f->fix;
	snprintf(r->fix, sizeof(r->fix), "%s", fix);
	return 1;
}
