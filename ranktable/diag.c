/* Findings: a growable list of located messages, and the names of the formats. */
#include <errno.h>
#include <stdarg.h>

#include "ranktable/ranktable.h"

const char *rt_format_name(enum rt_format f)
{
	switch (f) {
	case RT_FMT_V1_0:
		return "1.0";
	case RT_FMT_V1_2:
		return "1.2";
	case RT_FMT_V2_0:
		return "2.0";
	case RT_FMT_LEGACY:
		return "legacy";
	case RT_FMT_TOPO:
		return "topology";
	case RT_FMT_VLLM_PD:
		return "vllm-ascend-pd";
	case RT_FMT_GLOBAL:
		return "mindcluster-global";
	case RT_FMT_GE_CLUSTER:
		return "ge-cluster-config";
	case RT_FMT_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *rt_severity_name(enum rt_severity s)
{
	switch (s) {
	case RT_SEV_ERROR:
		return "error";
	case RT_SEV_WARNING:
		return "warning";
	case RT_SEV_NOTE:
		return "note";
	}
	return "error";
}

static char *dupstr(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

int rt_diags_add(struct rt_diags *d, enum rt_severity sev, const char *code, unsigned line,
		 unsigned col, const char *path, const char *hint, const char *fmt, ...)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct rt_diag *v = realloc(d->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->v = v;
		d->cap = cap;
	}

	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -EINVAL;

	struct rt_diag *g = &d->v[d->n];
	memset(g, 0, sizeof(*g));
	g->msg = malloc((size_t)len + 1);
	if (!g->msg)
		goto fail;
	va_start(ap, fmt);
	vsnprintf(g->msg, (size_t)len + 1, fmt, ap);
	va_end(ap);
	g->path = dupstr(path ? path : "$");
	if (!g->path)
		goto fail;
	if (hint) {
		g->hint = dupstr(hint);
		if (!g->hint)
			goto fail;
	}
	g->sev = sev;
	g->code = code;
	g->line = line;
	g->col = col;
	d->n++;
	if (sev == RT_SEV_ERROR)
		d->nerrors++;
	else if (sev == RT_SEV_WARNING)
		d->nwarnings++;
	else
		d->nnotes++;
	return 0;

fail:
	free(g->path);
	free(g->msg);
	return -ENOMEM;
}

/* Position 0 means unknown: those go last rather than first. */
static int before(const struct rt_diag *x, const struct rt_diag *y)
{
	unsigned long kx = x->line ? x->line : ~0UL, ky = y->line ? y->line : ~0UL;
	if (kx != ky)
		return kx < ky;
	return x->col < y->col;
}

/* A merge sort, because qsort is not stable and findings at one place must keep the order
 * the rules produced them in. Without memory for the merge, an insertion sort still works. */
void rt_diags_sort(struct rt_diags *d)
{
	size_t n = d->n;
	if (n < 2)
		return;
	struct rt_diag *tmp = malloc(n * sizeof(*tmp));
	if (!tmp) {
		for (size_t i = 1; i < n; i++) {
			struct rt_diag x = d->v[i];
			size_t j = i;
			for (; j > 0 && before(&x, &d->v[j - 1]); j--)
				d->v[j] = d->v[j - 1];
			d->v[j] = x;
		}
		return;
	}
	struct rt_diag *src = d->v, *dst = tmp;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				dst[k++] = before(&src[j], &src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct rt_diag *s = src;
		src = dst;
		dst = s;
	}
	if (src != d->v)
		memcpy(d->v, src, n * sizeof(*src));
	free(tmp);
}

void rt_diags_release(struct rt_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].msg);
		free(d->v[i].path);
		free(d->v[i].hint);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
