/* hcclctl probe net's agent (--agent): the node side. It listens, prints its port, answers
 * every connection's challenge, and measures towards the peer its launcher names, one thread
 * per connection. Apart from the launcher because the two share only the wire below them. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd/probe/probe_net.h"
#include "ranktable/base/clock.h"

struct agent {
	unsigned char key[NP_KEY_LEN];
	long long timeout_ms;
	int stay;    /* --listen: serve launcher after launcher */
	int wake[2]; /* the end of a control connection, for the main loop */
	pthread_mutex_t mu;
	unsigned refused;
};

struct conn_arg {
	struct agent *a;
	int fd;
	char peer[INET6_ADDRSTRLEN + 8];
};

/* One pair, driven from this side: round trips, then a stream each way. */
static void measure(struct agent *a, const struct np_msg *cmd, struct np_msg *out)
{
	long long deadline = mono_ms() + a->timeout_ms;
	double *rtt = calloc((size_t)cmd->pings, sizeof(*rtt));
	char err[400];
	const char *stage = "ping";
	int fd = -1, rc = 0;
	out->kind = NP_RESULT;
	if (!rtt) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}

	if ((fd = pnet_open_peer(cmd->host, cmd->port, a->key, deadline, err, sizeof(err))) < 0)
		goto fail;
	struct np_msg m = {.kind = NP_PING, .pings = cmd->pings};
	if ((rc = pnet_send_msg(fd, &m, deadline)))
		goto fail_rc;
	for (long i = 0; i < cmd->pings; i++) {
		char c = 'p';
		long long t0 = mono_ns();
		if ((rc = pnet_send_all(fd, &c, 1, deadline)))
			goto fail_rc;
		for (;;) {
			ssize_t r = recv(fd, &c, 1, MSG_DONTWAIT);
			if (r == 1)
				break;
			if (r == 0) {
				rc = -EPIPE;
				goto fail_rc;
			}
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				rc = -errno;
				goto fail_rc;
			}
			if ((rc = pnet_wait_fd(fd, POLLIN, deadline)))
				goto fail_rc;
		}
		rtt[i] = (double)(mono_ns() - t0) / 1000.0;
	}
	close(fd);
	out->res.rtt_p99_us = np_percentile(rtt, (size_t)cmd->pings, 99);
	out->res.rtt_us = np_percentile(rtt, (size_t)cmd->pings, 50);

	stage = "stream to";
	if ((fd = pnet_open_peer(cmd->host, cmd->port, a->key, deadline, err, sizeof(err))) < 0)
		goto fail;
	m = (struct np_msg){.kind = NP_RECV};
	if ((rc = pnet_send_msg(fd, &m, deadline)))
		goto fail_rc;
	long long sent = pnet_stream_out(fd, cmd->ms, cmd->bytes, deadline);
	if (sent < 0) {
		rc = (int)sent;
		goto fail_rc;
	}
	struct np_msg rx;
	if ((rc = pnet_recv_msg(fd, &rx, deadline, err, sizeof(err))))
		goto fail;
	if (rx.kind != NP_RX) {
		snprintf(err, sizeof(err), "unexpected answer to recv");
		goto fail;
	}
	close(fd);
	out->res.fwd_bytes = rx.bytes;
	out->res.fwd_bps = pnet_rate_bps(rx.bytes, rx.ns);

	stage = "stream from";
	if ((fd = pnet_open_peer(cmd->host, cmd->port, a->key, deadline, err, sizeof(err))) < 0)
		goto fail;
	m = (struct np_msg){.kind = NP_SEND, .ms = cmd->ms, .bytes = cmd->bytes};
	if ((rc = pnet_send_msg(fd, &m, deadline)))
		goto fail_rc;
	struct rx_count c;
	if ((rc = pnet_stream_in(fd, &c, deadline)))
		goto fail_rc;
	close(fd);
	out->res.rev_bytes = c.bytes;
	out->res.rev_bps = pnet_rate_bps(c.bytes, c.ns);
	free(rtt);
	return;

fail_rc:
	snprintf(err, sizeof(err), "%s port %d: %s", cmd->host, cmd->port, pnet_errtext(rc));
fail:
	if (fd >= 0)
		close(fd);
	free(rtt);
	out->kind = NP_ERROR;
	snprintf(out->text, sizeof(out->text), "%s %s", stage, err);
}

/* The listener side of one measurement connection, after its first message. */
static void serve_data(struct agent *a, int fd, const struct np_msg *m)
{
	long long deadline = mono_ms() + a->timeout_ms;
	if (m->kind == NP_PING) {
		for (long i = 0; i < m->pings; i++) {
			char c;
			int rc = 0;
			for (;;) {
				ssize_t r = recv(fd, &c, 1, MSG_DONTWAIT);
				if (r == 1)
					break;
				if (r == 0 ||
				    (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
					return;
				if ((rc = pnet_wait_fd(fd, POLLIN, deadline)))
					return;
			}
			if (pnet_send_all(fd, &c, 1, deadline))
				return;
		}
	} else if (m->kind == NP_RECV) {
		struct rx_count c;
		if (pnet_stream_in(fd, &c, deadline))
			return;
		struct np_msg rx = {.kind = NP_RX, .bytes = c.bytes, .ns = c.ns};
		pnet_send_msg(fd, &rx, deadline);
	} else if (m->kind == NP_SEND) {
		if (pnet_stream_out(fd, m->ms, m->bytes, deadline) < 0)
			return;
		/* until the reader has it all: its close is our EOF */
		char buf[256];
		while (!pnet_wait_fd(fd, POLLIN, deadline) && recv(fd, buf, sizeof(buf), 0) > 0)
			;
	}
}

static void *conn_thread(void *arg)
{
	struct conn_arg *c = arg;
	struct agent *a = c->a;
	char err[400];
	struct np_msg m = {0};
	long long deadline = mono_ms() + a->timeout_ms;
	int control = 0;

	if (pnet_auth_server(c->fd, a->key, deadline, err, sizeof(err))) {
		pthread_mutex_lock(&a->mu);
		a->refused++;
		pthread_mutex_unlock(&a->mu);
		fprintf(stderr, "hcclctl: %s: agent: refused a connection from %s: %s\n", WHERE,
			c->peer, err);
		goto out;
	}
	for (;;) {
		/* a control connection waits for the launcher's next word as long as it likes:
		 * the launcher has the deadlines, and its end closes the connection */
		long long dl = control ? mono_ms() + 24LL * 3600 * 1000 : deadline;
		if (pnet_recv_msg(c->fd, &m, dl, err, sizeof(err))) {
			if (strcmp(err, "connection closed"))
				fprintf(stderr, "hcclctl: %s: agent: %s: %s\n", WHERE, c->peer,
					err);
			break;
		}
		if (m.kind == NP_MEASURE) {
			struct np_msg res = {0};
			control = 1;
			measure(a, &m, &res);
			if (pnet_send_msg(c->fd, &res, mono_ms() + a->timeout_ms))
				break;
			continue;
		}
		if (m.kind == NP_QUIT) {
			control = 1;
			break;
		}
		if (!control && (m.kind == NP_PING || m.kind == NP_RECV || m.kind == NP_SEND))
			serve_data(a, c->fd, &m);
		else
			fprintf(stderr, "hcclctl: %s: agent: %s: unexpected message\n", WHERE,
				c->peer);
		break;
	}
	if (control || m.kind == NP_QUIT) {
		char b = 'q';
		if (write(a->wake[1], &b, 1) < 0)
			(void)0;
	}
out:
	close(c->fd);
	free(c);
	return NULL;
}

/* Listens on port (0: any free one) on every address. */
static int agent_listen(int port, int *bound, char *err, size_t errlen)
{
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, zero = 0;
	struct sockaddr_storage ss;
	socklen_t sl;
	if (fd >= 0) {
		struct sockaddr_in6 a6 = {.sin6_family = AF_INET6,
					  .sin6_addr = in6addr_any,
					  .sin6_port = htons((uint16_t)port)};
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&a6, sizeof(a6))) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) { /* no IPv6 here */
		struct sockaddr_in a4 = {.sin_family = AF_INET,
					 .sin_addr.s_addr = htonl(INADDR_ANY),
					 .sin_port = htons((uint16_t)port)};
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(err, errlen, "socket: %s", strerror(errno));
			return -1;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&a4, sizeof(a4))) {
			snprintf(err, errlen, "cannot listen on port %d: %s", port,
				 strerror(errno));
			close(fd);
			return -1;
		}
	}
	sl = sizeof(ss);
	if (listen(fd, 64) || getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		snprintf(err, errlen, "listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						: ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

static void peer_name(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	const struct sockaddr_in6 *s6 = (const void *)ss;
	const struct sockaddr_in *s4 = (const void *)ss;
	if (ss->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], a, sizeof(a));
	else if (ss->ss_family == AF_INET6)
		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
	else
		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
	snprintf(buf, len, "%s", a);
}

int pnet_agent_main(long timeout_s, long listen_port, const char *secret_file)
{
	struct agent a = {.timeout_ms = (timeout_s ? timeout_s : 30) * 1000,
			  .stay = !!listen_port,
			  .wake = {-1, -1}};
	char err[300];
	int port = 0, rc;

	if ((rc = pnet_read_secret(a.key, "agent", secret_file)))
		return rc;
	if (pipe2(a.wake, O_CLOEXEC))
		return fail(EXIT_UNKNOWN, WHERE, NULL, "pipe: %s", strerror(errno));
	pthread_mutex_init(&a.mu, NULL);
	signal(SIGPIPE, SIG_IGN);
	int lfd = agent_listen((int)listen_port, &port, err, sizeof(err));
	if (lfd < 0) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "agent: %s", err);
		goto out;
	}
	struct np_msg ready = {.kind = NP_READY, .port = port};
	char line[NP_LINE_MAX];
	if (np_msg_format(&ready, line, sizeof(line)) > 0) {
		fputs(line, stdout);
		fflush(stdout);
	}
	/* Launched over SSH, the agent serves one launcher: it leaves when its control
	 * connection ends, or when none came within the timeout. */
	long long idle = mono_ms() + a.timeout_ms;
	rc = EXIT_OK;
	for (;;) {
		struct pollfd p[2] = {{.fd = lfd, .events = POLLIN},
				      {.fd = a.wake[0], .events = POLLIN}};
		int n = poll(p, 2, a.stay ? -1 : pnet_left_ms(idle));
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL,
				  "agent: no launcher connected within %lld s",
				  a.timeout_ms / 1000);
			break;
		}
		if (p[1].revents) {
			char b;
			if (read(a.wake[0], &b, 1) < 0)
				(void)0;
			if (!a.stay)
				break;
		}
		if (!(p[0].revents & POLLIN))
			continue;
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		struct conn_arg *c = calloc(1, sizeof(*c));
		pthread_t t;
		pthread_attr_t at;
		if (!c) {
			close(fd);
			continue;
		}
		pnet_tune(fd);
		c->a = &a;
		c->fd = fd;
		peer_name(&ss, c->peer, sizeof(c->peer));
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &at, conn_thread, c)) {
			close(fd);
			free(c);
		}
		pthread_attr_destroy(&at);
	}
	close(lfd);
out:
	fflush(stdout);
	/* Threads may still be serving a peer; the process ends them. */
	if (!rc)
		_exit(0);
	return rc;
}
