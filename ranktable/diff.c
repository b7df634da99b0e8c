/* Semantic rank-table diff, keyed by rank_id: two tables that differ only in layout, key
 * order or the order of servers are equal. Both rank arrays are sorted by rank id and
 * walked together, so 65536-rank tables cost O(n log n). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>

#include "ranktable/ranktable.h"

#define NONE "(none)"

static int cmp_rank(const void *pa, const void *pb)
{
	const struct rt_rank *a = *(const struct rt_rank *const *)pa;
	const struct rt_rank *b = *(const struct rt_rank *const *)pb;

	if (a->rank_id != b->rank_id)
		return a->rank_id < b->rank_id ? -1 : 1;
	/* Repeated rank ids (an invalid table) pair up in file order. */
	return a < b ? -1 : a > b;
}

/* Pointers to t's ranks that have a rank id, sorted by it. Ranks without one cannot be
 * matched across tables and are left out; validate reports them. */
static int sorted_ranks(const struct rt_table *t, const struct rt_rank ***out, size_t *n)
{
	const struct rt_rank **v;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (!t->nranks)
		return 0;
	v = malloc(t->nranks * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->nranks; i++) {
		if (t->ranks[i].rank_id >= 0)
			v[k++] = &t->ranks[i];
	}
	qsort(v, k, sizeof(*v), cmp_rank);
	*out = v;
	*n = k;
	return 0;
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Appends one change; every string is copied. */
static int push(struct rt_changes *c, enum rt_change_kind kind, long rank, const char *field,
		const char *old_val, const char *new_val, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int push(struct rt_changes *c, enum rt_change_kind kind, long rank, const char *field,
		const char *old_val, const char *new_val, const char *fmt, ...)
{
	struct rt_change *ch;
	char what[RT_ERRLEN];
	va_list ap;

	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 16;
		struct rt_change *nv = realloc(c->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		c->v = nv;
		c->cap = nc;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ch = &c->v[c->n];
	ch->kind = kind;
	ch->rank_id = rank;
	ch->what = strdup(what);
	ch->field = xstrdup(field);
	ch->old_val = xstrdup(old_val);
	ch->new_val = xstrdup(new_val);
	if (!ch->what || (field && !ch->field) || (old_val && !ch->old_val) ||
	    (new_val && !ch->new_val)) {
		free(ch->what);
		free(ch->field);
		free(ch->old_val);
		free(ch->new_val);
		return -ENOMEM;
	}
	c->n++;
	return 0;
}

static const char *str_or_none(const char *s)
{
	return s ? s : NONE;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static void fmt_num(char *buf, size_t len, long v)
{
	if (v < 0)
		snprintf(buf, len, NONE);
	else
		snprintf(buf, len, "%ld", v);
}

/* "node_0/1": server and device, the rank's place. */
static void fmt_where(char *buf, size_t len, const struct rt_rank *r)
{
	char dev[24];

	fmt_num(dev, sizeof(dev), r->device_id);
	snprintf(buf, len, "%s/%s", str_or_none(r->server_id), dev);
}

static int str_field(struct rt_changes *c, enum rt_change_kind kind, long rank,
		     const char *field, const char *a, const char *b)
{
	if (str_eq(a, b))
		return 0;
	return push(c, kind, rank, field, str_or_none(a), str_or_none(b), "rank %ld %s %s -> %s",
		    rank, field, str_or_none(a), str_or_none(b));
}

static int num_field(struct rt_changes *c, long rank, const char *field, long a, long b)
{
	char sa[24], sb[24];

	if (a == b)
		return 0;
	fmt_num(sa, sizeof(sa), a);
	fmt_num(sb, sizeof(sb), b);
	return push(c, RT_CH_FIELD, rank, field, sa, sb, "rank %ld %s %s -> %s", rank, field, sa,
		    sb);
}

/* Changes of one rank present in both tables, in a fixed order: place, IP, then fields. */
static int diff_rank(struct rt_changes *c, const struct rt_rank *a, const struct rt_rank *b)
{
	long id = a->rank_id;
	int rc = 0;

	if (!str_eq(a->server_id, b->server_id) || a->device_id != b->device_id) {
		char wa[RT_ERRLEN / 4], wb[RT_ERRLEN / 4], da[24], db[24];

		fmt_where(wa, sizeof(wa), a);
		fmt_where(wb, sizeof(wb), b);
		fmt_num(da, sizeof(da), a->device_id);
		fmt_num(db, sizeof(db), b->device_id);
		rc = push(c, RT_CH_MOVED, id, "location", wa, wb,
			  "rank %ld moved from %s device %s to %s device %s", id,
			  str_or_none(a->server_id), da, str_or_none(b->server_id), db);
	}
	if (!rc)
		rc = str_field(c, RT_CH_IP, id, "device_ip", a->device_ip, b->device_ip);
	if (!rc)
		rc = str_field(c, RT_CH_FIELD, id, "host_ip", a->host_ip, b->host_ip);
	if (!rc)
		rc = str_field(c, RT_CH_FIELD, id, "super_pod_id", a->super_pod_id, b->super_pod_id);
	if (!rc)
		rc = num_field(c, id, "super_device_id", a->super_device_id, b->super_device_id);
	if (!rc)
		rc = num_field(c, id, "device_port", a->device_port, b->device_port);
	return rc;
}

static int added_or_removed(struct rt_changes *c, enum rt_change_kind kind,
			    const struct rt_rank *r)
{
	char where[RT_ERRLEN / 4], dev[24];

	fmt_where(where, sizeof(where), r);
	fmt_num(dev, sizeof(dev), r->device_id);
	if (kind == RT_CH_ADDED)
		return push(c, kind, r->rank_id, NULL, NULL, where, "rank %ld added on %s device %s",
			    r->rank_id, str_or_none(r->server_id), dev);
	return push(c, kind, r->rank_id, NULL, where, NULL, "rank %ld removed from %s device %s",
		    r->rank_id, str_or_none(r->server_id), dev);
}

/* Version, format and status: one table-level change each, rank id -1. */
static int diff_table(struct rt_changes *c, const struct rt_table *a, const struct rt_table *b)
{
	const char *va = a->version[0] ? a->version : NONE;
	const char *vb = b->version[0] ? b->version : NONE;
	int rc = 0;

	if (strcmp(a->version, b->version) != 0)
		rc = push(c, RT_CH_FIELD, -1, "version", va, vb, "version %s -> %s", va, vb);
	else if (a->format != b->format)
		rc = push(c, RT_CH_FIELD, -1, "format", rt_format_name(a->format),
			  rt_format_name(b->format), "format %s -> %s", rt_format_name(a->format),
			  rt_format_name(b->format));
	if (!rc && strcmp(a->status, b->status) != 0) {
		va = a->status[0] ? a->status : NONE;
		vb = b->status[0] ? b->status : NONE;
		rc = push(c, RT_CH_FIELD, -1, "status", va, vb, "status %s -> %s", va, vb);
	}
	return rc;
}

int rt_diff(const struct rt_table *a, const struct rt_table *b, struct rt_changes *out,
	    char *err, size_t errlen)
{
	const struct rt_rank **ra = NULL, **rb = NULL;
	size_t na = 0, nb = 0, i = 0, j = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = sorted_ranks(a, &ra, &na);
	if (!rc)
		rc = sorted_ranks(b, &rb, &nb);
	if (!rc)
		rc = diff_table(out, a, b);
	while (!rc && (i < na || j < nb)) {
		if (j == nb || (i < na && ra[i]->rank_id < rb[j]->rank_id))
			rc = added_or_removed(out, RT_CH_REMOVED, ra[i++]);
		else if (i == na || rb[j]->rank_id < ra[i]->rank_id)
			rc = added_or_removed(out, RT_CH_ADDED, rb[j++]);
		else
			rc = diff_rank(out, ra[i++], rb[j++]);
	}
	free(ra);
	free(rb);
	if (rc) {
		rt_changes_release(out);
		snprintf(err, errlen, "out of memory comparing rank tables");
	}
	return rc;
}

void rt_changes_release(struct rt_changes *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].what);
		free(c->v[i].field);
		free(c->v[i].old_val);
		free(c->v[i].new_val);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
