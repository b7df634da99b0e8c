/* The parallel runner: a fixed pool of threads takes hosts from a shared index, one SSH
 * session each at a time. Threads rather than one poll loop because every step of a
 * libssh2 session (handshake, auth, exec) is a chain of calls that reads naturally as
 * straight-line code; the deadlines live in ssh.c, so a stuck host costs one thread for
 * at most its timeouts, never the run. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/lib/fanout.h"
#include "ranktable/base/clock.h"

#define DEFAULT_PARALLEL 32

struct run {
	const struct fanout *f;
	struct fo_host *hosts;
	size_t n, next, done, ok;
	int tty, connecting;
	pthread_mutex_t mu;
	pthread_cond_t slot; /* a connect slot was freed */
};

struct host_ctx {
	struct run *r;
	struct fo_host *h;
};

const char *fo_status_name(enum fo_status s)
{
	switch (s) {
	case FO_OK: return "ok";
	case FO_FAILED: return "failed";
	case FO_UNREACHABLE: return "unreachable";
	case FO_TIMEOUT: return "timeout";
	case FO_CANCELED: return "cancelled";
	case FO_NOSTART: return "cannot-start";
	case FO_PENDING: break;
	}
	return "pending";
}

const char *fo_stderr_line(const struct fo_host *h)
{
	return h->err_line;
}

void fo_host_clean_stderr(struct fo_host *h)
{
	const char *p = h->err.p;
	size_t end = p ? h->err.len : 0, beg;
	char *o = h->err_line;
	size_t n = 0;

	o[0] = '\0';
	/* the last line with something on it: CR and LF both end lines */
	for (;;) {
		while (end > 0 && (unsigned char)p[end - 1] <= ' ')
			end--;
		if (!end)
			return;
		beg = end;
		while (beg > 0 && p[beg - 1] != '\n' && p[beg - 1] != '\r')
			beg--;
		while (beg < end && (unsigned char)p[beg] <= ' ')
			beg++;
		if (beg < end)
			break;
		end = beg;
	}
	if (end - beg > FO_LINE_MAX - 1) {
		memcpy(o, "...", 3);
		n = 3;
		beg = end - (FO_LINE_MAX - 1 - 3);
	}
	for (size_t i = beg; i < end && n < FO_LINE_MAX - 1; i++) {
		unsigned char ch = (unsigned char)p[i];
		if (ch < ' ' || ch == 0x7f)
			ch = ' ';
		if (ch == ' ' && n && o[n - 1] == ' ')
			continue;
		o[n++] = (char)ch;
	}
	o[n] = '\0';
}

const char *fo_stderr_tail(const struct fo_host *h, int nlines)
{
	const char *p = h->err.p;
	if (nlines == 1)
		return fo_stderr_line(h);
	if (!p || !h->err.len || nlines <= 0)
		return "";
	size_t i = h->err.len;
	if (p[i - 1] == '\n')
		i--; /* the last line's own newline does not start another line */
	while (i > 0) {
		if (p[i - 1] == '\n' && --nlines == 0)
			break;
		i--;
	}
	return p + i;
}

void fo_host_release(struct fo_host *h)
{
	free(h->out.p);
	free(h->err.p);
	memset(&h->out, 0, sizeof(h->out));
	memset(&h->err, 0, sizeof(h->err));
	h->err_line[0] = '\0';
}

int fo_cancel_init(struct fo_cancel *c)
{
	c->fd[0] = c->fd[1] = -1;
	if (pipe2(c->fd, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	/* fd 0 would read as "no cancel" in ssh_opts: move it */
	if (c->fd[0] == 0) {
		int nfd = fcntl(0, F_DUPFD_CLOEXEC, 3);
		if (nfd < 0)
			return -errno;
		close(0);
		c->fd[0] = nfd;
	}
	return 0;
}

void fo_cancel_fire(struct fo_cancel *c)
{
	/* a closed write end makes the read end readable for good (EOF); the exchange keeps
	 * a signal handler and a thread from closing it twice */
	int fd = __atomic_exchange_n(&c->fd[1], -1, __ATOMIC_SEQ_CST);
	if (fd >= 0)
		close(fd);
}

int fo_cancel_fired(const struct fo_cancel *c)
{
	struct pollfd p = { .fd = c->fd[0], .events = POLLIN };
	return c->fd[0] >= 0 && poll(&p, 1, 0) > 0;
}

void fo_cancel_release(struct fo_cancel *c)
{
	for (int i = 0; i < 2; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	c->fd[0] = c->fd[1] = -1;
}

static int cancelled(const struct fanout *f)
{
	struct pollfd p = { .fd = f->ssh.cancel_fd, .events = POLLIN };
	return f->ssh.cancel_fd > 0 && poll(&p, 1, 0) > 0;
}

static void on_line(void *arg, int stream, const char *line, size_t len)
{
	struct host_ctx *hc = arg;
	pthread_mutex_lock(&hc->r->mu);
	hc->r->f->on_line(hc->r->f->arg, hc->h, stream, line, len);
	pthread_mutex_unlock(&hc->r->mu);
}

static void run_host(struct run *r, struct fo_host *h)
{
	const struct fanout *f = r->f;
	struct host_ctx hc = { .r = r, .h = h };
	h->err_line[0] = '\0';
	struct ssh_conn c;
	long long t0 = mono_ms();
	int rc;

	h->exit_status = -1;
	if (f->connect_parallel > 0) {
		pthread_mutex_lock(&r->mu);
		while (r->connecting >= f->connect_parallel)
			pthread_cond_wait(&r->slot, &r->mu);
		r->connecting++;
		pthread_mutex_unlock(&r->mu);
	}
	if (cancelled(f)) {
		rc = -ECANCELED;
		snprintf(h->error, sizeof(h->error), "%s: cancelled before the connect", h->host);
	} else {
		rc = ssh_conn_open(&c, h->host, &f->ssh,
				   f->connect_timeout_ms ? t0 + f->connect_timeout_ms : 0, h->error,
				   sizeof(h->error));
	}
	if (f->connect_parallel > 0) {
		pthread_mutex_lock(&r->mu);
		r->connecting--;
		pthread_cond_signal(&r->slot);
		pthread_mutex_unlock(&r->mu);
	}
	if (rc) {
		h->code = rc;
		h->status = rc == -ETIMEDOUT ? FO_TIMEOUT :
			    rc == -ECANCELED ? FO_CANCELED : FO_UNREACHABLE;
		goto out;
	}
	h->connected = 1;
	if (f->prepare && (rc = f->prepare(f->prepare_arg, h, &c, h->error, sizeof(h->error)))) {
		h->code = rc;
		h->status = rc == -ETIMEDOUT ? FO_TIMEOUT :
			    rc == -ECANCELED ? FO_CANCELED : FO_NOSTART;
		ssh_conn_close(&c);
		goto out;
	}
	struct ssh_exec x = {
		.cmd = h->cmd ? h->cmd : f->cmd,
		.deadline = f->cmd_timeout_ms ? mono_ms() + f->cmd_timeout_ms : 0,
		.cap = f->cap,
		.kill_on_timeout = 1,
		.input = f->input,
		.input_len = f->input_len,
		.keep_stdin = f->keep_stdin,
		.interrupt_fd = f->interrupt_fd,
		.interrupt = f->interrupt,
		.interrupt_len = f->interrupt_len,
		.keepalive_s = f->keepalive_s,
		.on_line = f->on_line ? on_line : NULL,
		.arg = &hc,
	};
	rc = ssh_conn_exec(&c, &x, h->error, sizeof(h->error));
	h->out = x.out; /* h owns the buffers from here */
	h->err = x.err;
	fo_host_clean_stderr(h);
	h->code = rc;
	h->exit_status = x.exit_status;
	memcpy(h->signal, x.signal, sizeof(h->signal));
	if (rc == 0)
		h->status = x.exit_status == 0 && !x.signal[0] ? FO_OK : FO_FAILED;
	else
		h->status = rc == -ETIMEDOUT ? FO_TIMEOUT :
			    rc == -ECANCELED ? FO_CANCELED : FO_UNREACHABLE;
	ssh_conn_close(&c);
out:
	h->seconds = (double)(mono_ms() - t0) / 1000.0;
}

static void progress(struct run *r)
{
	if (!r->tty)
		return;
	fprintf(stderr, "\r[%zu/%zu] ok %zu, failed %zu\033[K", r->done, r->n, r->ok,
		r->done - r->ok);
	if (r->done == r->n)
		fputs("\r\033[K", stderr); /* leave the terminal clean for the report */
	fflush(stderr);
}

static void *worker(void *arg)
{
	struct run *r = arg;
	for (;;) {
		pthread_mutex_lock(&r->mu);
		size_t i = r->next < r->n ? r->next++ : r->n;
		pthread_mutex_unlock(&r->mu);
		if (i == r->n)
			break;
		run_host(r, &r->hosts[i]);
		pthread_mutex_lock(&r->mu);
		r->done++;
		if (r->hosts[i].status == FO_OK)
			r->ok++;
		if (r->f->on_done)
			r->f->on_done(r->f->arg, &r->hosts[i]);
		progress(r);
		pthread_mutex_unlock(&r->mu);
	}
	return NULL;
}

int fanout_run(const struct fanout *f, struct fo_host *hosts, size_t n, char *err,
	       size_t errlen)
{
	struct run r = { .f = f, .hosts = hosts, .n = n };
	size_t want = f->parallel > 0 ? (size_t)f->parallel : DEFAULT_PARALLEL, started = 0;
	pthread_t *tids = NULL;
	int rc;

	rc = ssh_global_init(err, errlen);
	if (rc)
		return rc;
	if (n == 0)
		return 0;
	if (want > n)
		want = n;
	r.tty = f->progress && isatty(2);
	tids = calloc(want, sizeof(*tids));
	if (!tids) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.slot, NULL);
	for (size_t i = 0; i < want; i++) {
		/* fewer threads than asked is slower, not wrong: stop at the first refusal */
		int e = pthread_create(&tids[i], NULL, worker, &r);
		if (e) {
			if (!started)
				snprintf(err, errlen, "cannot start a thread: %s", strerror(e));
			break;
		}
		started++;
	}
	if (!started) {
		rc = -EAGAIN;
		goto out;
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
out:
	pthread_cond_destroy(&r.slot);
	pthread_mutex_destroy(&r.mu);
	free(tids);
	return rc;
}

static struct fo_cancel *sig_cancel, *sig_soft;
static volatile sig_atomic_t sig_caught, soft_used;
static struct sigaction sig_old[3];
static const int sig_list[3] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	if (sig == SIGINT && sig_soft && !soft_used) {
		soft_used = 1;
		fo_cancel_fire(sig_soft);
		return;
	}
	sig_caught = sig;
	if (sig_cancel)
		fo_cancel_fire(sig_cancel);
}

void fo_cancel_soft_first(struct fo_cancel *soft)
{
	soft_used = 0;
	sig_soft = soft;
}

void fo_cancel_on_signals(struct fo_cancel *c, int restart)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = restart ? SA_RESTART : 0 };
	sigemptyset(&sa.sa_mask);
	sig_caught = 0;
	sig_cancel = c;
	for (int i = 0; i < 3; i++)
		sigaction(sig_list[i], &sa, &sig_old[i]);
}

void fo_cancel_signals_off(void)
{
	for (int i = 0; i < 3; i++)
		sigaction(sig_list[i], &sig_old[i], NULL);
	sig_cancel = NULL;
	sig_soft = NULL;
}

int fo_signal_caught(void)
{
	return sig_caught;
}

void fo_json_end(cJSON *o, const struct fo_host *h)
{
	if (h->exit_status >= 0 && !h->signal[0])
		cJSON_AddNumberToObject(o, "exit_status", h->exit_status);
	else
		cJSON_AddNullToObject(o, "exit_status");
	if (h->signal[0])
		cJSON_AddStringToObject(o, "signal", h->signal);
	else
		cJSON_AddNullToObject(o, "signal");
}
