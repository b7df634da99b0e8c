/* A link's byte stream over shared memory: its two rings (shmring.c, mapped by shm.c) behind
 * the same operations as a socket's (link.c), so framing, fingerprints, ABORT and the rule
 * that data for a later step stays queued work unchanged over either. A ring never blocks and
 * costs no system call; a doorbell (one byte on the link's socket) is rung only for a side
 * that said it sleeps. */
#include <errno.h>

#include "libcomm/internal.h"

static void ring_bell(struct comm *c, struct comm__peer *p)
{
	char b = 0;
	struct iovec v = { &b, 1 };
	/* a full socket already holds doorbells enough */
	(void)c->tp->send(p->fd, &v, 1);
}

/* The other side found asleep on flag, woken the way it said it sleeps. */
static void wake(struct comm *c, struct comm__peer *p, unsigned how, _Atomic uint32_t *flag)
{
	if (how == COMM__RING_BELL)
		ring_bell(c, p);
	else if (how == COMM__RING_FUTEX)
		comm__ring_wake(flag);
}

static ssize_t ring_send(struct comm *c, struct comm__peer *p, const struct iovec *iov, int cnt)
{
	if (p->sock_err)
		return -p->sock_err;
	unsigned how;
	size_t k = comm__ring_write(&p->shm->tx, iov, cnt, &how);
	wake(c, p, how, comm__ring_reader_flag(&p->shm->tx));
	if (k)
		return (ssize_t)k;
	/* full and nobody left to empty it: as a send to a closed socket */
	return p->eof ? -EPIPE : -EAGAIN;
}

static ssize_t ring_recv(struct comm *c, struct comm__peer *p, void *buf, size_t len)
{
	unsigned how;
	size_t k = comm__ring_read(&p->shm->rx, buf, len, &how);
	wake(c, p, how, comm__ring_writer_flag(&p->shm->rx));
	if (k)
		return (ssize_t)k;
	if (p->sock_err)
		return -p->sock_err;
	return p->eof ? 0 : -EAGAIN;
}

static size_t ring_queued(struct comm *c, struct comm__peer *p)
{
	(void)c;
	return comm__ring_used(&p->shm->rx);
}

static bool ring_arm(struct comm__peer *p, bool sends, unsigned how)
{
	if (comm__ring_reader_arm(&p->shm->rx, how))
		return true;
	return sends && comm__ring_writer_arm(&p->shm->tx, how);
}

static int ring_sleep_on(struct comm__peer *p, bool sends, _Atomic uint32_t *flags[2])
{
	flags[0] = comm__ring_reader_flag(&p->shm->rx);
	if (!sends)
		return 1;
	flags[1] = comm__ring_writer_flag(&p->shm->tx);
	return 2;
}

static void ring_awake(struct comm__peer *p)
{
	comm__ring_reader_awake(&p->shm->rx);
	comm__ring_writer_awake(&p->shm->tx);
}

const struct comm__link_ops comm__ring_link = {
	.name = "shm",
	.rings = true,
	.send = ring_send,
	.recv = ring_recv,
	.queued = ring_queued,
	.arm = ring_arm,
	.awake = ring_awake,
	.sleep_on = ring_sleep_on,
};
