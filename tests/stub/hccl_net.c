/* libhccl stand-in: the TCP it moves data and rendezvous over. Every wait has a deadline. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tests/stub/hccl_internal.h"

#define STUB_HDR_MAGIC 0x48534442u /* "HSDB" */

int64_t stubhccl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int left_ms(int64_t deadline_ms)
{
	int64_t d = deadline_ms - stubhccl_now_ms();

	return d < 0 ? 0 : d > 1000000000 ? 1000000000 : (int)d;
}

static int addr_of(const char *ip, int port, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -1;
}

HcclResult stubhccl_listen(const char *ip, int port, int *fd, int *bound, char *why,
			   size_t whylen)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int s, one = 1;

	if (addr_of(ip, port, &sa)) {
		snprintf(why, whylen, "'%s' is not an IPv4 address", ip);
		return HCCL_E_PARA;
	}
	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		return HCCL_E_SYSCALL;
	}
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) || listen(s, 128) ||
	    getsockname(s, (struct sockaddr *)&sa, &len)) {
		snprintf(why, whylen, "cannot listen on %s:%d: %s", ip, port, strerror(errno));
		close(s);
		return HCCL_E_TCP_CONNECT;
	}
	*fd = s;
	*bound = ntohs(sa.sin_port);
	return HCCL_SUCCESS;
}

HcclResult stubhccl_connect(const char *ip, int port, int64_t deadline_ms, int *fd, char *why,
			    size_t whylen)
{
	struct sockaddr_in sa;
	int err = 0;

	if (addr_of(ip, port, &sa)) {
		snprintf(why, whylen, "'%s' is not an IPv4 address", ip);
		return HCCL_E_PARA;
	}
	do {
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (s < 0) {
			snprintf(why, whylen, "socket: %s", strerror(errno));
			return HCCL_E_SYSCALL;
		}
		if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			int one = 1;

			setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			*fd = s;
			return HCCL_SUCCESS;
		}
		err = errno;
		close(s);
		/* The other side may not listen yet: try again until the deadline. */
		if (err != ECONNREFUSED && err != ETIMEDOUT && err != EHOSTUNREACH &&
		    err != ENETUNREACH && err != EINTR)
			break;
		usleep(20000);
	} while (left_ms(deadline_ms) > 0);
	snprintf(why, whylen, "cannot connect to %s:%d: %s", ip, port, strerror(err));
	return err == ECONNREFUSED || err == ETIMEDOUT ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT;
}

HcclResult stubhccl_accept(int lfd, int64_t deadline_ms, int *fd, char *why, size_t whylen)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };

	for (;;) {
		int n = poll(&p, 1, left_ms(deadline_ms));
		int s, one = 1;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, whylen, "no connection within the connect timeout");
			return HCCL_E_TIMEOUT;
		}
		if ((s = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			snprintf(why, whylen, "accept: %s", strerror(errno));
			return HCCL_E_SYSCALL;
		}
		setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		*fd = s;
		return HCCL_SUCCESS;
	}
}

static HcclResult wait_fd(int fd, short ev, int64_t deadline_ms)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int n;

	while ((n = poll(&p, 1, left_ms(deadline_ms))) < 0 && errno == EINTR)
		;
	return n > 0 ? HCCL_SUCCESS : n == 0 ? HCCL_E_TIMEOUT : HCCL_E_TCP_TRANSFER;
}

HcclResult stubhccl_write_all(int fd, const void *buf, size_t len, int64_t deadline_ms)
{
	const char *p = buf;
	HcclResult rc;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if ((rc = wait_fd(fd, POLLOUT, deadline_ms)))
				return rc;
		} else {
			return HCCL_E_TCP_TRANSFER;
		}
	}
	return HCCL_SUCCESS;
}

HcclResult stubhccl_read_all(int fd, void *buf, size_t len, int64_t deadline_ms)
{
	char *p = buf;
	HcclResult rc;

	while (len) {
		ssize_t n = recv(fd, p, len, MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if ((rc = wait_fd(fd, POLLIN, deadline_ms)))
				return rc;
		} else {
			return HCCL_E_TCP_TRANSFER;
		}
	}
	return HCCL_SUCCESS;
}

/* Per peer progress of one exchange. */
struct prog {
	struct stub_hdr oh, ih; /* the header sent, the header received */
	size_t ooff, ioff;      /* bytes done of header + payload */
	int odone, idone;
};

static int hdr_matches(const struct stub_hdr *a, const struct stub_hdr *b)
{
	return a->magic == b->magic && a->seq == b->seq && a->coll == b->coll &&
	       a->dtype == b->dtype && a->op == b->op && a->root == b->root && a->count == b->count;
}

static void describe(char *out, size_t len, const struct stub_hdr *h)
{
	snprintf(out, len, "%s #%u count %llu %s op %u root %u", stubhccl_coll_name(h->coll),
		 (unsigned)h->seq, (unsigned long long)h->count, stubhccl_dtype_name(h->dtype),
		 (unsigned)h->op, (unsigned)h->root);
}

/* One step of peer p: returns 0 to go on, or an HcclResult with why filled. */
static HcclResult step(struct stub_comm *c, uint32_t p, struct stub_xfer *x, struct prog *g,
		       short rev, const struct stub_hdr *want, char *why, size_t whylen)
{
	int fd = c->fd[p];
	const size_t hl = sizeof(struct stub_hdr);

	if ((rev & (POLLOUT | POLLERR | POLLHUP)) && x->send && !g->odone) {
		const char *src = g->ooff < hl ? (const char *)&g->oh + g->ooff
					       : (const char *)x->out + (g->ooff - hl);
		size_t n = g->ooff < hl ? hl - g->ooff : x->outlen - (g->ooff - hl);
		ssize_t k = n ? send(fd, src, n, MSG_NOSIGNAL | MSG_DONTWAIT) : 0;

		if (k < 0 && errno != EAGAIN && errno != EINTR) {
			snprintf(why, whylen, "rank %u: sending to rank %u: %s", c->rank, p,
				 strerror(errno));
			return HCCL_E_TCP_TRANSFER;
		}
		if (k > 0)
			g->ooff += (size_t)k;
		if (g->ooff == hl + x->outlen)
			g->odone = 1;
	}
	if ((rev & (POLLIN | POLLERR | POLLHUP)) && x->recv && !g->idone) {
		char *dst = g->ioff < hl ? (char *)&g->ih + g->ioff : (char *)x->in + (g->ioff - hl);
		size_t n = g->ioff < hl ? hl - g->ioff : x->inlen - (g->ioff - hl);
		ssize_t k = n ? recv(fd, dst, n, MSG_DONTWAIT) : 0;

		if (k == 0 && n) {
			snprintf(why, whylen, "rank %u: rank %u closed its connection", c->rank, p);
			return HCCL_E_TCP_TRANSFER;
		}
		if (k < 0 && errno != EAGAIN && errno != EINTR) {
			snprintf(why, whylen, "rank %u: receiving from rank %u: %s", c->rank, p,
				 strerror(errno));
			return HCCL_E_TCP_TRANSFER;
		}
		if (k > 0) {
			g->ioff += (size_t)k;
			if (g->ioff == hl) {
				struct stub_hdr w = *want;

				w.seq = c->seq_in[p];
				if (!hdr_matches(&g->ih, &w)) {
					char a[100], b[100];

					describe(a, sizeof(a), &w);
					describe(b, sizeof(b), &g->ih);
					snprintf(why, whylen, "rank %u called %s, rank %u called %s",
						 c->rank, a, p, b);
					return HCCL_E_PARA;
				}
			}
		}
		if (g->ioff == hl + x->inlen)
			g->idone = 1;
	}
	return HCCL_SUCCESS;
}

HcclResult stubhccl_exchange(struct stub_comm *c, const struct stub_hdr *hdr,
			     struct stub_xfer *x, char *why, size_t whylen)
{
	uint32_t n = c->nranks;
	struct prog *g = calloc(n, sizeof(*g));
	struct pollfd *pf = calloc(n, sizeof(*pf));
	uint32_t *who = calloc(n, sizeof(*who));
	int64_t deadline = stubhccl_now_ms() + c->exec_timeout_ms;
	HcclResult rc = HCCL_SUCCESS;

	if (!g || !pf || !who) {
		snprintf(why, whylen, "out of memory");
		rc = HCCL_E_MEMORY;
		goto out;
	}
	for (uint32_t p = 0; p < n; p++) {
		g[p].oh = *hdr;
		g[p].oh.magic = STUB_HDR_MAGIC;
		g[p].oh.seq = c->seq_out[p];
		g[p].odone = !x[p].send;
		g[p].idone = !x[p].recv;
	}
	for (;;) {
		nfds_t k = 0;
		int r;

		for (uint32_t p = 0; p < n; p++) {
			short ev = (short)((g[p].odone ? 0 : POLLOUT) | (g[p].idone ? 0 : POLLIN));

			if (ev) {
				pf[k] = (struct pollfd){ .fd = c->fd[p], .events = ev };
				who[k++] = p;
			}
		}
		if (k == 0)
			break;
		r = poll(pf, k, left_ms(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			uint32_t p = who[0];

			for (nfds_t i = 0; i < k; i++)
				if (!g[who[i]].idone) {
					p = who[i];
					break;
				}
			snprintf(why, whylen,
				 "rank %u: %s timed out after %d s waiting for rank %u (HCCL_EXEC_TIMEOUT)",
				 c->rank, stubhccl_coll_name(hdr->coll), c->exec_timeout_ms / 1000, p);
			rc = HCCL_E_TIMEOUT;
			goto out;
		}
		for (nfds_t i = 0; i < k; i++) {
			struct stub_hdr want = *hdr;
			char pwhy[STUB_WHYLEN];
			HcclResult prc;

			want.magic = STUB_HDR_MAGIC;
			if (!pf[i].revents)
				continue;
			prc = step(c, who[i], &x[who[i]], &g[who[i]], pf[i].revents, &want, pwhy,
				   sizeof(pwhy));
			if (prc == HCCL_SUCCESS)
				continue;
			/* Done with that peer, not with the others: they still get this rank's
			 * header, so every rank sees a disagreement as one (HCCL_E_PARA), whatever
			 * order the frames and closes arrive in. */
			g[who[i]].odone = g[who[i]].idone = 1;
			if (rc == HCCL_SUCCESS || (prc == HCCL_E_PARA && rc != HCCL_E_PARA)) {
				rc = prc;
				snprintf(why, whylen, "%s", pwhy);
			}
		}
	}
	if (rc)
		goto out;
	for (uint32_t p = 0; p < n; p++) {
		c->seq_out[p] += x[p].send ? 1 : 0;
		c->seq_in[p] += x[p].recv ? 1 : 0;
	}
out:
	free(g);
	free(pf);
	free(who);
	return rc;
}
