/* Values out of log lines: see logtext.h. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/logtext.h"
#include "ranktable/base/hex.h"

/* The line being scanned, and which pairs of adjacent bytes it has (folded to lower case,
 * hashed to 4096 bits): the rules look for a few hundred literals in a line they read, and
 * most literals have a pair the line lacks, which this answers without a search. Per thread;
 * set and cleared by the scan loop around each file. The pairs are found only once a line
 * has been searched a few times: most lines are searched for a few literals only (the line
 * automaton's gates skip the rules), and for those the walk over the line cost more than
 * the searches it saves. */
#define PAIRS_AFTER 4 /* searches of a line before its pairs are worth finding */

static _Thread_local struct {
	const char *s;
	size_t n;
	unsigned searches;
	int known; /* bits holds the line's pairs */
	uint64_t bits[64];
} line_pairs;

static unsigned fold(char c)
{
	return (unsigned)(unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

/* The hash of a pair of bytes already folded: each byte is folded once as a walk moves on. */
static unsigned pair_hash(unsigned a, unsigned b)
{
	return (a * 31u + b) & 4095u;
}

void hlog__line_pairs(struct pspan line)
{
	line_pairs.s = line.s;
	line_pairs.n = line.s ? line.n : 0;
	line_pairs.searches = 0;
	line_pairs.known = 0;
}

static void find_pairs(void)
{
	memset(line_pairs.bits, 0, sizeof(line_pairs.bits));
	unsigned a = line_pairs.n ? fold(line_pairs.s[0]) : 0;
	for (size_t i = 0; i + 1 < line_pairs.n; i++) {
		unsigned b = fold(line_pairs.s[i + 1]), h = pair_hash(a, b);
		line_pairs.bits[h >> 6] |= 1ull << (h & 63);
		a = b;
	}
	line_pairs.known = 1;
}

/* Whether the pairs of the line m lies in are known (found now if it is their time). */
static int pairs_known(struct pspan m)
{
	if (!line_pairs.s || m.s < line_pairs.s || m.s + m.n > line_pairs.s + line_pairs.n)
		return 0;
	if (!line_pairs.known && ++line_pairs.searches >= PAIRS_AFTER)
		find_pairs();
	return line_pairs.known;
}

/* 0 when lit cannot be in m, any case: m lies in the line whose pairs are known and a pair of
 * lit is not among them. Else 1, with lit's length in *k. Most literals fail on their first
 * pairs, so the length is measured in the same walk rather than first. */
static int may_hold(struct pspan m, const char *lit, size_t *k)
{
	size_t i = 0;
	if (lit[0] && pairs_known(m)) {
		unsigned a = fold(lit[0]);
		for (; lit[i + 1]; i++) {
			unsigned b = fold(lit[i + 1]), h = pair_hash(a, b);
			if (!(line_pairs.bits[h >> 6] >> (h & 63) & 1))
				return 0;
			a = b;
		}
	}
	*k = i + strlen(lit + i);
	return 1;
}

const char *hlog__find(struct pspan m, const char *lit)
{
	size_t k;
	if (!m.s || !may_hold(m, lit, &k) || k > m.n)
		return NULL;
	return memmem(m.s, m.n, lit, k);
}

int hlog__has(struct pspan m, const char *lit)
{
	return hlog__find(m, lit) != NULL;
}

const char *hlog__find_nocase(struct pspan m, const char *lit)
{
	size_t k;
	if (!m.s || !may_hold(m, lit, &k) || k > m.n)
		return NULL;
	unsigned c0 = k ? fold(lit[0]) : 0;
	for (size_t i = 0; i + k <= m.n; i++)
		if ((!k || fold(m.s[i]) == c0) && !strncasecmp(m.s + i, lit, k))
			return m.s + i;
	return NULL;
}

int hlog__has_nocase(struct pspan m, const char *lit)
{
	return hlog__find_nocase(m, lit) != NULL;
}

struct pspan hlog__after(struct pspan m, const char *lit)
{
	const char *p = hlog__find(m, lit);
	struct pspan r = {NULL, 0};
	if (p) {
		r.s = p + strlen(lit);
		r.n = m.n - (size_t)(r.s - m.s);
	}
	return r;
}

struct pspan hlog__after_nocase(struct pspan m, const char *lit)
{
	const char *p = hlog__find_nocase(m, lit);
	if (!p)
		return (struct pspan){NULL, 0};
	size_t k = (size_t)(p - m.s) + strlen(lit);
	return (struct pspan){m.s + k, m.n - k};
}

struct pspan hlog__value_after(struct pspan m, const char *key)
{
	struct pspan a = hlog__after(m, key);
	if (!a.s)
		return a;
	size_t i = 0;
	while (i < a.n && i < 4 && a.s[i] && strchr(" [(:=", a.s[i]))
		i++;
	a.s += i;
	a.n -= i;
	return a;
}

int hlog__num_at(struct pspan m, long long *v)
{
	size_t i = 0;
	while (i < m.n && i < 3 && m.s[i] && strchr(" [(:=", m.s[i]))
		i++;
	int neg = 0;
	if (i < m.n && m.s[i] == '-') {
		neg = 1;
		i++;
	}
	if (i + 2 < m.n && m.s[i] == '0' && (m.s[i + 1] == 'x' || m.s[i + 1] == 'X')) {
		size_t b = i + 2, k;
		unsigned long long x = 0;
		for (k = b; k < m.n && k - b < 16 && hex_val(m.s[k]) >= 0; k++)
			x = x * 16 + (unsigned)hex_val(m.s[k]);
		if (k == b)
			return 0;
		/* errNo values fit in 63 bits; a larger one is kept at the cap */
		long long y = x > (unsigned long long)0x7fffffffffffffffLL ? 0x7fffffffffffffffLL
									    : (long long)x;
		*v = neg ? -y : y;
		return 1;
	}
	size_t b = i;
	long long x = 0;
	while (i < m.n && i - b < 10 && m.s[i] >= '0' && m.s[i] <= '9')
		x = x * 10 + (m.s[i++] - '0');
	if (i == b)
		return 0;
	*v = neg ? -x : x;
	return 1;
}

int hlog__int_after(struct pspan m, const char *key, int *out)
{
	long long v;
	struct pspan a = hlog__after(m, key);
	if (!a.s || !hlog__num_at(a, &v) || v < 0 || v >= 0x7fffffff)
		return 0;
	/* a number that goes on as ".digit" is an address or a decimal, not an id: HCCL fills
	 * "deviceId[127.10.0.1]" with the server's address in its CQE heartbeat */
	size_t i = (size_t)(a.s - m.s);
	while (i < m.n && (m.s[i] < '0' || m.s[i] > '9'))
		i++;
	while (i < m.n && m.s[i] >= '0' && m.s[i] <= '9')
		i++;
	if (i + 1 < m.n && m.s[i] == '.' && m.s[i + 1] >= '0' && m.s[i + 1] <= '9')
		return 0;
	*out = (int)v;
	return 1;
}

static int is_hex(char c)
{
	return hex_val(c) >= 0;
}

/* IPv4: four decimal parts up to 255, not followed by another digit or ".digit"; IPv6:
 * groups of up to 4 hex digits with "::" or 7 colons, so that a time "15:38:29" is not one. */
size_t hlog__ip_at(struct pspan m, char *out, size_t outlen)
{
	size_t i = 0;
	unsigned part = 0, parts = 0, dig = 0;
	for (; i <= m.n; i++) {
		char c = i < m.n ? m.s[i] : '\0';
		if (c >= '0' && c <= '9' && dig < 3) {
			part = part * 10 + (unsigned)(c - '0');
			dig++;
			continue;
		}
		if (!dig || part > 255)
			break;
		parts++;
		if (parts == 4 || c != '.')
			break;
		part = dig = 0;
	}
	if (parts == 4 && !(i < m.n && m.s[i] >= '0' && m.s[i] <= '9') &&
	    !(i + 1 < m.n && m.s[i] == '.' && m.s[i + 1] >= '0' && m.s[i + 1] <= '9')) {
		struct pspan ip = {m.s, i};
		probe__copy(out, outlen, ip);
		return i;
	}
	size_t colons = 0, grp = 0, dbl = 0;
	for (i = 0; i < m.n && i < 40; i++) {
		char c = m.s[i];
		if (is_hex(c)) {
			if (++grp > 4)
				return 0;
		} else if (c == ':') {
			dbl |= i && m.s[i - 1] == ':';
			colons++;
			grp = 0;
		} else {
			break;
		}
	}
	if (colons < 2 || (!dbl && colons != 7) || colons > 7 || (i < m.n && m.s[i] == '.'))
		return 0;
	struct pspan ip = {m.s, i};
	probe__copy(out, outlen, ip);
	return i;
}

int hlog__ip_after(struct pspan m, const char *key, char *out, size_t outlen)
{
	struct pspan a = hlog__value_after(m, key);
	return a.s && hlog__ip_at(a, out, outlen) > 0;
}

int hlog__nth_ip(struct pspan m, int nth, char *out, size_t outlen)
{
	for (size_t i = 0; i < m.n; i++) {
		if (i && (is_hex(m.s[i - 1]) || m.s[i - 1] == '.' || m.s[i - 1] == ':'))
			continue;
		struct pspan t = {m.s + i, m.n - i};
		size_t k = hlog__ip_at(t, out, outlen);
		if (k) {
			if (nth-- == 0)
				return 1;
			i += k;
		}
	}
	if (outlen)
		out[0] = '\0';
	return 0;
}

int hlog__uid_after(struct pspan m, const char *key, char *ip, size_t iplen, int *dev)
{
	struct pspan a = hlog__value_after(m, key);
	if (!a.s)
		return 0;
	size_t k = hlog__ip_at(a, ip, iplen);
	if (!k)
		return 0;
	long long v;
	struct pspan d = {a.s + k, a.n - k};
	if (d.n && d.s[0] == '/') {
		d.s++;
		d.n--;
		if (hlog__num_at(d, &v) && v >= 0 && v < 0x7fffffff)
			*dev = (int)v;
	}
	return 1;
}

int hlog__name_after(struct pspan m, const char *key, char *out, size_t outlen)
{
	struct pspan a = hlog__value_after(m, key);
	size_t k = 0;
	if (!a.s || !outlen)
		return 0;
	while (k < a.n && k + 1 < outlen) {
		char c = a.s[k];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-' || c == '%'))
			break;
		k++;
	}
	if (!k)
		return 0;
	memcpy(out, a.s, k);
	out[k] = '\0';
	return 1;
}

static int digits(const char *s, size_t n, int *v)
{
	int x = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return 1;
}

/* Howard Hinnant's days_from_civil. */
int64_t hlog__days(int y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int64_t hlog__stamp_at(const char *s, size_t n)
{
	static const char shape[] = "dddd-dd-dd-dd:dd:dd.ddd.ddd";
	int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0, ms = 0, us = 0;
	if (n < sizeof(shape) - 1)
		return -1;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return -1;
	digits(s, 4, &y);
	digits(s + 5, 2, &mo);
	digits(s + 8, 2, &d);
	digits(s + 11, 2, &h);
	digits(s + 14, 2, &mi);
	digits(s + 17, 2, &se);
	digits(s + 20, 3, &ms);
	digits(s + 24, 3, &us);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	int64_t days = hlog__days(y, mo, d);
	return ((days * 86400 + h * 3600 + mi * 60 + se) * 1000 + ms) * 1000 + us;
}

void hlog__skip(struct pspan *m, size_t k)
{
	if (k > m->n)
		k = m->n;
	m->s += k;
	m->n -= k;
}

/* An HTTP status of a failed request: "[status code: 404]", "status code is 503", "HTTP
 * status 500" (400 to 599; "status code: 200" is an answer). A service answering every
 * request with an error has failed, even where it logs that at no level. */
int hlog__http_failure(struct pspan m)
{
	/* every "status" found by the search that tests the first byte before a call (a call of
	 * strncasecmp at each byte of each line was 6 % of judging a healthy 200 MB log) */
	for (const char *f = hlog__find_nocase(m, "status"); f;) {
		size_t i = (size_t)(f - m.s);
		struct pspan rest = {f + 6, m.n - i - 6};
		f = hlog__find_nocase(rest, "status");
		if (i + 6 >= m.n || (i && hlog__word_char(m.s[i - 1])))
			continue;
		size_t j = i + 6;
		if (j + 5 <= m.n && !strncasecmp(m.s + j, " code", 5))
			j += 5;
		while (j < m.n && (m.s[j] == ' ' || m.s[j] == ':' || m.s[j] == '='))
			j++;
		if (j + 3 <= m.n && !strncmp(m.s + j, "is ", 3))
			j += 3;
		if (j + 3 > m.n || (m.s[j] != '4' && m.s[j] != '5') || !isdigit((unsigned char)m.s[j + 1]) ||
		    !isdigit((unsigned char)m.s[j + 2]) || (j + 3 < m.n && hlog__word_char(m.s[j + 3])))
			continue;
		return 1;
	}
	return 0;
}

/* NCCL's tree of a channel, "Trees [0] 1/-1/-1->0->-1 [1] ...": the children, then "->" the
 * process's own rank "->" its parent (init.cc's "%d/%d/%d->%d->%d"); -1. */
static int trees_rank(struct pspan m)
{
	const char *p = hlog__find(m, "Trees [");
	if (!p)
		return -1;
	for (size_t i = (size_t)(p - m.s); i + 2 < m.n; i++) {
		if (m.s[i] != '-' || m.s[i + 1] != '>')
			continue;
		size_t j = i + 2;
		int v = 0, d = 0;
		while (j < m.n && isdigit((unsigned char)m.s[j]) && d < 7)
			v = v * 10 + (m.s[j++] - '0'), d++;
		return d && j + 1 < m.n && m.s[j] == '-' && m.s[j + 1] == '>' ? v : -1;
	}
	return -1;
}

int hlog__self_rank(struct pspan m)
{
	int t = trees_rank(m);
	if (t >= 0)
		return t;
	static const struct {
		const char *key;
		int after_comma; /* the rank follows the job id's ',' */
	} forms[] = {{"myrank ", 0}, {"reported by process [", 1}};
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		const char *p = hlog__find(m, forms[f].key);
		if (!p || (p > m.s && hlog__word_char(p[-1])))
			continue;
		size_t i = (size_t)(p - m.s) + strlen(forms[f].key);
		if (forms[f].after_comma) {
			while (i < m.n && isdigit((unsigned char)m.s[i]))
				i++;
			if (i >= m.n || m.s[i] != ',')
				continue;
			i++;
		}
		int v = 0, d = 0;
		while (i < m.n && isdigit((unsigned char)m.s[i]) && d < 7)
			v = v * 10 + (m.s[i++] - '0'), d++;
		if (d && !(i < m.n && (hlog__word_char(m.s[i]) || m.s[i] == '.')))
			return v;
	}
	return -1;
}

int hlog__errno_of(struct pspan m)
{
	for (size_t i = 0; i + 5 < m.n; i++) {
		/* "errno" or Python's "Errno", not HCCL's "errNo[0x...]" (its own error number) */
		if ((m.s[i] != 'e' && m.s[i] != 'E') || memcmp(m.s + i + 1, "rrno", 4) ||
		    (i && hlog__word_char(m.s[i - 1])))
			continue;
		size_t j = i + 5, sep = 0;
		while (j < m.n && sep < 3 && strchr(" =:[(", m.s[j]))
			j++, sep++;
		int v = 0, d = 0;
		while (j < m.n && isdigit((unsigned char)m.s[j]) && d < 4)
			v = v * 10 + (m.s[j++] - '0'), d++;
		if (d >= 1 && d <= 3 && !(j < m.n && hlog__word_char(m.s[j])))
			return v;
	}
	return -1;
}

/* Takes out of s[0..n) the terminal control sequences that coloured output carries (Ray's
 * "\x1b[2m\x1b[36m(RayTrainWorker pid=1146)\x1b[0m ...", loguru's, vLLM's, rich's): a CSI
 * ("ESC [", parameter and intermediate bytes, one final byte: colours, cursor moves), an OSC
 * ("ESC ]" to BEL or "ESC \\": a window title, a link), a charset's "ESC ( B", any other ESC
 * with the byte after it. Never a newline: a sequence cut short ends at its line. In place;
 * the new length. The prefixes and words of a line are then what a terminal showed. */
size_t hlog__strip_ansi(char *s, size_t n)
{
	size_t w = 0, i = 0;
	while (i < n) {
		if (s[i] != '\x1b') {
			s[w++] = s[i++];
			continue;
		}
		if (++i >= n || s[i] == '\n')
			continue;
		if (s[i] == '[') {
			for (i++; i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f; i++)
				;
			i += i < n && (unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e;
		} else if (s[i] == ']') {
			for (i++; i < n && s[i] != '\a' && s[i] != '\n' && s[i] != '\x1b'; i++)
				;
			i += i < n && s[i] == '\a';
			i += i + 1 < n && s[i] == '\x1b' && s[i + 1] == '\\' ? 2 : 0;
		} else {
			i += (s[i] == '(' || s[i] == ')') && i + 1 < n && s[i + 1] != '\n';
			i++;
		}
	}
	return w;
}

int hlog__binary(const char *buf, size_t len)
{
	size_t n = len < 4096 ? len : 4096, odd = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (!c)
			return 1;
		odd += c < 0x09 || (c > 0x0d && c < 0x20) || c == 0x7f;
	}
	return odd * 10 > n;
}
