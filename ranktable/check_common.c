/* Helpers every format's rules use: reporting, paths, numbers, addresses, duplicates. */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ranktable/check.h"

void rt__report(struct rt__ctx *c, const char *code, const struct rt__jnode *at, int at_key,
		const char *path, const char *hint, const char *fmt, ...)
{
	const struct rt_rule *r = rt__rule(code);
	unsigned line = 0, col = 0;
	char msg[1024];
	va_list ap;

	if (at_key)
		rt__jpos_nodekey(c->pos, at, &line, &col);
	if (!line)
		rt__jpos_node(c->pos, at, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	enum rt_severity sev = r ? r->sev : RT_SEV_ERROR;
	if (r && (r->flags & RT_RULE_ONE_SERVER) && c->single && sev == RT_SEV_ERROR)
		sev = RT_SEV_WARNING;
	const char *hccl = r && !c->foreign ? r->hccl : NULL;
	int rc = rt_diags_add(c->d, sev, r ? r->code : code, line, col, path, hint, "%s%s%s%s",
			      msg, hccl ? " (HCCL " : "", hccl ? hccl : "", hccl ? ")" : "");
	if (rc && !c->err)
		c->err = rc;
}

const char *rt__path(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, RT_PATHLEN, fmt, ap);
	va_end(ap);
	return buf;
}

size_t rt__put(char *buf, size_t len, size_t at, const char *s)
{
	while (*s && at + 1 < len)
		buf[at++] = *s++;
	if (at < len)
		buf[at] = 0;
	return at;
}

size_t rt__put_num(char *buf, size_t len, size_t at, long v)
{
	char d[24];
	size_t k = sizeof(d);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	d[--k] = 0;
	do
		d[--k] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		d[--k] = '-';
	return rt__put(buf, len, at, d + k);
}

const char *rt__path_at(char *buf, const char *pre, const char *name, size_t idx)
{
	size_t at = rt__put(buf, RT_PATHLEN, rt__put(buf, RT_PATHLEN, 0, pre), name);
	if (idx != RT_NO_IDX) {
		at = rt__put_num(buf, RT_PATHLEN, rt__put(buf, RT_PATHLEN, at, "["), (long)idx);
		rt__put(buf, RT_PATHLEN, at, "]");
	}
	return buf;
}

const char *rt__times(size_t k, char *buf, size_t len)
{
	if (k == 2)
		snprintf(buf, len, "twice");
	else
		snprintf(buf, len, "%zu times", k);
	return buf;
}

void rt__sb_ranges(struct buf *b, const long *ids, size_t n, size_t max)
{
	size_t runs = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && (ids[j + 1] == ids[j] || ids[j + 1] == ids[j] + 1))
			j++;
		if (runs == max) {
			buf_printf(b, ", ...");
			return;
		}
		const char *sep = runs ? ", " : "";
		if (ids[j] == ids[i])
			buf_printf(b, "%s%ld", sep, ids[i]);
		else
			buf_printf(b, "%s%ld-%ld", sep, ids[i], ids[j]);
		runs++;
		i = j + 1;
	}
}

int rt__dec(const char *s, unsigned long max, long *out)
{
	unsigned long v = 0;
	*out = -1;
	if (!s || !*s)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (v > (ULONG_MAX - 9) / 10) {
			v = ULONG_MAX;
			continue;
		}
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (v > max || v > LONG_MAX)
		return -2;
	*out = (long)v;
	return 0;
}

/* One dot- or colon-separated part of a placeholder: "*", "x", "xx", "xxx", "-" or "". */
static int wild_part(const char *p, size_t n)
{
	if (n == 0)
		return 1;
	if (n == 1 && (*p == '*' || *p == '-'))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (p[i] != 'x' && p[i] != 'X')
			return 0;
	return 1;
}

static int digits(const char *p, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

static int is_placeholder(const char *s, size_t len)
{
	if ((len == 7 && !memcmp(s, "reserve", 7)) || (len == 3 && !memcmp(s, "N/A", 3)))
		return 1;
	size_t parts = 0, wild = 0;
	for (size_t i = 0; i <= len;) {
		size_t j = i;
		while (j < len && s[j] != '.')
			j++;
		parts++;
		if (wild_part(s + i, j - i))
			wild++;
		else if (!digits(s + i, j - i))
			return 0;
		i = j + 1;
	}
	return parts == 4 && wild > 0;
}

/* An id that embeds a masked address ("server_0_10.*.*.*"): a run of digits, dots, '*',
 * 'x' and '-' that is a placeholder and masks at least one part with '*' or 'x'. */
int rt__holds_placeholder(const char *s)
{
	for (const char *p = s; *p;) {
		size_t n = strspn(p, "0123456789.*xX-");
		if (n && memchr(p, '.', n) && (memchr(p, '*', n) || memchr(p, 'x', n) ||
					      memchr(p, 'X', n)) &&
		    is_placeholder(p, n))
			return 1;
		p += n ? n : 1;
	}
	return 0;
}

static int is_hostname(const char *s, size_t len)
{
	int alpha = 0;
	if (!len || len > 253 || s[0] == '.' || s[0] == '-' || s[len - 1] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_')
			alpha = 1;
		else if (!(ch >= '0' && ch <= '9') && ch != '-' && ch != '.')
			return 0;
		if (ch == '.' && i + 1 < len && s[i + 1] == '.')
			return 0;
	}
	return alpha;
}

/* Three dots and digits but for a character or two: meant as an IPv4 address. */
static int looks_like_ipv4(const char *s, size_t len)
{
	size_t dots = 0, other = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			dots++;
		else if (s[i] < '0' || s[i] > '9')
			other++;
	}
	return dots == 3 && other <= 2 && len >= 7;
}

enum rt__ipkind rt__ipkind(const char *s, size_t len)
{
	char buf[64];
	unsigned char addr[16];

	if (len == 0)
		return RT_IP_EMPTY;
	if (len < sizeof(buf) && !memchr(s, 0, len)) {
		memcpy(buf, s, len);
		buf[len] = 0;
		if (inet_pton(AF_INET, buf, addr) == 1)
			return RT_IP_V4;
		if (inet_pton(AF_INET6, buf, addr) == 1)
			return RT_IP_V6;
	}
	if (is_placeholder(s, len))
		return RT_IP_PLACEHOLDER;
	if (looks_like_ipv4(s, len))
		return RT_IP_INVALID; /* a typo in an address ("192.168.1.1O"), not a host name */
	if (is_hostname(s, len))
		return RT_IP_HOSTNAME;
	return RT_IP_INVALID;
}

static int cmp_item(const void *a, const void *b)
{
	const struct rt__item *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->s || y->s) {
		int r = strcmp(x->s ? x->s : "", y->s ? y->s : "");
		if (r)
			return r;
	} else if (x->n != y->n) {
		return x->n < y->n ? -1 : 1;
	}
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_run_first(const void *a, const void *b)
{
	const struct rt__item *const *x = a, *const *y = b;
	return ((*x)->idx > (*y)->idx) - ((*x)->idx < (*y)->idx);
}

static int same(const struct rt__item *x, const struct rt__item *y)
{
	if (x->group != y->group)
		return 0;
	if (x->s || y->s)
		return !strcmp(x->s ? x->s : "", y->s ? y->s : "");
	return x->n == y->n;
}

static uint64_t item_hash(const struct rt__item *x)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ x->group;
	if (x->s) {
		for (const unsigned char *q = (const unsigned char *)x->s; *q; q++)
			h = (h ^ *q) * 0x100000001b3ULL;
	} else {
		h = (h ^ (uint64_t)x->n) * 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

/* Whether two items of v may be the same, by hashing: a table without a duplicate (the
 * usual one) is then not sorted at all, where sorting 65 536 device IPs by strcmp took a
 * tenth of validating them. -ENOMEM, 1 or 0. Items with and without a string in one list
 * (none such today) are left to the sort, whose same() compares them its own way. */
static int any_same(const struct rt__item *v, size_t n)
{
	size_t strs = 0;
	for (size_t i = 0; i < n; i++)
		strs += v[i].s != NULL;
	if (strs && strs < n)
		return 1;
	size_t cap = 64;
	while (cap < 2 * n)
		cap *= 2;
	uint32_t *slot = calloc(cap, sizeof(*slot)); /* index + 1; 0 is empty */
	if (!slot || n >= UINT32_MAX)
		return free(slot), -ENOMEM;
	int found = 0;
	for (size_t i = 0; i < n && !found; i++) {
		size_t h = (size_t)item_hash(&v[i]) & (cap - 1);
		while (slot[h] && !(found = same(&v[slot[h] - 1], &v[i])))
			h = (h + 1) & (cap - 1);
		slot[h] = (uint32_t)(i + 1);
	}
	free(slot);
	return found;
}

int rt__dups(struct rt__item *v, size_t n,
	     void (*cb)(struct rt__ctx *c, const struct rt__item *run, size_t k, void *arg),
	     struct rt__ctx *c, void *arg)
{
	if (n < 2)
		return 0;
	int some = any_same(v, n);
	if (some <= 0)
		return some;
	qsort(v, n, sizeof(*v), cmp_item);
	/* Report runs in file order of their first member, so findings come out in the
	 * order a reader meets them even before the final sort by position. */
	size_t nruns = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && same(&v[i], &v[j]))
			j++;
		if (j - i > 1)
			nruns++;
		i = j;
	}
	if (!nruns)
		return 0;
	const struct rt__item **runs = malloc(nruns * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	nruns = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && same(&v[i], &v[j]))
			j++;
		if (j - i > 1)
			runs[nruns++] = &v[i];
		i = j;
	}
	qsort(runs, nruns, sizeof(*runs), cmp_run_first);
	for (size_t r = 0; r < nruns; r++) {
		const struct rt__item *run = runs[r];
		size_t k = 1;
		while (run + k < v + n && same(run, run + k))
			k++;
		cb(c, run, k, arg);
	}
	free(runs);
	return 0;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

void rt__unknown_keys(struct rt__ctx *c, const struct rt__jnode *obj, const char *path,
		      const char *const *known)
{
	char p[RT_PATHLEN];
	if (!rt__jis_obj(obj))
		return;
	for (const struct rt__jnode *m = rt__jchild(obj); m; m = rt__jnext(m)) {
		if (!rt__jkey(m) || in_list(rt__jkey(m), known))
			continue;
		rt__report(c, "unknown-key", m, 1, rt__path(p, "%s.%s", path, rt__jkey(m)),
			   "check the spelling; HCCL ignores keys it does not know",
			   "unknown key \"%s\" in %s", rt__jkey(m), path);
	}
}

int rt__object_at(struct rt__ctx *c, const struct rt__jnode *n, const char *path,
		  const char *who)
{
	if (rt__jis_obj(n))
		return 1;
	rt__report(c, "value-type", n, 0, path, NULL, "%s must be an object, not %s", who,
		   rt__type(n));
	return 0;
}

const char *rt__type(const struct rt__jnode *node)
{
	if (!node)
		return "missing";
	if (rt__jis_str(node))
		return "a string";
	if (rt__jis_num(node))
		return "a number";
	if (rt__jis_bool(node))
		return "a boolean";
	if (rt__jis_null(node))
		return "null";
	if (rt__jis_arr(node))
		return "an array";
	if (rt__jis_obj(node))
		return "an object";
	return "an unknown value";
}

const char *rt__fmt_num(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

const char *rt__str_field(struct rt__ctx *c, const struct rt__jnode *obj, const char *key,
			  const char *path, const char *who, int flags,
			  const struct rt__jnode **node)
{
	char p[RT_PATHLEN], hint[160], nb[64] = "";
	const struct rt__jnode *m = rt__jget(obj, key);
	*node = m;
	if ((m && rt__jis_str(m)) || (!m && !(flags & RT_STR_REQUIRED)))
		return m ? rt__jstr(m) : NULL;
	/* the path only for a finding: ten fields a rank, 65 536 ranks */
	rt__path(p, "%s.%s", path, key);
	if (!m) {
		rt__report(c, "key-missing", obj, 0, p, NULL, "missing \"%s\" in %s", key, who);
		return NULL;
	}
	if (!rt__jis_num(m) || !(flags & (RT_STR_NUMBER | RT_STR_QUOTE))) {
		rt__report(c, "value-type", m, 0, p, NULL, "%s of %s must be a string, not %s", key,
			   who, rt__type(m));
		return NULL;
	}
	int quote = !!(flags & RT_STR_QUOTE);
	if (quote) {
		rt__fmt_num(nb, sizeof(nb), rt__jnum(m));
		snprintf(hint, sizeof(hint), "write \"%s\": \"%s\"", key, nb);
	}
	rt__report(c, "value-not-string", m, 0, p, quote ? hint : NULL,
		   "%s%s%s of %s is a number, not a string; HCCL rejects it and misleadingly "
		   "reports it as missing",
		   key, quote ? " " : "", nb, who);
	return NULL;
}

void rt__check_status(struct rt__ctx *c, const struct rt__jnode *root, int required)
{
	rt__check_status_at(c, root, "$", required);
}

void rt__check_status_at(struct rt__ctx *c, const struct rt__jnode *root, const char *base,
			 int required)
{
	const struct rt__jnode *st = rt__jget(root, "status");
	char p[RT_PATHLEN];
	rt__path(p, "%s.status", base);
	if (!st) {
		if (required)
			rt__report(c, "key-missing", root, 0, base,
				   "add \"status\": \"completed\" once the table is final",
				   "missing \"status\"");
		return;
	}
	if (!rt__jis_str(st)) {
		rt__report(c, "value-type", st, 0, p, "write \"status\": \"completed\"",
			   "status must be a string, not %s", rt__type(st));
		return;
	}
	snprintf(c->t->status, sizeof(c->t->status), "%s", rt__jstr(st));
	if (!strcmp(rt__jstr(st), "completed"))
		return;
	if (!strcmp(rt__jstr(st), "initializing"))
		rt__report(c, "status-not-ready", st, 0, p,
			   "wait until the Ascend Operator (MindCluster) fills in the table and "
			   "sets \"completed\"; HCCL polls the file for up to 30 minutes",
			   "status is \"initializing\": the rank table is not ready yet");
	else
		rt__report(c, "status-invalid", st, 0, p,
			   "set \"status\": \"completed\" when the table is final",
			   "status \"%s\" is not \"completed\"", rt__jstr(st));
}

int rt__check_v1x_version(struct rt__ctx *c, const struct rt__jnode *obj,
			  const struct rt__v1x_version *w)
{
	const struct rt__jnode *ver = rt__jget(obj, "version");
	char p[RT_PATHLEN];
	rt__path(p, "%s.version", w->base);
	if (!ver) {
		rt__report(c, "key-missing", obj, 0, p, w->hint_missing, "missing \"version\"%s",
			   w->in);
		return 0;
	}
	if (!rt__jis_str(ver)) {
		rt__report(c, "value-type", ver, 0, p, NULL, "version must be a string, not %s",
			   rt__type(ver));
		return 0;
	}
	if (!strcmp(rt__jstr(ver), "1.2"))
		return 1;
	if (strcmp(rt__jstr(ver), "1.0"))
		rt__report(c, "version-unsupported", ver, 0, p, w->hint_unsupported,
			   "version \"%.16s\" of %s is not \"1.0\" or \"1.2\"", rt__jstr(ver),
			   w->of);
	return 0;
}

long rt_host_unsafe_at(const char *s)
{
	/* What a shell or ssh would read as syntax or an option: control bytes, whitespace,
	 * metacharacters, a leading '-'. UTF-8 names are fine: every word is quoted anyway. */
	static const char meta[] = " \t;|&$`'\"<>()*?[]{}!#~\\^";
	for (long i = 0; s[i]; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch == 0x7f || strchr(meta, ch) || (ch == '-' && i == 0))
			return i;
	}
	return -1;
}

/* ---- servers from ranks ---- */

struct gref {
	const char *s; /* server_id, NULL sorts first */
	size_t idx;    /* file index of the rank */
	size_t first;  /* file index of the first rank of its server */
};

static int cmp_gref_id(const void *a, const void *b)
{
	const struct gref *x = a, *y = b;
	if (!x->s != !y->s)
		return x->s ? 1 : -1;
	int r = x->s ? strcmp(x->s, y->s) : 0;
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_gref_first(const void *a, const void *b)
{
	const struct gref *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int same_id(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int rt__group_servers(struct rt_table *t)
{
	size_t n = t->nranks, ns = 0;
	struct gref *g = malloc((n ? n : 1) * sizeof(*g));
	struct rt_rank *nr = malloc((n ? n : 1) * sizeof(*nr));
	int rc = -ENOMEM;
	if (!g || !nr)
		goto out;
	for (size_t i = 0; i < n; i++)
		g[i] = (struct gref){ t->ranks[i].server_id, i, i };
	/* Sorted by id then file index, the first of each run is where its server starts. */
	qsort(g, n, sizeof(*g), cmp_gref_id);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || !same_id(g[i].s, g[i - 1].s))
			ns++;
		g[i].first = i && same_id(g[i].s, g[i - 1].s) ? g[i - 1].first : g[i].idx;
	}
	qsort(g, n, sizeof(*g), cmp_gref_first);
	free(t->servers);
	t->nservers = 0;
	t->servers = calloc(ns ? ns : 1, sizeof(*t->servers));
	if (!t->servers)
		goto out;
	for (size_t i = 0; i < n; i++) {
		nr[i] = t->ranks[g[i].idx];
		if (i == 0 || g[i].first != g[i - 1].first) {
			struct rt_server *S = &t->servers[t->nservers++];
			S->server_id = nr[i].server_id;
			S->host_ip = nr[i].host_ip;
			S->first_rank = i;
		}
		t->servers[t->nservers - 1].nranks++;
	}
	free(t->ranks);
	t->ranks = nr;
	nr = NULL;
	rc = 0;
out:
	free(nr);
	free(g);
	return rc;
}
