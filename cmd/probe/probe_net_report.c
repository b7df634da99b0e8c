/* hcclctl probe net's report: the launcher's matrix of links printed as text (a table per
 * measure, coloured by verdict) or as one JSON document (and the Prometheus file). It only
 * reads the launcher's state. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/lib/prom.h"
#include "cmd/probe/probe_net.h"

static double unit_of(double median, const char **name)
{
	if (median >= 1e9) {
		*name = "Gbit/s";
		return 1e9;
	}
	*name = "Mbit/s";
	return 1e6;
}

static const char *cell_color(const struct np_link *l)
{
	if (l->status == PROBE_FAIL)
		return color(1, "\033[1;31m");
	if (l->status == PROBE_WARN)
		return color(1, "\033[1;31m");
	if (l->status != PROBE_PASS)
		return "";
	return color(1, l->ratio >= 0.9 ? "\033[32m" : "\033[33m");
}

static void print_matrix(const struct launch *L, int bw, double unit, int w)
{
	const struct np_matrix *m = &L->m;
	printf("%-*s", w, bw ? "from\\to" : "");
	for (size_t j = 0; j < L->n; j++)
		printf(" %*s", w, L->nodes[j].name);
	putchar('\n');
	for (size_t i = 0; i < L->n; i++) {
		printf("%-*s", w, L->nodes[i].name);
		for (size_t j = 0; j < L->n; j++) {
			const struct np_link *l = np_link_at(m, i, j);
			char cell[32];
			const char *c = "";
			if (i == j)
				snprintf(cell, sizeof(cell), "-");
			else if (l->failed)
				snprintf(cell, sizeof(cell), "FAIL");
			else if (!l->measured)
				snprintf(cell, sizeof(cell), "?");
			else if (bw)
				snprintf(cell, sizeof(cell), "%.*f", unit >= 1e9 ? 2 : 1,
					 l->bps / unit);
			else
				snprintf(cell, sizeof(cell), "%.1f", l->rtt_us);
			if (bw && i != j)
				c = cell_color(l);
			printf(" %s%*s%s", c, w, cell, *c ? "\033[0m" : "");
		}
		putchar('\n');
	}
}

void pnet_print_text(const struct launch *L, enum probe_status overall)
{
	const struct np_matrix *m = &L->m;
	const char *un;
	double unit = unit_of(m->median_bps, &un);
	int w = 9;
	for (size_t i = 0; i < L->n; i++)
		if ((int)strlen(L->nodes[i].name) > w)
			w = (int)strlen(L->nodes[i].name);
	if (!g_opts.quiet && m->nmeasured) {
		printf("bandwidth (%s), from the row's node to the column's:\n", un);
		print_matrix(L, 1, unit, w);
		printf("\nround trip (us, median of %ld one-byte pings):\n", L->pings);
		print_matrix(L, 0, unit, w);
		putchar('\n');
	}
	for (size_t i = 0; i < L->n; i++)
		for (size_t j = 0; j < L->n; j++) {
			const struct np_link *l = np_link_at(m, i, j);
			const char *c = probe_status_color(1, l->status);
			if (l->status == PROBE_WARN)
				printf("link %s -> %s: %s%s%s: slow: %.*f %s, %.0f %% of the "
				       "median\n",
				       L->nodes[i].name, L->nodes[j].name, c, "WARN",
				       probe_color_end(c),
				       unit >= 1e9 ? 2 : 1, l->bps / unit, un, l->ratio * 100);
			else if (l->status == PROBE_FAIL && i < j)
				printf("link %s <-> %s: %s%s%s: %s\n", L->nodes[i].name,
				       L->nodes[j].name, c, "FAIL", probe_color_end(c), l->reason);
		}
	for (size_t i = 0; i < L->n; i++) {
		const struct node *d = &L->nodes[i];
		const struct np_node *v = &m->node[i];
		if (d->state == N_DOWN)
			printf("node %s: %s%s%s: %s%s\n", d->name,
			       probe_status_color(1, pnet_down_status(d)),
			       probe_status_name(pnet_down_status(d)),
			       probe_color_end(probe_status_color(1, pnet_down_status(d))),
			       d->unreachable ? "unreachable: " : "", d->why);
		else if (v->status != PROBE_PASS)
			printf("node %s: %s%s%s: %zu of its %zu links are %s\n", d->name,
			       probe_status_color(1, v->status), probe_status_name(v->status),
			       probe_color_end(probe_status_color(1, v->status)),
			       v->slow + v->failed, v->links,
			       v->failed && v->slow ? "slow or failed"
			       : v->failed	    ? "failed"
						    : "slow");
	}
	if (!m->nmeasured) {
		printf("net: %s%s%s: %zu nodes, no link measured, %zu failed; %zu rounds in %.1f "
		       "s\n",
		       probe_status_color(1, overall), probe_status_name(overall),
		       probe_color_end(probe_status_color(1, overall)), L->n,
		       m->nfailed, L->rounds, L->seconds);
		return;
	}
	printf("net: %s%s%s: %zu nodes, %zu links measured, median %.*f %s, %zu slow (below "
	       "%.*f), %zu failed; %zu rounds + %zu to confirm in %.1f s\n",
	       probe_status_color(1, overall), probe_status_name(overall),
		       probe_color_end(probe_status_color(1, overall)), L->n, m->nmeasured,
	       unit >= 1e9 ? 2 : 1, m->median_bps / unit, un, m->nslow, unit >= 1e9 ? 2 : 1,
	       m->threshold_bps / unit, m->nfailed, L->rounds, L->confirm_rounds, L->seconds);
}

static double round3(double v)
{
	return round(v * 1000) / 1000;
}

enum probe_status pnet_down_status(const struct node *d)
{
	return d->unreachable ? probe_situation_status("unreachable") : PROBE_UNKNOWN;
}

void pnet_print_json(const struct launch *L, enum probe_status overall, int code)
{
	const struct np_matrix *m = &L->m;
	cJSON *doc = cJSON_CreateObject();
	cJSON *nodes = cJSON_AddArrayToObject(doc, "nodes");
	for (size_t i = 0; i < L->n; i++) {
		const struct node *d = &L->nodes[i];
		const struct np_node *v = &m->node[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", d->name);
		cJSON_AddStringToObject(o, "address", d->addr);
		cJSON_AddStringToObject(
			o, "status",
			probe_status_name(d->state == N_DOWN ? pnet_down_status(d) : v->status));
		cJSON_AddNumberToObject(o, "links", (double)v->links);
		cJSON_AddNumberToObject(o, "slow_links", (double)v->slow);
		cJSON_AddNumberToObject(o, "failed_links", (double)v->failed);
		if (d->state == N_DOWN)
			cJSON_AddStringToObject(o, "reason", d->why);
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON_AddItemToArray(nodes, o);
	}
	cJSON *links = cJSON_AddArrayToObject(doc, "links");
	cJSON *bw = cJSON_AddArrayToObject(doc, "bandwidth_bps");
	cJSON *rtt = cJSON_AddArrayToObject(doc, "rtt_us");
	for (size_t i = 0; i < L->n; i++) {
		cJSON *brow = cJSON_CreateArray(), *rrow = cJSON_CreateArray();
		for (size_t j = 0; j < L->n; j++) {
			const struct np_link *l = np_link_at(m, i, j);
			int ok = i != j && l->measured && !l->failed;
			cJSON_AddItemToArray(brow, ok ? cJSON_CreateNumber(round(l->bps))
						      : cJSON_CreateNull());
			cJSON_AddItemToArray(rrow, ok ? cJSON_CreateNumber(round3(l->rtt_us))
						      : cJSON_CreateNull());
			if (i == j || (!l->measured && !l->failed))
				continue;
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "from", L->nodes[i].name);
			cJSON_AddStringToObject(o, "to", L->nodes[j].name);
			cJSON_AddStringToObject(o, "status", probe_status_name(l->status));
			if (ok) {
				cJSON_AddNumberToObject(o, "bandwidth_bps", round(l->bps));
				cJSON_AddNumberToObject(o, "bytes", (double)l->bytes);
				cJSON_AddNumberToObject(o, "ratio", round3(l->ratio));
				cJSON_AddNumberToObject(o, "rtt_us", round3(l->rtt_us));
				cJSON_AddNumberToObject(o, "rtt_p99_us", round3(l->rtt_p99_us));
				cJSON_AddNumberToObject(o, "measurements", l->tries);
				cJSON_AddBoolToObject(o, "slow", l->status == PROBE_WARN);
				cJSON_AddNullToObject(o, "reason");
			} else {
				cJSON_AddStringToObject(o, "reason", l->reason);
			}
			cJSON_AddItemToArray(links, o);
		}
		cJSON_AddItemToArray(bw, brow);
		cJSON_AddItemToArray(rtt, rrow);
	}
	cJSON_AddNumberToObject(doc, "median_bps", round(m->median_bps));
	cJSON_AddNumberToObject(doc, "threshold_bps", round(m->threshold_bps));
	cJSON_AddNumberToObject(doc, "slow_fraction", SLOW_FRACTION);
	cJSON_AddNumberToObject(doc, "links_measured", (double)m->nmeasured);
	cJSON_AddNumberToObject(doc, "links_slow", (double)m->nslow);
	cJSON_AddNumberToObject(doc, "links_failed", (double)m->nfailed);
	cJSON_AddNumberToObject(doc, "rounds", (double)L->rounds);
	cJSON_AddNumberToObject(doc, "confirm_rounds", (double)L->confirm_rounds);
	if (L->ms)
		cJSON_AddNumberToObject(doc, "duration_ms", (double)L->ms);
	else
		cJSON_AddNullToObject(doc, "duration_ms");
	if (L->bytes)
		cJSON_AddNumberToObject(doc, "bytes", (double)L->bytes);
	else
		cJSON_AddNullToObject(doc, "bytes");
	cJSON_AddNumberToObject(doc, "pings", (double)L->pings);
	cJSON_AddNumberToObject(doc, "seconds", round3(L->seconds));
	cJSON_AddStringToObject(doc, "status", probe_status_name(overall));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	probe_emit("net", doc, code);
}
