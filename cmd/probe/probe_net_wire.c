/* hcclctl probe net's wire: TCP sockets whose every call is bounded by a deadline, the HMAC
 * challenge each connection answers, the timed streams that measure bandwidth, and the shared
 * secret's reading. The agent and the launcher both speak it; it calls neither, so it sits
 * below both. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd/probe/probe_net.h"
#include "ranktable/base/clock.h"

int pnet_left_ms(long long deadline)
{
	long long l = deadline - mono_ms();
	return l <= 0 ? 0 : l > 3600000 ? 3600000 : (int)l;
}

/* Waits until fd is ready for events or deadline passes: 0, -ETIMEDOUT or -errno. */
int pnet_wait_fd(int fd, short events, long long deadline)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, pnet_left_ms(deadline));
		if (n > 0)
			return 0;
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

int pnet_send_all(int fd, const void *buf, size_t len, long long deadline)
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
			int rc = pnet_wait_fd(fd, POLLOUT, deadline);
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
		int rc = pnet_wait_fd(fd, POLLIN, deadline);
		if (rc)
			return rc;
	}
}

const char *pnet_errtext(int rc)
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

int pnet_send_msg(int fd, const struct np_msg *m, long long deadline)
{
	char line[NP_LINE_MAX];
	int n = np_msg_format(m, line, sizeof(line));
	return n < 0 ? n : pnet_send_all(fd, line, (size_t)n, deadline);
}

/* Reads and parses one message; on failure err says what arrived or did not. */
int pnet_recv_msg(int fd, struct np_msg *m, long long deadline, char *err, size_t errlen)
{
	char line[NP_LINE_MAX], why[256];
	int n = read_line(fd, line, sizeof(line), deadline);
	if (n < 0) {
		snprintf(err, errlen, "%s", pnet_errtext(n));
		return n;
	}
	if (np_msg_parse(m, line, (size_t)n, why, sizeof(why))) {
		snprintf(err, errlen, "bad message: %s", why);
		return -EPROTO;
	}
	return 0;
}

void pnet_tune(int fd)
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
			rc = pnet_wait_fd(fd, POLLOUT, deadline);
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
		pnet_tune(fd);
	return fd;
}

void pnet_hex_of(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The listener's side of the challenge: 0, or -EACCES (a wrong answer, refused) or another
 * error, with err set. */
int pnet_auth_server(int fd, const unsigned char *key, long long deadline, char *err, size_t errlen)
{
	unsigned char nonce[NP_NONCE_HEX / 2];
	struct np_msg m = {.kind = NP_HELLO}, a;
	char want[NP_MAC_HEX + 1];
	if (getrandom(nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -EIO;
	}
	pnet_hex_of(nonce, sizeof(nonce), m.hex);
	int rc = pnet_send_msg(fd, &m, deadline);
	if (rc) {
		snprintf(err, errlen, "%s", pnet_errtext(rc));
		return rc;
	}
	if ((rc = pnet_recv_msg(fd, &a, deadline, err, errlen)))
		return rc;
	if (a.kind != NP_AUTH || np_mac(key, m.hex, want) || !np_mac_equal(want, a.hex)) {
		struct np_msg no = {.kind = NP_REFUSED};
		pnet_send_msg(fd, &no, deadline);
		snprintf(err, errlen, "%s",
			 a.kind == NP_AUTH ? "wrong secret" : "no answer to the challenge");
		return -EACCES;
	}
	struct np_msg yes = {.kind = NP_OK};
	rc = pnet_send_msg(fd, &yes, deadline);
	if (rc)
		snprintf(err, errlen, "%s", pnet_errtext(rc));
	return rc;
}

/* The connecting side: answers the challenge and waits for "ok". */
static int auth_client(int fd, const unsigned char *key, long long deadline, char *err,
		       size_t errlen)
{
	struct np_msg h, a = {.kind = NP_AUTH}, v;
	char why[300];
	int rc = pnet_recv_msg(fd, &h, deadline, why, sizeof(why));
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
	if ((rc = pnet_send_msg(fd, &a, deadline))) {
		snprintf(err, errlen, "%s", pnet_errtext(rc));
		return rc;
	}
	if ((rc = pnet_recv_msg(fd, &v, deadline, why, sizeof(why)))) {
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
int pnet_open_peer(const char *host, int port, const unsigned char *key, long long deadline,
		   char *err, size_t errlen)
{
	char why[300];
	int fd = tcp_connect(host, port, deadline, err, errlen);
	if (fd < 0)
		return -1;
	if (auth_client(fd, key, deadline, why, sizeof(why))) {
		snprintf(err, errlen, "%s port %d: %s", host, port, why);
		close(fd);
		return -2;
	}
	return fd;
}

/* ==== streaming ==== */

/* Sends for ms milliseconds or bytes bytes (a zero is no limit; one of them is set), then
 * shuts the write side. Returns the bytes sent, or a negative code. */
long long pnet_stream_out(int fd, long long ms, unsigned long long bytes, long long deadline)
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
			int rc = pnet_wait_fd(fd, POLLOUT, until);
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

int pnet_stream_in(int fd, struct rx_count *c, long long deadline)
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
		if ((rc = pnet_wait_fd(fd, POLLIN, deadline)))
			break;
	}
	free(buf);
	c->ns = t_last - t_first;
	return rc;
}

double pnet_rate_bps(unsigned long long bytes, long long ns)
{
	return ns > 0 ? (double)bytes * 8e9 / (double)ns : 0;
}

/* Reads the secret: secret_file (--secret-file), else one line of stdin. */
int pnet_read_secret(unsigned char key[NP_KEY_LEN], const char *who, const char *secret_file)
{
	char buf[256], err[200];
	size_t n = 0;
	if (secret_file) {
		FILE *f = fopen(secret_file, "r");
		if (!f)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "cannot read --secret-file '%s': %s",
				    secret_file, strerror(errno));
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
			    "%s: %s (from %s)", who, err, secret_file ? secret_file : "stdin");
	return 0;
}
