/* npu-smi parsers and the HCCS verdicts. npu-smi prints "\t%-30s : value" lines whose
 * padding, spacing and bracket style vary between versions, so every parser here splits on
 * the first ':' and on runs of blanks, and never on column positions. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probes/npu/npusmi.h"
#include "probes/tool/ptext.h"

/* Splits "key : value" on the first ':'; 0 when the line has none. */
static int key_value(struct pspan line, struct pspan *key, struct pspan *val)
{
	const char *c = memchr(line.s, ':', line.n);
	if (!c)
		return 0;
	key->s = line.s;
	key->n = (size_t)(c - line.s);
	val->s = c + 1;
	val->n = line.n - key->n - 1;
	*key = probe__trim(*key);
	*val = probe__trim(*val);
	return 1;
}

/* A small non-negative int, or -1. */
static int small_int(struct pspan s)
{
	unsigned long long v;
	if (probe__u64(s, &v) || v > 1000000)
		return -1;
	return (int)v;
}

/* ---- info -l ---- */

int npusmi_parse_list(const char *buf, size_t len, struct npusmi_chips *c, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, line, key, val;
	int npu = -1, chips_of_npu = 0;
	unsigned lineno = 0;

	memset(c, 0, sizeof(*c));
	while (probe__next_line(&rest, &line)) {
		lineno++;
		if (!key_value(line, &key, &val))
			continue;
		if (probe__eq_nocase(key, "NPU ID")) {
			int id = small_int(val);
			if (id < 0) {
				snprintf(err, errlen, "line %u: NPU ID is not a number", lineno);
				return -EINVAL;
			}
			if (npu >= 0 && chips_of_npu == 0 && c->n < NPUSMI_MAX_CHIPS)
				c->v[c->n++] = (struct npusmi_chip){npu, 0, -1, -1, ""};
			npu = id;
			chips_of_npu = 0;
			c->nnpus++;
		} else if (probe__eq_nocase(key, "Chip Count") && npu >= 0) {
			int cnt = small_int(val);
			if (cnt < 0 || cnt > 16) {
				snprintf(err, errlen,
					 "line %u: Chip Count is not a number from 0 to 16",
					 lineno);
				return -EINVAL;
			}
			for (int k = 0; k < cnt && c->n < NPUSMI_MAX_CHIPS; k++)
				c->v[c->n++] = (struct npusmi_chip){npu, k, -1, -1, ""};
			chips_of_npu = cnt ? cnt : -1;
		}
	}
	if (npu >= 0 && chips_of_npu == 0 && c->n < NPUSMI_MAX_CHIPS)
		c->v[c->n++] = (struct npusmi_chip){npu, 0, -1, -1, ""};
	if (!c->nnpus) {
		snprintf(err, errlen, "no \"NPU ID\" line in the output of info -l");
		return -EINVAL;
	}
	return 0;
}

/* ---- info -m ---- */

/* The columns of info -m, in the order the header names them. Builds differ: "NPU ID Chip
 * ID Chip Logic ID Chip Name" (A2), with "Chip Phy-ID" after the logic id (A3), or "NPU ID
 * Slot ID Chip ID Chip Phy-ID Chip Name" without a logic id; the name is last and may hold
 * blanks ("Ascend 910B3"). */
enum map_col { MAP_NPU, MAP_SLOT, MAP_CHIP, MAP_LOGIC, MAP_PHY, MAP_NCOLS };

struct map_layout {
	enum map_col col[MAP_NCOLS]; /* the numeric columns, left to right */
	size_t n;
	int has[MAP_NCOLS];
};

/* 0, or -1 when the header lacks NPU ID or Chip ID, or has neither a logic nor a physical
 * id (the id hccn_tool and the rank table go by). */
static int map_header(struct pspan t, struct map_layout *m)
{
	static const char *const names[MAP_NCOLS] = {
		[MAP_NPU] = "NPU ID",	     [MAP_SLOT] = "Slot ID", [MAP_CHIP] = "Chip ID",
		[MAP_LOGIC] = "Chip Logic ID", [MAP_PHY] = "Chip Phy-ID",
	};
	const char *at[MAP_NCOLS];
	memset(m, 0, sizeof(*m));
	for (int c = 0; c < MAP_NCOLS; c++) {
		at[c] = memmem(t.s, t.n, names[c], strlen(names[c]));
		m->has[c] = at[c] != NULL;
	}
	if (!m->has[MAP_NPU] || !m->has[MAP_CHIP] || (!m->has[MAP_LOGIC] && !m->has[MAP_PHY]))
		return -1;
	for (size_t k = 0; k < MAP_NCOLS; k++) { /* by position: at most five, a selection */
		int best = -1;
		for (int c = 0; c < MAP_NCOLS; c++) {
			int used = 0;
			for (size_t j = 0; j < m->n; j++)
				used |= m->col[j] == (enum map_col)c;
			if (at[c] && !used && (best < 0 || at[c] < at[best]))
				best = c;
		}
		if (best < 0)
			break;
		m->col[m->n++] = (enum map_col)best;
	}
	return 0;
}

int npusmi_parse_mapping(const char *buf, size_t len, struct npusmi_chips *c, char *err,
			 size_t errlen)
{
	struct pspan rest = {buf, len}, line;
	struct map_layout m;
	int seen_header = 0, bad_header = 0, last_npu = -1;

	memset(c, 0, sizeof(*c));
	while (probe__next_line(&rest, &line)) {
		struct pspan t = probe__trim(line);
		if (probe__starts(t, "NPU ID")) {
			seen_header = !map_header(t, &m);
			bad_header |= !seen_header;
			continue;
		}
		if (!seen_header)
			continue;
		int v[MAP_NCOLS] = {-1, -1, -1, -1, -1};
		size_t k;
		struct pspan w;
		for (k = 0; k < m.n && probe__next_word(&t, &w, NULL); k++) {
			v[m.col[k]] = small_int(w);
			/* "-": the MCU's logic id, not a chip HCCS or RoCE knows */
			if (v[m.col[k]] < 0 && !(m.col[k] == MAP_LOGIC && probe__eq(w, "-")))
				break;
		}
		if (k < m.n || v[MAP_NPU] < 0 || v[MAP_CHIP] < 0)
			continue;
		struct pspan name = probe__trim(t);
		if (m.has[MAP_LOGIC] ? v[MAP_LOGIC] < 0 : probe__eq_nocase(name, "Mcu"))
			continue;
		if (c->n == NPUSMI_MAX_CHIPS)
			break;
		struct npusmi_chip *x = &c->v[c->n++];
		*x = (struct npusmi_chip){v[MAP_NPU], v[MAP_CHIP], v[MAP_LOGIC], v[MAP_PHY], ""};
		probe__copy(x->name, sizeof(x->name), name);
		if (v[MAP_NPU] != last_npu) {
			c->nnpus++;
			last_npu = v[MAP_NPU];
		}
	}
	if (!c->n) {
		snprintf(err, errlen, "%s",
			 seen_header  ? "no chip rows in the output of info -m"
			 : bad_header ? "the info -m header has no NPU ID, Chip ID, and Chip Logic "
					"ID or Chip Phy-ID columns"
				      : "no \"NPU ID\" header in the output of info -m");
		return -EINVAL;
	}
	return 0;
}

/* ---- info -t hccs ---- */

static const char *const hccs_keys[HCCS_NFIELDS] = {
	[HCCS_LANE_MODE] = "hccs lane mode", [HCCS_LANE_LIST] = "hccs link lane list",
	[HCCS_SPEED] = "hccs link speed",    [HCCS_TX_PACKETS] = "hccs tx packets",
	[HCCS_TX_BYTES] = "hccs tx bytes",   [HCCS_RX_PACKETS] = "hccs rx packets",
	[HCCS_RX_BYTES] = "hccs rx bytes",   [HCCS_RETRY] = "hccs retry count",
	[HCCS_ERROR] = "hccs error count",
};

const char *npusmi_hccs_key(enum npusmi_hccs_field f)
{
	return (unsigned)f < HCCS_NFIELDS ? hccs_keys[f] : "?";
}


static int parse_array(struct npusmi_hccs *h, enum npusmi_hccs_field f, struct pspan val,
		       unsigned lineno, char *err, size_t errlen)
{
	struct pspan w;
	size_t k = 0;
	/* "[a   b   ]", "[a b]", "[a, b]", "a b" and a lone "[a": all the same. */
	while (probe__next_word(&val, &w, "[],;")) {
		if (k == NPUSMI_MAX_LINKS) {
			snprintf(err, errlen, "line %u: '%s' has more than %d values", lineno,
				 hccs_keys[f], NPUSMI_MAX_LINKS);
			return -EINVAL;
		}
		unsigned long long v;
		if (probe__eq_nocase(w, "NA") || probe__eq(w, "-")) {
			v = NPUSMI_NA;
		} else if (probe__u64(w, &v)) {
			char q[32];
			probe__copy(q, sizeof(q), w);
			snprintf(err, errlen, "line %u: '%s' value \"%s\" is not a number", lineno,
				 hccs_keys[f], q);
			return -EINVAL;
		}
		if (f == HCCS_LANE_LIST) {
			for (size_t i = 0; i < w.n; i++) {
				if (v != NPUSMI_NA && w.s[i] != '0' && w.s[i] != '1') {
					snprintf(err, errlen,
						 "line %u: lane list \"%.*s\" is not made of 0 and "
						 "1",
						 lineno, (int)(w.n < 16 ? w.n : 16), w.s);
					return -EINVAL;
				}
			}
			probe__copy(h->lane_list[k], sizeof(h->lane_list[k]), w);
		}
		h->val[f][k++] = v;
	}
	h->n[f] = k;
	return 0;
}

int npusmi_parse_hccs(const char *buf, size_t len, struct npusmi_hccs *h, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, line, key, val;
	unsigned lineno = 0;
	int seen = 0;

	memset(h, 0, sizeof(*h));
	while (probe__next_line(&rest, &line)) {
		lineno++;
		struct pspan t = probe__trim(line);
		if (probe__starts(t, "This device does not support querying hccs")) {
			h->unsupported = 1;
			continue;
		}
		if (!key_value(line, &key, &val))
			continue;
		if (probe__key_is(key, "hccs health status")) {
			probe__copy(h->health, sizeof(h->health), val);
			seen = 1;
			continue;
		}
		if (probe__key_is(key, "hccs first error lane")) {
			probe__copy(h->first_error_lane, sizeof(h->first_error_lane), val);
			seen = 1;
			continue;
		}
		for (int f = 0; f < HCCS_NFIELDS; f++) {
			if (!probe__key_is(key, hccs_keys[f]))
				continue;
			int rc =
				parse_array(h, (enum npusmi_hccs_field)f, val, lineno, err, errlen);
			if (rc)
				return rc;
			seen = 1;
			break;
		}
	}
	if (h->unsupported)
		return 0;
	if (!seen) {
		snprintf(err, errlen, "no hccs field in the output");
		return -EINVAL;
	}
	return 0;
}

/* ---- info -t topo ---- */

/* NPU0, Phy-ID12, NIC3: a device label; returns 1 for NPU/Phy-ID, 2 for NIC, else 0. */
static int label_kind(struct pspan w)
{
	static const char *const pre[] = {"NPU", "Phy-ID", "NIC"};
	for (int p = 0; p < 3; p++) {
		size_t n = strlen(pre[p]);
		if (w.n <= n || w.n > n + 4 || memcmp(w.s, pre[p], n))
			continue;
		struct pspan d = {w.s + n, w.n - n};
		if (small_int(d) >= 0)
			return p == 2 ? 2 : 1;
	}
	return 0;
}

int npusmi_parse_topo(const char *buf, size_t len, struct npusmi_topo *t, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, line, w;
	/* Every column of the header (devices and NICs), and where each device column is kept. */
	int col_keep[2 * NPUSMI_TOPO_MAX];
	size_t ncols = 0;
	int header = 0;

	memset(t, 0, sizeof(*t));
	while (probe__next_line(&rest, &line)) {
		struct pspan s = line, first, second;
		if (probe__starts(probe__trim(line), "This device does not support querying topo")) {
			t->unsupported = 1;
			continue;
		}
		if (!probe__next_word(&s, &first, NULL))
			continue;
		if (probe__starts(first, "Legend"))
			break;
		if (!label_kind(first))
			continue;
		struct pspan s2 = s;
		int has_second = probe__next_word(&s2, &second, NULL);
		if (!header && (!has_second || label_kind(second) || probe__eq(second, "CPU"))) {
			/* the header: labels up to "CPU Affinity" */
			struct pspan h = line;
			while (probe__next_word(&h, &w, NULL) && label_kind(w)) {
				if (ncols == 2 * NPUSMI_TOPO_MAX)
					break;
				col_keep[ncols] = -1;
				if (label_kind(w) == 1 && t->n < NPUSMI_TOPO_MAX) {
					col_keep[ncols] = (int)t->n;
					probe__copy(t->label[t->n++], sizeof(t->label[0]), w);
				}
				ncols++;
			}
			header = 1;
			continue;
		}
		if (!header || label_kind(first) != 1)
			continue;
		size_t row = t->n;
		for (size_t i = 0; i < t->n; i++)
			if (probe__eq(first, t->label[i]))
				row = i;
		if (row == t->n)
			continue;
		for (size_t c = 0; c < ncols && probe__next_word(&s, &w, NULL); c++)
			if (col_keep[c] >= 0)
				probe__copy(t->link[row][col_keep[c]], sizeof(t->link[0][0]), w);
	}
	if (!t->n && t->unsupported)
		return 0;
	if (!t->n) {
		snprintf(err, errlen, "no topology matrix in the output of info -t topo");
		return -EINVAL;
	}
	return 0;
}

int npusmi_topo_is_hccs(const char *type)
{
	return !strcmp(type, "HCCS") || !strcmp(type, "HCCS_SW") || !strcmp(type, "SIO");
}

static int topo_linked(const struct npusmi_topo *t, size_t a, size_t b)
{
	return npusmi_topo_is_hccs(t->link[a][b]) || npusmi_topo_is_hccs(t->link[b][a]);
}

static size_t find_root(size_t *parent, size_t x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

size_t npusmi_topo_check(const struct npusmi_topo *t, struct npusmi_topo_miss *miss, size_t max,
			 size_t *group)
{
	size_t parent[NPUSMI_TOPO_MAX], size[NPUSMI_TOPO_MAX] = {0}, target[NPUSMI_TOPO_MAX];
	size_t n = t->n, big = 0, nmiss = 0;

	*group = 0;
	for (size_t i = 0; i < n; i++)
		parent[i] = i;
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			if (topo_linked(t, a, b))
				parent[find_root(parent, a)] = find_root(parent, b);
	for (size_t i = 0; i < n; i++)
		size[find_root(parent, i)]++;
	for (size_t i = 0; i < n; i++)
		if (size[i] > big)
			big = size[i];
	if (big < 2) /* no HCCS at all (PCIe cards): nothing is expected */
		return 0;
	size_t g = big;
	while (n % g)
		g++;
	*group = g;
	/* Each group that is short joins the next short ones, in device order, until full. */
	for (size_t i = 0; i < n; i++)
		target[i] = find_root(parent, i);
	size_t fill = 0, cur = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t r = find_root(parent, i);
		if (size[r] >= g || r != i)
			continue;
		if (cur == (size_t)-1 || fill + size[r] > g) {
			cur = r;
			fill = 0;
		}
		fill += size[r];
		for (size_t k = 0; k < n; k++)
			if (find_root(parent, k) == r)
				target[k] = cur;
	}
	for (size_t a = 0; a < n; a++) {
		for (size_t b = a + 1; b < n; b++) {
			if (target[a] != target[b])
				continue;
			int ab = npusmi_topo_is_hccs(t->link[a][b]);
			int ba = npusmi_topo_is_hccs(t->link[b][a]);
			if (ab && ba)
				continue;
			if (nmiss < max) {
				struct npusmi_topo_miss *m = &miss[nmiss];
				m->a = a;
				m->b = b;
				snprintf(m->type, sizeof(m->type), "%s",
					 *t->link[a][b] ? t->link[a][b] : "?");
				snprintf(m->reverse, sizeof(m->reverse), "%s",
					 strcmp(t->link[a][b], t->link[b][a])
						 ? (*t->link[b][a] ? t->link[b][a] : "?")
						 : "");
			}
			nmiss++;
		}
	}
	return nmiss;
}

/* ---- HCCS verdicts ---- */

static int lanes_active(const char *list)
{
	int n = 0;
	for (const char *p = list; *p; p++)
		n += *p == '1';
	return n;
}

static int has(const struct npusmi_hccs *h, enum npusmi_hccs_field f, size_t k)
{
	return k < h->n[f] && h->val[f][k] != NPUSMI_NA;
}

/* Down on this chip: lane mode 0, no lane active or speed 0. */
static int link_down(const struct npusmi_hccs *h, size_t k, char *why, size_t len)
{
	if (has(h, HCCS_LANE_MODE, k) && h->val[HCCS_LANE_MODE][k] == 0) {
		snprintf(why, len, "lane mode 0");
		return 1;
	}
	if (k < h->n[HCCS_LANE_LIST] && h->val[HCCS_LANE_LIST][k] != NPUSMI_NA &&
	    !lanes_active(h->lane_list[k])) {
		snprintf(why, len, "no active lane (lane list %s)", h->lane_list[k]);
		return 1;
	}
	if (has(h, HCCS_SPEED, k) && h->val[HCCS_SPEED][k] == 0) {
		snprintf(why, len, "speed 0");
		return 1;
	}
	return 0;
}

static const struct npusmi_hccs *latest(const struct hccs_chip *c)
{
	return c->have_second ? &c->second : &c->first;
}

static size_t chip_links(const struct npusmi_hccs *h)
{
	size_t n = 0;
	for (int f = 0; f < HCCS_NFIELDS; f++)
		if (h->n[f] > n)
			n = h->n[f];
	return n;
}

static int usable(const struct hccs_chip *c)
{
	return !c->failed && !c->first.unsupported;
}

/* The best lane mode and speed of any link that is up, on any chip: what the others are
 * measured against. */
static void best_of(struct hccs_chip *chips, size_t n, unsigned long long *best_mode,
		    unsigned long long *best_speed)
{
	char why[96];
	*best_mode = *best_speed = 0;
	for (size_t i = 0; i < n; i++) {
		struct hccs_chip *c = &chips[i];
		if (!usable(c))
			continue;
		const struct npusmi_hccs *h = latest(c);
		c->nlinks = chip_links(h);
		if (c->have_second && chip_links(&c->first) > c->nlinks)
			c->nlinks = chip_links(&c->first);
		for (size_t k = 0; k < c->nlinks; k++) {
			if (link_down(h, k, why, sizeof(why)))
				continue;
			if (has(h, HCCS_LANE_MODE, k) && h->val[HCCS_LANE_MODE][k] > *best_mode)
				*best_mode = h->val[HCCS_LANE_MODE][k];
			if (has(h, HCCS_SPEED, k) && h->val[HCCS_SPEED][k] > *best_speed)
				*best_speed = h->val[HCCS_SPEED][k];
		}
	}
}

/* A port that is down on every chip is not cabled on this board. */
static void unused_ports(struct hccs_chip *chips, size_t n, int *unused)
{
	char why[96];
	for (size_t k = 0; k < NPUSMI_MAX_LINKS; k++) {
		size_t seen = 0, down = 0;
		for (size_t i = 0; i < n; i++) {
			if (!usable(&chips[i]) || k >= chips[i].nlinks)
				continue;
			seen++;
			down += (size_t)link_down(latest(&chips[i]), k, why, sizeof(why));
		}
		unused[k] = seen > 1 && down == seen;
	}
}

/* The chip's own status: its query, its health and its first error lane; 0 when its links
 * are to be read too. */
static int chip_status(struct hccs_chip *c)
{
	c->status = PROBE_PASS;
	c->reason[0] = '\0';
	if (c->failed) {
		c->status = PROBE_UNKNOWN;
		snprintf(c->reason, sizeof(c->reason), "%s", c->err);
		return 1;
	}
	if (c->first.unsupported) {
		c->status = PROBE_SKIP;
		snprintf(c->reason, sizeof(c->reason), "this device does not support querying hccs");
		return 1;
	}
	const struct npusmi_hccs *h = latest(c);
	const char *health = h->health;
	if (c->have_second && *c->first.health && strcmp(c->first.health, "OK"))
		health = c->first.health;
	if (!*health) {
		c->status = PROBE_UNKNOWN;
		probe_reason_add(c->reason, sizeof(c->reason), "no hccs health status in the output");
	} else if (strcmp(health, "OK")) {
		c->status = PROBE_FAIL;
		probe_reason_add(c->reason, sizeof(c->reason), "hccs health status %s", health);
	}
	if (*h->first_error_lane && strcmp(h->first_error_lane, "NA")) {
		c->status = probe_status_worst(c->status, PROBE_WARN);
		probe_reason_add(c->reason, sizeof(c->reason), "first error lane %s",
				 h->first_error_lane);
	}
	return 0;
}

/* The retry and error counters of link k that grew between the two reads. */
static void link_counters(const struct hccs_chip *c, size_t k, struct hccs_link_verdict *v,
			  double interval_s)
{
	for (int f = HCCS_RETRY; f <= HCCS_ERROR; f++) {
		if (!has(&c->first, f, k) || !has(&c->second, f, k))
			continue;
		unsigned long long a = c->first.val[f][k], b = c->second.val[f][k];
		if (b <= a)
			continue;
		if (f == HCCS_RETRY)
			v->retry_delta = b - a;
		else
			v->error_delta = b - a;
		v->status = probe_status_worst(v->status, f == HCCS_ERROR ? PROBE_FAIL : PROBE_WARN);
		if (f == HCCS_ERROR || !strcmp(v->state, "up") || !strcmp(v->state, "-"))
			v->state = "errors";
		probe_reason_add(v->reason, sizeof(v->reason), "%s count +%llu in %.0f s",
				 f == HCCS_RETRY ? "retry" : "error", b - a, interval_s);
	}
}

/* Link k of chip c: down (or not cabled, when down on every chip), degraded against the best
 * lane mode or with lanes inactive, slow against the best speed, or with counters that grew. */
static void link_verdict(struct hccs_chip *c, size_t k, int unused, unsigned long long best_mode,
			 unsigned long long best_speed, double interval_s)
{
	const struct npusmi_hccs *h = latest(c);
	struct hccs_link_verdict *v = &c->link[k];
	char why[96];
	memset(v, 0, sizeof(*v));
	v->status = PROBE_PASS;
	v->state = "up";
	if (k >= h->n[HCCS_LANE_MODE] && k >= h->n[HCCS_LANE_LIST] && k >= h->n[HCCS_SPEED]) {
		v->state = "-";
		snprintf(v->reason, sizeof(v->reason),
			 "no lane mode, lane list or speed in this npu-smi's output");
	}
	if (link_down(h, k, why, sizeof(why))) {
		v->status = unused ? PROBE_SKIP : PROBE_FAIL;
		v->state = unused ? "unused" : "down";
		snprintf(v->reason, sizeof(v->reason), "%s%s", why,
			 unused ? ", as on every chip: not cabled on this board" : "");
		return;
	}
	if (has(h, HCCS_LANE_MODE, k) && h->val[HCCS_LANE_MODE][k] < best_mode) {
		v->status = PROBE_WARN;
		v->state = "degraded";
		probe_reason_add(v->reason, sizeof(v->reason), "lane mode %llu, others %llu",
				 h->val[HCCS_LANE_MODE][k], best_mode);
	}
	if (k < h->n[HCCS_LANE_LIST] && h->val[HCCS_LANE_LIST][k] != NPUSMI_NA &&
	    strchr(h->lane_list[k], '0')) {
		v->status = PROBE_WARN;
		v->state = "degraded";
		probe_reason_add(v->reason, sizeof(v->reason), "lane list %s: %d of %zu lanes active",
				 h->lane_list[k], lanes_active(h->lane_list[k]),
				 strlen(h->lane_list[k]));
	}
	if (has(h, HCCS_SPEED, k) && h->val[HCCS_SPEED][k] < best_speed) {
		v->status = PROBE_WARN;
		if (!strcmp(v->state, "up"))
			v->state = "slow";
		probe_reason_add(v->reason, sizeof(v->reason), "speed %llu, others %llu",
				 h->val[HCCS_SPEED][k], best_speed);
	}
	if (c->have_second)
		link_counters(c, k, v, interval_s);
}

enum probe_status hccs_assess(struct hccs_chip *chips, size_t n, double interval_s)
{
	unsigned long long best_mode, best_speed;
	enum probe_status worst = PROBE_PASS;
	int unused[NPUSMI_MAX_LINKS];
	best_of(chips, n, &best_mode, &best_speed);
	unused_ports(chips, n, unused);
	for (size_t i = 0; i < n; i++) {
		struct hccs_chip *c = &chips[i];
		int done = chip_status(c);
		if (c->status != PROBE_SKIP)
			worst = probe_status_worst(worst, c->status);
		if (done)
			continue;
		for (size_t k = 0; k < c->nlinks; k++) {
			link_verdict(c, k, unused[k], best_mode, best_speed, interval_s);
			worst = probe_status_worst(worst, c->link[k].status);
		}
	}
	return worst;
}

/* "\t%-30s : %s" lines (info -t board, -t spod-info, -t health): the value of key. */
int npusmi_field(const char *buf, size_t len, const char *key, char *out, size_t outlen)
{
	struct pspan rest = { .s = buf, .n = len }, line;
	size_t kl = strlen(key);
	if (outlen)
		out[0] = '\0';
	while (probe__next_line(&rest, &line)) {
		struct pspan t = probe__trim(line);
		const char *colon = memchr(t.s, ':', t.n);
		if (!colon)
			continue;
		struct pspan k = probe__trim((struct pspan){ .s = t.s, .n = (size_t)(colon - t.s) });
		if (k.n != kl || memcmp(k.s, key, kl))
			continue;
		struct pspan v = probe__trim(
			(struct pspan){ .s = colon + 1, .n = t.n - (size_t)(colon + 1 - t.s) });
		if (!v.n || v.n >= outlen)
			return -EINVAL;
		for (size_t i = 0; i < v.n; i++)
			if ((unsigned char)v.s[i] < 0x20 || (unsigned char)v.s[i] > 0x7e)
				return -EINVAL;
		memcpy(out, v.s, v.n);
		out[v.n] = '\0';
		return 0;
	}
	return -ENOENT;
}
