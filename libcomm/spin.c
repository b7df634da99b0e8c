/* How a step waits for its peers: it polls a while before it sleeps where polling pays (small
 * steps, shared-memory rings), and earns or loses the right to poll by whether polling found
 * the peers in time. Over rings only it sleeps on the rings' own flags (futex_waitv), woken by
 * the rank that moves bytes; else in epoll_wait, a ring woken by a doorbell on its socket. */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "ranktable/base/env.h"

/* A small step polls for up to SPIN_US (HCCLCTL_SPIN_US: 0 sleeps at once) before it sleeps:
 * waking a sleeping process costs tens of microseconds on a VM (an idle core's wake-up), as
 * much as the message itself (8-byte ping-pong one way: 13 us best, 60 us median through
 * epoll). Large steps over TCP sleep at once: their wait is the link, and the cores are
 * better left to TCP.
 *
 * Over TCP it keeps the core while it polls, unless more ranks share this host (same name or
 * address) than it has CPUs: then it yields between polls, or the peer would not get the
 * core it needs to answer (8-byte allreduce, 8 ranks on 2 cores: 475 us keeping it, 248
 * yielding). Where each rank has a core, yielding loses it to any busy process for a time
 * slice (N=2, a busy loop on each core: 1760 us yielding, 34-45 us keeping it; Open MPI
 * 33-44). */
#define SPIN_US 250
#define SPIN_US_MAX 1000000
#define SPIN_MAX_BYTES (64 << 10)
/* Over shared memory a step of any size polls: its wait is the other rank's memcpy, not a
 * link. The rings are polled without a system call; the epoll set (sockets, the verdict
 * pipe, the listener) only every SHM_POLL_US while polling. */
#define SHM_POLL_US 20
/* ... and keeps the core for its first SHM_KEEP_US, yielding between polls after that (and
 * from the start where ranks share the cores), then sleeps on the rings' flags. Measured
 * with 8-byte allreduce, us per call, median of 5 launches, 2 vCPUs (bench/local.sh):
 *                                       N=2    N=4    N=8   N=2, two busy loops
 *   yield at once, sleep in epoll_wait  2.4   20.2   64.9   95.2
 *   keep SHM_KEEP_US, sleep on futex    1.5   15.6   68.0    1.5
 *   keep the core throughout            1.7      -      -   50.0
 *   shared cores: 5 us, then futex        -   56.4  143.4      -
 * Sleeping early where ranks share the cores loses (a sleeping rank's wake-up costs more on
 * a VM than the yields that let the others run); yielding at once where each has a core
 * hands the core to any busy process; keeping it throughout starves a peer under load. */
#define SHM_KEEP_US 20
/* Polling stops paying when the peers are slow to answer (a fault, loss, a busy machine):
 * each wait that polled in vain costs a credit, each that polled in time earns one back;
 * without credit a communicator sleeps at once, and tries polling again after SPIN_REST
 * small steps. */
#define SPIN_CREDIT_MAX 8
#define SPIN_REST 64

/* Before sleeping: every shared-memory link says it sleeps, and how (reads, and sends where
 * some wait for room); true when one moved meanwhile, and then nobody sleeps. */
static bool arm_links(struct comm *c, unsigned how)
{
	bool moved = false;
	for (int r = 0; r < c->nranks && !moved; r++) {
		struct comm__peer *p = &c->peers[r];
		if (p->link->rings && p->in_ep)
			moved = p->link->arm(p, p->scur >= 0 || comm__ctl_left(c, p), how);
	}
	return moved;
}

static void awake_links(struct comm *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (c->peers[r].link->rings && c->peers[r].in_ep)
			c->peers[r].link->awake(&c->peers[r]);
}

/* Whether a sleep can be on the rings' flags alone: every link a ring (a socket's bytes wake
 * no futex) and one at least (else nothing would wake it before the slice ends, and a sleep
 * of none returns at once), no handshake in flight (their deadlines are epoll's), no more
 * flags (two a ring) than one wait takes. */
static bool rings_only(const struct comm *c)
{
	int rings = 0;
	if (c->no_waitv || c->nhs)
		return false;
	for (int r = 0; r < c->nranks; r++) {
		if (!c->peers[r].in_ep)
			continue;
		if (!c->peers[r].link->rings)
			return false;
		rings++;
	}
	return rings > 0 && rings <= FUTEX_WAITV_MAX / 2;
}

/* Sleeps on the armed rings' flags until one is woken or up to left ms (at most a slice). */
static void sleep_on_rings(struct comm *c, int64_t left)
{
	struct futex_waitv w[FUTEX_WAITV_MAX];
	unsigned n = 0;
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		_Atomic uint32_t *flags[2];
		if (!p->link->rings || !p->in_ep)
			continue;
		int k = p->link->sleep_on(p, p->scur >= 0 || comm__ctl_left(c, p), flags);
		for (int i = 0; i < k; i++)
			w[n++] = (struct futex_waitv){ .val = COMM__RING_FUTEX,
						       .uaddr = (uintptr_t)flags[i],
						       .flags = FUTEX_32 };
	}
	comm__futex_sleep(c, w, n, left);
}

void comm__futex_sleep(struct comm *c, struct futex_waitv *w, unsigned n, int64_t left)
{
	struct timespec ts; /* futex_waitv's timeout is a point on the clock it names */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t ms = left < COMM__FUTEX_SLICE_MS ? (left > 0 ? left : 0) : COMM__FUTEX_SLICE_MS;
	int64_t ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + ms * 1000000;
	ts = (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
	/* woken, timed out, or a word already changed (EAGAIN): all mean look again */
	if (syscall(SYS_futex_waitv, w, n, 0, &ts, CLOCK_MONOTONIC) < 0 && errno == ENOSYS)
		c->no_waitv = true;
}

void comm__spin_init(struct comm *c)
{
	c->spin_credit = SPIN_CREDIT_MAX;
}

int comm__spin_config(struct comm *c, char *err, size_t errlen)
{
	long us = env_whole("HCCLCTL_SPIN_US", SPIN_US, 0, SPIN_US_MAX);
	if (us < 0)
		return comm__errf(err, errlen, COMM_E_INVAL,
				  "init: HCCLCTL_SPIN_US='%s' is not a whole number of microseconds "
				  "from 0 to %d",
				  getenv("HCCLCTL_SPIN_US"), SPIN_US_MAX);
	c->spin_us = (int)us;
	return 0;
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
	if (c->spin_credit > 0 && c->spin_us > 0)
		sp->end = (sp->start = comm__prof_now()) + (uint64_t)c->spin_us;
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

/* Whether a poll gives the core up now: where ranks share the cores, or past its first
 * SHM_KEEP_US over shared memory (see SHM_KEEP_US). */
static bool yields(const struct comm *c, const struct comm__spin *sp, int64_t now)
{
	return c->shared_cores || (sp->shm && now - sp->start >= SHM_KEEP_US);
}

/* The plan's polling ended with nothing: sleep, and poll less. */
static void polled_in_vain(struct comm *c, struct comm__spin *sp)
{
	c->spin_credit -= 2;
	sp->end = 0;
	sp->spun = false;
}

int comm__spin_next(struct comm *c, struct comm__spin *sp, int64_t now)
{
	if (sp->end && now < sp->end) {
		sp->spun = true;
		if (now >= sp->next_poll) {
			sp->next_poll = now + SHM_POLL_US;
			return COMM__SPIN_POLL;
		}
		return yields(c, sp, now) ? COMM__SPIN_YIELD : COMM__SPIN_RELAX;
	}
	if (sp->end)
		polled_in_vain(c, sp);
	return COMM__SPIN_SLEEP;
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
		if (yields(c, sp, us))
			sched_yield();
		return COMM__SPIN_AGAIN;
	}
	if (k == 0 && sp->end)
		polled_in_vain(c, sp);
	else if (k > 0 && sp->spun && c->spin_credit < SPIN_CREDIT_MAX)
		c->spin_credit++;
	sp->spun = false;
	bool futex = k == 0 && rings_only(c);
	if (k == 0 && c->nshm && arm_links(c, futex ? COMM__RING_FUTEX : COMM__RING_BELL)) {
		awake_links(c);
		return COMM__SPIN_AGAIN;
	}
	if (futex) {
		sleep_on_rings(c, left);
		awake_links(c);
		k = epoll_wait(c->epfd, ev, nev, 0);
		if (k == 0) /* the rings are looked at next, as after a poll */
			k = COMM__SPIN_AGAIN;
	} else if (k == 0) {
		k = epoll_wait(c->epfd, ev, nev, left > 1000000 ? 1000000 : (int)left);
	}
	if (c->nshm)
		awake_links(c);
	if (c->profile)
		comm__prof_wait(c, tw, atomic_load_explicit(&c->live.peer, memory_order_relaxed));
	return k;
}
