/* Runs a command on many hosts over SSH in parallel, with bounded concurrency, a connect
 * and a command deadline per host, and the results of every host kept whatever happens to
 * the others. Used by `exec`, and by `run --ssh`, `doctor` and the probes. */
#ifndef HCCLCTL_FANOUT_H
#define HCCLCTL_FANOUT_H

#include <stddef.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/ssh.h"

enum fo_status {
	FO_PENDING = 0,
	FO_OK,          /* the command ran and exited 0 */
	FO_FAILED,      /* the command ran and exited non-zero or was killed by a signal */
	FO_UNREACHABLE, /* it could not run: connect, host key, auth or SSH failed */
	FO_TIMEOUT,     /* the connect or the command deadline passed */
	FO_CANCELED,    /* stopped by the caller's cancel (see fo_cancel) before it ended */
	FO_NOSTART,     /* the session was up but fanout.prepare refused to run the command
			 * (e.g. hcclctl cannot start on the host): why in error */
};

#define FO_LINE_MAX 256

struct fo_host {
	/* in */
	const char *host; /* what to connect to: a name or an IP */
	const char *name; /* how to call it in reports, or NULL for host */
	const char *cmd; /* this host's command line (already quoted), or NULL for fanout.cmd */
	/* out */
	enum fo_status status;
	int code;        /* 0 or the negative code from ssh.h */
	int connected;   /* the session was up: a timeout is the command's, not the connect's */
	int exit_status; /* -1 when none */
	char signal[32];
	double seconds;  /* from the start of the connect to the end */
	struct ssh_buf out, err;
	char error[SSH_ERRLEN]; /* why, when not FO_OK and not FO_FAILED */
	char err_line[FO_LINE_MAX]; /* stderr's last line, cleaned: see fo_stderr_line */
};

struct fanout {
	struct ssh_opts ssh;
	const char *cmd;             /* the command line for hosts without their own */
	int parallel;                /* hosts in flight at once; 0: 32 */
	int connect_parallel;        /* of those, connecting (handshake, auth) at once; 0: all.
				      * `run` holds every session open and bounds only this */
	long long connect_timeout_ms; /* connect, handshake and auth; 0: none */
	long long cmd_timeout_ms;     /* the command; 0: none */
	size_t cap;                  /* bytes kept per stream and host; 0: 1 MiB */
	int keepalive_s;             /* see ssh_exec.keepalive_s; 0: none */
	/* Optional: each host's stdin before its EOF (the command's own, e.g. a secret that
	 * must not appear on a command line). */
	const char *input;
	size_t input_len;
	int keep_stdin;              /* see ssh_exec.keep_stdin */
	/* Optional: a descriptor that turns readable to ask every running command to stop by
	 * itself (interrupt's bytes on its stdin, written by its session's own thread: see
	 * ssh_exec.interrupt_fd; a command not yet started gets them after its input). With
	 * keep_stdin only. A fo_cancel's read end fits (fo_cancel_soft_first). */
	int interrupt_fd;
	const char *interrupt;
	size_t interrupt_len;
	int progress;                /* "[12/64] ok 11, failed 1" on stderr when it is a tty */
	/* Optional. Called with the fanout's lock held, so calls never overlap: one line of a
	 * host's output as it arrives (stream SSH_STDOUT or SSH_STDERR), and each host's end. */
	void (*on_line)(void *arg, const struct fo_host *h, int stream, const char *line,
			size_t len);
	void (*on_done)(void *arg, const struct fo_host *h);
	/* Optional. Called on the host's own thread once its session is up, before its
	 * command: it may run commands on c (deploy.c copies hcclctl there) and set h->cmd.
	 * Non-zero (a negative code) ends the host without its command: FO_CANCELED for
	 * -ECANCELED, FO_TIMEOUT for -ETIMEDOUT, else FO_NOSTART, with err in h->error. */
	int (*prepare)(void *prepare_arg, struct fo_host *h, struct ssh_conn *c, char *err,
		       size_t errlen);
	void *prepare_arg;
	void *arg;
};

/* Cancelling a fan-out from any thread (a callback included): fo_cancel_init makes a pipe
 * whose read end goes in fanout.ssh.cancel_fd; fo_cancel_fire makes it readable, so every
 * connect gives up, every running command has its process group killed on its host
 * (TERM, then KILL), and hosts not yet started are not started: all end FO_CANCELED
 * unless they had already ended. Async-signal-safe. */
struct fo_cancel {
	int fd[2];
};
int fo_cancel_init(struct fo_cancel *c);
void fo_cancel_fire(struct fo_cancel *c);
int fo_cancel_fired(const struct fo_cancel *c);
void fo_cancel_release(struct fo_cancel *c);
/* Ctrl-C, TERM and HUP fire c until fo_cancel_signals_off restores the old handlers, so the
 * remote commands never outlive the launcher; fo_signal_caught says which came (0: none).
 * restart: SA_RESTART (else the launcher's waits are interrupted too). */
void fo_cancel_on_signals(struct fo_cancel *c, int restart);
void fo_cancel_signals_off(void);
int fo_signal_caught(void);
/* Before fo_cancel_on_signals: the first Ctrl-C fires soft instead (the caller's commands
 * are asked to stop by themselves, e.g. through fanout.interrupt_fd), and fo_signal_caught
 * stays 0; a second Ctrl-C, a TERM or a HUP cancel as ever. Until fo_cancel_signals_off. */
void fo_cancel_soft_first(struct fo_cancel *soft);

/* Runs every host to its end. Returns 0 when every host was tried (each result is in its
 * fo_host, whatever it is), or a negative code with err set when the run could not start
 * (no threads, libssh2 init). The caller releases each host with fo_host_release(). */
int fanout_run(const struct fanout *f, struct fo_host *hosts, size_t n, char *err,
	       size_t errlen);
void fo_host_release(struct fo_host *h);

const char *fo_status_name(enum fo_status s);

/* The last nlines lines of a host's stderr (a pointer into h->err, "" when none). For
 * nlines 1 it is fo_stderr_line(h): a line that goes into a one-line message. */
const char *fo_stderr_tail(const struct fo_host *h, int nlines);
/* How h's command ended, into the JSON object o: "exit_status" (null when it was
 * killed or never ran) and "signal" (null when none). */
struct cJSON;
void fo_json_end(struct cJSON *o, const struct fo_host *h);

/* A host's stderr as one clean line for a message: its last non-empty line (a remote shell
 * ends "bash: line 2: hcclctl: command not found\n"), without the line end, carriage
 * returns and other control bytes as spaces, blanks squeezed, at most FO_LINE_MAX - 1
 * bytes (the start cut with "..."). "" when stderr is empty. */
const char *fo_stderr_line(const struct fo_host *h);

/* Fills h->err_line from h->err; the fan-out does it when a host ends, before on_done. */
void fo_host_clean_stderr(struct fo_host *h);

/* cmd/exec.c: `hcclctl exec`, registered in cmd/hcclctl.c. */
extern const struct opt exec_opts[];
int cmd_exec(int argc, char **argv);

#endif
