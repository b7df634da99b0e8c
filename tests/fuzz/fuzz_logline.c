/* Fuzzes the line reader of the HCCL log triage (probes/logs/logline.c): any bytes, split into lines
 * as hlog_scan_buf splits them (and cut at HLOG_MAX_LINE as it cuts them), go through
 * hlog__line_parse and hlog__code_token. Each line is copied into a buffer of its own exact size,
 * so that a read past the end of a line, not only past the input, is caught. Beyond memory
 * safety it checks what hlogmatch.c relies on: msg lies inside the line and is trimmed, the
 * code token lies inside msg, has the documented shape and is the first one (by a matcher of
 * our own, from logline.h's words), pid/rank/dev are -1 or not negative, the level is one of
 * enum hline_level, the flags are 0 or 1, and a second parse reads the same. And what the scan
 * does with the line automaton's gates (catalog.h): the line read with what the automaton found
 * in it, and recognised so, reads and is recognised as without them. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/catalog.h"
#include "probes/logs/hccllog.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A character of a word: a token is "not inside a longer word". */
static int is_word(char c)
{
	return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* What probe__trim drops. */
static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\v' ||
	       c == '\f';
}

static int digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return 1;
}

/* The length of the code token at s[i] (logline.h: "EI0006", "EZ9999", "E39999": 'E', an
 * upper-case letter or 1-9, four digits; "ERR02200": "ERR" and five digits), 0 when there is
 * none. */
static size_t token_at(const char *s, size_t n, size_t i)
{
	size_t k = 0;
	if (s[i] != 'E' || (i && is_word(s[i - 1])))
		return 0;
	if (n - i >= 8 && s[i + 1] == 'R' && s[i + 2] == 'R' && digits(s + i + 3, 5))
		k = 8;
	else if (n - i >= 6 &&
		 ((s[i + 1] >= 'A' && s[i + 1] <= 'Z') || (s[i + 1] >= '1' && s[i + 1] <= '9')) &&
		 digits(s + i + 2, 4))
		k = 6;
	if (!k || (i + k < n && is_word(s[i + k])))
		return 0;
	return k;
}

static void check_token(struct pspan m, int at, int len)
{
	if (at < 0) {
		assert(at == -1 && len == 0);
		for (size_t i = 0; i < m.n; i++)
			assert(!token_at(m.s, m.n, i));
		return;
	}
	assert((size_t)at < m.n && len > 0 && (size_t)at + (size_t)len <= m.n);
	assert(token_at(m.s, m.n, (size_t)at) == (size_t)len);
	for (size_t i = 0; i < (size_t)at; i++)
		assert(!token_at(m.s, m.n, i));
}

/* The gates skip only what would have found nothing. */
static void check_gates(struct pspan raw, const struct hlog_line *l)
{
	struct pspan line = probe__trim(raw);
	struct hlog_hits h, every;
	struct hlog_line gated;
	struct hlog_event e, want;
	hlog__line_hits(line, &h);
	hlog__line_parse_hits(raw, &gated, &h);
	assert(!memcmp(&gated, l, sizeof(gated)));
	memset(&every, 0, sizeof(every));
	every.s = line.s;
	every.n = line.n;
	every.inner = -1;
	every.all = 1;
	hlog__event_init(&e);
	hlog__event_init(&want);
	int got = hlog__recognise_hits(line, l, &e, &h);
	assert(got == hlog__recognise_hits(line, l, &want, &every));
	assert(!got || !memcmp(&e, &want, sizeof(e)));
}

static void check_line(struct pspan raw)
{
	struct hlog_line l, again;
	hlog__line_parse(raw, &l);

	/* msg is a trimmed part of the line */
	assert(l.msg.s >= raw.s && l.msg.n <= raw.n &&
	       (size_t)(l.msg.s - raw.s) <= raw.n - l.msg.n);
	assert(!l.msg.n || (!is_blank(l.msg.s[0]) && !is_blank(l.msg.s[l.msg.n - 1])));

	/* the code token of msg, the one hlog__code_token finds there */
	check_token(l.msg, l.code_at, l.code_len);
	int len = -7;
	assert(hlog__code_token(l.msg, &len) == l.code_at && len == l.code_len);

	/* what the prefixes said */
	assert(l.t_us >= -1 && l.pid >= -1 && l.rank >= -1 && l.dev >= -1);
	assert(l.level >= HLINE_NONE && l.level <= HLINE_ERROR);
	assert((l.kernel == 0 || l.kernel == 1) && (l.cont == 0 || l.cont == 1) &&
	       (l.error == 0 || l.error == 1));

	/* no hidden state */
	hlog__line_parse(raw, &again);
	assert(again.msg.s == l.msg.s && again.msg.n == l.msg.n && again.t_us == l.t_us);
	assert(again.pid == l.pid && again.rank == l.rank && again.dev == l.dev);
	assert(again.level == l.level && again.kernel == l.kernel && again.cont == l.cont);
	assert(again.error == l.error && again.code_at == l.code_at &&
	       again.code_len == l.code_len);

	check_gates(raw, &l);

	/* the whole line, prefixes and control bytes too */
	int at = hlog__code_token(raw, &len);
	check_token(raw, at, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pspan rest = {(const char *)data, size}, line;
	while (probe__next_line(&rest, &line)) {
		size_t n = line.n < HLOG_MAX_LINE ? line.n : HLOG_MAX_LINE;
		char *own = malloc(n ? n : 1);
		assert(own);
		memcpy(own, line.s, n);
		check_line((struct pspan){own, n});
		free(own);
	}
	return 0;
}
