/* Matching the catalog's rows (catalog.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/logtext.h"
#include "ranktable/base/acm.h"

/* The verbs events first: an event's own name says more than NCCL's "async fatal event". */
static const struct hlog_sigtab *const tabs[] = {&hlog__cat_verbs, &hlog__cat_nccl,
						  &hlog__cat_torch, &hlog__cat_host, &hlog__cat_acl};
#define NTAB (sizeof(tabs) / sizeof(tabs[0]))

const struct hlog_sig *hlog__sig_at(size_t i)
{
	for (size_t t = 0; t < NTAB; i -= tabs[t]->n, t++)
		if (i < tabs[t]->n)
			return &tabs[t]->row[i];
	return NULL;
}

const struct hlog_sig *hlog__sig_find(const char *detail)
{
	const struct hlog_sig *s;
	for (size_t i = 0; detail && (s = hlog__sig_at(i)); i++)
		if (!strcmp(s->detail, detail))
			return s;
	for (long long i = 0; detail && (s = hlog__ib_status(i)); i++)
		if (!strcmp(s->detail, detail))
			return s;
	for (long long i = 0; detail && hlog__ib_event_name(i); i++)
		if ((s = hlog__ib_event(i)) && !strcmp(s->detail, detail))
			return s;
	return NULL;
}

const char *const hlog__hitword[HLOG_NHITWORD] = {[HLOG_HIT_IP_KEY] = "_ip\""};

/* Needle ids: 3 * row + k for the catalog's, 3 * NROW + i for hinner row i, then
 * 3 * NROW + NINNER + w for hlog__hitword[w]. */
static struct acm *line_acm;
static size_t nrow, ninner;
static pthread_once_t acm_once = PTHREAD_ONCE_INIT;

/* Adds a needle; 0 when it cannot be: an empty one is found everywhere (as memmem finds
 * it), and ids past HLOG_HITS_MAX have no bit, so both are left to the search. */
static int add_needle(struct acm *a, const char *s, size_t id)
{
	acm_add(a, s, strlen(s), (int)id);
	return id < HLOG_HITS_MAX && *s;
}

static void build_acm(void)
{
	const struct hlog_sig *sig;
	struct acm *a = acm_new(0);
	int whole = 1;
	while (hlog__sig_at(nrow))
		nrow++;
	while (hinner_at(ninner))
		ninner++;
	for (size_t i = 0; (sig = hlog__sig_at(i)); i++)
		for (size_t k = 0; k < 3 && sig->needle[k]; k++)
			whole &= add_needle(a, sig->needle[k], 3 * i + k);
	for (size_t i = 0; i < ninner; i++)
		whole &= add_needle(a, hinner_at(i)->needle, 3 * nrow + i);
	for (size_t w = 0; w < HLOG_NHITWORD; w++)
		whole &= add_needle(a, hlog__hitword[w], 3 * nrow + ninner + w);
	if (!whole || acm_build(a)) {
		acm_free(a);
		a = NULL;
	}
	line_acm = a;
}

static int note(void *ctx, int id, size_t end)
{
	struct hlog_hits *h = ctx;
	(void)end;
	if ((size_t)id < 3 * nrow)
		h->row[id / 8] |= (unsigned char)(1u << (id % 8));
	else if ((size_t)id >= 3 * nrow + ninner)
		h->words |= 1u << (id - 3 * nrow - ninner);
	else if (h->inner < 0 || id - 3 * (int)nrow < h->inner)
		h->inner = id - 3 * (int)nrow;
	return 0;
}

void hlog__line_hits(struct pspan m, struct hlog_hits *h)
{
	pthread_once(&acm_once, build_acm);
	memset(h, 0, sizeof(*h));
	h->s = m.s;
	h->n = m.n;
	h->inner = -1;
	h->all = !line_acm;
	if (line_acm && m.s)
		acm_scan(line_acm, m.s, m.n, note, h);
}

int hlog__hits_may(const struct hlog_hits *h, int w)
{
	return !h || h->all || (h->words >> w & 1);
}

const struct hinner *hlog__hits_inner(const struct hlog_hits *h)
{
	if (h->all)
		return hinner_match(h->s, h->n);
	return h->inner >= 0 ? hinner_at((size_t)h->inner) : NULL;
}

static int matches(struct pspan m, size_t i, const struct hlog_sig *s,
		   const struct hlog_hits *h)
{
	for (size_t k = 0; k < 3 && s->needle[k]; k++)
		if (h && !h->all ? !(h->row[(3 * i + k) / 8] >> ((3 * i + k) % 8) & 1)
				 : !hlog__has(m, s->needle[k]))
			return 0;
	return s->needle[0] != NULL;
}

/* The values of the line as the event's own and its peer's. */
static void fill(const struct hx_vals *x, struct hlog_event *e)
{
	const struct hx_val *v;
	if (!e->ip[0] && (v = hlog__xfind(x, HX_IP, HX_THIS)))
		snprintf(e->ip, sizeof(e->ip), "%s", v->s);
	if (!e->peer_ip[0] && ((v = hlog__xfind(x, HX_IP, HX_OTHER)) ||
			       (v = hlog__xfind(x, HX_HOST, HX_OTHER))))
		snprintf(e->peer_ip, sizeof(e->peer_ip), "%s", v->s);
	if (e->rank < 0 && (v = hlog__xfind(x, HX_RANK, HX_THIS)))
		e->rank = (int)v->n;
	if (e->peer_rank < 0 && (v = hlog__xfind(x, HX_RANK, HX_OTHER)))
		e->peer_rank = (int)v->n;
	if (e->dev < 0 && (v = hlog__xfind(x, HX_DEV, HX_THIS)))
		e->dev = (int)v->n;
	if (e->peer_dev < 0 && (v = hlog__xfind(x, HX_DEV, HX_OTHER)))
		e->peer_dev = (int)v->n;
	if (!e->group[0] && hlog__xgroup(x)[0])
		snprintf(e->group, sizeof(e->group), "%s", hlog__xgroup(x));
}

const struct hlog_sig *hlog__sig_match(struct pspan m, const struct hx_vals *x,
				       struct hlog_event *e, const struct hlog_hits *h)
{
	const struct hlog_sig *s;
	for (size_t i = 0; (s = hlog__sig_at(i)); i++) {
		if (!matches(m, i, s, h))
			continue;
		e->kind = HLOG_INNER;
		e->cat = s->cat;
		snprintf(e->detail, sizeof(e->detail), "%s", s->detail);
		if (s->refine && !s->refine(m, x, e)) {
			e->kind = HLOG_NONE;
			e->cat = HCAT_NONE;
			e->detail[0] = '\0';
			continue;
		}
		if (s->result)
			e->result = s->result;
		fill(x, e);
		return s;
	}
	return NULL;
}
