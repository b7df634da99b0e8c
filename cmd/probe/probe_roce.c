/* hcclctl probe roce: the RoCE NIC of every NPU through hccn_tool (link, net health, IP
 * against the rank table, netdetect and gateway, TLS switch, optics, link flaps, the port's
 * error counters). With
 * --mesh, the network between the NICs of a whole job instead (cmd/probe/probe_mesh.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/probe/probe.h"
#include "cmd/lib/nodeself.h"
#include "cmd/lib/prom.h"
#include "probes/nic/hccn.h"
#include "probes/nic/hccn_stat.h"
#include "probes/npu/npusmi.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/plural.h"

#define WHERE "probe roce"
#define MAX_DEV 64
#define FLAP_WINDOW (24 * 3600)

static const char *opt_hccn_tool, *opt_npu_smi, *opt_devices, *opt_ranktable, *opt_server_id;
static long opt_timeout = 10;

const struct opt probe_roce_opts[] = {
	OPT_PATH("hccn-tool", 0, &opt_hccn_tool, "PATH",
		 "the hccn_tool to run (default: $HCCLCTL_HCCN_TOOL, else hccn_tool in $PATH, else "
		 "/usr/local/Ascend/driver/tools/hccn_tool)",
		 COMPLETE_FILE),
	OPT_PATH("npu-smi", 0, &opt_npu_smi, "PATH",
		 "the npu-smi that lists the devices (default: $HCCLCTL_NPU_SMI, else npu-smi in "
		 "$PATH)",
		 COMPLETE_FILE),
	OPT_STR("devices", 0, &opt_devices, "LIST",
		"device ids to probe, e.g. 0-7 or 0,2,4 (default: every NPU chip npu-smi lists; "
		"with --ping-list --lldp: the NICs whose neighbour to read)"),
	OPT_PATH("ranktable", 0, &opt_ranktable, "FILE",
		 "compare each device's IP with this host's device_ip in the rank table (with "
		 "--mesh: the job whose devices ping each other)",
		 COMPLETE_FILE),
	OPT_STR("server-id", 0, &opt_server_id, "ID",
		"this host's server_id in the rank table (default: found by address or hostname)"),
	OPT_NUM("timeout", 0, &opt_timeout, "SEC",
		"deadline of each hccn_tool and npu-smi call; it is killed after (default 10)", 1,
		3600),
	OPT_BOOL("mesh", 0, &probe_mesh_opts.mesh,
		 "ping every device_ip of --ranktable from every other device, each from its own "
		 "NIC (over SSH for other servers), and read each NIC's LLDP neighbour"),
	OPT_BOOL("hccs", 0, &probe_mesh_opts.hccs,
		 "--mesh, --ping-list: ping with -hccs_ping (A3 super pods) instead of -ping"),
	OPT_STR("ssh-user", 0, &probe_mesh_opts.user, "USER",
		"--mesh: log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &probe_mesh_opts.port, "PORT", "--mesh: SSH port (default 22)", 1,
		65535),
	OPT_PATH("ssh-key", 0, &probe_mesh_opts.key, "FILE",
		 "--mesh: private key (default: ssh-agent, ~/.ssh/id_ed25519, ~/.ssh/id_rsa)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &probe_mesh_opts.known_hosts, "FILE",
		 "--mesh: known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &probe_mesh_opts.insecure,
		 "--mesh: do not check host keys (warns)"),
	OPT_NUM("parallel", 0, &probe_mesh_opts.parallel, "N",
		"--mesh: SSH sessions at once (default 32)", 1, 4096),
	OPT_PATH("remote-hcclctl", 0, &probe_mesh_opts.remote, "PATH",
		 "--mesh: hcclctl on the other servers (default: hcclctl in their PATH)",
		 COMPLETE_FILE),
	OPT_STR("ping-list", 0, &probe_mesh_opts.ping_list, "DEV=IP[,...]",
		"ping each IP from device DEV's NIC through this host's hccn_tool (the node side "
		"of --mesh)"),
	OPT_BOOL("lldp", 0, &probe_mesh_opts.lldp,
		 "with --ping-list: also read the LLDP neighbour of each --devices NIC"),
	OPT_PROM,
	OPT_TERM,
};

static const char *const hccn_fallbacks[] = {"/usr/local/Ascend/driver/tools/hccn_tool", NULL};
static const char *const npu_smi_fallbacks[] = {"/usr/local/sbin/npu-smi", "/usr/local/bin/npu-smi",
						NULL};

struct roce_dev {
	int id;
	enum probe_status status;
	char reason[512];
	int link_ok, link_up;
	char health[32];
	int ip_ok;
	struct hccn_ip ip;
	char ip_err[160];
	char netdetect[48], gateway[48];
	int tls_ok;
	struct hccn_tls tls;
	int optical_ok;
	char optical_err[160];
	struct hccn_optical optical;
	int stat_ok;
	struct hccn_link_stat stat;
	long downs_recent;
	int pkt_ok;
	char pkt_err[160];
	struct hccn_stat pkt;
	const char *rt_ip; /* this host's device_ip in the rank table, or NULL */
};

struct roce_run {
	char hccn[1024];
	struct roce_dev dev[MAX_DEV];
	size_t n;
	enum probe_status tls_status;
	char tls_reason[512];
	enum probe_status rt_status;
	char rt_reason[512];
	char rt_server[128];
};

__attribute__((format(printf, 3, 4))) static void add(struct roce_dev *d, enum probe_status s,
						      const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	d->status = probe_status_worst(d->status, s);
	probe_reason_add(d->reason, sizeof(d->reason), "%s", what);
}

/* The module's readings against its own thresholds. hccn_tool prints "present : not
 * present" next to full readings on some builds, so the present line decides only when
 * the module gave no power reading at all. */
static void optical_verdict(struct roce_dev *d)
{
	const struct hccn_optical *o = &d->optical;
	if (!o->present && !o->nrx && !o->ntx) {
		add(d, PROBE_WARN, "optical module not present");
		return;
	}
	if (!o->present)
		add(d, PROBE_WARN,
		    "hccn_tool says the optical module is not present, yet it reports its "
		    "readings");
	if (o->rx_mw >= 0 && o->rx_low_mw > 0 && o->rx_mw < o->rx_low_mw)
		add(d, PROBE_WARN,
		    "optical Rx power %.4f mW (lane %d) below the module's low threshold %.4f mW",
		    o->rx_mw, o->rx_lane, o->rx_low_mw);
	if (o->tx_mw >= 0 && o->tx_high_mw > 0 && o->tx_mw > o->tx_high_mw)
		add(d, PROBE_WARN,
		    "optical Tx power %.4f mW (lane %d) above the module's high threshold %.4f mW",
		    o->tx_mw, o->tx_lane, o->tx_high_mw);
	if (o->rx_los > 0) {
		char f[24];
		snprintf(f, sizeof(f), "0x%lx", (unsigned long)o->rx_los);
		add(d, PROBE_WARN, "optical Rx loss of signal (Rx Los Flag %s)", f);
	}
}

/* One finding that names the non-zero counters of each error family. The counters total
 * everything since they were last cleared, so the finding says so rather than suggesting the
 * errors are happening now. */
static void counter_verdict(struct roce_dev *d)
{
	size_t idx[HCCN_STAT_MAX];
	enum probe_status worst;
	size_t n = hccn_stat_findings(&d->pkt, idx, HCCN_STAT_MAX, &worst);
	char list[240];
	size_t off = 0;
	list[0] = '\0';
	for (size_t i = 0; i < n && off < sizeof(list); i++) {
		const struct hccn_stat_rule *row = hccn_stat_rule_for(d->pkt.c[idx[i]].name);
		int last = i + 1 == n || hccn_stat_rule_for(d->pkt.c[idx[i + 1]].name) != row;
		int w = snprintf(list + off, sizeof(list) - off, "%s %llu%s%s%s",
				 d->pkt.c[idx[i]].name, d->pkt.c[idx[i]].value, last ? " (" : "",
				 last ? row->what : "", last ? ")" : "");
		if (w < 0)
			break;
		off += (size_t)w;
		if (i + 1 < n && off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, ", ");
	}
	if (n)
		add(d, worst, "error counters since they were last cleared: %s", list);
}

/* Runs hccn_tool -i ID args...; 0 when it ran, else the exit code (already reported). */
static int hccn(struct roce_run *x, int id, const char *const *args, struct probe_tool_result *r)
{
	char ids[16];
	char *argv[12];
	size_t n = 0;
	snprintf(ids, sizeof(ids), "%d", id);
	argv[n++] = x->hccn;
	argv[n++] = (char *)"-i";
	argv[n++] = ids;
	for (size_t i = 0; args[i] && n < 11; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	return probe_run_tool(WHERE, "hccn-tool", "HCCLCTL_HCCN_TOOL", x->hccn, argv, opt_timeout,
			      r);
}

/* The device ids: --devices, else every chip of npu-smi info -m (or -l). */
static int device_ids(struct roce_run *x)
{
	char err[PROBE_ERRLEN], path[1024];
	if (opt_devices) {
		long *ids;
		size_t n;
		if (rt_parse_devices(opt_devices, &ids, &n, err, sizeof(err)))
			return fail(EXIT_USAGE, WHERE, "e.g. --devices 0-7 or --devices 0,2,4",
				    "--devices: %s", err);
		for (size_t i = 0; i < n && x->n < MAX_DEV; i++)
			x->dev[x->n++].id = (int)ids[i];
		free(ids);
		return 0;
	}
	if (probe_tool_find("npu-smi", opt_npu_smi, "HCCLCTL_NPU_SMI", npu_smi_fallbacks, path,
			    sizeof(path), err, sizeof(err)))
		return fail(EXIT_UNKNOWN, WHERE,
			    "pass the devices with --devices 0-7, or --npu-smi PATH",
			    "%s (missing): cannot list the NPUs", err);
	struct npusmi_chips *c = calloc(1, sizeof(*c));
	if (!c)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	char *argv[] = {path, (char *)"info", (char *)"-m", NULL};
	struct probe_tool_result r;
	int rc = probe_run_tool(WHERE, "npu-smi", "HCCLCTL_NPU_SMI", path, argv, opt_timeout, &r);
	if (rc)
		goto out;
	if (!npusmi_parse_mapping(r.out, r.outlen, c, err, sizeof(err))) {
		for (size_t i = 0; i < c->n && x->n < MAX_DEV; i++)
			x->dev[x->n++].id = c->v[i].phy_id >= 0 ? c->v[i].phy_id : c->v[i].logic_id;
		goto out;
	}
	probe_tool_result_release(&r);
	argv[2] = (char *)"-l";
	if ((rc = probe_run_tool(WHERE, "npu-smi", "HCCLCTL_NPU_SMI", path, argv, opt_timeout, &r)))
		goto out;
	if (npusmi_parse_list(r.out, r.outlen, c, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, WHERE, "pass the devices with --devices 0-7",
			  "npu-smi info -l (exit %d): %s", r.status, err);
		goto out;
	}
	for (size_t i = 0; i < c->n && x->n < MAX_DEV; i++)
		x->dev[x->n++].id = (int)i; /* logical ids in NPU then chip order */
out:
	probe_tool_result_release(&r);
	free(c);
	return rc;
}

static int ipv4_bits(const char *mask)
{
	struct in_addr a;
	if (inet_pton(AF_INET, mask, &a) != 1)
		return -1;
	unsigned m = ntohl(a.s_addr);
	int bits = 0;
	while (bits < 32 && (m & (0x80000000u >> bits)))
		bits++;
	return (bits == 32 || !(m << bits)) ? bits : -1;
}

/* 1 when a and b are in the same IPv4 subnet of mask; -1 when unknown. */
static int same_subnet(const char *a, const char *b, const char *mask)
{
	struct in_addr x, y, m;
	if (inet_pton(AF_INET, a, &x) != 1 || inet_pton(AF_INET, b, &y) != 1 ||
	    inet_pton(AF_INET, mask, &m) != 1)
		return -1;
	return (x.s_addr & m.s_addr) == (y.s_addr & m.s_addr);
}

/* The readers of hccn_tool's answers, one per query: each takes the output r (known: what
 * hccn_tool said on stderr of a condition it knows, or NULL) into d and its findings. */
typedef void (*hccn_reader)(struct roce_dev *d, const struct probe_tool_result *r,
			    const char *known);

static void read_link(struct roce_dev *d, const struct probe_tool_result *r, const char *known)
{
	char err[160];
	d->link_ok = !hccn_parse_link(r->out, r->outlen, &d->link_up, err, sizeof(err));
	if (!d->link_ok)
		add(d, PROBE_UNKNOWN, "link: %s", known ? known : err);
	else if (!d->link_up)
		add(d, PROBE_FAIL, "link DOWN");
}

static void read_health(struct roce_dev *d, const struct probe_tool_result *r,
			const char *known)
{
	char err[160];
	if (hccn_parse_net_health(r->out, r->outlen, d->health, sizeof(d->health), err,
				  sizeof(err)))
		add(d, PROBE_UNKNOWN, "net health: %s", known ? known : err);
	else if (!strcmp(d->health, "Init"))
		add(d, PROBE_WARN, "net health Init: no netdetect address set");
	else if (strcmp(d->health, "Success"))
		add(d, PROBE_FAIL, "net health %s", d->health);
}

static void read_ip(struct roce_dev *d, const struct probe_tool_result *r, const char *known)
{
	char err[160];
	d->ip_ok = !hccn_parse_ip(r->out, r->outlen, &d->ip, err, sizeof(err));
	if (d->ip_ok)
		return;
	if (!known)
		known = hccn_known_error(r->out, r->outlen);
	snprintf(d->ip_err, sizeof(d->ip_err), "%s", known ? known : err);
	add(d, known && !strcmp(known, "no IP configured") ? PROBE_FAIL : PROBE_UNKNOWN, "ip: %s",
	    d->ip_err);
}

static void read_netdetect(struct roce_dev *d, const struct probe_tool_result *r,
			   const char *known)
{
	char err[160];
	(void)known;
	if (!hccn_parse_netdetect(r->out, r->outlen, d->netdetect, sizeof(d->netdetect), err,
				  sizeof(err)) &&
	    d->ip_ok && *d->ip.mask && same_subnet(d->ip.addr, d->netdetect, d->ip.mask) == 0)
		add(d, PROBE_WARN, "netdetect %s is outside the device's subnet (%s)", d->netdetect,
		    d->ip.mask);
}

static void read_gateway(struct roce_dev *d, const struct probe_tool_result *r,
			 const char *known)
{
	char err[160];
	(void)known;
	if (hccn_parse_gateway(r->out, r->outlen, d->gateway, sizeof(d->gateway), err,
			       sizeof(err)))
		d->gateway[0] = '\0';
}

static void read_tls(struct roce_dev *d, const struct probe_tool_result *r, const char *known)
{
	char err[160];
	d->tls_ok = !hccn_parse_tls(r->out, r->outlen, &d->tls, err, sizeof(err));
	if (!d->tls_ok)
		add(d, PROBE_UNKNOWN, "tls: %s", known ? known : err);
	else if (d->tls.enabled == 1 && d->tls.first_expiry && d->tls.first_expiry < time(NULL))
		add(d, PROBE_FAIL, "TLS is on and a certificate expired (%s)",
		    d->tls.first_expiry_text);
	else if (d->tls.enabled == 1 && d->tls.expiry_status == 2)
		add(d, PROBE_FAIL, "TLS is on and hccn_tool reports a certificate expired");
	else if (d->tls.enabled == 1 && d->tls.expiry_status == 1)
		add(d, PROBE_WARN, "TLS is on and hccn_tool reports a certificate near expiration");
}

static void read_optical(struct roce_dev *d, const struct probe_tool_result *r,
			 const char *known)
{
	char err[160];
	d->optical_ok = !hccn_parse_optical(r->out, r->outlen, &d->optical, err, sizeof(err));
	if (d->optical_ok) {
		optical_verdict(d);
		return;
	}
	if (!known)
		known = hccn_known_error(r->out, r->outlen);
	snprintf(d->optical_err, sizeof(d->optical_err), "%s", known ? known : err);
}

/* The link's history: downs in the day before the device's clock are a flapping link. */
static void read_link_stat(struct roce_dev *d, const struct probe_tool_result *r,
			   const char *known)
{
	char err[160];
	(void)known;
	d->stat_ok = !hccn_parse_link_stat(r->out, r->outlen, &d->stat, err, sizeof(err));
	if (!d->stat_ok)
		return;
	const char *last = NULL;
	for (size_t i = 0; i < d->stat.nrecords; i++) {
		if (d->stat.rec[i].up || !d->stat.rec[i].when || !d->stat.now)
			continue;
		if (d->stat.now - d->stat.rec[i].when <= FLAP_WINDOW &&
		    d->stat.rec[i].when <= d->stat.now) {
			d->downs_recent++;
			if (!last)
				last = d->stat.rec[i].text;
		}
	}
	if (d->downs_recent) {
		char n[64];
		snprintf(n, sizeof(n), "%ld time%s in the 24 h before its clock", d->downs_recent,
			 plural_s(d->downs_recent));
		add(d, PROBE_WARN, "link flapped: down %s, last %s", n, last);
	}
}

static void read_counters(struct roce_dev *d, const struct probe_tool_result *r,
			  const char *known)
{
	char err[160];
	d->pkt_ok = !hccn_parse_stat(r->out, r->outlen, &d->pkt, err, sizeof(err));
	if (d->pkt_ok) {
		counter_verdict(d);
		return;
	}
	/* hccn_tool saying it cannot (an older driver, no such device) is not a fault of the
	 * port; output that does not read as counters is a check not made. */
	if (!known)
		known = hccn_known_error(r->out, r->outlen);
	snprintf(d->pkt_err, sizeof(d->pkt_err), "%s", known ? known : err);
	if (!known)
		add(d, PROBE_UNKNOWN, "counters: %s", err);
}

/* The queries asked of each device, in this order (the netdetect check reads the IP). */
static const struct {
	const char *args[3];
	hccn_reader read;
} queries[] = {
	{{"-link", "-g", NULL}, read_link},
	{{"-net_health", "-g", NULL}, read_health},
	{{"-ip", "-g", NULL}, read_ip},
	{{"-netdetect", "-g", NULL}, read_netdetect},
	{{"-gateway", "-g", NULL}, read_gateway},
	{{"-tls", "-g", NULL}, read_tls},
	{{"-optical", "-g", NULL}, read_optical},
	{{"-link_stat", "-g", NULL}, read_link_stat},
	{{"-stat", "-g", NULL}, read_counters},
};

static int probe_device(struct roce_run *x, struct roce_dev *d)
{
	for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
		struct probe_tool_result r;
		int rc = hccn(x, d->id, queries[q].args, &r);
		if (rc)
			return rc;
		queries[q].read(d, &r, hccn_known_error(r.errout, r.errlen));
		probe_tool_result_release(&r);
	}
	return 0;
}

/* "0,2-3,5": ids joined, runs folded. */
static void fold_ids(char *buf, size_t len, const int *ids, size_t n)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		size_t j = i;
		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		int w = j > i ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", ids[i],
					 ids[j])
			      : snprintf(buf + off, len - off, "%s%d", off ? "," : "", ids[i]);
		if (w < 0)
			break;
		off += (size_t)w;
		i = j;
	}
}

static void check_tls(struct roce_run *x)
{
	int on[MAX_DEV], off[MAX_DEV];
	size_t non = 0, noff = 0;
	for (size_t i = 0; i < x->n; i++) {
		if (!x->dev[i].tls_ok)
			continue;
		if (x->dev[i].tls.enabled == 1)
			on[non++] = x->dev[i].id;
		else
			off[noff++] = x->dev[i].id;
	}
	if (!non && !noff) {
		x->tls_status = PROBE_UNKNOWN;
		snprintf(x->tls_reason, sizeof(x->tls_reason),
			 "no device's TLS switch could be read");
	} else if (non && noff) {
		char a[200], b[200];
		fold_ids(a, sizeof(a), on, non);
		fold_ids(b, sizeof(b), off, noff);
		x->tls_status = PROBE_FAIL;
		snprintf(x->tls_reason, sizeof(x->tls_reason),
			 "the TLS switch differs: enabled on %s, disabled on %s (HCCL needs one "
			 "setting on every NPU)",
			 a, b);
	} else {
		x->tls_status = PROBE_PASS;
		snprintf(x->tls_reason, sizeof(x->tls_reason), "%s on all %zu devices",
			 non ? "enabled" : "disabled", non + noff);
	}
}

static int check_ranktable(struct roce_run *x, struct rt_table *t)
{
	char err[RT_ERRLEN];
	char *buf = NULL;
	size_t len = 0;
	struct rt_diags d = {0};
	int rc = fetch_input(opt_ranktable, fetch_table_max(RT_TABLE_MAX), &buf, &len, err, sizeof(err));
	if (rc)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
	rc = rt_table_load(t, opt_ranktable, buf, len, &d, err, sizeof(err));
	free(buf);
	rt_diags_release(&d);
	if (rc)
		return fail(EXIT_UNKNOWN, WHERE, "check it with: hcclctl ranktable validate FILE",
			    "%s: %s", opt_ranktable, *err ? err : "not a rank table");
	long at = node_table_server(t, opt_server_id);
	const struct rt_server *me = at >= 0 ? &t->servers[at] : NULL;
	if (!me) {
		x->rt_status = PROBE_UNKNOWN;
		size_t off = (size_t)snprintf(
			x->rt_reason, sizeof(x->rt_reason),
			opt_server_id ? "no server '%s' in %s; its servers:"
				      : "this host%s is not a server of %s (matched by "
					"address and hostname); its servers:",
			opt_server_id ? opt_server_id : "", opt_ranktable);
		for (size_t i = 0; i < t->nservers && off < sizeof(x->rt_reason); i++)
			off += (size_t)snprintf(
				x->rt_reason + off, sizeof(x->rt_reason) - off, " %s",
				t->servers[i].server_id ? t->servers[i].server_id : "?");
		return 0;
	}
	snprintf(x->rt_server, sizeof(x->rt_server), "%s", me->server_id ? me->server_id : "?");
	size_t agree = 0, nr = 0;
	x->rt_status = PROBE_PASS;
	for (size_t r = me->first_rank; r < me->first_rank + me->nranks && r < t->nranks; r++) {
		const struct rt_rank *k = &t->ranks[r];
		struct roce_dev *dv = NULL;
		nr++;
		for (size_t i = 0; i < x->n; i++)
			if (x->dev[i].id == k->device_id)
				dv = &x->dev[i];
		if (!dv) {
			char id[24];
			snprintf(id, sizeof(id), "%ld", k->device_id);
			x->rt_status = PROBE_FAIL;
			probe_reason_add(x->rt_reason, sizeof(x->rt_reason),
					 "rank %ld is on device %s, which was not probed here",
					 k->rank_id, id);
			continue;
		}
		dv->rt_ip = k->device_ip;
		if (!k->device_ip || !dv->ip_ok)
			continue;
		if (strcmp(k->device_ip, dv->ip.addr)) {
			char a[64];
			snprintf(a, sizeof(a), "%s", k->device_ip);
			add(dv, PROBE_FAIL,
			    "IP %s differs from the rank table's device_ip %s (HCCL: EI0014)",
			    dv->ip.addr, a);
			x->rt_status = PROBE_FAIL;
			probe_reason_add(x->rt_reason, sizeof(x->rt_reason),
					 "device %ld has IP %s, its device_ip is %s", k->device_id,
					 dv->ip.addr, a);
		} else {
			agree++;
		}
	}
	if (x->rt_status == PROBE_PASS)
		snprintf(x->rt_reason, sizeof(x->rt_reason),
			 "server %s: %zu of %zu device_ip agree", x->rt_server, agree, nr);
	return 0;
}

static void ip_text(const struct roce_dev *d, char *buf, size_t len)
{
	if (!d->ip_ok) {
		snprintf(buf, len, "-");
		return;
	}
	int bits = ipv4_bits(d->ip.mask);
	if (bits >= 0)
		snprintf(buf, len, "%s/%d", d->ip.addr, bits);
	else
		snprintf(buf, len, "%s", d->ip.addr);
}

static void print_text(const struct roce_run *x, enum probe_status overall)
{
	size_t bad = 0;
	printf("%-4s %-7s %-5s %-15s %-18s %-15s %-15s %-4s %-7s %-5s %s\n", "DEV", "STATUS",
	       "LINK", "HEALTH", "IP", "NETDETECT", "GATEWAY", "TLS", "OPTICAL", "DOWNS", "REASON");
	for (size_t i = 0; i < x->n; i++) {
		const struct roce_dev *d = &x->dev[i];
		char ip[64], downs[24];
		bad += d->status != PROBE_PASS;
		if (g_opts.quiet && d->status == PROBE_PASS)
			continue;
		ip_text(d, ip, sizeof(ip));
		if (d->stat_ok && d->stat.down_count >= 0)
			snprintf(downs, sizeof(downs), "%ld", d->stat.down_count);
		else if (d->stat_ok)
			snprintf(downs, sizeof(downs), "%zu", d->stat.ndown_records);
		else
			snprintf(downs, sizeof(downs), "-");
		const char *col = probe_status_color(1, d->status);
		printf("%-4d %s%-7s%s %-5s %-15s %-18s %-15s %-15s %-4s %-7s %-5s %s\n", d->id, col,
		       probe_status_name(d->status), probe_color_end(col),
		       d->link_ok ? (d->link_up ? "UP" : "DOWN") : "-",
		       *d->health ? d->health : "-", ip, *d->netdetect ? d->netdetect : "-",
		       *d->gateway ? d->gateway : "-",
		       d->tls_ok ? (d->tls.enabled ? "on" : "off") : "-",
		       d->optical_ok ? (d->optical.present ? "present" : "absent") : "-", downs,
		       *d->reason ? d->reason : "-");
	}
	printf("tls: %s: %s\n", probe_status_name(x->tls_status), x->tls_reason);
	if (opt_ranktable)
		printf("ranktable: %s: %s\n", probe_status_name(x->rt_status), x->rt_reason);
	printf("roce: %s: %zu device%s, %zu with problems\n", probe_status_name(overall), x->n,
	       plural_s(x->n), bad);
}

static void str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v && *v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* "counters": every counter as printed; "findings": the non-zero ones of a WARN family. */
static void pkt_json(cJSON *o, const struct roce_dev *d)
{
	if (!d->pkt_ok) {
		cJSON_AddNullToObject(o, "counters");
		str_or_null(o, "counters_error", d->pkt_err);
		return;
	}
	cJSON *t = cJSON_AddObjectToObject(o, "counters"), *all, *fs;
	size_t idx[HCCN_STAT_MAX];
	enum probe_status worst;
	size_t n = hccn_stat_findings(&d->pkt, idx, HCCN_STAT_MAX, &worst);
	cJSON_AddStringToObject(t, "status", probe_status_name(worst));
	cJSON_AddBoolToObject(t, "since_last_clear", 1);
	all = cJSON_AddObjectToObject(t, "values");
	for (size_t i = 0; i < d->pkt.n; i++)
		cJSON_AddNumberToObject(all, d->pkt.c[i].name, (double)d->pkt.c[i].value);
	fs = cJSON_AddArrayToObject(t, "findings");
	for (size_t i = 0; i < n; i++) {
		const struct hccn_stat_rule *row = hccn_stat_rule_for(d->pkt.c[idx[i]].name);
		cJSON *f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "counter", d->pkt.c[idx[i]].name);
		cJSON_AddNumberToObject(f, "value", (double)d->pkt.c[idx[i]].value);
		cJSON_AddStringToObject(f, "family", row->what);
		cJSON_AddStringToObject(f, "status", probe_status_name(row->status));
		cJSON_AddStringToObject(f, "why", row->why);
		cJSON_AddItemToArray(fs, f);
	}
}

static void print_json(const struct roce_run *x, enum probe_status overall, int code)
{
	cJSON *doc = cJSON_CreateObject(), *devs;
	cJSON_AddStringToObject(doc, "hccn_tool", x->hccn);
	devs = cJSON_AddArrayToObject(doc, "devices");
	for (size_t i = 0; i < x->n; i++) {
		const struct roce_dev *d = &x->dev[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "device", d->id);
		cJSON_AddStringToObject(o, "status", probe_status_name(d->status));
		str_or_null(o, "link", d->link_ok ? (d->link_up ? "UP" : "DOWN") : NULL);
		str_or_null(o, "net_health", d->health);
		str_or_null(o, "ipaddr", d->ip_ok ? d->ip.addr : NULL);
		str_or_null(o, "netmask", d->ip_ok ? d->ip.mask : NULL);
		str_or_null(o, "ranktable_device_ip", d->rt_ip);
		str_or_null(o, "netdetect", d->netdetect);
		str_or_null(o, "gateway", d->gateway);
		if (d->tls_ok) {
			cJSON *t = cJSON_AddObjectToObject(o, "tls");
			cJSON_AddBoolToObject(t, "enabled", d->tls.enabled == 1);
			if (d->tls.preconfigured >= 0)
				cJSON_AddBoolToObject(t, "preconfigured",
						      d->tls.preconfigured == 1);
			else
				cJSON_AddNullToObject(t, "preconfigured");
			cJSON_AddNumberToObject(t, "certificates", d->tls.ncerts);
			str_or_null(t, "first_expiry", d->tls.first_expiry_text);
		} else {
			cJSON_AddNullToObject(o, "tls");
		}
		if (d->optical_ok) {
			cJSON *t = cJSON_AddObjectToObject(o, "optical");
			cJSON_AddBoolToObject(t, "present", d->optical.present);
			if (d->optical.tx_mw >= 0)
				cJSON_AddNumberToObject(t, "tx_power_mw", d->optical.tx_mw);
			if (d->optical.rx_mw >= 0)
				cJSON_AddNumberToObject(t, "rx_power_mw", d->optical.rx_mw);
			if (d->optical.rx_los >= 0)
				cJSON_AddNumberToObject(t, "rx_los_flag",
							(double)d->optical.rx_los);
		} else {
			cJSON_AddNullToObject(o, "optical");
		}
		if (d->stat_ok) {
			cJSON *t = cJSON_AddObjectToObject(o, "link_stat"), *recs;
			if (d->stat.up_count >= 0)
				cJSON_AddNumberToObject(t, "up_count", (double)d->stat.up_count);
			else
				cJSON_AddNullToObject(t, "up_count");
			if (d->stat.down_count >= 0)
				cJSON_AddNumberToObject(t, "down_count",
							(double)d->stat.down_count);
			else
				cJSON_AddNullToObject(t, "down_count");
			cJSON_AddNumberToObject(t, "downs_24h", (double)d->downs_recent);
			recs = cJSON_AddArrayToObject(t, "records");
			for (size_t k = 0; k < d->stat.nrecords; k++) {
				cJSON *r = cJSON_CreateObject();
				cJSON_AddStringToObject(r, "time", d->stat.rec[k].text);
				cJSON_AddStringToObject(
					r, "event", d->stat.rec[k].up ? "LINK UP" : "LINK DOWN");
				cJSON_AddItemToArray(recs, r);
			}
		} else {
			cJSON_AddNullToObject(o, "link_stat");
		}
		pkt_json(o, d);
		str_or_null(o, "reason", d->reason);
		cJSON_AddItemToArray(devs, o);
	}
	cJSON *t = cJSON_AddObjectToObject(doc, "tls");
	cJSON_AddStringToObject(t, "status", probe_status_name(x->tls_status));
	cJSON_AddStringToObject(t, "reason", x->tls_reason);
	if (opt_ranktable) {
		cJSON *r = cJSON_AddObjectToObject(doc, "ranktable");
		cJSON_AddStringToObject(r, "file", opt_ranktable);
		str_or_null(r, "server_id", x->rt_server);
		cJSON_AddStringToObject(r, "status", probe_status_name(x->rt_status));
		cJSON_AddStringToObject(r, "reason", x->rt_reason);
	}
	cJSON_AddStringToObject(doc, "status", probe_status_name(overall));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	probe_emit("roce", doc, code);
}

int probe_roce_run(int argc, char **argv)
{
	struct roce_run *x = calloc(1, sizeof(*x));
	struct rt_table t = {0};
	char err[PROBE_ERRLEN];
	int rc;
	(void)argc;
	(void)argv;
	const struct probe_mesh_opts *mo = &probe_mesh_opts;
	if (mo->mesh || mo->ping_list || mo->lldp || mo->hccs || mo->user || mo->port || mo->key ||
	    mo->known_hosts || mo->insecure || mo->parallel || mo->remote) {
		const struct probe_mesh_common c = {.hccn_tool = opt_hccn_tool,
						    .ranktable = opt_ranktable,
						    .server_id = opt_server_id,
						    .devices = opt_devices,
						    .timeout_s = opt_timeout};
		free(x);
		if (probe_mesh_opts.hccs && !probe_mesh_opts.mesh && !probe_mesh_opts.ping_list)
			return fail(EXIT_USAGE, WHERE, NULL,
				    "--hccs is for --mesh and --ping-list");
		return probe_mesh_run(&c);
	}
	if (!x)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	if (probe_tool_find("hccn_tool", opt_hccn_tool, "HCCLCTL_HCCN_TOOL", hccn_fallbacks,
			    x->hccn, sizeof(x->hccn), err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, WHERE,
			  "install the Ascend driver, or pass --hccn-tool PATH (or set "
			  "HCCLCTL_HCCN_TOOL)",
			  "%s (missing)", err);
		goto out;
	}
	if ((rc = device_ids(x)))
		goto out;
	for (size_t i = 0; i < x->n; i++)
		if ((rc = probe_device(x, &x->dev[i])))
			goto out;
	check_tls(x);
	if (opt_ranktable && (rc = check_ranktable(x, &t)))
		goto out;
	enum probe_status overall = x->tls_status;
	for (size_t i = 0; i < x->n; i++)
		overall = probe_status_worst(overall, x->dev[i].status);
	if (opt_ranktable)
		overall = probe_status_worst(overall, x->rt_status);
	rc = probe_status_exit(overall);
	if (g_opts.json || prom_path)
		print_json(x, overall, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	if (!g_opts.json)
		print_text(x, overall);
	rc = probe_prom_exit(rc);
out:
	rt_table_release(&t);
	free(x);
	return rc;
}
