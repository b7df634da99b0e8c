/* Runs an outside tool without a shell: posix_spawn, its own process group, both streams
 * captured through poll with a hard size cap, and a deadline after which the whole group
 * is killed (a hung npu-smi often leaves a child behind that holds the pipes). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probes/tool/tool.h"
#include "ranktable/base/buf.h"
#include "ranktable/base/clock.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

void probe_tool_cmdline(char *const argv[], char *buf, size_t len)
{
	size_t off = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; argv[i] && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? " " : "",
				 i ? argv[i] : base_name(argv[0]));
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static int is_exec_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

int probe_tool_find(const char *name, const char *opt, const char *env,
		    const char *const *fallbacks, char *buf, size_t buflen, char *err,
		    size_t errlen)
{
	const char *e = env ? getenv(env) : NULL;
	if (opt && *opt) {
		snprintf(buf, buflen, "%s", opt);
		return 0;
	}
	if (e && *e) {
		snprintf(buf, buflen, "%s", e);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		if (n > 0 && (size_t)snprintf(buf, buflen, "%.*s/%s", (int)n, p, name) < buflen &&
		    is_exec_file(buf))
			return 0;
		p += n;
		if (*p == ':')
			p++;
	}
	for (size_t i = 0; fallbacks && fallbacks[i]; i++) {
		if (is_exec_file(fallbacks[i])) {
			snprintf(buf, buflen, "%s", fallbacks[i]);
			return 0;
		}
	}
	size_t off = (size_t)snprintf(err, errlen, "%s: not found in $PATH", name);
	for (size_t i = 0; fallbacks && fallbacks[i] && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? " or " : " nor at ",
					fallbacks[i]);
	return -ENOENT;
}

struct sink {
	struct buf b;
	int truncated;
};

/* Appends what fits under the cap; the rest is read and dropped so the tool never blocks. */
static int sink_add(struct sink *s, const char *d, size_t n)
{
	if (n > s->b.max - s->b.len) {
		n = s->b.max - s->b.len;
		s->truncated = 1;
	}
	return buf_add(&s->b, d, n);
}

/* environ with LC_ALL=C in place of any LC_ALL: the vendor tools print Chinese under some
 * locales, and their English output is the one the parsers know. extra ("NAME=value" or
 * NULL) is added, in place of a NAME already there. The array is the caller's to free; its
 * strings stay environ's and extra's. */
static char **tool_env(const char *extra)
{
	static char lc_all[] = "LC_ALL=C";
	size_t n = 0, xn = extra ? strcspn(extra, "=") + 1 : 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 3, sizeof(*env));
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) != 0 &&
		    !(xn && !strncmp(environ[i], extra, xn)))
			env[k++] = environ[i];
	env[k++] = lc_all;
	if (extra)
		env[k] = (char *)(uintptr_t)extra;
	return env;
}

/* Starts path in its own process group, stdin from /dev/null, stdout and stderr on out and
 * errfd. posix_spawn, not fork: a fork copies the page tables of the whole address space
 * (under ASan, of its shadow mapping too), and probe roce starts the tools a few hundred
 * times: with fork, half of its time under ASan went to fork and exec. glibc's posix_spawn
 * returns exec's own error (ENOENT, EACCES) and leaves no child behind then. Returns 0 or an
 * errno value. */
static int spawn_tool(const char *path, char *const argv[], const char *extra, int out, int errfd,
		      pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int e;
	char **env = tool_env(extra);
	if (!env)
		return ENOMEM;
	if ((e = posix_spawn_file_actions_init(&fa)))
		goto out_env;
	if ((e = posix_spawnattr_init(&at)))
		goto out_fa;
	/* the pipes are close-on-exec; their copies on 1 and 2 are not */
	if ((e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) ||
	    (e = posix_spawn_file_actions_adddup2(&fa, out, 1)) ||
	    (e = posix_spawn_file_actions_adddup2(&fa, errfd, 2)) ||
	    (e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP)) ||
	    (e = posix_spawnattr_setpgroup(&at, 0)))
		goto out_at;
	e = posix_spawn(pid, path, &fa, &at, argv, env);
out_at:
	posix_spawnattr_destroy(&at);
out_fa:
	posix_spawn_file_actions_destroy(&fa);
out_env:
	free(env);
	return e;
}

void probe_tool_result_release(struct probe_tool_result *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->errout);
	memset(r, 0, sizeof(*r));
}

int probe_tool_run(const char *path, char *const argv[], long timeout_ms,
		   struct probe_tool_result *r, char *err, size_t errlen)
{
	return probe_tool_run_env(path, argv, NULL, timeout_ms, r, err, errlen);
}

int probe_tool_run_env(const char *path, char *const argv[], const char *extra, long timeout_ms,
		       struct probe_tool_result *r, char *err, size_t errlen)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1};
	struct sink so = {BUF_INIT(PROBE_TOOL_CAP), 0}, se = {BUF_INIT(PROBE_TOOL_CAP), 0};
	char cmd[256];
	int rc = 0, status = 0;
	pid_t pid = -1;
	long t0 = mono_ms(), deadline = t0 + timeout_ms;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	probe_tool_cmdline(argv, cmd, sizeof(cmd));
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create pipes: %s", cmd, strerror(errno));
		goto out;
	}
	int e = spawn_tool(path, argv, extra, po[1], pe[1], &pid);
	if (e) {
		pid = -1;
		rc = -e;
		snprintf(err, errlen, "cannot run '%s': %s", path, strerror(e));
		goto out;
	}
	setpgid(pid, pid); /* also here, so a kill of the group cannot miss a fast child */
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;

	struct pollfd fds[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
	int open_fds = 2, exited = 0;
	char chunk[8192];
	while (!exited || open_fds) {
		long left = deadline - mono_ms();
		if (left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			pid = -1;
			rc = -ETIMEDOUT;
			snprintf(err, errlen, "%s: no answer within %ld s (killed)", cmd,
				 (timeout_ms + 999) / 1000);
			break;
		}
		if (!open_fds) {
			/* Streams closed: wait for the exit, polling so the deadline holds. */
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid) {
				exited = 1;
				pid = -1;
				break;
			}
			struct timespec ts = {0, 5 * 1000 * 1000};
			nanosleep(&ts, NULL);
			continue;
		}
		int n = poll(fds, 2, (int)(left < 100 ? left : 100));
		if (n < 0 && errno != EINTR) {
			rc = -EIO;
			snprintf(err, errlen, "%s: poll: %s", cmd, strerror(errno));
			break;
		}
		for (int i = 0; n > 0 && i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t k = read(fds[i].fd, chunk, sizeof(chunk));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				close(fds[i].fd);
				if (i == 0)
					po[0] = -1;
				else
					pe[0] = -1;
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			if (sink_add(i ? &se : &so, chunk, (size_t)k)) {
				rc = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory", cmd);
				goto kill_out;
			}
		}
	}
	if (rc == 0 || rc == -ETIMEDOUT) {
		if (rc == 0 && WIFEXITED(status))
			r->status = WEXITSTATUS(status);
		else if (rc == 0 && WIFSIGNALED(status))
			r->signal = WTERMSIG(status);
		r->outlen = so.b.len;
		r->errlen = se.b.len;
		r->truncated = so.truncated || se.truncated;
		r->out = buf_take(&so.b);
		r->errout = buf_take(&se.b);
		if (!r->out || !r->errout) {
			rc = -ENOMEM;
			snprintf(err, errlen, "%s: out of memory", cmd);
		}
	}
	r->elapsed_ms = mono_ms() - t0;
	goto out;
kill_out:
	if (pid > 0) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		pid = -1;
	}
out:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	buf_release(&so.b);
	buf_release(&se.b);
	return rc;
}
