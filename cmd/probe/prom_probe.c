/* The probes' metrics, read off the JSON document each probe builds, so that the JSON and
 * the metrics cannot say different things. One row per probe: where its links are and how
 * a link is labelled. */
#include <stdio.h>
#include <string.h>

#include "cmd/lib/prom.h"

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void num(const cJSON *o, const char *k, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.0f", v->valuedouble);
	else
		snprintf(buf, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static void hccs(struct prom *m, const cJSON *doc)
{
	const cJSON *c, *l;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "chips"))
	{
		char npu[24], chip[24], link[24];
		num(c, "npu", npu, sizeof(npu));
		num(c, "chip", chip, sizeof(chip));
		cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(c, "links"))
		{
			const char *st = str(l, "status");
			num(l, "link", link, sizeof(link));
			prom_gauge(m, "hcclctl_hccs_link_up",
				   st && (!strcmp(st, "PASS") || !strcmp(st, "SKIP")), "npu", npu,
				   "chip", chip, "link", link, NULL);
		}
	}
}

static void rdma(struct prom *m, const cJSON *doc)
{
	const cJSON *d, *p;
	/* one family after the other: the format wants a family's samples together */
	for (int rate = 0; rate < 2; rate++)
		cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "devices"))
		{
			const char *name = str(d, "name");
			char port[24];
			cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(d, "ports"))
			{
				const char *state = str(p, "state");
				const cJSON *gbps =
					cJSON_GetObjectItemCaseSensitive(p, "rate_gbps");
				num(p, "port", port, sizeof(port));
				if (!rate)
					prom_gauge(m, "hcclctl_rdma_port_up",
						   state && !strcmp(state, "ACTIVE"), "device",
						   name, "port", port, NULL);
				else if (cJSON_IsNumber(
						 gbps)) /* Gb/s, decimal, as sysfs gives it */
					prom_gauge(m, "hcclctl_rdma_port_rate_bytes_per_second",
						   gbps->valuedouble * 1e9 / 8, "device", name,
						   "port", port, NULL);
			}
		}
}

static void roce(struct prom *m, const cJSON *doc)
{
	const cJSON *d;
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "devices"))
	{
		const char *link = str(d, "link");
		char dev[24];
		num(d, "device", dev, sizeof(dev));
		if (link) /* an unread link state is no series, not a down link */
			prom_gauge(m, "hcclctl_roce_link_up", !strcmp(link, "UP"), "device", dev,
				   NULL);
	}
}

static void net(struct prom *m, const cJSON *doc)
{
	const cJSON *l, *d;
	/* a node that could not be reached has no paths in the document at all: its own series
	 * says so, so that an alert does not take a silent node for a healthy one */
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "nodes"))
	{
		const char *name = str(d, "name");
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(d, "reason");
		if (name)
			prom_gauge(m, "hcclctl_net_node_reached", cJSON_IsNull(why), "node", name,
				   NULL);
	}
	/* family after family, as in rdma(); a failed path has no bandwidth or rtt series */
	for (int fam = 0; fam < 4; fam++)
		cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(doc, "links"))
		{
			const char *from = str(l, "from"), *to = str(l, "to"), *st = str(l, "status");
			const cJSON *bps = cJSON_GetObjectItemCaseSensitive(l, "bandwidth_bps");
			const cJSON *rtt = cJSON_GetObjectItemCaseSensitive(l, "rtt_us");
			int up = st && (!strcmp(st, "PASS") || !strcmp(st, "WARN"));
			if (!from || !to || (st && !strcmp(st, "SKIP")))
				continue;
			if (fam == 0)
				prom_gauge(m, "hcclctl_net_link_up", up, "from", from, "to", to, NULL);
			else if (fam == 1 && up)
				prom_gauge(m, "hcclctl_net_link_slow", !strcmp(st, "WARN"), "from",
					   from, "to", to, NULL);
			else if (fam == 2 && up && cJSON_IsNumber(bps)) /* the JSON's bits/s */
				prom_gauge(m, "hcclctl_net_link_bandwidth_bytes_per_second",
					   bps->valuedouble / 8, "from", from, "to", to, NULL);
			else if (fam == 3 && up && cJSON_IsNumber(rtt))
				prom_gauge(m, "hcclctl_net_link_rtt_seconds", rtt->valuedouble / 1e6,
					   "from", from, "to", to, NULL);
		}
}

static const struct {
	const char *probe;
	void (*links)(struct prom *m, const cJSON *doc);
} probes[] = {
	{"hccs", hccs},
	{"rdma", rdma},
	{"roce", roce},
	{"net", net},
};

static int prom_failed; /* --prometheus was given and could not be written */

int prom_probe_write(const char *probe, const cJSON *doc, int exit_code)
{
	static const char *const sts[] = {"PASS", "WARN", "FAIL", "SKIP", "UNKNOWN"};
	static const char *const lower[] = {"pass", "warn", "fail", "skip", "unknown"};
	struct prom m;
	char cmd[32], err[600];
	if (!prom_path)
		return 0;
	prom_init(&m);
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (!strcmp(probes[i].probe, probe))
			probes[i].links(&m, doc);
	const char *st = str(doc, "status");
	for (size_t i = 0; i < sizeof(sts) / sizeof(sts[0]); i++)
		prom_gauge(&m, "hcclctl_probe_status", st && !strcmp(st, sts[i]), "probe", probe,
			   "status", lower[i], NULL);
	snprintf(cmd, sizeof(cmd), "probe %s", probe);
	prom_footer(&m, cmd, exit_code);
	int rc = prom_write(&m, prom_path, err, sizeof(err));
	prom_release(&m);
	if (!rc)
		return 0;
	prom_failed = 1;
	fail(EXIT_UNKNOWN, "probe",
	     "give a FILE in a directory that exists and you can write (node_exporter's textfile "
	     "directory)",
	     "--prometheus: cannot write the metrics: %s", err);
	return -1;
}

int probe_prom_exit(int rc)
{
	return prom_failed && rc < EXIT_FAIL ? EXIT_UNKNOWN : rc;
}

void probe_emit(const char *probe, cJSON *doc, int exit_code)
{
	if (prom_probe_write(probe, doc, exit_code) && exit_code < EXIT_FAIL)
		cJSON_ReplaceItemInObject(doc, "exit_code", cJSON_CreateNumber(EXIT_UNKNOWN));
	if (g_opts.json)
		out_json(doc);
	else
		cJSON_Delete(doc);
}
