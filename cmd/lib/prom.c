/* The Prometheus text format (version 0.0.4) for the textfile collector. The names follow
 * Prometheus's conventions, which `promtool check metrics` enforces: base units (seconds,
 * bytes per second), gauges only (each file is one run's state, nothing accumulates across
 * runs), and a state as one series per possible value with 1 on the current one, so an
 * alert is `hcclctl_doctor_check_status{status="fail"} == 1` and a missing series is not
 * mistaken for a healthy one. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/lib/prom.h"
#include "ranktable/base/buf.h"
#include "ranktable/ranktable.h"

const char *prom_path;

static const struct {
	const char *name, *help;
} families[] = {
	{"hcclctl_doctor_check_status",
	 "Status of a doctor check on a node: 1 for the status it has (pass, warn, fail, skip), "
	 "0 for the others"},
	{"hcclctl_doctor_checks", "Doctor checks by status, over every node"},
	{"hcclctl_hccs_link_up", "HCCS link of an NPU chip: 1 up, 0 down or degraded"},
	{"hcclctl_rdma_port_up", "RDMA port: 1 ACTIVE, 0 any other state"},
	{"hcclctl_rdma_port_rate_bytes_per_second", "RDMA port's link rate"},
	{"hcclctl_roce_link_up", "NPU RoCE NIC (hccn_tool): 1 link up, 0 down"},
	{"hcclctl_net_node_reached",
	 "Node of probe net: 1 its agent was reached and it took part, 0 it could not be measured"},
	{"hcclctl_net_link_up",
	 "Host network path between two nodes (probe net): 1 measured, 0 failed"},
	{"hcclctl_net_link_slow", "Host network path below the probe's threshold: 1 slow, 0 not"},
	{"hcclctl_net_link_bandwidth_bytes_per_second",
	 "Measured bandwidth of a host network path, from one node to the other"},
	{"hcclctl_net_link_rtt_seconds", "Median round trip of a host network path"},
	{"hcclctl_probe_status",
	 "Overall result of a probe: 1 for its status (pass, warn, fail, skip, unknown), 0 for the "
	 "others"},
	{"hcclctl_run_busbw_bytes_per_second",
	 "Bus bandwidth of a collective at one message size (nccl-tests factors)"},
	{"hcclctl_run_algbw_bytes_per_second", "Algorithm bandwidth of a collective at one size"},
	{"hcclctl_run_time_seconds", "Time of one collective call at one size"},
	{"hcclctl_run_wrong_elements", "Elements that differ from the expected result"},
	{"hcclctl_run_verdict",
	 "The run's verdict: 1 for its kind (none, dead-rank, stuck-rank, link-down, slow-link, "
	 "mismatch, config, error), 0 for the others"},
	{"hcclctl_exit_code", "Exit code of the command: 0 OK, 1 WARN, 2 FAIL, 3 UNKNOWN"},
	{"hcclctl_last_run_timestamp_seconds", "When the command wrote this file (Unix time)"},
};
#define NFAM (sizeof(families) / sizeof(families[0]))

void prom_init(struct prom *m)
{
	memset(m, 0, sizeof(*m));
	buf_init(&m->b, 0, PROM_CAP);
}

void prom_release(struct prom *m)
{
	buf_release(&m->b);
	memset(m, 0, sizeof(*m));
}

static void put(struct prom *m, const char *s, size_t n)
{
	buf_add(&m->b, s, n);
}

static void puts_(struct prom *m, const char *s)
{
	put(m, s, strlen(s));
}

/* Label values escape backslash, double quote and newline; HELP text backslash and newline. */
static void put_escaped(struct prom *m, const char *s, int quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			puts_(m, "\\\\");
		else if (*s == '\n')
			puts_(m, "\\n");
		else if (*s == '"' && quote)
			puts_(m, "\\\"");
		else
			put(m, s, 1);
	}
}

static void header(struct prom *m, const char *name)
{
	for (size_t i = 0; i < m->nfamilies; i++)
		if (!strcmp(m->families[i], name))
			return;
	const char *help = "";
	for (size_t i = 0; i < NFAM; i++)
		if (!strcmp(families[i].name, name))
			help = families[i].help;
	if (m->nfamilies < sizeof(m->families) / sizeof(m->families[0]))
		m->families[m->nfamilies++] = name;
	puts_(m, "# HELP ");
	puts_(m, name);
	puts_(m, " ");
	put_escaped(m, help, 0);
	puts_(m, "\n# TYPE ");
	puts_(m, name);
	puts_(m, " gauge\n");
}

void prom_gauge(struct prom *m, const char *name, double value, ...)
{
	header(m, name);
	puts_(m, name);
	va_list ap;
	va_start(ap, value);
	const char *k;
	int first = 1;
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);
		puts_(m, first ? "{" : ",");
		puts_(m, k);
		puts_(m, "=\"");
		put_escaped(m, v ? v : "", 1);
		puts_(m, "\"");
		first = 0;
	}
	va_end(ap);
	char num[64];
	if (isnan(value))
		snprintf(num, sizeof(num), "NaN");
	else if (isinf(value))
		snprintf(num, sizeof(num), value > 0 ? "+Inf" : "-Inf");
	else
		snprintf(num, sizeof(num), "%.15g", value);
	puts_(m, first ? " " : "} ");
	puts_(m, num);
	puts_(m, "\n");
}

void prom_footer(struct prom *m, const char *command, int exit_code)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	prom_gauge(m, "hcclctl_exit_code", exit_code, "command", command, NULL);
	prom_gauge(m, "hcclctl_last_run_timestamp_seconds",
		   (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1e3, "command", command,
		   NULL);
}

int prom_write(const struct prom *m, const char *path, char *err, size_t errlen)
{
	if (m->b.err) {
		snprintf(err, errlen, "%s: the metrics exceed %lu bytes", path, PROM_CAP);
		return -ENOMEM;
	}
	/* the rank tables' atomic replacement: its temporary file starts with a dot and does
	 * not end in .prom, so the textfile collector never reads a half-written one */
	return rt_write_atomic(path, buf_str(&m->b), m->b.len, err, errlen);
}
