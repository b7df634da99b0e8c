/* The link as the benchmarks see it, measured rather than assumed: a single-stream TCP
 * transfer (payload GB/s) and a small-message ping-pong (one-way latency, half the round
 * trip). iperf is not assumed to be installed.
 *
 *   netprobe serve ADDR PORT              answer one stream or ping-pong client, then exit
 *   netprobe stream ADDR PORT SECONDS     send for SECONDS; prints the receiver's GB/s
 *   netprobe pingpong ADDR PORT BYTES N   N round trips of BYTES; prints one-way us
 *
 * Output is one line of JSON on stdout. Exit 0, or 3 with a message on stderr. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1 << 20)
#define MAXMSG 999999 /* six digits in the 8-byte request; <= CHUNK, the server's buffer */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int die(const char *what)
{
	fprintf(stderr, "netprobe: %s: %s\n", what, strerror(errno));
	return 3;
}

static int addr_of(const char *ip, const char *port, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)atoi(port));
	return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -1;
}

static int full_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int full_read(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len) {
		ssize_t r = read(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static void nodelay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* The client's first 8 bytes say what it wants: 'S' stream, or 'P' and a message size. */
static int serve(const char *ip, const char *port)
{
	struct sockaddr_in sa;
	int one = 1, rc = 3;
	char *buf = malloc(CHUNK);
	if (!buf || addr_of(ip, port, &sa))
		return die("bad address or no memory");
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0)
		return die("socket");
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1)) {
		rc = die("bind/listen");
		goto out_ls;
	}
	printf("{\"listening\": true}\n");
	fflush(stdout);
	int fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		rc = die("accept");
		goto out_ls;
	}
	nodelay(fd);
	char hdr[9] = "";
	if (full_read(fd, hdr, 8)) {
		rc = die("read header");
		goto out_fd;
	}
	if (hdr[0] == 'S') {
		/* Time from the first payload byte to EOF, as the receiver sees it. */
		unsigned long long bytes = 0;
		double t0 = 0, t1 = 0;
		for (;;) {
			ssize_t r = read(fd, buf, CHUNK);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				rc = die("read");
				goto out_fd;
			}
			if (r == 0)
				break;
			t1 = now_s();
			if (!bytes)
				t0 = t1;
			bytes += (unsigned long long)r;
		}
		double dt = t1 - t0;
		char ans[64];
		int l = snprintf(ans, sizeof(ans), "%.9g %llu\n", dt > 0 ? bytes / dt / 1e9 : 0,
				 bytes);
		if (full_write(fd, ans, (size_t)l))
			goto out_fd;
	} else {
		size_t len = (size_t)atoi(hdr + 1);
		if (len < 1 || len > MAXMSG)
			goto out_fd;
		while (!full_read(fd, buf, len))
			if (full_write(fd, buf, len))
				break;
	}
	rc = 0;
out_fd:
	close(fd);
out_ls:
	close(ls);
	free(buf);
	return rc;
}

static int connect_to(const char *ip, const char *port)
{
	struct sockaddr_in sa;
	if (addr_of(ip, port, &sa))
		return -1;
	/* The server may still be starting: retry for 5 s. */
	for (int i = 0; i < 500; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			nodelay(fd);
			return fd;
		}
		close(fd);
		usleep(10000);
	}
	return -1;
}

static int stream(const char *ip, const char *port, double secs)
{
	char *buf = calloc(1, CHUNK), ans[64] = "";
	int fd = connect_to(ip, port), rc = 3;
	if (!buf || fd < 0) {
		free(buf);
		return die("connect");
	}
	char hdr[8] = "S";
	if (full_write(fd, hdr, sizeof(hdr)))
		goto out;
	double t0 = now_s();
	while (now_s() - t0 < secs)
		if (full_write(fd, buf, CHUNK)) {
			rc = die("write");
			goto out;
		}
	shutdown(fd, SHUT_WR);
	ssize_t r = read(fd, ans, sizeof(ans) - 1);
	double gbps;
	unsigned long long bytes;
	if (r <= 0 || sscanf(ans, "%lg %llu", &gbps, &bytes) != 2) {
		rc = die("no answer from the receiver");
		goto out;
	}
	printf("{\"stream_GBps\": %.6f, \"bytes\": %llu, \"seconds\": %.3f}\n", gbps, bytes, secs);
	rc = 0;
out:
	close(fd);
	free(buf);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int pingpong(const char *ip, const char *port, size_t len, int n)
{
	char *buf = calloc(1, len);
	double *rtt = calloc((size_t)n, sizeof(*rtt));
	int fd = connect_to(ip, port), rc = 3;
	if (!buf || !rtt || fd < 0) {
		free(buf);
		free(rtt);
		return die("connect");
	}
	char hdr[8];
	snprintf(hdr, sizeof(hdr), "P%u", (unsigned)(len % 1000000));
	if (full_write(fd, hdr, sizeof(hdr)))
		goto out;
	int warm = n / 10 + 10;
	for (int i = -warm; i < n; i++) {
		double t0 = now_s();
		if (full_write(fd, buf, len) || full_read(fd, buf, len)) {
			rc = die("ping-pong");
			goto out;
		}
		if (i >= 0)
			rtt[i] = now_s() - t0;
	}
	qsort(rtt, (size_t)n, sizeof(*rtt), cmp_double);
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += rtt[i];
	printf("{\"bytes\": %zu, \"round_trips\": %d, \"oneway_us_median\": %.3f, "
	       "\"oneway_us_min\": %.3f, \"oneway_us_mean\": %.3f}\n",
	       len, n, rtt[n / 2] / 2 * 1e6, rtt[0] / 2 * 1e6, sum / n / 2 * 1e6);
	rc = 0;
out:
	close(fd);
	free(buf);
	free(rtt);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "serve"))
		return serve(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "stream"))
		return stream(argv[2], argv[3], atof(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "pingpong")) {
		long len = atol(argv[4]), n = atol(argv[5]);
		if (len >= 1 && len <= MAXMSG && n >= 1 && n <= 10000000)
			return pingpong(argv[2], argv[3], (size_t)len, (int)n);
	}
	fprintf(stderr, "usage: netprobe serve ADDR PORT | stream ADDR PORT SECONDS | "
			"pingpong ADDR PORT BYTES N\n");
	return 64;
}
