/* libhccl stand-in: the rendezvous. Every rank says hello to the hub (the root-info holder,
 * or rank 0 of a rank table) with the address it listens on; the hub checks the hellos and
 * answers each with the address book; then every rank connects to the ranks below it and
 * accepts the ranks above, giving one TCP connection per pair. Wire structs are sent as
 * they are: every rank of a test runs on this one machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/stub/hccl_internal.h"
#include "tests/stub/stub_log.h"

static const char HELLO[8] = "HSTUBHI", BOOK[8] = "HSTUBBK", MESH[8] = "HSTUBME";

struct hello {
	char magic[8];
	unsigned char nonce[STUB_NONCE];
	uint32_t rank, nranks, port;
	char ip[STUB_IPLEN];
};

struct book_head {
	char magic[8];
	int32_t status;
	char why[STUB_WHYLEN];
};

struct entry {
	char ip[STUB_IPLEN];
	uint32_t port;
};

struct mesh_hello {
	char magic[8];
	unsigned char nonce[STUB_NONCE];
	uint32_t rank;
};

static void answer(int fd, HcclResult rc, const char *why, const struct entry *book, uint32_t n,
		   int64_t deadline)
{
	struct book_head h = { .status = rc };

	memcpy(h.magic, BOOK, sizeof(BOOK));
	snprintf(h.why, sizeof(h.why), "%s", rc ? why : "");
	if (stubhccl_write_all(fd, &h, sizeof(h), deadline) == HCCL_SUCCESS && !rc)
		stubhccl_write_all(fd, book, n * sizeof(*book), deadline);
	close(fd);
}

/* Why hello m cannot join, or 0. */
static HcclResult check_hello(const struct stub_comm *c, const struct hello *m, const int *fds,
			      const unsigned char *nonce, char *why, size_t whylen)
{
	if (memcmp(m->nonce, nonce, STUB_NONCE)) {
		snprintf(why, whylen, "rank %u comes from another job (a different root info or "
			 "rank table)", m->rank);
		return HCCL_E_PARA;
	}
	if (m->nranks != c->nranks) {
		snprintf(why, whylen, "rank %u says %u ranks, the root %u", m->rank, m->nranks,
			 c->nranks);
		return HCCL_E_PARA;
	}
	if (m->rank >= c->nranks || m->rank == c->rank || fds[m->rank] >= 0) {
		snprintf(why, whylen, "rank %u joined twice or is out of range", m->rank);
		return HCCL_E_PARA;
	}
	return HCCL_SUCCESS;
}

/* The hub: hears nranks - 1 hellos on hub_fd (or waits to the deadline), then answers
 * every rank at once: the book, or why the job cannot start. A rank refused is told at
 * once; the others hear it once all have come, so every rank of a job ends the same way. */
static HcclResult hub(struct stub_comm *c, int hub_fd, struct entry *book,
		      const unsigned char *nonce, int64_t deadline, char *why, size_t whylen)
{
	uint32_t n = c->nranks, heard = 1, good = 1;
	int *fds = malloc(n * sizeof(int));
	HcclResult rc = HCCL_SUCCESS;

	if (!fds)
		return HCCL_E_MEMORY;
	for (uint32_t i = 0; i < n; i++)
		fds[i] = -1;
	while (heard < n) {
		struct hello m;
		char bad[STUB_WHYLEN];
		HcclResult brc;
		int fd;

		if (stubhccl_accept(hub_fd, deadline, &fd, bad, sizeof(bad))) {
			if (!rc)
				snprintf(why, whylen, "rank %u (the root) heard from %u of %u ranks "
					 "within HCCL_CONNECT_TIMEOUT", c->rank, good, n);
			rc = rc ? rc : HCCL_E_TIMEOUT;
			break;
		}
		if (stubhccl_read_all(fd, &m, sizeof(m), deadline) ||
		    memcmp(m.magic, HELLO, sizeof(HELLO))) {
			close(fd); /* not one of ours: a stray connection */
			continue;
		}
		heard++;
		m.ip[STUB_IPLEN - 1] = 0;
		if ((brc = check_hello(c, &m, fds, nonce, bad, sizeof(bad)))) {
			answer(fd, brc, bad, book, n, deadline);
			if (!rc)
				snprintf(why, whylen, "%s", bad);
			rc = rc ? rc : brc;
			continue;
		}
		fds[m.rank] = fd;
		memcpy(book[m.rank].ip, m.ip, STUB_IPLEN);
		book[m.rank].port = m.port;
		good++;
	}
	for (uint32_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			answer(fds[i], rc, why, book, n, deadline);
	free(fds);
	return rc;
}

static HcclResult join_hub(struct stub_comm *c, const char *hub_ip, int hub_port,
			   const struct hello *me, struct entry *book, int64_t deadline, char *why,
			   size_t whylen)
{
	struct book_head h;
	HcclResult rc;
	int fd;

	if ((rc = stubhccl_connect(hub_ip, hub_port, deadline, &fd, why, whylen)))
		return rc;
	rc = stubhccl_write_all(fd, me, sizeof(*me), deadline);
	if (!rc)
		rc = stubhccl_read_all(fd, &h, sizeof(h), deadline);
	if (!rc && (memcmp(h.magic, BOOK, sizeof(BOOK)) || h.status)) {
		h.why[sizeof(h.why) - 1] = 0;
		snprintf(why, whylen, "the root refused rank %u: %s", c->rank, h.why);
		rc = h.status ? (HcclResult)h.status : HCCL_E_INTERNAL;
	} else if (!rc) {
		rc = stubhccl_read_all(fd, book, c->nranks * sizeof(*book), deadline);
	}
	if (rc && !*why)
		snprintf(why, whylen, "rank %u: no answer from the root %s:%d", c->rank, hub_ip,
			 hub_port);
	close(fd);
	return rc;
}

static HcclResult mesh(struct stub_comm *c, int lfd, const struct entry *book,
		       const unsigned char *nonce, int64_t deadline, char *why, size_t whylen)
{
	struct mesh_hello m = { .rank = c->rank };
	HcclResult rc;

	memcpy(m.magic, MESH, sizeof(MESH));
	memcpy(m.nonce, nonce, STUB_NONCE);
	for (uint32_t j = 0; j < c->rank; j++) {
		if ((rc = stubhccl_connect(book[j].ip, (int)book[j].port, deadline, &c->fd[j], why,
					   whylen)))
			return rc;
		if ((rc = stubhccl_write_all(c->fd[j], &m, sizeof(m), deadline))) {
			snprintf(why, whylen, "rank %u: cannot greet rank %u", c->rank, j);
			return rc;
		}
	}
	for (uint32_t got = c->rank + 1; got < c->nranks;) {
		struct mesh_hello h;
		int fd;

		if ((rc = stubhccl_accept(lfd, deadline, &fd, why, whylen))) {
			snprintf(why, whylen, "rank %u: ranks above it did not connect in time", c->rank);
			return rc;
		}
		if (stubhccl_read_all(fd, &h, sizeof(h), deadline) ||
		    memcmp(h.magic, MESH, sizeof(MESH)) || memcmp(h.nonce, nonce, STUB_NONCE) ||
		    h.rank <= c->rank || h.rank >= c->nranks || c->fd[h.rank] >= 0) {
			close(fd);
			continue;
		}
		c->fd[h.rank] = fd;
		got++;
	}
	return HCCL_SUCCESS;
}

HcclResult stubhccl_bootstrap(struct stub_comm *c, int hub_fd, const char *hub_ip, int hub_port,
			      const char *my_ip, const unsigned char nonce[STUB_NONCE],
			      char *why, size_t whylen)
{
	int64_t deadline = stubhccl_now_ms() + stubhccl_env_ms("HCCL_CONNECT_TIMEOUT", 120);
	struct entry *book = calloc(c->nranks, sizeof(*book));
	struct hello me = { .rank = c->rank, .nranks = c->nranks };
	HcclResult rc;
	int lfd = -1, port = 0;

	*why = 0;
	if (!book)
		return HCCL_E_MEMORY;
	if ((rc = stubhccl_listen(my_ip, 0, &lfd, &port, why, whylen)))
		goto out;
	memcpy(me.magic, HELLO, sizeof(HELLO));
	memcpy(me.nonce, nonce, STUB_NONCE);
	snprintf(me.ip, sizeof(me.ip), "%s", my_ip);
	me.port = (uint32_t)port;
	memcpy(book[c->rank].ip, me.ip, STUB_IPLEN);
	book[c->rank].port = me.port;
	if (c->nranks > 1) {
		rc = hub_fd >= 0 ? hub(c, hub_fd, book, nonce, deadline, why, whylen)
				 : join_hub(c, hub_ip, hub_port, &me, book, deadline, why, whylen);
		if (!rc)
			rc = mesh(c, lfd, book, nonce, deadline, why, whylen);
	}
	stub_log("bootstrap rank %u of %u via %s:%d = %d%s%s", c->rank, c->nranks, hub_ip,
		 hub_port, rc, *why ? ": " : "", why);
out:
	if (lfd >= 0)
		close(lfd);
	free(book);
	return rc;
}
