/* The transport under libcomm: a table of operations on connection handles (file descriptors
 * for TCP). Everything above it (bootstrap, mesh, progress) goes through the table, so an RDMA
 * verbs transport can slide in behind HAVE_IBVERBS without touching the engine. Handles are
 * non-blocking; the engine waits on them with epoll/poll. */
#ifndef LIBCOMM_TRANSPORT_H
#define LIBCOMM_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

struct comm_transport_ops {
	const char *name;
	/* Listens on addr (numeric or name; NULL: any) and port (0: ephemeral, written back). */
	int (*listen)(const char *addr, int *port, int *fd_out, char *err, size_t errlen);
	/* Accepts one pending connection: 0, -EAGAIN when none, or -errno. peer[peerlen] gets
	 * "addr:port" of the other end. */
	int (*accept)(int lfd, int *fd_out, char *peer, size_t peerlen);
	/* Connects to host:port before deadline (CLOCK_MONOTONIC ms): 0 or -errno with err. */
	int (*connect)(const char *host, int port, int64_t deadline, int *fd_out, char *err,
		       size_t errlen);
	/* Non-blocking gather send / receive: bytes moved, 0 on EOF (recv), or -errno
	 * (-EAGAIN when it would block). */
	ssize_t (*send)(int fd, const struct iovec *iov, int iovcnt);
	ssize_t (*recv)(int fd, void *buf, size_t len);
	void (*close)(int fd);
	/* Bytes that can be sent on fd with the peer not receiving at all, guaranteed (a send
	 * buffer the kernel will not shrink), or 0 when nothing is guaranteed. */
	size_t (*send_ahead)(int fd);
	/* Bytes that a receive on fd would get now without waiting (0 when unknown). */
	size_t (*queued)(int fd);
};

extern const struct comm_transport_ops comm__tcp_ops;

#endif
