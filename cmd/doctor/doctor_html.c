/* doctor --html FILE: the same results as the text report, for people who would rather look
 * than read. One file, inline CSS, no scripts: it opens anywhere, from a mail or a ticket.
 * Built in memory, then written whole by the atomic writer (ranktable/atomic.c), which never
 * opens a name planted beside FILE. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/doctor/doctor.h"
#include "ranktable/ranktable.h"

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
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
		default:
			fputc(*s, f);
		}
	}
}

static const char *klass(const char *status)
{
	return !strcmp(status, "FAIL") ? "f" : !strcmp(status, "WARN") ? "w"
	       : !strcmp(status, "PASS")			  ? "p"
									  : "s";
}

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

static void matrix(FILE *f, const cJSON *net)
{
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(net, "nodes");
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(net, "bandwidth_bps");
	const cJSON *med = cJSON_GetObjectItemCaseSensitive(net, "median_bps");
	int n = cJSON_GetArraySize(nodes);
	if (n < 2 || cJSON_GetArraySize(bw) != n || !cJSON_IsNumber(med) || med->valuedouble <= 0)
		return;
	double best = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			const cJSON *v = cJSON_GetArrayItem(cJSON_GetArrayItem(bw, i), j);
			if (cJSON_IsNumber(v) && v->valuedouble > best)
				best = v->valuedouble;
		}
	fputs("<h2>Links (probe net, Mbit/s, from the row's node to the column's)</h2>\n<table>"
	      "<tr><th></th>",
	      f);
	for (int j = 0; j < n; j++) {
		fputs("<th>", f);
		esc(f, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			       cJSON_GetArrayItem(nodes, j), "name")));
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int i = 0; i < n; i++) {
		fputs("<tr><th>", f);
		esc(f, cJSON_GetStringValue(
			       cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, i), "name")));
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
	fputs("</table>\n", f);
}

int doctor_html_write(const char *path, const char *const *names, size_t nnames,
		      const struct doctor_cell *cells, size_t ncells, const char *summary,
		      const char *cause, const cJSON *netmatrix, char *err, size_t errlen)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hcclctl doctor</title>\n"
	      "<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}"
	      "td,th{border:1px solid #ccc;padding:3px 6px;text-align:center}th{background:#eee}"
	      "td.p{background:#9d9}td.w{background:#fd7}td.f{background:#f77;font-weight:bold}"
	      "td.s{background:#f4f4f4;color:#999}.cause{font-size:16px;margin:1em 0}</style>"
	      "</head><body>\n<h1>hcclctl doctor</h1>\n<p>",
	      f);
	esc(f, summary);
	fputs("</p>\n", f);
	if (cause && *cause) {
		fputs("<p class=cause><b>Most likely cause:</b> ", f);
		esc(f, cause);
		fputs("</p>\n", f);
	}
	/* the checks that occur, in report order (cells come sorted by check) */
	const char *codes[64];
	size_t nc = 0;
	for (size_t i = 0; i < ncells && nc < 64; i++)
		if (!nc || strcmp(codes[nc - 1], cells[i].code))
			codes[nc++] = cells[i].code;
	fputs("<h2>Checks</h2>\n<table><tr><th>node</th>", f);
	for (size_t c = 0; c < nc; c++) {
		fputs("<th>", f);
		esc(f, codes[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (long row = -1; row < (long)nnames; row++) {
		int any = 0;
		for (size_t i = 0; i < ncells && !any; i++)
			any = cells[i].node == row;
		if (!any)
			continue;
		fputs("<tr><th>", f);
		esc(f, row < 0 ? "cluster" : names[row]);
		fputs("</th>", f);
		for (size_t c = 0; c < nc; c++) {
			const struct doctor_cell *hit = NULL;
			for (size_t i = 0; i < ncells && !hit; i++)
				if (cells[i].node == row && !strcmp(cells[i].code, codes[c]))
					hit = &cells[i];
			if (!hit) {
				fputs("<td class=s></td>", f);
				continue;
			}
			fprintf(f, "<td class=%s title=\"", klass(hit->status));
			esc(f, hit->msg);
			if (hit->fix) {
				fputs(" | fix: ", f);
				esc(f, hit->fix);
			}
			fprintf(f, "\">%s</td>", hit->status);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (netmatrix)
		matrix(f, netmatrix);
	fputs("</body></html>\n", f);
	int rc = ferror(f) ? -ENOMEM : 0;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc)
		snprintf(err, errlen, "out of memory");
	else
		rc = rt_write_atomic(path, doc, len, err, errlen);
	free(doc);
	return rc;
}
