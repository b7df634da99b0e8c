/* How a rank fails: the first fatal error of a communicator marks it broken, keeps its
 * message (the root cause every rank reports), tells every connected peer with an ABORT and
 * hands the failure to whoever registered for it (the watch, which reports it to the
 * monitor). The engine files (progress, agree, fp, watch) all fail through here and this
 * file calls none of them, so failure has one narrow path and no file calls back into the
 * one that failed. */
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/socket.h>

#include "libcomm/internal.h"

void comm__prefix(const struct comm *c, char *buf, size_t len)
{
	int k = snprintf(buf, len, "rank %d (host %s)", c->rank, c->host);
	if (k < 0 || (size_t)k >= len || c->cur_coll < 0)
		return;
	if (c->cur_coll == COMM_COLL_SEND || c->cur_coll == COMM_COLL_RECV)
		snprintf(buf + k, len - (size_t)k, ": %s #%u %s rank %d",
			 comm__op_display(c->cur_coll), c->cur_seq,
			 c->cur_coll == COMM_COLL_SEND ? "to" : "from", c->cur_peer);
	else if (c->cur_step >= 0)
		snprintf(buf + k, len - (size_t)k, ": %s #%u step %d",
			 comm__op_display(c->cur_coll), c->cur_seq, c->cur_step);
	else
		snprintf(buf + k, len - (size_t)k, ": %s #%u", comm__op_display(c->cur_coll),
			 c->cur_seq);
}

void comm__at_fingerprint(struct comm *c)
{
	c->cur_step = -1;
	atomic_store_explicit(&c->live.step, -1, memory_order_relaxed);
}

/* Best effort, never blocks: a peer whose stream we left inside a frame gets a half-close
 * instead (it sees EOF, fails, and hears the cause from the others or the monitor). */
static void send_abort(struct comm *c)
{
	unsigned char f[COMM__HDR_LEN + COMM__CTRL_MAX];
	size_t len = 0;
	if (comm__status_encode(c->broken, c->root_msg, f + COMM__HDR_LEN, COMM__CTRL_MAX, &len))
		return;
	struct comm__hdr h = {COMM__F_ABORT, c->cur_seq, -1, (uint32_t)c->rank, len};
	comm__hdr_encode(f, &h);
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		if (p->fd < 0 || p->sock_err)
			continue;
		if (!p->midframe) {
			struct iovec iov = {f, COMM__HDR_LEN + len};
			if (comm__link_send(c, p, &iov, 1) == (ssize_t)iov.iov_len)
				continue;
		}
		shutdown(p->fd, SHUT_WR);
		p->midframe = true; /* nothing more may go out on it */
	}
}

static int vfail(struct comm *c, int code, const char *root, const char *fmt, va_list ap)
{
	char pre[COMM_ERRLEN];
	if (c->hint_rank >= 0 && c->hint_rank < c->nranks && comm__fp_owed(c, c->hint_rank))
		comm__at_fingerprint(c);
	comm__prefix(c, pre, sizeof(pre));
	int k = snprintf(c->errbuf, sizeof(c->errbuf), "%s: ", pre);
	if (k > 0 && (size_t)k < sizeof(c->errbuf))
		vsnprintf(c->errbuf + k, sizeof(c->errbuf) - (size_t)k, fmt, ap);
	if (!c->broken) {
		c->broken = code;
		comm__strlcpy(c->root_msg, root ? root : c->errbuf, sizeof(c->root_msg));
		send_abort(c);
		atomic_store_explicit(&c->live.state, COMM__HB_BROKEN, memory_order_relaxed);
		if (c->on_fail)
			c->on_fail(c, code);
	}
	return code;
}

int comm__fail(struct comm *c, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(c, code, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int comm__fail_root(struct comm *c, int code, const char *root, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(c, code, root, fmt, ap);
	va_end(ap);
	return rc;
}
