/* The progress engine's epoll set (progress.c runs it): made when a communicator starts, with
 * the links up then, the status channel's wake pipe and the listening socket of lazy links;
 * a link that comes up later joins it here; released with the communicator. */
#include <errno.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "libcomm/internal.h"

static int epoll_fail(struct comm *c)
{
	return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_SYS,
			  "rank %d (host %s): epoll_ctl: %s", c->rank, c->host, strerror(errno));
}

/* r's connection (fd) is up: into the epoll set, ready both ways until the kernel says not. */
int comm__add_link(struct comm *c, int r, int fd)
{
	struct comm__peer *p = &c->peers[r];
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
				  .data.u32 = (uint32_t)r };
	p->fd = fd;
	p->in_ep = true;
	c->nconn++;
	c->nshm += p->link->rings;
	if (!p->pb && !(p->pb = calloc(1, sizeof(*p->pb))))
		return -ENOMEM;
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	p->rd_ready = p->wr_ready = true;
	return 0;
}

/* Links the connect accepted while it waited (comm__link_connect), not in the set yet. */
int comm__adopt_links(struct comm *c)
{
	if (!c->unadopted)
		return 0;
	c->unadopted = 0;
	for (int r = 0; r < c->rank; r++)
		if (c->peers[r].fd >= 0 && !c->peers[r].in_ep) {
			int e = comm__add_link(c, r, c->peers[r].fd);
			if (e)
				return comm__fail(c, COMM_E_SYS, "link to rank %d: %s", r, strerror(-e));
		}
	return 0;
}

int comm__progress_init(struct comm *c)
{
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epfd < 0)
		return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_SYS,
				  "rank %d (host %s): epoll_create1: %s", c->rank, c->host,
				  strerror(errno));
	/* every socket is tuned alike (the listening one too, whose buffers accepted ones
	 * inherit), so the listening socket says what a link will guarantee before there is
	 * one: the ring's chunking depends on it and must be the same on every rank */
	size_t ahead = c->lfd >= 0 && c->tp->send_ahead ? c->tp->send_ahead(c->lfd) : SIZE_MAX;
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		p->scur = p->rcur = -1;
		if (p->fd < 0)
			continue;
		size_t a = c->tp->send_ahead ? c->tp->send_ahead(p->fd) : 0;
		ahead = a < ahead ? a : ahead;
		int e = comm__add_link(c, r, p->fd);
		if (e)
			return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_SYS,
					  "rank %d (host %s): link to rank %d: %s", c->rank, c->host, r,
					  strerror(-e));
	}
	if (c->watch.wake[0] >= 0) { /* level-triggered: once a verdict is in, it stays */
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = COMM__WAKE_ID };
		if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->watch.wake[0], &ev))
			return epoll_fail(c);
	}
	if (c->lfd >= 0) { /* level-triggered: each wake-up accepts what is pending */
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = COMM__HS_LISTEN };
		if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->lfd, &ev))
			return epoll_fail(c);
	}
	c->ctx.send_ahead = ahead == SIZE_MAX ? 0 : ahead;
	comm__spin_init(c);
	int here = 1; /* ranks on this host: by name, or by address (threads of one process) */
	c->one_host = true; /* by name and address: namespaces of one machine are other hosts */
	for (int r = 0; r < c->nranks; r++) {
		if (r == c->rank)
			continue;
		bool name = !strcmp(c->peers[r].host, c->host);
		bool addr = !strcmp(c->peers[r].addr, c->addr);
		here += name || addr;
		c->one_host = c->one_host && name && addr;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	c->shared_cores = ncpu > 0 && here > ncpu;
	c->xs_cap = (size_t)(2 * c->nranks + 8);
	c->xs = calloc(c->xs_cap, sizeof(*c->xs));
	if (!c->xs)
		return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_NOMEM, "rank %d: out of memory",
				  c->rank);
	return 0;
}

void comm__progress_release(struct comm *c)
{
	if (c->epfd >= 0)
		close(c->epfd);
	c->epfd = -1;
	free(c->xs);
	c->xs = NULL;
	for (int r = 0; r < c->nranks; r++) {
		free(c->peers[r].pb);
		c->peers[r].pb = NULL;
	}
}
