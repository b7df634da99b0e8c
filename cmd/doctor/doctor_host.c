/* doctor's node checks of the host around the NPUs: the kernel log since boot
 * (host.kernel-log) and the job's HCCL_* environment (env.hccl; the launcher compares the
 * nodes' values, doctor_collect.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "probes/host/hcclenv.h"
#include "probes/logs/klog.h"
#include "probes/tool/ptext.h"
#include "probes/tool/tool.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/plural.h"

#define KLOG_CAP (256UL << 20)
#define TOOL_TIMEOUT_MS 20000

extern char **environ;

static const char *st_str(enum probe_status s)
{
	return s == PROBE_FAIL ? "FAIL" : s == PROBE_WARN ? "WARN" : "PASS";
}

/* Runs a log tool; its output into r when it ran, exited 0 and printed something. */
static int run_log_tool(const char *name, const char *const *fallbacks, char *const *args,
			struct probe_tool_result *r, char *why, size_t wlen)
{
	char path[4096], err[PROBE_ERRLEN];
	char *argv[8];
	size_t n = 0;
	memset(r, 0, sizeof(*r));
	if (probe_tool_find(name, NULL, NULL, fallbacks, path, sizeof(path), err, sizeof(err))) {
		snprintf(why, wlen, "no %s", name);
		return -ENOENT;
	}
	argv[n++] = path;
	for (size_t i = 0; args[i] && n < 7; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	int rc = probe_tool_run(path, argv, TOOL_TIMEOUT_MS, r, err, sizeof(err));
	if (rc) {
		snprintf(why, wlen, "%.250s", err);
		return rc;
	}
	if (r->status || !r->outlen) {
		const char *e = *r->errout ? r->errout : "no output";
		snprintf(why, wlen, "%s: %.*s", name, (int)strcspn(e, "\r\n"), e);
		return -EIO;
	}
	return 0;
}

void doctor_kernel_log_check(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	(void)facts;
	static const char *const dmesg_at[] = { "/usr/bin/dmesg", "/bin/dmesg", NULL };
	static const char *const journal_at[] = { "/usr/bin/journalctl", "/bin/journalctl", NULL };
	char *dargs[] = { NULL }, *jargs[] = { (char *)"-k", (char *)"-b", (char *)"--no-pager",
					       (char *)"-q", NULL };
	struct probe_tool_result r = { 0 };
	char *buf = NULL, err[600], why1[300] = "", why2[300] = "";
	size_t len = 0;
	const char *src;
	struct klog_report *k = NULL;
	if (a->kernel_log) {
		if (rt_read_file(a->kernel_log, KLOG_CAP, &buf, &len, err, sizeof(err))) {
			doctor_check_add(checks, "host.kernel-log", "SKIP", NULL,
					 "cannot read the kernel log: %s", err);
			return;
		}
		src = a->kernel_log;
	} else if (!run_log_tool("dmesg", dmesg_at, dargs, &r, why1, sizeof(why1))) {
		src = "dmesg";
	} else {
		probe_tool_result_release(&r);
		if (run_log_tool("journalctl", journal_at, jargs, &r, why2, sizeof(why2))) {
			probe_tool_result_release(&r);
			doctor_check_add(
				checks, "host.kernel-log", "SKIP", NULL,
				"cannot read the kernel log (%s; %s): run as root, or give "
				"--kernel-log FILE",
				why1, why2);
			return;
		}
		src = "journalctl -k -b";
	}
	struct pspan text = { buf ? buf : r.out, buf ? len : r.outlen }, word;
	if (!probe__next_word(&text, &word, "\n")) { /* a pass would say the kernel is fine */
		doctor_check_add(checks, "host.kernel-log", "SKIP", NULL,
				 "nothing to judge: %s has no line of text", src);
		goto out;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		goto out;
	klog_scan(buf ? buf : r.out, buf ? len : r.outlen, k);
	enum probe_status worst = klog_worst(k);
	if (worst == PROBE_PASS) {
		doctor_check_add(checks, "host.kernel-log", "PASS", NULL,
				 "no NPU driver, PCIe AER or machine-check error in %u lines of %s",
				 k->lines, src);
		goto out;
	}
	char msg[1000] = "";
	size_t mo = 0;
	const char *fix = NULL;
	for (int i = 0; i < KLOG_NKINDS && mo < sizeof(msg) - 1; i++) {
		const struct klog_finding *f = &k->k[i];
		if (!f->count)
			continue;
		if (!fix)
			fix = klog_kind_fix((enum klog_kind)i);
		mo += (size_t)snprintf(msg + mo, sizeof(msg) - mo,
				       "%s%s: %u line%s of %s, the first (line %u): \"%s\"",
				       mo ? "; " : "", klog_kind_name((enum klog_kind)i), f->count,
				       plural_s(f->count), src, f->first_line, f->line);
	}
	doctor_check_add(checks, "host.kernel-log", st_str(worst), fix, "%s", msg);
out:
	free(k);
	free(buf);
	probe_tool_result_release(&r);
}

void doctor_env_check(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	struct henv *e = calloc(1, sizeof(*e));
	struct henv_finding f[16];
	char *buf = NULL, err[600], src[300];
	size_t len = 0;
	if (!e)
		return;
	if (a->env_file) {
		if (rt_read_file(a->env_file, 16UL << 20, &buf, &len, err, sizeof(err)) ||
		    henv_parse(buf, len, e, err, sizeof(err))) {
			doctor_check_add(checks, "env.hccl", "SKIP", NULL,
					 "cannot read the environment: %s", err);
			goto out;
		}
		if (!e->n && !e->others) {
			doctor_check_add(checks, "env.hccl", "SKIP", NULL,
					 "nothing to judge: %s sets no variable", a->env_file);
			goto out;
		}
		snprintf(src, sizeof(src), "%s", a->env_file);
	} else {
		henv_from_environ(e, environ);
		snprintf(src, sizeof(src), "this node's environment");
	}
	cJSON *o = cJSON_AddObjectToObject(facts, "hccl_env");
	for (size_t i = 0; i < e->n; i++)
		if (!henv_per_node(e->v[i].key))
			cJSON_AddStringToObject(o, e->v[i].key, e->v[i].val);
	if (!e->n) {
		doctor_check_add(checks, "env.hccl", "PASS", NULL,
				 "no HCCL_* variable in %s: HCCL's defaults", src);
		goto out;
	}
	size_t n = henv_check(e, f, sizeof(f) / sizeof(f[0]));
	enum probe_status worst = n ? f[0].st : PROBE_PASS;
	char msg[1000] = "";
	size_t mo = 0;
	if (worst == PROBE_PASS)
		mo += (size_t)snprintf(msg, sizeof(msg), "%zu HCCL variable%s in %s, within HCCL's "
					    "ranges and coherent",
				       e->n, plural_s(e->n), src);
	for (size_t i = 0; i < n && mo < sizeof(msg) - 1; i++)
		mo += (size_t)snprintf(msg + mo, sizeof(msg) - mo, "%s%s%s", mo ? "; " : "",
				       f[i].st == PROBE_PASS ? "note: " : "",
				       f[i].msg);
	doctor_check_add(checks, "env.hccl", st_str(worst),
			 worst == PROBE_PASS
				 ? NULL
				 : "correct it where the job's environment is set (its launch "
				   "script or env file); the ranges are in hcclctl-doctor(1)",
			 "%s", msg);
out:
	free(buf);
	free(e);
}
