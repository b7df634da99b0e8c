/* hcclctl probe net: TCP latency and bandwidth between every pair of nodes, both ways.
 *
 * The launcher (this process) starts `hcclctl probe net --agent` on every node over SSH
 * (or uses agents already running there, --agents). Each agent reads a fresh 128-bit secret
 * on its stdin (never on a command line), listens on a free TCP port and prints it. The
 * launcher connects to every agent (a control connection), then runs the round-robin
 * tournament: in each round the nodes form disjoint pairs, and the first agent of each pair
 * measures towards the second: one-byte round trips, then a stream each way, for --duration
 * or --bytes. Every connection, the launcher's and the agents' among themselves, answers an
 * HMAC challenge on the secret, so a stray connection is refused and never measured.
 *
 * Every wait has a deadline; a node that cannot be reached or whose agent is lost is named
 * once, and the others are measured without it. When the launcher ends, so do the agents:
 * they leave when their control connection closes, and the SSH fan-out's cancel kills what
 * is left. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/lib/fanout.h"
#include "cmd/probe/probe.h"
#include "cmd/lib/netperf.h"
#include "cmd/lib/prom.h"
#include "ranktable/ranktable.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/env.h"
#include "ranktable/base/size.h"

#define WHERE "probe net"
#define SLOW_FRACTION 0.8
#define DEFAULT_DURATION_MS 400
#define DEFAULT_PINGS 50
#define DEFAULT_CONNECT_TIMEOUT 10 /* s, SSH; HCCLCTL_CONNECT_TIMEOUT overrides */
#define HOSTFILE_CAP (16UL * 1024 * 1024)
#define TABLE_CAP RT_TABLE_MAX
#define STREAM_CHUNK (256 * 1024)
#define QUIT_GRACE_MS 5000 /* the agents' SSH sessions may take this long to end */
#define TAIL_LINES 3

static const char *o_hosts, *o_hostfile, *o_ranktable, *o_agents, *o_user, *o_key, *o_known_hosts,
	*o_remote, *o_bytes, *o_secret_file;
static long o_port, o_parallel, o_timeout, o_duration, o_pings, o_listen;
static int o_insecure, o_agent;

const struct opt probe_net_opts[] = {
	OPT_STR("hosts", 0, &o_hosts, "HOST[,HOST...]", "the nodes to measure between"),
	OPT_PATH("hostfile", 0, &o_hostfile, "FILE",
		 "the nodes, one per line (SERVER [host_ip=IP])", COMPLETE_FILE),
	OPT_PATH("ranktable", 0, &o_ranktable, "FILE",
		 "the servers of this rank table (host_ip, else server_id)", COMPLETE_FILE),
	OPT_STR("agents", 0, &o_agents, "HOST:PORT[,...]",
		"agents already running there (--agent --listen), instead of SSH"),
	OPT_STR("ssh-user", 0, &o_user, "USER", "log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &o_port, "PORT", "SSH port (default 22)", 1, 65535),
	OPT_PATH("ssh-key", 0, &o_key, "FILE",
		 "private key (default: ssh-agent, ~/.ssh/id_ed25519, ~/.ssh/id_rsa)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &o_known_hosts, "FILE",
		 "known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &o_insecure, "do not check host keys (warns)"),
	OPT_NUM("parallel", 0, &o_parallel, "N", "SSH connects at once (default 32)", 1, 4096),
	OPT_PATH("remote-hcclctl", 0, &o_remote, "PATH",
		 "hcclctl on the nodes (default: hcclctl in their PATH)", COMPLETE_FILE),
	OPT_NUM("duration", 0, &o_duration, "MS",
		"how long each direction of each pair streams (default 400, unless --bytes)", 1,
		600000),
	OPT_STR("bytes", 0, &o_bytes, "SIZE", "stream SIZE bytes each way instead (K, M, G)"),
	OPT_NUM("pings", 0, &o_pings, "N", "one-byte round trips per pair (default 50)", 1, 100000),
	OPT_NUM("timeout", 0, &o_timeout, "SEC",
		"deadline of each pair's measurement and of the agents' start (default 30)", 1,
		3600),
	OPT_PATH("secret-file", 0, &o_secret_file, "FILE",
		 "the shared secret (32 hex digits) for --agents and --agent --listen",
		 COMPLETE_FILE),
	OPT_BOOL("agent", 0, &o_agent, "internal: be the agent on a node (secret on stdin)"),
	OPT_NUM("listen", 0, &o_listen, "PORT", "with --agent: listen on PORT and stay", 1, 65535),
	OPT_PROM,
	OPT_TERM,
};

/* ==== sockets: every call bounded by a deadline (mono_ms() clock) ==== */

static int left_ms(long long deadline)
{
	long long l = deadline - mono_ms();
	return l <= 0 ? 0 : l > 3600000 ? 3600000 : (int)l;
}

/* Waits until fd is ready for events or deadline passes: 0, -ETIMEDOUT or -errno. */
static int wait_fd(int fd, short events, long long deadline)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, left_ms(deadline));
		if (n > 0)
			return 0;
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

static int send_all(int fd, const void *buf, size_t len, long long deadline)
{
	const char *p = buf;
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int rc = wait_fd(fd, POLLOUT, deadline);
			if (rc)
				return rc;
			continue;
		}
		return n < 0 ? -errno : -EPIPE;
	}
	return 0;
}

/* Reads one line byte by byte (so nothing after it is consumed). Returns its length without
 * the newline, -EPIPE at EOF, -EMSGSIZE when longer than cap-1, -ETIMEDOUT or -errno. */
static int read_line(int fd, char *buf, size_t cap, long long deadline)
{
	size_t n = 0;
	for (;;) {
		char c;
		ssize_t r = recv(fd, &c, 1, MSG_DONTWAIT);
		if (r == 1) {
			if (c == '\n') {
				buf[n] = '\0';
				return (int)n;
			}
			if (n + 1 >= cap)
				return -EMSGSIZE;
			buf[n++] = c;
			continue;
		}
		if (r == 0)
			return -EPIPE;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		int rc = wait_fd(fd, POLLIN, deadline);
		if (rc)
			return rc;
	}
}

static const char *errtext(int rc)
{
	switch (rc) {
	case -EPIPE:
		return "connection closed";
	case -ETIMEDOUT:
		return "timed out";
	case -EMSGSIZE:
		return "line too long";
	default:
		return strerror(-rc);
	}
}

static int send_msg(int fd, const struct np_msg *m, long long deadline)
{
	char line[NP_LINE_MAX];
	int n = np_msg_format(m, line, sizeof(line));
	return n < 0 ? n : send_all(fd, line, (size_t)n, deadline);
}

/* Reads and parses one message; on failure err says what arrived or did not. */
static int recv_msg(int fd, struct np_msg *m, long long deadline, char *err, size_t errlen)
{
	char line[NP_LINE_MAX], why[256];
	int n = read_line(fd, line, sizeof(line), deadline);
	if (n < 0) {
		snprintf(err, errlen, "%s", errtext(n));
		return n;
	}
	if (np_msg_parse(m, line, (size_t)n, why, sizeof(why))) {
		snprintf(err, errlen, "bad message: %s", why);
		return -EPROTO;
	}
	return 0;
}

static void tune(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Connects to host:port before deadline. Returns the socket (non-blocking, no Nagle) or -1
 * with err set. */
static int tcp_connect(const char *host, int port, long long deadline, char *err, size_t errlen)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *res = NULL;
	char ps[8];
	snprintf(ps, sizeof(ps), "%d", port);
	int rc = getaddrinfo(host, ps, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot resolve %s: %s", host, gai_strerror(rc));
		return -1;
	}
	int fd = -1;
	snprintf(err, errlen, "cannot connect to %s port %d", host, port);
	for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			continue;
		rc = connect(fd, ai->ai_addr, ai->ai_addrlen) ? -errno : 0;
		if (rc == -EINPROGRESS) {
			rc = wait_fd(fd, POLLOUT, deadline);
			int so = 0;
			socklen_t sl = sizeof(so);
			if (!rc && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) && so)
				rc = -so;
		}
		if (rc) {
			snprintf(err, errlen, "cannot connect to %s port %d: %s", host, port,
				 rc == -ETIMEDOUT ? "timed out" : strerror(-rc));
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd >= 0)
		tune(fd);
	return fd;
}

static void hex_of(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The listener's side of the challenge: 0, or -EACCES (a wrong answer, refused) or another
 * error, with err set. */
static int auth_server(int fd, const unsigned char *key, long long deadline, char *err,
		       size_t errlen)
{
	unsigned char nonce[NP_NONCE_HEX / 2];
	struct np_msg m = {.kind = NP_HELLO}, a;
	char want[NP_MAC_HEX + 1];
	if (getrandom(nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -EIO;
	}
	hex_of(nonce, sizeof(nonce), m.hex);
	int rc = send_msg(fd, &m, deadline);
	if (rc) {
		snprintf(err, errlen, "%s", errtext(rc));
		return rc;
	}
	if ((rc = recv_msg(fd, &a, deadline, err, errlen)))
		return rc;
	if (a.kind != NP_AUTH || np_mac(key, m.hex, want) || !np_mac_equal(want, a.hex)) {
		struct np_msg no = {.kind = NP_REFUSED};
		send_msg(fd, &no, deadline);
		snprintf(err, errlen, "%s",
			 a.kind == NP_AUTH ? "wrong secret" : "no answer to the challenge");
		return -EACCES;
	}
	struct np_msg yes = {.kind = NP_OK};
	rc = send_msg(fd, &yes, deadline);
	if (rc)
		snprintf(err, errlen, "%s", errtext(rc));
	return rc;
}

/* The connecting side: answers the challenge and waits for "ok". */
static int auth_client(int fd, const unsigned char *key, long long deadline, char *err,
		       size_t errlen)
{
	struct np_msg h, a = {.kind = NP_AUTH}, v;
	char why[300];
	int rc = recv_msg(fd, &h, deadline, why, sizeof(why));
	if (!rc && h.kind != NP_HELLO) {
		snprintf(why, sizeof(why), "not an agent of probe net");
		rc = -EPROTO;
	}
	if (rc) {
		snprintf(err, errlen, "no challenge: %.250s", why);
		return rc;
	}
	if (np_mac(key, h.hex, a.hex)) {
		snprintf(err, errlen, "HMAC failed (libcrypto)");
		return -EPROTO;
	}
	if ((rc = send_msg(fd, &a, deadline))) {
		snprintf(err, errlen, "%s", errtext(rc));
		return rc;
	}
	if ((rc = recv_msg(fd, &v, deadline, why, sizeof(why)))) {
		snprintf(err, errlen, "%s", rc == -EPIPE ? "refused (a different secret?)" : why);
		return rc;
	}
	if (v.kind != NP_OK) {
		snprintf(err, errlen, "refused: the secret differs");
		return -EACCES;
	}
	return 0;
}

/* Connects and authenticates: the socket, or -1 with err set. */
static int open_peer(const char *host, int port, const unsigned char *key, long long deadline,
		     char *err, size_t errlen)
{
	char why[300];
	int fd = tcp_connect(host, port, deadline, err, errlen);
	if (fd < 0)
		return -1;
	if (auth_client(fd, key, deadline, why, sizeof(why))) {
		snprintf(err, errlen, "%s port %d: %s", host, port, why);
		close(fd);
		return -1;
	}
	return fd;
}

/* ==== streaming ==== */

/* Sends for ms milliseconds or bytes bytes (a zero is no limit; one of them is set), then
 * shuts the write side. Returns the bytes sent, or a negative code. */
static long long stream_out(int fd, long long ms, unsigned long long bytes, long long deadline)
{
	static const char zeros[STREAM_CHUNK];
	long long stop = ms ? mono_ms() + ms : 0;
	unsigned long long sent = 0;
	if (!ms && !bytes)
		stop = mono_ms() + DEFAULT_DURATION_MS;
	while ((!bytes || sent < bytes) && (!stop || mono_ms() < stop) && mono_ms() < deadline) {
		size_t n = sizeof(zeros);
		if (bytes && bytes - sent < n)
			n = (size_t)(bytes - sent);
		ssize_t w = send(fd, zeros, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			sent += (unsigned long long)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			long long until = stop && stop < deadline ? stop : deadline;
			int rc = wait_fd(fd, POLLOUT, until);
			if (rc == -ETIMEDOUT && until == deadline)
				return rc;
			if (rc && rc != -ETIMEDOUT)
				return rc;
			continue;
		}
		return w < 0 ? -errno : -EPIPE;
	}
	shutdown(fd, SHUT_WR);
	return (long long)sent;
}

/* Counts what arrives until EOF: the bytes after the first read and the nanoseconds from the
 * first read to the last, so the sender's start and our wake-up are not in the rate. */
struct rx_count {
	unsigned long long total, bytes;
	long long ns;
};

static int stream_in(int fd, struct rx_count *c, long long deadline)
{
	char *buf = malloc(STREAM_CHUNK);
	long long t_first = 0, t_last = 0;
	int rc = 0;
	memset(c, 0, sizeof(*c));
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t r = recv(fd, buf, STREAM_CHUNK, MSG_DONTWAIT);
		if (r > 0) {
			long long t = mono_ns();
			if (!c->total)
				t_first = t;
			else
				c->bytes += (unsigned long long)r;
			c->total += (unsigned long long)r;
			t_last = t;
			continue;
		}
		if (r == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			rc = -errno;
			break;
		}
		if ((rc = wait_fd(fd, POLLIN, deadline)))
			break;
	}
	free(buf);
	c->ns = t_last - t_first;
	return rc;
}

static double rate_bps(unsigned long long bytes, long long ns)
{
	return ns > 0 ? (double)bytes * 8e9 / (double)ns : 0;
}

/* ==== the agent ==== */

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

	if ((fd = open_peer(cmd->host, cmd->port, a->key, deadline, err, sizeof(err))) < 0)
		goto fail;
	struct np_msg m = {.kind = NP_PING, .pings = cmd->pings};
	if ((rc = send_msg(fd, &m, deadline)))
		goto fail_rc;
	for (long i = 0; i < cmd->pings; i++) {
		char c = 'p';
		long long t0 = mono_ns();
		if ((rc = send_all(fd, &c, 1, deadline)))
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
			if ((rc = wait_fd(fd, POLLIN, deadline)))
				goto fail_rc;
		}
		rtt[i] = (double)(mono_ns() - t0) / 1000.0;
	}
	close(fd);
	out->res.rtt_p99_us = np_percentile(rtt, (size_t)cmd->pings, 99);
	out->res.rtt_us = np_percentile(rtt, (size_t)cmd->pings, 50);

	stage = "stream to";
	if ((fd = open_peer(cmd->host, cmd->port, a->key, deadline, err, sizeof(err))) < 0)
		goto fail;
	m = (struct np_msg){.kind = NP_RECV};
	if ((rc = send_msg(fd, &m, deadline)))
		goto fail_rc;
	long long sent = stream_out(fd, cmd->ms, cmd->bytes, deadline);
	if (sent < 0) {
		rc = (int)sent;
		goto fail_rc;
	}
	struct np_msg rx;
	if ((rc = recv_msg(fd, &rx, deadline, err, sizeof(err))))
		goto fail;
	if (rx.kind != NP_RX) {
		snprintf(err, sizeof(err), "unexpected answer to recv");
		goto fail;
	}
	close(fd);
	out->res.fwd_bytes = rx.bytes;
	out->res.fwd_bps = rate_bps(rx.bytes, rx.ns);

	stage = "stream from";
	if ((fd = open_peer(cmd->host, cmd->port, a->key, deadline, err, sizeof(err))) < 0)
		goto fail;
	m = (struct np_msg){.kind = NP_SEND, .ms = cmd->ms, .bytes = cmd->bytes};
	if ((rc = send_msg(fd, &m, deadline)))
		goto fail_rc;
	struct rx_count c;
	if ((rc = stream_in(fd, &c, deadline)))
		goto fail_rc;
	close(fd);
	out->res.rev_bytes = c.bytes;
	out->res.rev_bps = rate_bps(c.bytes, c.ns);
	free(rtt);
	return;

fail_rc:
	snprintf(err, sizeof(err), "%s port %d: %s", cmd->host, cmd->port, errtext(rc));
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
				if ((rc = wait_fd(fd, POLLIN, deadline)))
					return;
			}
			if (send_all(fd, &c, 1, deadline))
				return;
		}
	} else if (m->kind == NP_RECV) {
		struct rx_count c;
		if (stream_in(fd, &c, deadline))
			return;
		struct np_msg rx = {.kind = NP_RX, .bytes = c.bytes, .ns = c.ns};
		send_msg(fd, &rx, deadline);
	} else if (m->kind == NP_SEND) {
		if (stream_out(fd, m->ms, m->bytes, deadline) < 0)
			return;
		/* until the reader has it all: its close is our EOF */
		char buf[256];
		while (!wait_fd(fd, POLLIN, deadline) && recv(fd, buf, sizeof(buf), 0) > 0)
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

	if (auth_server(c->fd, a->key, deadline, err, sizeof(err))) {
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
		if (recv_msg(c->fd, &m, dl, err, sizeof(err))) {
			if (strcmp(err, "connection closed"))
				fprintf(stderr, "hcclctl: %s: agent: %s: %s\n", WHERE, c->peer,
					err);
			break;
		}
		if (m.kind == NP_MEASURE) {
			struct np_msg res = {0};
			control = 1;
			measure(a, &m, &res);
			if (send_msg(c->fd, &res, mono_ms() + a->timeout_ms))
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

/* Reads the secret: --secret-file, else one line of stdin. */
static int read_secret(unsigned char key[NP_KEY_LEN], const char *who)
{
	char buf[256], err[200];
	size_t n = 0;
	if (o_secret_file) {
		FILE *f = fopen(o_secret_file, "r");
		if (!f)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "cannot read --secret-file '%s': %s",
				    o_secret_file, strerror(errno));
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	} else {
		/* one line, read byte by byte so nothing after it is taken from stdin */
		while (n < sizeof(buf) - 1 && read(0, &buf[n], 1) == 1 && buf[n] != '\n')
			n++;
	}
	buf[n] = '\0';
	if (np_secret_parse(key, buf, n, err, sizeof(err)))
		return fail(EXIT_USAGE, WHERE,
			    "generate one with: od -An -N16 -tx1 /dev/urandom | tr -d ' \\n'",
			    "%s: %s (from %s)", who, err, o_secret_file ? o_secret_file : "stdin");
	return 0;
}

static int agent_main(void)
{
	struct agent a = {.timeout_ms = (o_timeout ? o_timeout : 30) * 1000,
			  .stay = !!o_listen,
			  .wake = {-1, -1}};
	char err[300];
	int port = 0, rc;

	if ((rc = read_secret(a.key, "agent")))
		return rc;
	if (pipe2(a.wake, O_CLOEXEC))
		return fail(EXIT_UNKNOWN, WHERE, NULL, "pipe: %s", strerror(errno));
	pthread_mutex_init(&a.mu, NULL);
	signal(SIGPIPE, SIG_IGN);
	int lfd = agent_listen((int)o_listen, &port, err, sizeof(err));
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
		int n = poll(p, 2, a.stay ? -1 : left_ms(idle));
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
		tune(fd);
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

/* ==== the launcher ==== */

enum node_state { N_WAITING = 0, N_READY, N_LIVE, N_DOWN };

struct node {
	const char *name, *addr;
	int port;
	enum node_state state;
	int fd;	     /* the control connection, -1 */
	int busy;    /* waiting for a result in this round */
	size_t peer; /* ... of the pair with this node */
	char buf[NP_LINE_MAX];
	size_t blen;
	char why[SSH_ERRLEN + 200];
};

struct launch {
	struct node *nodes;
	size_t n;
	struct fo_host *hosts;
	struct fo_cancel cancel;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int fanout_done, fanout_rc;
	char fanout_err[SSH_ERRLEN];
	struct fanout f;
	struct np_matrix m;
	unsigned char key[NP_KEY_LEN];
	long long ms;
	unsigned long long bytes;
	long pings;
	long long timeout_ms;
	size_t rounds, confirm_rounds;
	int confirming;
	double seconds;
};

static const char *exit_text(const struct fo_host *h, char *buf, size_t len)
{
	if (h->signal[0])
		snprintf(buf, len, "the agent was killed by signal %s", h->signal);
	else if (h->status == FO_FAILED && h->exit_status == 127)
		snprintf(buf, len,
			 "hcclctl not found there (exit 127); install it or pass "
			 "--remote-hcclctl PATH");
	else if (h->status == FO_FAILED && h->exit_status == 126)
		snprintf(buf, len, "hcclctl is not executable there (exit 126)");
	else if (h->status == FO_FAILED || h->status == FO_OK)
		snprintf(buf, len, "the agent exited %d", h->exit_status);
	else if (h->error[0])
		snprintf(buf, len, "%s", h->error);
	else
		snprintf(buf, len, "%s", fo_status_name(h->status));
	return buf;
}

static void launch_on_line(void *arg, const struct fo_host *h, int stream, const char *line,
			   size_t len)
{
	struct launch *L = arg;
	struct node *d = &L->nodes[h - L->hosts];
	struct np_msg m;
	char err[200];
	if (stream == SSH_STDERR) {
		if (g_opts.verbose)
			fprintf(stderr, "[%s] %.*s\n", d->name, (int)len, line);
		return;
	}
	pthread_mutex_lock(&L->mu);
	if (d->state == N_WAITING) {
		if (!np_msg_parse(&m, line, len, err, sizeof(err)) && m.kind == NP_READY) {
			d->port = m.port;
			d->state = N_READY;
		} else {
			d->state = N_DOWN;
			snprintf(d->why, sizeof(d->why), "the agent said \"%.*s\": %s",
				 (int)(len > 80 ? 80 : len), line, err);
		}
		pthread_cond_broadcast(&L->cv);
	}
	pthread_mutex_unlock(&L->mu);
}

static void launch_on_done(void *arg, const struct fo_host *h)
{
	struct launch *L = arg;
	struct node *d = &L->nodes[h - L->hosts];
	char what[SSH_ERRLEN + 100];
	pthread_mutex_lock(&L->mu);
	if (d->state == N_WAITING || d->state == N_READY) {
		const char *tail = fo_stderr_tail(h, 1);
		size_t tl = strcspn(tail, "\n");
		d->state = N_DOWN;
		snprintf(d->why, sizeof(d->why), "%s%s%.*s", exit_text(h, what, sizeof(what)),
			 tl && h->connected ? ": " : "", h->connected ? (int)tl : 0, tail);
	}
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
}

static void *fanout_thread(void *arg)
{
	struct launch *L = arg;
	int rc = fanout_run(&L->f, L->hosts, L->n, L->fanout_err, sizeof(L->fanout_err));
	pthread_mutex_lock(&L->mu);
	L->fanout_rc = rc;
	L->fanout_done = 1;
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	return NULL;
}

static void cond_wait_until(struct launch *L, long long deadline)
{
	struct timespec ts;
	long long l = deadline - mono_ms();
	if (l <= 0)
		return;
	if (l > 200)
		l = 200; /* wake up now and then for a signal */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += l / 1000;
	ts.tv_nsec += (l % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&L->cv, &L->mu, &ts);
}

/* Waits until every agent said its port or ended, or the deadline passes. */
static void wait_ready(struct launch *L, long long deadline)
{
	pthread_mutex_lock(&L->mu);
	for (;;) {
		size_t waiting = 0;
		for (size_t i = 0; i < L->n; i++)
			waiting += L->nodes[i].state == N_WAITING;
		if (!waiting || L->fanout_done || fo_signal_caught() || mono_ms() >= deadline)
			break;
		cond_wait_until(L, deadline);
	}
	for (size_t i = 0; i < L->n; i++)
		if (L->nodes[i].state == N_WAITING) {
			L->nodes[i].state = N_DOWN;
			snprintf(L->nodes[i].why, sizeof(L->nodes[i].why),
				 "the agent did not start within %lld s", L->timeout_ms / 1000);
		}
	pthread_mutex_unlock(&L->mu);
}

/* d is out of the run from here: why is "prefix what". */
static void node_down(struct launch *L, struct node *d, const char *prefix, const char *what)
{
	pthread_mutex_lock(&L->mu);
	d->state = N_DOWN;
	snprintf(d->why, sizeof(d->why), "%s%s", prefix, what);
	pthread_mutex_unlock(&L->mu);
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	d->busy = 0;
}

/* The control connection to every agent that is ready. */
static void connect_agents(struct launch *L)
{
	for (size_t i = 0; i < L->n; i++) {
		struct node *d = &L->nodes[i];
		char err[SSH_ERRLEN];
		if (d->state != N_READY)
			continue;
		d->fd = open_peer(d->addr, d->port, L->key, mono_ms() + L->timeout_ms, err,
				  sizeof(err));
		if (d->fd < 0)
			node_down(L, d, "cannot reach its agent: ", err);
		else
			d->state = N_LIVE;
	}
}

static void record(struct launch *L, size_t a, size_t b, const struct np_msg *r)
{
	struct np_link *ab = np_link_at(&L->m, a, b), *ba = np_link_at(&L->m, b, a);
	if (r->kind == NP_RESULT) {
		ab->tries++;
		ba->tries++;
		/* a second measurement (a confirmation) keeps the better bandwidth of the two */
		if (!ab->measured || r->res.fwd_bps > ab->bps) {
			ab->bps = r->res.fwd_bps;
			ab->bytes = r->res.fwd_bytes;
		}
		if (!ba->measured || r->res.rev_bps > ba->bps) {
			ba->bps = r->res.rev_bps;
			ba->bytes = r->res.rev_bytes;
		}
		if (!ab->measured) {
			ab->rtt_us = ba->rtt_us = r->res.rtt_us;
			ab->rtt_p99_us = ba->rtt_p99_us = r->res.rtt_p99_us;
		}
		ab->measured = ba->measured = 1;
		if (g_opts.verbose)
			fprintf(stderr, "hcclctl: %s: %s <-> %s: %.1f / %.1f Mbit/s, rtt %.1f us\n",
				WHERE, L->nodes[a].name, L->nodes[b].name, ab->bps / 1e6,
				ba->bps / 1e6, ab->rtt_us);
		return;
	}
	if (L->confirming && ab->measured)
		return; /* the first measurement stands */
	ab->failed = ba->failed = 1;
	snprintf(ab->reason, sizeof(ab->reason), "%s", r->text);
	snprintf(ba->reason, sizeof(ba->reason), "%s", r->text);
}

/* Takes a complete line out of d's buffer: 1 with m filled, 0 when none yet, -1 on a bad
 * line (d goes down). */
static int take_line(struct launch *L, struct node *d, struct np_msg *m)
{
	char *nl = memchr(d->buf, '\n', d->blen);
	char err[300];
	if (!nl) {
		if (d->blen >= sizeof(d->buf) - 1) {
			node_down(L, d, "its agent sent ", "a line that is too long");
			return -1;
		}
		return 0;
	}
	size_t len = (size_t)(nl - d->buf);
	int rc = np_msg_parse(m, d->buf, len, err, sizeof(err));
	memmove(d->buf, nl + 1, d->blen - len - 1);
	d->blen -= len + 1;
	if (rc || (m->kind != NP_RESULT && m->kind != NP_ERROR)) {
		node_down(L, d, "its agent sent a bad result: ", rc ? err : "not a result");
		return -1;
	}
	return 1;
}

/* One round of disjoint pairs (node indices): every pair's first node measures towards the
 * second, all at once. */
static void run_round(struct launch *L, size_t (*pairs)[2], size_t np)
{
	size_t pending = 0;
	struct pollfd *p = calloc(L->n, sizeof(*p));
	size_t *who = calloc(L->n, sizeof(*who));
	if (!p || !who)
		np = 0;
	for (size_t k = 0; k < np; k++) {
		struct node *a = &L->nodes[pairs[k][0]], *b = &L->nodes[pairs[k][1]];
		if (a->state != N_LIVE || b->state != N_LIVE)
			continue;
		struct np_msg m = {.kind = NP_MEASURE,
				   .port = b->port,
				   .ms = L->ms,
				   .bytes = L->bytes,
				   .pings = L->pings};
		snprintf(m.host, sizeof(m.host), "%s", b->addr);
		int rc = send_msg(a->fd, &m, mono_ms() + L->timeout_ms);
		if (rc) {
			node_down(L, a, "lost its agent: ", errtext(rc));
			continue;
		}
		a->busy = 1;
		a->peer = pairs[k][1];
		pending++;
	}
	/* The agent gives up each step at the timeout and says so; a few seconds more here
	 * tell a slow answer from a lost agent. */
	long long deadline = mono_ms() + L->timeout_ms + 5000;
	while (pending && !fo_signal_caught()) {
		size_t np2 = 0;
		for (size_t i = 0; i < L->n; i++)
			if (L->nodes[i].busy) {
				p[np2] = (struct pollfd){.fd = L->nodes[i].fd, .events = POLLIN};
				who[np2++] = i;
			}
		int n = poll(p, np2, left_ms(deadline) > 200 ? 200 : left_ms(deadline));
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0) {
			if (mono_ms() < deadline)
				continue;
			for (size_t k = 0; k < np2; k++) {
				struct node *d = &L->nodes[who[k]];
				struct np_msg m = {.kind = NP_ERROR};
				snprintf(m.text, sizeof(m.text), "no result within %lld s",
					 (L->timeout_ms + 5000) / 1000);
				record(L, who[k], d->peer, &m);
				node_down(L, d, "its agent did not answer within ", "the timeout");
			}
			break;
		}
		for (size_t k = 0; k < np2; k++) {
			struct node *d = &L->nodes[who[k]];
			if (!p[k].revents)
				continue;
			ssize_t got = recv(d->fd, d->buf + d->blen, sizeof(d->buf) - 1 - d->blen,
					   MSG_DONTWAIT);
			if (got <= 0 && !(got < 0 && (errno == EAGAIN || errno == EINTR))) {
				node_down(L, d, "lost its agent: ",
					  got == 0 ? "connection closed" : strerror(errno));
				pending--;
				continue;
			}
			if (got > 0)
				d->blen += (size_t)got;
			struct np_msg m;
			int rc = take_line(L, d, &m);
			if (rc == 0)
				continue;
			pending--;
			if (rc > 0) {
				record(L, who[k], d->peer, &m);
				d->busy = 0;
			}
		}
	}
	free(p);
	free(who);
}

/* The tournament over the live nodes, then a second measurement of every pair with a link
 * that came out slow: a link is named only when both say so (the better one counts), so a
 * passing stall on a busy node is not reported as a slow link. */
static void measure_all(struct launch *L)
{
	size_t *live = calloc(L->n, sizeof(*live)), nlive = 0;
	size_t(*pairs)[2] = calloc(L->n / 2 + 1, sizeof(*pairs));
	char *unmeasured = calloc(L->n * L->n, 1);
	if (!live || !pairs || !unmeasured)
		goto out;
	for (size_t i = 0; i < L->n; i++)
		if (L->nodes[i].state == N_LIVE)
			live[nlive++] = i;
	L->rounds = np_rounds(nlive);
	for (size_t r = 0; r < L->rounds && !fo_signal_caught(); r++) {
		size_t np = np_round_pairs(nlive, r, pairs);
		for (size_t k = 0; k < np; k++) {
			pairs[k][0] = live[pairs[k][0]];
			pairs[k][1] = live[pairs[k][1]];
		}
		run_round(L, pairs, np);
	}

	np_matrix_judge(&L->m, SLOW_FRACTION);
	size_t left = 0;
	for (size_t i = 0; i < L->n; i++)
		for (size_t j = 0; j < L->n; j++)
			if (np_link_at(&L->m, i, j)->status == PROBE_WARN) {
				size_t a = i < j ? i : j, b = i < j ? j : i;
				left += !unmeasured[a * L->n + b];
				unmeasured[a * L->n + b] = 1;
			}
	L->confirming = 1;
	while (left && !fo_signal_caught()) {
		/* greedily, as many disjoint suspect pairs at once as there are */
		size_t np = 0;
		for (size_t a = 0; a < L->n; a++)
			for (size_t b = a + 1; b < L->n; b++) {
				if (!unmeasured[a * L->n + b])
					continue;
				int clash = 0;
				for (size_t k = 0; k < np && !clash; k++)
					clash = pairs[k][0] == a || pairs[k][1] == a ||
						pairs[k][0] == b || pairs[k][1] == b;
				if (clash)
					continue;
				pairs[np][0] = a;
				pairs[np][1] = b;
				np++;
				unmeasured[a * L->n + b] = 0;
				left--;
			}
		L->confirm_rounds++;
		run_round(L, pairs, np);
	}
	for (size_t i = 0; i < L->n; i++) {
		struct node *d = &L->nodes[i];
		if (d->fd < 0)
			continue;
		struct np_msg q = {.kind = NP_QUIT};
		send_msg(d->fd, &q, mono_ms() + 1000);
		close(d->fd);
		d->fd = -1;
	}
out:
	free(live);
	free(pairs);
	free(unmeasured);
}

/* ---- where the nodes come from ---- */

static int add_node(struct launch *L, const char *name, const char *addr)
{
	for (size_t i = 0; i < L->n; i++)
		if (!strcmp(L->nodes[i].addr, addr))
			return 0; /* a rank table lists a server once per device */
	struct node *d = &L->nodes[L->n++];
	d->name = name;
	d->addr = addr;
	d->fd = -1;
	return 0;
}

/* --hosts and --hostfile through the hostfile parser (names are checked there). */
static int load_hostfile(struct launch *L, struct rt_hostfile *hf)
{
	char err[RT_ERRLEN] = "";
	struct rt_diags d = {0};
	char *buf = NULL;
	size_t len = 0;
	const char *name;
	int rc;
	if (o_hosts) {
		rc = rt_hostlist_expand(o_hosts, strlen(o_hosts), &buf, &len, err, sizeof(err));
		if (rc)
			return fail(rc == -ENOMEM ? EXIT_UNKNOWN : EXIT_USAGE, WHERE,
				    "e.g. --hosts gpu1,gpu2 or --hosts 'gpu[01-16]'", "--hosts: %s", err);
		name = "--hosts";
	} else {
		rc = rt_read_file(o_hostfile, HOSTFILE_CAP, &buf, &len, err, sizeof(err));
		if (rc)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
		name = o_hostfile;
	}
	rc = rt_hostfile_parse(hf, name, buf, len, &d, err, sizeof(err));
	free(buf);
	print_findings(&d, name);
	rt_diags_release(&d);
	if (rc == -ENOMEM)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	if (rc)
		return fail(o_hosts ? EXIT_USAGE : EXIT_FAIL, WHERE,
			    o_hosts ? "list hosts like --hosts node1,node2" : NULL, "%s", err);
	L->nodes = calloc(hf->n ? hf->n : 1, sizeof(*L->nodes));
	if (!L->nodes)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (size_t i = 0; i < hf->n; i++)
		add_node(L, hf->v[i].server_id,
			 hf->v[i].host_ip ? hf->v[i].host_ip : hf->v[i].server_id);
	return 0;
}

static int load_ranktable(struct launch *L, struct rt_table *t)
{
	char err[RT_ERRLEN] = "";
	struct rt_diags d = {0};
	char *buf = NULL;
	size_t len = 0;
	int rc = fetch_input(o_ranktable, TABLE_CAP, &buf, &len, err, sizeof(err));
	if (rc)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
	rc = rt_table_load(t, o_ranktable, buf, len, &d, err, sizeof(err));
	free(buf);
	rt_diags_sort(&d);
	/* Where hcclctl connects, a server it cannot name or reach safely is an error. */
	rt_diags_connect(&d);
	if (!rc && (t->format == RT_FMT_VLLM_PD || t->format == RT_FMT_GLOBAL ||
		    t->format == RT_FMT_GE_CLUSTER)) {
		rt_diags_release(&d);
		return fail(EXIT_FAIL, WHERE,
			    "give the HCCL rank table of the job (server_list or rank_list)",
			    "%s is a %s table, which HCCL does not read; nothing was measured",
			    o_ranktable, rt_format_name(t->format));
	}
	if (rc || d.nerrors) {
		print_findings(&d, o_ranktable);
		rt_diags_release(&d);
		if (rc == -ENOMEM)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		return fail(EXIT_FAIL, WHERE, "fix it; 'hcclctl ranktable validate' checks it",
			    "the rank table %s has errors; nothing was measured", o_ranktable);
	}
	rt_diags_release(&d);
	L->nodes = calloc(t->nranks ? t->nranks : 1, sizeof(*L->nodes));
	if (!L->nodes)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (size_t i = 0; i < t->nranks; i++) {
		const struct rt_rank *k = &t->ranks[i];
		const char *addr = k->host_ip && *k->host_ip ? k->host_ip : k->server_id;
		if (!addr || !*addr || rt_host_unsafe_at(addr) >= 0 ||
		    (k->server_id && rt_host_unsafe_at(k->server_id) >= 0))
			return fail(
				EXIT_FAIL, WHERE, NULL,
				"%s: rank %ld: refusing server \"%.64s\": not a host name or IP",
				o_ranktable, k->rank_id, addr ? addr : "");
		add_node(L, k->server_id && *k->server_id ? k->server_id : addr, addr);
	}
	return 0;
}

/* --agents HOST:PORT,...: the copy in *buf is cut in place and owned by the caller. */
static int load_agents(struct launch *L, char **buf)
{
	size_t cap = 1;
	*buf = strdup(o_agents);
	if (!*buf)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (const char *p = o_agents; *p; p++)
		cap += *p == ',';
	L->nodes = calloc(cap, sizeof(*L->nodes));
	if (!L->nodes)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (char *s = *buf, *next; s; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		char *colon = strrchr(s, ':'), *end;
		long port = colon ? strtol(colon + 1, &end, 10) : 0;
		if (!colon || colon == s || !colon[1] || *end || port < 1 || port > 65535)
			return fail(EXIT_USAGE, WHERE, "like --agents node1:7700,node2:7700",
				    "--agents: \"%s\" is not HOST:PORT", s);
		*colon = '\0';
		if (rt_host_unsafe_at(s) >= 0)
			return fail(EXIT_USAGE, WHERE, NULL,
				    "--agents: \"%s\" is not a host name or IP", s);
		size_t before = L->n;
		add_node(L, s, s);
		if (L->n == before)
			return fail(EXIT_USAGE, WHERE, NULL, "--agents: %s is listed twice", s);
		L->nodes[L->n - 1].port = (int)port;
		L->nodes[L->n - 1].state = N_READY;
	}
	return 0;
}

/* ---- the report ---- */

static double unit_of(double median, const char **name)
{
	if (median >= 1e9) {
		*name = "Gbit/s";
		return 1e9;
	}
	*name = "Mbit/s";
	return 1e6;
}

static const char *cell_color(const struct np_link *l)
{
	if (l->status == PROBE_FAIL)
		return color(1, "\033[1;31m");
	if (l->status == PROBE_WARN)
		return color(1, "\033[1;31m");
	if (l->status != PROBE_PASS)
		return "";
	return color(1, l->ratio >= 0.9 ? "\033[32m" : "\033[33m");
}

static void print_matrix(const struct launch *L, int bw, double unit, int w)
{
	const struct np_matrix *m = &L->m;
	printf("%-*s", w, bw ? "from\\to" : "");
	for (size_t j = 0; j < L->n; j++)
		printf(" %*s", w, L->nodes[j].name);
	putchar('\n');
	for (size_t i = 0; i < L->n; i++) {
		printf("%-*s", w, L->nodes[i].name);
		for (size_t j = 0; j < L->n; j++) {
			const struct np_link *l = np_link_at(m, i, j);
			char cell[32];
			const char *c = "";
			if (i == j)
				snprintf(cell, sizeof(cell), "-");
			else if (l->failed)
				snprintf(cell, sizeof(cell), "FAIL");
			else if (!l->measured)
				snprintf(cell, sizeof(cell), "?");
			else if (bw)
				snprintf(cell, sizeof(cell), "%.*f", unit >= 1e9 ? 2 : 1,
					 l->bps / unit);
			else
				snprintf(cell, sizeof(cell), "%.1f", l->rtt_us);
			if (bw && i != j)
				c = cell_color(l);
			printf(" %s%*s%s", c, w, cell, *c ? "\033[0m" : "");
		}
		putchar('\n');
	}
}

static void print_text(const struct launch *L, enum probe_status overall)
{
	const struct np_matrix *m = &L->m;
	const char *un;
	double unit = unit_of(m->median_bps, &un);
	int w = 9;
	for (size_t i = 0; i < L->n; i++)
		if ((int)strlen(L->nodes[i].name) > w)
			w = (int)strlen(L->nodes[i].name);
	if (!g_opts.quiet && m->nmeasured) {
		printf("bandwidth (%s), from the row's node to the column's:\n", un);
		print_matrix(L, 1, unit, w);
		printf("\nround trip (us, median of %ld one-byte pings):\n", L->pings);
		print_matrix(L, 0, unit, w);
		putchar('\n');
	}
	const char *off = probe_color_off(1);
	for (size_t i = 0; i < L->n; i++)
		for (size_t j = 0; j < L->n; j++) {
			const struct np_link *l = np_link_at(m, i, j);
			const char *c = probe_status_color(1, l->status);
			if (l->status == PROBE_WARN)
				printf("link %s -> %s: %s%s%s: slow: %.*f %s, %.0f %% of the "
				       "median\n",
				       L->nodes[i].name, L->nodes[j].name, c, "WARN", off,
				       unit >= 1e9 ? 2 : 1, l->bps / unit, un, l->ratio * 100);
			else if (l->status == PROBE_FAIL && i < j)
				printf("link %s <-> %s: %s%s%s: %s\n", L->nodes[i].name,
				       L->nodes[j].name, c, "FAIL", off, l->reason);
		}
	for (size_t i = 0; i < L->n; i++) {
		const struct node *d = &L->nodes[i];
		const struct np_node *v = &m->node[i];
		if (d->state == N_DOWN)
			printf("node %s: %s%s%s: %s\n", d->name,
			       probe_status_color(1, PROBE_UNKNOWN), "UNKNOWN", off, d->why);
		else if (v->status != PROBE_PASS)
			printf("node %s: %s%s%s: %zu of its %zu links are %s\n", d->name,
			       probe_status_color(1, v->status), probe_status_name(v->status), off,
			       v->slow + v->failed, v->links,
			       v->failed && v->slow ? "slow or failed"
			       : v->failed	    ? "failed"
						    : "slow");
	}
	if (!m->nmeasured) {
		printf("net: %s%s%s: %zu nodes, no link measured, %zu failed; %zu rounds in %.1f "
		       "s\n",
		       probe_status_color(1, overall), probe_status_name(overall), off, L->n,
		       m->nfailed, L->rounds, L->seconds);
		return;
	}
	printf("net: %s%s%s: %zu nodes, %zu links measured, median %.*f %s, %zu slow (below "
	       "%.*f), %zu failed; %zu rounds + %zu to confirm in %.1f s\n",
	       probe_status_color(1, overall), probe_status_name(overall), off, L->n, m->nmeasured,
	       unit >= 1e9 ? 2 : 1, m->median_bps / unit, un, m->nslow, unit >= 1e9 ? 2 : 1,
	       m->threshold_bps / unit, m->nfailed, L->rounds, L->confirm_rounds, L->seconds);
}

static double round3(double v)
{
	return round(v * 1000) / 1000;
}

static void print_json(const struct launch *L, enum probe_status overall, int code)
{
	const struct np_matrix *m = &L->m;
	cJSON *doc = cJSON_CreateObject();
	cJSON *nodes = cJSON_AddArrayToObject(doc, "nodes");
	for (size_t i = 0; i < L->n; i++) {
		const struct node *d = &L->nodes[i];
		const struct np_node *v = &m->node[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", d->name);
		cJSON_AddStringToObject(o, "address", d->addr);
		cJSON_AddStringToObject(
			o, "status",
			probe_status_name(d->state == N_DOWN ? PROBE_UNKNOWN : v->status));
		cJSON_AddNumberToObject(o, "links", (double)v->links);
		cJSON_AddNumberToObject(o, "slow_links", (double)v->slow);
		cJSON_AddNumberToObject(o, "failed_links", (double)v->failed);
		if (d->state == N_DOWN)
			cJSON_AddStringToObject(o, "reason", d->why);
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON_AddItemToArray(nodes, o);
	}
	cJSON *links = cJSON_AddArrayToObject(doc, "links");
	cJSON *bw = cJSON_AddArrayToObject(doc, "bandwidth_bps");
	cJSON *rtt = cJSON_AddArrayToObject(doc, "rtt_us");
	for (size_t i = 0; i < L->n; i++) {
		cJSON *brow = cJSON_CreateArray(), *rrow = cJSON_CreateArray();
		for (size_t j = 0; j < L->n; j++) {
			const struct np_link *l = np_link_at(m, i, j);
			int ok = i != j && l->measured && !l->failed;
			cJSON_AddItemToArray(brow, ok ? cJSON_CreateNumber(round(l->bps))
						      : cJSON_CreateNull());
			cJSON_AddItemToArray(rrow, ok ? cJSON_CreateNumber(round3(l->rtt_us))
						      : cJSON_CreateNull());
			if (i == j || (!l->measured && !l->failed))
				continue;
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "from", L->nodes[i].name);
			cJSON_AddStringToObject(o, "to", L->nodes[j].name);
			cJSON_AddStringToObject(o, "status", probe_status_name(l->status));
			if (ok) {
				cJSON_AddNumberToObject(o, "bandwidth_bps", round(l->bps));
				cJSON_AddNumberToObject(o, "bytes", (double)l->bytes);
				cJSON_AddNumberToObject(o, "ratio", round3(l->ratio));
				cJSON_AddNumberToObject(o, "rtt_us", round3(l->rtt_us));
				cJSON_AddNumberToObject(o, "rtt_p99_us", round3(l->rtt_p99_us));
				cJSON_AddNumberToObject(o, "measurements", l->tries);
				cJSON_AddBoolToObject(o, "slow", l->status == PROBE_WARN);
				cJSON_AddNullToObject(o, "reason");
			} else {
				cJSON_AddStringToObject(o, "reason", l->reason);
			}
			cJSON_AddItemToArray(links, o);
		}
		cJSON_AddItemToArray(bw, brow);
		cJSON_AddItemToArray(rtt, rrow);
	}
	cJSON_AddNumberToObject(doc, "median_bps", round(m->median_bps));
	cJSON_AddNumberToObject(doc, "threshold_bps", round(m->threshold_bps));
	cJSON_AddNumberToObject(doc, "slow_fraction", SLOW_FRACTION);
	cJSON_AddNumberToObject(doc, "links_measured", (double)m->nmeasured);
	cJSON_AddNumberToObject(doc, "links_slow", (double)m->nslow);
	cJSON_AddNumberToObject(doc, "links_failed", (double)m->nfailed);
	cJSON_AddNumberToObject(doc, "rounds", (double)L->rounds);
	cJSON_AddNumberToObject(doc, "confirm_rounds", (double)L->confirm_rounds);
	if (L->ms)
		cJSON_AddNumberToObject(doc, "duration_ms", (double)L->ms);
	else
		cJSON_AddNullToObject(doc, "duration_ms");
	if (L->bytes)
		cJSON_AddNumberToObject(doc, "bytes", (double)L->bytes);
	else
		cJSON_AddNullToObject(doc, "bytes");
	cJSON_AddNumberToObject(doc, "pings", (double)L->pings);
	cJSON_AddNumberToObject(doc, "seconds", round3(L->seconds));
	cJSON_AddStringToObject(doc, "status", probe_status_name(overall));
	cJSON_AddNumberToObject(doc, "exit_code", code);
	probe_emit("net", doc, code);
}

/* ---- the command ---- */

static int check_usage(void)
{
	int nsrc = !!o_hosts + !!o_hostfile + !!o_ranktable + !!o_agents;
	if (o_agent) {
		if (nsrc || o_user || o_port || o_key || o_known_hosts || o_insecure ||
		    o_parallel || o_remote || o_duration || o_bytes || o_pings || prom_path)
			return fail(
				EXIT_USAGE, WHERE,
				"the agent takes only --listen, --secret-file "
				"and --timeout",
				"--agent is the node side: give it no nodes or measuring options");
		return 0;
	}
	if (o_listen)
		return fail(EXIT_USAGE, WHERE, NULL, "--listen is for --agent");
	if (nsrc != 1)
		return fail(EXIT_USAGE, WHERE, "see 'hcclctl probe net --help'",
			    "give exactly one of --hosts, --hostfile, --ranktable and --agents");
	if (o_agents &&
	    (o_user || o_port || o_key || o_known_hosts || o_insecure || o_parallel || o_remote))
		return fail(EXIT_USAGE, WHERE, NULL,
			    "--agents uses running agents: the --ssh-* options do not apply");
	if (o_agents && !o_secret_file)
		return fail(EXIT_USAGE, WHERE, "the file the agents were started with",
			    "--agents needs --secret-file");
	if (!o_agents && o_secret_file)
		return fail(EXIT_USAGE, WHERE, NULL,
			    "--secret-file is for --agents: over SSH a fresh secret is made");
	return 0;
}

int probe_net_run(int argc, char **argv)
{
	struct launch L = {.cancel = {{-1, -1}}};
	struct rt_hostfile hf = {0};
	struct rt_table t = {0};
	char *agents_buf = NULL, *cmdline = NULL, secret_line[NP_SECRET_HEX + 2];
	pthread_t ft;
	int rc, ft_up = 0, sync_up = 0;
	(void)argc;
	(void)argv;

	if ((rc = check_usage()))
		return rc;
	if (o_agent)
		return agent_main();

	L.timeout_ms = (o_timeout ? o_timeout : 30) * 1000;
	L.pings = o_pings ? o_pings : DEFAULT_PINGS;
	if (o_bytes) {
		if (parse_size(o_bytes, &L.bytes) || L.bytes < 1 || L.bytes > (1ULL << 40))
			return fail(EXIT_USAGE, WHERE, "a size like 64M or 1G, at least 1",
				    "invalid --bytes '%s'", o_bytes);
	}
	L.ms = o_duration ? o_duration : o_bytes ? 0 : DEFAULT_DURATION_MS;
	long ctmo = env_seconds("HCCLCTL_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT);
	if (ctmo < 0)
		return fail(EXIT_USAGE, WHERE, "a whole number of seconds, at least 1",
			    "invalid HCCLCTL_CONNECT_TIMEOUT");

	if (o_agents)
		rc = load_agents(&L, &agents_buf);
	else if (o_ranktable)
		rc = load_ranktable(&L, &t);
	else
		rc = load_hostfile(&L, &hf);
	if (rc)
		goto out;
	if (L.n < 2) {
		rc = fail(EXIT_USAGE, WHERE, NULL,
			  "need at least 2 nodes to measure between, got %zu", L.n);
		goto out;
	}
	if ((o_key && access(o_key, R_OK)) || (o_known_hosts && access(o_known_hosts, R_OK))) {
		const char *f = o_key && access(o_key, R_OK) ? o_key : o_known_hosts;
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "cannot read '%s': %s", f, strerror(errno));
		goto out;
	}
	if (np_matrix_init(&L.m, L.n)) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	pthread_mutex_init(&L.mu, NULL);
	pthread_cond_init(&L.cv, NULL);
	sync_up = 1;
	long long t0 = mono_ms();

	if (o_agents) {
		if ((rc = read_secret(L.key, "--secret-file")))
			goto out;
	} else {
		/* A fresh secret for this run, to the agents on their stdin. */
		if (getrandom(L.key, sizeof(L.key), 0) != (ssize_t)sizeof(L.key)) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "getrandom: %s", strerror(errno));
			goto out;
		}
		hex_of(L.key, sizeof(L.key), secret_line);
		secret_line[NP_SECRET_HEX] = '\n';
		secret_line[NP_SECRET_HEX + 1] = '\0';
		char tmo[24];
		snprintf(tmo, sizeof(tmo), "%lld", L.timeout_ms / 1000);
		const char *w[] = {o_remote ? o_remote : "hcclctl",
				   "probe",
				   "net",
				   "--agent",
				   "--timeout",
				   tmo};
		char *words = sh_join(6, w);
		L.hosts = calloc(L.n, sizeof(*L.hosts));
		cmdline = words ? malloc(strlen(words) + 8) : NULL;
		if (!L.hosts || !cmdline) {
			free(words);
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
			goto out;
		}
		snprintf(cmdline, strlen(words) + 8, "exec %s", words);
		free(words);
		for (size_t i = 0; i < L.n; i++) {
			L.hosts[i].host = L.nodes[i].addr;
			L.hosts[i].name = L.nodes[i].name;
		}
		if ((rc = fo_cancel_init(&L.cancel))) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "pipe: %s", strerror(-rc));
			goto out;
		}
		if (o_insecure)
			warn_msg(WHERE, "--ssh-insecure: host keys are not checked; anyone on the "
					"path can pose as these hosts");
		L.f = (struct fanout){
			.ssh = {.user = o_user,
				.port = (int)o_port,
				.key = o_key,
				.known_hosts = o_known_hosts,
				.insecure = o_insecure,
				.cancel_fd = L.cancel.fd[0]},
			.cmd = cmdline,
			.parallel = (int)L.n, /* every agent stays up for the whole run */
			.connect_parallel = o_parallel ? (int)o_parallel : 32,
			.connect_timeout_ms = ctmo * 1000,
			.keepalive_s = 10,
			.cap = 256 * 1024,
			.input = secret_line,
			.input_len = strlen(secret_line),
			.on_line = launch_on_line,
			.on_done = launch_on_done,
			.arg = &L,
		};
	}
	/* no SA_RESTART: a signal also ends this thread's waits */
	fo_cancel_on_signals(o_agents ? NULL : &L.cancel, 0);

	if (!o_agents) {
		if (pthread_create(&ft, NULL, fanout_thread, &L)) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "cannot start a thread");
			goto out_sig;
		}
		ft_up = 1;
		wait_ready(&L, mono_ms() + ctmo * 1000 + L.timeout_ms);
	}
	connect_agents(&L);
	measure_all(&L);

	if (ft_up) {
		/* The agents leave on "quit"; what has not ended soon is stopped. */
		long long dl = mono_ms() + QUIT_GRACE_MS;
		pthread_mutex_lock(&L.mu);
		while (!L.fanout_done && mono_ms() < dl && !fo_signal_caught())
			cond_wait_until(&L, dl);
		pthread_mutex_unlock(&L.mu);
		fo_cancel_fire(&L.cancel);
		pthread_join(ft, NULL);
		ft_up = 0;
		if (L.fanout_rc) {
			rc = fail(EXIT_UNKNOWN, WHERE, NULL, "%s", L.fanout_err);
			goto out_sig;
		}
	}
	L.seconds = (double)(mono_ms() - t0) / 1000.0;
	if (fo_signal_caught()) {
		rc = fail(128 + fo_signal_caught(), WHERE, NULL, "interrupted by %s: stopped every agent",
			  strsignal(fo_signal_caught()));
		goto out_sig;
	}

	np_matrix_judge(&L.m, SLOW_FRACTION);
	enum probe_status overall = PROBE_PASS;
	size_t ndown = 0;
	for (size_t i = 0; i < L.n; i++) {
		if (L.nodes[i].state == N_DOWN) {
			ndown++;
			overall = probe_status_worst(overall, PROBE_UNKNOWN);
		}
		overall = probe_status_worst(overall, L.m.node[i].status);
	}
	for (size_t i = 0; i < L.n * L.n; i++)
		if (L.m.l[i].status != PROBE_SKIP)
			overall = probe_status_worst(overall, L.m.l[i].status);
	if (!L.m.nmeasured)
		overall = probe_status_worst(overall, PROBE_UNKNOWN);
	rc = probe_status_exit(overall);
	if (g_opts.json || prom_path)
		print_json(&L, overall, g_opts.strict && rc == EXIT_WARN ? EXIT_FAIL : rc);
	if (!g_opts.json)
		print_text(&L, overall);
	for (size_t i = 0; i < L.n; i++)
		if (L.nodes[i].state == N_DOWN)
			fail(rc, WHERE, NULL, "%s: not measured: %s", L.nodes[i].name,
			     L.nodes[i].why);
	if (ndown && !o_agents)
		fprintf(stderr, "hint: check that sshd runs there and that hcclctl is installed "
				"(--remote-hcclctl PATH)\n");
out_sig:
	fo_cancel_signals_off();
out:
	if (ft_up) {
		fo_cancel_fire(&L.cancel);
		pthread_join(ft, NULL);
	}
	if (sync_up) {
		pthread_cond_destroy(&L.cv);
		pthread_mutex_destroy(&L.mu);
	}
	for (size_t i = 0; L.nodes && i < L.n; i++)
		if (L.nodes[i].fd >= 0)
			close(L.nodes[i].fd);
	for (size_t i = 0; L.hosts && i < L.n; i++)
		fo_host_release(&L.hosts[i]);
	fo_cancel_release(&L.cancel);
	np_matrix_release(&L.m);
	free(L.hosts);
	free(L.nodes);
	free(cmdline);
	free(agents_buf);
	rt_hostfile_release(&hf);
	rt_table_release(&t);
	return rc;
}
