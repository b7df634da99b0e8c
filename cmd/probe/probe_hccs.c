/* hcclctl probe hccs: the HCCS links of every NPU and chip, from npu-smi, read twice so that
 * growing error and retry counters show, plus the HCCS mesh of `npu-smi info -t topo`.
 * A query the device does not support (hccs on PCIe cards, topo on some boards) is SKIP. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cmd/probe/probe.h"
#include "cmd/lib/prom.h"
#include "probes/npu/npusmi.h"
#include "ranktable/base/plural.h"

#define WHERE "probe hccs"
#define MAX_MISSES 256

static const char *opt_npu_smi;
static long opt_interval = 1, opt_timeout = 10;

const struct opt probe_hccs_opts[] = {
	OPT_PATH("npu-smi", 0, &opt_npu_smi, "PATH",
		 "the npu-smi to run (default: $HCCLCTL_NPU_SMI, else npu-smi in $PATH)",
		 COMPLETE_FILE),
	OPT_NUM("interval", 0, &opt_interval, "SEC",
		"seconds between the two reads of the counters; 0 reads once (default 1)", 0, 3600),
	OPT_NUM("timeout", 0, &opt_timeout, "SEC",
		"deadline of each npu-smi call; it is killed after (default 10)", 1, 3600),
	OPT_PROM,
	OPT_TERM,
};

static const char *const npu_smi_fallbacks[] = {"/usr/local/sbin/npu-smi", "/usr/local/bin/npu-smi",
						NULL};

struct hccs_run {
	char path[1024];
	struct npusmi_chips chips;
	struct hccs_chip *chip;
	struct npusmi_topo *topo;
	int topo_ok;
	int topo_unsupported; /* the device cannot answer info -t topo: SKIP, not UNKNOWN */
	char topo_err[384];
	struct npusmi_topo_miss miss[MAX_MISSES];
	size_t nmiss, group;
};

/* Runs npu-smi with args; 0 when it ran, else the exit code (already reported). */
static int npu_smi(struct hccs_run *x, const char *const *args, struct probe_tool_result *r)
{
	char *argv[16];
	size_t n = 0;
	argv[n++] = x->path;
	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	return probe_run_tool(WHERE, "npu-smi", "HCCLCTL_NPU_SMI", x->path, argv, opt_timeout, r);
}

/* The NPUs and chips: info -l, or info -m when -l says nothing usable. */
static int list_chips(struct hccs_run *x)
{
	static const char *const l[] = {"info", "-l", NULL}, *const m[] = {"info", "-m", NULL};
	struct probe_tool_result r;
	char err[PROBE_ERRLEN], first[256];
	int rc = npu_smi(x, l, &r);
	if (rc)
		return rc;
	rc = npusmi_parse_list(r.out, r.outlen, &x->chips, err, sizeof(err));
	if (rc) {
		probe_first_line(*r.errout ? r.errout : r.out, first, sizeof(first));
		int status = r.status;
		probe_tool_result_release(&r);
		rc = npu_smi(x, m, &r);
		if (rc)
			return rc;
		char err2[PROBE_ERRLEN];
		if (npusmi_parse_mapping(r.out, r.outlen, &x->chips, err2, sizeof(err2))) {
			probe_tool_result_release(&r);
			return fail(EXIT_UNKNOWN, WHERE,
				    "check that the NPU driver is loaded (npu-smi info)",
				    "npu-smi info -l (exit %d): %s%s%s", status, err,
				    *first ? ": " : "", first);
		}
	}
	probe_tool_result_release(&r);
	return 0;
}

static int read_chip(struct hccs_run *x, struct hccs_chip *c, struct npusmi_hccs *into)
{
	char id[16], chip[16], err[160], first[160];
	snprintf(id, sizeof(id), "%d", c->npu);
	snprintf(chip, sizeof(chip), "%d", c->chip);
	const char *const args[] = {"info", "-t", "hccs", "-i", id, "-c", chip, NULL};
	struct probe_tool_result r;
	int rc = npu_smi(x, args, &r);
	if (rc)
		return rc;
	rc = npusmi_parse_hccs(r.out, r.outlen, into, err, sizeof(err));
	if (rc && memmem(r.errout, r.errlen, "does not support querying hccs", 30)) {
		memset(into, 0, sizeof(*into));
		into->unsupported = 1;
		rc = 0;
	}
	if (rc) {
		c->failed = 1;
		probe_first_line(*r.errout ? r.errout : r.out, first, sizeof(first));
		snprintf(c->err, sizeof(c->err),
			 "npu-smi info -t hccs -i %d -c %d (exit %d): %s%s%s", c->npu, c->chip,
			 r.status, err, *first ? ": " : "", first);
	}
	probe_tool_result_release(&r);
	return 0;
}

static int read_topo(struct hccs_run *x)
{
	static const char *const args[] = {"info", "-t", "topo", NULL};
	struct probe_tool_result r;
	char err[160];
	int rc = npu_smi(x, args, &r);
	if (rc)
		return rc;
	x->topo = calloc(1, sizeof(*x->topo));
	if (!x->topo) {
		probe_tool_result_release(&r);
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	}
	int rc2 = npusmi_parse_topo(r.out, r.outlen, x->topo, err, sizeof(err));
	/* PCIe cards answer "This device does not support querying topo.", on either
	 * stream and with any exit code: nothing to check, which is not a failure to check. */
	if (x->topo->unsupported ||
	    memmem(r.errout, r.errlen, "does not support querying topo", 30)) {
		x->topo_unsupported = 1;
		snprintf(x->topo_err, sizeof(x->topo_err),
			 "this device does not support querying topo");
	} else if (rc2) {
		snprintf(x->topo_err, sizeof(x->topo_err), "npu-smi info -t topo (exit %d): %s",
			 r.status, err);
	} else {
		x->topo_ok = 1;
		x->nmiss = npusmi_topo_check(x->topo, x->miss, MAX_MISSES, &x->group);
	}
	probe_tool_result_release(&r);
	return 0;
}

static void num_or_dash(char *buf, size_t len, const struct npusmi_hccs *h,
			enum npusmi_hccs_field f, size_t k)
{
	if (k >= h->n[f])
		snprintf(buf, len, "-");
	else if (h->val[f][k] == NPUSMI_NA)
		snprintf(buf, len, "NA");
	else if (f == HCCS_LANE_LIST)
		snprintf(buf, len, "%s", h->lane_list[k]);
	else
		snprintf(buf, len, "%llu", h->val[f][k]);
}

static cJSON *num_or_null(const struct npusmi_hccs *h, enum npusmi_hccs_field f, size_t k)
{
	if (k >= h->n[f] || h->val[f][k] == NPUSMI_NA)
		return cJSON_CreateNull();
	if (f == HCCS_LANE_LIST)
		return cJSON_CreateString(h->lane_list[k]);
	return cJSON_CreateNumber((double)h->val[f][k]);
}

static const char *chip_state(const struct hccs_chip *c)
{
	if (c->failed)
		return "unknown";
	if (c->first.unsupported)
		return "unsupported";
	if (c->status == PROBE_FAIL)
		return "unhealthy";
	if (c->status == PROBE_UNKNOWN)
		return "unknown";
	return c->status == PROBE_WARN ? "errors" : "ok";
}

/* Counts of link states, for the summary. */
struct tally {
	size_t chips, unsupported, failed, links, up, down, degraded, slow, errors, unused;
};

static void tally_add(struct tally *t, const struct hccs_chip *c)
{
	t->chips++;
	t->unsupported += (size_t)(c->first.unsupported && !c->failed);
	t->failed += (size_t)c->failed;
	for (size_t k = 0; !c->failed && !c->first.unsupported && k < c->nlinks; k++) {
		const char *s = c->link[k].state;
		t->links++;
		t->up += !strcmp(s, "up");
		t->down += !strcmp(s, "down");
		t->degraded += !strcmp(s, "degraded");
		t->slow += !strcmp(s, "slow");
		t->errors += !strcmp(s, "errors");
		t->unused += !strcmp(s, "unused");
	}
}

static void print_text(const struct hccs_run *x, size_t n, enum probe_status overall)
{
	struct tally t = {0};
	printf("%-4s %-4s %-4s %-7s %-11s %-4s %-5s %-5s %-6s %-6s %s\n", "NPU", "CHIP", "LINK",
	       "STATUS", "STATE", "MODE", "LANES", "SPEED", "RETRY", "ERRORS", "REASON");
	for (size_t i = 0; i < n; i++) {
		const struct hccs_chip *c = &x->chip[i];
		tally_add(&t, c);
		if (c->status != PROBE_PASS || c->failed || c->first.unsupported) {
			const char *col = probe_status_color(1, c->status);
			printf("%-4d %-4d %-4s %s%-7s%s %-11s %-4s %-5s %-5s %-6s %-6s %s\n",
			       c->npu, c->chip, "-", col, probe_status_name(c->status),
			       probe_color_end(col), chip_state(c), "-", "-", "-", "-", "-",
			       *c->reason ? c->reason : "-");
		}
		if (c->failed || c->first.unsupported)
			continue;
		const struct npusmi_hccs *h = c->have_second ? &c->second : &c->first;
		for (size_t k = 0; k < c->nlinks; k++) {
			const struct hccs_link_verdict *v = &c->link[k];
			if (g_opts.quiet && v->status == PROBE_PASS)
				continue;
			char mode[24], lanes[24], speed[24], retry[24], errs[24];
			num_or_dash(mode, sizeof(mode), h, HCCS_LANE_MODE, k);
			num_or_dash(lanes, sizeof(lanes), h, HCCS_LANE_LIST, k);
			num_or_dash(speed, sizeof(speed), h, HCCS_SPEED, k);
			num_or_dash(retry, sizeof(retry), h, HCCS_RETRY, k);
			num_or_dash(errs, sizeof(errs), h, HCCS_ERROR, k);
			const char *col = probe_status_color(1, v->status);
			printf("%-4d %-4d %-4zu %s%-7s%s %-11s %-4s %-5s %-5s %-6s %-6s %s\n",
			       c->npu, c->chip, k, col, probe_status_name(v->status),
			       probe_color_end(col), v->state, mode, lanes, speed, retry, errs,
			       *v->reason ? v->reason : "-");
		}
	}
	if (x->topo_unsupported) {
		printf("topology: SKIP: %s\n", x->topo_err);
	} else if (!x->topo_ok) {
		printf("topology: UNKNOWN: %s\n", x->topo_err);
	} else if (!x->group) {
		printf("topology: %zu devices, no HCCS between them\n", x->topo->n);
	} else if (!x->nmiss) {
		printf("topology: PASS: %zu devices, HCCS full mesh in groups of %zu\n", x->topo->n,
		       x->group);
	} else {
		for (size_t i = 0; i < x->nmiss && i < MAX_MISSES; i++) {
			const struct npusmi_topo_miss *m = &x->miss[i];
			printf("topology: FAIL: %s-%s is %s%s%s, expected HCCS (mesh groups of "
			       "%zu)\n",
			       x->topo->label[m->a], x->topo->label[m->b], m->type,
			       *m->reverse ? ", reverse " : "", m->reverse, x->group);
		}
	}
	printf("hccs: %s: %zu chip%s, %zu link%s: %zu up, %zu down, %zu degraded, %zu slow, "
	       "%zu with errors, %zu unused",
	       probe_status_name(overall), t.chips, plural_s(t.chips), t.links,
	       plural_s(t.links), t.up, t.down, t.degraded, t.slow, t.errors, t.unused);
	if (t.unsupported)
		printf("; %zu chip%s unsupported", t.unsupported, plural_s(t.unsupported));
	if (t.failed)
		printf("; %zu chip%s not read", t.failed, plural_s(t.failed));
	if (x->topo_ok && x->nmiss)
		printf("; %zu pair%s not HCCS", x->nmiss, plural_s(x->nmiss));
	putchar('\n');
}

static void print_json(const struct hccs_run *x, size_t n, enum probe_status overall, int code)
{
	cJSON *doc = cJSON_CreateObject(), *chips = cJSON_AddArrayToObject(doc, "chips");
	static const enum npusmi_hccs_field counters[] = {HCCS_TX_PACKETS, HCCS_TX_BYTES,
							  HCCS_RX_PACKETS, HCCS_RX_BYTES,
							  HCCS_RETRY,	   HCCS_ERROR};
	static const char *const counter_keys[] = {"tx_packets", "tx_bytes", "rx_packets",
						   "rx_bytes",	 "retry",    "errors"};
	cJSON_AddStringToObject(doc, "npu_smi", x->path);
	cJSON_AddNumberToObject(doc, "interval_s", (double)opt_interval);
	for (size_t i = 0; i < n; i++) {
		const struct hccs_chip *c = &x->chip[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "npu", c->npu);
		cJSON_AddNumberToObject(o, "chip", c->chip);
		cJSON_AddStringToObject(o, "status", probe_status_name(c->status));
		cJSON_AddStringToObject(o, "state", chip_state(c));
		cJSON_AddBoolToObject(o, "supported", !c->first.unsupported || c->failed);
		const struct npusmi_hccs *h = c->have_second ? &c->second : &c->first;
		if (!c->failed && !c->first.unsupported) {
			if (*h->health)
				cJSON_AddStringToObject(o, "health", h->health);
			else
				cJSON_AddNullToObject(o, "health");
			if (*h->first_error_lane)
				cJSON_AddStringToObject(o, "first_error_lane", h->first_error_lane);
			else
				cJSON_AddNullToObject(o, "first_error_lane");
		}
		if (*c->reason)
			cJSON_AddStringToObject(o, "reason", c->reason);
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON *links = cJSON_AddArrayToObject(o, "links");
		for (size_t k = 0; !c->failed && !c->first.unsupported && k < c->nlinks; k++) {
			const struct hccs_link_verdict *v = &c->link[k];
			cJSON *l = cJSON_CreateObject();
			cJSON_AddNumberToObject(l, "link", (double)k);
			cJSON_AddStringToObject(l, "status", probe_status_name(v->status));
			cJSON_AddStringToObject(l, "state", v->state);
			cJSON_AddItemToObject(l, "lane_mode", num_or_null(h, HCCS_LANE_MODE, k));
			cJSON_AddItemToObject(l, "lane_list", num_or_null(h, HCCS_LANE_LIST, k));
			cJSON_AddItemToObject(l, "speed", num_or_null(h, HCCS_SPEED, k));
			for (size_t f = 0; f < sizeof(counters) / sizeof(counters[0]); f++)
				cJSON_AddItemToObject(l, counter_keys[f],
						      num_or_null(h, counters[f], k));
			if (c->have_second) {
				cJSON_AddNumberToObject(l, "retry_delta", (double)v->retry_delta);
				cJSON_AddNumberToObject(l, "error_delta", (double)v->error_delta);
			} else {
				cJSON_AddNullToObject(l, "retry_delta");
				cJSON_AddNullToObject(l, "error_delta");
			}
			if (*v->reason)
				cJSON_AddStringToObject(l, "reason", v->reason);
			else
				cJSON_AddNullToObject(l, "reason");
			cJSON_AddItemToArray(links, l);
		}
		cJSON_AddItemToArray(chips, o);
	}
	cJSON *topo = cJSON_AddObjectToObject(doc, "topology");
	if (x->topo_unsupported) {
		cJSON_AddStringToObject(topo, "status", "SKIP");
		cJSON_AddStringToObject(topo, "reason", x->topo_err);
	} else if (!x->topo_ok) {
		cJSON_AddStringToObject(topo, "status", "UNKNOWN");
		cJSON_AddStringToObject(topo, "error", x->topo_err);
	} else {
		cJSON_AddStringToObject(topo, "status", x->nmiss ? "FAIL" : "PASS");
		cJSON *labels = cJSON_AddArrayToObject(topo, "devices");
		for (size_t i = 0; i < x->topo->n; i++)
			cJSON_AddItemToArray(labels, cJSON_CreateString(x->topo->label[i]));
		cJSON_AddNumberToObject(topo, "group_size", (double)x->group);
		cJSON *miss = cJSON_AddArrayToObject(topo, "not_hccs");
		for (size_t i = 0; i < x->nmiss && i < MAX_MISSES; i++) {
			cJSON *m = cJSON_CreateObject();
			cJSON_AddStringToObject(m, "a", x->topo->label[x->miss[i].a]);
			cJSON_AddStringToObject(m, "b", x->topo->label[x->miss[i].b]);
			cJSON_AddStringToObject(m, "type", x->miss[i].type);
			if (*x->miss[i].reverse)
				cJSON_AddStringToObject(m, "reverse", x->miss[i].reverse);
			cJSON_AddItemToArray(miss, m);
		}
	}
	cJSON_AddStringToObject(doc, "status", probe_status_name(overall));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	probe_emit("hccs", doc, code);
}

int probe_hccs_run(int argc, char **argv)
{
	struct hccs_run *x = calloc(1, sizeof(*x));
	char err[PROBE_ERRLEN];
	int rc;
	(void)argc;
	(void)argv;
	if (!x)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	if (probe_tool_find("npu-smi", opt_npu_smi, "HCCLCTL_NPU_SMI", npu_smi_fallbacks, x->path,
			    sizeof(x->path), err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, WHERE,
			  "install the Ascend driver, or pass --npu-smi PATH (or set "
			  "HCCLCTL_NPU_SMI)",
			  "%s (missing)", err);
		goto out;
	}
	if ((rc = list_chips(x)))
		goto out;
	size_t n = x->chips.n;
	x->chip = calloc(n ? n : 1, sizeof(*x->chip));
	if (!x->chip) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	size_t usable = 0;
	for (size_t i = 0; i < n; i++) {
		x->chip[i].npu = x->chips.v[i].npu;
		x->chip[i].chip = x->chips.v[i].chip;
		if ((rc = read_chip(x, &x->chip[i], &x->chip[i].first)))
			goto out;
		usable += !x->chip[i].failed && !x->chip[i].first.unsupported;
	}
	if (opt_interval > 0 && usable) {
		struct timespec ts = {opt_interval, 0};
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		for (size_t i = 0; i < n; i++) {
			struct hccs_chip *c = &x->chip[i];
			if (c->failed || c->first.unsupported)
				continue;
			if ((rc = read_chip(x, c, &c->second)))
				goto out;
			/* a chip that fails its second read keeps its first one */
			c->have_second = !c->failed && !c->second.unsupported;
			if (c->failed && !c->first.unsupported) {
				c->failed = 0;
				c->err[0] = '\0';
			}
		}
	}
	if ((rc = read_topo(x)))
		goto out;
	enum probe_status overall = hccs_assess(x->chip, n, (double)opt_interval);
	if (x->topo_ok && x->nmiss)
		overall = probe_status_worst(overall, PROBE_FAIL);
	if (!x->topo_ok && !x->topo_unsupported)
		overall = probe_status_worst(overall, PROBE_UNKNOWN);
	if (!usable && overall < PROBE_UNKNOWN) {
		overall = PROBE_UNKNOWN;
		fail(EXIT_UNKNOWN, WHERE, NULL, "no NPU here supports querying hccs (%zu chip%s)",
		     n, plural_s(n));
	}
	rc = probe_status_exit(overall);
	if (g_opts.json || prom_path)
		print_json(x, n, overall, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	if (!g_opts.json)
		print_text(x, n, overall);
	rc = probe_prom_exit(rc);
out:
	if (x) {
		free(x->chip);
		free(x->topo);
		free(x);
	}
	return rc;
}
