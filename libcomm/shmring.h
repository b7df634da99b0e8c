/* A single-producer, single-consumer byte ring in memory two processes share (shm.c maps it).
 * Head (bytes ever written) and tail (bytes ever read) are 64-bit counters on cache lines of
 * their own, published with release and read with acquire, so a byte is read only after it
 * was written and overwritten only after it was read. The sleeping flags let either side
 * block in epoll_wait without losing a wake-up: the sleeper raises its flag and checks again;
 * the other side, after moving bytes, takes the flag down and, if it was up, rings the
 * doorbell (one byte on the link's TCP socket). No system call on the ring itself. */
#ifndef LIBCOMM_SHMRING_H
#define LIBCOMM_SHMRING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define COMM__LINE 64

/* The shared part, at the start of the mapping; zero bytes are an empty ring. */
struct comm__ring_ctl {
	_Alignas(COMM__LINE) _Atomic uint64_t head;
	_Alignas(COMM__LINE) _Atomic uint64_t tail;
	_Alignas(COMM__LINE) _Atomic uint32_t rsleep; /* the reader waits for bytes */
	_Alignas(COMM__LINE) _Atomic uint32_t wsleep; /* the writer waits for room */
};

/* One side's view: the shared control, the data (cap bytes, a power of two), and what this
 * side last saw of the other's counter (for the check before sleeping). */
struct comm__ring {
	struct comm__ring_ctl *ctl;
	unsigned char *data;
	size_t cap;
	uint64_t seen;
};

void comm__ring_init(struct comm__ring *r, struct comm__ring_ctl *ctl, void *data, size_t cap);
/* Bytes of iov[cnt] written, as many as there is room for (0: full); *wake: the reader was
 * asleep, ring its doorbell. */
size_t comm__ring_write(struct comm__ring *r, const struct iovec *iov, int cnt, bool *wake);
/* Up to len bytes into dst (0: empty); *wake: the writer was asleep, ring its doorbell. */
size_t comm__ring_read(struct comm__ring *r, void *dst, size_t len, bool *wake);
size_t comm__ring_used(const struct comm__ring *r);
/* Before sleeping: the reader (writer) raises its flag and returns true when the other side
 * moved since this side last looked, i.e. sleeping now could miss it; the flag is then down
 * again. After the sleep, _awake takes it down. */
bool comm__ring_reader_arm(struct comm__ring *r);
bool comm__ring_writer_arm(struct comm__ring *r);
void comm__ring_reader_awake(struct comm__ring *r);
void comm__ring_writer_awake(struct comm__ring *r);

#endif
