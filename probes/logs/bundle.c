/* A file's place in a collected bundle, read from its path alone. The folder names are the
 * collectors' (MindCluster's ascend-fd collection, ModelArts' job output): a worker folder, the
 * level folders of CANN's plogs (run, debug), device and rank folders, and CANN's own file
 * names, plog-PID_TIME.log and device-PID_TIME.log, whose PID is the host process (the lines
 * inside may be written by a helper process with another pid, or edited). */
#include <stdio.h>
#include <string.h>

#include "probes/logs/bundle.h"

static const char *const fkind_names[HLOG_NFKINDS] = {
	[HLOG_FK_OTHER] = "other",     [HLOG_FK_PLOG_RUN] = "plog-run",
	[HLOG_FK_PLOG_DEBUG] = "plog-debug", [HLOG_FK_DEVICE] = "device",
	[HLOG_FK_ENV] = "env-check",   [HLOG_FK_SCREEN] = "screen",
};

const char *hlog__fkind_name(int kind)
{
	return kind >= 0 && kind < HLOG_NFKINDS ? fkind_names[kind] : "?";
}

/* The number right after prefix at the start of s (n bytes), ended by one of ends (or the end
 * of s when ends has '\0' first): -1 when s is not that. */
static int num_after(const char *s, size_t n, const char *prefix, const char *ends)
{
	size_t k = strlen(prefix);
	if (n <= k || strncmp(s, prefix, k))
		return -1;
	long v = 0;
	size_t i = k;
	for (; i < n && s[i] >= '0' && s[i] <= '9' && v < 100000000; i++)
		v = v * 10 + (s[i] - '0');
	if (i == k || v >= 100000000)
		return -1;
	if (i == n)
		return ends[0] ? -1 : (int)v;
	return ends[0] && strchr(ends, s[i]) ? (int)v : -1;
}

/* The number after the last occurrence of key in s (n bytes) ended by one of ends; -1. */
static int num_in(const char *s, size_t n, const char *key, const char *ends)
{
	int v = -1;
	size_t k = strlen(key);
	for (size_t i = 0; i + k < n; i++)
		if (!strncmp(s + i, key, k)) {
			int x = num_after(s + i, n - i, key, ends);
			if (x >= 0)
				v = x;
		}
	return v;
}

/* Folder names that say what the files below them are, from the collectors' layouts. */
static const struct {
	const char *name;
	int kind;
} folders[] = {
	{"environment_check", HLOG_FK_ENV},
	{"device_log", HLOG_FK_DEVICE},
	{"hisi_logs", HLOG_FK_DEVICE},
	{"slog", HLOG_FK_DEVICE},
};

struct walk_state {
	int in_process_log, in_device_log, run, debug, kind;
};

static void folder(struct hlog_place *p, struct walk_state *w, const char *s, size_t n)
{
	int v;
	if ((v = num_after(s, n, "worker-", "")) >= 0 || (v = num_after(s, n, "worker_", "")) >= 0)
		snprintf(p->worker, sizeof(p->worker), "worker-%d", v);
	else if ((v = num_after(s, n, "device-", "")) >= 0)
		p->dev = v;
	else if ((v = num_after(s, n, "rank_", "")) >= 0 || (v = num_after(s, n, "rank-", "")) >= 0)
		p->rank = v;
	w->run |= n == 3 && !strncmp(s, "run", 3);
	w->debug |= n == 5 && !strncmp(s, "debug", 5);
	w->in_process_log |= n == 11 && !strncmp(s, "process_log", 11);
	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++)
		if (strlen(folders[i].name) == n && !strncmp(s, folders[i].name, n)) {
			w->kind = folders[i].kind;
			w->in_device_log |= folders[i].kind == HLOG_FK_DEVICE;
		}
}

static void file_name(struct hlog_place *p, struct walk_state *w, const char *s)
{
	size_t n = strlen(s);
	int v;
	/* CANN's "plog-PID_TIME.log", and ascend-fd's copy of one it has parsed,
	 * "plog-parser-PID-N.log" */
	if ((v = num_after(s, n, "plog-", "_.")) >= 0 ||
	    (v = num_after(s, n, "plog-parser-", "-")) >= 0) {
		p->pid = v;
		p->kind = w->run && !w->debug ? HLOG_FK_PLOG_RUN : HLOG_FK_PLOG_DEBUG;
		return;
	}
	if ((v = num_after(s, n, "device-", "_")) >= 0) {
		/* CANN names a device log of a host process by the process; the device's own
		 * logs (device_log/) by the device */
		if (w->in_device_log && p->dev < 0)
			p->dev = v;
		else if (!w->in_device_log)
			p->pid = v;
		p->kind = HLOG_FK_DEVICE;
		return;
	}
	if (!strncmp(s, "npu_info", 8))
		p->kind = HLOG_FK_ENV;
	/* ModelArts' screen output of one rank: JOB-proc-rank-N-device-D.txt */
	int r = num_in(s, n, "-rank-", "-.");
	int d = num_in(s, n, "-device-", ".");
	if (r < 0)
		r = num_after(s, n, "rank-", ".");
	if (r >= 0) {
		p->rank = r;
		if (d >= 0)
			p->dev = d;
		if (p->kind == HLOG_FK_OTHER)
			p->kind = HLOG_FK_SCREEN;
	}
}

void hlog__bundle_place(const char *path, struct hlog_place *p)
{
	memset(p, 0, sizeof(*p));
	p->pid = p->dev = p->rank = -1;
	if (!path)
		return;
	struct walk_state w = {0};
	const char *s = path;
	for (;;) {
		const char *slash = strchr(s, '/');
		if (!slash)
			break;
		if (slash > s)
			folder(p, &w, s, (size_t)(slash - s));
		s = slash + 1;
	}
	p->kind = w.kind;
	if (w.in_process_log && w.debug && p->dev >= 0 && p->kind == HLOG_FK_OTHER)
		p->kind = HLOG_FK_DEVICE;
	file_name(p, &w, s);
}

void hlog__bundle_node(const char *full, const char *rel, char *node, size_t len)
{
	struct hlog_place p;
	hlog__bundle_place(full, &p);
	if (p.worker[0]) {
		snprintf(node, len, "%s", p.worker);
		return;
	}
	const char *slash = strchr(rel, '/');
	if (slash && (size_t)(slash - rel) < len)
		snprintf(node, len, "%.*s", (int)(slash - rel), rel);
	else
		node[0] = '\0';
}
