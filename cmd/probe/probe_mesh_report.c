/* hcclctl probe roce --mesh's report: the device matrix, the per-rail and per-class counts
 * and the failing links, as text or as one JSON document. It only reads the launcher's
 * result (struct mesh_run). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/probe/probe_mesh.h"
#include "ranktable/base/plural.h"

#define MATRIX_MAX 32 /* devices up to which the text output shows the matrix */

static const char *link_status(const struct nm_link *l)
{
	if (l->state == NM_ERROR)
		return "UNKNOWN";
	if (l->state != NM_MEASURED)
		return "SKIP";
	return l->flags & NM_F_DOWN ? "FAIL" : l->flags & (NM_F_LOSS | NM_F_SLOW) ? "WARN" : "PASS";
}

static char cell_of(const struct npumesh *m, size_t a, size_t b)
{
	const struct nm_link *l = npumesh_link(m, a, b);
	if (a == b)
		return '-';
	if (l->state == NM_ERROR || (l->state == NM_UNTRIED && m->ep[a].ip[0] && m->ep[b].ip[0]))
		return '?';
	if (l->state != NM_MEASURED)
		return ' ';
	return l->flags & NM_F_DOWN   ? 'X'
	       : l->flags & NM_F_LOSS ? 'L'
	       : l->flags & NM_F_SLOW ? 'R'
				      : '.';
}

static void rail_stats(const struct npumesh *m, long rail, size_t *devs, size_t *links, size_t *ok,
		       double *median)
{
	double *v = malloc((m->n * m->n + 1) * sizeof(*v));
	size_t k = 0;
	*devs = *links = *ok = 0;
	*median = -1;
	for (size_t a = 0; a < m->n; a++) {
		if (m->ep[a].device != rail)
			continue;
		*devs += m->ep[a].ip[0] != 0;
		for (size_t b = 0; b < m->n; b++) {
			const struct nm_link *l = npumesh_link(m, a, b);
			if (b == a || npumesh_class(m, a, b) != NM_RAIL || l->state != NM_MEASURED)
				continue;
			(*links)++;
			if (l->received) {
				(*ok)++;
				if (v && l->rtt_ms >= 0)
					v[k++] = l->rtt_ms;
			}
		}
	}
	if (v && k) {
		for (size_t i = 1; i < k; i++)
			for (size_t q = i; q > 0 && v[q - 1] > v[q]; q--) {
				double t = v[q];
				v[q] = v[q - 1];
				v[q - 1] = t;
			}
		*median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
}

static void class_stats(const struct npumesh *m, enum nm_class c, size_t *links, size_t *ok)
{
	*links = *ok = 0;
	for (size_t a = 0; a < m->n; a++)
		for (size_t b = 0; b < m->n; b++) {
			const struct nm_link *l = npumesh_link(m, a, b);
			if (a == b || npumesh_class(m, a, b) != c || l->state != NM_MEASURED)
				continue;
			(*links)++;
			*ok += l->received > 0;
		}
}

void pmesh_print_text(const struct mesh_run *x)
{
	const struct npumesh *m = &x->m;
	if (!g_opts.quiet) {
		printf("servers:");
		for (size_t s = 0; s < m->nsrv; s++)
			printf("%s s%zu %s%s", s ? "," : "", s, m->srv[s].id,
			       m->srv[s].local ? " (here)" : "");
		printf("\n");
		if (m->n <= MATRIX_MAX || g_opts.verbose) {
			int w = 4;
			char lab[48];
			for (size_t b = 0; b < m->n; b++) {
				int k = snprintf(lab, sizeof(lab), "s%zud%ld", m->ep[b].server,
						 m->ep[b].device);
				w = k > w ? k : w;
			}
			printf("\n%-*s", w + 2, "from\\to");
			for (size_t b = 0; b < m->n; b++) {
				snprintf(lab, sizeof(lab), "s%zud%ld", m->ep[b].server,
					 m->ep[b].device);
				printf(" %-*s", w, lab);
			}
			printf("\n");
			for (size_t a = 0; a < m->n; a++) {
				snprintf(lab, sizeof(lab), "s%zud%ld", m->ep[a].server,
					 m->ep[a].device);
				printf("%-*s", w + 2, lab);
				for (size_t b = 0; b < m->n; b++)
					printf(" %-*c", w, cell_of(m, a, b));
				printf(" %s\n", m->ep[a].ip[0] ? m->ep[a].ip : "no IP");
			}
			printf(". replies  X no reply  L loss  R slow  ? not known\n\n");
		}
		for (size_t r = 0; r < m->nrails; r++) {
			size_t devs, links, ok;
			double med;
			rail_stats(m, m->rails[r], &devs, &links, &ok, &med);
			printf("rail %ld: %zu device%s, %zu of %zu links within the rail reply",
			       m->rails[r], devs, plural_s(devs), ok, links);
			if (med >= 0)
				printf(", median %.3f ms", med);
			printf("\n");
		}
		static const char *const cname[NM_NCLASS] = {"within servers", "within rails",
							     "across rails"};
		for (int c = 0; c < NM_NCLASS; c++) {
			size_t links, ok;
			class_stats(m, (enum nm_class)c, &links, &ok);
			if (!links)
				continue;
			printf("%s: %zu of %zu links reply", cname[c], ok, links);
			if (m->median_rtt[c] >= 0)
				printf(", median %.3f ms", m->median_rtt[c]);
			printf("\n");
		}
		size_t nl = 0, nsw = 0, nfail = 0, nnone = 0;
		for (size_t i = 0; i < m->n; i++) {
			if (m->ep[i].lldp == 1) {
				nl++;
				size_t q = 0;
				while (q < i && !(m->ep[q].lldp == 1 && m->ep[i].sw[0] &&
						  !strcmp(m->ep[q].sw, m->ep[i].sw)))
					q++;
				nsw += q == i && m->ep[i].sw[0];
			} else if (m->ep[i].lldp < 0 &&
				   strstr(m->ep[i].lldp_err, "no LLDP neighbour")) {
				nnone++;
			} else if (m->ep[i].lldp < 0) {
				nfail++;
			}
		}
		printf("lldp: %zu of %zu NICs report their switch port, on %zu known switch%s", nl,
		       x->np, nsw, nsw == 1 ? "" : "es");
		if (nnone)
			printf("; %zu hear none", nnone);
		if (nfail)
			printf("; %zu could not be read", nfail);
		printf("\n");
		if (g_opts.verbose)
			for (size_t i = 0; i < m->n; i++) {
				char name[200];
				npumesh_name(m, i, name, sizeof(name));
				if (m->ep[i].lldp == 1)
					printf("  %s: switch %s port %s\n", name,
					       m->ep[i].sw[0] ? m->ep[i].sw : "unknown",
					       m->ep[i].port[0] ? m->ep[i].port : "unknown");
				else if (m->ep[i].lldp < 0)
					printf("  %s: %s\n", name, m->ep[i].lldp_err);
			}
		printf("\n");
	}
	unsigned char fixed[NM_NCODES] = {0};
	for (size_t k = 0; k < m->nf; k++) {
		const struct nm_finding *f = &m->f[k];
		const struct nm_kind *kd = npumesh_kind(f->code);
		const char *col = probe_status_color(1, f->status);
		char fix[400];
		printf("%s%-7s%s %-16s %s\n", col, probe_status_name(f->status), probe_color_end(col),
		       kd->code, f->msg);
		npumesh_fix(m, f, fix, sizeof(fix));
		if (!fixed[f->code]++)
			printf("        fix: %s\n", fix);
	}
	printf("npu-mesh: %s: %zu device%s on %zu server%s, %zu link%s: %zu reply, %zu no reply, "
	       "%zu lossy, %zu slow, %zu not known; %zu finding%s; %zu round%s\n",
	       probe_status_name(m->status), x->np, plural_s(x->np), m->nsrv, plural_s(m->nsrv),
	       m->tried + m->unknown, plural_s(m->tried + m->unknown), m->replied,
	       m->down, m->lost, m->slow, m->unknown, m->nf, plural_s(m->nf), x->rounds,
	       plural_s(x->rounds));
}

static void num_or_null(cJSON *o, const char *k, double v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(o, k, (double)(long long)(v * 1e6 + 0.5) / 1e6);
	else
		cJSON_AddNullToObject(o, k);
}

static const char *const cname[NM_NCLASS] = {"server", "rail", "cross_rail"};

/* "devices": every endpoint of the rank table with its IP, status and LLDP neighbour. */
static void devices_json(cJSON *doc, const struct npumesh *m)
{
	cJSON *a;
	a = cJSON_AddArrayToObject(doc, "devices");
	for (size_t i = 0; i < m->n; i++) {
		const struct nm_endpoint *e = &m->ep[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "index", (double)i);
		cJSON_AddStringToObject(o, "server_id", m->srv[e->server].id);
		cJSON_AddNumberToObject(o, "device", (double)e->device);
		cJSON_AddNumberToObject(o, "rank", (double)e->rank);
		if (e->ip[0])
			cJSON_AddStringToObject(o, "device_ip", e->ip);
		else
			cJSON_AddNullToObject(o, "device_ip");
		cJSON_AddStringToObject(o, "status", probe_status_name(e->status));
		if (e->lldp == 1) {
			cJSON *l = cJSON_AddObjectToObject(o, "lldp");
			cJSON_AddStringToObject(l, "switch", e->sw);
			cJSON_AddStringToObject(l, "port", e->port);
		} else {
			cJSON_AddNullToObject(o, "lldp");
		}
		if (e->lldp < 0)
			cJSON_AddStringToObject(o, "lldp_error", e->lldp_err);
		cJSON_AddItemToArray(a, o);
	}
}

/* "links": every directed link that was tried, measured or with why not. */
static void links_json(cJSON *doc, const struct npumesh *m)
{
	cJSON *a;
	a = cJSON_AddArrayToObject(doc, "links");
	for (size_t i = 0; i < m->n; i++)
		for (size_t k = 0; k < m->n; k++) {
			const struct nm_link *l = npumesh_link(m, i, k);
			if (i == k || l->state == NM_UNTRIED)
				continue;
			cJSON *o = cJSON_CreateObject();
			cJSON_AddNumberToObject(o, "from", (double)i);
			cJSON_AddNumberToObject(o, "to", (double)k);
			cJSON_AddStringToObject(o, "class", cname[npumesh_class(m, i, k)]);
			cJSON_AddNumberToObject(o, "round", l->round);
			cJSON_AddStringToObject(o, "status", link_status(l));
			if (l->state == NM_MEASURED) {
				cJSON_AddNumberToObject(o, "sent", (double)l->sent);
				cJSON_AddNumberToObject(o, "received", (double)l->received);
				num_or_null(o, "loss_pct", l->loss_pct);
				num_or_null(o, "rtt_ms", l->rtt_ms);
				cJSON_AddNullToObject(o, "error");
			} else {
				cJSON_AddStringToObject(o, "error", l->reason);
			}
			cJSON_AddItemToArray(a, o);
		}
}

/* "findings": each with its code, the devices it names and how to fix it. */
static void findings_json(cJSON *doc, const struct npumesh *m)
{
	cJSON *a;
	a = cJSON_AddArrayToObject(doc, "findings");
	for (size_t k = 0; k < m->nf; k++) {
		const struct nm_finding *f = &m->f[k];
		const struct nm_kind *kd = npumesh_kind(f->code);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "code", kd->code);
		cJSON_AddStringToObject(o, "status", probe_status_name(f->status));
		cJSON_AddStringToObject(o, "message", f->msg);
		char fix[400];
		npumesh_fix(m, f, fix, sizeof(fix));
		cJSON_AddStringToObject(o, "fix", fix);
		const struct nm_endpoint *fa = f->a >= 0 ? &m->ep[f->a] : NULL;
		const struct nm_endpoint *fb = f->b >= 0 ? &m->ep[f->b] : NULL;
		long srv = fa ? (long)fa->server : f->server;
		if (srv >= 0)
			cJSON_AddStringToObject(o, "server_id", m->srv[srv].id);
		else
			cJSON_AddNullToObject(o, "server_id");
		if (fa) {
			cJSON_AddNumberToObject(o, "device", (double)fa->device);
			cJSON_AddStringToObject(o, "device_ip", fa->ip);
		} else {
			cJSON_AddNullToObject(o, "device");
			cJSON_AddNullToObject(o, "device_ip");
		}
		if (fb) {
			cJSON *p = cJSON_AddObjectToObject(o, "peer");
			cJSON_AddStringToObject(p, "server_id", m->srv[fb->server].id);
			cJSON_AddNumberToObject(p, "device", (double)fb->device);
			cJSON_AddStringToObject(p, "device_ip", fb->ip);
		} else {
			cJSON_AddNullToObject(o, "peer");
		}
		if (f->rail >= 0)
			cJSON_AddNumberToObject(o, "rail", (double)f->rail);
		else
			cJSON_AddNullToObject(o, "rail");
		cJSON_AddItemToArray(a, o);
	}
}

void pmesh_print_json(const struct mesh_run *x, int code)
{
	const struct npumesh *m = &x->m;
	cJSON *doc = cJSON_CreateObject(), *a;
	cJSON_AddStringToObject(doc, "ranktable", x->c->ranktable);
	cJSON_AddStringToObject(doc, "ping", probe_mesh_opts.hccs ? "hccs_ping" : "ping");
	a = cJSON_AddArrayToObject(doc, "servers");
	for (size_t s = 0; s < m->nsrv; s++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "server_id", m->srv[s].id);
		cJSON_AddStringToObject(o, "host", m->srv[s].host);
		cJSON_AddBoolToObject(o, "local", m->srv[s].local);
		cJSON_AddBoolToObject(o, "ran", !m->srv[s].down);
		if (m->srv[s].down)
			cJSON_AddStringToObject(o, "reason", m->srv[s].why);
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON_AddItemToArray(a, o);
	}
	devices_json(doc, m);
	links_json(doc, m);
	a = cJSON_AddArrayToObject(doc, "rails");
	for (size_t r = 0; r < m->nrails; r++) {
		size_t devs, links, ok;
		double med;
		rail_stats(m, m->rails[r], &devs, &links, &ok, &med);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "rail", (double)m->rails[r]);
		cJSON_AddNumberToObject(o, "devices", (double)devs);
		cJSON_AddNumberToObject(o, "links", (double)links);
		cJSON_AddNumberToObject(o, "replied", (double)ok);
		num_or_null(o, "median_rtt_ms", med);
		cJSON_AddItemToArray(a, o);
	}
	cJSON *md = cJSON_AddObjectToObject(doc, "median_rtt_ms");
	for (int c = 0; c < NM_NCLASS; c++)
		num_or_null(md, cname[c], m->median_rtt[c]);
	findings_json(doc, m);
	cJSON *s = cJSON_AddObjectToObject(doc, "summary");
	cJSON_AddNumberToObject(s, "devices", (double)x->np);
	cJSON_AddNumberToObject(s, "servers", (double)m->nsrv);
	cJSON_AddNumberToObject(s, "links", (double)(m->tried + m->unknown));
	cJSON_AddNumberToObject(s, "replied", (double)m->replied);
	cJSON_AddNumberToObject(s, "no_reply", (double)m->down);
	cJSON_AddNumberToObject(s, "lossy", (double)m->lost);
	cJSON_AddNumberToObject(s, "slow", (double)m->slow);
	cJSON_AddNumberToObject(s, "not_known", (double)m->unknown);
	cJSON_AddNumberToObject(doc, "rounds", (double)x->rounds);
	cJSON_AddNumberToObject(doc, "seconds", (double)(long long)(x->seconds * 1000) / 1000);
	cJSON_AddStringToObject(doc, "status", probe_status_name(m->status));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	out_json(doc);
}
