/* Running one command on a libssh2 session: its channel, its stdin, both output streams read
 * to EOF with the caller's deadline, its exit, and a timeout or cancel that kills the remote
 * process group it told us of. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libssh2.h>
#include <openssl/evp.h>

#include "cmd/lib/ssh.h"
#include "cmd/lib/ssh_int.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

#define DEFAULT_CAP (1024UL * 1024)
#define LINE_MAX_LEN 4096
#define PGID_MARKER "\036hcclctl-pgid "
#define CANCEL_GRACE_MS 3000 /* after a cancel, for the command to end and say how */

struct stream {
	struct ssh_exec *x;
	struct ssh_buf *buf;
	int id;
	char line[LINE_MAX_LEN];
	size_t ll;
	/* stderr only: the first line may be our process-group marker */
	int want_marker;
	char mk[64];
	size_t mkn, mklines;
	int mid_line;
	long pgid;
	size_t cap;
	int oom;
};

int ssh_buf_keep(struct ssh_buf *b, size_t cap, const char *p, size_t n)
{
	if (!b->p) {
		b->p = malloc(cap + 1);
		if (!b->p)
			return -ENOMEM;
	}
	if (n >= cap) {
		b->dropped += b->len + n - cap;
		memcpy(b->p, p + n - cap, cap);
		b->len = cap;
	} else {
		if (b->len + n > cap) {
			size_t drop = b->len + n - cap;
			memmove(b->p, b->p + drop, b->len - drop);
			b->len -= drop;
			b->dropped += drop;
		}
		memcpy(b->p + b->len, p, n);
		b->len += n;
	}
	b->p[b->len] = '\0';
	return 0;
}

static void keep(struct stream *s, const char *p, size_t n)
{
	if (ssh_buf_keep(s->buf, s->cap, p, n))
		s->oom = 1;
}

static void lines(struct stream *s, const char *p, size_t n)
{
	if (!s->x->on_line)
		return;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n' || s->ll == sizeof(s->line)) {
			s->x->on_line(s->x->arg, s->id, s->line, s->ll);
			s->ll = 0;
			if (p[i] == '\n')
				continue;
		}
		s->line[s->ll++] = p[i];
	}
}

static void deliver(struct stream *s, const char *p, size_t n)
{
	keep(s, p, n);
	lines(s, p, n);
}

/* The marker is the first line the command itself prints, but the login shell's rc files
 * may print before it (a chatty .bashrc): lines before it are the command's output as usual,
 * and the search ends at the marker or after MARKER_LINES lines. */
#define MARKER_LINES 256
static void feed(struct stream *s, const char *p, size_t n)
{
	size_t ml = strlen(PGID_MARKER);
	while (s->want_marker && n) {
		if (s->mid_line) {
			/* the rest of a line too long to be the marker */
			const char *nl = memchr(p, '\n', n);
			size_t k = nl ? (size_t)(nl - p) + 1 : n;
			deliver(s, p, k);
			p += k;
			n -= k;
			if (nl) {
				s->mid_line = 0;
				if (++s->mklines >= MARKER_LINES)
					s->want_marker = 0;
			}
			continue;
		}
		char ch = *p++;
		n--;
		s->mk[s->mkn++] = ch;
		if (ch != '\n' && s->mkn < sizeof(s->mk))
			continue;
		if (ch == '\n' && s->mkn > ml && !memcmp(s->mk, PGID_MARKER, ml)) {
			s->mk[s->mkn - 1] = '\0';
			s->pgid = strtol(s->mk + ml, NULL, 10);
			s->want_marker = 0;
		} else {
			deliver(s, s->mk, s->mkn);
			if (ch != '\n')
				s->mid_line = 1;
			else if (++s->mklines >= MARKER_LINES)
				s->want_marker = 0;
		}
		s->mkn = 0;
	}
	if (n)
		deliver(s, p, n);
}

static void flush_stream(struct stream *s)
{
	if (s->want_marker && s->mkn)
		deliver(s, s->mk, s->mkn);
	s->want_marker = 0;
	s->mkn = 0;
	if (s->x->on_line && s->ll)
		s->x->on_line(s->x->arg, s->id, s->line, s->ll);
	s->ll = 0;
}

/* Kills the process group of a command that outlived its deadline, through a second
 * channel on the same session. sshd makes each command a session leader (setsid), so its
 * pid is its group: TERM now, then KILL from a detached shell if the group is still there
 * two seconds later; that shell ends as soon as the group is gone. */
static void kill_remote(struct ssh_conn *c, long pgid)
{
	long long deadline = mono_ms() + SSH__CLOSE_GRACE_MS;
	LIBSSH2_CHANNEL *ch;
	char cmd[384];
	int rc;
	if (pgid <= 1)
		return;
	snprintf(cmd, sizeof(cmd),
		 "kill -TERM -- -%ld 2>/dev/null; (i=0; while kill -0 -- -%ld 2>/dev/null; do "
		 "[ $i -ge 20 ] && { kill -KILL -- -%ld; break; }; sleep 0.1; i=$((i+1)); "
		 "done) </dev/null >/dev/null 2>&1 &",
		 pgid, pgid, pgid);
	for (;;) {
		ch = libssh2_channel_open_session(c->sess);
		if (ch || libssh2_session_last_errno(c->sess) != LIBSSH2_ERROR_EAGAIN)
			break;
		if (ssh_conn_wait(c, deadline))
			return;
	}
	if (!ch)
		return;
	/* the reply to exec means sshd has started the shell: enough, we do not wait more */
	SSH_RETRY(c, deadline, rc, libssh2_channel_exec(ch, cmd));
	(void)rc;
}

/* Reads what both streams have now. 1 when something came, 0 when nothing, or a negative
 * code with err set. */
static int read_streams(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, struct stream *so,
			struct stream *se, char *buf, size_t buflen, char *err, size_t errlen)
{
	int progress = 0;
	struct stream *ss[2] = { so, se };
	for (int i = 0; i < 2; i++) {
		ssize_t n = libssh2_channel_read_ex(ch, ss[i]->id, buf, buflen);
		if (n > 0) {
			feed(ss[i], buf, (size_t)n);
			progress = 1;
		} else if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
			snprintf(err, errlen, "%s: reading the command's output: %s", c->host,
				 ssh_conn_error(c));
			return -EPROTO;
		}
	}
	if (so->oom || se->oom) {
		snprintf(err, errlen, "%s: out of memory", c->host);
		return -ENOMEM;
	}
	return progress;
}

/* After the command's EOF: waits for the close (the exit status may come after the EOF,
 * from a command that closed its output early), then reads the status or the signal and
 * frees the channel. 0, or -ETIMEDOUT / -ECANCELED with the channel left to the session. */
static int reap(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, struct ssh_exec *x, long long deadline)
{
	int rc;
	SSH_RETRY(c, deadline, rc, libssh2_channel_close(ch));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return rc;
	SSH_RETRY(c, deadline, rc, libssh2_channel_wait_closed(ch));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return rc;
	char *sig = NULL;
	size_t siglen = 0;
	libssh2_channel_get_exit_signal(ch, &sig, &siglen, NULL, NULL, NULL, NULL);
	if (sig) {
		snprintf(x->signal, sizeof(x->signal), "%.*s", (int)siglen, sig);
		libssh2_free(c->sess, sig);
	} else {
		x->exit_status = libssh2_channel_get_exit_status(ch);
	}
	SSH_RETRY(c, deadline, rc, libssh2_channel_free(ch));
	return 0;
}

/* Writes len bytes of p to the command's stdin before deadline. 0, -ETIMEDOUT or -ECANCELED
 * from the wait, or -EPROTO with err set. */
static int write_stdin(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, const char *p, size_t len,
		       long long deadline, char *err, size_t errlen)
{
	for (size_t off = 0; p && off < len;) {
		ssize_t w = libssh2_channel_write(ch, p + off, len - off);
		if (w == LIBSSH2_ERROR_EAGAIN) {
			int rc = ssh_conn_wait(c, deadline);
			if (rc)
				return rc;
		} else if (w < 0) {
			snprintf(err, errlen, "%s: writing the command's input: %s", c->host,
				 ssh_conn_error(c));
			return -EPROTO;
		} else {
			off += (size_t)w;
		}
	}
	return 0;
}

/* Sends the keepalive when it is due; the time to the next one, in ms, for the wait. */
static int keepalive(struct ssh_conn *c, const struct ssh_exec *x)
{
	int next = 0;
	if (x->keepalive_s <= 0)
		return 0;
	libssh2_keepalive_send(c->sess, &next); /* EAGAIN: it goes out with the next write */
	return (next > 0 ? next : 1) * 1000;
}

/* One run of a command: its channel, its two streams and the buffer they read through. */
struct run {
	struct ssh_conn *c;
	struct ssh_exec *x;
	LIBSSH2_CHANNEL *ch;
	struct stream so, se;
	char buf[16384];
};

/* What the command runs as: behind our process-group marker when a timeout must be able to
 * kill it (in *wrapped, the caller's to free); the session's keepalive. */
static int exec_prepare(struct run *u, char **wrapped, char *err, size_t errlen)
{
	struct ssh_exec *x = u->x;
	if (x->kill_on_timeout) {
		/* Tell us the command's process group first, so a timeout can kill it. A
		 * newline, not ';', so that any command text the caller built still parses. */
		size_t len = strlen(PGID_MARKER) + strlen(x->cmd) + 64;
		*wrapped = malloc(len);
		if (!*wrapped) {
			snprintf(err, errlen, "%s: out of memory", u->c->host);
			return -ENOMEM;
		}
		snprintf(*wrapped, len, "printf '\\036hcclctl-pgid %%s\\n' \"$$\" >&2\n%s", x->cmd);
		u->se.want_marker = 1;
	}
	if (x->keepalive_s > 0) {
		/* A host that stops answering (powered off, link cut) fails the session after
		 * three keepalive intervals instead of the kernel's 15 minutes. */
		unsigned ut = (unsigned)x->keepalive_s * 3000;
		libssh2_keepalive_config(u->c->sess, 1, (unsigned)x->keepalive_s);
		setsockopt(u->c->fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ut, sizeof(ut));
	}
	return 0;
}

/* A channel that runs cmd with the caller's input and, unless kept open, EOF after it. *late
 * when the deadline or a cancel came first (rc says which). */
static int exec_start(struct run *u, const char *cmd, int *late, char *err, size_t errlen)
{
	struct ssh_conn *c = u->c;
	struct ssh_exec *x = u->x;
	int rc;
	for (;;) {
		u->ch = libssh2_channel_open_session(c->sess);
		if (u->ch || libssh2_session_last_errno(c->sess) != LIBSSH2_ERROR_EAGAIN)
			break;
		if ((rc = ssh_conn_wait(c, x->deadline)))
			return *late = 1, rc;
	}
	if (!u->ch) {
		snprintf(err, errlen, "%s: cannot open a channel: %s", c->host, ssh_conn_error(c));
		return -EPROTO;
	}
	SSH_RETRY(c, x->deadline, rc, libssh2_channel_exec(u->ch, cmd));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return *late = 1, rc;
	if (rc) {
		snprintf(err, errlen, "%s: exec refused: %s", c->host, ssh_conn_error(c));
		return -EPROTO;
	}
	rc = write_stdin(c, u->ch, x->input, x->input_len, x->deadline, err, errlen);
	if (rc)
		return *late = rc == -ETIMEDOUT || rc == -ECANCELED, rc;
	/* The command gets no more input: an EOF now keeps a stray `read` from waiting. */
	if (!x->keep_stdin)
		SSH_RETRY(c, x->deadline, rc, libssh2_channel_send_eof(u->ch));
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		return *late = 1, rc;
	return 0;
}

/* Reads both streams to the command's EOF, passing the caller's interrupt on once, then reaps
 * its exit. *late as exec_start's. */
static int exec_pump(struct run *u, int *late, char *err, size_t errlen)
{
	struct ssh_conn *c = u->c;
	struct ssh_exec *x = u->x;
	int rc, interrupt_fd = x->interrupt && x->interrupt_fd > 0 ? x->interrupt_fd : -1;
	for (;;) {
		if (ssh__readable(interrupt_fd)) {
			char ierr[SSH_ERRLEN];
			interrupt_fd = -1; /* once */
			rc = write_stdin(c, u->ch, x->interrupt, x->interrupt_len, x->deadline, ierr,
					 sizeof(ierr));
			if (rc == -ETIMEDOUT || rc == -ECANCELED)
				return *late = 1, rc;
			/* else written, or refused: the command closed its stdin, it is ending */
		}
		rc = read_streams(c, u->ch, &u->so, &u->se, u->buf, sizeof(u->buf), err, errlen);
		if (rc < 0)
			return rc;
		if (rc > 0)
			continue;
		if (libssh2_channel_eof(u->ch))
			break;
		if ((rc = ssh__wait_max(c, x->deadline, keepalive(c, x), interrupt_fd)))
			return *late = 1, rc;
	}
	flush_stream(&u->so);
	flush_stream(&u->se);
	rc = reap(c, u->ch, x, x->deadline);
	if (rc == -ECANCELED) /* the command has ended: finish the close, briefly */
		rc = reap(c, u->ch, x, mono_ms() + CANCEL_GRACE_MS);
	if (rc == -ECANCELED)
		rc = -ETIMEDOUT;
	if (rc)
		return *late = 1, rc;
	u->ch = NULL;
	return 0;
}

/* The deadline came first: kill the command's group when we know it, and give up the session
 * (a polite close would wait on the stuck peer). */
static int exec_timed_out(struct run *u, char *err, size_t errlen)
{
	struct ssh_exec *x = u->x;
	flush_stream(&u->so);
	flush_stream(&u->se);
	if (x->kill_on_timeout && u->se.pgid > 1)
		kill_remote(u->c, u->se.pgid);
	snprintf(err, errlen, "%s: command still running at the deadline%s", u->c->host,
		 x->kill_on_timeout ? (u->se.pgid > 1 ? "; killed it" :
							"; it had not started, nothing to kill") :
				      "");
	ssh__abandon(u->c);
	u->ch = NULL; /* freed with the session */
	return -ETIMEDOUT;
}

/* Cancelled: kill the command's group as soon as we know it (the marker may still be on its
 * way) and read on for a short grace, so the caller learns how it ended. */
static int exec_cancelled(struct run *u, char *err, size_t errlen)
{
	struct ssh_conn *c = u->c;
	struct ssh_exec *x = u->x;
	if (!u->ch) {
		snprintf(err, errlen, "%s: cancelled before the command started", c->host);
		return -ECANCELED;
	}
	long long until = mono_ms() + CANCEL_GRACE_MS;
	int killed = 0, closed = 0;
	for (;;) {
		if (x->kill_on_timeout && u->se.pgid > 1 && !killed) {
			kill_remote(c, u->se.pgid);
			killed = 1;
		}
		int rc = read_streams(c, u->ch, &u->so, &u->se, u->buf, sizeof(u->buf), err, errlen);
		if (rc < 0)
			break;
		if (rc > 0)
			continue;
		if (libssh2_channel_eof(u->ch)) {
			closed = 1;
			break;
		}
		if (ssh_conn_wait(c, until))
			break;
	}
	flush_stream(&u->so);
	flush_stream(&u->se);
	if (closed && reap(c, u->ch, x, until) == 0)
		u->ch = NULL;
	snprintf(err, errlen, "%s: cancelled%s", c->host,
		 killed ? "; stopped the command" : closed ? "" : "; the command had not started");
	if (u->ch) {
		ssh__abandon(c);
		u->ch = NULL;
	}
	return -ECANCELED;
}

int ssh_conn_exec(struct ssh_conn *c, struct ssh_exec *x, char *err, size_t errlen)
{
	struct run *u = calloc(1, sizeof(*u));
	char *wrapped = NULL;
	int late = 0, rc;
	if (!u) {
		snprintf(err, errlen, "%s: out of memory", c->host);
		return -ENOMEM;
	}
	*u = (struct run){ .c = c, .x = x };
	u->so = (struct stream){ .x = x, .buf = &x->out, .id = SSH_STDOUT };
	u->se = (struct stream){ .x = x, .buf = &x->err, .id = SSH_STDERR };
	x->exit_status = -1;
	x->signal[0] = '\0';
	u->so.cap = u->se.cap = x->cap ? x->cap : DEFAULT_CAP;
	rc = exec_prepare(u, &wrapped, err, errlen);
	if (!rc)
		rc = exec_start(u, wrapped ? wrapped : x->cmd, &late, err, errlen);
	if (!rc)
		rc = exec_pump(u, &late, err, errlen);
	if (late)
		rc = rc == -ECANCELED ? exec_cancelled(u, err, errlen) : exec_timed_out(u, err, errlen);
	if (u->ch && rc)
		ssh__abandon(c);
	free(wrapped);
	free(u);
	return rc;
}

void ssh_exec_release(struct ssh_exec *x)
{
	free(x->out.p);
	free(x->err.p);
	memset(&x->out, 0, sizeof(x->out));
	memset(&x->err, 0, sizeof(x->err));
}
