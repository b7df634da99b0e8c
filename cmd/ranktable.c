/* hcclctl ranktable gen|validate|show|diff|rules */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/plural.h"

#define SMALL_CAP (16UL * 1024 * 1024)

/* ---- shared helpers ---- */

/* Loads and validates one table. Returns 0 when it was read (diags may hold errors),
 * or an exit code (EXIT_UNKNOWN) after printing why it could not be read. */
static int load_table(const char *what, const char *where, struct rt_table *t,
		      struct rt_diags *d)
{
	char err[RT_ERRLEN] = "";
	char *buf = NULL;
	size_t len = 0;
	int rc = fetch_table(what, where, RT_TABLE_MAX, &buf, &len, err, sizeof(err));
	if (rc)
		return fail(EXIT_UNKNOWN, where, fetch_hint(), "%s", err);
	rc = rt_table_load(t, what, buf, len, d, err, sizeof(err));
	free(buf);
	if (rc == -ENOMEM)
		return fail(EXIT_UNKNOWN, where, NULL, "%s: out of memory", what);
	rt_diags_sort(d);
	return 0;
}

static const char *display_name(const char *what)
{
	return strcmp(what, "-") ? what : "<stdin>";
}

/* load_table for show and diff, which compare or list ranks: a file that is not JSON, or JSON
 * that is no rank table, has no ranks to speak of, and calling it "every rank removed" would
 * make unreadable look like different. Such a file is exit 3 with its located findings. */
static int load_readable(const char *what, const char *where, struct rt_table *t,
			 struct rt_diags *d)
{
	int rc = load_table(what, where, t, d);
	if (!rc && t->format == RT_FMT_UNKNOWN) {
		const struct rt_diag *x = NULL;
		for (size_t i = 0; i < d->n && !x; i++)
			x = d->v[i].sev == RT_SEV_ERROR ? &d->v[i] : NULL;
		if (x)
			rc = fail(EXIT_UNKNOWN, where, x->hint,
				  "%s:%u:%u: cannot read it as a rank table: %s",
				  display_name(what), x->line, x->col, x->msg);
		else /* rt_table_load leaves a finding with every unknown format */
			rc = fail(EXIT_UNKNOWN, where, NULL, "%s: cannot read it as a rank table",
				  display_name(what));
	}
	if (rc) {
		rt_diags_release(d);
		rt_table_release(t);
	}
	return rc;
}

static int verdict(const struct rt_diags *d)
{
	if (d->nerrors)
		return EXIT_FAIL;
	return d->nwarnings ? EXIT_WARN : EXIT_OK;
}

static const char *sev_name(enum rt_severity s)
{
	return rt_severity_name(s);
}

static void print_diag(const char *file, const struct rt_diag *x)
{
	const char *c = color(1, x->sev == RT_SEV_ERROR     ? "\033[1;31m"
				 : x->sev == RT_SEV_WARNING ? "\033[1;35m"
							    : "\033[1;36m");
	const char *off = *c ? "\033[0m" : "";
	printf("%s:%u:%u: %s%s%s: %s [%s]\n", out_safe(file), x->line, x->col, c,
	       sev_name(x->sev), off, out_safe(x->msg), x->code);
	if (g_opts.quiet)
		return;
	if (x->path && *x->path)
		printf("  at %s\n", out_safe(x->path));
	if (x->hint)
		printf("  hint: %s\n", out_safe(x->hint));
}

static cJSON *diags_json(const struct rt_diags *d)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < d->n; i++) {
		const struct rt_diag *x = &d->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "severity", sev_name(x->sev));
		cJSON_AddStringToObject(o, "code", x->code);
		cJSON_AddStringToObject(o, "message", x->msg);
		cJSON_AddStringToObject(o, "path", x->path ? x->path : "");
		cJSON_AddNumberToObject(o, "line", x->line);
		cJSON_AddNumberToObject(o, "col", x->col);
		if (x->hint)
			cJSON_AddStringToObject(o, "hint", x->hint);
		else
			cJSON_AddNullToObject(o, "hint");
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* ---- validate ---- */

static int do_validate(int argc, char **argv)
{
	const char *env = getenv("RANK_TABLE_FILE");
	char *deflt[1];
	if (argc == 0) {
		if (!env || !*env)
			return fail(EXIT_USAGE, "ranktable validate",
				    "pass FILE, URL or '-', or set RANK_TABLE_FILE",
				    "no rank table given");
		deflt[0] = (char *)env;
		argv = deflt;
		argc = 1;
	}
	int worst = EXIT_OK;
	size_t total_err = 0, total_warn = 0, total_notes = 0;
	cJSON *doc = g_opts.json ? cJSON_CreateObject() : NULL;
	cJSON *files = doc ? cJSON_AddArrayToObject(doc, "files") : NULL;
	for (int i = 0; i < argc; i++) {
		struct rt_table t = { 0 };
		struct rt_diags d = { 0 };
		const char *name = display_name(argv[i]);
		int rc = load_table(argv[i], "ranktable validate", &t, &d);
		if (rc) {
			if (files) {
				cJSON *f = cJSON_CreateObject();
				cJSON_AddStringToObject(f, "file", name);
				cJSON_AddStringToObject(f, "verdict", "unknown");
				cJSON_AddItemToArray(files, f);
			}
			worst = worst == EXIT_FAIL ? worst : rc;
			rt_diags_release(&d);
			continue;
		}
		int v = verdict(&d);
		if (v > worst || worst == EXIT_UNKNOWN)
			worst = v > worst ? v : worst;
		total_err += d.nerrors;
		total_warn += d.nwarnings;
		total_notes += d.nnotes;
		if (files) {
			char digest[17];
			rt_table_digest(&t, digest);
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "file", name);
			cJSON_AddStringToObject(f, "format", rt_format_name(t.format));
			cJSON_AddNumberToObject(f, "servers", (double)t.nservers);
			cJSON_AddNumberToObject(f, "ranks", (double)t.nranks);
			cJSON_AddStringToObject(f, "digest", digest);
			cJSON_AddNumberToObject(f, "errors", (double)d.nerrors);
			cJSON_AddNumberToObject(f, "warnings", (double)d.nwarnings);
			cJSON_AddNumberToObject(f, "notes", (double)d.nnotes);
			cJSON_AddStringToObject(f, "verdict", v == EXIT_FAIL ? "invalid" :
							      v == EXIT_WARN ? "warnings" : "valid");
			cJSON_AddItemToObject(f, "findings", diags_json(&d));
			cJSON_AddItemToArray(files, f);
		} else {
			for (size_t k = 0; k < d.n; k++)
				print_diag(name, &d.v[k]);
			char notes[32] = "";
			if (d.nnotes)
				snprintf(notes, sizeof(notes), ", %zu note%s", d.nnotes,
					 plural_s(d.nnotes));
			if (!g_opts.quiet || d.n)
				printf("%s: %s: %zu error%s, %zu warning%s%s (format %s, %zu server%s, "
				       "%zu rank%s)\n",
				       out_safe(name), v == EXIT_FAIL ? "invalid" : "valid", d.nerrors,
				       plural_s(d.nerrors), d.nwarnings,
				       plural_s(d.nwarnings), notes, rt_format_name(t.format),
				       t.nservers, plural_s(t.nservers), t.nranks,
				       plural_s(t.nranks));
		}
		rt_diags_release(&d);
		rt_table_release(&t);
	}
	if (doc) {
		cJSON_AddNumberToObject(doc, "errors", (double)total_err);
		cJSON_AddNumberToObject(doc, "warnings", (double)total_warn);
		cJSON_AddNumberToObject(doc, "notes", (double)total_notes);
		int code = g_opts.strict && worst == EXIT_WARN ? EXIT_FAIL : worst;
		cJSON_AddNumberToObject(doc, "exit_code", code);
		out_json(doc);
	}
	return worst;
}

/* ---- show ---- */

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static int do_show(int argc, char **argv)
{
	(void)argc;
	struct rt_table t = { 0 };
	struct rt_diags d = { 0 };
	int rc = load_readable(argv[0], "ranktable show", &t, &d);
	if (rc)
		return rc;
	const char *name = display_name(argv[0]);
	int v = verdict(&d);
	/* Show in rank order, whatever order the file lists them in. */
	size_t *order = malloc((t.nranks + 1) * sizeof(*order));
	if (!order) {
		rc = fail(EXIT_UNKNOWN, "ranktable show", NULL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < t.nranks; i++)
		order[i] = i;
	for (size_t i = 1; i < t.nranks; i++) { /* insertion sort is fine: files are near-sorted */
		size_t k = order[i], j = i;
		while (j > 0 && t.ranks[order[j - 1]].rank_id > t.ranks[k].rank_id) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
	if (g_opts.json) {
		char digest[17];
		rt_table_digest(&t, digest);
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "file", name);
		cJSON_AddStringToObject(doc, "format", rt_format_name(t.format));
		cJSON_AddNumberToObject(doc, "servers", (double)t.nservers);
		cJSON_AddStringToObject(doc, "digest", digest);
		cJSON_AddNumberToObject(doc, "errors", (double)d.nerrors);
		cJSON_AddNumberToObject(doc, "warnings", (double)d.nwarnings);
		cJSON *ranks = cJSON_AddArrayToObject(doc, "ranks");
		for (size_t i = 0; i < t.nranks; i++) {
			const struct rt_rank *r = &t.ranks[order[i]];
			cJSON *o = cJSON_CreateObject();
			cJSON_AddNumberToObject(o, "rank_id", (double)r->rank_id);
			cJSON_AddStringToObject(o, "server_id", or_dash(r->server_id));
			cJSON_AddNumberToObject(o, "device_id", (double)r->device_id);
			if (r->device_ip)
				cJSON_AddStringToObject(o, "device_ip", r->device_ip);
			else
				cJSON_AddNullToObject(o, "device_ip");
			if (r->super_pod_id)
				cJSON_AddStringToObject(o, "super_pod_id", r->super_pod_id);
			else
				cJSON_AddNullToObject(o, "super_pod_id");
			if (r->super_device_id >= 0)
				cJSON_AddNumberToObject(o, "super_device_id", (double)r->super_device_id);
			if (r->host_ip)
				cJSON_AddStringToObject(o, "host_ip", r->host_ip);
			cJSON_AddItemToArray(ranks, o);
		}
		out_json(doc);
	} else {
		int ws = 6, wi = 9;
		for (size_t i = 0; i < t.nranks; i++) {
			int l = (int)strlen(out_safe(or_dash(t.ranks[i].server_id)));
			ws = l > ws ? l : ws;
			l = (int)strlen(out_safe(or_dash(t.ranks[i].device_ip)));
			wi = l > wi ? l : wi;
		}
		printf("%-6s %-*s %-6s %-*s %s\n", "rank", ws, "server", "device", wi, "device_ip",
		       "super_pod");
		for (size_t i = 0; i < t.nranks; i++) {
			const struct rt_rank *r = &t.ranks[order[i]];
			char rid[24], did[24];
			snprintf(rid, sizeof(rid), r->rank_id >= 0 ? "%ld" : "?", r->rank_id);
			snprintf(did, sizeof(did), r->device_id >= 0 ? "%ld" : "?", r->device_id);
			printf("%-6s %-*s %-6s %-*s %s\n", rid, ws, out_safe(or_dash(r->server_id)),
			       did, wi, out_safe(or_dash(r->device_ip)),
			       out_safe(or_dash(r->super_pod_id)));
		}
		if (!g_opts.quiet)
			printf("# %s: format %s, %zu server%s, %zu rank%s\n", out_safe(name),
			       rt_format_name(t.format), t.nservers, plural_s(t.nservers),
			       t.nranks, plural_s(t.nranks));
	}
	if (d.nerrors)
		warn_msg("ranktable show", "%s has %zu error%s; hint: run 'hcclctl ranktable validate %s'",
			 name, d.nerrors, plural_s(d.nerrors), argv[0]);
	rc = v;
out:
	free(order);
	rt_diags_release(&d);
	rt_table_release(&t);
	return rc;
}

/* ---- diff ---- */

static const char *change_kind(enum rt_change_kind k)
{
	switch (k) {
	case RT_CH_ADDED: return "added";
	case RT_CH_REMOVED: return "removed";
	case RT_CH_MOVED: return "moved";
	case RT_CH_IP: return "device_ip";
	case RT_CH_FIELD: return "field";
	}
	return "?";
}

static char change_mark(enum rt_change_kind k)
{
	return k == RT_CH_ADDED ? '+' : k == RT_CH_REMOVED ? '-' : '~';
}

static int do_diff(int argc, char **argv)
{
	(void)argc;
	struct rt_table a = { 0 }, b = { 0 };
	struct rt_diags da = { 0 }, db = { 0 };
	struct rt_changes ch = { 0 };
	char err[RT_ERRLEN] = "";
	int rc = load_readable(argv[0], "ranktable diff", &a, &da);
	if (rc)
		goto out;
	rc = load_readable(argv[1], "ranktable diff", &b, &db);
	if (rc)
		goto out;
	if (rt_diff(&a, &b, &ch, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, "ranktable diff", NULL, "%s", err);
		goto out;
	}
	size_t nkind[5] = { 0 };
	for (size_t i = 0; i < ch.n; i++)
		nkind[ch.v[i].kind]++;
	if (g_opts.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "a", display_name(argv[0]));
		cJSON_AddStringToObject(doc, "b", display_name(argv[1]));
		cJSON_AddBoolToObject(doc, "identical", ch.n == 0);
		cJSON *arr = cJSON_AddArrayToObject(doc, "changes");
		for (size_t i = 0; i < ch.n; i++) {
			const struct rt_change *c = &ch.v[i];
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "kind", change_kind(c->kind));
			cJSON_AddNumberToObject(o, "rank_id", (double)c->rank_id);
			cJSON_AddStringToObject(o, "message", c->what);
			if (c->field)
				cJSON_AddStringToObject(o, "field", c->field);
			if (c->old_val)
				cJSON_AddStringToObject(o, "old", c->old_val);
			if (c->new_val)
				cJSON_AddStringToObject(o, "new", c->new_val);
			cJSON_AddItemToArray(arr, o);
		}
		out_json(doc);
	} else {
		for (size_t i = 0; i < ch.n; i++)
			printf("%c %s\n", change_mark(ch.v[i].kind), out_safe(ch.v[i].what));
		if (!ch.n)
			printf("%s and %s describe the same ranks\n", out_safe(display_name(argv[0])),
			       out_safe(display_name(argv[1])));
		else if (!g_opts.quiet)
			printf("# %zu change%s: %zu added, %zu removed, %zu moved, %zu device_ip, "
			       "%zu other\n",
			       ch.n, plural_s(ch.n), nkind[RT_CH_ADDED], nkind[RT_CH_REMOVED],
			       nkind[RT_CH_MOVED], nkind[RT_CH_IP], nkind[RT_CH_FIELD]);
	}
	if (da.nerrors || db.nerrors)
		warn_msg("ranktable diff", "%s is not a valid rank table; hint: run 'hcclctl ranktable validate %s'",
			 da.nerrors ? argv[0] : argv[1], da.nerrors ? argv[0] : argv[1]);
	rc = ch.n ? EXIT_FAIL : EXIT_OK;
out:
	rt_changes_release(&ch);
	rt_diags_release(&da);
	rt_diags_release(&db);
	rt_table_release(&a);
	rt_table_release(&b);
	return rc;
}

/* ---- rules ---- */

static int do_rules(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (g_opts.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON *arr = cJSON_AddArrayToObject(doc, "rules");
		for (const struct rt_rule *r = rt_rules; r->code; r++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "code", r->code);
			cJSON_AddStringToObject(o, "severity", sev_name(r->sev));
			if (r->hccl)
				cJSON_AddStringToObject(o, "hccl", r->hccl);
			else
				cJSON_AddNullToObject(o, "hccl");
			cJSON_AddStringToObject(o, "summary", r->summary);
			/* where it is an error although its severity says otherwise */
			cJSON_AddBoolToObject(o, "error_on_connect", (r->flags & RT_RULE_CONNECT) != 0);
			cJSON_AddBoolToObject(o, "warning_on_one_server",
					      (r->flags & RT_RULE_ONE_SERVER) != 0);
			cJSON_AddItemToArray(arr, o);
		}
		out_json(doc);
		return EXIT_OK;
	}
	for (const struct rt_rule *r = rt_rules; r->code; r++)
		printf("%-28s %-7s %-6s %s\n", r->code, sev_name(r->sev), r->hccl ? r->hccl : "-",
		       r->summary);
	return EXIT_OK;
}

/* ---- gen ---- */

static const char *gen_servers, *gen_hostfile, *gen_devices = "0-7", *gen_format = "1.0",
			*gen_hccn_conf, *gen_hccn_dir, *gen_output;
static long gen_super_pod;

static const struct opt gen_opts[] = {
	OPT_STR("servers", 0, &gen_servers, "IP[,IP...]",
		"servers in rank order (server_id; an IP as hccl_tools writes)"),
	OPT_PATH("hostfile", 0, &gen_hostfile, "FILE",
		 "servers one per line: SERVER [host_ip=IP] (Open MPI and MPICH lines too)",
		 COMPLETE_FILE),
	OPT_STR("devices", 0, &gen_devices, "LIST",
		"physical device ids, e.g. 0-7 or 0-15 (default 0-7)"),
	OPT_CHOICE("format", 0, &gen_format, "1.0|1.2", "rank-table version (default 1.0)",
		   "1.0 1.2"),
	OPT_NUM("super-pod", 0, &gen_super_pod, "N",
		"1.2: consecutive servers per super pod (default: all in one)", 1, 4096),
	OPT_PATH("hccn-conf", 0, &gen_hccn_conf, "FILE",
		 "hccn.conf with the device IPs of a single server (default /etc/hccn.conf)",
		 COMPLETE_FILE),
	OPT_PATH("hccn-conf-dir", 0, &gen_hccn_dir, "DIR",
		 "one hccn.conf per server: DIR/SERVER, DIR/SERVER.conf or DIR/SERVER/hccn.conf",
		 COMPLETE_DIR),
	OPT_PATH("output", 'o', &gen_output, "FILE", "write here, atomically (default: stdout)",
		 COMPLETE_FILE),
	OPT_TERM,
};

/* Finds the hccn.conf of one server in DIR; NULL when none exists. */
static char *hccn_path_in_dir(const char *dir, const char *server)
{
	static const char *const suffix[] = { "", ".conf", "/hccn.conf" };
	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		char *p = NULL;
		struct stat st;
		if (asprintf(&p, "%s/%s%s", dir, server, suffix[i]) < 0)
			return NULL;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			return p;
		free(p);
	}
	return NULL;
}

static int load_hccn(const char *path, struct rt_hccn *h)
{
	char err[RT_ERRLEN] = "";
	char *buf = NULL;
	size_t len = 0;
	struct rt_diags d = { 0 };
	int rc = rt_read_file(path, SMALL_CAP, &buf, &len, err, sizeof(err));
	if (rc)
		return fail(EXIT_UNKNOWN, "ranktable gen", NULL, "%s", err);
	rc = rt_hccn_parse(h, path, buf, len, &d, err, sizeof(err));
	free(buf);
	print_findings(&d, path);
	rt_diags_release(&d);
	if (rc)
		return fail(EXIT_FAIL, "ranktable gen", "fix the file, or set the IPs with 'hccn_tool -i N -ip -s address IP netmask MASK'",
			    "%s", err);
	return 0;
}

static int split_servers(const char *list, struct rt_hostfile *hf)
{
	/* --servers goes through the hostfile parser (one per line) so both inputs get the
	 * same checks: duplicates, shell metacharacters, length. */
	char *text = strdup(list);
	if (!text)
		return fail(EXIT_UNKNOWN, "ranktable gen", NULL, "out of memory");
	for (char *p = text; *p; p++)
		if (*p == ',')
			*p = '\n';
	char err[RT_ERRLEN] = "";
	struct rt_diags d = { 0 };
	int rc = rt_hostfile_parse_list(hf, "--servers", text, strlen(text), &d, err, sizeof(err));
	free(text);
	for (size_t k = 0; k < d.n; k++)
		fprintf(stderr, "hcclctl: ranktable gen: --servers: %s\n", d.v[k].msg);
	rt_diags_release(&d);
	if (rc)
		return fail(EXIT_USAGE, "ranktable gen", "list servers like --servers 10.0.0.1,10.0.0.2",
			    "invalid --servers '%s'", list);
	return 0;
}

/* A hostfile's slots=N (Open MPI) or HOST:N (MPICH) is the number of processes a host runs;
 * the rank table gives every server the devices of --devices, so a count that differs from
 * theirs is said, not silently dropped. */
static void warn_slots(const struct rt_hostfile *hf, const char *file, size_t ndev)
{
	size_t differ = 0;
	const struct rt_host *first = NULL;
	for (size_t i = 0; i < hf->n; i++)
		if (hf->v[i].slots && hf->v[i].slots != ndev && !differ++)
			first = &hf->v[i];
	if (!first)
		return;
	warn_msg("ranktable gen",
		 "%s:%u: server %s has %u slots, but every server gets the %zu device%s of "
		 "--devices %s (%zu server%s differ); hint: give --devices 0-%u to give each "
		 "server %u",
		 file, first->line, first->server_id, first->slots, ndev, plural_s(ndev), gen_devices,
		 differ, plural_s(differ), first->slots - 1, first->slots);
}

/* gen's options other than the servers: the format into spec, the devices into ids; 0 or the
 * exit code of the complaint printed */
static int gen_options(struct rt_gen_spec *spec, long **ids, size_t *nids)
{
	char err[RT_ERRLEN] = "";
	if (!!gen_servers == !!gen_hostfile)
		return fail(EXIT_USAGE, "ranktable gen", "see 'hcclctl ranktable gen --help'",
			    "give exactly one of --servers and --hostfile");
	if (!strcmp(gen_format, "1.0"))
		spec->format = RT_FMT_V1_0;
	else if (!strcmp(gen_format, "1.2"))
		spec->format = RT_FMT_V1_2;
	else
		return fail(EXIT_USAGE, "ranktable gen", "use 1.0 (A2, 910, 300I Duo) or 1.2 (A3 super pod)",
			    "unsupported --format '%s'", gen_format);
	if (gen_super_pod && spec->format != RT_FMT_V1_2)
		return fail(EXIT_USAGE, "ranktable gen", "add --format 1.2",
			    "--super-pod needs --format 1.2");
	if (gen_hccn_conf && gen_hccn_dir)
		return fail(EXIT_USAGE, "ranktable gen", NULL,
			    "give at most one of --hccn-conf and --hccn-conf-dir");
	if (rt_parse_devices(gen_devices, ids, nids, err, sizeof(err)))
		return fail(EXIT_USAGE, "ranktable gen", "use a list like 0-7 or 0,1,4-7", "--devices: %s", err);
	return 0;
}

/* The servers of --servers or --hostfile into hf; 0 or the exit code of the complaint */
static int gen_hosts(struct rt_hostfile *hf, size_t nids)
{
	if (gen_servers)
		return split_servers(gen_servers, hf);
	char *buf = NULL;
	size_t len = 0;
	char err[RT_ERRLEN] = "";
	struct rt_diags d = { 0 };
	if (rt_read_file(gen_hostfile, SMALL_CAP, &buf, &len, err, sizeof(err)))
		return fail(EXIT_UNKNOWN, "ranktable gen", NULL, "%s", err);
	int rc = rt_hostfile_parse(hf, gen_hostfile, buf, len, &d, err, sizeof(err));
	free(buf);
	print_findings(&d, gen_hostfile);
	rt_diags_release(&d);
	if (rc)
		return fail(EXIT_FAIL, "ranktable gen", NULL, "%s", err);
	warn_slots(hf, gen_hostfile, nids);
	return 0;
}

/* What gen holds per server, freed together. */
struct gen_parts {
	size_t n;
	struct rt_hccn *hccn;
	struct rt_gen_server *srv;
	char **pods, **paths; /* super pod ids, the hccn.conf each server's IPs came from */
};

static void gen_parts_release(struct gen_parts *g)
{
	for (size_t i = 0; g->hccn && i < g->n; i++)
		rt_hccn_release(&g->hccn[i]);
	for (size_t i = 0; g->pods && i < g->n; i++)
		free(g->pods[i]);
	for (size_t i = 0; g->paths && i < g->n; i++)
		free(g->paths[i]);
	free(g->paths);
	free(g->pods);
	free(g->hccn);
	free(g->srv);
}

/* Server i's hccn.conf: the one given, the one in --hccn-conf-dir, or this host's own when
 * there is one server; NULL (reported) when there is none. *found is what to free. */
static const char *gen_hccn_path(const struct rt_hostfile *hf, size_t i, char **found, int *rc)
{
	*found = NULL;
	if (gen_hccn_dir) {
		*found = hccn_path_in_dir(gen_hccn_dir, hf->v[i].server_id);
		if (!*found)
			*rc = fail(EXIT_UNKNOWN, "ranktable gen",
				   "copy each server's /etc/hccn.conf to DIR/SERVER",
				   "no hccn.conf for server '%s' in '%s'", hf->v[i].server_id,
				   gen_hccn_dir);
		return *found;
	}
	if (gen_hccn_conf)
		return gen_hccn_conf;
	if (hf->n > 1) {
		*rc = fail(EXIT_USAGE, "ranktable gen",
			   "collect each server's /etc/hccn.conf into a directory and pass --hccn-conf-dir DIR",
			   "device IPs of %zu servers are needed", hf->n);
		return NULL;
	}
	return "/etc/hccn.conf";
}

/* Each server's device IPs and super pod into g; 0 or the exit code of the complaint */
static int gen_fill(const struct rt_hostfile *hf, int format, struct gen_parts *g)
{
	int rc = 0;
	if (gen_hccn_conf && hf->n > 1)
		return fail(EXIT_USAGE, "ranktable gen",
			    "give one hccn.conf per server with --hccn-conf-dir DIR",
			    "--hccn-conf holds the device IPs of one server, but %zu servers are listed",
			    hf->n);
	g->n = hf->n;
	g->hccn = calloc(hf->n, sizeof(*g->hccn));
	g->srv = calloc(hf->n, sizeof(*g->srv));
	g->pods = calloc(hf->n, sizeof(*g->pods));
	g->paths = calloc(hf->n, sizeof(*g->paths));
	if (!g->hccn || !g->srv || !g->pods || !g->paths)
		return fail(EXIT_UNKNOWN, "ranktable gen", NULL, "out of memory");
	for (size_t i = 0; i < hf->n; i++) {
		char *found;
		const char *path = gen_hccn_path(hf, i, &found, &rc);
		if (!path)
			return rc;
		rc = load_hccn(path, &g->hccn[i]);
		if (rc) {
			free(found);
			return rc;
		}
		/* Keep the path for messages; freed with the other per-server strings. */
		g->paths[i] = found ? found : strdup(path);
		g->srv[i] = (struct rt_gen_server){ .hccn_path = g->paths[i],
						    .server_id = hf->v[i].server_id,
						    .host_ip = hf->v[i].host_ip,
						    .hccn = &g->hccn[i] };
		if (format == RT_FMT_V1_2) {
			size_t per = gen_super_pod ? (size_t)gen_super_pod : hf->n;
			if (asprintf(&g->pods[i], "%zu", i / per) < 0)
				return fail(EXIT_UNKNOWN, "ranktable gen", NULL, "out of memory");
			g->srv[i].super_pod_id = g->pods[i];
		}
	}
	return 0;
}

/* What gen writes must pass validate: checked before anything reaches the disk; 0 or the
 * exit code of the complaint */
static int gen_check(const char *out, size_t outlen)
{
	struct rt_table t = { 0 };
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN] = "";
	int rc = 0;
	rt_table_load(&t, gen_output ? gen_output : "<generated>", out, outlen, &d, err,
		      sizeof(err));
	size_t nerr = d.nerrors;
	if (nerr) {
		print_findings(&d, "<generated>");
		rc = fail(EXIT_UNKNOWN, "ranktable gen", "this is a bug in hcclctl; please report it",
			  "generated table fails validation (%zu errors); nothing written", nerr);
	}
	rt_diags_release(&d);
	rt_table_release(&t);
	return rc;
}

/* The table to --output (atomically), or to stdout; or its summary as JSON */
static int gen_emit(const char *out, size_t outlen, size_t nservers, size_t nids)
{
	char err[RT_ERRLEN] = "";
	if (gen_output && rt_write_atomic(gen_output, out, outlen, err, sizeof(err)))
		return fail(EXIT_UNKNOWN, "ranktable gen", NULL, "%s", err);
	if (g_opts.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "format", gen_format);
		cJSON_AddNumberToObject(doc, "servers", (double)nservers);
		cJSON_AddNumberToObject(doc, "ranks", (double)(nservers * nids));
		if (gen_output)
			cJSON_AddStringToObject(doc, "output", gen_output);
		else
			cJSON_AddItemToObject(doc, "ranktable", cJSON_ParseWithLength(out, outlen));
		out_json(doc);
	} else if (!gen_output) {
		fwrite(out, 1, outlen, stdout);
	} else {
		info_msg("wrote %s: format %s, %zu server%s, %zu rank%s\n", gen_output, gen_format,
			 nservers, plural_s(nservers), nservers * nids, plural_s(nservers * nids));
	}
	return EXIT_OK;
}

static int do_gen(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct rt_hostfile hf = { 0 };
	struct gen_parts g = { 0 };
	long *ids = NULL;
	size_t nids = 0, outlen = 0;
	char *out = NULL;
	char err[RT_ERRLEN] = "";
	struct rt_gen_spec spec = { 0 };

	int rc = gen_options(&spec, &ids, &nids);
	if (!rc)
		rc = gen_hosts(&hf, nids);
	if (!rc)
		rc = gen_fill(&hf, spec.format, &g);
	if (!rc) {
		spec.servers = g.srv;
		spec.nservers = hf.n;
		spec.devices = ids;
		spec.ndevices = nids;
		if (rt_gen(&spec, &out, &outlen, err, sizeof(err)))
			rc = fail(EXIT_FAIL, "ranktable gen", NULL, "%s", err);
	}
	if (!rc)
		rc = gen_check(out, outlen);
	if (!rc)
		rc = gen_emit(out, outlen, hf.n, nids);
	gen_parts_release(&g);
	free(ids);
	free(out);
	rt_hostfile_release(&hf);
	return rc;
}

/* validate, show and diff read FILE, URL or -: the URL options, and --wait for a table
 * that is still "initializing" (MindCluster's ConfigMap). */
static const struct opt read_opts[] = {
	OPT_FETCH,
	OPT_TERM,
};

const struct cmd ranktable_commands[] = {
	{ .name = "gen",
	  .summary = "write a rank_table.json for a new cluster (HCCL 1.0 or 1.2)",
	  .run = do_gen,
	  .opts = gen_opts,
	  .max_args = 0 },
	{ .name = "validate",
	  .summary = "report every problem in rank tables, with file, line and rank",
	  .run = do_validate,
	  .opts = read_opts,
	  .args = "[FILE|URL|-]...",
	  .max_args = -1,
	  .args_complete = COMPLETE_FILE },
	{ .name = "show",
	  .summary = "print a rank table as a table: rank, server, device, device IP, super pod",
	  .run = do_show,
	  .opts = read_opts,
	  .args = "FILE|URL|-",
	  .min_args = 1,
	  .max_args = 1,
	  .args_complete = COMPLETE_FILE },
	{ .name = "diff",
	  .summary = "compare two rank tables rank by rank (exit 2 when they differ)",
	  .run = do_diff,
	  .opts = read_opts,
	  .args = "A B",
	  .min_args = 2,
	  .max_args = 2,
	  .args_complete = COMPLETE_FILE },
	{ .name = "rules",
	  .summary = "list the validation rules with their codes",
	  .run = do_rules,
	  .max_args = 0 },
	{ 0 },
};
