/* The strict JSON reader of jsonpos.h: one pass that checks the syntax (a located message
 * for the first error), records where values start and, when asked, builds the cJSON tree
 * as it goes. It is iterative (an explicit stack of RT_JPOS_MAXDEPTH containers), reads each
 * byte once and never past len.
 *
 * It keeps no column while reading: a column is counted from an offset when one is needed,
 * from a checkpoint (jsonpos.c), or for an error from the start (errors are rare). Only the
 * line's start and the bytes that add no column ('\r', UTF-8 continuation bytes) are
 * counted on the way, so a checkpoint's column costs nothing. Before, a scanner stepped
 * every byte to keep line and column, and cJSON then read the bytes again into its own tree
 * that a third walk bound to the positions: a 65 536-rank table (11 MB) took 2.5 times as
 * long to reach the checks as it takes now. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ranktable/jsonpos.h"
#include "ranktable/text.h"
#include "ranktable/base/hex.h"

/* ---- the tree: nodes and strings cut one after another from big blocks ---- */

struct rt__chunk {
	struct rt__chunk *next;
	size_t used, cap; /* of data, which follows */
};

/* The first block holds a pretty table's tree; later ones double up to 64 MiB. Untouched
 * pages of a block cost no memory. Blocks are asked for huge pages: a page fault costs
 * microseconds on a virtual machine, and the tree of a 65 536-rank table is 20 MB. */
#define CHUNK_MIN (1u << 21)
#define CHUNK_MAX (1u << 26)
#define CHUNK_HEAD ((sizeof(struct rt__chunk) + 15) & ~(size_t)15)

/* Key names repeat on every rank ("device_id", "rank_id"): one copy each, looked up by a
 * hash of the key's bytes. A table slot holds the last key of its hash. */
#define INTERN_SLOTS 256
#define INTERN_MAXLEN 64

struct build {
	struct rt__tree *t;
	cJSON *open[RT_JPOS_MAXDEPTH]; /* the containers being filled */
	cJSON *last[RT_JPOS_MAXDEPTH]; /* their last child so far */
	const char *key;	       /* the next value's key */
	size_t chunk;		       /* the size of the next block */
	struct {
		const char *s;
		size_t n;
	} intern[INTERN_SLOTS];
};

static void *chunk_new(struct build *b, size_t need)
{
	size_t cap = b->chunk;
	while (cap - CHUNK_HEAD < need)
		cap *= 2;
	/* a huge page needs a 2 MiB-aligned start: map more, keep the aligned part */
	char *m = mmap(NULL, cap + CHUNK_MIN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	char *a = (char *)(((uintptr_t)m + CHUNK_MIN - 1) & ~(uintptr_t)(CHUNK_MIN - 1));
	if (a > m)
		munmap(m, (size_t)(a - m));
	if (a + cap < m + cap + CHUNK_MIN)
		munmap(a + cap, (size_t)(m + CHUNK_MIN - a));
	madvise(a, cap, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
	struct rt__chunk *c = (struct rt__chunk *)a;
	c->next = b->t->chunks;
	c->used = 0;
	c->cap = cap - CHUNK_HEAD;
	b->t->chunks = c;
	if (b->chunk < CHUNK_MAX)
		b->chunk *= 2;
	return c;
}

/* n bytes from the current block, aligned to align (a power of two); NULL without memory. */
static void *take(struct build *b, size_t n, size_t align)
{
	struct rt__chunk *c = b->t->chunks;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || at > c->cap || c->cap - at < n) {
		c = chunk_new(b, n + align);
		if (!c)
			return NULL;
		at = 0;
	}
	c->used = at + n;
	return (char *)c + CHUNK_HEAD + at;
}

void rt__tree_release(struct rt__tree *t)
{
	for (struct rt__chunk *c = t->chunks, *next; c; c = next) {
		next = c->next;
		munmap(c, c->cap + CHUNK_HEAD);
	}
	memset(t, 0, sizeof(*t));
}

int rt__tree_owns(const struct rt__tree *t, const cJSON *node)
{
	for (const struct rt__chunk *c = t->chunks; c; c = c->next)
		if ((const char *)node >= (const char *)c + CHUNK_HEAD &&
		    (const char *)node < (const char *)c + CHUNK_HEAD + c->used)
			return 1;
	return 0;
}

/* A node at offset off of the text, appended to the open container (or the root). */
static cJSON *node_new(struct build *b, size_t depth, int type, size_t off)
{
	cJSON *n = take(b, sizeof(*n), _Alignof(cJSON));
	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->valueint = (int)off;
	n->string = (char *)b->key;
	b->key = NULL;
	if (!depth) {
		b->t->root = n;
		return n;
	}
	cJSON *parent = b->open[depth - 1], *last = b->last[depth - 1];
	if (last) {
		last->next = n;
		n->prev = last;
	} else {
		parent->child = n;
	}
	parent->child->prev = n; /* cJSON's convention: the first child's prev is the last */
	b->last[depth - 1] = n;
	return n;
}

static size_t put_utf8(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static unsigned long u4(const unsigned char *s)
{
	unsigned long v = 0;
	for (int k = 0; k < 4; k++)
		v = v * 16 + (unsigned long)hex_val(s[k]);
	return v;
}

/* The string s[0..n) (between its quotes, already checked) decoded, NUL-terminated. The
 * decoded form is never longer: an escape of 2, 6 or 12 bytes gives at most 4. */
static char *str_new(struct build *b, const unsigned char *s, size_t n, int esc)
{
	char *o = take(b, n + 1, 1);
	if (!o)
		return NULL;
	if (!esc) {
		memcpy(o, s, n);
		o[n] = 0;
		return o;
	}
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] != '\\') {
			o[k++] = (char)s[i++];
			continue;
		}
		unsigned char e = s[i + 1];
		i += 2;
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
		if (e != 'u') {
			o[k++] = to[strchr(from, e) - from];
			continue;
		}
		unsigned long cp = u4(s + i);
		i += 4;
		if (cp >= 0xD800 && cp <= 0xDBFF) { /* its low half follows (checked) */
			cp = 0x10000 + ((cp - 0xD800) << 10) + (u4(s + i + 2) - 0xDC00);
			i += 6;
		}
		k += put_utf8(o + k, cp);
	}
	o[k] = 0;
	return o;
}

static const char *key_new(struct build *b, const unsigned char *s, size_t n, int esc)
{
	if (esc || n > INTERN_MAXLEN)
		return str_new(b, s, n, esc);
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 16777619u;
	h ^= h >> 16;
	unsigned slot = h % INTERN_SLOTS;
	if (b->intern[slot].s && b->intern[slot].n == n && !memcmp(b->intern[slot].s, s, n))
		return b->intern[slot].s;
	const char *k = str_new(b, s, n, 0);
	if (k) {
		b->intern[slot].s = k;
		b->intern[slot].n = n;
	}
	return k;
}

/* ---- lines and columns ---- */

void rt__jpos_advance(const char *buf, size_t from, size_t to, unsigned *line, unsigned *col)
{
	for (const unsigned char *c = (const unsigned char *)buf + from;
	     c < (const unsigned char *)buf + to; c++) {
		if (*c == '\n') {
			++*line;
			*col = 1;
		} else if (*c != '\r' && (*c & 0xC0) != 0x80) {
			++*col; /* continuation bytes of a UTF-8 sequence add no column */
		}
	}
}

void rt__jpos_locate(const char *buf, size_t len, size_t off, unsigned *line, unsigned *col)
{
	size_t from = len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
	*line = *col = 1;
	if (off > len)
		off = len;
	rt__jpos_advance(buf, from < off ? from : off, off, line, col);
}

/* ---- the reader ---- */

struct scan {
	const unsigned char *s;
	size_t len, i;
	unsigned line;
	size_t lstart;	 /* where the line starts */
	size_t adj, ladj; /* bytes without a column before i, and before lstart */
	struct rt__jpos *p;
	struct build *b; /* NULL: no tree */
	size_t depth;
	char stack[RT_JPOS_MAXDEPTH];
};

__attribute__((format(printf, 3, 4))) static int fail(struct scan *sc, size_t off,
						      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sc->p->emsg, sizeof(sc->p->emsg), fmt, ap);
	va_end(ap);
	sc->p->eoff = off;
	rt__jpos_locate((const char *)sc->s, sc->len, off, &sc->p->eline, &sc->p->ecol);
	return -EINVAL;
}

static int fail_here(struct scan *sc, const char *msg)
{
	return fail(sc, sc->i, "%s", msg);
}

static void skip_ws(struct scan *sc)
{
	const unsigned char *s = sc->s;
	size_t i = sc->i, len = sc->len;
	while (i < len) {
		unsigned char c = s[i];
		if (c == ' ') {
			/* indentation, eight at a time: half of a pretty table is spaces */
			uint64_t w;
			for (i++; len - i >= 8; i += 8) {
				memcpy(&w, s + i, 8);
				if (w != 0x2020202020202020ULL)
					break;
			}
		} else if (c == '\t') {
			i++;
		} else if (c == '\n') {
			i++;
			sc->line++;
			sc->lstart = i;
			sc->ladj = sc->adj;
		} else if (c == '\r') {
			i++;
			sc->adj++;
		} else {
			break;
		}
	}
	sc->i = i;
}

/* a with room for one more than its n elements of size (capacity *cap, doubled when full;
 * at most UINT32_MAX elements), moved maybe; NULL without memory, a left as it was. */
static void *room(void *a, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return a;
	size_t ncap = *cap ? *cap * 2 : 64;
	void *na = ncap > UINT32_MAX ? NULL : realloc(a, ncap * size);
	if (na)
		*cap = ncap;
	return na;
}

/* A checkpoint (offset, line, column) at the value starting here, when the last is
 * RT_JPOS_CK_BYTES behind: a position is found from the one before it. */
static int checkpoint(struct scan *sc)
{
	struct rt__jpos *p = sc->p;
	if (p->nck && sc->i - p->ck[p->nck - 1].off < RT_JPOS_CK_BYTES)
		return 0;
	struct rt__jpos_ck *ck = room(p->ck, p->nck, &p->ckcap, sizeof(*ck));
	if (!ck)
		return -ENOMEM;
	p->ck = ck;
	unsigned col = (unsigned)(sc->i - sc->lstart - (sc->adj - sc->ladj) + 1);
	p->ck[p->nck++] = (struct rt__jpos_ck){ (uint32_t)sc->i, sc->line, col };
	return 0;
}

/* A value starts at sc->i: a checkpoint maybe, and its offset (no tree) or its node. */
static int record(struct scan *sc, int type, cJSON **node)
{
	struct rt__jpos *p = sc->p;
	if (checkpoint(sc))
		return -ENOMEM;
	if (sc->b) {
		*node = node_new(sc->b, sc->depth, type, sc->i);
		return *node ? 0 : -ENOMEM;
	}
	uint32_t *v = room(p->v, p->n, &p->cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v = v;
	p->v[p->n++] = (uint32_t)sc->i;
	return 0;
}

/* Reads "\uXXXX" at at (the backslash); -1 when it is not one. Does not consume. */
static long peek_u4(const struct scan *sc, size_t at)
{
	if (sc->len - at < 6 || sc->s[at] != '\\' || sc->s[at + 1] != 'u')
		return -1;
	long v = 0;
	for (int k = 2; k < 6; k++) {
		int h = hex_val(sc->s[at + k]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* The escape at sc->i (a backslash inside the string opened at q): its length, or an
 * error. */
static int escape(struct scan *sc, size_t q, size_t *n)
{
	size_t at = sc->i;
	if (sc->len - at < 2)
		return fail(sc, q, "unterminated string");
	unsigned char e = sc->s[at + 1];
	if (e && strchr("\"\\/bfnrt", e)) {
		*n = 2;
		return 0;
	}
	if (e != 'u') {
		if (e > 0x20 && e < 0x7f)
			return fail(sc, at, "invalid escape '\\%c' in string", e);
		return fail(sc, at, "invalid escape in string");
	}
	long cp = peek_u4(sc, at);
	if (cp < 0)
		return fail(sc, at, "invalid escape: '\\u' needs four hex digits");
	/* cJSON (like C) ends the string there: "a\u0000;b" would be read as "a", and what
	 * follows would never be checked */
	if (cp == 0)
		return fail(sc, at, "NUL (\\u0000) in string: everything after it would be cut off");
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return fail(sc, at, "invalid escape: lone UTF-16 low surrogate");
	*n = 6;
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		long lo = peek_u4(sc, at + 6);
		if (lo < 0xDC00 || lo > 0xDFFF)
			return fail(sc, at,
				    "invalid escape: UTF-16 high surrogate without its low "
				    "surrogate");
		*n = 12;
	}
	return 0;
}

/* The string at sc->i (its opening quote); *esc when it holds an escape. */
static int scan_string(struct scan *sc, int *esc)
{
	const unsigned char *s = sc->s;
	size_t q = sc->i, len = sc->len;
	size_t i = q + 1;
	*esc = 0;
	for (;;) {
		if (i >= len) {
			sc->i = i;
			return fail(sc, q, "unterminated string");
		}
		unsigned char c = s[i];
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c == '"')
			break;
		sc->i = i;
		if (c < 0x20)
			return fail_here(sc, "control character in string");
		if (c == '\\') {
			size_t n;
			int rc = escape(sc, q, &n);
			if (rc)
				return rc;
			*esc = 1;
			i += n;
			continue;
		}
		int n = rt__utf8_len(s + i, len - i);
		if (n < 0)
			return fail(sc, q, "unterminated string");
		if (n == 0)
			return fail_here(sc, "invalid UTF-8 in string");
		sc->adj += (size_t)n - 1; /* continuation bytes take no column */
		i += (size_t)n;
	}
	sc->i = i + 1;
	return 0;
}

static int string_value(struct scan *sc)
{
	cJSON *node = NULL;
	size_t q = sc->i;
	int esc, rc = record(sc, cJSON_String, &node);
	if (!rc)
		rc = scan_string(sc, &esc);
	if (rc || !node)
		return rc;
	node->valuestring = str_new(sc->b, sc->s + q + 1, sc->i - q - 2, esc);
	return node->valuestring ? 0 : -ENOMEM;
}

static int is_digit(const struct scan *sc, size_t j)
{
	return j < sc->len && sc->s[j] >= '0' && sc->s[j] <= '9';
}

/* The end of the number at sc->i, or 0 after an error. */
static size_t number_end(struct scan *sc)
{
	size_t j = sc->i;
	if (sc->s[j] == '-')
		j++;
	if (!is_digit(sc, j))
		return fail_here(sc, "invalid number"), 0;
	if (sc->s[j] == '0') {
		j++;
		if (is_digit(sc, j))
			return fail_here(sc, "invalid number: leading zero"), 0;
	} else {
		while (is_digit(sc, j))
			j++;
	}
	if (j < sc->len && sc->s[j] == '.') {
		j++;
		if (!is_digit(sc, j))
			return fail_here(sc, "invalid number: no digit after '.'"), 0;
		while (is_digit(sc, j))
			j++;
	}
	if (j < sc->len && (sc->s[j] == 'e' || sc->s[j] == 'E')) {
		j++;
		if (j < sc->len && (sc->s[j] == '+' || sc->s[j] == '-'))
			j++;
		if (!is_digit(sc, j))
			return fail_here(sc, "invalid number: no digit in exponent"), 0;
		while (is_digit(sc, j))
			j++;
	}
	if (j - sc->i > RT_JPOS_MAXNUM)
		return fail_here(sc, "number too long"), 0;
	return j;
}

static int number_value(struct scan *sc)
{
	size_t j = number_end(sc);
	if (!j)
		return -EINVAL;
	cJSON *node = NULL;
	int rc = record(sc, cJSON_Number, &node);
	if (!rc && node) {
		char num[RT_JPOS_MAXNUM + 1]; /* strtod needs its end; the text has none */
		memcpy(num, sc->s + sc->i, j - sc->i);
		num[j - sc->i] = 0;
		node->valuedouble = strtod(num, NULL);
	}
	sc->i = j;
	return rc;
}

static int is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static int literal_value(struct scan *sc)
{
	size_t j = sc->i;
	while (j < sc->len && is_word(sc->s[j]))
		j++;
	size_t n = j - sc->i;
	const char *w = (const char *)sc->s + sc->i;
	int type = n == 4 && !memcmp(w, "true", 4)    ? cJSON_True
		   : n == 5 && !memcmp(w, "false", 5) ? cJSON_False
		   : n == 4 && !memcmp(w, "null", 4)  ? cJSON_NULL
						      : 0;
	if (!type) {
		int shown = n > 32 ? 32 : (int)n;
		return fail(sc, sc->i, "invalid literal '%.*s%s' (strings need double quotes)",
			    shown, w, n > 32 ? "..." : "");
	}
	cJSON *node;
	int rc = record(sc, type, &node);
	sc->i = j;
	return rc;
}

/* A character where a value or key should start, that cannot start one. */
static int bad_start(struct scan *sc, const char *what)
{
	unsigned char c = sc->s[sc->i];
	if (c == '/')
		return fail_here(sc, "comments are not allowed in JSON");
	if (c == '\'')
		return fail_here(sc, "strings need double quotes, not single quotes");
	if (c > 0x20 && c < 0x7f)
		return fail(sc, sc->i, "expected %s, found '%c'", what, c);
	return fail(sc, sc->i, "expected %s, found byte 0x%02x", what, c);
}

static int scan_value(struct scan *sc, int *opened)
{
	unsigned char c = sc->s[sc->i];
	*opened = 0;
	if (c == '{' || c == '[') {
		if (sc->depth == RT_JPOS_MAXDEPTH)
			return fail(sc, sc->i, "nesting deeper than %d levels", RT_JPOS_MAXDEPTH);
		cJSON *node = NULL;
		int rc = record(sc, c == '{' ? cJSON_Object : cJSON_Array, &node);
		if (rc)
			return rc;
		if (node) {
			sc->b->open[sc->depth] = node;
			sc->b->last[sc->depth] = NULL;
		}
		sc->stack[sc->depth++] = (char)c;
		sc->i++;
		*opened = 1;
		return 0;
	}
	if (c == '"')
		return string_value(sc);
	if (c == '-' || (c >= '0' && c <= '9'))
		return number_value(sc);
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return literal_value(sc);
	return bad_start(sc, "a value");
}

/* An object's key at sc->i and its ':'. */
static int scan_key(struct scan *sc)
{
	if (sc->i >= sc->len)
		return fail_here(sc, "unexpected end of input");
	if (sc->s[sc->i] != '"')
		return bad_start(sc, "'\"' to start an object key");
	size_t q = sc->i;
	int esc, rc = scan_string(sc, &esc);
	if (rc)
		return rc;
	if (sc->b) {
		sc->b->key = key_new(sc->b, sc->s + q + 1, sc->i - q - 2, esc);
		if (!sc->b->key)
			return -ENOMEM;
	}
	skip_ws(sc);
	if (sc->i >= sc->len)
		return fail_here(sc, "unexpected end of input");
	if (sc->s[sc->i] != ':')
		return fail_here(sc, "expected ':' after object key");
	sc->i++;
	return 0;
}

enum state { ST_VALUE, ST_AFTER, ST_KEY, ST_FIRST_KEY, ST_FIRST_ELEM };

/* After a value inside a container: its end, or ',' and what follows. 1 at the end of the
 * document. */
static int after_value(struct scan *sc, enum state *st)
{
	if (!sc->depth) {
		if (sc->i < sc->len)
			return fail_here(sc, "extra data after the JSON document");
		return 1;
	}
	if (sc->i >= sc->len)
		return fail_here(sc, "unexpected end of input");
	int obj = sc->stack[sc->depth - 1] == '{';
	unsigned char c = sc->s[sc->i];
	if (c == (obj ? '}' : ']')) {
		sc->i++;
		sc->depth--;
		return 0;
	}
	if (c != ',')
		return fail_here(sc, obj ? "expected ',' or '}' after object member"
					 : "expected ',' or ']' after array element");
	size_t comma = sc->i++;
	skip_ws(sc);
	if (sc->i < sc->len && sc->s[sc->i] == (obj ? '}' : ']'))
		return fail(sc, comma, "trailing comma");
	*st = obj ? ST_KEY : ST_VALUE;
	return 0;
}

/* An empty container's end, or on to its first member. */
static void first(struct scan *sc, enum state *st, char close)
{
	if (sc->i < sc->len && sc->s[sc->i] == close) {
		sc->i++;
		sc->depth--;
		*st = ST_AFTER;
	} else {
		*st = close == '}' ? ST_KEY : ST_VALUE;
	}
}

static int run(struct scan *sc)
{
	enum state st = ST_VALUE;
	int rc, opened;
	for (;;) {
		skip_ws(sc);
		switch (st) {
		case ST_VALUE:
			if (sc->i >= sc->len)
				return fail_here(sc, "unexpected end of input");
			rc = scan_value(sc, &opened);
			if (rc)
				return rc;
			if (!opened)
				st = ST_AFTER;
			else
				st = sc->stack[sc->depth - 1] == '{' ? ST_FIRST_KEY : ST_FIRST_ELEM;
			break;
		case ST_FIRST_ELEM:
			first(sc, &st, ']');
			break;
		case ST_FIRST_KEY:
			first(sc, &st, '}');
			break;
		case ST_KEY:
			rc = scan_key(sc);
			if (rc)
				return rc;
			st = ST_VALUE;
			break;
		case ST_AFTER:
			rc = after_value(sc, &st);
			if (rc)
				return rc < 0 ? rc : 0;
			break;
		}
	}
}

/* The positions' array cut to its count: doubling left up to half of it unused, for as long
 * as the table is loaded. */
static void shrink(struct rt__jpos *p)
{
	uint32_t *v = p->n ? realloc(p->v, p->n * sizeof(*v)) : NULL;
	if (v) {
		p->v = v;
		p->cap = p->n;
	}
}

static int parse(struct rt__jpos *p, struct build *b, const char *buf, size_t len)
{
	memset(p, 0, sizeof(*p));
	if (len > INT32_MAX)
		return -ENOMEM; /* offsets are 31 bits (a node's valueint): 2 GiB is no table */
	p->buf = buf;
	p->len = len;
	struct scan sc = { .s = (const unsigned char *)buf, .len = len, .line = 1, .p = p, .b = b };
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
		sc.i = sc.lstart = 3;
		p->bom = 3;
	}
	int rc = run(&sc);
	if (!rc && !b)
		shrink(p);
	return rc;
}

int rt__jpos_scan(struct rt__jpos *p, const char *buf, size_t len)
{
	return parse(p, NULL, buf, len);
}

int rt__jpos_parse(struct rt__jpos *p, struct rt__tree *t, const char *buf, size_t len)
{
	memset(t, 0, sizeof(*t));
	struct build *b = calloc(1, sizeof(*b));
	if (!b) {
		memset(p, 0, sizeof(*p));
		return -ENOMEM;
	}
	b->t = t;
	b->chunk = CHUNK_MIN;
	int rc = parse(p, b, buf, len);
	free(b);
	if (rc) {
		rt__tree_release(t);
	} else {
		p->bound = 1;
		p->tree = t;
	}
	return rc;
}
