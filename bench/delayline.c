/* A link delay where the kernel has no netem: an Ethernet switch in user space that holds
 * every frame DELAY_US before it goes out, standing in for the namespace cluster's bridge.
 * Each frame crosses it once between two nodes, so a node-to-node one-way time grows by the
 * delay, as netem on every node's egress would make it.
 *
 *   delayline DELAY_US IFNAME...   forward between the interfaces (in this namespace) until
 *                                   killed; learns where each MAC address is, floods the rest
 *
 * Frames are read and written with their virtio-net header (PACKET_VNET_HDR), so the
 * veths' TCP segmentation and checksum offloads pass through untouched: a 64 KiB segment
 * read here is split by the kernel when it is written out. What goes out still passes the
 * interface's qdisc (htb shapes it as it shaped the bridge's).
 *
 * It is no netem: the delay is DELAY_US plus this process's wake-up (timer slack set to
 * 1 ns; tens of microseconds on a busy VM), the queue holds QUEUE_LEN frames (more are
 * dropped, as a full switch port drops), and it uses a core while frames wait. The benches
 * measure the latency they get (a ping-pong through it) rather than assume the delay.
 * Exit 0 on SIGTERM/SIGINT, 3 with a message on stderr. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 64
#define QUEUE_LEN 256
#define FRAME_MAX (sizeof(struct virtio_net_hdr) + 65536 + 64)
#define MACS 512

struct frame {
	int64_t due_ns;
	int in;
	size_t len;
	unsigned char *data;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int die(const char *what, const char *arg)
{
	fprintf(stderr, "delayline: %s%s%s: %s\n", what, arg ? " " : "", arg ? arg : "",
		strerror(errno));
	return 3;
}

static int open_port(const char *ifname, int *fd_out)
{
	int idx = (int)if_nametoindex(ifname);
	if (!idx)
		return die("no interface", ifname);
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0)
		return die("socket(AF_PACKET) for", ifname);
	int one = 1;
	/* our own writes would otherwise come back to us as frames received */
	if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)))
		return die("setsockopt on", ifname);
	struct sockaddr_ll sa = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				  .sll_ifindex = idx };
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return die("bind to", ifname);
	*fd_out = fd;
	return 0;
}

struct mac_entry {
	unsigned char mac[6];
	int port;
};

static struct mac_entry macs[MACS];
static int nmacs;

static void learn(const unsigned char *mac, int port)
{
	if (mac[0] & 1)
		return;
	for (int i = 0; i < nmacs; i++)
		if (!memcmp(macs[i].mac, mac, 6)) {
			macs[i].port = port;
			return;
		}
	if (nmacs < MACS) {
		memcpy(macs[nmacs].mac, mac, 6);
		macs[nmacs++].port = port;
	}
}

static int where(const unsigned char *mac)
{
	if (mac[0] & 1)
		return -1;
	for (int i = 0; i < nmacs; i++)
		if (!memcmp(macs[i].mac, mac, 6))
			return macs[i].port;
	return -1;
}

static void forward(const int *fds, int nports, const struct frame *f)
{
	const unsigned char *eth = f->data + sizeof(struct virtio_net_hdr);
	int to = where(eth);
	for (int p = 0; p < nports; p++)
		if (p != f->in && (to < 0 || to == p))
			(void)send(fds[p], f->data, f->len, MSG_DONTWAIT); /* a full port drops */
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc - 2 > MAX_PORTS) {
		fprintf(stderr, "usage: delayline DELAY_US IFNAME... (2 to %d interfaces)\n",
			MAX_PORTS);
		return 64;
	}
	char *end;
	long us = strtol(argv[1], &end, 10);
	if (*end || us < 0 || us > 1000000) {
		fprintf(stderr, "delayline: DELAY_US '%s' is not 0..1000000\n", argv[1]);
		return 64;
	}
	int64_t delay = (int64_t)us * 1000;
	int nports = argc - 2, fds[MAX_PORTS];
	struct pollfd pf[MAX_PORTS];
	for (int p = 0; p < nports; p++) {
		int rc = open_port(argv[p + 2], &fds[p]);
		if (rc)
			return rc;
		pf[p] = (struct pollfd){ .fd = fds[p], .events = POLLIN };
	}
	prctl(PR_SET_TIMERSLACK, 1UL); /* the default 50 us would be half the delay */
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	static struct frame q[QUEUE_LEN];
	for (int i = 0; i < QUEUE_LEN; i++)
		if (!(q[i].data = malloc(FRAME_MAX)))
			return die("out of memory", NULL);
	size_t head = 0, count = 0;
	while (!stop) {
		int64_t now = now_ns();
		while (count && q[head].due_ns <= now) {
			forward(fds, nports, &q[head]);
			head = (head + 1) % QUEUE_LEN;
			count--;
		}
		struct timespec ts, *tp = NULL;
		if (count) {
			int64_t left = q[head].due_ns - now;
			ts.tv_sec = (time_t)(left / 1000000000);
			ts.tv_nsec = (long)(left % 1000000000);
			tp = &ts;
		}
		int k = ppoll(pf, (nfds_t)nports, tp, NULL);
		if (k < 0 && errno != EINTR)
			return die("ppoll", NULL);
		if (k <= 0)
			continue;
		for (int p = 0; p < nports; p++) {
			if (!(pf[p].revents & POLLIN))
				continue;
			for (;;) {
				struct frame *f = &q[(head + count) % QUEUE_LEN];
				unsigned char spill[FRAME_MAX];
				unsigned char *dst = count < QUEUE_LEN ? f->data : spill;
				ssize_t n = recv(fds[p], dst, FRAME_MAX, 0);
				if (n < 0 && (errno == EAGAIN || errno == EINTR))
					break;
				if (n < 0)
					return die("recv on", argv[p + 2]);
				if ((size_t)n < sizeof(struct virtio_net_hdr) + ETH_HLEN ||
				    count == QUEUE_LEN)
					continue; /* a runt, or no room: dropped */
				learn(dst + sizeof(struct virtio_net_hdr) + 6, p);
				f->due_ns = now_ns() + delay;
				f->in = p;
				f->len = (size_t)n;
				count++;
			}
		}
	}
	return 0;
}
