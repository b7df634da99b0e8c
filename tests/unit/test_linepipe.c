/* linepipe: every line taken once, in order, with what fill made of it, whether fill runs
 * on a thread of its own or not; take's error ends the run; texts at the block edges. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/linepipe.h"

struct slot {
	struct pspan raw, ahead;
	long num; /* the number the line holds */
};

struct run {
	const char *text;
	size_t taken;
	long last;	/* the number of the last line taken */
	size_t fail_at; /* take fails on this line (1-based), 0 never */
	int order_ok;
};

static void fill(void *ctx, void *slot, struct pspan raw, struct pspan ahead)
{
	(void)ctx;
	struct slot *s = slot;
	s->raw = raw;
	s->ahead = ahead;
	char tmp[32];
	size_t n = raw.n < sizeof(tmp) - 1 ? raw.n : sizeof(tmp) - 1;
	memcpy(tmp, raw.s, n);
	tmp[n] = 0;
	s->num = strtol(tmp, NULL, 10);
}

static int take(void *ctx, void *slot)
{
	struct run *r = ctx;
	struct slot *s = slot;
	r->taken++;
	/* the lines in order, each without its '\r' and '\n' and with the text after them */
	if (s->num != r->last + 1 || s->ahead.s < s->raw.s + s->raw.n ||
	    (s->ahead.n && s->ahead.s[-1] != '\n') || (s->raw.n && s->raw.s[s->raw.n - 1] == '\r'))
		r->order_ok = 0;
	r->last = s->num;
	return r->fail_at && r->taken == r->fail_at ? -EPIPE : 0;
}

static const struct linepipe_ops ops = {sizeof(struct slot), fill, take};

/* "1\n2\n...\nn\n" */
static char *numbers(size_t n, size_t *len)
{
	char *t = malloc(n * 12 + 1);
	assert_non_null(t);
	size_t at = 0;
	for (size_t i = 1; i <= n; i++)
		at += (size_t)snprintf(t + at, n * 12 + 1 - at, "%zu\n", i);
	*len = at;
	return t;
}

static void run_each(size_t n, int threads, size_t fail_at, int want_rc, size_t want_taken)
{
	size_t len;
	char *t = numbers(n, &len);
	struct run r = {t, 0, 0, fail_at, 1};
	assert_int_equal(linepipe_run((struct pspan){t, len}, &ops, &r, threads), want_rc);
	assert_int_equal(r.taken, want_taken);
	assert_true(r.order_ok);
	free(t);
}

static void test_order(void **state)
{
	(void)state;
	/* 60 000 lines (over LINEPIPE_MIN_BYTES) on two threads and on one; the block edges */
	for (int th = 1; th <= 2; th++) {
		run_each(60000, th, 0, 0, 60000);
		run_each(64, th, 0, 0, 64);
		run_each(65, th, 0, 0, 65);
		run_each(1, th, 0, 0, 1);
	}
	size_t len;
	char *t = numbers(60000, &len);
	assert_true(len >= LINEPIPE_MIN_BYTES);
	free(t);
}

static void test_error_stops(void **state)
{
	(void)state;
	/* take's error is returned and no line is taken after it, wherever the reader is */
	for (int th = 1; th <= 2; th++) {
		run_each(60000, th, 1, -EPIPE, 1);
		run_each(60000, th, 257, -EPIPE, 257);
		run_each(60000, th, 59999, -EPIPE, 59999);
	}
}

static void test_edges(void **state)
{
	(void)state;
	struct run r = {"", 0, 0, 0, 1};
	assert_int_equal(linepipe_run((struct pspan){"", 0}, &ops, &r, 2), 0);
	assert_int_equal(r.taken, 0);
	/* a last line without its newline, and CRLF: the '\r' is not the line's */
	const char *crlf = "1\r\n2\r\n3";
	r = (struct run){crlf, 0, 0, 0, 1};
	assert_int_equal(linepipe_run((struct pspan){crlf, strlen(crlf)}, &ops, &r, 1), 0);
	assert_int_equal(r.taken, 3);
	assert_int_equal(r.last, 3);
	assert_true(r.order_ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_error_stops),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
