/* Shared memory between two ranks of one host: whether a link gets it, and its segment.
 *
 * Same host means the same kernel (boot id) and the same network and pid namespaces (the
 * inodes of /proc/self/ns/net and /pid): ranks in different network namespaces of one
 * machine stand for different hosts (the cluster tests, the shaped-link benches), and only
 * in one pid namespace does the other's pid name it in our /proc. The connecting rank offers
 * a segment in the same write as its proof of the secret: a memfd (never a name in /dev/shm,
 * so a crash of any rank leaves nothing behind) holding one byte ring per direction. The
 * accepting rank, if the identities match, opens it through /proc/<pid>/fd/<n> (a read-mode
 * ptrace check: same uid, allowed under Yama's ptrace_scope 1), maps it, closes its copy of
 * the descriptor and answers with its proof; the offering rank closes its own on the
 * answer, so after the handshake only the two mappings hold the memory. The TCP connection
 * stays: the handshake ran on it, it gives EOF or RST when the other process dies, and it
 * carries the doorbells (link.c). Whatever fails, the link stays TCP and says why.
 *
 * Capacity: COMM__SHM_RING per direction, at least twice what the TCP socket guarantees
 * (ctx->send_ahead, at most a quarter of twice COMM__SOCKBUF), so the ring's chunking
 * computed from the listening socket stays deadlock-free over shared memory too.
 *
 * Two copies (into the ring, out of it) against one (process_vm_readv of the sender's buffer
 * by the receiver), measured with bench/shmcopy.c on this machine (2 vCPUs, two processes
 * polling, best of 5, GB/s; load average 1.4 from other work):
 *            1 MiB   4 MiB   16 MiB   64 MiB   256 MiB
 *   ring      7.37   10.32     9.43     9.25      8.21
 *   cma      12.46   10.16     6.32     4.71      4.34
 *   memcpy   19.04   13.25     9.21     7.55      9.94
 * The ring is kept: from 4 MiB on it is as fast or faster (cma pins and walks the other
 * process's pages, and one core does all of it while the sender idles; the ring's two copies
 * run on two cores at once), and a ring send completes when its bytes are in the ring, as a
 * socket send does, so ring.c's sends ahead of receives and its reuse of a sent buffer
 * (acc_fixed) hold unchanged; with cma a send would end only when the receiver has read it,
 * which those rely on not happening. Under load the ring needs both processes to run at
 * once: with other work on both cores (load 5) it fell to 0.4-2.6 GB/s against cma's 3-12. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcomm/internal.h"
#include "ranktable/base/bigmem.h"
#include "ranktable/base/hex.h"

#define CTL_AREA 4096 /* both rings' control blocks, then the data of ring 0 and ring 1 */
#define LINES_AT 1024 /* in the control area: both directions' lines (shmline.h) */
_Static_assert(COMM__SHM_RING >= COMM__SOCKBUF, "the ring guarantees the socket's send-ahead");
_Static_assert((COMM__SHM_RING & (COMM__SHM_RING - 1)) == 0, "ring capacity is a power of two");
_Static_assert(2 * sizeof(struct comm__ring_ctl) <= LINES_AT, "control blocks fit");
_Static_assert(LINES_AT + 2 * sizeof(struct comm__lines) <= CTL_AREA, "lines fit");

static const struct {
	const char *name;
} modes[COMM__TP_MODE_END] = { { "auto" }, { "tcp" }, { "shm" } };

/* Why a link is what it is, as -v says it (SETUP and MAP add the errno). */
static const char *const whys[COMM__WHY_END] = {
	[COMM__WHY_SHM] = "shared memory",
	[COMM__WHY_FORCED] = "HCCLCTL_TRANSPORT=tcp",
	[COMM__WHY_BOOT] = "another host (kernel boot id)",
	[COMM__WHY_NETNS] = "another network namespace",
	[COMM__WHY_PIDNS] = "another pid namespace",
	[COMM__WHY_NOID] = "cannot tell whether it shares the host (boot id or namespaces unreadable)",
	[COMM__WHY_SETUP] = "cannot create the shared memory segment",
	[COMM__WHY_MAP] = "cannot map the other rank's shared memory segment",
};

int comm__tmode_parse(const char *s, char *err, size_t errlen)
{
	if (!s || !*s)
		return COMM__TP_AUTO;
	for (int m = 0; m < COMM__TP_MODE_END; m++)
		if (!strcmp(s, modes[m].name))
			return m;
	return comm__errf(err, errlen, COMM_E_INVAL,
			  "init: HCCLCTL_TRANSPORT='%s' is not one of auto, tcp, shm", s);
}

void comm__tp_why_text(int why, int e, char *buf, size_t len)
{
	const char *w = why >= 0 && why < COMM__WHY_END ? whys[why] : "?";
	if (why == COMM__WHY_SETUP || why == COMM__WHY_MAP)
		snprintf(buf, len, "%s: %s", w, strerror(e));
	else
		snprintf(buf, len, "%s", w);
}

struct ident {
	bool ok;
	unsigned char boot[16];
	uint64_t netns, pidns;
};
static struct ident me;
static pthread_once_t me_once = PTHREAD_ONCE_INIT;

static void read_ident(void)
{
	char b[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!f)
		return;
	bool got = fgets(b, sizeof(b), f) != NULL;
	fclose(f);
	size_t k = 0;
	for (const char *p = b; got && *p && *p != '\n' && k < 32; p++) {
		if (*p == '-')
			continue;
		int v = hex_val(*p);
		if (v < 0)
			return;
		me.boot[k / 2] = (unsigned char)(me.boot[k / 2] << 4 | v);
		k++;
	}
	struct stat sn, sp;
	if (k != 32 || stat("/proc/self/ns/net", &sn) || stat("/proc/self/ns/pid", &sp))
		return;
	me.netns = (uint64_t)sn.st_ino;
	me.pidns = (uint64_t)sp.st_ino;
	me.ok = true;
}

static size_t seg_len(void)
{
	return CTL_AREA + 2 * (size_t)COMM__SHM_RING;
}

/* The mapping as seen by one end: the connecting rank writes ring 0 and reads ring 1. */
static struct comm__shm *shm_of(void *map, size_t len, bool connecting)
{
	struct comm__shm *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	unsigned char *b = map;
	struct comm__ring_ctl *ctl = map;
	s->map = map;
	s->len = len;
	int tx = connecting ? 0 : 1;
	comm__ring_init(&s->tx, &ctl[tx], b + CTL_AREA + (size_t)tx * COMM__SHM_RING,
			COMM__SHM_RING);
	comm__ring_init(&s->rx, &ctl[1 - tx], b + CTL_AREA + (size_t)(1 - tx) * COMM__SHM_RING,
			COMM__SHM_RING);
	struct comm__lines *lines = (struct comm__lines *)(b + LINES_AT);
	s->ltx = &lines[tx];
	s->lrx = &lines[1 - tx];
	return s;
}

void comm__shm_free(struct comm__shm *s)
{
	if (!s)
		return;
	munmap(s->map, s->len);
	free(s);
}

void comm__shm_prep_release(struct comm__shm_prep *pp)
{
	if (pp->map)
		munmap(pp->map, pp->len);
	if (pp->fd >= 0)
		close(pp->fd);
	pp->map = NULL;
	pp->fd = -1;
}

/* Few ranks on this host (a server's 8): their rings are faulted in when mapped. A ring's
 * pages are otherwise first touched by the stream itself, one page fault per 4 KiB on each
 * side during the first 4 MiB a link carries, which is a job's first collectives (an
 * allgather of 128 KiB at 2 ranks: 70 us a call with 5 warm-up calls, 35 with 40). Many
 * ranks on one host keep the lazy way: a segment for each of their links, all of them
 * resident, would be more memory than the rings ever fill. An old kernel refuses the
 * advice, and the pages come on touch as before. */
#define POPULATE_MAX_HERE 16

static void populate(const struct comm *c, void *map, size_t len)
{
	int here = 1;
	for (int r = 0; r < c->nranks && here <= POPULATE_MAX_HERE; r++)
		here += r != c->rank && !strcmp(c->peers[r].host, c->host);
	if (here <= POPULATE_MAX_HERE)
		big_populate(map, len);
}

void comm__shm_offer(struct comm *c, struct comm__shm_prep *pp, struct comm__shm_hello *o)
{
	memset(o, 0, sizeof(*o));
	pp->fd = -1;
	pp->map = NULL;
	pp->len = seg_len();
	o->kind = COMM__SHM_NONE;
	o->mode = (uint8_t)c->tmode;
	pthread_once(&me_once, read_ident);
	if (c->tmode == COMM__TP_TCP) {
		o->why = COMM__WHY_FORCED;
		return;
	}
	if (!me.ok) {
		o->why = COMM__WHY_NOID;
		return;
	}
	memcpy(o->boot, me.boot, sizeof(o->boot));
	o->netns = me.netns;
	o->pidns = me.pidns;
	pp->fd = memfd_create("hcclctl-link", MFD_CLOEXEC);
	if (pp->fd < 0 || ftruncate(pp->fd, (off_t)pp->len)) {
		o->why = COMM__WHY_SETUP;
		o->err = errno;
		comm__shm_prep_release(pp);
		return;
	}
	pp->map = mmap(NULL, pp->len, PROT_READ | PROT_WRITE, MAP_SHARED, pp->fd, 0);
	if (pp->map == MAP_FAILED) {
		pp->map = NULL;
		o->why = COMM__WHY_SETUP;
		o->err = errno;
		comm__shm_prep_release(pp);
		return;
	}
	populate(c, pp->map, pp->len);
	o->kind = COMM__SHM_OFFER;
	o->pid = (uint32_t)getpid();
	o->fd = (uint32_t)pp->fd;
	o->size = pp->len;
}

/* The same host as the offer, or why not. */
static int same_host(const struct comm__shm_hello *o)
{
	if (memcmp(o->boot, me.boot, sizeof(me.boot)))
		return COMM__WHY_BOOT;
	if (o->netns != me.netns)
		return COMM__WHY_NETNS;
	if (o->pidns != me.pidns)
		return COMM__WHY_PIDNS;
	return COMM__WHY_SHM;
}

void comm__shm_answer(struct comm *c, const struct comm__shm_hello *o, struct comm__shm **out,
		      struct comm__shm_hello *a)
{
	memset(a, 0, sizeof(*a));
	*out = NULL;
	a->kind = COMM__SHM_ANSWER;
	a->mode = (uint8_t)c->tmode;
	pthread_once(&me_once, read_ident);
	if (o->kind != COMM__SHM_OFFER) {
		/* its own reason (tcp forced there, no identity, no segment) */
		a->why = o->why;
		a->err = o->err;
		if (o->why == COMM__WHY_SHM)
			a->why = COMM__WHY_FORCED;
		return;
	}
	if (c->tmode == COMM__TP_TCP) {
		a->why = COMM__WHY_FORCED;
		return;
	}
	if (!me.ok) {
		a->why = COMM__WHY_NOID;
		return;
	}
	a->why = (uint8_t)same_host(o);
	if (a->why != COMM__WHY_SHM)
		return;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%u/fd/%u", o->pid, o->fd);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	struct stat st;
	void *map = MAP_FAILED;
	int e = 0;
	if (fd < 0)
		e = errno;
	else if (fstat(fd, &st))
		e = errno;
	else if (o->size != seg_len() || (uint64_t)st.st_size != o->size)
		e = EINVAL; /* not the segment this build lays out */
	else if ((map = mmap(NULL, seg_len(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
		 MAP_FAILED)
		e = errno;
	if (fd >= 0)
		close(fd);
	if (!e)
		populate(c, map, seg_len());
	if (!e && !(*out = shm_of(map, seg_len(), false)))
		e = ENOMEM;
	if (e) {
		if (map != MAP_FAILED && !*out)
			munmap(map, seg_len());
		a->why = COMM__WHY_MAP;
		a->err = e;
	}
}

int comm__shm_refused(const struct comm *c, int other_mode, int w, int e, int r, char *why,
		      size_t whylen)
{
	bool demanded = c->tmode == COMM__TP_SHM || other_mode == COMM__TP_SHM;
	/* another host is TCP whatever was asked; on this host shm was asked and failed */
	if (!demanded || w == COMM__WHY_SHM || w == COMM__WHY_BOOT || w == COMM__WHY_NETNS ||
	    w == COMM__WHY_PIDNS)
		return 0;
	char t[COMM_ERRLEN / 2];
	comm__tp_why_text(w, e, t, sizeof(t));
	return comm__errf(why, whylen, COMM_E_SYS,
			  "HCCLCTL_TRANSPORT=shm but the link to rank %d cannot be shared memory: %s",
			  r, t);
}

int comm__shm_accepted(struct comm *c, struct comm__shm_prep *pp, const struct comm__shm_hello *a,
		       int r, struct comm__shm **out, char *why, size_t whylen)
{
	*out = NULL;
	if (a->why == COMM__WHY_SHM) {
		/* the other end uses the segment now: this one must too */
		*out = pp->map ? shm_of(pp->map, pp->len, true) : NULL;
		if (!*out) {
			comm__shm_prep_release(pp);
			return comm__errf(why, whylen, COMM_E_NOMEM,
					  "out of memory for the shared memory link to rank %d", r);
		}
		pp->map = NULL; /* the link owns the mapping now */
		comm__shm_prep_release(pp);
		c->peers[r].tp_why = COMM__WHY_SHM;
		c->peers[r].tp_err = 0;
		return 0;
	}
	int w = a->why, e = a->err;
	comm__shm_prep_release(pp);
	int rc = comm__shm_refused(c, a->mode, w, e, r, why, whylen);
	if (rc)
		return rc;
	c->peers[r].tp_why = (uint8_t)w;
	c->peers[r].tp_err = e;
	return 0;
}
