/* A single-producer, single-consumer byte ring in memory two processes share (shm.c maps it).
 * Head (bytes ever written) and tail (bytes ever read) are 64-bit counters on cache lines of
 * their own, published with release and read with acquire, so a byte is read only after it
 * was written and overwritten only after it was read. The sleeping flags let either side
 * block without losing a wake-up: the sleeper raises its flag, saying how it sleeps, and
 * checks again; the other side, after moving bytes, takes the flag down and, if it was up,
 * wakes it the way it said: the doorbell (one byte on the link's TCP socket) for one in
 * epoll_wait, FUTEX_WAKE on the flag itself for one in futex_waitv. No system call on the
 * ring itself while both sides are awake. */
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
	/* COMM__RING_*: the reader waits for bytes, the writer for room; futex words */
	_Alignas(COMM__LINE) _Atomic uint32_t rsleep;
	_Alignas(COMM__LINE) _Atomic uint32_t wsleep;
};

/* A sleeping flag's values: awake, asleep in epoll_wait (ring its doorbell), asleep in
 * futex_waitv on the flag (FUTEX_WAKE it). */
enum { COMM__RING_AWAKE = 0, COMM__RING_BELL = 1, COMM__RING_FUTEX = 2 };

/* One side's view: the shared control, the data (cap bytes, a power of two), and what this
 * side last saw of the other's counter (for the check before sleeping). */
struct comm__ring {
	struct comm__ring_ctl *ctl;
	unsigned char *data;
	size_t cap;
	uint64_t seen;
};

void comm__ring_init(struct comm__ring *r, struct comm__ring_ctl *ctl, void *data, size_t cap);
/* Bytes of iov[cnt] written, as many as there is room for (0: full); *wake: how the reader
 * sleeps (COMM__RING_*), to be woken so; COMM__RING_AWAKE when it does not. */
size_t comm__ring_write(struct comm__ring *r, const struct iovec *iov, int cnt, unsigned *wake);
/* Up to len bytes into dst (0: empty); *wake: how the writer sleeps, as above. */
size_t comm__ring_read(struct comm__ring *r, void *dst, size_t len, unsigned *wake);
size_t comm__ring_used(const struct comm__ring *r);
/* Before sleeping: the reader (writer) raises its flag to how (COMM__RING_BELL or _FUTEX) and
 * returns true when the other side moved since this side last looked, i.e. sleeping now
 * could miss it; the flag is then down again. After the sleep, _awake takes it down. */
bool comm__ring_reader_arm(struct comm__ring *r, unsigned how);
bool comm__ring_writer_arm(struct comm__ring *r, unsigned how);
void comm__ring_reader_awake(struct comm__ring *r);
void comm__ring_writer_awake(struct comm__ring *r);
/* The reader's (writer's) flag: to wait on with others (futex_waitv), and to wake (below). */
_Atomic uint32_t *comm__ring_reader_flag(struct comm__ring *r);
_Atomic uint32_t *comm__ring_writer_flag(struct comm__ring *r);
/* FUTEX_WAKE on a flag whose side said COMM__RING_FUTEX and was found asleep by _write or
 * _read. The flags are in memory both processes map, so the futex is a shared one. */
void comm__ring_wake(_Atomic uint32_t *flag);

#endif
