/* A link's byte stream over the transport's socket, the operations every link starts with;
 * and the switch of a link to shared memory (shmlink.c), whose socket then carries only the
 * doorbells, taken here. */
#include <errno.h>

#include "libcomm/internal.h"

static ssize_t sock_send(struct comm *c, struct comm__peer *p, const struct iovec *iov, int cnt)
{
	return c->tp->send(p->fd, iov, cnt);
}

static ssize_t sock_recv(struct comm *c, struct comm__peer *p, void *buf, size_t len)
{
	return c->tp->recv(p->fd, buf, len);
}

static size_t sock_queued(struct comm *c, struct comm__peer *p)
{
	return c->tp->queued ? c->tp->queued(p->fd) : 0;
}

const struct comm__link_ops comm__sock_link = {
	.name = "tcp",
	.send = sock_send,
	.recv = sock_recv,
	.queued = sock_queued,
};

void comm__link_use(struct comm *c, int r, struct comm__shm *s)
{
	c->peers[r].shm = s;
	c->peers[r].link = s ? &comm__ring_link : &comm__sock_link;
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
