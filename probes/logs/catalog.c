/* Matching the catalog's rows (catalog.h). */
#include <stdio.h>
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"
#include "probes/logs/logtext.h"

static const struct hlog_sigtab *const tabs[] = {&hlog__cat_nccl, &hlog__cat_torch,
						  &hlog__cat_host};
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
	return NULL;
}

static int matches(struct pspan m, const struct hlog_sig *s)
{
	for (size_t k = 0; k < 3 && s->needle[k]; k++)
		if (!hlog__has(m, s->needle[k]))
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
				       struct hlog_event *e)
{
	const struct hlog_sig *s;
	for (size_t i = 0; (s = hlog__sig_at(i)); i++) {
		if (!matches(m, s))
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
