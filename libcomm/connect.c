/* The full mesh of a communicator: rank i connects to every rank j > i and accepts from every
 * rank j < i. Each connection passes the HMAC challenge, then the connecting rank says which
 * communicator and rank it is and the other end confirms, so a connection from another job or
 * another communicator is refused (and counted) rather than taken for a peer.
 *
 * Connects go in rank order before accepts: rank n-1 only accepts, so every wait is on a
 * higher rank and there is no cycle. */
#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "libcomm/internal.h"

static int peer_handshake(int fd, const struct comm_transport_ops *tp, uint64_t id, int rank,
			  int nranks, int64_t deadline, struct comm__peer_hello *got, char *why,
			  size_t whylen, int send_first)
{
	struct comm__peer_hello me = { id, rank, nranks };
	unsigned char b[COMM__PEER_LEN];
	struct comm__hdr h;
	int rc;
	(void)tp;
	comm__peer_encode(&me, b);
	if (send_first) {
		rc = comm__io_send_frame(fd, COMM__F_PEER, (uint32_t)rank, b, sizeof(b), deadline, -1);
		if (rc) {
			snprintf(why, whylen, "cannot send peer hello: %s", strerror(-rc));
			return rc;
		}
	}
	rc = comm__io_recv_frame(fd, &h, b, sizeof(b), deadline, -1, why, whylen);
	if (rc) {
		if (rc != -EPROTO)
			snprintf(why, whylen, "no peer hello: %s",
				 rc == -ECONNRESET ? "connection closed" : strerror(-rc));
		return rc;
	}
	if (h.type != COMM__F_PEER) {
		snprintf(why, whylen, "expected a peer hello, got %s", comm__frame_name(h.type));
		return -EPROTO;
	}
	if (comm__peer_decode(b, (size_t)h.len, got, why, whylen))
		return -EPROTO;
	if (got->comm_id != id || got->nranks != nranks) {
		snprintf(why, whylen, "belongs to another communicator (id %016llx, %d ranks)",
			 (unsigned long long)got->comm_id, got->nranks);
		return -EPROTO;
	}
	if (!send_first) {
		comm__peer_encode(&me, b);
		rc = comm__io_send_frame(fd, COMM__F_PEER, (uint32_t)rank, b, sizeof(b), deadline, -1);
		if (rc) {
			snprintf(why, whylen, "cannot answer peer hello: %s", strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static int connect_up(struct comm *c, const struct comm__book_entry *b, int64_t deadline)
{
	char why[COMM_ERRLEN] = "";
	int delay = 10, fd = -1, rc;
	for (;;) {
		rc = c->tp->connect(b->addr, b->port, deadline, &fd, why, sizeof(why));
		if (rc == 0)
			break;
		if (comm__now_ms() + delay >= deadline || (rc != -ECONNREFUSED && rc != -ETIMEDOUT))
			return comm__errf(c->errbuf, sizeof(c->errbuf),
					  rc == -ETIMEDOUT || rc == -ECONNREFUSED ? COMM_E_TIMEOUT
										  : COMM_E_SYS,
					  "rank %d (host %s): init: cannot reach rank %d (host %s) at "
					  "%s:%d: %s",
					  c->rank, c->host, b->rank, b->host, b->addr, b->port, why);
		usleep((useconds_t)delay * 1000);
		delay = delay < 200 ? delay * 2 : 200;
	}
	rc = comm__auth_client(fd, c->secret, deadline, why, sizeof(why));
	if (rc) {
		c->tp->close(fd);
		return comm__errf(c->errbuf, sizeof(c->errbuf), rc,
				  "rank %d (host %s): init: connection to rank %d (host %s): %s",
				  c->rank, c->host, b->rank, b->host, why);
	}
	struct comm__peer_hello got;
	rc = peer_handshake(fd, c->tp, c->id, c->rank, c->nranks, deadline, &got, why, sizeof(why), 1);
	if (!rc && got.rank != b->rank) {
		snprintf(why, sizeof(why), "answered as rank %d", got.rank);
		rc = -EPROTO;
	}
	if (rc) {
		c->tp->close(fd);
		return comm__errf(c->errbuf, sizeof(c->errbuf),
				  rc == -ETIMEDOUT ? COMM_E_TIMEOUT
				  : rc == -EPROTO  ? COMM_E_PROTO
						   : COMM_E_PEER,
				  "rank %d (host %s): init: connection to rank %d (host %s): %s",
				  c->rank, c->host, b->rank, b->host, why);
	}
	c->peers[b->rank].fd = fd;
	return 0;
}

static int accept_down(struct comm *c, int lfd, const struct comm__book_entry *book,
		       int64_t deadline)
{
	int missing = c->rank;
	while (missing > 0) {
		int64_t left = deadline - comm__now_ms();
		struct pollfd pf = { lfd, POLLIN, 0 };
		int n = left > 0 ? poll(&pf, 1, (int)left) : 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			char list[COMM_ERRLEN / 2];
			size_t at = 0;
			list[0] = '\0';
			for (int r = 0; r < c->rank && at < sizeof(list); r++)
				if (c->peers[r].fd < 0) {
					int k = snprintf(list + at, sizeof(list) - at, "%s%d (host %s)",
							 at ? ", " : "", r, book[r].host);
					at += k > 0 ? (size_t)k : 0;
				}
			return comm__errf(c->errbuf, sizeof(c->errbuf), COMM_E_TIMEOUT,
					  "rank %d (host %s): init: timed out after %.1f s waiting for "
					  "rank%s %s to connect",
					  c->rank, c->host,
					  (double)c->connect_timeout_ms / 1000.0, missing > 1 ? "s" : "",
					  list);
		}
		int fd;
		char from[COMM__ADDR_MAX + 8], why[COMM_ERRLEN];
		if (c->tp->accept(lfd, &fd, from, sizeof(from)))
			continue;
		int64_t dl = comm__now_ms() + COMM__HANDSHAKE_MS;
		if (dl > deadline)
			dl = deadline;
		struct comm__peer_hello got;
		int rc = comm__auth_server(fd, c->secret, dl, -1, why, sizeof(why));
		if (!rc)
			rc = peer_handshake(fd, c->tp, c->id, c->rank, c->nranks, dl, &got, why,
					    sizeof(why), 0);
		if (!rc && (got.rank >= c->rank || c->peers[got.rank].fd >= 0)) {
			snprintf(why, sizeof(why), "unexpected rank %d", got.rank);
			rc = -1;
		}
		if (rc == -2)
			comm__auth_refuse(fd, dl, -1);
		if (rc) {
			c->refused++;
			c->tp->close(fd);
			continue;
		}
		c->peers[got.rank].fd = fd;
		missing--;
	}
	return 0;
}

int comm__mesh_connect(struct comm *c, int lfd, const struct comm__book_entry *book,
		       int64_t deadline)
{
	for (int r = 0; r < c->nranks; r++) {
		struct comm__peer *p = &c->peers[r];
		comm__strlcpy(p->host, book[r].host, sizeof(p->host));
		comm__strlcpy(p->addr, book[r].addr, sizeof(p->addr));
		p->port = book[r].port;
	}
	for (int r = c->rank + 1; r < c->nranks; r++) {
		int rc = connect_up(c, &book[r], deadline);
		if (rc)
			return rc;
	}
	return accept_down(c, lfd, book, deadline);
}
