/* How a step waits for its peers: it polls a while before it sleeps in epoll_wait where
 * polling pays (small steps, shared-memory rings), yields the core where ranks share it, and
 * earns or loses the right to poll by whether polling found the peers in time. */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/epoll.h>

#include "libcomm/internal.h"

/* A small step polls for up to SPIN_US before it sleeps in epoll_wait: waking a sleeping
 * process costs tens of microseconds on a VM (an idle core's wake-up), as much as the
 * message itself (8-byte ping-pong one way: 13 us best, 60 us median through epoll). Large
 * steps sleep at once: their wait is the link, and the cores are better left to TCP.
 *
 * It keeps the core while it polls, unless more ranks share this host (same name or
 * address) than it has CPUs: then it yields between polls, or the peer would not get the
 * core it needs to answer (8-byte allreduce, 8 ranks on 2 cores: 475 us keeping it, 248
 * yielding). Where each rank has a core, yielding loses it to any busy process for a time
 * slice (N=2, a busy loop on each core: 1760 us yielding, 34-45 us keeping it; Open MPI
 * 33-44). */
#define SPIN_US 250
#define SPIN_MAX_BYTES (64 << 10)
/* Over shared memory a step of any size polls: its wait is the other rank's memcpy, not a
 * link. The rings are polled without a system call; the epoll set (sockets, the verdict
 * pipe, the listener) only every SHM_POLL_US while polling. */
#define SHM_POLL_US 20
/* ... and yields between polls from SHM_YIELD_US on: the other rank may be waiting for this
 * core (other processes keep the rest busy), and over shared memory nothing but that rank's
 * process moves the bytes. 8-byte allreduce, 2 ranks on 2 cores busy with other work (load
 * 8): 20-25 us keeping the core (its spins time out and it ends up sleeping on every
 * operation), 30 us yielding after 20 us, 3-4 us yielding at once (vader: 0.6). */
#define SHM_YIELD_US 0
/* Polling stops paying when the peers are slow to answer (a fault, loss, a busy machine):
 * each wait that polled in vain costs a credit, each that polled in time earns one back;
 * without credit a communicator sleeps at once, and tries polling again after SPIN_REST
 * small steps. */
#define SPIN_CREDIT_MAX 8
#define SPIN_REST 64

/* Before sleeping: every shared-memory link says it sleeps (reads, and sends where some wait
 * for room); true when one moved meanwhile, and then nobody sleeps. */
static bool arm_links(struct comm *c)
{
	bool moved = false;
	for (int r = 0; r < c->nranks && !moved; r++) {
		struct comm__peer *p = &c->peers[r];
		if (p->link->rings && p->in_ep)
			moved = p->link->arm(p, p->scur >= 0 || comm__ctl_left(c, p));
	}
	return moved;
}

static void awake_links(struct comm *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (c->peers[r].link->rings && c->peers[r].in_ep)
			c->peers[r].link->awake(&c->peers[r]);
}

void comm__spin_init(struct comm *c)
{
	c->spin_credit = SPIN_CREDIT_MAX;
}

void comm__spin_plan(struct comm *c, size_t bytes, bool shm, bool all_shm, struct comm__spin *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->shm = shm;
	if (bytes > SPIN_MAX_BYTES && !shm)
		return;
	if (c->spin_credit <= 0 && ++c->spin_rest >= SPIN_REST) {
		c->spin_credit = 1;
		c->spin_rest = 0;
	}
	if (c->spin_credit > 0)
		sp->end = (sp->start = comm__prof_now()) + SPIN_US;
	/* rings only: their sockets (doorbells, EOF, the verdict pipe) wait for the first
	 * SHM_POLL_US, as between the later polls */
	if (all_shm && sp->end)
		sp->next_poll = sp->start + SHM_POLL_US;
}

void comm__spin_moved(struct comm *c, struct comm__spin *sp)
{
	if (sp->spun && c->spin_credit < SPIN_CREDIT_MAX)
		c->spin_credit++;
	sp->spun = false;
}

/* Waits up to left ms for events (spinning first while the plan says so): their number,
 * COMM__SPIN_AGAIN, or -1 with errno. */
int comm__spin_wait(struct comm *c, struct comm__spin *sp, struct epoll_event *ev, int nev,
		    int64_t left)
{
	int64_t tw = c->profile ? comm__prof_now() : 0;
	int64_t us = comm__prof_now();
	int k = 0;
	if (!sp->end || us >= sp->end || !c->nshm || us >= sp->next_poll) {
		k = epoll_wait(c->epfd, ev, nev, 0);
		sp->next_poll = us + SHM_POLL_US;
	}
	if (k == 0 && sp->end && us < sp->end) {
		sp->spun = true;
		if (c->shared_cores || (sp->shm && us - sp->start >= SHM_YIELD_US))
			sched_yield();
		return COMM__SPIN_AGAIN;
	}
	if (k == 0 && sp->end) { /* polled in vain: sleep, and poll less */
		c->spin_credit -= 2;
		sp->end = 0;
	} else if (k > 0 && sp->spun && c->spin_credit < SPIN_CREDIT_MAX) {
		c->spin_credit++;
	}
	sp->spun = false;
	if (k == 0 && c->nshm && arm_links(c)) {
		awake_links(c);
		return COMM__SPIN_AGAIN;
	}
	if (k == 0)
		k = epoll_wait(c->epfd, ev, nev, left > 1000000 ? 1000000 : (int)left);
	if (c->nshm)
		awake_links(c);
	if (c->profile)
		comm__prof_wait(c, tw, atomic_load_explicit(&c->live.peer, memory_order_relaxed));
	return k;
}
