/* The parallel runner: a fixed pool of threads takes hosts from a shared index, one SSH
 * session each at a time. Threads rather than one poll loop because every step of a
 * libssh2 session (handshake, auth, exec) is a chain of calls that reads naturally as
 * straight-line code; the deadlines live in ssh.c, so a stuck host costs one thread for
 * at most its timeouts, never the run. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fanout.h"

#define DEFAULT_PARALLEL 32

struct run {
	const struct fanout *f;
	struct fo_host *hosts;
	size_t n, next, done, ok;
	int tty;
	pthread_mutex_t mu;
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
	case FO_PENDING: break;
	}
	return "pending";
}

const char *fo_stderr_tail(const struct fo_host *h, int nlines)
{
	const char *p = h->err.p;
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
	struct ssh_conn c;
	long long t0 = ssh_now_ms();
	int rc;

	h->exit_status = -1;
	rc = ssh_conn_open(&c, h->host, &f->ssh,
			   f->connect_timeout_ms ? t0 + f->connect_timeout_ms : 0, h->error,
			   sizeof(h->error));
	if (rc) {
		h->code = rc;
		h->status = rc == -ETIMEDOUT ? FO_TIMEOUT : FO_UNREACHABLE;
		goto out;
	}
	h->connected = 1;
	struct ssh_exec x = {
		.cmd = h->cmd ? h->cmd : f->cmd,
		.deadline = f->cmd_timeout_ms ? ssh_now_ms() + f->cmd_timeout_ms : 0,
		.cap = f->cap,
		.kill_on_timeout = 1,
		.on_line = f->on_line ? on_line : NULL,
		.arg = &hc,
	};
	rc = ssh_conn_exec(&c, &x, h->error, sizeof(h->error));
	h->out = x.out; /* h owns the buffers from here */
	h->err = x.err;
	h->code = rc;
	h->exit_status = x.exit_status;
	memcpy(h->signal, x.signal, sizeof(h->signal));
	if (rc == 0)
		h->status = x.exit_status == 0 && !x.signal[0] ? FO_OK : FO_FAILED;
	else
		h->status = rc == -ETIMEDOUT ? FO_TIMEOUT : FO_UNREACHABLE;
	ssh_conn_close(&c);
out:
	h->seconds = (double)(ssh_now_ms() - t0) / 1000.0;
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
	pthread_mutex_destroy(&r.mu);
	free(tids);
	return rc;
}
