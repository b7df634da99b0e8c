/* How long a link's data has gone unanswered, from the TCP_INFO a rank's watch thread reads
 * each beat. A fault run failed on it: with 5 % loss on every link, a rank that had waited
 * 3 s on one lossy link then sent 17 segments on another, idle until then; that socket's last
 * ACK was 3.1 s old, so the link was called down though its data was a moment old. Each row
 * is a sequence of beats (time, segments in flight, ms since the last ACK, backoff, rto) and
 * the age each beat must report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <netinet/tcp.h>
#include <string.h>

#include "libcomm/internal.h"

struct beat {
	int64_t now;
	uint32_t unacked, last_ack, backoff, rto_us;
	uint32_t want;
};

#define T0 1000000 /* a mono time well after boot */
#define BEATS 4

static const struct {
	const char *name;
	struct beat b[BEATS];
} cases[] = {
	{ "idle socket that has just sent: fresh data, not 3.1 s old",
	  { { T0, 17, 3100, 0, 204000, 0 }, { T0 + 500, 17, 3600, 0, 204000, 500 } } },
	{ "dead link: the beats and the timer's backoff agree",
	  { { T0, 30, 200, 0, 204000, 0 },
	    { T0 + 1500, 30, 1700, 3, 1632000, 1500 },
	    { T0 + 3000, 30, 3200, 4, 3264000, 3060 } } },
	{ "the timer ahead of the beats: four timeouts of 204 ms base are 3.06 s",
	  { { T0, 30, 100, 0, 204000, 0 }, { T0 + 500, 30, 3500, 4, 3264000, 3060 } } },
	{ "an ACK between beats: what is in flight now may be new",
	  { { T0, 8, 50, 0, 204000, 0 },
	    { T0 + 1000, 8, 1050, 2, 816000, 1000 },
	    { T0 + 1500, 8, 100, 0, 204000, 0 },
	    { T0 + 2000, 8, 600, 0, 204000, 500 } } },
	{ "never older than the last ACK",
	  { { T0, 8, 50, 0, 204000, 0 }, { T0 + 4000, 8, 4040, 6, 13056000, 4040 } } },
	{ "nothing in flight: no age, and the next data starts afresh",
	  { { T0, 8, 50, 0, 204000, 0 },
	    { T0 + 500, 0, 550, 0, 204000, 0 },
	    { T0 + 3500, 5, 3550, 0, 204000, 0 },
	    { T0 + 4000, 5, 4050, 0, 204000, 500 } } },
	{ "a backoff left from an old episode is not believed on first sight",
	  { { T0, 5, 3000, 5, 6528000, 0 } } },
};

static void test_case(void **state)
{
	const struct beat *b = *state;
	struct comm__peer p;
	memset(&p, 0, sizeof(p));
	for (int i = 0; i < BEATS && b[i].now; i++) {
		struct tcp_info ti;
		memset(&ti, 0, sizeof(ti));
		ti.tcpi_unacked = b[i].unacked;
		ti.tcpi_last_ack_recv = b[i].last_ack;
		ti.tcpi_backoff = (uint8_t)b[i].backoff;
		ti.tcpi_rto = b[i].rto_us;
		uint32_t got = comm__unanswered_ms(&p, &ti, b[i].now);
		if (got != b[i].want)
			fail_msg("beat %d: %u ms, want %u", i, got, b[i].want);
	}
}

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* Lost or lossy: (ms unanswered, backoff, silence) and the verdict. The second row is the
 * fault run that failed: 5 % loss everywhere on a loaded host, 33 segments unanswered for
 * 3.0 s at backoff 2, called down though the run would have completed. */
static const struct {
	uint32_t ms, backoff;
	int silence;
	bool lost;
} lost_rows[] = {
	{ 3060, 4, 3000, true },   /* down link, 204 ms timer: four timeouts by 3.06 s */
	{ 3000, 2, 3000, false },  /* lossy link, 1 s timer: two lost retransmissions */
	{ 2999, 6, 3000, false },  /* not yet the silence time */
	{ 7000, 3, 3000, true },   /* down link, 1 s timer: the third timeout at 7 s */
	{ 60000, 0, 3000, false }, /* a backoff of 0 is an ACK since: not lost */
	{ 5000, 3, -1, false },    /* no silence time configured */
};

static void test_lost(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(lost_rows) / sizeof(lost_rows[0]); i++) {
		bool got = comm__link_lost(lost_rows[i].ms, lost_rows[i].backoff, lost_rows[i].silence);
		if (got != lost_rows[i].lost)
			fail_msg("row %zu (%u ms, backoff %u): %s", i, lost_rows[i].ms,
				 lost_rows[i].backoff, got ? "lost" : "not lost");
	}
}

int main(void)
{
	struct CMUnitTest tests[NCASES + 1];
	for (size_t i = 0; i < NCASES; i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_case, NULL, NULL,
						(void *)cases[i].b };
	tests[NCASES] = (struct CMUnitTest){ "lost or lossy: unanswered time and backoff", test_lost,
					     NULL, NULL, NULL };
	return cmocka_run_group_tests_name("watch_ack", tests, NULL, NULL);
}
