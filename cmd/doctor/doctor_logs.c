/* doctor --logs: the triage of a failed job's logs as a doctor check (logs.cause), and what
 * only it has: how much was read, the evidence lines behind the cause and the other findings,
 * in text and in JSON. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "probes/npu/hcclcodes.h"
#include "probes/logs/kb.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/size.h"
#include "ranktable/base/plural.h"

/* The knowledge base of --knowledge; NULL for the built-in one. */
static const struct kb *knowledge;

int doctor_logs_knowledge(const char *path, struct kb **out, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = rt_read_file(path, KB_MAX_BYTES, &buf, &len, err, errlen);
	if (!rc)
		rc = kb_load_json(path, buf, len, out, err, errlen);
	free(buf);
	knowledge = rc ? NULL : *out;
	return rc;
}

static void skipped_text(const struct hlog_report *r, char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	for (int i = 0; i < HLOG_NSKIP && at < len; i++)
		if (r->skip[i])
			at += (size_t)snprintf(out + at, len - at, "%s%zu %s", at ? ", " : "",
					       r->skip[i], hlog_skip_name(i));
}

/* HCCLCTL_LOG_WINDOW (the last bytes of a file read, 64M) and HCCLCTL_LOG_STREAM_MAX (the
 * most read of a stream, 1G): sizes like 64M, at least 64K. 0, or -EINVAL naming the one in
 * msg. */
static int log_limits(struct hlog_report *r, char *msg, size_t len)
{
	static const struct {
		const char *env;
		size_t off;
	} lim[] = {
		{ "HCCLCTL_LOG_WINDOW", offsetof(struct hlog_report, window) },
		{ "HCCLCTL_LOG_STREAM_MAX", offsetof(struct hlog_report, stream_max) },
	};
	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		const char *e = getenv(lim[i].env);
		unsigned long long v;
		if (!e || !*e)
			continue;
		if (parse_size(e, &v) || v < (64u << 10) || v > ((size_t)4 << 30)) {
			snprintf(msg, len, "%s=%s is not a size from 64K to 4G (like 64M)", lim[i].env, e);
			return -EINVAL;
		}
		*(size_t *)((char *)r + lim[i].off) = (size_t)v;
	}
	return 0;
}

void doctor_logs_scan(const char *path, struct hlog_report *r, int *status, char *msg,
		      size_t len)
{
	char err[512];
	hlog_report_init(r);
	r->kb = knowledge;
	if (log_limits(r, msg, len)) {
		*status = DOCTOR_SKIP;
		return;
	}
	int rc = hlog_scan_path(path, r, err, sizeof(err));
	if (rc) {
		*status = DOCTOR_SKIP;
		snprintf(msg, len, "nothing to read: %s", err);
		return;
	}
	hlog_conclude(r);
	if (!r->nfile) {
		*status = DOCTOR_SKIP;
		char sk[200];
		skipped_text(r, sk, sizeof(sk));
		snprintf(msg, len, "nothing to read in %s (%zu file%s skipped%s%s)", path,
			 r->skipped, plural_s(r->skipped), r->skipped ? ": " : "", sk);
		return;
	}
	/* files without a line of text (empty, or blank lines only): nothing was judged, and a
	 * pass would say the job is fine */
	if (r->lines == r->blank && r->cat == HCAT_NONE) {
		*status = DOCTOR_SKIP;
		snprintf(msg, len, "nothing to judge in %s: %zu file%s without a log line", path,
			 r->nfile, plural_s(r->nfile));
		return;
	}
	if (r->cat == HCAT_NONE) {
		*status = DOCTOR_PASS;
		snprintf(msg, len, "no error in %zu line%s of %zu file%s", r->lines,
			 plural_s(r->lines), r->nfile, plural_s(r->nfile));
		return;
	}
	/* only lines no rule knows: a warning that quotes the first, never a pass */
	*status = r->kind == HLOG_NONE ? DOCTOR_WARN : DOCTOR_FAIL;
	int n = snprintf(msg, len, "%s%s%s%s: %s", hcat_name(r->cat), r->detail[0] ? " (" : "",
			 r->detail, r->detail[0] ? ")" : "", r->cause);
	/* a run that says it succeeded lived through its error lines: worth reading, not a
	 * failed job */
	const struct hlog_file *ok = hlog_run_survived(r);
	if (ok && n >= 0 && (size_t)n < len) {
		*status = DOCTOR_WARN;
		snprintf(msg + n, len - (size_t)n,
			 "; but the run reported success at %s:%u (\"%s\"), so these "
			 "lines did not stop it",
			 ok->name, ok->ok_line, ok->ok_text);
	}
}

void doctor_logs_print(const struct hlog_report *r)
{
	char sk[200];
	skipped_text(r, sk, sizeof(sk));
	printf("read %zu file%s, %zu line%s, %zu error line%s", r->nfile, plural_s(r->nfile),
	       r->lines, plural_s(r->lines), r->errors, plural_s(r->errors));
	if (r->skipped)
		printf("; skipped %zu (%s)", r->skipped, sk);
	if (r->truncated)
		printf("; %zu read in part", r->truncated);
	printf("\n");
	if (r->nchain) {
		char name[HLOG_NODELEN + HLOG_IPLEN + 16];
		printf("waits:");
		for (size_t i = 0; i < r->nchain; i++) {
			hlog_hop_name(&r->chain[i], name, sizeof(name));
			printf("%s%s", i ? " -> " : " ", name);
		}
		printf("\nroot:");
		for (size_t i = r->loop >= 0 ? (size_t)r->loop : r->nchain - 1;
		     i < (r->loop >= 0 ? r->nchain - 1 : r->nchain); i++) {
			hlog_hop_name(&r->chain[i], name, sizeof(name));
			printf(" %s%s", name, r->chain[i].has_log ? "" : " (no log)");
		}
		printf("\n");
	}
	if (r->nevidence)
		printf("evidence:\n");
	for (size_t i = 0; i < r->nevidence; i++)
		printf("  %s:%u: %s\n", out_safe(r->evidence[i].file), r->evidence[i].line,
		       out_safe(r->evidence[i].text));
	if (r->nfindings)
		printf("other findings:\n");
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct hlog_finding *f = &r->findings[i];
		printf("  %s on %s: %s", hcat_name(f->cat), out_safe(f->node), out_safe(f->message));
		if (f->count > 1)
			printf(" (%zu lines)", f->count);
		printf(", %s:%u\n", out_safe(f->at.file), f->at.line);
	}
}

static void add_int(cJSON *o, const char *k, long long v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(o, k, (double)v);
	else
		cJSON_AddNullToObject(o, k);
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v && v[0])
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *hop_json(const struct hlog_hop *h)
{
	char name[HLOG_NODELEN + HLOG_IPLEN + 16];
	cJSON *o = cJSON_CreateObject();
	hlog_hop_name(h, name, sizeof(name));
	cJSON_AddStringToObject(o, "name", name);
	add_str(o, "worker", h->worker);
	add_int(o, "device", h->dev);
	add_int(o, "rank", h->rank);
	add_str(o, "ip", h->ip);
	cJSON_AddBoolToObject(o, "log", h->has_log);
	return o;
}

/* The waits behind the cause: chain (who waited on whom, in order) and root (where they
 * end: one device, or every member of a cycle). */
static void chain_json(cJSON *cause, const struct hlog_report *r)
{
	cJSON *ch = cJSON_AddArrayToObject(cause, "chain");
	cJSON *rt = cJSON_AddArrayToObject(cause, "root");
	for (size_t i = 0; i < r->nchain; i++)
		cJSON_AddItemToArray(ch, hop_json(&r->chain[i]));
	if (!r->nchain)
		return;
	size_t from = r->loop >= 0 ? (size_t)r->loop : r->nchain - 1;
	size_t to = r->loop >= 0 ? r->nchain - 1 : r->nchain;
	for (size_t i = from; i < to; i++)
		cJSON_AddItemToArray(rt, hop_json(&r->chain[i]));
}

static cJSON *quote_json(const struct hlog_quote *q)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", q->file);
	cJSON_AddNumberToObject(o, "line", q->line);
	cJSON_AddStringToObject(o, "text", q->text);
	return o;
}

void doctor_logs_json(cJSON *doc, cJSON *cause, const struct hlog_report *r, const char *path)
{
	cJSON *l = cJSON_AddObjectToObject(doc, "logs");
	cJSON_AddStringToObject(l, "path", path);
	cJSON_AddStringToObject(l, "knowledge_base", r->kb ? kb_source(r->kb) : kb_builtin_source);
	cJSON_AddNumberToObject(l, "files", (double)r->nfile);
	cJSON_AddNumberToObject(l, "lines", (double)r->lines);
	cJSON_AddNumberToObject(l, "bytes", (double)r->bytes);
	cJSON_AddNumberToObject(l, "error_lines", (double)r->errors);
	cJSON_AddNumberToObject(l, "unexplained", (double)r->nunk);
	cJSON *sk = cJSON_AddObjectToObject(l, "skipped");
	for (int i = 0; i < HLOG_NSKIP; i++)
		cJSON_AddNumberToObject(sk, hlog_skip_name(i), (double)r->skip[i]);
	cJSON_AddNumberToObject(l, "truncated", (double)r->truncated);
	const struct hlog_file *ok = hlog_run_survived(r);
	if (!ok)
		ok = hlog_run_success(r);
	if (ok) {
		cJSON *o = cJSON_AddObjectToObject(l, "run_success");
		cJSON_AddStringToObject(o, "file", ok->name);
		cJSON_AddNumberToObject(o, "line", ok->ok_line);
		cJSON_AddStringToObject(o, "text", ok->ok_text);
	} else {
		cJSON_AddNullToObject(l, "run_success");
	}
	if (cause) {
		const cJSON *node = cJSON_GetObjectItemCaseSensitive(cause, "node");
		if (cJSON_IsNull(node) && r->node[0])
			cJSON_ReplaceItemInObjectCaseSensitive(cause, "node",
								cJSON_CreateString(r->node));
		cJSON_AddStringToObject(cause, "kind", hcat_name(r->cat));
		add_str(cause, "detail", r->detail);
		add_str(cause, "knowledge_entity", r->kb_entity);
		add_str(cause, "signature", r->kind != HLOG_NONE ? hlog_kind_name(r->kind) : NULL);
		add_int(cause, "rank", r->rank);
		add_str(cause, "group", r->group);
		add_str(cause, "reported_on", r->reported_on);
		add_int(cause, "device", r->dev);
		cJSON *dv = cJSON_AddArrayToObject(cause, "devices");
		for (int i = 0; i < r->ndevs; i++)
			cJSON_AddItemToArray(dv, cJSON_CreateNumber(r->devs[i]));
		if (!r->ndevs && r->dev >= 0)
			cJSON_AddItemToArray(dv, cJSON_CreateNumber(r->dev));
		add_str(cause, "pci", r->pci);
		add_str(cause, "nic", r->nic);
		add_str(cause, "ip", r->ip);
		add_int(cause, "port", r->port);
		add_int(cause, "peer_rank", r->peer_rank);
		add_str(cause, "peer_ip", r->peer_ip);
		chain_json(cause, r);
	}
	cJSON *ev = cJSON_AddArrayToObject(doc, "evidence");
	for (size_t i = 0; i < r->nevidence; i++)
		cJSON_AddItemToArray(ev, quote_json(&r->evidence[i]));
	cJSON *fs = cJSON_AddArrayToObject(doc, "findings");
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct hlog_finding *f = &r->findings[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "kind", hcat_name(f->cat));
		cJSON_AddStringToObject(o, "node", f->node);
		cJSON_AddStringToObject(o, "message", f->message);
		cJSON_AddNumberToObject(o, "lines", (double)f->count);
		cJSON_AddItemToObject(o, "at", quote_json(&f->at));
		cJSON_AddItemToArray(fs, o);
	}
}
