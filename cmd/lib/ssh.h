/* SSH sessions over libssh2: connect with a deadline, verify the host key against
 * known_hosts, authenticate with a key file or the ssh-agent, run one command and collect
 * its output and exit status. Nothing here prints: every failure is a negative errno-style
 * code plus a message in the caller's buffer that names the host. */
#ifndef HCCLCTL_SSH_H
#define HCCLCTL_SSH_H

#include <stddef.h>

#include "ranktable/base/clock.h"

#define SSH_ERRLEN 768

/* Return codes of ssh_conn_open() and ssh_conn_exec(), besides 0 and -ENOMEM:
 *   -ETIMEDOUT     the deadline passed (connect, handshake, auth or the command)
 *   -ECONNREFUSED, -EHOSTUNREACH, -ENETUNREACH, ...   the TCP connect failed
 *   -ENOENT        the host name does not resolve
 *   -ENOKEY        the host key is not in known_hosts (refused)
 *   -EKEYREJECTED  known_hosts holds another key for the host (refused)
 *   -EACCES        no offered key was accepted
 *   -ECANCELED     the caller's cancel descriptor turned readable (ssh_opts.cancel_fd)
 *   -EPROTO        any other SSH-level failure */

struct ssh_opts {
	const char *user;        /* NULL: $USER, else the login name of the uid */
	int port;                /* 0: 22 */
	const char *key;         /* private key file; NULL: ~/.ssh/id_ed25519, then id_rsa */
	const char *known_hosts; /* NULL: ~/.ssh/known_hosts */
	int insecure;            /* accept any host key (the caller warns) */
	int no_agent;            /* ignore SSH_AUTH_SOCK */
	/* > 0: a descriptor that turns readable (and stays so) to cancel every wait of the
	 * sessions opened with these options: a connect gives up, a running command has its
	 * process group killed on the host (as at a timeout). 0: none. */
	int cancel_fd;
};

struct ssh_conn {
	int fd;
	void *sess; /* LIBSSH2_SESSION * */
	char host[256];
	char user[64];
	int port;
	int cancel_fd; /* from ssh_opts; -1 once a cancel was seen (the cleanup must not see it) */
};

/* Captured bytes of one stream. When more than the cap arrives the oldest bytes are
 * dropped (the end of a log says most) and dropped counts them. */
struct ssh_buf {
	char *p; /* NUL-terminated, owned; NULL when nothing arrived */
	size_t len;
	size_t dropped;
};

enum { SSH_STDOUT = 0, SSH_STDERR = 1 };

struct ssh_exec {
	/* in */
	const char *cmd;      /* the remote shell command line; quote arguments with sh_quote */
	long long deadline;   /* absolute, mono_ms() clock; 0: none */
	size_t cap;           /* bytes kept per stream; 0: 1 MiB */
	int kill_on_timeout;  /* on a timeout or a cancel, kill the command's process group */
	const char *input;    /* written to the command's stdin before its EOF; may be NULL */
	size_t input_len;
	int keep_stdin;       /* no EOF after the input: the command sees its stdin end only
			       * when the session does (the launcher died or cut it) */
	int keepalive_s;      /* > 0: an SSH keepalive this often, and the TCP connection given
			       * up after 3 unanswered intervals, so a dead host or link ends
			       * the wait (-ETIMEDOUT) even without a deadline */
	/* > 0: a descriptor that turns readable (and stays so) to ask the running command to
	 * stop by itself: interrupt's bytes go to its stdin, once, and the reading goes on as
	 * before (libssh2 1.10 cannot send the command a signal). Needs keep_stdin. 0: none. */
	int interrupt_fd;
	const char *interrupt;
	size_t interrupt_len;
	/* called for each complete line (without its newline, at most 4 KiB: longer lines are
	 * split), and for a last unterminated one; may be NULL */
	void (*on_line)(void *arg, int stream, const char *line, size_t len);
	void *arg;
	/* out */
	int exit_status;  /* -1 when the command reported none (killed, timed out) */
	char signal[32];  /* the signal that ended it ("KILL"), else "" */
	struct ssh_buf out, err;
};

/* Call once before any thread opens a connection; 0 or -EPROTO. */
int ssh_global_init(char *err, size_t errlen);

/* Connects to host (name or IP) and authenticates, all before deadline (mono_ms()
 * clock, 0: none). On success c holds the session until ssh_conn_close(); on failure c holds
 * nothing and err says what happened to whom, with the fix where there is one. */
int ssh_conn_open(struct ssh_conn *c, const char *host, const struct ssh_opts *o,
		  long long deadline, char *err, size_t errlen);

/* Runs x->cmd and reads both streams until the command ends or x->deadline passes.
 * Returns 0 when the command ran to its end (whatever its exit status), or a negative
 * code (-ECANCELED after a cancel: the command's group was killed, and its exit status or
 * signal is filled in when it came within a short grace); x->out and x->err hold what arrived either way and belong to x until
 * ssh_exec_release(). */
int ssh_conn_exec(struct ssh_conn *c, struct ssh_exec *x, char *err, size_t errlen);
void ssh_exec_release(struct ssh_exec *x);

void ssh_conn_close(struct ssh_conn *c);

/* For code that drives the session itself (sftp.c): waits until the socket is ready in the
 * direction libssh2 is blocked on; 0, -ETIMEDOUT at the deadline or -ECANCELED. And the
 * session's last error as text. */
int ssh_conn_wait(struct ssh_conn *c, long long deadline);
const char *ssh_conn_error(struct ssh_conn *c);

/* For files that include libssh2.h: repeats a libssh2 call while it says EAGAIN, waiting
 * on the socket in between. Leaves the call's result in rc, or -ETIMEDOUT / -ECANCELED. */
#define SSH_RETRY(c, deadline, rc, call)                                           \
	do {                                                                       \
		while (((rc) = (call)) == LIBSSH2_ERROR_EAGAIN) {                  \
			int w_ = ssh_conn_wait((c), (deadline));                   \
			if (w_) {                                                  \
				(rc) = w_;                                         \
				break;                                             \
			}                                                          \
		}                                                                  \
	} while (0)

/* Appends n bytes to b, keeping its last cap bytes (the end of a log says most; dropped
 * counts the rest). 0, or -ENOMEM with b as it was. */
int ssh_buf_keep(struct ssh_buf *b, size_t cap, const char *p, size_t n);

/* cmd/lib/sftp.c: writes len bytes of data to path on c's host over SFTP, with mode, through
 * a temporary name beside it that is renamed over path at the end, so that a reader never
 * sees half a file and two writers of the same bytes do not harm each other. 0, or a
 * negative code with err naming the host and the path. */
int ssh_sftp_put(struct ssh_conn *c, const char *path, const void *data, size_t len, long mode,
		 long long deadline, char *err, size_t errlen);

/* SHA256:base64 of a public key blob, as OpenSSH prints it (no padding). */
void ssh_fingerprint(const unsigned char *sha256, char *out, size_t outlen);

/* Quotes arg for a POSIX shell: wrapped in single quotes, each ' written as '\''.
 * Writes at most dstlen bytes including the NUL and returns the length the whole quoted
 * string needs (as snprintf does), so a return >= dstlen means it was cut. */
size_t sh_quote(char *dst, size_t dstlen, const char *arg);

/* Joins argv quoted with sh_quote and separated by spaces, so that the remote shell sees
 * exactly these words. Returns a malloc'd string the caller frees, or NULL (ENOMEM). */
char *sh_join(int argc, const char *const argv[]);

#endif
