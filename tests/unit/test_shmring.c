/* The shared-memory byte ring (libcomm/shmring.c): contents across the wrap, partial writes
 * and reads, full and empty, the sleeping flags and their doorbells, and two threads moving
 * 64 MiB of a known pattern through a small ring in uneven pieces, checked byte for byte.
 * The pattern is a function of the byte's position in the stream, computed independently on
 * both sides. */
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "libcomm/shmring.h"

#define CAP 64

struct both {
	struct comm__ring_ctl ctl;
	unsigned char data[CAP];
	struct comm__ring w, r; /* the writer's view and the reader's, as two processes hold */
};

static void setup_ring(struct both *b, size_t cap)
{
	memset(b, 0, sizeof(*b));
	comm__ring_init(&b->w, &b->ctl, b->data, cap);
	comm__ring_init(&b->r, &b->ctl, b->data, cap);
}

static unsigned char at(uint64_t pos)
{
	uint64_t x = pos * 0x9e3779b97f4a7c15ULL;
	return (unsigned char)(x >> 56 ^ x >> 13);
}

static size_t put(struct both *b, uint64_t *pos, size_t n, unsigned *wake)
{
	unsigned char tmp[256];
	for (size_t i = 0; i < n; i++)
		tmp[i] = at(*pos + i);
	struct iovec v = { tmp, n };
	size_t k = comm__ring_write(&b->w, &v, 1, wake);
	*pos += k;
	return k;
}

static void test_wrap(void **state)
{
	(void)state;
	struct both b;
	setup_ring(&b, CAP);
	uint64_t wpos = 0, rpos = 0;
	unsigned wake;
	unsigned char got[256];
	/* 40 in, 40 out, then 50 that run over the end of the buffer and on from its start */
	assert_int_equal(put(&b, &wpos, 40, &wake), 40);
	assert_int_equal(comm__ring_read(&b.r, got, sizeof(got), &wake), 40);
	for (int i = 0; i < 40; i++)
		assert_int_equal(got[i], at(rpos + (uint64_t)i));
	rpos += 40;
	assert_int_equal(put(&b, &wpos, 50, &wake), 50);
	assert_int_equal(comm__ring_used(&b.r), 50);
	assert_int_equal(comm__ring_read(&b.r, got, 50, &wake), 50);
	for (int i = 0; i < 50; i++)
		assert_int_equal(got[i], at(rpos + (uint64_t)i));
	assert_int_equal(comm__ring_used(&b.r), 0);
	/* the counters run on past the capacity many times */
	for (int round = 0; round < 100; round++) {
		rpos = wpos;
		assert_int_equal(put(&b, &wpos, 37, &wake), 37);
		assert_int_equal(comm__ring_read(&b.r, got, 37, &wake), 37);
		for (int i = 0; i < 37; i++)
			assert_int_equal(got[i], at(rpos + (uint64_t)i));
	}
	assert_true(atomic_load(&b.ctl.head) == 40 + 50 + 100 * 37);
}

static void test_partial_full_empty(void **state)
{
	(void)state;
	struct both b;
	setup_ring(&b, CAP);
	unsigned wake;
	unsigned char got[256], src[3][30];
	assert_int_equal(comm__ring_read(&b.r, got, 10, &wake), 0); /* empty */
	assert_false(wake);
	/* a gather of 3 x 30 into 64 bytes of room: the first two whole, 4 of the third */
	for (int j = 0; j < 3; j++)
		memset(src[j], 'a' + j, sizeof(src[j]));
	struct iovec v[3] = { { src[0], 30 }, { src[1], 30 }, { src[2], 30 } };
	assert_int_equal(comm__ring_write(&b.w, v, 3, &wake), CAP);
	assert_int_equal(comm__ring_used(&b.r), CAP);
	assert_int_equal(comm__ring_write(&b.w, v, 3, &wake), 0); /* full */
	assert_false(wake);
	/* a partial read leaves the rest in order */
	assert_int_equal(comm__ring_read(&b.r, got, 29, &wake), 29);
	assert_int_equal(comm__ring_read(&b.r, got + 29, 200, &wake), CAP - 29);
	for (int i = 0; i < CAP; i++)
		assert_int_equal(got[i], 'a' + i / 30);
	assert_int_equal(comm__ring_read(&b.r, got, 10, &wake), 0);
	/* room again for exactly the capacity */
	assert_int_equal(comm__ring_write(&b.w, v + 2, 1, &wake), 30);
	assert_int_equal(comm__ring_write(&b.w, v, 2, &wake), CAP - 30);
}

static void test_sleep_flags(void **state)
{
	(void)state;
	struct both b;
	setup_ring(&b, CAP);
	uint64_t pos = 0;
	unsigned wake;
	unsigned char got[CAP];
	/* nothing came since the reader looked: it may sleep, and the flag is up */
	assert_int_equal(comm__ring_read(&b.r, got, 1, &wake), 0);
	assert_false(comm__ring_reader_arm(&b.r, COMM__RING_BELL));
	assert_int_equal(atomic_load(&b.ctl.rsleep), 1);
	/* the writer finds it asleep: one doorbell, the flag taken down */
	put(&b, &pos, 5, &wake);
	assert_int_equal(wake, COMM__RING_BELL);
	assert_int_equal(atomic_load(&b.ctl.rsleep), 0);
	put(&b, &pos, 5, &wake);
	assert_false(wake); /* not asleep any more: no second doorbell */
	/* bytes came since the reader last looked: arming says do not sleep, flag down */
	assert_true(comm__ring_reader_arm(&b.r, COMM__RING_BELL));
	assert_int_equal(atomic_load(&b.ctl.rsleep), 0);
	/* ... and once it has seen them, it may sleep even with them unread (a later step's) */
	assert_false(comm__ring_reader_arm(&b.r, COMM__RING_BELL));
	comm__ring_reader_awake(&b.r);
	assert_int_equal(atomic_load(&b.ctl.rsleep), 0);
	/* the writer on a full ring */
	put(&b, &pos, CAP - 10, &wake);
	assert_int_equal(put(&b, &pos, 1, &wake), 0);
	assert_false(comm__ring_writer_arm(&b.w, COMM__RING_BELL));
	assert_int_equal(atomic_load(&b.ctl.wsleep), 1);
	assert_int_equal(comm__ring_read(&b.r, got, 3, &wake), 3);
	assert_int_equal(wake, COMM__RING_BELL); /* room made for a sleeping writer: its doorbell */
	assert_int_equal(atomic_load(&b.ctl.wsleep), 0);
	assert_int_equal(comm__ring_read(&b.r, got, 3, &wake), 3);
	assert_false(wake);
	/* room came since the writer looked: do not sleep */
	assert_true(comm__ring_writer_arm(&b.w, COMM__RING_BELL));
	assert_int_equal(atomic_load(&b.ctl.wsleep), 0);
	/* a side asleep on its flag is told to be woken so */
	while (comm__ring_read(&b.r, got, sizeof(got), &wake))
		;
	assert_false(comm__ring_reader_arm(&b.r, COMM__RING_FUTEX));
	assert_int_equal(atomic_load(&b.ctl.rsleep), COMM__RING_FUTEX);
	put(&b, &pos, 1, &wake);
	assert_int_equal(wake, COMM__RING_FUTEX);
	assert_int_equal(atomic_load(&b.ctl.rsleep), 0);
}

/* ---- two threads, 64 MiB ---- */

#define BIG_CAP (64 << 10)
#define TOTAL ((uint64_t)64 << 20)

struct stream {
	struct comm__ring_ctl ctl;
	unsigned char *data;
	uint64_t bad_at; /* the first position that differed, or TOTAL */
	uint64_t wakes_w, wakes_r;
	/* sleepy: a side that cannot move arms its flag and blocks, COMM__RING_BELL on its
	 * doorbell pipe (the other side writes a byte there when told to wake it), as the
	 * engine does in epoll_wait, COMM__RING_FUTEX on the flag itself, as it does in
	 * futex_waitv; a wait of LOST_MS means a wake-up was lost */
	unsigned sleepy;
	bool lost;
	int bell_r[2], bell_w[2]; /* the reader's doorbell, the writer's */
	uint64_t sleeps;
};

#define LOST_MS 5000

/* Blocks on the futex flag while it holds COMM__RING_FUTEX; false when nobody woke it within
 * LOST_MS. */
static bool doze_futex(_Atomic uint32_t *flag)
{
	struct timespec ts = { LOST_MS / 1000, 0 };
	long rc = syscall(SYS_futex, (uint32_t *)flag, FUTEX_WAIT, COMM__RING_FUTEX, &ts, NULL, 0);
	return rc == 0 || errno != ETIMEDOUT;
}

/* Blocks until the doorbell rings; false when it did not within LOST_MS. */
static bool doze(int fd)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	char b;
	if (poll(&pf, 1, LOST_MS) != 1)
		return false;
	return read(fd, &b, 1) == 1;
}

static void ring_bell(int fd)
{
	char b = 0;
	assert_int_equal(write(fd, &b, 1), 1);
}

static uint64_t next_len(uint64_t *s, uint64_t max)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return 1 + *s % max;
}

static void *producer(void *arg)
{
	struct stream *st = arg;
	struct comm__ring w;
	comm__ring_init(&w, &st->ctl, st->data, BIG_CAP);
	unsigned char buf[3 * 8192];
	uint64_t pos = 0, seed = 0x1234567;
	while (pos < TOTAL) {
		/* two pieces of uneven sizes in one gather, as a header and payload go */
		uint64_t a = next_len(&seed, 8192), c = next_len(&seed, 16384);
		if (a + c > TOTAL - pos) {
			a = (TOTAL - pos) / 2;
			c = TOTAL - pos - a;
		}
		for (uint64_t i = 0; i < a + c; i++)
			buf[i] = at(pos + i);
		struct iovec v[2] = { { buf, a }, { buf + a, c } };
		uint64_t off = 0;
		while (off < a + c) {
			struct iovec part[2];
			int n = 0;
			if (off < a)
				part[n++] = (struct iovec){ buf + off, a - off };
			uint64_t co = off > a ? off - a : 0;
			part[n++] = (struct iovec){ (unsigned char *)v[1].iov_base + co, c - co };
			unsigned wake;
			size_t k = comm__ring_write(&w, part, n, &wake);
			off += k;
			st->wakes_w += wake != 0;
			if (wake == COMM__RING_BELL)
				ring_bell(st->bell_r[1]);
			else if (wake == COMM__RING_FUTEX)
				comm__ring_wake(comm__ring_reader_flag(&w));
			if (!k && st->sleepy && !comm__ring_writer_arm(&w, st->sleepy)) {
				st->sleeps++;
				if (st->sleepy == COMM__RING_BELL ? !doze(st->bell_w[0])
								  : !doze_futex(comm__ring_writer_flag(&w))) {
					st->lost = true;
					return NULL;
				}
				comm__ring_writer_awake(&w);
			}
		}
		pos += a + c;
	}
	return NULL;
}

static void *consumer(void *arg)
{
	struct stream *st = arg;
	struct comm__ring r;
	comm__ring_init(&r, &st->ctl, st->data, BIG_CAP);
	unsigned char buf[20000];
	uint64_t pos = 0, seed = 0x7654321;
	st->bad_at = TOTAL;
	while (pos < TOTAL) {
		unsigned wake;
		size_t k = comm__ring_read(&r, buf, (size_t)next_len(&seed, sizeof(buf)), &wake);
		st->wakes_r += wake != 0;
		if (wake == COMM__RING_BELL)
			ring_bell(st->bell_w[1]);
		else if (wake == COMM__RING_FUTEX)
			comm__ring_wake(comm__ring_writer_flag(&r));
		if (!k && st->sleepy && !comm__ring_reader_arm(&r, st->sleepy)) {
			st->sleeps++;
			if (st->sleepy == COMM__RING_BELL ? !doze(st->bell_r[0])
							  : !doze_futex(comm__ring_reader_flag(&r))) {
				st->lost = true;
				return NULL;
			}
			comm__ring_reader_awake(&r);
		}
		for (size_t i = 0; i < k && st->bad_at == TOTAL; i++)
			if (buf[i] != at(pos + i))
				st->bad_at = pos + i;
		pos += k;
	}
	return NULL;
}

static void stream_run(unsigned sleepy)
{
	struct stream *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	st->data = malloc(BIG_CAP);
	assert_non_null(st->data);
	st->sleepy = sleepy;
	assert_int_equal(pipe(st->bell_r), 0);
	assert_int_equal(pipe(st->bell_w), 0);
	pthread_t tp, tc;
	assert_int_equal(pthread_create(&tc, NULL, consumer, st), 0);
	assert_int_equal(pthread_create(&tp, NULL, producer, st), 0);
	pthread_join(tp, NULL);
	pthread_join(tc, NULL);
	assert_false(st->lost);
	assert_true(st->bad_at == TOTAL);
	assert_true(atomic_load(&st->ctl.head) == TOTAL);
	assert_true(atomic_load(&st->ctl.tail) == TOTAL);
	if (!sleepy) /* nobody armed a flag: no doorbell was asked for */
		assert_true(st->wakes_w == 0 && st->wakes_r == 0);
	else /* every sleep ended by a doorbell, none rung for nobody */
		assert_true(st->wakes_w + st->wakes_r >= st->sleeps);
	for (int i = 0; i < 2; i++) {
		close(st->bell_r[i]);
		close(st->bell_w[i]);
	}
	free(st->data);
	free(st);
}

static void test_threads_64mib(void **state)
{
	(void)state;
	stream_run(COMM__RING_AWAKE);
}

/* The same with sides that sleep when they cannot move: no wake-up may be lost (either the
 * sleeper sees the other side's move when it arms, or the mover sees the flag). */
static void test_threads_64mib_sleeping(void **state)
{
	(void)state;
	stream_run(COMM__RING_BELL);
}

/* ... and with sides that sleep on the flag itself (FUTEX_WAIT, woken by FUTEX_WAKE). */
static void test_threads_64mib_futex(void **state)
{
	(void)state;
	stream_run(COMM__RING_FUTEX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_partial_full_empty),
		cmocka_unit_test(test_sleep_flags),
		cmocka_unit_test(test_threads_64mib),
		cmocka_unit_test(test_threads_64mib_sleeping),
		cmocka_unit_test(test_threads_64mib_futex),
	};
	return cmocka_run_group_tests_name("shmring", tests, NULL, NULL);
}
