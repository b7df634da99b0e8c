/* Making sure a node runs this hcclctl, on the session that will run it.
 *
 * One shell command asks the node what it has: its own hcclctl on PATH when its --version
 * says our build id (cli_build_id: the same program, not only the same release: two builds
 * of one version say the same version), else a copy in
 * ${XDG_CACHE_HOME:-~/.cache}/hcclctl/<version>-<sha>/ whose sha256 is ours. Only when neither is there does this binary go over SFTP, and a
 * second command checks its sha256 there and that it starts (`--version`). The folder's
 * name carries the sha256, so two builds of one version never share a copy, and a copy is
 * made once per node and login user, however many ranks and runs use it, and every line
 * that runs it checks it again (deploy_cmdline_checked). What cannot start is named with the
 * loader's reason and the package to install (libpkg.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/deploy.h"
#include "cmd/lib/fanout.h"
#include "cmd/lib/nodeout.h"
#include "ranktable/base/clock.h"

#define SELF_CAP (256UL * 1024 * 1024)
#define OUT_CAP (64 * 1024)
#define DEPLOY_TIMEOUT_MS 120000 /* the look, the copy (a few MB) and its check, per host */

static int read_self(struct deploy *d, char *err, size_t errlen)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || st.st_size <= 0 || (unsigned long)st.st_size > SELF_CAP) {
		snprintf(err, errlen, "cannot read this hcclctl (/proc/self/exe) to copy it: %s",
			 fd < 0 ? strerror(errno) : "not a regular file of a sane size");
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	d->len = (size_t)st.st_size;
	d->bin = malloc(d->len);
	if (!d->bin) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t off = 0; off < d->len;) {
		ssize_t n = read(fd, d->bin + off, d->len - off);
		if (n <= 0) {
			snprintf(err, errlen, "reading /proc/self/exe: %s",
				 n ? strerror(errno) : "it got shorter");
			close(fd);
			return -EIO;
		}
		off += (size_t)n;
	}
	close(fd);
	return 0;
}

int deploy_init(struct deploy *d, const char *remote, char *err, size_t errlen)
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	memset(d, 0, sizeof(*d));
	d->remote = remote;
	snprintf(d->version, sizeof(d->version), "hcclctl %s", HCCLCTL_VERSION);
	snprintf(d->build_id, sizeof(d->build_id), "%s", cli_build_id());
	if (remote)
		return 0;
	int rc = read_self(d, err, errlen);
	if (rc)
		return rc;
	if (!EVP_Digest(d->bin, d->len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
		snprintf(err, errlen, "cannot compute the sha256 of this hcclctl");
		return -EIO;
	}
	for (int i = 0; i < 32; i++)
		snprintf(d->sha256 + 2 * i, 3, "%02x", md[i]);
	snprintf(d->dir, sizeof(d->dir), "%s-%.16s", HCCLCTL_VERSION, d->sha256);
	return 0;
}

void deploy_release(struct deploy *d)
{
	free(d->bin);
	d->bin = NULL;
	d->len = 0;
}

const char *deploy_how_name(enum deploy_how how)
{
	switch (how) {
	case DEPLOY_GIVEN: return "given";
	case DEPLOY_INSTALLED: return "its own";
	case DEPLOY_CACHED: return "cached";
	case DEPLOY_COPIED: return "copied";
	}
	return "?";
}

char *deploy_cmdline(const char *before, const char *path, const char *after)
{
	size_t ql = sh_quote(NULL, 0, path) + 1;
	size_t len = strlen(before) + ql + 1 + strlen(after) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	size_t off = (size_t)snprintf(s, len, "%s", before);
	sh_quote(s + off, ql, path);
	snprintf(s + off + ql - 1, len - off - ql + 1, " %s", after);
	return s;
}

/* A copy found in the cache (or put there) was checked by one SSH command and is run by a
 * later one: whoever can replace the file in between would run a binary of their own with
 * the job's secret. So the line that runs it checks it again, in the same shell: it copies
 * the file into a new private directory (mktemp -d: mode 0700, a random name), checks the
 * sha256 of that copy, and runs that copy, which nobody else can change. Where the line ends
 * by running hcclctl itself, the copy is opened on descriptor 9, its directory removed, and
 * /proc/self/fd/9 exec'd: nothing is left behind whatever becomes of the job. Where a
 * command calls hcclctl by name (exec --deploy) the directory must outlive the check: it is
 * removed when the shell exits. */
char *deploy_cmdline_checked(const char *sha256, const char *path, const char *before,
			     const char *after, int stays)
{
	static const char check[] =
		"sum=%s; f=%s\n"
		"t=$(mktemp -d \"${f%%/*}/.run.XXXXXX\") || exit 126\n"
		"cp \"$f\" \"$t/hcclctl\" || { rm -rf \"$t\"; exit 126; }\n"
		"[ \"$(sha256sum <\"$t/hcclctl\" 2>&1)\" = \"$sum  -\" ] || { rm -rf \"$t\"; "
		"printf 'hcclctl: %%s is not the hcclctl that was checked (its sha256 changed); "
		"nothing was run\\n' \"$f\" >&2; exit 126; }\n";
	static const char run_fd[] = "exec 9<\"$t/hcclctl\" && rm -rf \"$t\" || exit 126\n"
				     "%s/proc/self/fd/9 %s";
	static const char run_dir[] = "trap 'rm -rf \"$t\"' EXIT; trap 'exit 129' HUP; "
				      "trap 'exit 130' INT; trap 'exit 143' TERM\n"
				      "%s\"$t/hcclctl\" %s\nexit $?";
	size_t ql = sh_quote(NULL, 0, path) + 1, sl = sh_quote(NULL, 0, sha256) + 1;
	size_t len = sizeof(check) + ql + sl + sizeof(run_dir) + strlen(before) + strlen(after);
	char *s = malloc(len), *qp = malloc(ql), *qs = malloc(sl);
	if (!s || !qp || !qs) {
		free(s);
		s = NULL;
		goto out;
	}
	sh_quote(qp, ql, path);
	sh_quote(qs, sl, sha256);
	size_t off = (size_t)snprintf(s, len, check, qs, qp);
	snprintf(s + off, len - off, stays ? run_dir : run_fd, before, after);
out:
	free(qp);
	free(qs);
	return s;
}

/* Runs cmd on c; its stdout in *out (owned by the caller). 0 when it ran to its end with
 * exit 0, else a negative code with err. */
static int ask(struct ssh_conn *c, const char *cmd, long long deadline, char **out, char *err,
	       size_t errlen)
{
	struct ssh_exec x = { .cmd = cmd, .deadline = deadline, .cap = OUT_CAP,
			      .kill_on_timeout = 1 };
	*out = NULL;
	int rc = ssh_conn_exec(c, &x, err, errlen);
	if (!rc && (x.exit_status != 0 || x.signal[0])) {
		const char *e = x.err.p ? x.err.p : "";
		size_t l = strcspn(e, "\n");
		snprintf(err, errlen, "%s: looking for hcclctl there: the shell exited %d%s%.*s",
			 c->host, x.exit_status, l ? ": " : "", (int)(l > 200 ? 200 : l), e);
		rc = -EPROTO;
	}
	if (!rc) {
		*out = x.out.p ? x.out.p : strdup("");
		x.out.p = NULL;
		if (!*out)
			rc = -ENOMEM;
	}
	ssh_exec_release(&x);
	return rc;
}

/* The value after "word " on a line of out that starts with it, into buf; 1 when found. */
static int line_value(const char *out, const char *word, char *buf, size_t len)
{
	size_t wl = strlen(word);
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, word, wl) && p[wl] == ' ') {
			size_t l = strcspn(p + wl + 1, "\n");
			snprintf(buf, len, "%.*s", (int)l, p + wl + 1);
			return 1;
		}
	}
	return 0;
}

/* The shell function that reads the build id out of --version's text (its "build-id ID"
 * line; nothing from a build older than the line). */
#define BUILD_ID_SH "bid() { printf '%%s\\n' \"$1\" | sed -n 's/^build-id //p'; }\n"

/* The copy at path printed out (after a "broken" line) instead of our version. */
static int cannot_start(struct ssh_conn *c, const char *path, const char *out, char *err,
			size_t errlen)
{
	const char *said = strstr(out, "broken\n");
	char lib[128], why[256];
	said = said ? said + 7 : "";
	if (deploy_loader_error(said, lib, sizeof(lib), why, sizeof(why))) {
		const char *pkg = deploy_lib_packages(lib);
		snprintf(err, errlen,
			 "%s: hcclctl cannot start there: the loader cannot load %s (%s); install "
			 "%s%s on the node",
			 c->host, lib, why, pkg ? pkg : "the package that provides ",
			 pkg ? "" : lib);
		return -ELIBACC;
	}
	size_t l = strcspn(said, "\n");
	snprintf(err, errlen, "%s: the copy of hcclctl at %s cannot start there: %.*s", c->host,
		 path, (int)(l > 300 ? 300 : l), l ? said : "it printed nothing");
	return -ENOEXEC;
}

int deploy_resolve(const struct deploy *d, struct ssh_conn *c, long long deadline,
		   struct deploy_result *r, char *err, size_t errlen)
{
	char qi[160], qs[80], qd[200], cmd[3072], *out = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if (d->remote) {
		r->how = DEPLOY_GIVEN;
		snprintf(r->path, sizeof(r->path), "%s", d->remote);
		return 0;
	}
	sh_quote(qi, sizeof(qi), d->build_id);
	sh_quote(qs, sizeof(qs), d->sha256);
	sh_quote(qd, sizeof(qd), d->dir);
	/* the node's own hcclctl is ours when its build id is (one we cannot name is never
	 * taken for ours); the cached copy is run with --version too: a node that lost a
	 * library since it was copied is told so now, not by every rank */
	snprintf(cmd, sizeof(cmd),
		 BUILD_ID_SH
		 "id=%s; sum=%s; d=${XDG_CACHE_HOME:-$HOME/.cache}/hcclctl/%s; f=$d/hcclctl; v=\n"
		 "p=$(command -v hcclctl 2>/dev/null) && v=$(\"$p\" --version 2>/dev/null </dev/null)\n"
		 "b=$(bid \"$v\")\n"
		 "[ -n \"$p\" ] && [ \"$id\" != unknown ] && [ \"$b\" = \"$id\" ] && "
		 "{ printf 'installed %%s\\n' \"$p\"; exit 0; }\n"
		 "printf 'node %%s\\nnodever %%s%%s\\n' \"${p:-none}\" \"$(printf '%%s\\n' \"$v\" | head -n 1)\" "
		 "\"${b:+, build-id $b}\"\n"
		 "if [ -f \"$f\" ] && t=$(mktemp -d \"$d/.run.XXXXXX\" 2>/dev/null); then\n"
		 " if cp \"$f\" \"$t/hcclctl\" 2>/dev/null && [ \"$(sha256sum <\"$t/hcclctl\" 2>/dev/null)\" = \"$sum  -\" ]; then\n"
		 "  o=$(\"$t/hcclctl\" --version 2>&1 </dev/null); rm -rf \"$t\"\n"
		 "  [ \"$(bid \"$o\")\" = \"$id\" ] && { printf 'cached %%s\\n' \"$f\"; exit 0; }\n"
		 "  printf 'at %%s\\nbroken\\n%%s\\n' \"$f\" \"$o\"; exit 0\n"
		 " fi\n"
		 " rm -rf \"$t\"\n"
		 "fi\n"
		 "m=$(mkdir -p \"$d\" 2>&1) || { printf 'nodir %%s %%s\\n' \"$d\" \"$m\"; exit 0; }\n"
		 "printf 'copy %%s\\n' \"$f\"\n",
		 qi, qs, qd);
	rc = ask(c, cmd, deadline, &out, err, errlen);
	if (rc)
		return rc;
	char val[600];
	line_value(out, "node", r->node_path, sizeof(r->node_path));
	line_value(out, "nodever", r->node_version, sizeof(r->node_version));
	if (line_value(out, "installed", r->path, sizeof(r->path))) {
		r->how = DEPLOY_INSTALLED;
		goto out;
	}
	if (line_value(out, "cached", r->path, sizeof(r->path))) {
		r->how = DEPLOY_CACHED;
		goto out;
	}
	if (line_value(out, "at", r->path, sizeof(r->path))) {
		rc = cannot_start(c, r->path, out, err, errlen);
		goto out;
	}
	if (line_value(out, "nodir", val, sizeof(val))) {
		snprintf(err, errlen, "%s: cannot make the cache folder for hcclctl: %s", c->host, val);
		rc = -EACCES;
		goto out;
	}
	if (!line_value(out, "copy", r->path, sizeof(r->path))) {
		snprintf(err, errlen, "%s: looking for hcclctl there: an answer without a verdict",
			 c->host);
		rc = -EPROTO;
		goto out;
	}
	rc = ssh_sftp_put(c, r->path, d->bin, d->len, 0755, deadline, err, errlen);
	if (rc)
		goto out;
	char qf[1100];
	sh_quote(qf, sizeof(qf), r->path);
	snprintf(cmd, sizeof(cmd),
		 BUILD_ID_SH "id=%s; sum=%s; f=%s\n"
		 "t=$(mktemp -d \"${f%%/*}/.run.XXXXXX\" 2>&1) || { printf 'nosum %%s\\n' \"$t\"; exit 0; }\n"
		 "c=$(cp \"$f\" \"$t/hcclctl\" 2>&1) || { rm -rf \"$t\"; printf 'nosum %%s\\n' \"$c\"; exit 0; }\n"
		 "s=$(sha256sum <\"$t/hcclctl\" 2>&1) || { rm -rf \"$t\"; printf 'nosum %%s\\n' \"$s\"; exit 0; }\n"
		 "[ \"$s\" = \"$sum  -\" ] || { rm -rf \"$t\"; printf 'badsum %%s\\n' \"${s%%%% *}\"; exit 0; }\n"
		 "o=$(\"$t/hcclctl\" --version 2>&1 </dev/null); rm -rf \"$t\"\n"
		 "[ \"$(bid \"$o\")\" = \"$id\" ] && { echo ok; exit 0; }\n"
		 "printf 'broken\\n%%s\\n' \"$o\"\n",
		 qi, qs, qf);
	free(out);
	rc = ask(c, cmd, deadline, &out, err, errlen);
	if (rc)
		goto out;
	if (line_value(out, "nosum", val, sizeof(val))) {
		snprintf(err, errlen, "%s: cannot check the sha256 of the copy at %s: %s", c->host,
			 r->path, val);
		rc = -EBADMSG;
	} else if (line_value(out, "badsum", val, sizeof(val))) {
		snprintf(err, errlen, "%s: the copy at %s has sha256 %.64s, not ours (%s)", c->host,
			 r->path, val, d->sha256);
		rc = -EBADMSG;
	} else if (strncmp(out, "ok", 2)) {
		rc = cannot_start(c, r->path, out, err, errlen);
	} else {
		r->how = DEPLOY_COPIED;
	}
out:
	free(out);
	return rc;
}

int deploy_prepare(void *arg, struct fo_host *h, struct ssh_conn *c, char *err, size_t errlen)
{
	struct deploy_fan *f = arg;
	size_t i = (size_t)(h - f->hosts);
	struct deploy_result r;
	int rc = deploy_resolve(f->d, c, mono_ms() + DEPLOY_TIMEOUT_MS, &r, err, errlen);
	if (rc)
		return rc;
	if (f->verbose && r.how != DEPLOY_GIVEN) {
		char was[400] = "";
		if (r.how == DEPLOY_COPIED && *r.node_version)
			snprintf(was, sizeof(was), " (its own %s says '%.96s')", r.node_path,
				 r.node_version);
		else if (r.how == DEPLOY_COPIED)
			snprintf(was, sizeof(was), " (it has none on PATH)");
		fprintf(stderr, "hcclctl: %s: %s: %s hcclctl %s%s\n", f->where,
			h->name ? h->name : h->host,
			r.how == DEPLOY_COPIED ? "copied this" :
			r.how == DEPLOY_CACHED ? "the cached" : "its own",
			r.path, was);
	}
	const char *before = f->before ? f->before[i] : "";
	f->cmds[i] = r.how == DEPLOY_CACHED || r.how == DEPLOY_COPIED ?
			     deploy_cmdline_checked(f->d->sha256, r.path, before, f->rest[i],
						    f->shell_stays) :
			     deploy_cmdline(before, r.path, f->rest[i]);
	if (!f->cmds[i]) {
		snprintf(err, errlen, "%s: out of memory", h->host);
		return -ENOMEM;
	}
	h->cmd = f->cmds[i];
	if (f->res)
		f->res[i] = r;
	return 0;
}
