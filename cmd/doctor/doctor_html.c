/* doctor --html FILE: the same results as the text report, for people who would rather look
 * than read, and for the ticket a failed job leaves behind. One file, inline CSS, no scripts:
 * it opens anywhere, from a mail or a ticket, and prints. Built in memory, then written whole
 * by the atomic writer (ranktable/atomic.c), which never opens a name planted beside FILE.
 *
 * What a reader needs first comes first: where the page came from (time, command, rank table,
 * build), the cause, then the findings as plain text (a tooltip is lost on paper and in a
 * screenshot). The grid below them keeps a column for each check that failed or warned, worst
 * first, and folds the checks that passed everywhere into one column per group (npu.*,
 * host.*): 34 checks of one column each overflowed a 1400 px window sideways. Column heads
 * are set sideways, and a grid of many columns is laid out fixed to the page's width, so the
 * page never scrolls sideways (tests/cli/doctor-html.t renders it in Chromium to check). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/doctor.h"
#include "ranktable/ranktable.h"

/* How bad a status is, for the order of the findings and the columns. */
enum { R_SKIP, R_PASS, R_WARN, R_FAIL };

/* Above this many columns a grid is laid out fixed to the page's width (its cells clip
 * rather than widen the page); below, each column takes the width of its text. */
#define FIT_COLUMNS 8

static int rank_of(const char *status)
{
	return !strcmp(status, "FAIL") ? R_FAIL : !strcmp(status, "WARN") ? R_WARN
	       : !strcmp(status, "PASS")				    ? R_PASS
									    : R_SKIP;
}

static const char *const klass[] = { "s", "p", "w", "f" };
static const char *const rank_name[] = { "SKIP", "PASS", "WARN", "FAIL" };

/* s as HTML text: node reports are input from outside, so each of <>&"' is an entity, and
 * control bytes and bytes that are not UTF-8 are shown as \xNN (rt_text_escape). */
static void esc(FILE *f, const char *s)
{
	if (!s)
		return;
	size_t n = strlen(s);
	char *t = malloc(4 * n + 1);
	const char *p = s;
	if (t) { /* without it the text goes out unescaped for controls, still safe as HTML */
		rt_text_escape(t, 4 * n + 1, s, n);
		p = t;
	}
	for (; *p; p++) {
		switch (*p) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
	}
	free(t);
}

/* A folded list of nodes, with a place to break the line after each comma. */
static void esc_list(FILE *f, const char *s)
{
	char part[1024];
	for (size_t n; *s; s += n + (s[n] == ',')) {
		n = strcspn(s, ",");
		int k = (int)(n < sizeof(part) ? n : sizeof(part) - 1);
		snprintf(part, sizeof(part), "%.*s", k, s);
		esc(f, part);
		fputs(s[n] == ',' ? ",<wbr>" : "", f);
	}
}

static const char style[] =
	"body{font:14px/1.35 sans-serif;margin:2em;color:#222;background:#fff;"
	"overflow-wrap:anywhere}"
	"h1{font-size:20px;margin:0 0 .4em}h2{font-size:16px;margin:1.4em 0 .4em}"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 5px}"
	"th{background:#eee}.p{background:#9d9}.w{background:#fd7}"
	".f{background:#f77;font-weight:bold}.s{background:#f4f4f4;color:#777}"
	"table.meta th,table.meta td{border:0;background:none;text-align:left;"
	"padding:1px 1em 1px 0;vertical-align:top;overflow-wrap:anywhere}"
	"table.find{width:100%;table-layout:fixed}"
	"table.find td,table.find th{text-align:left;vertical-align:top;overflow-wrap:anywhere}"
	"col.st{width:4.5em}col.ck{width:10em}col.nd{width:12em}col.fx{width:30%}"
	"table.grid td{text-align:center;font-size:12px;overflow:hidden;white-space:nowrap}"
	"table.grid th{font-size:12px;text-align:left;overflow-wrap:anywhere}"
	"table.grid thead th+th{writing-mode:vertical-rl;writing-mode:sideways-lr;"
	"white-space:nowrap;vertical-align:bottom;padding:4px 2px}"
	"table.fit{width:100%;table-layout:fixed}col.name{width:12em}"
	".cause{font-size:16px;margin:1em 0}.note{color:#555;font-size:13px}"
	"@media print{@page{size:landscape;margin:10mm}body{margin:0;font-size:10px}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"thead{display:table-header-group}tr{break-inside:avoid}h2{break-after:avoid}}";

/* ---- where the page came from ---- */

static void meta_row(FILE *f, const char *name, const char *value)
{
	if (!value)
		return;
	fprintf(f, "<tr><th>%s</th><td>", name);
	esc(f, value);
	fputs("</td></tr>\n", f);
}

static void meta(FILE *f, const struct doctor_page *p)
{
	fputs("<table class=meta>\n", f);
	meta_row(f, "time", p->when);
	meta_row(f, "command", p->command);
	meta_row(f, "rank table", p->ranktable);
	meta_row(f, "hcclctl", p->version);
	fputs("</table>\n", f);
}

/* ---- the checks: each one's cells, its worst status ---- */

struct check {
	const char *code;
	size_t s, e; /* its cells, cells[s..e), by node */
	int worst;
};

/* The checks in report order, or NULL (out of memory); *n how many. */
static struct check *checks_of(const struct doctor_page *p, size_t *n)
{
	struct check *c = calloc(p->ncells + 1, sizeof(*c));
	*n = 0;
	for (size_t i = 0; c && i < p->ncells; i++) {
		if (!*n || strcmp(c[*n - 1].code, p->cells[i].code))
			c[(*n)++] = (struct check){ p->cells[i].code, i, i, R_SKIP };
		struct check *k = &c[*n - 1];
		k->e = i + 1;
		if (rank_of(p->cells[i].status) > k->worst)
			k->worst = rank_of(p->cells[i].status);
	}
	return c;
}

/* Check k's results on node: the worst of them (NULL: none), and how many in *n. */
static const struct doctor_cell *on_node(const struct doctor_page *p, const struct check *k,
					 int node, size_t *n)
{
	size_t lo = k->s, hi = k->e;
	while (lo < hi) { /* the first cell of node or after it */
		size_t mid = lo + (hi - lo) / 2;
		if (p->cells[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct doctor_cell *w = NULL;
	*n = 0;
	for (; lo < k->e && p->cells[lo].node == node; lo++, ++*n)
		if (!w || rank_of(p->cells[lo].status) > rank_of(w->status))
			w = &p->cells[lo];
	return w;
}

/* ---- the findings: what failed, warned or was skipped, folded across nodes ---- */

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same(const struct doctor_cell *a, const struct doctor_cell *b)
{
	return (a->node < 0) == (b->node < 0) && !strcmp(a->status, b->status) &&
	       same_text(a->msg, b->msg) && same_text(a->fix, b->fix);
}

/* The rows of check k with status rank r, each message once with the nodes it holds on;
 * idx and done have room for every cell. How many rows were written. */
static size_t finding_rows(FILE *f, const struct doctor_page *p, const struct check *k, int r,
			   int *idx, bool *done)
{
	size_t rows = 0;
	char nodes[1024];
	for (size_t i = k->s; i < k->e; i++) {
		const struct doctor_cell *c = &p->cells[i];
		if (done[i] || rank_of(c->status) != r)
			continue;
		size_t n = 0;
		for (size_t j = i; j < k->e; j++)
			if (!done[j] && same(c, &p->cells[j])) {
				done[j] = true;
				if (c->node >= 0)
					idx[n++] = p->cells[j].node;
			}
		if (n)
			rt_hostlist_fold(p->names, idx, n, nodes, sizeof(nodes));
		fprintf(f, "<tr><td class=%s>%s</td><td>", klass[r], rank_name[r]);
		esc(f, c->code);
		fputs("</td><td>", f);
		esc_list(f, n ? nodes : "cluster");
		fputs("</td><td>", f);
		esc(f, c->msg);
		fputs("</td><td>", f);
		esc(f, c->fix);
		fputs("</td></tr>\n", f);
		rows++;
	}
	return rows;
}

static int findings(FILE *f, const struct doctor_page *p, const struct check *c, size_t nc)
{
	int *idx = calloc(p->ncells + 1, sizeof(*idx));
	bool *done = calloc(p->ncells + 1, sizeof(*done));
	if (!idx || !done) {
		free(idx);
		free(done);
		return -ENOMEM;
	}
	fputs("<h2>Findings</h2>\n<table class=find><colgroup><col class=st><col class=ck>"
	      "<col class=nd><col><col class=fx></colgroup>\n<thead><tr><th>status</th>"
	      "<th>check</th><th>node</th><th>message</th><th>fix</th></tr></thead><tbody>\n",
	      f);
	size_t bad = 0, rows = 0;
	for (int r = R_FAIL; r >= R_SKIP; r--) {
		if (r == R_PASS)
			continue;
		for (size_t k = 0; k < nc; k++)
			rows += finding_rows(f, p, &c[k], r, idx, done);
		if (r == R_WARN)
			bad = rows;
	}
	if (!rows)
		fputs("<tr><td colspan=5>no results</td></tr>\n", f);
	fputs("</tbody></table>\n", f);
	if (!bad)
		fputs("<p>No check failed or warned.</p>\n", f);
	free(idx);
	free(done);
	return 0;
}

/* ---- the grid: nodes against checks, the fine ones folded by group ---- */

/* A column: one check, or a group of checks that passed or were skipped on every node. */
struct col {
	size_t o, n; /* its checks: order[o..o+n) */
	bool fold;
};

/* The columns: failing checks, then warning ones, then the rest by group (their first
 * word: npu, host, link). order has room for nc, cols for nc; the number of columns. */
static size_t columns(const struct check *c, size_t nc, size_t *order, struct col *cols)
{
	size_t no = 0, ncol = 0;
	for (int r = R_FAIL; r >= R_WARN; r--)
		for (size_t k = 0; k < nc; k++)
			if (c[k].worst == r) {
				cols[ncol++] = (struct col){ no, 1, false };
				order[no++] = k;
			}
	for (size_t k = 0; k < nc; k++) {
		if (c[k].worst >= R_WARN)
			continue;
		size_t plen = strcspn(c[k].code, "."), o = no, dup = 0;
		for (size_t m = 0; m < o && !dup; m++) /* already in an earlier group */
			dup = c[order[m]].worst < R_WARN &&
			      !strncmp(c[order[m]].code, c[k].code, plen + 1);
		if (dup)
			continue;
		for (size_t m = k; m < nc; m++)
			if (c[m].worst < R_WARN && !strncmp(c[m].code, c[k].code, plen + 1))
				order[no++] = m;
		cols[ncol++] = (struct col){ o, no - o, no - o > 1 };
	}
	return ncol;
}

/* A folded column's group: "npu.* (5)". */
static void fold_name(FILE *f, const struct check *c, const size_t *order, const struct col *l)
{
	const char *code = c[order[l->o]].code;
	fprintf(f, "%.*s.* (%zu)", (int)strcspn(code, "."), code, l->n);
}

static void grid_cell(FILE *f, const struct doctor_page *p, const struct check *c,
		      const size_t *order, const struct col *l, int node)
{
	size_t n, pass = 0, skip = 0;
	if (!l->fold) {
		const struct doctor_cell *w = on_node(p, &c[order[l->o]], node, &n);
		if (!w) {
			fputs("<td class=s></td>", f);
			return;
		}
		int r = rank_of(w->status);
		fprintf(f, "<td class=%s title=\"", klass[r]);
		esc(f, w->msg);
		if (w->fix) {
			fputs(" | fix: ", f);
			esc(f, w->fix);
		}
		fprintf(f, "\">%s</td>", rank_name[r]);
		return;
	}
	for (size_t m = 0; m < l->n; m++) {
		const struct doctor_cell *w = on_node(p, &c[order[l->o + m]], node, &n);
		if (w)
			*(rank_of(w->status) == R_PASS ? &pass : &skip) += 1;
	}
	if (!pass && !skip)
		fputs("<td class=s></td>", f);
	else if (!skip || !pass)
		fprintf(f, "<td class=%s>%s</td>", pass ? "p" : "s", pass ? "PASS" : "SKIP");
	else
		fprintf(f, "<td class=p title=\"%zu passed, %zu skipped\">%zu/%zu</td>", pass,
			skip, pass, pass + skip);
}

static void grid_rows(FILE *f, const struct doctor_page *p, const struct check *c,
		      const size_t *order, const struct col *cols, size_t ncol)
{
	bool *has = calloc(p->nnames + 1, sizeof(*has)); /* has[node + 1] */
	for (size_t i = 0; has && i < p->ncells; i++)
		if (p->cells[i].node >= -1 && p->cells[i].node < (int)p->nnames)
			has[p->cells[i].node + 1] = true;
	for (long row = -1; row < (long)p->nnames; row++) {
		if (has && !has[row + 1])
			continue;
		fputs("<tr><th>", f);
		esc(f, row < 0 ? "cluster" : p->names[row]);
		fputs("</th>", f);
		for (size_t l = 0; l < ncol; l++)
			grid_cell(f, p, c, order, &cols[l], (int)row);
		fputs("</tr>\n", f);
	}
	free(has);
}

/* Below the grid, in words: what each folded column holds. */
static void fold_note(FILE *f, const struct check *c, const size_t *order,
		      const struct col *cols, size_t ncol)
{
	int any = 0;
	for (size_t l = 0; l < ncol; l++) {
		if (!cols[l].fold)
			continue;
		fputs(any++ ? "; " : "<p class=note>Folded (passed or skipped on every node): ", f);
		fputs("<b>", f);
		fold_name(f, c, order, &cols[l]);
		fputs("</b> ", f);
		for (size_t m = 0; m < cols[l].n; m++) {
			fputs(m ? ", " : "", f);
			esc(f, c[order[cols[l].o + m]].code);
		}
	}
	if (any)
		fputs("</p>\n", f);
}

static int grid(FILE *f, const struct doctor_page *p, const struct check *c, size_t nc)
{
	size_t *order = calloc(nc + 1, sizeof(*order));
	struct col *cols = calloc(nc + 1, sizeof(*cols));
	if (!order || !cols) {
		free(order);
		free(cols);
		return -ENOMEM;
	}
	size_t ncol = columns(c, nc, order, cols);
	fprintf(f, "<h2>Checks</h2>\n<table class=\"grid%s\"><colgroup><col class=name>"
		"</colgroup>\n<thead><tr><th>node</th>", ncol > FIT_COLUMNS ? " fit" : "");
	for (size_t l = 0; l < ncol; l++) {
		if (!cols[l].fold) {
			fputs("<th>", f);
			esc(f, c[order[cols[l].o]].code);
		} else {
			fputs("<th title=\"passed or skipped on every node\">", f);
			fold_name(f, c, order, &cols[l]);
		}
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	grid_rows(f, p, c, order, cols, ncol);
	fputs("</tbody></table>\n", f);
	fold_note(f, c, order, cols, ncol);
	free(order);
	free(cols);
	return 0;
}

/* ---- the links ---- */

/* A heat colour for a fraction of the best link: red (0) to green (1). */
static void heat(FILE *f, double frac)
{
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	int r = (int)(230 * (1 - frac) + 40 * frac), g = (int)(60 * (1 - frac) + 170 * frac);
	fprintf(f, "background:rgb(%d,%d,70)", r, g);
}

static const char *node_name(const cJSON *nodes, int i)
{
	return cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, i), "name"));
}

/* probe net's matrix as a heat map: 0, or 1 when the document holds none to draw. */
static int matrix(FILE *f, const cJSON *net)
{
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(net, "nodes");
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(net, "bandwidth_bps");
	const cJSON *med = cJSON_GetObjectItemCaseSensitive(net, "median_bps");
	int n = cJSON_GetArraySize(nodes);
	if (n < 2 || cJSON_GetArraySize(bw) != n || !cJSON_IsNumber(med) || med->valuedouble <= 0)
		return 1;
	double best = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			const cJSON *v = cJSON_GetArrayItem(cJSON_GetArrayItem(bw, i), j);
			if (cJSON_IsNumber(v) && v->valuedouble > best)
				best = v->valuedouble;
		}
	fprintf(f, "<h2>Links (probe net, Mbit/s, from the row's node to the column's)</h2>\n"
		"<p class=note>median %.0f Mbit/s; red is slow against the best link</p>\n"
		"<table class=\"grid%s\"><colgroup><col class=name></colgroup>\n<thead><tr>"
		"<th></th>", med->valuedouble / 1e6, n + 1 > FIT_COLUMNS ? " fit" : "");
	for (int j = 0; j < n; j++) {
		fputs("<th>", f);
		esc(f, node_name(nodes, j));
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (int i = 0; i < n; i++) {
		fputs("<tr><th>", f);
		esc(f, node_name(nodes, i));
		fputs("</th>", f);
		for (int j = 0; j < n; j++) {
			const cJSON *v = cJSON_GetArrayItem(cJSON_GetArrayItem(bw, i), j);
			if (i == j || !cJSON_IsNumber(v)) {
				fputs("<td class=s></td>", f);
				continue;
			}
			fputs("<td style=\"", f);
			heat(f, best > 0 ? v->valuedouble / best : 0);
			fprintf(f, "\" title=\"%.0f %% of the median\">%.0f</td>",
				100.0 * v->valuedouble / med->valuedouble, v->valuedouble / 1e6);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	return 0;
}

static void links(FILE *f, const struct doctor_page *p)
{
	if (p->netmatrix && !matrix(f, p->netmatrix))
		return;
	fputs("<h2>Links</h2>\n<p class=note>No link heat map: ", f);
	esc(f, p->netmatrix ? "probe net gave no matrix of two or more nodes" : p->no_net);
	fputs("</p>\n", f);
}

/* ---- the page ---- */

static int page(FILE *f, const struct doctor_page *p)
{
	size_t nc;
	struct check *c = checks_of(p, &nc);
	if (!c)
		return -ENOMEM;
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\"><title>hcclctl doctor: ",
	      f);
	esc(f, p->summary);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>hcclctl doctor</h1>\n", style);
	meta(f, p);
	fputs("<p>", f);
	esc(f, p->summary);
	fputs("</p>\n", f);
	if (p->cause && *p->cause) {
		fputs("<p class=cause><b>Most likely cause:</b> ", f);
		esc(f, p->cause);
		fputs("</p>\n", f);
	}
	int rc = findings(f, p, c, nc);
	if (!rc)
		rc = grid(f, p, c, nc);
	if (!rc)
		links(f, p);
	fputs("</body></html>\n", f);
	free(c);
	return rc;
}

int doctor_html_write(const char *path, const struct doctor_page *p, char *err, size_t errlen)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int rc = page(f, p);
	if (ferror(f) && !rc)
		rc = -ENOMEM;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc)
		snprintf(err, errlen, "out of memory");
	else
		rc = rt_write_atomic(path, doc, len, err, errlen);
	free(doc);
	return rc;
}
