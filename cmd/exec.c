/* hcclctl exec: one command on many hosts over SSH, a report per host. With --deploy, each
 * host first gets this hcclctl (deploy.c), and the command finds it as `hcclctl` on its PATH
 * and in $HCCLCTL. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/situation.h"
#include "cmd/lib/deploy.h"
#include "cmd/lib/fanout.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

#define HOSTFILE_CAP (16UL * 1024 * 1024)
#define DEFAULT_CMD_TIMEOUT 60
#define DEFAULT_CONNECT_TIMEOUT 10
#define MAX_NAMED 8 /* hosts named in the closing summary before "and N more" */

static const char *ex_hosts, *ex_hostfile, *ex_user, *ex_key, *ex_known_hosts, *ex_remote;
static long ex_port, ex_parallel, ex_timeout, ex_connect_timeout;
static int ex_insecure, ex_deploy;

const struct opt exec_opts[] = {
	OPT_STR("hosts", 0, &ex_hosts, "HOST[,HOST...]", "the hosts to run on"),
	OPT_PATH("hostfile", 0, &ex_hostfile, "FILE",
		 "the hosts, one per line (SERVER [host_ip=IP])", COMPLETE_FILE),
	OPT_STR("ssh-user", 0, &ex_user, "USER", "log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &ex_port, "PORT", "SSH port (default 22)", 1, 65535),
	OPT_PATH("ssh-key", 0, &ex_key, "FILE",
		 "private key (default: ssh-agent, ~/.ssh/id_ed25519, ~/.ssh/id_rsa)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &ex_known_hosts, "FILE",
		 "known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &ex_insecure, "do not check host keys (warns)"),
	OPT_NUM("parallel", 0, &ex_parallel, "N", "hosts at once (default 32)", 1, 4096),
	OPT_BOOL("deploy", 0, &ex_deploy,
		 "first make this hcclctl the command's `hcclctl` (copied where missing)"),
	OPT_PATH("remote-hcclctl", 0, &ex_remote, "PATH",
		 "with --deploy: the hcclctl on the hosts, used as given", COMPLETE_FILE),
	OPT_NUM("timeout", 0, &ex_timeout, "SEC",
		"command deadline per host (default 60, or $HCCLCTL_EXEC_TIMEOUT)", 1, 7 * 86400),
	OPT_NUM("connect-timeout", 0, &ex_connect_timeout, "SEC",
		"connect and login deadline per host (default 10, or $HCCLCTL_CONNECT_TIMEOUT)", 1,
		3600),
	OPT_TERM,
};

/* An option's value, else the environment's, else the default; -1 for a bad environment. */
static long seconds_from(long opt, const char *env, long deflt)
{
	const char *v = getenv(env);
	char *end;
	if (opt)
		return opt;
	if (!v || !*v)
		return deflt;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || n < 1 || n > 7 * 86400)
		return -1;
	return n;
}

/* Both --hosts and --hostfile go through the hostfile parser, so a name with shell or ssh
 * metacharacters or a duplicate is refused the same way from either. */
static int load_hosts(struct rt_hostfile *hf)
{
	char err[RT_ERRLEN] = "";
	struct rt_diags d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	const char *name;
	int rc;

	if (!!ex_hosts == !!ex_hostfile)
		return fail(EXIT_USAGE, "exec", "see 'hcclctl exec --help'",
			    "give exactly one of --hosts and --hostfile");
	if (ex_hosts) {
		rc = rt_hostlist_expand(ex_hosts, strlen(ex_hosts), &buf, &len, err, sizeof(err));
		if (rc)
			return fail(rc == -ENOMEM ? EXIT_UNKNOWN : EXIT_USAGE, "exec",
				    "e.g. --hosts gpu1,gpu2 or --hosts 'gpu[01-16]'", "--hosts: %s", err);
		name = "--hosts";
	} else {
		rc = rt_read_file(ex_hostfile, HOSTFILE_CAP, &buf, &len, err, sizeof(err));
		if (rc)
			return fail(EXIT_UNKNOWN, "exec", NULL, "%s", err);
		name = ex_hostfile;
	}
	rc = ex_hosts ? rt_hostfile_parse_list(hf, name, buf, len, &d, err, sizeof(err))
		      : rt_hostfile_parse(hf, name, buf, len, &d, err, sizeof(err));
	free(buf);
	print_findings(&d, name);
	rt_diags_release(&d);
	if (rc == -ENOMEM)
		return fail(EXIT_UNKNOWN, "exec", NULL, "out of memory");
	if (rc)
		return fail(ex_hosts ? EXIT_USAGE : EXIT_FAIL, "exec",
			    ex_hosts ? "list hosts like --hosts node1,node2" : NULL, "%s", err);
	return 0;
}

static int readable(const char *what, const char *path)
{
	if (path && access(path, R_OK))
		return fail(EXIT_UNKNOWN, "exec", NULL, "cannot read %s '%s': %s", what, path,
			    strerror(errno));
	return 0;
}

static const char *host_name(const struct fo_host *h)
{
	return h->name ? h->name : h->host;
}

static void print_stream(const struct ssh_buf *b, const char *title)
{
	if (!b->len)
		return;
	if (title)
		printf("-- %s:\n", title);
	if (b->dropped)
		printf("[... %zu earlier bytes dropped]\n", b->dropped);
	out_write_safe(stdout, b->p, b->len);
	if (b->p[b->len - 1] != '\n')
		putchar('\n');
}

static void print_block(const struct fo_host *h)
{
	const char *c = "";
	switch (h->status) {
	case FO_OK: c = color(1, "\033[32m"); break;
	case FO_FAILED: c = color(1, "\033[31m"); break;
	default: c = color(1, "\033[33m"); break;
	}
	const char *off = *c ? "\033[0m" : "";
	printf("== %s: %s%s%s (", out_safe(host_name(h)), c, fo_status_name(h->status), off);
	if (h->signal[0])
		printf("signal %s, ", h->signal);
	else if (h->status == FO_OK || h->status == FO_FAILED)
		printf("exit %d, ", h->exit_status);
	else if (h->status == FO_TIMEOUT)
		printf("%s, ", h->connected ? "command" : "connect");
	printf("%.2f s)\n", h->seconds);
	print_stream(&h->out, NULL);
	print_stream(&h->err, "stderr");
}

static cJSON *host_json(const struct fo_host *h)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "host", host_name(h));
	cJSON_AddStringToObject(o, "address", h->host);
	cJSON_AddStringToObject(o, "status", fo_status_name(h->status));
	if (h->status == FO_TIMEOUT)
		cJSON_AddStringToObject(o, "timeout", h->connected ? "command" : "connect");
	fo_json_end(o, h);
	cJSON_AddNumberToObject(o, "seconds", (double)(long long)(h->seconds * 1000) / 1000);
	cJSON_AddStringToObject(o, "stdout", h->out.p ? h->out.p : "");
	cJSON_AddStringToObject(o, "stderr", h->err.p ? h->err.p : "");
	cJSON_AddNumberToObject(o, "stdout_dropped_bytes", (double)h->out.dropped);
	cJSON_AddNumberToObject(o, "stderr_dropped_bytes", (double)h->err.dropped);
	if (h->error[0] && h->status != FO_OK && h->status != FO_FAILED)
		cJSON_AddStringToObject(o, "error", h->error);
	else
		cJSON_AddNullToObject(o, "error");
	return o;
}

/* "a, b, c and 2 more" of the hosts in one of two states, into buf. */
static void name_hosts(const struct fo_host *hosts, size_t n, enum fo_status s1,
		       enum fo_status s2, char *buf, size_t len)
{
	size_t shown = 0, more = 0, off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (hosts[i].status != s1 && hosts[i].status != s2)
			continue;
		if (shown == MAX_NAMED) {
			more++;
			continue;
		}
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", shown ? ", " : "",
						host_name(&hosts[i]));
		shown++;
	}
	if (more && off < len)
		snprintf(buf + off, len - off, " and %zu more", more);
}

/* What --deploy adds to each host's command ("HCCLCTL=PATH; export ...; the command", the
 * path put in by deploy.c), held for the fan-out's prepare step and freed together. */
struct exec_deploy {
	char **cmds, **rest, **befores;
	size_t n;
};

static void exec_deploy_release(struct exec_deploy *x)
{
	for (size_t i = 0; x->cmds && i < x->n; i++)
		free(x->cmds[i]);
	free(x->cmds);
	if (x->rest)
		free(x->rest[0]);
	free(x->rest);
	free(x->befores);
}

/* 0, or the exit code of the complaint printed */
static int exec_deploy_setup(struct exec_deploy *x, size_t n, const char *cmdline,
			     struct deploy *dep, struct deploy_fan *df)
{
	static char before0[] = "HCCLCTL=";
	const char *tail = "; export HCCLCTL; PATH=${HCCLCTL%/*}:$PATH; export PATH; ";
	char err[SSH_ERRLEN] = "";
	x->n = n;
	x->cmds = calloc(n, sizeof(*x->cmds));
	x->rest = calloc(n, sizeof(*x->rest));
	x->befores = calloc(n, sizeof(*x->befores));
	size_t l = strlen(tail) + strlen(cmdline) + 1;
	if (!x->cmds || !x->rest || !x->befores || !(x->rest[0] = malloc(l)))
		return fail(EXIT_UNKNOWN, "exec", NULL, "out of memory");
	snprintf(x->rest[0], l, "%s%s", tail, cmdline);
	for (size_t i = 0; i < n; i++) {
		x->befores[i] = before0;
		x->rest[i] = x->rest[0];
	}
	if (deploy_init(dep, ex_remote, err, sizeof(err)))
		return fail(EXIT_UNKNOWN, "exec", NULL, "%s", err);
	df->before = x->befores;
	df->rest = x->rest;
	df->cmds = x->cmds;
	df->shell_stays = 1;
	return 0;
}

/* The summary line, or the JSON document with each host's result */
static void exec_summary(cJSON *doc, const size_t *count, size_t n, double total, int rc)
{
	if (doc) {
		cJSON *s = cJSON_AddObjectToObject(doc, "summary");
		cJSON_AddNumberToObject(s, "hosts", (double)n);
		for (int st = FO_OK; st <= FO_TIMEOUT; st++)
			cJSON_AddNumberToObject(s, fo_status_name(st), (double)count[st]);
		if (ex_deploy)
			cJSON_AddNumberToObject(s, fo_status_name(FO_NOSTART),
						(double)count[FO_NOSTART]);
		cJSON_AddNumberToObject(s, "seconds", (double)(long long)(total * 1000) / 1000);
		cJSON_AddNumberToObject(doc, "exit_code", rc);
		out_json(doc);
	} else if (!g_opts.quiet) {
		printf("%zu host%s: %zu ok, %zu failed, %zu unreachable, %zu timed out", n,
		       plural_s(n), count[FO_OK], count[FO_FAILED], count[FO_UNREACHABLE],
		       count[FO_TIMEOUT]);
		if (ex_deploy)
			printf(", %zu cannot start hcclctl", count[FO_NOSTART]);
		printf(" (%.2f s)\n", total);
	}
}

/* Each host's output and status, the summary, and the hosts that failed named; the exit
 * code */
static int exec_report(const struct fo_host *hosts, size_t n, const char *cmdline,
		       double total)
{
	size_t count[FO_NOSTART + 1] = { 0 };
	char names[1024];
	cJSON *doc = g_opts.json ? cJSON_CreateObject() : NULL;
	cJSON *arr = doc ? cJSON_AddArrayToObject(doc, "hosts") : NULL;
	if (doc)
		cJSON_AddStringToObject(doc, "command", cmdline);
	for (size_t i = 0; i < n; i++) {
		const struct fo_host *h = &hosts[i];
		count[h->status]++;
		if (arr)
			cJSON_AddItemToArray(arr, host_json(h));
		else if (!g_opts.quiet || h->status != FO_OK)
			print_block(h);
		if (h->status != FO_OK && h->status != FO_FAILED)
			fail(EXIT_UNKNOWN, "exec", NULL, "%s", h->error);
	}
	/* A command that failed is a finding (2) and outranks a host that could not run it
	 * (3), as in `ranktable validate`; a host never reached is the situation
	 * "unreachable", whose code doctor and run give it too (situation.c). */
	size_t nrun = count[FO_UNREACHABLE] + count[FO_TIMEOUT] + count[FO_NOSTART], nfar = 0;
	for (size_t i = 0; i < n; i++)
		nfar += (hosts[i].status == FO_UNREACHABLE || hosts[i].status == FO_TIMEOUT) &&
			!hosts[i].connected;
	int far = nfar ? situation_exit("unreachable") : EXIT_OK;
	int rc = count[FO_FAILED] || far == EXIT_FAIL ? EXIT_FAIL
		 : nrun				       ? EXIT_UNKNOWN
						       : EXIT_OK;
	exec_summary(doc, count, n, total, rc);
	if (count[FO_FAILED]) {
		name_hosts(hosts, n, FO_FAILED, FO_FAILED, names, sizeof(names));
		fail(EXIT_FAIL, "exec", NULL, "the command failed on %zu of %zu hosts: %s",
		     count[FO_FAILED], n, names);
	}
	if (nrun) {
		name_hosts(hosts, n, FO_UNREACHABLE, FO_TIMEOUT, names, sizeof(names));
		if (count[FO_NOSTART]) {
			size_t l = strlen(names);
			name_hosts(hosts, n, FO_NOSTART, FO_NOSTART, names + l + (l ? 2 : 0),
				   sizeof(names) - l - 2);
			if (l)
				memcpy(names + l, ", ", 2);
		}
		fail(rc, "exec", NULL, "%zu of %zu hosts could not run the command: %s", nrun, n,
		     names);
	}
	return rc;
}

int cmd_exec(int argc, char **argv)
{
	struct rt_hostfile hf = { 0 };
	struct fo_host *hosts = NULL;
	struct deploy dep = { 0 };
	struct exec_deploy xd = { 0 };
	char *cmdline = NULL, err[SSH_ERRLEN] = "";
	long tmo = seconds_from(ex_timeout, "HCCLCTL_EXEC_TIMEOUT", DEFAULT_CMD_TIMEOUT);
	long ctmo = seconds_from(ex_connect_timeout, "HCCLCTL_CONNECT_TIMEOUT",
				 DEFAULT_CONNECT_TIMEOUT);
	int rc;

	if (tmo < 0 || ctmo < 0)
		return fail(EXIT_USAGE, "exec", "a whole number of seconds, at least 1",
			    "invalid %s", tmo < 0 ? "HCCLCTL_EXEC_TIMEOUT" : "HCCLCTL_CONNECT_TIMEOUT");
	if (ex_remote && !ex_deploy)
		return fail(EXIT_USAGE, "exec", "add --deploy", "--remote-hcclctl goes with --deploy");
	rc = load_hosts(&hf);
	if (rc)
		return rc;
	if ((rc = readable("--ssh-key", ex_key)) ||
	    (rc = readable("--ssh-known-hosts", ex_known_hosts)))
		goto out;
	if (ex_insecure)
		warn_msg("exec", "--ssh-insecure: host keys are not checked; anyone on the path "
				 "can pose as these hosts and see what is sent");

	cmdline = sh_join(argc, (const char *const *)argv);
	hosts = calloc(hf.n, sizeof(*hosts));
	if (!cmdline || !hosts) {
		rc = fail(EXIT_UNKNOWN, "exec", NULL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < hf.n; i++) {
		hosts[i].name = hf.v[i].server_id;
		hosts[i].host = hf.v[i].host_ip ? hf.v[i].host_ip : hf.v[i].server_id;
	}
	struct deploy_fan df = { .d = &dep, .hosts = hosts, .where = "exec", .verbose = g_opts.verbose };
	if (ex_deploy && (rc = exec_deploy_setup(&xd, hf.n, cmdline, &dep, &df)))
		goto out;
	struct fanout f = {
		.ssh = { .user = ex_user, .port = (int)ex_port, .key = ex_key,
			 .known_hosts = ex_known_hosts, .insecure = ex_insecure },
		.cmd = cmdline,
		.parallel = (int)ex_parallel,
		.connect_timeout_ms = ctmo * 1000,
		.cmd_timeout_ms = tmo * 1000,
		.progress = !g_opts.quiet && !g_opts.json,
		.prepare = ex_deploy ? deploy_prepare : NULL,
		.prepare_arg = &df,
	};
	long long t0 = mono_ms();
	rc = fanout_run(&f, hosts, hf.n, err, sizeof(err));
	if (rc) {
		rc = fail(EXIT_UNKNOWN, "exec", NULL, "%s", err);
		goto out;
	}
	rc = exec_report(hosts, hf.n, cmdline, (double)(mono_ms() - t0) / 1000.0);
out:
	exec_deploy_release(&xd);
	deploy_release(&dep);
	for (size_t i = 0; hosts && i < hf.n; i++)
		fo_host_release(&hosts[i]);
	free(hosts);
	free(cmdline);
	rt_hostfile_release(&hf);
	return rc;
}
