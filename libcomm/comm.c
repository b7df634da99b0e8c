/* Communicator lifecycle: init from a root-info token (bootstrap, then the links: lazy, or
 * the full mesh with HCCLCTL_CONNECT=full), split
 * into sub-communicators, destroy; configuration from the caller and the environment; the
 * small helpers the engine files share. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "libcomm/internal.h"

/* Seconds from the environment, as milliseconds: 0 when unset, -1 when malformed. */
static int env_ms(const char *name)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return 0;
	char *end;
	errno = 0;
	double s = strtod(v, &end);
	if (errno || *end || !(s > 0) || s > 1e6)
		return -1;
	int ms = (int)(s * 1000.0 + 0.5);
	return ms > 0 ? ms : 1;
}

static int configure(struct comm *c, const struct comm_config *cfg, char *err, size_t errlen)
{
	static const struct {
		const char *env;
		int def_ms;
	} t[2] = { { "HCCLCTL_CONNECT_TIMEOUT", 120000 }, { "HCCLCTL_EXEC_TIMEOUT", 300000 } };
	int given[2] = { cfg->connect_timeout_ms, cfg->exec_timeout_ms }, got[2];
	for (int i = 0; i < 2; i++) {
		if (given[i] < 0)
			return comm__errf(err, errlen, COMM_E_INVAL, "init: negative timeout %d ms",
					  given[i]);
		int e = env_ms(t[i].env);
		if (e < 0)
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "init: %s='%s' is not a positive number of seconds", t[i].env,
					  getenv(t[i].env));
		got[i] = given[i] ? given[i] : e ? e : t[i].def_ms;
	}
	c->connect_timeout_ms = got[0];
	c->exec_timeout_ms = got[1];
	if ((unsigned)cfg->algo >= COMM_ALGO_COUNT)
		return comm__errf(err, errlen, COMM_E_INVAL, "init: algorithm %d out of range",
				  (int)cfg->algo);
	/* HCCLCTL_CONNECT=full: every link in init, the mesh before lazy links (to compare) */
	const char *ec = getenv("HCCLCTL_CONNECT");
	if (ec && *ec && strcmp(ec, "lazy") && strcmp(ec, "full"))
		return comm__errf(err, errlen, COMM_E_INVAL,
				  "init: HCCLCTL_CONNECT='%s' is not one of lazy, full", ec);
	c->lazy = !(ec && !strcmp(ec, "full"));
	int tm = comm__tmode_parse(getenv("HCCLCTL_TRANSPORT"), err, errlen);
	if (tm < 0)
		return tm;
	c->tmode = tm;
	int sc = comm__spin_config(c, err, errlen);
	if (sc < 0)
		return sc;
	c->algo = cfg->algo;
	const char *ea = getenv("HCCLCTL_ALGO");
	if (c->algo == COMM_ALGO_AUTO && ea && *ea) {
		int a = comm_algo_parse(ea);
		if (a < 0)
			return comm__errf(err, errlen, COMM_E_INVAL,
					  "init: HCCLCTL_ALGO='%s' is not one of auto, ring, rhd, mesh",
					  ea);
		c->algo = (enum comm_algo)a;
	}
	char h[COMM__HOST_MAX] = "";
	if (cfg->host)
		comm__strlcpy(h, cfg->host, sizeof(h));
	else if (gethostname(h, sizeof(h) - 1))
		comm__strlcpy(h, "?", sizeof(h));
	h[sizeof(h) - 1] = '\0';
	for (char *p = h; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			*p = '?';
	comm__strlcpy(c->host, h[0] ? h : "?", sizeof(c->host));
	return 0;
}

static struct comm *comm_alloc(int rank, int nranks)
{
	if (nranks < 1)
		return NULL;
	struct comm *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->rank = rank;
	c->nranks = nranks;
	c->epfd = -1;
	c->lfd = -1;
	c->cur_coll = -1;
	c->cur_peer = -1;
	c->tp = &comm__tcp_ops;
	c->peers = calloc((size_t)nranks, sizeof(*c->peers));
	c->fpx = calloc((size_t)nranks, sizeof(*c->fpx));
	c->fps = calloc((size_t)nranks, sizeof(*c->fps));
	c->links = calloc((size_t)nranks, sizeof(*c->links));
	if (!c->peers || !c->fpx || !c->fps || !c->links || comm__flight_init(c)) {
		free(c->peers);
		free(c->fpx);
		free(c->fps);
		free(c->links);
		comm__flight_release(c);
		free(c);
		return NULL;
	}
	for (int r = 0; r < nranks; r++) {
		c->peers[r].fd = -1;
		c->peers[r].link = &comm__sock_link;
	}
	c->watch.fd = c->watch.wake[0] = c->watch.wake[1] = -1;
	c->watch.stop_pipe[0] = c->watch.stop_pipe[1] = -1;
	c->hint_rank = -1;
	atomic_init(&c->live.coll, -1);
	atomic_init(&c->live.step, -1);
	atomic_init(&c->live.peer, -1);
	pthread_mutex_init(&c->watch.mu, NULL);
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	c->ctx.comm = c;
	c->ctx.rank = rank;
	c->ctx.nranks = nranks;
	c->ctx.exchange = comm__ctx_exchange;
	c->ctx.need_scratch = comm__ctx_need_scratch;
	comm__agree_attach(c);
	return c;
}

static void comm_free(struct comm *c)
{
	comm__watch_stop(c); /* first: it reads the data sockets' TCP state */
	pthread_mutex_destroy(&c->watch.mu);
	for (int r = 0; r < c->nranks; r++) {
		if (c->peers[r].fd >= 0)
			c->tp->close(c->peers[r].fd);
		comm__shm_free(c->peers[r].shm);
	}
	comm__hs_release(c);
	if (c->lfd >= 0)
		c->tp->close(c->lfd);
	comm__progress_release(c);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->cv);
	free(c->scratch);
	free(c->peers);
	free(c->fpx);
	free(c->fps);
	free(c->links);
	comm__flight_release(c);
	comm_profile_stop(c);
	free(c);
}

/* Lazy: the peers' addresses, and the listening socket kept (*lfd taken) for the ranks
 * below to connect when they need us. Full: the whole mesh now (*lfd left to the caller). */
static int links(struct comm *c, int *lfd, const struct comm__book_entry *book,
		 int64_t deadline)
{
	int rc = 0;
	if (c->lazy) {
		comm__mesh_book(c, book);
		c->lfd = *lfd;
		*lfd = -1;
	} else {
		rc = comm__mesh_connect(c, *lfd, book, deadline);
	}
	return rc ? rc : comm__progress_init(c);
}

int comm_init(struct comm **out, const struct comm_root_info *ri, const struct comm_config *cfg,
	      char *err, size_t errlen)
{
	struct comm__token t;
	struct comm__book_entry *book = NULL;
	struct comm *c = NULL;
	int rc, bfd = -1, lfd = -1, port = 0;
	char local[COMM__ADDR_MAX], why[COMM_ERRLEN];

	if (!out || !ri || !cfg)
		return comm__errf(err, errlen, COMM_E_INVAL, "init: missing argument");
	*out = NULL;
	if (cfg->nranks < 1 || cfg->nranks > COMM__MAX_RANKS || cfg->rank < 0 ||
	    cfg->rank >= cfg->nranks)
		return comm__errf(err, errlen, COMM_E_INVAL, "init: rank %d of %d out of range",
				  cfg->rank, cfg->nranks);
	if (cfg->digest && strlen(cfg->digest) >= COMM__DIGEST_MAX)
		return comm__errf(err, errlen, COMM_E_INVAL, "init: digest longer than %d",
				  COMM__DIGEST_MAX - 1);
	rc = comm__token_parse(ri->token, &t, err, errlen);
	if (rc)
		return rc;
	if (t.port == 0)
		return comm__errf(err, errlen, COMM_E_INVAL,
				  "init: token has port 0 (start the rendezvous first)");
	c = comm_alloc(cfg->rank, cfg->nranks);
	if (!c)
		return comm__errf(err, errlen, COMM_E_NOMEM, "init: out of memory");
	rc = configure(c, cfg, err, errlen);
	if (rc)
		goto out_comm;
	memcpy(c->secret, t.secret, sizeof(c->secret));
	int64_t deadline = mono_ms() + c->connect_timeout_ms;

	rc = comm__boot_connect(&t, deadline, &bfd, local, sizeof(local), why, sizeof(why));
	if (rc) {
		comm__errf(err, errlen, rc, "rank %d (host %s): %s", c->rank, c->host, why);
		goto out_comm;
	}
	comm__strlcpy(c->addr, cfg->listen_addr ? cfg->listen_addr : local, sizeof(c->addr));
	rc = c->tp->listen(c->addr, &port, &lfd, why, sizeof(why));
	if (rc) {
		rc = comm__errf(err, errlen, COMM_E_SYS, "rank %d (host %s): init: %s", c->rank,
				c->host, why);
		goto out_boot;
	}
	struct comm__hello h = { .version = COMM_PROTOCOL_VERSION, .rank = c->rank,
				 .nranks = c->nranks, .port = (uint16_t)port };
	comm__strlcpy(h.host, c->host, sizeof(h.host));
	comm__strlcpy(h.addr, c->addr, sizeof(h.addr));
	comm__strlcpy(h.digest, cfg->digest ? cfg->digest : "", sizeof(h.digest));
	book = calloc((size_t)c->nranks, sizeof(*book));
	if (!book) {
		rc = comm__errf(err, errlen, COMM_E_NOMEM, "init: out of memory");
		goto out_listen;
	}
	rc = comm__boot_hello(bfd, &h, deadline, &c->id, book, why, sizeof(why));
	if (rc) {
		comm__errf(err, errlen, rc, "rank %d (host %s): %s", c->rank, c->host, why);
		goto out_book;
	}
	/* the hello connection stays open as the status channel; heartbeats start now, so a
	 * rank that dies while the mesh is built is named too */
	rc = comm__watch_start(c, bfd);
	bfd = -1;
	if (rc) {
		comm__errf(err, errlen, rc, "%s", c->errbuf);
		goto out_book;
	}
	rc = links(c, &lfd, book, deadline);
	if (rc) {
		comm__errf(err, errlen, rc, "%s", c->errbuf);
		goto out_book;
	}
	free(book);
	if (lfd >= 0)
		c->tp->close(lfd);
	*out = c;
	return 0;

out_book:
	free(book);
out_listen:
	if (lfd >= 0)
		c->tp->close(lfd);
out_boot:
	if (bfd >= 0)
		close(bfd);
out_comm:
	comm_free(c);
	return rc;
}

struct member {
	int prank, key;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->prank < y->prank ? -1 : x->prank > y->prank;
}

int comm_split(struct comm *parent, int color, int key, struct comm **out)
{
	int32_t mine[3], *all = NULL;
	struct member *m = NULL;
	struct comm__book_entry *book = NULL;
	struct comm *c = NULL;
	int lfd = -1, port = 0, rc, n = 0, me = -1;
	char why[COMM_ERRLEN] = "";

	if (!parent || !out)
		return COMM_E_INVAL;
	*out = NULL;
	if (color >= 0 && parent->tp->listen(parent->addr, &port, &lfd, why, sizeof(why)))
		port = -1; /* still take part, so every rank learns of the failure */
	mine[0] = color < 0 ? -1 : color;
	mine[1] = key;
	mine[2] = port;
	all = calloc((size_t)parent->nranks * 3, sizeof(*all));
	m = calloc((size_t)parent->nranks, sizeof(*m));
	if (!all || !m) {
		rc = comm__errf(parent->user_err, sizeof(parent->user_err), COMM_E_NOMEM,
				"rank %d: split: out of memory", parent->rank);
		goto out;
	}
	rc = comm__split_exchange(parent, mine, all);
	if (rc) {
		comm__strlcpy(parent->user_err, parent->errbuf, sizeof(parent->user_err));
		goto out;
	}
	for (int r = 0; r < parent->nranks; r++) {
		if (all[3 * r] >= 0 && all[3 * r + 2] < 0) {
			rc = comm__errf(parent->user_err, sizeof(parent->user_err), COMM_E_SYS,
					"rank %d (host %s): split: rank %d (host %s) cannot listen%s%s",
					parent->rank, parent->host, r,
					r == parent->rank ? parent->host : parent->peers[r].host,
					r == parent->rank ? ": " : "", r == parent->rank ? why : "");
			goto out;
		}
		if (color >= 0 && all[3 * r] == color)
			m[n++] = (struct member){ r, all[3 * r + 1] };
	}
	if (color < 0) {
		rc = 0;
		goto out;
	}
	qsort(m, (size_t)n, sizeof(*m), member_cmp);
	for (int i = 0; i < n; i++)
		if (m[i].prank == parent->rank)
			me = i;
	if (me < 0 || n < 1) { /* cannot happen: this rank is a member of its own color */
		rc = COMM_E_INVAL;
		goto out;
	}
	c = comm_alloc(me, n);
	book = calloc((size_t)n, sizeof(*book));
	if (!c || !book) {
		rc = comm__errf(parent->user_err, sizeof(parent->user_err), COMM_E_NOMEM,
				"rank %d: split: out of memory", parent->rank);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		int pr = m[i].prank;
		book[i].rank = i;
		book[i].port = (uint16_t)all[3 * pr + 2];
		comm__strlcpy(book[i].host, pr == parent->rank ? parent->host : parent->peers[pr].host,
			      sizeof(book[i].host));
		comm__strlcpy(book[i].addr, pr == parent->rank ? parent->addr : parent->peers[pr].addr,
			      sizeof(book[i].addr));
	}
	comm__strlcpy(c->host, parent->host, sizeof(c->host));
	comm__strlcpy(c->addr, parent->addr, sizeof(c->addr));
	memcpy(c->secret, parent->secret, sizeof(c->secret));
	c->connect_timeout_ms = parent->connect_timeout_ms;
	c->exec_timeout_ms = parent->exec_timeout_ms;
	c->algo = parent->algo;
	c->lazy = parent->lazy;
	c->tmode = parent->tmode;
	/* distinct per parent, split and color, the same on every member */
	c->id = (parent->id ^ ((uint64_t)parent->seq << 32) ^ (uint64_t)(uint32_t)color) *
		0x9e3779b97f4a7c15ull;
	rc = links(c, &lfd, book, mono_ms() + c->connect_timeout_ms);
	if (rc) {
		comm__errf(parent->user_err, sizeof(parent->user_err), rc, "%s (split, color %d)",
			   c->errbuf, color);
		goto out;
	}
	*out = c;
	c = NULL;
out:
	if (lfd >= 0)
		parent->tp->close(lfd);
	if (c)
		comm_free(c);
	free(book);
	free(m);
	free(all);
	return rc;
}

void comm_destroy(struct comm *c)
{
	if (!c)
		return;
	comm__worker_stop(c);
	if (c->broken) /* let the peers read our ABORT before the close resets the stream */
		comm__progress_linger(c, 500);
	comm_free(c);
}

int comm_rank(const struct comm *c)
{
	return c ? c->rank : -1;
}

const char *comm_peer_host(const struct comm *c, int rank)
{
	if (!c || rank < 0 || rank >= c->nranks)
		return "";
	return rank == c->rank ? c->host : c->peers[rank].host;
}

int comm_size(const struct comm *c)
{
	return c ? c->nranks : 0;
}

int comm_connections(const struct comm *c)
{
	return c ? c->nconn : 0;
}

const char *comm_link_transport(const struct comm *c, int peer)
{
	if (!c || peer < 0 || peer >= c->nranks || peer == c->rank || c->peers[peer].fd < 0)
		return NULL;
	return c->peers[peer].link->name;
}

int comm_link_reason(const struct comm *c, int peer, char *buf, size_t len)
{
	if (!comm_link_transport(c, peer))
		return COMM_E_INVAL;
	comm__tp_why_text(c->peers[peer].tp_why, c->peers[peer].tp_err, buf, len);
	return 0;
}

const char *comm_last_error(const struct comm *c)
{
	return c ? c->user_err : "no communicator";
}

int comm_set_algo(struct comm *c, enum comm_algo a)
{
	if (!c || (unsigned)a >= COMM_ALGO_COUNT)
		return COMM_E_INVAL;
	c->algo = a;
	return 0;
}

enum comm_algo comm_last_algo(const struct comm *c)
{
	return c ? c->last_algo : COMM_ALGO_AUTO;
}
