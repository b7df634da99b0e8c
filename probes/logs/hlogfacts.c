/* What the lines of each node state about the software it runs ("NCCL version 2.19.3+cuda12.3",
 * "Driver Version: 535.54.03", the network plugin NCCL loaded), compared across the nodes of
 * one job. A job whose nodes run different versions of one library, or one node with a network
 * plugin the others lack, fails or hangs without any of its lines reading as an error: NCCL
 * does not check that its peers run its own release. So a component stated with one value on
 * each node, but not the same one everywhere, is a cause of its own. Only values a line states
 * as the node's own count: a line that names a version it wants ("requires NCCL version 2.18 or
 * later") or compares two states none. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/catalog.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/logtext.h"

#define FACT_MAX 4096 /* (component, host) pairs kept; a bundle of 512 nodes has ~2600 */
#define FACT_SLOTS (2 * FACT_MAX) /* the index: at most half full */

/* Facts of fixed wording: NCCL's network plugin (found or not) and the network it uses, as its
 * INFO lines say them (net.cc of NVIDIA/nccl: "NET/Plugin : No plugin found (libnccl-net.so),
 * using internal implementation", "NET/Plugin: Could not find: libnccl-net.so. Using internal
 * network plugin.", "NET/Plugin: Loaded net plugin FastSocket (v4)", "Plugin Path : /opt/...",
 * "Using network IB"). value NULL: the word after the needle. */
static const struct {
	const char *comp, *needle, *value;
	int hit; /* enum hlog_hitword the needle needs */
} fixed[] = {
	{"NCCL net plugin", "NET/Plugin : No plugin found", "none", HLOG_HIT_PLUGIN},
	{"NCCL net plugin", "Using internal network plugin", "none", HLOG_HIT_PLUGIN},
	{"NCCL net plugin", "NET/Plugin: Loaded net plugin ", "loaded", HLOG_HIT_PLUGIN},
	{"NCCL net plugin", "Plugin Path : ", "loaded", HLOG_HIT_PLUGIN},
	{"NCCL network", "NCCL INFO Using network ", NULL, HLOG_HIT_NETWORK},
};

/* Words that make a stated version one wanted, compared or advised, not the node's own. */
static const char *const not_own[] = {"requir", "expect", "minimum", "at least", "or later",
				      "or newer", "or higher", "or above", "upgrad", "downgrad",
				      "compatib", "support", "deprecat", "mismatch", "recommend",
				      "should", "must", " need", "instead", ">=", "<=", " than "};

/* Words before "version" that name no component ("the version 2", "protocol version 3"). */
static const char *const no_comp[] = {
	"a",	  "an",	     "the",	 "this",     "that",   "its",	   "your",     "our",
	"new",	  "old",     "current",	 "latest",   "same",   "different", "other",   "any",
	"which",  "what",    "min",	 "max",	     "minimum", "maximum", "required", "expected",
	"installed", "protocol", "api",	 "abi",	     "file",   "format",   "schema",   "config",
	"version", "with",   "of",	 "for",	     "and",    "or",	   "in",       "to",
	"is",	  "using",   "use",	 "from",     "at",     "by",	   "on"};

static int tok_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == '+' ||
	       c == '/';
}

static int in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncasecmp(list[i], s, len))
			return 1;
	return 0;
}

/* The component whose version "version" at offset at of m states: the word it ends
 * ("cudaDriverVersion", "torch_version") or the word before it ("NCCL version"). 0: none. */
static size_t comp_before(struct pspan m, size_t at, size_t *start)
{
	size_t e = at, b;
	if (at && (isalpha((unsigned char)m.s[at - 1]) || m.s[at - 1] == '_')) {
		e = at + 7;
	} else {
		while (e && (m.s[e - 1] == ' ' || m.s[e - 1] == '\t'))
			e--;
		if (e == at || !e)
			return 0;
	}
	b = e == at + 7 ? at : e;
	while (b && tok_char(m.s[b - 1]) && e - b < 40)
		b--;
	while (b < e && !isalpha((unsigned char)m.s[b])) /* "[NCCL" -> "NCCL" */
		b++;
	/* a name longer than a fact keeps would be a different component at each lookup */
	if (e - b < 2 || e - b >= sizeof(((struct hlog_fact *)0)->comp) ||
	    (e != at + 7 && in_list(no_comp, sizeof(no_comp) / sizeof(*no_comp), m.s + b, e - b)))
		return 0;
	*start = b;
	return e - b;
}

/* The value after "version" at at: past spaces, one ':' or '=' and a 'v', a token that starts
 * with a digit ("2.19.3+cuda12.3", "535.54.03", "23.0.rc3"). 0: none. */
static size_t value_after(struct pspan m, size_t at, size_t *start)
{
	size_t i = at + 7;
	while (i < m.n && m.s[i] == ' ')
		i++;
	if (i < m.n && (m.s[i] == ':' || m.s[i] == '='))
		i++;
	while (i < m.n && m.s[i] == ' ')
		i++;
	if (i + 1 < m.n && (m.s[i] == 'v' || m.s[i] == 'V') && isdigit((unsigned char)m.s[i + 1]))
		i++;
	if (i >= m.n || !isdigit((unsigned char)m.s[i]))
		return 0;
	size_t b = i;
	while (i < m.n && tok_char(m.s[i]) && m.s[i] != '/' && i - b < 47)
		i++;
	while (i > b && (m.s[i - 1] == '.' || m.s[i - 1] == '-' || m.s[i - 1] == '+'))
		i--;
	*start = b;
	return i - b;
}

/* Where a stated value was read: its node, its host (the prefix's, else the node), the line. A
 * fact is filled from it only when it is new, so that the lines that restate a known value cost
 * a comparison, not a copy. */
struct fact_src {
	const char *node, *file;
	struct pspan host, line;
	unsigned no;
};

/* The index slot of (comp, host): the one holding its fact, else the empty one it would take.
 * A line restating a known value is one lookup, whatever the number of hosts (a linear search
 * read 21 MB of 4096 hosts' version lines at 3 MB/s). */
static size_t fact_slot(const struct hlog_report *r, const char *comp, size_t cl,
			struct pspan host)
{
	uint32_t h = 2166136261u; /* FNV-1a over the folded component, a 0 and the host */
	for (size_t i = 0; i < cl; i++)
		h = (h ^ (unsigned char)tolower((unsigned char)comp[i])) * 16777619u;
	h *= 16777619u;
	for (size_t i = 0; i < host.n; i++)
		h = (h ^ (unsigned char)host.s[i]) * 16777619u;
	for (size_t k = h % FACT_SLOTS;; k = (k + 1) % FACT_SLOTS) {
		int at = r->fact_index[k];
		if (!at)
			return k;
		const struct hlog_fact *f = &r->fact[at - 1];
		if (strlen(f->comp) == cl && !strncasecmp(f->comp, comp, cl) &&
		    strlen(f->host) == host.n && !memcmp(f->host, host.s, host.n))
			return k;
	}
}

static void add_fact(struct hlog_report *r, const char *comp, size_t cl, const char *val,
		     size_t vl, const struct fact_src *src)
{
	if (!r->fact_index && !(r->fact_index = calloc(FACT_SLOTS, sizeof(*r->fact_index))))
		return; /* a fact less: the comparison is a cause of its own, never needed */
	size_t k = fact_slot(r, comp, cl, src->host);
	if (r->fact_index[k]) {
		struct hlog_fact *f = &r->fact[r->fact_index[k] - 1];
		if (strlen(f->value) != vl || memcmp(f->value, val, vl))
			f->multi = 1;
		return;
	}
	if (r->nfact >= FACT_MAX)
		return;
	if (r->nfact == r->fact_cap) {
		size_t cap = r->fact_cap ? 2 * r->fact_cap : 16;
		struct hlog_fact *nf = realloc(r->fact, cap * sizeof(*nf));
		if (!nf)
			return; /* a fact less: the comparison is a cause of its own, never needed */
		r->fact = nf;
		r->fact_cap = cap;
	}
	struct hlog_fact *f = &r->fact[r->nfact++];
	r->fact_index[k] = (int)r->nfact;
	snprintf(f->comp, sizeof(f->comp), "%.*s", (int)cl, comp);
	snprintf(f->value, sizeof(f->value), "%.*s", (int)vl, val);
	snprintf(f->node, sizeof(f->node), "%s", src->node);
	probe__copy(f->host, sizeof(f->host), src->host);
	snprintf(f->file, sizeof(f->file), "%s", src->file);
	f->line = src->no;
	probe__copy(f->text, sizeof(f->text), src->line);
	f->multi = 0;
}

/* Whether the word right before offset cb is "Peer" or "Remote": the version after it is the
 * other end's, not this host's. */
static int peer_word_before(struct pspan m, size_t cb)
{
	size_t e = cb;
	while (e && m.s[e - 1] == ' ')
		e--;
	size_t b = e;
	while (b && isalpha((unsigned char)m.s[b - 1]))
		b--;
	return (e - b == 4 && !strncasecmp(m.s + b, "peer", 4)) ||
	       (e - b == 6 && !strncasecmp(m.s + b, "remote", 6));
}

static void version_facts(struct hlog_report *r, struct pspan m, const struct fact_src *src)
{
	for (size_t i = 0; i < sizeof(not_own) / sizeof(*not_own); i++)
		if (hlog__has_nocase(m, not_own[i]))
			return;
	for (size_t at = 0; at + 7 <= m.n; at++) {
		if (strncasecmp(m.s + at, "version", 7) ||
		    (at + 7 < m.n && isalpha((unsigned char)m.s[at + 7])))
			continue;
		size_t cb, vb, cl = comp_before(m, at, &cb), vl = cl ? value_after(m, at, &vb) : 0;
		if (!vl)
			continue;
		/* the other end's, as a handshake that compares them prints it: PRRTE's "Local
		 * PRTE version: 3.0.7" then "Peer PRTE version: 3.0.8" */
		char peer[HLOG_NODELEN];
		struct fact_src o = *src;
		if (peer_word_before(m, cb)) {
			snprintf(peer, sizeof(peer), "the peer of %.*s", (int)src->host.n,
				 src->host.s);
			o.host = (struct pspan){peer, strlen(peer)};
		}
		add_fact(r, m.s + cb, cl, m.s + vb, vl, &o);
	}
}

void hlog__fact_line(struct hlog_report *r, const struct hlog_line *l, const struct hlog_hits *h,
		     const char *file, const char *node, unsigned no, struct pspan line)
{
	int ver = hlog__hits_may(h, HLOG_HIT_VERSION);
	int any = ver;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed) && !any; i++)
		any = hlog__hits_may(h, fixed[i].hit);
	struct fact_src src = {node ? node : "", file, l->host, line, no};
	if (!src.host.n)
		src.host = (struct pspan){src.node, strlen(src.node)};
	/* a single file or a paste is one node, as the findings name it; it compares only with
	 * the peer its lines name */
	if (!src.host.n)
		src.host = (struct pspan){"node0", 5};
	if (!any || src.host.n >= HLOG_NODELEN)
		return; /* no fact */
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		const char *p;
		if (!hlog__hits_may(h, fixed[i].hit) || !(p = hlog__find(l->msg, fixed[i].needle)))
			continue;
		struct pspan v = {fixed[i].value, fixed[i].value ? strlen(fixed[i].value) : 0};
		if (!v.s) {
			v.s = p + strlen(fixed[i].needle);
			size_t end = (size_t)(l->msg.s + l->msg.n - v.s);
			while (v.n < end && v.n < 47 && tok_char(v.s[v.n]))
				v.n++;
		}
		if (v.n)
			add_fact(r, fixed[i].comp, strlen(fixed[i].comp), v.s, v.n, &src);
	}
	if (ver)
		version_facts(r, l->msg, &src);
}

void hlog__facts_append(struct hlog_report *r, const struct hlog_report *p)
{
	for (size_t i = 0; i < p->nfact; i++) {
		const struct hlog_fact *f = &p->fact[i];
		struct fact_src src = {f->node, f->file, {f->host, strlen(f->host)},
				       {f->text, strlen(f->text)}, f->line};
		add_fact(r, f->comp, strlen(f->comp), f->value, strlen(f->value), &src);
		if (!f->multi)
			continue;
		for (size_t k = 0; k < r->nfact; k++) /* the part saw two values on that host */
			if (!strcasecmp(r->fact[k].comp, f->comp) && !strcmp(r->fact[k].host, f->host))
				r->fact[k].multi = 1;
	}
}

/* The first component stated on at least two hosts, once on each, with two values: its first
 * fact in *first; the host count of the rarest value's, that value's first fact in *odd. */
static int differing(const struct hlog_report *r, size_t *first, size_t *odd)
{
	for (size_t i = 0; i < r->nfact; i++) {
		const struct hlog_fact *c = &r->fact[i];
		int seen = 0, hosts = 0, values = 0, multi = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcasecmp(r->fact[k].comp, c->comp);
		if (seen)
			continue;
		size_t best = i, best_n = (size_t)-1;
		for (size_t k = i; k < r->nfact; k++) {
			const struct hlog_fact *f = &r->fact[k];
			if (strcasecmp(f->comp, c->comp))
				continue;
			hosts++;
			multi |= f->multi;
			size_t same = 0, earlier = 0;
			for (size_t j = i; j < r->nfact; j++)
				if (!strcasecmp(r->fact[j].comp, c->comp) &&
				    !strcmp(r->fact[j].value, f->value)) {
					same++;
					earlier |= j < k;
				}
			if (!earlier)
				values++;
			if (same < best_n || (same == best_n && k < best)) {
				best_n = same;
				best = k;
			}
		}
		if (hosts >= 2 && values >= 2 && !multi) {
			*first = i;
			*odd = best;
			return 1;
		}
	}
	return 0;
}

/* The other values of component comp than odd's, each with its hosts:
 * "2.19.3+cuda12.3 on instance-8g-96c-2,instance-8g-96c-3". */
static void other_values(struct sbuf *b, const struct hlog_report *r, const char *comp,
			 const char *odd)
{
	int nv = 0;
	for (size_t k = 0; k < r->nfact; k++) {
		const struct hlog_fact *v = &r->fact[k];
		int earlier = 0;
		for (size_t j = 0; j < k && !earlier; j++)
			earlier = !strcasecmp(r->fact[j].comp, comp) &&
				  !strcmp(r->fact[j].value, v->value);
		if (strcasecmp(v->comp, comp) || !strcmp(v->value, odd) || earlier)
			continue;
		sb_add(b, "%s%s on ", nv++ ? "; " : "", v->value);
		int n = 0;
		for (size_t j = k; j < r->nfact; j++) {
			if (strcasecmp(r->fact[j].comp, comp) || strcmp(r->fact[j].value, v->value))
				continue;
			if (n == 6) {
				sb_add(b, ",...");
				break;
			}
			sb_add(b, "%s%s", n++ ? "," : "", r->fact[j].host);
		}
	}
}

/* What a component that differs across the nodes is: a release, unless a row says otherwise
 * (the network NCCL chose is a node's devices and settings, not a release of anything) */
static const struct {
	const char *comp;
	int cat;
	const char *detail, *fix;
} differs[] = {
	{"NCCL network", HCAT_CONFIG, "network-differs",
	 "make every node use the same network: on the node that chose the other one, check its "
	 "RDMA devices and their ports (ibv_devinfo, ibstat) and the NCCL_IB_DISABLE, NCCL_NET and "
	 "NCCL_IB_HCA settings its job was given, then run again"},
	{NULL, HCAT_VERSION, "differs-across-nodes",
	 "install the same release of every library the job loads (the communication library, "
	 "its network plugin, the driver and runtime) on every node, from one image or one "
	 "environment, and run again; until then no failure the nodes report between them is "
	 "trustworthy"},
};

int hlog__facts_conclude(struct hlog_report *r)
{
	size_t i, o;
	if (!differing(r, &i, &o))
		return 0;
	const struct hlog_fact *c = &r->fact[i], *odd = &r->fact[o];
	size_t d = 0;
	while (differs[d].comp && strcasecmp(differs[d].comp, c->comp))
		d++;
	char before[200];
	hlog__recast(r, HLOG_VERSION, differs[d].cat, differs[d].detail, before, sizeof(before));
	snprintf(r->node, sizeof(r->node), "%s", odd->node[0] ? odd->node : odd->host);
	snprintf(r->reported_on, sizeof(r->reported_on), "%s", r->node);
	struct sbuf b = {r->cause, sizeof(r->cause), 0};
	sb_add(&b, "%s differs across the nodes of the job: %s on %s", c->comp, odd->value,
	       odd->host);
	if (strcmp(odd->host, r->node))
		sb_add(&b, " (in %s)", r->node);
	sb_add(&b, ", but ");
	other_values(&b, r, c->comp, odd->value);
	if (before[0])
		sb_add(&b, "; what else the logs report may follow from it: %s", before);
	hlog__set_fix(r, differs[d].fix);
	const struct hlog_fact *q[2] = {odd, NULL};
	for (size_t k = 0; k < r->nfact && !q[1]; k++)
		if (!strcasecmp(r->fact[k].comp, c->comp) && strcmp(r->fact[k].value, odd->value))
			q[1] = &r->fact[k];
	for (int k = 0; k < 2 && q[k]; k++) {
		struct hlog_quote *e = &r->evidence[r->nevidence++];
		snprintf(e->file, sizeof(e->file), "%s", q[k]->file);
		e->line = q[k]->line;
		snprintf(e->text, sizeof(e->text), "%s", q[k]->text);
	}
	return 1;
}
