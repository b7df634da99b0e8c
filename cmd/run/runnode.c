/* `hcclctl run-node --ranks R,R... -- run COLL ARGS...`: the remote parent that `run --ssh`
 * starts once per server (hidden: only the launcher calls it). It forks one rank per listed
 * rank (`hcclctl run COLL ARGS... --rank R`, this same binary), and relays their output on
 * its own streams, each line tagged with its rank (RUN_NODE_TAG), then each rank's end:
 *   \037<rank> <line>        a line of that rank's stdout (on stdout) or stderr (on stderr)
 *   \037<rank>+<chunk>       part of a longer line, the rest follows
 *   \037<rank>=exit N | =signal NAME   (on stdout, after the rank's last stdout line)
 * Lines are cut into chunks that stay under ssh.c's 4 KiB line limit.
 *
 * The ranks must never outlive the launcher. The launcher keeps our stdin open for the
 * whole run, so its end (the session closed, the launcher or its host gone) and a hang-up
 * of our stdout both make us stop every rank: TERM, then KILL after KILL_GRACE_MS. Ranks
 * get SIGKILL from the kernel when we die (PR_SET_PDEATHSIG), and they stay in our process
 * group, which is what the launcher's cancel signals.
 *
 * Ctrl-C of the launcher comes as the line "interrupt" on our stdin (libssh2 1.10 cannot
 * send a signal down a session). Our ranks, told by HCCLCTL_RUN_NODE in their environment,
 * catch SIGINT as --local's ranks do (runstop.c): each gets one SIGINT once it catches it
 * (a rank still starting would die of it), all stop at the same row, rank 0 prints what was
 * measured, and each exits 130. Ranks left after RUN_INTERRUPT_GRACE_MS (a row that does not
 * end, a rank stuck before its first row) are stopped as above: TERM, then KILL. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/nodeout.h"
#include "cmd/run/run.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/io.h"

#define MAX_RANKS 1024 /* of one server */
#define CHUNK 3000
#define KILL_GRACE_MS 2000
#define INTERRUPT_LINE "interrupt"

static const char *o_ranks;

const struct opt run_node_opts[] = {
	OPT_STR("ranks", 0, &o_ranks, "R[,R...]", "the ranks of this server"),
	OPT_TERM,
};

struct stream {
	int fd;          /* read end of the rank's pipe; -1 at EOF */
	char buf[CHUNK];
	size_t len;
};

struct child {
	int rank;
	pid_t pid;
	int status, reaped, reported;
	int interrupted; /* sent its SIGINT */
	struct stream s[2]; /* stdout, stderr */
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static int tagged(int fd, int rank, char kind, const char *p, size_t n)
{
	char tag[24];
	int tl = snprintf(tag, sizeof(tag), "%c%d%c", RUN_NODE_TAG, rank, kind);
	char line[CHUNK + 32];
	memcpy(line, tag, (size_t)tl);
	memcpy(line + tl, p, n);
	line[tl + n] = '\n';
	return fd_write_all(fd, line, (size_t)tl + n + 1);
}

/* Relays the complete lines in s, and a full buffer as a chunk. */
static int relay(struct child *c, int which, int final)
{
	struct stream *s = &c->s[which];
	int out = which ? 2 : 1;
	size_t start = 0;
	for (size_t i = 0; i < s->len; i++) {
		if (s->buf[i] != '\n')
			continue;
		if (tagged(out, c->rank, ' ', s->buf + start, i - start))
			return -1;
		start = i + 1;
	}
	memmove(s->buf, s->buf + start, s->len - start);
	s->len -= start;
	if (s->len == sizeof(s->buf) || (final && s->len)) {
		if (tagged(out, c->rank, final ? ' ' : '+', s->buf, s->len))
			return -1;
		s->len = 0;
	}
	return 0;
}

static int report_end(struct child *c)
{
	char msg[64];
	int st = c->status;
	if (WIFSIGNALED(st)) {
		const char *name = sigabbrev_np(WTERMSIG(st));
		if (name)
			snprintf(msg, sizeof(msg), "signal %s", name);
		else
			snprintf(msg, sizeof(msg), "signal %d", WTERMSIG(st));
	} else {
		snprintf(msg, sizeof(msg), "exit %d", WEXITSTATUS(st));
	}
	c->reported = 1;
	return tagged(1, c->rank, '=', msg, strlen(msg));
}

static int parse_ranks(const char *list, int *ranks, int max)
{
	int n = 0;
	const char *p = list;
	while (p && *p) {
		char *end;
		errno = 0;
		long r = strtol(p, &end, 10);
		if (errno || end == p || r < 0 || r > 1000000 || (*end && *end != ',') || n == max)
			return -1;
		ranks[n++] = (int)r;
		p = *end ? end + 1 : end;
	}
	return n;
}

/* This binary by its path, so that the ranks are called hcclctl in ps (exec'd as
 * /proc/self/exe they would be "exe"); /proc/self/exe when the file has gone. */
static void self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1 || access(buf, X_OK)) {
		snprintf(buf, len, "/proc/self/exe");
		return;
	}
	buf[n] = '\0';
}

static pid_t start_rank(const char *exe, int rank, int argc, char **argv, int fds[2][2])
{
	char rs[16];
	snprintf(rs, sizeof(rs), "%d", rank);
	pid_t parent = getpid();
	sigset_t all, old;
	/* A TERM between the fork and the exec must kill the child, not run our handler in
	 * it (which would only set a flag there): blocked across the fork, the child's
	 * handlers back to the default, then unblocked, a pending TERM ends it. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid_t pid = fork();
	if (pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return pid;
	}
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* the child: our pipes as its stdout and stderr, nothing on stdin */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(137); /* the parent died before the line above */
	int null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, 0) < 0 || dup2(fds[0][1], 1) < 0 || dup2(fds[1][1], 2) < 0)
		_exit(126);
	char **av = calloc((size_t)argc + 4, sizeof(*av));
	if (!av)
		_exit(126);
	av[0] = (char *)"hcclctl";
	for (int i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	av[argc + 1] = (char *)"--rank";
	av[argc + 2] = rs;
	execv(exe, av);
	fprintf(stderr, "hcclctl: run-node: cannot start rank %d: %s\n", rank, strerror(errno));
	_exit(126);
}

static void signal_all(struct child *cs, int n, int sig)
{
	for (int i = 0; i < n; i++)
		if (cs[i].pid > 0 && !cs[i].reaped)
			kill(cs[i].pid, sig);
}

/* Whether pid catches SIGINT yet (SigCgt in /proc/PID/status): a rank armed its stop. */
static int catches_sigint(pid_t pid)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	int found = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "SigCgt: %llx", &mask) == 1;
	fclose(f);
	return found && (mask & (1ULL << (SIGINT - 1)));
}

/* Each rank still running gets its one SIGINT as soon as it catches it. */
static void interrupt_ranks(struct child *cs, int n)
{
	for (int i = 0; i < n; i++)
		if (cs[i].pid > 0 && !cs[i].reaped && !cs[i].interrupted &&
		    catches_sigint(cs[i].pid)) {
			kill(cs[i].pid, SIGINT);
			cs[i].interrupted = 1;
		}
}

/* Reads what our stdin has: 1 when it holds the line "interrupt", 0 when not, -1 at its
 * end. Other lines are ignored (nothing else is expected there). */
static int read_stdin(char *line, size_t cap, size_t *len)
{
	char b[256];
	ssize_t got = read(0, b, sizeof(b));
	int asked = 0;
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (got == 0)
		return -1;
	for (ssize_t i = 0; i < got; i++) {
		if (b[i] != '\n') {
			if (*len < cap)
				line[*len] = b[i];
			(*len)++;
			continue;
		}
		if (*len == strlen(INTERRUPT_LINE) && !memcmp(line, INTERRUPT_LINE, *len))
			asked = 1;
		*len = 0;
	}
	return asked;
}

static void reap(struct child *cs, int n)
{
	int st;
	pid_t pid;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		for (int i = 0; i < n; i++)
			if (cs[i].pid == pid) {
				cs[i].status = st;
				cs[i].reaped = 1;
			}
}

/* The node's state while its ranks run: whether the session that started it is gone, when
 * the ranks were told to stop (SIGTERM, then SIGKILL) and when the launcher asked to
 * interrupt them, and the line read so far from stdin. */
struct node_run {
	int gone;
	long long stop_at, interrupt_at;
	char in_line[32];
	size_t in_len;
};

/* Starts the n ranks, their stdout and stderr piped back: 0, or the exit code after killing
 * those started. */
static int start_ranks(struct child *cs, int n, const int *ranks, const char *exe, int argc,
		       char **argv)
{
	for (int i = 0; i < n; i++) {
		int fds[2][2];
		cs[i].rank = ranks[i];
		cs[i].s[0].fd = cs[i].s[1].fd = -1;
		if (pipe2(fds[0], O_CLOEXEC) || pipe2(fds[1], O_CLOEXEC)) {
			int rc = fail(EXIT_UNKNOWN, "run-node", NULL, "pipe: %s", strerror(errno));
			signal_all(cs, i, SIGKILL);
			return rc;
		}
		cs[i].pid = start_rank(exe, ranks[i], argc, argv, fds);
		close(fds[0][1]);
		close(fds[1][1]);
		cs[i].s[0].fd = fds[0][0];
		cs[i].s[1].fd = fds[1][0];
		if (cs[i].pid < 0) {
			int rc = fail(EXIT_UNKNOWN, "run-node", NULL, "fork: %s", strerror(errno));
			signal_all(cs, i, SIGKILL);
			return rc;
		}
	}
	return 0;
}

/* What poll watches: stdin (the launcher's interrupt, or its end) and stdout (its end), then
 * each rank's open streams; map says whose each is (-1 stdin, -2 stdout, 2 * rank + stream). */
static int watch_set(const struct child *cs, int n, int gone, struct pollfd *p, int *map)
{
	int np = 0;
	p[np] = (struct pollfd){ .fd = gone ? -1 : 0, .events = POLLIN };
	map[np++] = -1;
	p[np] = (struct pollfd){ .fd = gone ? -1 : 1, .events = 0 };
	map[np++] = -2;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			if (cs[i].s[k].fd >= 0) {
				p[np] = (struct pollfd){ .fd = cs[i].s[k].fd, .events = POLLIN };
				map[np++] = 2 * i + k;
			}
	return np;
}

/* One stream that poll found ready: the launcher's stdin or stdout, or a rank's output,
 * relayed (or drained when nobody is left to tell). */
static void on_ready(struct child *cs, int who, struct node_run *nr)
{
	if (who == -1) {
		int in = read_stdin(nr->in_line, sizeof(nr->in_line), &nr->in_len);
		if (in > 0 && !nr->interrupt_at)
			nr->interrupt_at = mono_ms();
		if (in < 0)
			nr->gone = 1; /* the session is gone: nobody to tell */
		return;
	}
	if (who == -2) {
		nr->gone = 1;
		return;
	}
	struct child *c = &cs[who / 2];
	struct stream *s = &c->s[who % 2];
	ssize_t got = read(s->fd, s->buf + s->len, sizeof(s->buf) - s->len);
	if (got > 0) {
		s->len += (size_t)got;
		if (nr->gone)
			s->len = 0; /* nobody to tell: drained, not kept */
		else if (relay(c, who % 2, 0))
			nr->gone = 1;
	} else if (got == 0 || errno != EINTR) {
		if (!nr->gone && relay(c, who % 2, 1))
			nr->gone = 1;
		close(s->fd);
		s->fd = -1;
	}
}

/* Told to stop (a signal, the session gone, an interrupt not heeded in its grace): SIGTERM,
 * then SIGKILL after the grace. */
static void escalate(struct child *cs, int n, struct node_run *nr)
{
	if (got_signal && !nr->stop_at) {
		signal_all(cs, n, SIGTERM);
		nr->stop_at = mono_ms() + KILL_GRACE_MS;
	}
	if (nr->interrupt_at && !nr->stop_at)
		interrupt_ranks(cs, n);
	if ((nr->gone || (nr->interrupt_at && mono_ms() > nr->interrupt_at + RUN_INTERRUPT_GRACE_MS)) &&
	    !nr->stop_at) {
		signal_all(cs, n, SIGTERM);
		nr->stop_at = mono_ms() + KILL_GRACE_MS;
	}
	if (nr->stop_at && mono_ms() > nr->stop_at) {
		signal_all(cs, n, SIGKILL);
		nr->stop_at = mono_ms() + 60000;
	}
}

int cmd_run_node(int argc, char **argv)
{
	static int ranks[MAX_RANKS];
	static char exe[4096];
	struct child *cs = NULL;
	int n = o_ranks ? parse_ranks(o_ranks, ranks, MAX_RANKS) : -1;
	int worst = 0;
	struct node_run nr = { 0 };

	if (n <= 0)
		return fail(EXIT_USAGE, "run-node", NULL, "invalid --ranks '%s'",
			    o_ranks ? o_ranks : "");
	if (argc < 2 || strcmp(argv[0], "run"))
		return fail(EXIT_USAGE, "run-node", NULL, "give the rank's words: -- run COLL ...");
	cs = calloc((size_t)n, sizeof(*cs));
	if (!cs)
		return fail(EXIT_UNKNOWN, "run-node", NULL, "out of memory");
	self_path(exe, sizeof(exe));
	prctl(PR_SET_NAME, "hcclctl-node");
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	setenv("HCCLCTL_RUN_NODE", "1", 1); /* the ranks: SIGINT is our request to stop */
	if ((worst = start_ranks(cs, n, ranks, exe, argc, argv)))
		goto out;

	for (;;) {
		struct pollfd p[2 * MAX_RANKS + 2];
		int map[2 * MAX_RANKS + 2], np = watch_set(cs, n, nr.gone, p, map);
		int done = 1;
		for (int i = 0; i < n; i++)
			done &= cs[i].reported;
		if (done)
			break;
		if (poll(p, (nfds_t)np, 100) > 0)
			for (int j = 0; j < np; j++)
				if (p[j].revents)
					on_ready(cs, map[j], &nr);
		escalate(cs, n, &nr);
		reap(cs, n);
		for (int i = 0; i < n; i++) {
			struct child *c = &cs[i];
			if (c->reaped && !c->reported && c->s[0].fd < 0 && c->s[1].fd < 0) {
				if (nr.gone)
					c->reported = 1;
				else if (report_end(c))
					nr.gone = 1;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		int st = cs[i].status, code = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
		if (code > worst)
			worst = code;
	}
	if (got_signal)
		worst = 128 + got_signal;
out:
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			if (cs[i].s[k].fd >= 0)
				close(cs[i].s[k].fd);
	free(cs);
	return worst;
}
