/* Nothing to install on the nodes: before `run --ssh`, `exec --deploy` or `doctor` runs
 * hcclctl on a node, deploy.c finds one there that is this very build, or copies this
 * binary into the login user's cache over SFTP, checks its sha256 and that it starts.
 * --remote-hcclctl PATH skips all of it. */
#ifndef HCCLCTL_DEPLOY_H
#define HCCLCTL_DEPLOY_H

#include <stddef.h>

#include "cmd/lib/ssh.h"

struct deploy {
	const char *remote;   /* --remote-hcclctl: used as given, nothing checked or copied */
	char version[64];     /* "hcclctl 0.1.0", as --version's first line says */
	char build_id[65];    /* cli_build_id(): what a node's own hcclctl must say to be ours */
	char sha256[65];      /* of the binary below, hex */
	char dir[96];         /* the cache folder's name: "0.1.0-<first 16 hex of sha256>" */
	unsigned char *bin;   /* this binary, read once; owned */
	size_t len;
};

/* Reads /proc/self/exe unless remote is set. 0, or a negative errno with err. */
int deploy_init(struct deploy *d, const char *remote, char *err, size_t errlen);
void deploy_release(struct deploy *d);

enum deploy_how {
	DEPLOY_GIVEN,     /* --remote-hcclctl */
	DEPLOY_INSTALLED, /* the node's own hcclctl on its PATH, the same build (build id) */
	DEPLOY_CACHED,    /* a copy from an earlier run, its sha256 checked */
	DEPLOY_COPIED,    /* copied now */
};

struct deploy_result {
	enum deploy_how how;
	char path[512];   /* the hcclctl to run there */
	char node_path[256];   /* the node's own hcclctl on its PATH, "none", or "" (not asked) */
	char node_version[96]; /* what that one's --version said: its first line, and
				* ", build-id ID" when it has one ("" when nothing) */
};

/* On an open session: where this hcclctl is on c's host, copying it when needed (at most
 * a few commands and one SFTP transfer on the one session). Returns 0, or
 *   -ELIBACC    the copy cannot start: a shared library is missing or broken there
 *               (err names it and the Debian packages that provide it)
 *   -ENOEXEC    the copy cannot start for another reason (err has what it printed)
 *   -EBADMSG    the copy's sha256 there is not ours
 *   another negative code from ssh.h (-ETIMEDOUT, -ECANCELED, -EPROTO ...)
 * with err naming the host. deadline: mono_ms() clock, 0 none. */
int deploy_resolve(const struct deploy *d, struct ssh_conn *c, long long deadline,
		   struct deploy_result *r, char *err, size_t errlen);

/* The words "how" says in messages: "its own", "cached", "copied", "given". */
const char *deploy_how_name(enum deploy_how how);

/* A shell command line: before, then the quoted path, a space and after. malloc'd; NULL
 * when out of memory. */
char *deploy_cmdline(const char *before, const char *path, const char *after);

/* The same for a copy in the cache, whose sha256 must be sha256 (hex) when it runs: the
 * line copies path to a private directory, checks the copy and runs the copy, in one shell
 * (exit 126 and a line on stderr when it differs). stays: after is a command that calls
 * hcclctl by name, so the copy's directory is kept until the shell exits; else the line runs
 * the copy itself (before ends with "exec " or nothing), from a descriptor. malloc'd; NULL
 * when out of memory. */
char *deploy_cmdline_checked(const char *sha256, const char *path, const char *before,
			     const char *after, int stays);

/* For a fan-out whose commands run hcclctl: as fanout.prepare (prepare_arg a struct
 * deploy_fan), each host's command becomes before[i], the path of hcclctl found or copied
 * there, a space and rest[i]. */
struct fo_host;
struct deploy_fan {
	const struct deploy *d;
	struct fo_host *hosts;  /* the fan-out's, to index the arrays below */
	char **before;          /* per host, shell text before the path; NULL: none */
	char **rest;            /* per host, the words after it */
	char **cmds;            /* per host, filled with the whole line; the caller frees each */
	struct deploy_result *res; /* per host, optional: what was found */
	const char *where;      /* "run allreduce", for the lines below */
	int verbose;            /* say on stderr what was found or copied where */
	int shell_stays;        /* rest calls hcclctl by name (exec --deploy): see above */
};
int deploy_prepare(void *arg, struct fo_host *h, struct ssh_conn *c, char *err, size_t errlen);

/* cmd/lib/libpkg.c: the Debian packages that provide soname, for our own dependencies ("libcjson1"), or NULL
 * for a library we do not know. */
const char *deploy_lib_packages(const char *soname);

#endif
