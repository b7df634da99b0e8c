/* The shared-memory byte ring (shmring.h). The wake-up protocol is Dekker's: the sleeper
 * stores its flag then loads the other's counter, the mover stores its counter then loads
 * the flag, each pair separated by a sequentially consistent fence, so at least one of them
 * sees the other: either the sleeper sees the bytes and does not sleep, or the mover sees
 * the flag and rings. */
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libcomm/shmring.h"

void comm__ring_init(struct comm__ring *r, struct comm__ring_ctl *ctl, void *data, size_t cap)
{
	r->ctl = ctl;
	r->data = data;
	r->cap = cap;
	r->seen = 0;
}

size_t comm__ring_used(const struct comm__ring *r)
{
	uint64_t h = atomic_load_explicit(&r->ctl->head, memory_order_acquire);
	uint64_t t = atomic_load_explicit(&r->ctl->tail, memory_order_acquire);
	return (size_t)(h - t);
}

/* After moving bytes: was the other side asleep on flag? How (it is woken once), else 0. */
static unsigned take_flag(_Atomic uint32_t *flag)
{
	atomic_thread_fence(memory_order_seq_cst);
	return atomic_load_explicit(flag, memory_order_relaxed)
		       ? atomic_exchange_explicit(flag, COMM__RING_AWAKE, memory_order_acq_rel)
		       : COMM__RING_AWAKE;
}

size_t comm__ring_write(struct comm__ring *r, const struct iovec *iov, int cnt, unsigned *wake)
{
	uint64_t h = atomic_load_explicit(&r->ctl->head, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&r->ctl->tail, memory_order_acquire);
	size_t room = r->cap - (size_t)(h - t), done = 0;
	r->seen = t;
	*wake = COMM__RING_AWAKE;
	for (int i = 0; i < cnt && room; i++) {
		const unsigned char *src = iov[i].iov_base;
		size_t n = iov[i].iov_len < room ? iov[i].iov_len : room;
		for (size_t left = n; left;) { /* at most two pieces: up to the end, from the start */
			size_t at = (size_t)(h & (r->cap - 1)), k = r->cap - at;
			k = k < left ? k : left;
			memcpy(r->data + at, src, k);
			src += k;
			h += k;
			left -= k;
		}
		room -= n;
		done += n;
	}
	if (!done)
		return 0;
	atomic_store_explicit(&r->ctl->head, h, memory_order_release);
	*wake = take_flag(&r->ctl->rsleep);
	return done;
}

size_t comm__ring_read(struct comm__ring *r, void *dst, size_t len, unsigned *wake)
{
	uint64_t t = atomic_load_explicit(&r->ctl->tail, memory_order_relaxed);
	uint64_t h = atomic_load_explicit(&r->ctl->head, memory_order_acquire);
	size_t n = (size_t)(h - t) < len ? (size_t)(h - t) : len;
	unsigned char *d = dst;
	r->seen = h;
	*wake = COMM__RING_AWAKE;
	if (!n)
		return 0;
	for (size_t left = n; left;) {
		size_t at = (size_t)(t & (r->cap - 1)), k = r->cap - at;
		k = k < left ? k : left;
		memcpy(d, r->data + at, k);
		d += k;
		t += k;
		left -= k;
	}
	atomic_store_explicit(&r->ctl->tail, t, memory_order_release);
	*wake = take_flag(&r->ctl->wsleep);
	return n;
}

/* Raise flag, then look at the other side's counter: moved since seen means do not sleep. */
static bool arm(_Atomic uint32_t *flag, unsigned how, _Atomic uint64_t *other, uint64_t *seen)
{
	atomic_store_explicit(flag, how, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	uint64_t v = atomic_load_explicit(other, memory_order_acquire);
	if (v == *seen)
		return false;
	*seen = v;
	atomic_store_explicit(flag, COMM__RING_AWAKE, memory_order_relaxed);
	return true;
}

bool comm__ring_reader_arm(struct comm__ring *r, unsigned how)
{
	return arm(&r->ctl->rsleep, how, &r->ctl->head, &r->seen);
}

bool comm__ring_writer_arm(struct comm__ring *r, unsigned how)
{
	return arm(&r->ctl->wsleep, how, &r->ctl->tail, &r->seen);
}

void comm__ring_reader_awake(struct comm__ring *r)
{
	atomic_store_explicit(&r->ctl->rsleep, COMM__RING_AWAKE, memory_order_relaxed);
}

void comm__ring_writer_awake(struct comm__ring *r)
{
	atomic_store_explicit(&r->ctl->wsleep, COMM__RING_AWAKE, memory_order_relaxed);
}

void comm__ring_wake(_Atomic uint32_t *flag)
{
	/* a wake nobody waits for any more (the sleeper timed out) is harmless */
	(void)syscall(SYS_futex, (uint32_t *)flag, FUTEX_WAKE, 1, NULL, NULL, 0);
}

_Atomic uint32_t *comm__ring_reader_flag(struct comm__ring *r)
{
	return &r->ctl->rsleep;
}

_Atomic uint32_t *comm__ring_writer_flag(struct comm__ring *r)
{
	return &r->ctl->wsleep;
}
