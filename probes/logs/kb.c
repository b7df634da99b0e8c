/* The knowledge base's tables and their matcher. One pass over a line finds every entity it
 * shows: an Aho-Corasick automaton over one keyword per group (its longest, the "anchor")
 * names the groups worth checking, and only those are checked in full (all keywords, in
 * order). Matching 1050 entities one by one would search each line some 2000 times. */
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/kb.h"
#include "probes/logs/kbint.h"
#include "ranktable/base/acm.h"

static int ac_add(struct kb *kb, const char *s, int group)
{
	size_t id = group >= 0 ? (size_t)group : kb->ngroup + (size_t)(-1 - group);
	return acm_add(kb->acm, s, strlen(s), (int)id);
}

/* The longest run of characters an expression must contain literally ("" when none): what
 * decides whether the expression is worth running on a line. */
static void regex_literal(const char *rx, char *out, size_t len)
{
	char run[256];
	size_t n = 0;
	out[0] = '\0';
	for (const char *p = rx;; p++) {
		int lit = -1, end = !*p;
		if (!end && *p == '\\' && p[1] && strchr(".[]()*+?{}|^$\\", p[1]))
			lit = (unsigned char)*++p;
		else if (!end && !strchr(".[]()*+?{}|^$\\", *p))
			lit = (unsigned char)*p;
		/* a character made optional or repeated by what follows is not required as is */
		if (lit >= 0 && p[1] && strchr("*?{", p[1]))
			lit = -1;
		if (lit >= 0 && n + 1 < sizeof(run)) {
			run[n++] = (char)lit;
			continue;
		}
		if (n > strlen(out) && n < len) {
			memcpy(out, run, n);
			out[n] = '\0';
		}
		n = 0;
		if (end)
			break;
		if (*p == '[') /* skip a bracket expression or a count whole */
			while (p[1] && p[1] != ']')
				p++;
		if (*p == '{')
			while (p[1] && p[1] != '}')
				p++;
		if (*p == '|') { /* an alternative: nothing is required of the whole */
			out[0] = '\0';
			break;
		}
	}
}

static const char *anchor_of(const struct kb *kb, const struct kb_group *g)
{
	const char *best = "";
	for (int i = 0; i < g->nn; i++)
		if (strlen(kb->needle[g->n0 + i]) > strlen(best))
			best = kb->needle[g->n0 + i];
	return best;
}

/* The kinds of log ascend-fd's base names ("CANN_Plog | OS"): the system's are the kernel and
 * host OS logs, the NPU's device-side and host-driver logs, the BMC's and the cluster
 * software's; the rest (plogs, training and engine logs) are applications'. */
static int where_of(const char *log)
{
	static const char *const sys[] = { "NPU_OS", "NPU_Host", "NPU_History", "NPU_Device",
					   "CANN_Device", "OS", "BMC", "NodeD", "LCNE", "DL_" };
	int w = 0;
	char part[64];
	for (const char *p = log ? log : ""; *p;) {
		size_t n = strcspn(p, "|");
		size_t k = n < sizeof(part) - 1 ? n : sizeof(part) - 1;
		memcpy(part, p, k);
		part[k] = '\0';
		const char *a = part + strspn(part, " ");
		int is_sys = 0;
		for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
			is_sys |= !strncmp(a, sys[i], strlen(sys[i]));
		if (*a)
			w |= is_sys ? KB_IN_SYS : KB_IN_APP;
		p += n + (p[n] == '|');
	}
	return w ? w : KB_IN_APP | KB_IN_SYS;
}

/* The automaton's needles, in the order the image was built with: each group's anchor, and
 * the literal part of each entity's expression that compiled. */
static int add_needles(struct kb *kb)
{
	for (size_t e = 0; e < kb->nent; e++) {
		const struct kb_entity *en = &kb->ent[e];
		for (int g = en->g0; g < en->g0 + en->ng; g++) {
			const char *a = anchor_of(kb, &kb->group[g]);
			if (*a && ac_add(kb, a, g))
				return -ENOMEM;
		}
		char lit[128];
		if (!kb->rxok[e])
			continue;
		regex_literal(en->regex, lit, sizeof(lit));
		if (*lit && ac_add(kb, lit, -1 - (int)e))
			return -ENOMEM;
	}
	return acm_build(kb->acm);
}

/* Builds what matching needs from the tables: group -> entity, the automaton, the compiled
 * expressions and the edges by source. */
int kb__index(struct kb *kb, char *err, size_t errlen)
{
	kb->gent = calloc(kb->ngroup + 1, sizeof(*kb->gent));
	kb->rx = calloc(kb->nent + 1, sizeof(*kb->rx));
	kb->rxok = calloc(kb->nent + 1, 1);
	kb->efirst = calloc(kb->nent + 2, sizeof(*kb->efirst));
	kb->where = calloc(kb->nent + 1, 1);
	kb->spec = calloc(kb->nent + 1, sizeof(*kb->spec));
	kb->edst = calloc(kb->nedge + 1, sizeof(*kb->edst));
	if (!kb->gent || !kb->rx || !kb->rxok || !kb->efirst || !kb->edst || !kb->where ||
	    !kb->spec)
		goto nomem;
	for (size_t e = 0; e < kb->nent; e++) {
		const struct kb_entity *en = &kb->ent[e];
		kb->where[e] = (unsigned char)where_of(en->log);
		for (int g = en->g0; g < en->g0 + en->ng; g++) {
			kb->gent[g] = (int)e;
			size_t bytes = 0;
			for (int i = 0; i < kb->group[g].nn; i++)
				bytes += strlen(kb->needle[kb->group[g].n0 + i]);
			kb->spec[e] = bytes > kb->spec[e] ? bytes : kb->spec[e];
		}
		if (!en->regex || !*en->regex)
			continue;
		if (regcomp(&kb->rx[e], en->regex, REG_EXTENDED | REG_NOSUB)) {
			/* a Python expression POSIX cannot read: the entity keeps its keywords */
			continue;
		}
		kb->rxok[e] = 1;
		char lit[128];
		regex_literal(en->regex, lit, sizeof(lit));
		kb->spec[e] = strlen(lit) > kb->spec[e] ? strlen(lit) : kb->spec[e];
		if (!*lit)
			kb->rxall[kb->nrxall < KB_RXALL ? kb->nrxall++ : KB_RXALL - 1] = (int)e;
	}
	for (size_t i = 0; i < kb->nrxall; i++)
		kb->rxfix_ok[i] = !rx_fixed_compile(kb->ent[kb->rxall[i]].regex, &kb->rxfix[i]);
	for (size_t i = 0; i < kb->nedge; i++)
		kb->efirst[kb->edge[i].src + 1]++;
	for (size_t e = 0; e < kb->nent; e++)
		kb->efirst[e + 1] += kb->efirst[e];
	int *fill = calloc(kb->nent + 1, sizeof(*fill));
	if (!fill)
		goto nomem;
	for (size_t i = 0; i < kb->nedge; i++) {
		int s = kb->edge[i].src;
		kb->edst[kb->efirst[s] + fill[s]++] = kb->edge[i].dst;
	}
	free(fill);
	/* the build's image when it was made from these needles, else built here */
	kb->acm = kb->image ? acm_open_image(kb->image, kb->image_len) : NULL;
	if (kb->acm && add_needles(kb)) {
		acm_free(kb->acm);
		kb->acm = NULL;
	}
	if (!kb->acm && (!(kb->acm = acm_new(0)) || add_needles(kb)))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "%s: out of memory", kb->source);
	return -ENOMEM;
}

void kb__unindex(struct kb *kb)
{
	for (size_t e = 0; kb->rx && e < kb->nent; e++)
		if (kb->rxok[e])
			regfree(&kb->rx[e]);
	free(kb->rx);
	free(kb->rxok);
	free(kb->gent);
	free(kb->efirst);
	free(kb->edst);
	free(kb->where);
	free(kb->spec);
	acm_free(kb->acm);
}

static struct kb builtin;
static int builtin_rc;
static char builtin_err[200];
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

/* The automaton of the built-in base as the build made it (build/gen/acm_kb.bin, linked into
 * hcclctl); absent (NULL) in the programs linked without it, which build it at start. */
extern const unsigned char hlog_kb_acm_image[] __attribute__((weak));
extern const unsigned char hlog_kb_acm_image_end[] __attribute__((weak));

static void build_builtin(void)
{
	if (hlog_kb_acm_image && hlog_kb_acm_image_end) {
		builtin.image = hlog_kb_acm_image;
		builtin.image_len = (size_t)(hlog_kb_acm_image_end - hlog_kb_acm_image);
	}
	builtin.source = kb_builtin_source;
	builtin.needle = kb_builtin_needles;
	builtin.group = kb_builtin_groups;
	builtin.ent = kb_builtin_entities;
	builtin.edge = kb_builtin_edges;
	builtin.nneedle = kb_builtin_counts[0];
	builtin.ngroup = kb_builtin_counts[1];
	builtin.nent = kb_builtin_counts[2];
	builtin.nedge = kb_builtin_counts[3];
	builtin_rc = kb__index(&builtin, builtin_err, sizeof(builtin_err));
}

int kb_builtin(const struct kb **out, char *err, size_t errlen)
{
	pthread_once(&builtin_once, build_builtin);
	if (builtin_rc) {
		snprintf(err, errlen, "%s", builtin_err);
		return builtin_rc;
	}
	*out = &builtin;
	return 0;
}

const struct acm *kb__builtin_acm(void)
{
	const struct kb *kb;
	char err[200];
	return kb_builtin(&kb, err, sizeof(err)) ? NULL : kb->acm;
}

const char *kb_source(const struct kb *kb) { return kb->source; }
size_t kb_count(const struct kb *kb) { return kb->nent; }
size_t kb_edge_count(const struct kb *kb) { return kb->nedge; }

const struct kb_entity *kb_entity_at(const struct kb *kb, size_t i)
{
	return i < kb->nent ? &kb->ent[i] : NULL;
}

int kb_group_size(const struct kb *kb, const struct kb_entity *e, int g)
{
	return g >= 0 && g < e->ng ? kb->group[e->g0 + g].nn : 0;
}

const char *kb_keyword(const struct kb *kb, const struct kb_entity *e, int g, int i)
{
	if (g < 0 || g >= e->ng || i < 0 || i >= kb->group[e->g0 + g].nn)
		return NULL;
	return kb->needle[kb->group[e->g0 + g].n0 + i];
}

void kb_scan_release(struct kb_scan *st)
{
	free(st->seen);
	memset(st, 0, sizeof(*st));
}

static int group_on_line(const struct kb *kb, int g, const char *s, size_t n)
{
	const struct kb_group *gr = &kb->group[g];
	size_t at = 0;
	for (int i = 0; i < gr->nn; i++) {
		const char *k = kb->needle[gr->n0 + i];
		size_t kl = strlen(k);
		const char *p = kl ? memmem(s + at, n - at, k, kl) : s + at;
		if (!p)
			return 0;
		at = (size_t)(p - s) + kl;
	}
	return 1;
}

/* A multi-line option's group matched on this line: 1 when every group of its window has
 * matched within the window's lines. */
static int window_done(const struct kb *kb, struct kb_scan *st, int g)
{
	if (!st)
		return 0;
	if (st->nseen < kb->ngroup) {
		unsigned *p = realloc(st->seen, kb->ngroup * sizeof(*p));
		if (!p)
			return 0;
		memset(p + st->nseen, 0, (kb->ngroup - st->nseen) * sizeof(*p));
		st->seen = p;
		st->nseen = kb->ngroup;
	}
	st->seen[g] = st->line;
	int first = g;
	while (first > 0 && kb->group[first].win < 0)
		first--;
	int win = kb->group[first].win >> 8, ng = kb->group[first].win & 0xff;
	for (int k = first; k < first + ng && k < (int)kb->ngroup; k++)
		if (!st->seen[k] || st->line - st->seen[k] > (unsigned)win)
			return 0;
	return 1;
}

static int add_hit(int *hits, int nh, int max, int e)
{
	for (int i = 0; i < nh; i++)
		if (hits[i] == e)
			return nh;
	if (nh < max)
		hits[nh++] = e;
	return nh;
}

static int by_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

#define RX_LINE_MAX 4095 /* the most of a line an expression is tried on */

static int rx_line(const struct kb *kb, size_t e, const char *s, size_t n)
{
	char buf[RX_LINE_MAX + 1];
	size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	memcpy(buf, s, k);
	buf[k] = '\0';
	return !regexec(&kb->rx[e], buf, 0, NULL, 0);
}

size_t kb_specificity(const struct kb *kb, int ent)
{
	return ent >= 0 && (size_t)ent < kb->nent ? kb->spec[ent] : 0;
}

/* The groups and expressions whose anchor a line holds, each once, in the order found (the
 * first 256): struct kb_found (kb.h). Kept by the caller, not in the base: threads scanning
 * files at once share it with no lock (a lock per line held them to one core). A line has a
 * handful, so a linear search is the cheap way to keep each once. */
void kb_found_init(struct kb_found *c, const struct kb *kb)
{
	c->kb = kb;
	c->n = 0;
}

const struct acm *kb_automaton(const struct kb *kb)
{
	return kb->acm;
}

int kb_take(void *ctx, int id, size_t end)
{
	struct kb_found *c = ctx;
	(void)end;
	int g = (size_t)id < c->kb->ngroup ? id : -1 - (id - (int)c->kb->ngroup);
	for (int i = 0; i < c->n; i++)
		if (c->g[i] == g)
			return 0;
	if (c->n < (int)(sizeof(c->g) / sizeof(c->g[0])))
		c->g[c->n++] = g;
	return 0;
}

int kb_match(const struct kb *kb, struct kb_scan *st, const char *s, size_t n, int where,
	     int *hits, int max)
{
	struct kb_found cs;
	kb_found_init(&cs, kb);
	acm_scan(kb->acm, s, n, kb_take, &cs);
	return kb_match_found(kb, st, &cs, s, n, where, hits, max);
}

int kb_match_found(const struct kb *kb, struct kb_scan *st, const struct kb_found *cs,
		   const char *s, size_t n, int where, int *hits, int max)
{
	int nh = 0;
	if (st)
		st->line++;
	int nc = cs->n;
	const int *cand = cs->g;
	for (int i = 0; i < nc; i++) {
		int g = cand[i];
		int e = g < 0 ? -1 - g : kb->gent[g];
		if (!(kb->where[e] & where))
			continue;
		if (g < 0) {
			if (rx_line(kb, (size_t)e, s, n))
				nh = add_hit(hits, nh, max, e);
		} else if (group_on_line(kb, g, s, n) &&
			   (!kb->group[g].win || window_done(kb, st, g))) {
			nh = add_hit(hits, nh, max, kb->gent[g]);
		}
	}
	for (size_t i = 0; i < kb->nrxall; i++)
		if ((kb->where[kb->rxall[i]] & where) &&
		    (kb->rxfix_ok[i] ? rx_fixed_search(&kb->rxfix[i], s, n, RX_LINE_MAX)
				     : rx_line(kb, (size_t)kb->rxall[i], s, n)))
			nh = add_hit(hits, nh, max, kb->rxall[i]);
	qsort(hits, (size_t)nh, sizeof(*hits), by_int);
	return nh;
}

int kb_causes(const struct kb *kb, int a, int b)
{
	if (a < 0 || b < 0 || (size_t)a >= kb->nent || (size_t)b >= kb->nent || a == b)
		return 0;
	int *queue = malloc(kb->nent * sizeof(*queue));
	unsigned char *seen = calloc(kb->nent, 1);
	int found = 0;
	size_t head = 0, tail = 0;
	if (!queue || !seen)
		goto out;
	queue[tail++] = a;
	seen[a] = 1;
	while (head < tail && !found) {
		int u = queue[head++];
		for (int k = kb->efirst[u]; k < kb->efirst[u + 1]; k++) {
			int v = kb->edst[k];
			if (v == b)
				found = 1;
			if (!seen[v]) {
				seen[v] = 1;
				queue[tail++] = v;
			}
		}
	}
out:
	free(queue);
	free(seen);
	return found;
}
