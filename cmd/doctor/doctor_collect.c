/* hcclctl doctor, the launcher's side once the nodes answered: their checks into the job,
 * what only means something across nodes (versions, TLS, MTU, HCCL_* variables, the clock),
 * and the checks the launcher runs itself (--deep in doctor_deep.c, --logs). */
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_job.h"
#include "ranktable/base/plural.h"

static enum st st_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (s && !strcmp(s, doctor_st_name[i]))
			return (enum st)i;
	return ST_FAIL;
}

/* ---- across nodes ---- */

static const char *fact_str(const cJSON *doc, const char *k)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "facts");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A fact that must be equal everywhere: the majority value, and every node that differs. */
static void compare_fact(struct job *j, const char *fact, const char *code, const char *what,
			 const char *fix)
{
	const char *maj = NULL;
	size_t majn = 0, have = 0;
	for (size_t a = 0; a < j->nnodes; a++) {
		const char *va = j->docs[a] ? fact_str(j->docs[a], fact) : NULL;
		if (!va)
			continue;
		have++;
		size_t c = 0;
		for (size_t b = 0; b < j->nnodes; b++) {
			const char *vb = j->docs[b] ? fact_str(j->docs[b], fact) : NULL;
			c += vb && !strcmp(va, vb);
		}
		if (c > majn) {
			majn = c;
			maj = va;
		}
	}
	if (!have) {
		for (size_t a = 0; a < j->nnodes; a++)
			if (j->docs[a])
				doctor_job_add(j, (int)a, code, ST_SKIP, NULL, "no %s found", what);
		return;
	}
	for (size_t a = 0; a < j->nnodes; a++) {
		if (!j->docs[a])
			continue;
		const char *va = fact_str(j->docs[a], fact);
		if (!va)
			doctor_job_add(j, (int)a, code, ST_SKIP, NULL, "no %s found", what);
		else if (strcmp(va, maj))
			doctor_job_add(j, (int)a, code, ST_FAIL, fix, "%s %s, but %zu node%s have %s", what, va, majn,
			    plural_s(majn), maj);
		else
			doctor_job_add(j, (int)a, code, ST_PASS, NULL, "%s %s", what, va);
	}
}

/* Numbers a fact array holds on each node ("tls": 0/1 per NPU, "mtu" per port). */
static void compare_array(struct job *j, const char *fact, const char *code, const char *what,
			  const char *fix)
{
	double maj = NAN;
	size_t majn = 0, have = 0;
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(
						      cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts"), fact)
					    : NULL, *x;
		cJSON_ArrayForEach(x, f)
		{
			have++;
			size_t c = 0;
			for (size_t b = 0; b < j->nnodes; b++) {
				const cJSON *g = j->docs[b] ? cJSON_GetObjectItemCaseSensitive(
								      cJSON_GetObjectItemCaseSensitive(j->docs[b], "facts"), fact)
							    : NULL, *y;
				cJSON_ArrayForEach(y, g) c += y->valuedouble == x->valuedouble;
			}
			if (c > majn) {
				majn = c;
				maj = x->valuedouble;
			}
		}
	}
	if (!have)
		return;
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(
						      cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts"), fact)
					    : NULL, *x;
		if (!cJSON_GetArraySize(f))
			continue;
		int odd = 0;
		double ov = 0;
		cJSON_ArrayForEach(x, f) if (x->valuedouble != maj)
		{
			odd++;
			ov = x->valuedouble;
		}
		if (odd)
			doctor_job_add(j, (int)a, code, ST_FAIL, fix, "%s %g on %d of its ports/NPUs, the cluster's %g",
			    what, ov, odd, maj);
		else
			doctor_job_add(j, (int)a, code, ST_PASS, NULL, "%s %g", what, maj);
	}
}

static const cJSON *env_facts(const struct job *j, size_t a)
{
	const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts") : NULL;
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(f, "hccl_env");
	return cJSON_IsObject(o) ? o : NULL;
}

static const char *env_of(const struct job *j, size_t a, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(env_facts(j, a), key));
}

static int same_value(const char *x, const char *y)
{
	return x && y ? !strcmp(x, y) : x == y;
}

/* The HCCL_* variables the nodes reported (facts.hccl_env): each variable set on any node
 * must have the majority's value (unset counts as a value) on every node. */
static void compare_env(struct job *j)
{
	size_t have = 0, keys = 0, nbad = 0;
	for (size_t a = 0; a < j->nnodes; a++)
		have += env_facts(j, a) != NULL;
	char(*bad)[600] = have > 1 ? calloc(j->nnodes, sizeof(*bad)) : NULL;
	if (!bad)
		return;
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *kv;
		cJSON_ArrayForEach(kv, env_facts(j, a))
		{
			const char *key = kv->string, *maj = NULL;
			/* each key once: at the first node that sets it */
			size_t first = 0, majn = 0;
			while (first < a && !env_of(j, first, key))
				first++;
			if (first < a)
				continue;
			keys++;
			for (size_t b = 0; b < j->nnodes; b++) {
				size_t c = 0;
				for (size_t d = 0; env_facts(j, b) && d < j->nnodes; d++)
					c += env_facts(j, d) &&
					     same_value(env_of(j, b, key), env_of(j, d, key));
				if (c > majn) {
					majn = c;
					maj = env_of(j, b, key);
				}
			}
			for (size_t b = 0; b < j->nnodes; b++) {
				const char *vb = env_of(j, b, key);
				size_t at = strlen(bad[b]);
				if (!env_facts(j, b) || same_value(vb, maj) ||
				    at > sizeof(bad[b]) - 200)
					continue;
				char mine[120], theirs[120];
				if (vb)
					snprintf(mine, sizeof(mine), "%s=%.40s", key, vb);
				else
					snprintf(mine, sizeof(mine), "%s unset", key);
				if (maj)
					snprintf(theirs, sizeof(theirs), "%s %s=%.40s",
						 majn == 1 ? "has" : "have", key, maj);
				else
					snprintf(theirs, sizeof(theirs), "leave%s it unset",
						 majn == 1 ? "s" : "");
				snprintf(bad[b] + at, sizeof(bad[b]) - at, "%s%s, but %zu node%s %s",
					 at ? "; " : "", mine, majn, plural_s(majn), theirs);
			}
		}
	}
	for (size_t b = 0; b < j->nnodes; b++)
		if (bad[b][0]) {
			nbad++;
			doctor_job_add(j, (int)b, "env.hccl", ST_FAIL,
			    "set the same HCCL_* variables on every node (the job's launch script "
			    "or env file)",
			    "%s", bad[b]);
		}
	if (!nbad && keys)
		doctor_job_add(j, -1, "env.hccl", ST_PASS, NULL,
		    "the same %zu HCCL variable%s on all %zu nodes", keys, plural_s(keys),
		    have);
	else if (!nbad)
		doctor_job_add(j, -1, "env.hccl", ST_PASS, NULL, "no HCCL variable on any of the %zu nodes",
		    have);
	free(bad);
}
/* Each node stamps its report as it leaves; the launcher notes when it arrived. The
 * difference is the node's clock against the launcher's, give or take the few milliseconds
 * the report took on the way. */
static void compare_time(struct job *j)
{
	for (size_t a = 0; a < j->nnodes; a++) {
		const cJSON *f = j->docs[a] ? cJSON_GetObjectItemCaseSensitive(j->docs[a], "facts") : NULL;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "time_us");
		if (!j->docs[a])
			continue;
		/* the same clock on both ends, or a report that was not timed on arrival */
		if (dopt.local || !cJSON_IsNumber(v) || !j->arrived_us || !j->arrived_us[a]) {
			doctor_job_add(j, (int)a, "host.time", ST_SKIP, NULL, "%s",
				       dopt.local ? "--local: the launcher is this node, no other "
						    "clock to compare with"
						  : "the node's report has no time to compare");
			continue;
		}
		double skew = (v->valuedouble - j->arrived_us[a]) / 1e6;
		if (fabs(skew) > 2.0)
			doctor_job_add(j, (int)a, "host.time", ST_WARN,
			    "run chrony or ntpd on every node; logs from nodes with skewed clocks "
			    "cannot be lined up",
			    "clock %+.1f s from the launcher's", skew);
		else
			doctor_job_add(j, (int)a, "host.time", ST_PASS, NULL, "clock within 2 s of the launcher's");
	}
}
/* The nodes' own checks into the job. */
void doctor_take_node_checks(struct job *j)
{
	for (size_t i = 0; i < j->nnodes; i++) {
		const cJSON *c, *cs = j->docs[i] ? cJSON_GetObjectItemCaseSensitive(j->docs[i], "checks")
						 : NULL;
		cJSON_ArrayForEach(c, cs)
		{
			const cJSON *code = cJSON_GetObjectItemCaseSensitive(c, "code");
			const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
			const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c, "message");
			const cJSON *fix = cJSON_GetObjectItemCaseSensitive(c, "fix");
			if (!cJSON_IsString(code) || !cJSON_IsString(st) || !cJSON_IsString(msg))
				continue;
			doctor_job_add(j, (int)i, code->valuestring, st_parse(st->valuestring),
			    cJSON_IsString(fix) ? fix->valuestring : NULL, "%s", msg->valuestring);
		}
	}
}

static void logs_check(struct job *j)
{
	char msg[1100];
	int st;
	doctor_logs_scan(dopt.logs, &doctor_hlog, &st, msg, sizeof(msg));
	doctor_job_add(j, -1, "logs.cause", (enum st)st, st >= DOCTOR_WARN ? doctor_hlog.fix : NULL, "%s", msg);
}
/* The launcher's own checks, after the nodes': what only means something across nodes, the
 * network measured (--deep) and the logs read (--logs). */
void doctor_launcher_checks(struct job *j, struct node_plan *plan)
{
	if (j->nnodes > 1) {
		compare_fact(j, "driver", "npu.driver", "NPU driver",
			     "install the same driver on every node (npu-smi info -t board -i 0)");
		compare_fact(j, "firmware", "npu.firmware", "NPU firmware",
			     "upgrade the firmware to the same version on every node "
			     "(npu-smi info -t board -i 0)");
		compare_fact(j, "cann", "cann.version", "CANN",
			     "install the same CANN toolkit on every node (ascend_toolkit_install.info)");
		compare_array(j, "tls", "nic.tls", "TLS switch",
			      "hccn_tool -i N -tls -s enable 0 (or 1) on every NPU of the cluster");
		compare_array(j, "mtu", "link.mtu", "active MTU",
			      "set the same MTU on every port and on the switch");
		if (doctor_wanted(&j->filter, "env.hccl"))
			compare_env(j);
	}
	if (!dopt.merge) /* each report read carries its own node's host.time */
		compare_time(j);
	/* one ping run per device: with the other network measurements, or when asked for */
	if (dopt.ranktable && j->nnodes && doctor_wanted(&j->filter, "link.npu-mesh")) {
		if (dopt.deep || dopt.checks)
			doctor_mesh_check(j);
		else
			doctor_job_add(j, -1, "link.npu-mesh", ST_SKIP, NULL,
			    "not run: add --deep (or --checks link.npu-mesh) to ping every device IP "
			    "from every other device's NIC");
	}
	/* probe net, as the mesh: with --deep, or when --checks names it (its heat map on the
	 * --html page then needs no --deep) */
	if ((dopt.deep || (dopt.checks && doctor_wanted(&j->filter, "net.bandwidth"))) &&
	    j->nnodes > 1 && !dopt.local)
		doctor_deep_checks(j, plan);
	if (dopt.logs)
		logs_check(j);

}
