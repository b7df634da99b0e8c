/* A link's byte stream for the engine (progress.c, fail.c): the transport's socket, or for a
 * shared-memory link its two rings (shm.c), behind the same calls and the same meaning of
 * their results, so framing, fingerprints, ABORT and the rule that data for a later step
 * stays queued work unchanged over either. A ring never blocks and costs no system call; a
 * doorbell (one byte on the link's socket) is rung only for a side that said it sleeps. */
#include <errno.h>

#include "libcomm/internal.h"

static void ring_bell(struct comm *c, struct comm__peer *p)
{
	char b = 0;
	struct iovec v = { &b, 1 };
	/* a full socket already holds doorbells enough */
	(void)c->tp->send(p->fd, &v, 1);
}

ssize_t comm__link_send(struct comm *c, struct comm__peer *p, const struct iovec *iov, int cnt)
{
	if (!p->shm)
		return c->tp->send(p->fd, iov, cnt);
	if (p->sock_err)
		return -p->sock_err;
	bool wake;
	size_t k = comm__ring_write(&p->shm->tx, iov, cnt, &wake);
	if (wake)
		ring_bell(c, p);
	if (k)
		return (ssize_t)k;
	/* full and nobody left to empty it: as a send to a closed socket */
	return p->eof ? -EPIPE : -EAGAIN;
}

ssize_t comm__link_recv(struct comm *c, struct comm__peer *p, void *buf, size_t len)
{
	if (!p->shm)
		return c->tp->recv(p->fd, buf, len);
	bool wake;
	size_t k = comm__ring_read(&p->shm->rx, buf, len, &wake);
	if (wake)
		ring_bell(c, p);
	if (k)
		return (ssize_t)k;
	if (p->sock_err)
		return -p->sock_err;
	return p->eof ? 0 : -EAGAIN;
}

size_t comm__link_queued(struct comm *c, struct comm__peer *p)
{
	if (p->shm)
		return comm__ring_used(&p->shm->rx);
	return c->tp->queued ? c->tp->queued(p->fd) : 0;
}

void comm__link_doorbells(struct comm *c, struct comm__peer *p)
{
	char sink[64];
	while (!p->eof && !p->sock_err) {
		ssize_t k = c->tp->recv(p->fd, sink, sizeof(sink));
		if (k == -EAGAIN)
			return;
		if (k == 0)
			p->eof = true;
		else if (k < 0)
			p->sock_err = (int)-k;
	}
}

bool comm__link_arm(struct comm__peer *p, bool sends)
{
	if (comm__ring_reader_arm(&p->shm->rx))
		return true;
	return sends && comm__ring_writer_arm(&p->shm->tx);
}

void comm__link_awake(struct comm__peer *p)
{
	comm__ring_reader_awake(&p->shm->rx);
	comm__ring_writer_awake(&p->shm->tx);
}
