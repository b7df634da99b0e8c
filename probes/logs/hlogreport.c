/* HCCL log triage: the report itself: its start and end, the files and events it grows
 * by, and one report appended to another (the parts of a log read in parallel). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/hlogint.h"

/* Whether a line of family fam (-1 none) at level explains more than r's best so far: a
 * line its writer logged as a warning ("W0331 ... Invalid flag: buffer size is smaller than
 * required, adjust to ...") yields to one logged as an error, whatever their families; else
 * the family's rank decides, and the first of a rank stays. */
int hlog__word_better(int fam, int level, const struct hlog_report *r)
{
	if (fam < 0)
		return 0;
	if (r->word_row < 0)
		return 1;
	if (level == HLINE_ERROR && r->word_level == HLINE_WARN)
		return 1;
	if (level == HLINE_WARN && r->word_level == HLINE_ERROR)
		return 0;
	return fam < r->word_row;
}

void hlog_report_init(struct hlog_report *r)
{
	memset(r, 0, sizeof(*r));
	r->rank = r->peer_rank = r->dev = -1;
	r->port = -1;
	r->loop = -1;
	r->word_row = -1;
	r->roster.dup_rank = -1;
}

void hlog_report_release(struct hlog_report *r)
{
	if (!r)
		return;
	free(r->ev);
	free(r->file);
	free(r->fact);
	free(r->fact_index);
	free(r->call);
	hlog_report_init(r);
}

/* Arrays grow by doubling from first up to max: n is full when it is 0 or first times a power
 * of two, below max. */
static int grow_at(size_t n, size_t first)
{
	if (!n)
		return 1;
	if (n < first || n % first)
		return 0;
	size_t q = n / first;
	return !(q & (q - 1));
}

static size_t new_cap(size_t n, size_t first, size_t max)
{
	size_t c = n ? 2 * n : first;
	return c < max ? c : max;
}

int hlog__add_file(struct hlog_report *r, const char *name, const char *node, char *err,
		   size_t errlen)
{
	if (grow_at(r->nfile, 64)) {
		struct hlog_file *nf =
			realloc(r->file, new_cap(r->nfile, 64, HLOG_MAX_FILES) * sizeof(*nf));
		if (!nf) {
			snprintf(err, errlen, "%s: out of memory", name);
			return -ENOMEM;
		}
		r->file = nf;
	}
	struct hlog_file *f = &r->file[r->nfile++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->node, sizeof(f->node), "%s", node ? node : "");
	f->first_us = f->last_us = -1;
	f->rank = f->dev = f->pid = f->self_rank = -1;
	return 0;
}

struct hlog_event *hlog__add_event(struct hlog_report *r, int *rc)
{
	if (r->nev >= HLOG_MAX_EVENTS) {
		r->dropped++;
		return NULL;
	}
	if (grow_at(r->nev, 256)) {
		struct hlog_event *ne =
			realloc(r->ev, new_cap(r->nev, 256, HLOG_MAX_EVENTS) * sizeof(*ne));
		if (!ne) {
			*rc = -ENOMEM;
			return NULL;
		}
		r->ev = ne;
	}
	return &r->ev[r->nev++];
}

/* The knowledge base entities p found, as r would have counted them reading p's lines after
 * its own (a part that met more than HLOG_MAX_KB entities of its own kept only the first). */
static void append_kb(struct hlog_report *r, const struct hlog_report *p)
{
	for (size_t i = 0; i < p->nkbhit; i++) {
		size_t k = 0;
		while (k < r->nkbhit && r->kbhit[k].ent != p->kbhit[i].ent)
			k++;
		if (k < r->nkbhit)
			r->kbhit[k].count += p->kbhit[i].count;
		else if (k < HLOG_MAX_KB)
			r->kbhit[r->nkbhit++] = p->kbhit[i];
	}
}

int hlog__report_append(struct hlog_report *r, const struct hlog_report *p, char *err,
			size_t errlen)
{
	int rc = 0;
	size_t f0 = r->nfile;
	for (int k = 0; k < HLOG_NSKIP; k++)
		r->skip[k] += p->skip[k];
	r->skipped += p->skipped;
	r->lines += p->lines;
	r->blank += p->blank;
	r->truncated += p->truncated;
	r->bytes += p->bytes;
	r->dropped += p->dropped;
	for (size_t i = 0; i < sizeof(r->seen_rank); i++)
		r->seen_rank[i] |= p->seen_rank[i];
	if (!r->errors && p->errors)
		r->first_error = p->first_error;
	r->errors += p->errors;
	r->headings += p->headings;
	for (size_t i = 0; i < p->nunk && r->nunk + i < HLOG_MAX_UNK; i++)
		r->unk[r->nunk + i] = p->unk[i];
	r->nunk += p->nunk;
	if (hlog__word_better(p->word_row, p->word_level, r)) {
		r->word_unk = p->word_unk;
		r->word_row = p->word_row;
		r->word_level = p->word_level;
	}
	if (!r->has_lone_frame && p->has_lone_frame) {
		r->lone_frame = p->lone_frame;
		r->lone_frame_waits = p->lone_frame_waits;
		r->has_lone_frame = 1;
	}
	append_kb(r, p);
	hlog__facts_append(r, p);
	hlog__calls_append(r, p);
	hlog__roster_append(&r->roster, &p->roster);
	for (size_t i = 0; i < p->nfile && !rc; i++)
		if (!(rc = hlog__add_file(r, p->file[i].name, p->file[i].node, err, errlen)))
			r->file[r->nfile - 1] = p->file[i];
	for (size_t i = 0; i < p->nev && !rc; i++) {
		struct hlog_event *e = hlog__add_event(r, &rc);
		if (!e) {
			/* over the cap: counted in dropped, as the serial scan counts it */
			if (!rc && p->ev[i].fi < p->nfile)
				r->file[f0 + p->ev[i].fi].nev--;
			continue;
		}
		*e = p->ev[i];
		e->fi += f0;
	}
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

void hlog__event_init(struct hlog_event *e)
{
	memset(e, 0, sizeof(*e));
	e->t_us = -1;
	e->pid = e->rank = e->peer_rank = e->dev = e->peer_dev = -1;
	e->value = e->result = -1;
	e->group_size = e->step = -1;
	e->below_port = e->below_peer_rank = e->peer_port = -1;
	e->work = (struct hlog_work){ -1, -1, -1, -1, -1, -1, -1, "" };
}
