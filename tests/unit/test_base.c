/* The base every layer shares (ranktable/base/): hex digits against an independent table for
 * every byte, the monotonic clock against a sleep, writing everything through a pipe that
 * takes little at a time and is interrupted by signals, the capped buffer at its cap, and
 * seconds from the environment. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "ranktable/base/acm.h"
#include "ranktable/base/bigmem.h"
#include "ranktable/base/buf.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/env.h"
#include "ranktable/base/hex.h"
#include "ranktable/base/io.h"
#include "ranktable/base/size.h"

/* Every int a caller may pass (EOF, a signed char's negative values, every byte) against
 * the digit's place in a written-out table. */
static void test_hex_every_byte(void **state)
{
	(void)state;
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	int digits = 0;
	for (int c = -129; c <= 256; c++) {
		int want = -1;
		for (int k = 0; k < 16; k++)
			if (c == lower[k] || c == upper[k])
				want = k;
		if (want >= 0)
			digits++;
		if (hex_val(c) != want)
			fail_msg("hex_val(%d) = %d, want %d", c, hex_val(c), want);
	}
	assert_int_equal(digits, 22);
	assert_int_equal(hex_val('f'), 15);
	assert_int_equal(hex_val('F'), 15);
	assert_int_equal(hex_val('g'), -1);
	assert_int_equal(hex_val('/'), -1);
	assert_int_equal(hex_val(':'), -1);
	assert_int_equal(hex_val('@'), -1);
	assert_int_equal(hex_val('`'), -1);
	assert_int_equal(hex_val('\0'), -1);
	assert_int_equal(hex_val((char)0xe6), -1); /* a signed char's byte of UTF-8 */
}

static void test_clock(void **state)
{
	(void)state;
	int64_t ms0 = mono_ms(), ns0 = mono_ns();
	double s0 = mono_s();
	for (int i = 0; i < 100000; i++) { /* never backwards */
		int64_t a = mono_ns(), b = mono_ns();
		if (b < a)
			fail_msg("mono_ns went back from %lld to %lld", (long long)a, (long long)b);
	}
	struct timespec nap = {0, 50 * 1000000L};
	while (nanosleep(&nap, &nap) && errno == EINTR)
		;
	int64_t ms = mono_ms() - ms0, ns = mono_ns() - ns0;
	double s = mono_s() - s0;
	assert_true(ms >= 50 && ms < 10000);
	assert_true(ns >= 50 * 1000000LL && ns < 10000 * 1000000LL);
	assert_true(s >= 0.05 && s < 10.0);
	/* the three are one clock: ms is ns / 1e6, s is ns / 1e9 */
	int64_t n = mono_ns(), m = mono_ms(), n2 = mono_ns();
	assert_true(m >= n / 1000000 && m <= n2 / 1000000);
	double sec = mono_s();
	assert_true(sec * 1e9 >= (double)n2 - 1e3 && sec * 1e9 <= (double)mono_ns() + 1e3);
}

/* ---- fd_write_all ---- */

#define PIPE_TOTAL (3u << 20)

struct reader {
	int fd;
	unsigned char *got;
	size_t n;
};

/* Reads slowly, a little at a time, so that the writer fills the pipe and is cut short. */
static void *slow_reader(void *arg)
{
	struct reader *r = arg;
	for (;;) {
		ssize_t k = read(r->fd, r->got + r->n, 1000);
		if (k <= 0)
			break;
		r->n += (size_t)k;
		if (r->n % 64 < 8) {
			struct timespec t = {0, 100000};
			nanosleep(&t, NULL);
		}
	}
	return NULL;
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Three MiB through a 4 KiB pipe while a timer interrupts every 200 µs, with no
 * SA_RESTART: write(2) returns short counts and EINTR, and every byte arrives in order. */
static void test_write_all_pipe(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	(void)fcntl(p[1], F_SETPIPE_SZ, 4096);
	unsigned char *data = malloc(PIPE_TOTAL);
	struct reader r = {p[0], malloc(PIPE_TOTAL + 1000), 0};
	assert_non_null(data);
	assert_non_null(r.got);
	for (size_t i = 0; i < PIPE_TOTAL; i++)
		data[i] = (unsigned char)(i * 2654435761u >> 13);
	struct sigaction sa = {0}, old;
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	struct itimerval it = {{0, 200}, {0, 200}}, off = {{0, 0}, {0, 0}};
	pthread_t th;
	sigset_t block, prev;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &block, &prev); /* the signals go to this thread, the writer */
	assert_int_equal(pthread_create(&th, NULL, slow_reader, &r), 0);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	alarms = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	int rc = fd_write_all(p[1], data, PIPE_TOTAL);
	setitimer(ITIMER_REAL, &off, NULL);
	close(p[1]);
	pthread_join(th, NULL);
	sigaction(SIGALRM, &old, NULL);
	close(p[0]);
	assert_int_equal(rc, 0);
	assert_int_equal(r.n, PIPE_TOTAL);
	assert_memory_equal(r.got, data, PIPE_TOTAL);
	assert_true(alarms > 0);
	free(data);
	free(r.got);
}

static void test_write_all_errors(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	void (*was)(int) = signal(SIGPIPE, SIG_IGN);
	errno = 0;
	assert_int_equal(fd_write_all(p[1], "x", 1), -EPIPE);
	assert_int_equal(errno, EPIPE);
	signal(SIGPIPE, was);
	close(p[1]);
	assert_int_equal(fd_write_all(p[1], "x", 1), -EBADF);
	assert_int_equal(fd_write_all(-1, "", 0), 0); /* nothing to write is done */
}

/* ---- buf ---- */

/* Many appends of every kind grow the buffer; the text matches one built in a flat array. */
static void test_buf_growth(void **state)
{
	(void)state;
	static char want[1 << 17];
	size_t wn = 0;
	struct buf b = BUF_INIT(sizeof(want));
	size_t caps = 0, last_cap = 0;
	for (int i = 0; wn + 40 < sizeof(want) / 2; i++) {
		char piece[32];
		int k = snprintf(piece, sizeof(piece), "%d,", i);
		memcpy(want + wn, piece, (size_t)k);
		wn += (size_t)k;
		switch (i % 3) {
		case 0:
			assert_int_equal(buf_printf(&b, "%d,", i), 0);
			break;
		case 1:
			assert_int_equal(buf_puts(&b, piece), 0);
			break;
		default:
			assert_int_equal(buf_add(&b, piece, (size_t)k), 0);
			break;
		}
		if (b.cap != last_cap) {
			caps++;
			last_cap = b.cap;
		}
		assert_true(b.cap > b.len && b.cap <= sizeof(want) + 1);
	}
	want[wn] = '\0';
	assert_int_equal(b.len, wn);
	assert_string_equal(buf_str(&b), want);
	assert_true(caps <= 12); /* doubling from 256: a few reallocations, not one per append */
	size_t len = b.len;
	char *s = buf_take(&b);
	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	assert_string_equal(s, want);
	free(s);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.max, sizeof(want)); /* empty again, same cap */
}

/* The cap is on the text: exactly max bytes fit, one more fails the buffer for good while
 * what came before stays readable; buf_take then gives NULL. */
static void test_buf_cap(void **state)
{
	(void)state;
	struct buf b = BUF_INIT(10);
	assert_string_equal(buf_str(&b), "");
	assert_int_equal(buf_add(&b, "0123456", 7), 0);
	assert_int_equal(buf_printf(&b, "%s", "789"), 0);
	assert_int_equal(b.len, 10);
	assert_true(b.cap <= 11); /* never more than max + 1, however it doubles */
	assert_int_equal(buf_add(&b, "", 0), 0);
	assert_int_equal(buf_puts(&b, "a"), -E2BIG);
	assert_int_equal(b.err, -E2BIG);
	assert_int_equal(buf_add(&b, "", 0), -E2BIG); /* failed for good */
	assert_int_equal(buf_printf(&b, "%d", 1), -E2BIG);
	assert_string_equal(buf_str(&b), "0123456789");
	assert_null(buf_take(&b));
	assert_int_equal(b.err, 0);

	/* a formatted append that would pass the cap adds nothing of itself */
	struct buf c = BUF_INIT(8);
	assert_int_equal(buf_printf(&c, "%s", "abcd"), 0);
	assert_int_equal(buf_printf(&c, "%05d", 42), -E2BIG);
	assert_string_equal(buf_str(&c), "abcd");
	buf_release(&c);
	assert_null(c.p);
	assert_int_equal(c.max, 8);

	/* max 0 holds only the empty text; an empty buffer is taken as "" */
	struct buf z = BUF_INIT(0);
	assert_int_equal(buf_add(&z, "", 0), 0);
	assert_int_equal(buf_add(&z, "x", 1), -E2BIG);
	buf_release(&z);
	char *e = buf_take(&z);
	assert_non_null(e);
	assert_string_equal(e, "");
	free(e);

	/* a size near SIZE_MAX is refused, not wrapped round */
	struct buf h = BUF_INIT(SIZE_MAX / 2);
	assert_int_equal(buf_add(&h, "ab", 2), 0);
	assert_int_equal(buf_add(&h, "x", SIZE_MAX - 1), -E2BIG);
	assert_string_equal(buf_str(&h), "ab");
	buf_release(&h);
}

static void test_buf_init_hint(void **state)
{
	(void)state;
	struct buf b;
	assert_int_equal(buf_init(&b, 4096, 1 << 20), 0);
	assert_non_null(b.p);
	assert_int_equal(b.cap, 4096);
	assert_string_equal(buf_str(&b), "");
	const char *first = b.p;
	assert_int_equal(buf_printf(&b, "%0*d", 4000, 7), 0);
	assert_ptr_equal(b.p, first); /* the hint was room enough */
	assert_int_equal(b.len, 4000);
	assert_int_equal(b.p[3999], '7');
	buf_release(&b);
	assert_int_equal(buf_init(&b, 0, 5), 0);
	assert_null(b.p);
	assert_int_equal(b.max, 5);
}

/* ---- env_seconds ---- */

static void test_env_seconds(void **state)
{
	(void)state;
	static const struct {
		const char *val; /* NULL: unset */
		long want;
	} rows[] = {
		{NULL, 42},
		{"", 42},
		{"1", 1},
		{"5", 5},
		{"86400", 86400},
		{"86401", -1},
		{"0", -1},
		{"-3", -1},
		{"5s", -1},
		{"abc", -1},
		{"1.5", -1},
		{"5 ", -1},
		{"99999999999999999999999", -1},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].val)
			setenv("HCCLCTL_TEST_SECONDS", rows[i].val, 1);
		else
			unsetenv("HCCLCTL_TEST_SECONDS");
		long got = env_seconds("HCCLCTL_TEST_SECONDS", 42);
		if (got != rows[i].want)
			fail_msg("'%s': %ld, want %ld", rows[i].val ? rows[i].val : "(unset)", got,
				 rows[i].want);
	}
	unsetenv("HCCLCTL_TEST_SECONDS");
	assert_int_equal(env_seconds("HCCLCTL_TEST_SECONDS", -7), -7);
	/* a range from 0 (HCCLCTL_SPIN_US's): 0 is a value, not a refusal */
	setenv("HCCLCTL_TEST_SECONDS", "0", 1);
	assert_int_equal(env_whole("HCCLCTL_TEST_SECONDS", 250, 0, 1000000), 0);
	setenv("HCCLCTL_TEST_SECONDS", "1000001", 1);
	assert_int_equal(env_whole("HCCLCTL_TEST_SECONDS", 250, 0, 1000000), -1);
	setenv("HCCLCTL_TEST_SECONDS", "-1", 1);
	assert_int_equal(env_whole("HCCLCTL_TEST_SECONDS", 250, 0, 1000000), -1);
	unsetenv("HCCLCTL_TEST_SECONDS");
	assert_int_equal(env_whole("HCCLCTL_TEST_SECONDS", 250, 0, 1000000), 250);
}

/* Sizes: every suffix both cases, the largest that fits, and what is refused. */
static void test_parse_size(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		unsigned long long out;
	} ok[] = {
		{"0", 0},	   {"1048576", 1048576}, {"64K", 65536},		 {"64k", 65536},
		{"8M", 8 << 20}, {"8m", 8 << 20},	   {"2G", 2ULL << 30},		 {"2g", 2ULL << 30},
		{"17179869183G", 17179869183ULL << 30},
	};
	static const char *const bad[] = {"", "-1", "1.5M", "1T", "1KB", "K", " 1", "1 ",
					   "17179869184G", "18446744073709551616"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		unsigned long long v = 7;
		assert_int_equal(parse_size(ok[i].in, &v), 0);
		assert_true(v == ok[i].out);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned long long v = 7;
		if (parse_size(bad[i], &v) != -EINVAL)
			fail_msg("'%s' was read as %llu", bad[i], v);
		assert_true(v == 7);
	}
}

/* The automaton against a search per needle: random needles over a small alphabet (so that
 * they overlap, nest and share suffixes) in random texts, as written and case-folded, with
 * table rows for every node and for the root only; every occurrence reported once with its
 * end, and the smallest id found. */
struct acm_seen {
	unsigned char hit[40][64]; /* [needle][end] */
	int count;
};

static int acm_note(void *ctx, int id, size_t end)
{
	struct acm_seen *w = ctx;
	w->hit[id][end]++;
	w->count++;
	return 0;
}

static int occurs_at(const char *t, const char *nd, size_t k, int nocase)
{
	for (size_t j = 0; j < k; j++) {
		char a = t[j], b = nd[j];
		if (nocase && a >= 'A' && a <= 'Z')
			a = (char)(a + 32);
		if (nocase && b >= 'A' && b <= 'Z')
			b = (char)(b + 32);
		if (a != b)
			return 0;
	}
	return 1;
}

static void acm_round(unsigned *seed, int nocase, int root_row)
{
	static const char abc[] = "abAB c\x01\xff";
	char nd[40][8], text[63];
	struct acm *a = acm_new((nocase ? ACM_NOCASE : 0) | (root_row ? ACM_ROOT_ROW : 0));
	/* the other flags, for acm_scan2's second automaton */
	struct acm *b = acm_new((nocase ? 0 : ACM_NOCASE) | (root_row ? 0 : ACM_ROOT_ROW));
	assert_non_null(a);
	assert_non_null(b);
	for (int i = 0; i < 40; i++) {
		size_t k = 1 + rand_r(seed) % 6;
		for (size_t j = 0; j < k; j++)
			nd[i][j] = abc[rand_r(seed) % (sizeof(abc) - 1)];
		nd[i][k] = '\0';
		assert_int_equal(acm_add(a, nd[i], k, i), 0);
		assert_int_equal(acm_add(b, nd[i], k, i), 0);
	}
	assert_int_equal(acm_build(a), 0);
	assert_int_equal(acm_build(b), 0);
	for (int round = 0; round < 50; round++) {
		size_t n = rand_r(seed) % sizeof(text);
		for (size_t j = 0; j < n; j++)
			text[j] = abc[rand_r(seed) % (sizeof(abc) - 1)];
		struct acm_seen w;
		memset(&w, 0, sizeof(w));
		assert_int_equal(acm_scan(a, text, n, acm_note, &w), 0);
		int want = 0, first = -1;
		for (int i = 0; i < 40; i++) {
			size_t k = strlen(nd[i]);
			for (size_t end = k; end <= n; end++) {
				int in = occurs_at(text + end - k, nd[i], k, nocase);
				assert_int_equal(w.hit[i][end], in);
				want += in;
				if (in && first < 0)
					first = i;
			}
		}
		assert_int_equal(w.count, want);
		assert_int_equal(acm_first_id(a, text, n), first);
		/* both in one pass: each as its own scan finds it */
		struct acm_seen wa, wb, alone;
		memset(&wa, 0, sizeof(wa));
		memset(&wb, 0, sizeof(wb));
		memset(&alone, 0, sizeof(alone));
		assert_int_equal(acm_scan2(a, acm_note, &wa, b, acm_note, &wb, text, n), 0);
		assert_int_equal(acm_scan(b, text, n, acm_note, &alone), 0);
		assert_memory_equal(&wa, &w, sizeof(w));
		assert_memory_equal(&wb, &alone, sizeof(alone));
		memset(&wa, 0, sizeof(wa));
		assert_int_equal(acm_scan2(a, acm_note, &wa, NULL, acm_note, &wb, text, n), 0);
		assert_memory_equal(&wa, &w, sizeof(w));
	}
	acm_free(a);
	acm_free(b);
}

static int acm_note_none(void *ctx, int id, size_t end)
{
	(void)ctx;
	(void)id;
	(void)end;
	return 0;
}

static int acm_stop(void *ctx, int id, size_t end)
{
	(void)ctx;
	return id == 1 ? (int)end : 0;
}

/* big_populate faults in the whole pages of a range (mincore says they are resident), and
 * only those: the partial pages at its ends are left alone. */
static void test_populate(void **state)
{
	(void)state;
	size_t pg = 4096, n = 16 * pg;
	unsigned char *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	unsigned char in[16];
	assert_int_equal(mincore(m, n, in), 0);
	for (size_t i = 0; i < 16; i++)
		assert_int_equal(in[i] & 1, 0);
	/* a kernel before 5.14 has no such advice: nothing to check */
	if (madvise(m + 15 * pg, pg, 23 /* MADV_POPULATE_WRITE */)) {
		munmap(m, n);
		skip();
	}
	big_populate(m + 100, 10 * pg); /* whole pages 1 to 9 */
	assert_int_equal(mincore(m, n, in), 0);
	in[15] = 0; /* the probe's */
	for (size_t i = 0; i < 16; i++)
		if ((in[i] & 1) != (i >= 1 && i <= 9))
			fail_msg("page %zu resident %d", i, in[i] & 1);
	big_populate(NULL, n); /* nothing */
	munmap(m, n);
}

/* An automaton saved as an image (acm_save) and read back in place: the same automaton, found
 * stale when other needles are added to it, and refused when its bytes are not an image. */
static void test_acm_image(void **state)
{
	(void)state;
	static const char *const nd[] = {"NCCL WARN", "timed out", "HCCL", "ab", "b"};
	struct acm *a = acm_new(ACM_NOCASE);
	assert_non_null(a);
	char *bytes = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&bytes, &n);
	assert_non_null(f);
	assert_int_equal(acm_save(a, f), -EINVAL); /* not built */
	for (int i = 0; i < 5; i++)
		assert_int_equal(acm_add(a, nd[i], strlen(nd[i]), i), 0);
	assert_int_equal(acm_build(a), 0);
	assert_int_equal(acm_save(a, f), 0);
	assert_int_equal(fclose(f), 0);
	size_t cap = (n + 63) / 64 * 64;
	unsigned char *img = aligned_alloc(64, cap + 64);
	assert_non_null(img);
	memcpy(img, bytes, n);
	/* the same needles: the same automaton, read in place */
	struct acm *b = acm_open_image(img, n);
	assert_non_null(b);
	for (int i = 0; i < 5; i++)
		assert_int_equal(acm_add(b, nd[i], strlen(nd[i]), i), 0);
	assert_int_equal(acm_build(b), 0);
	assert_true(acm_same(a, b));
	assert_int_equal(acm_first_id(b, "x hccl: Timed Out", 17), 1);
	acm_free(b);
	/* one needle less, or another id: stale */
	b = acm_open_image(img, n);
	for (int i = 0; i < 4; i++)
		acm_add(b, nd[i], strlen(nd[i]), i);
	assert_int_equal(acm_build(b), -ESTALE);
	acm_free(b);
	b = acm_open_image(img, n);
	for (int i = 0; i < 5; i++)
		acm_add(b, nd[i], strlen(nd[i]), i == 4 ? 9 : i);
	assert_int_equal(acm_build(b), -ESTALE);
	acm_free(b);
	/* bytes that are no image: cut short, longer, misaligned, another magic */
	assert_null(acm_open_image(img, n - 1));
	assert_null(acm_open_image(img, n + 1));
	memmove(img + 1, img, n);
	assert_null(acm_open_image(img + 1, n));
	memmove(img, img + 1, n);
	img[0] ^= 1;
	assert_null(acm_open_image(img, n));
	assert_null(acm_open_image(NULL, n));
	free(img);
	free(bytes);
	acm_free(a);
}

static void test_acm(void **state)
{
	(void)state;
	unsigned seed = 7;
	for (int i = 0; i < 80; i++)
		acm_round(&seed, i & 1, i & 2);
	/* a hit that returns non-zero ends the scan with its value; no needle, nothing found */
	struct acm *a = acm_new(0);
	assert_non_null(a);
	assert_int_equal(acm_add(a, "ab", 2, 0), 0);
	assert_int_equal(acm_add(a, "cd", 2, 1), 0);
	assert_int_equal(acm_add(a, "", 0, 2), 0);
	assert_int_equal(acm_build(a), 0);
	assert_int_equal(acm_scan(a, "xxabcdcd", 8, acm_stop, NULL), 6);
	assert_int_equal(acm_scan2(a, acm_note_none, NULL, a, acm_stop, NULL, "xxabcdcd", 8), 6);
	assert_int_equal(acm_first_id(a, "xxcdab", 6), 0);
	assert_int_equal(acm_first_id(a, "xyz", 3), -1);
	acm_free(a);
	struct acm *e = acm_new(0);
	assert_non_null(e);
	assert_int_equal(acm_build(e), 0);
	assert_int_equal(acm_first_id(e, "anything", 8), -1);
	acm_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex_every_byte), cmocka_unit_test(test_clock),
		cmocka_unit_test(test_write_all_pipe), cmocka_unit_test(test_write_all_errors),
		cmocka_unit_test(test_buf_growth),     cmocka_unit_test(test_buf_cap),
		cmocka_unit_test(test_buf_init_hint),  cmocka_unit_test(test_env_seconds),
		cmocka_unit_test(test_parse_size),     cmocka_unit_test(test_acm),
		cmocka_unit_test(test_acm_image),
		cmocka_unit_test(test_populate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
