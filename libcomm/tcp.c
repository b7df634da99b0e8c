/* The TCP transport: non-blocking sockets with TCP_NODELAY and large buffers, IPv4 and IPv6
 * through getaddrinfo. The engine reaches it only through comm__tcp_ops. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcomm/internal.h"

/* Large buffers only where the kernel allows them: setting SO_SNDBUF turns off autotuning, so
 * a value the kernel would clamp small would cost bandwidth instead of adding it. */
static int sysctl_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = 0;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static int wmax, rmax;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void read_limits(void)
{
	wmax = sysctl_int("/proc/sys/net/core/wmem_max");
	rmax = sysctl_int("/proc/sys/net/core/rmem_max");
}

static void tune(int fd)
{
	int one = 1, sz = COMM__SOCKBUF;
	pthread_once(&limits_once, read_limits);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (wmax >= COMM__SOCKBUF)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (rmax >= COMM__SOCKBUF)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
}

/* Only a buffer set with SO_SNDBUF is fixed (autotuning may keep one small). The kernel
 * doubles the value set for its bookkeeping and charges each buffer's overhead against it;
 * a quarter of what it reports is left for payload even with small segments. */
static size_t tcp_send_ahead(int fd)
{
	int sz = 0;
	socklen_t len = sizeof(sz);
	pthread_once(&limits_once, read_limits);
	if (wmax < COMM__SOCKBUF || getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, &len) || sz <= 0)
		return 0;
	return (size_t)sz / 4;
}

static size_t tcp_queued(int fd)
{
	int n = 0;
	return ioctl(fd, FIONREAD, &n) == 0 && n > 0 ? (size_t)n : 0;
}

static void fmt_addr(const struct sockaddr *sa, char *out, size_t outlen)
{
	char h[INET6_ADDRSTRLEN] = "?";
	int port = 0;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
		inet_ntop(AF_INET, &s4->sin_addr, h, sizeof(h));
		port = ntohs(s4->sin_port);
		snprintf(out, outlen, "%s:%d", h, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
		inet_ntop(AF_INET6, &s6->sin6_addr, h, sizeof(h));
		port = ntohs(s6->sin6_port);
		snprintf(out, outlen, "[%s]:%d", h, port);
	} else {
		snprintf(out, outlen, "?");
	}
}

static int resolve(const char *host, int port, int passive, struct addrinfo **res, char *err,
		   size_t errlen)
{
	struct addrinfo hints = { 0 };
	char ps[8];
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
	snprintf(ps, sizeof(ps), "%d", port);
	int rc = getaddrinfo(host, ps, &hints, res);
	if (rc)
		return comm__errf(err, errlen, -EHOSTUNREACH, "cannot resolve '%s': %s",
				  host ? host : "*", gai_strerror(rc));
	return 0;
}

static int tcp_listen(const char *addr, int *port, int *fd_out, char *err, size_t errlen)
{
	struct addrinfo *res = NULL;
	int rc = resolve(addr, *port, 1, &res, err, errlen);
	if (rc)
		return rc;
	int fd = -1, e = 0;
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		tune(fd); /* accepted sockets inherit the buffers (window scale is set at SYN) */
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return comm__errf(err, errlen, -e, "cannot listen on %s:%d: %s", addr ? addr : "*",
				  *port, strerror(e));
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		*port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						       : ((struct sockaddr_in *)&ss)->sin_port);
	*fd_out = fd;
	return 0;
}

static int tcp_accept(int lfd, int *fd_out, char *peer, size_t peerlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (peer && peerlen)
		fmt_addr((struct sockaddr *)&ss, peer, peerlen);
	*fd_out = fd;
	return 0;
}

static int tcp_connect(const char *host, int port, int64_t deadline, int *fd_out, char *err,
		       size_t errlen)
{
	struct addrinfo *res = NULL;
	int rc = resolve(host, port, 0, &res, err, errlen);
	if (rc)
		return rc;
	int e = ECONNREFUSED, fd = -1;
	for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		tune(fd);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		e = errno;
		if (e == EINPROGRESS) {
			struct pollfd pf = { fd, POLLOUT, 0 };
			for (;;) {
				int64_t left = deadline - mono_ms();
				int n = poll(&pf, 1, left > 0 ? (int)left : 0);
				if (n < 0 && errno == EINTR)
					continue;
				socklen_t sl = sizeof(e);
				if (n == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) == 0)
					break;
				e = n == 0 ? ETIMEDOUT : errno;
				break;
			}
			if (e == 0)
				break;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return comm__errf(err, errlen, -e, "cannot connect to %s:%d: %s", host, port,
				  strerror(e));
	*fd_out = fd;
	return 0;
}

static ssize_t tcp_send(int fd, const struct iovec *iov, int iovcnt)
{
	struct msghdr m = { 0 };
	m.msg_iov = (struct iovec *)iov;
	m.msg_iovlen = (size_t)iovcnt;
	for (;;) {
		ssize_t k = sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k >= 0)
			return k;
		if (errno == EINTR)
			continue;
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	}
}

static ssize_t tcp_recv(int fd, void *buf, size_t len)
{
	for (;;) {
		ssize_t k = recv(fd, buf, len, MSG_DONTWAIT);
		if (k >= 0)
			return k;
		if (errno == EINTR)
			continue;
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	}
}

static void tcp_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

const struct comm_transport_ops comm__tcp_ops = {
	.name = "tcp",
	.listen = tcp_listen,
	.accept = tcp_accept,
	.connect = tcp_connect,
	.send = tcp_send,
	.recv = tcp_recv,
	.close = tcp_close,
	.send_ahead = tcp_send_ahead,
	.queued = tcp_queued,
};
