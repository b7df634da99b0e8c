/* Running the vendor tools (npu-smi, hccn_tool) and the facts they print. This layer never
 * prints or exits: every function returns 0 or a negative errno-style code and fills err. */
#ifndef HCCLCTL_PROBES_TOOL_H
#define HCCLCTL_PROBES_TOOL_H

#include <stddef.h>

#define PROBE_ERRLEN 512
#define PROBE_TOOL_CAP (4UL * 1024 * 1024) /* per stream; more is cut and flagged */

/* What one run of a tool gave. out and errout are NUL-terminated and owned by the result. */
struct probe_tool_result {
	char *out, *errout;
	size_t outlen, errlen;
	int status;    /* exit status when it exited, else -1 */
	int signal;    /* the signal that killed it, else 0 */
	int truncated; /* output beyond PROBE_TOOL_CAP was dropped */
	long elapsed_ms;
};

/* Resolves the tool to run: opt (a command-line path) if set, else the environment variable
 * env if set and not empty, else name searched in $PATH, else each of fallbacks (a
 * NULL-terminated list of absolute paths, may be NULL). Writes the path into buf.
 * Returns 0, or -ENOENT (err says where it looked). A path given by opt or env is used
 * as is, even if it does not exist: running it will say so. */
int probe_tool_find(const char *name, const char *opt, const char *env,
		    const char *const *fallbacks, char *buf, size_t buflen, char *err,
		    size_t errlen);

/* Runs path with argv (argv[0] included; no shell) in its own process group, stdin from
 * /dev/null, capturing stdout and stderr up to PROBE_TOOL_CAP each. After timeout_ms the
 * whole process group is killed. Returns 0 when the tool ran and exited (whatever its
 * status; see r->status), -ENOENT / -EACCES when it could not be started (missing or not
 * executable), -ETIMEDOUT when it did not finish in time, -EINTR / -ENOMEM / -EIO otherwise;
 * err names the tool and its arguments. r is filled on 0 and -ETIMEDOUT (partial output);
 * release it with probe_tool_result_release in every case. */
int probe_tool_run(const char *path, char *const argv[], long timeout_ms,
		   struct probe_tool_result *r, char *err, size_t errlen);
/* The same with one more variable in the tool's environment ("NAME=value", or NULL). */
int probe_tool_run_env(const char *path, char *const argv[], const char *extra, long timeout_ms,
		       struct probe_tool_result *r, char *err, size_t errlen);
void probe_tool_result_release(struct probe_tool_result *r);

/* "npu-smi info -t hccs -i 0 -c 0": argv joined with spaces, the tool's base name first. */
void probe_tool_cmdline(char *const argv[], char *buf, size_t len);

#endif
