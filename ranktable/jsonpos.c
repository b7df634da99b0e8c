/* A strict JSON scanner that locates syntax errors and values; see jsonpos.h. It is
 * iterative (an explicit stack of RT_JPOS_MAXDEPTH containers), reads each byte once and
 * never past len. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>

#include "ranktable/jsonpos.h"
#include "ranktable/text.h"
#include "ranktable/base/hex.h"

struct scan {
	const unsigned char *s;
	size_t len, i;
	unsigned line, col;
	struct rt__jpos *p;
};

/* Consumes one byte. Continuation bytes of a UTF-8 sequence add no column. */
static void step(struct scan *sc)
{
	unsigned char c = sc->s[sc->i++];
	if (c == '\n') {
		sc->line++;
		sc->col = 1;
	} else if (c != '\r' && (c & 0xC0) != 0x80) {
		sc->col++;
	}
}

static int eof(const struct scan *sc)
{
	return sc->i >= sc->len;
}

static void skip_ws(struct scan *sc)
{
	while (!eof(sc)) {
		unsigned char c = sc->s[sc->i];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		step(sc);
	}
}

__attribute__((format(printf, 4, 5))) static int fail(struct scan *sc, unsigned line,
						      unsigned col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sc->p->emsg, sizeof(sc->p->emsg), fmt, ap);
	va_end(ap);
	sc->p->eline = line;
	sc->p->ecol = col;
	return -EINVAL;
}

static int fail_here(struct scan *sc, const char *msg)
{
	return fail(sc, sc->line, sc->col, "%s", msg);
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
	p->ck[p->nck++] = (struct rt__jpos_ck){ (uint32_t)sc->i, sc->line, sc->col };
	return 0;
}

static int record(struct scan *sc, size_t koff)
{
	struct rt__jpos *p = sc->p;
	if (checkpoint(sc))
		return -ENOMEM;
	struct rt__jpos_val *v = room(p->v, p->n, &p->cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v = v;
	p->v[p->n++] = (struct rt__jpos_val){ (uint32_t)sc->i, (uint32_t)koff };
	return 0;
}

/* The positions' array cut to its count: doubling left up to half of it unused, for as long
 * as the table is loaded. */
static void shrink(struct rt__jpos *p)
{
	struct rt__jpos_val *v = p->n ? realloc(p->v, p->n * sizeof(*v)) : NULL;
	if (v) {
		p->v = v;
		p->cap = p->n;
	}
}

/* Reads "\uXXXX" at sc->i (the backslash); -1 when it is not one. Does not consume. */
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

static int utf8_len(const struct scan *sc, size_t i)
{
	return rt__utf8_len(sc->s + i, sc->len - i);
}

static int scan_string(struct scan *sc)
{
	unsigned qline = sc->line, qcol = sc->col;
	step(sc); /* the opening quote */
	for (;;) {
		if (eof(sc))
			return fail(sc, qline, qcol, "unterminated string");
		unsigned char c = sc->s[sc->i];
		if (c == '"') {
			step(sc);
			return 0;
		}
		if (c < 0x20)
			return fail_here(sc, "control character in string");
		if (c == '\\') {
			unsigned eline = sc->line, ecol = sc->col;
			if (sc->len - sc->i < 2)
				return fail(sc, qline, qcol, "unterminated string");
			unsigned char e = sc->s[sc->i + 1];
			if (strchr("\"\\/bfnrt", e) && e) {
				step(sc);
				step(sc);
				continue;
			}
			if (e != 'u') {
				if (e > 0x20 && e < 0x7f)
					return fail(sc, eline, ecol, "invalid escape '\\%c' in string", e);
				return fail(sc, eline, ecol, "invalid escape in string");
			}
			long cp = peek_u4(sc, sc->i);
			if (cp < 0)
				return fail(sc, eline, ecol,
					    "invalid escape: '\\u' needs four hex digits");
			/* cJSON (like C) ends the string there: "a\u0000;b" would be read as
			 * "a", and what follows would never be checked */
			if (cp == 0)
				return fail(sc, eline, ecol,
					    "NUL (\\u0000) in string: everything after it would "
					    "be cut off");
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return fail(sc, eline, ecol,
					    "invalid escape: lone UTF-16 low surrogate");
			int nesc = 1;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				long lo = peek_u4(sc, sc->i + 6);
				if (lo < 0xDC00 || lo > 0xDFFF)
					return fail(sc, eline, ecol,
						    "invalid escape: UTF-16 high surrogate without "
						    "its low surrogate");
				nesc = 2;
			}
			for (int k = 0; k < 6 * nesc; k++)
				step(sc);
			continue;
		}
		if (c < 0x80) {
			step(sc);
			continue;
		}
		int n = utf8_len(sc, sc->i);
		if (n < 0)
			return fail(sc, qline, qcol, "unterminated string");
		if (n == 0)
			return fail_here(sc, "invalid UTF-8 in string");
		for (int k = 0; k < n; k++)
			step(sc);
	}
}

static int is_digit(const struct scan *sc, size_t j)
{
	return j < sc->len && sc->s[j] >= '0' && sc->s[j] <= '9';
}

static int scan_number(struct scan *sc)
{
	size_t j = sc->i;
	if (sc->s[j] == '-')
		j++;
	if (!is_digit(sc, j))
		return fail_here(sc, "invalid number");
	if (sc->s[j] == '0') {
		j++;
		if (is_digit(sc, j))
			return fail_here(sc, "invalid number: leading zero");
	} else {
		while (is_digit(sc, j))
			j++;
	}
	if (j < sc->len && sc->s[j] == '.') {
		j++;
		if (!is_digit(sc, j))
			return fail_here(sc, "invalid number: no digit after '.'");
		while (is_digit(sc, j))
			j++;
	}
	if (j < sc->len && (sc->s[j] == 'e' || sc->s[j] == 'E')) {
		j++;
		if (j < sc->len && (sc->s[j] == '+' || sc->s[j] == '-'))
			j++;
		if (!is_digit(sc, j))
			return fail_here(sc, "invalid number: no digit in exponent");
		while (is_digit(sc, j))
			j++;
	}
	if (j - sc->i > RT_JPOS_MAXNUM)
		return fail_here(sc, "number too long");
	while (sc->i < j)
		step(sc);
	return 0;
}

static int is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static int scan_literal(struct scan *sc)
{
	size_t j = sc->i;
	while (j < sc->len && is_word(sc->s[j]))
		j++;
	size_t n = j - sc->i;
	const char *w = (const char *)sc->s + sc->i;
	if ((n == 4 && !memcmp(w, "true", 4)) || (n == 5 && !memcmp(w, "false", 5)) ||
	    (n == 4 && !memcmp(w, "null", 4))) {
		while (sc->i < j)
			step(sc);
		return 0;
	}
	int shown = n > 32 ? 32 : (int)n;
	return fail(sc, sc->line, sc->col, "invalid literal '%.*s%s' (strings need double quotes)",
		    shown, w, n > 32 ? "..." : "");
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
		return fail(sc, sc->line, sc->col, "expected %s, found '%c'", what, c);
	return fail(sc, sc->line, sc->col, "expected %s, found byte 0x%02x", what, c);
}

static int scan_value(struct scan *sc, char *stack, size_t *depth, size_t koff, int *opened)
{
	unsigned char c = sc->s[sc->i];
	*opened = 0;
	if (c == '{' || c == '[') {
		if (*depth == RT_JPOS_MAXDEPTH)
			return fail(sc, sc->line, sc->col, "nesting deeper than %d levels",
				    RT_JPOS_MAXDEPTH);
		int rc = record(sc, koff);
		if (rc)
			return rc;
		stack[(*depth)++] = (char)c;
		step(sc);
		*opened = 1;
		return 0;
	}
	if (c == '"' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z')) {
		int rc = record(sc, koff);
		if (rc)
			return rc;
		if (c == '"')
			return scan_string(sc);
		if (c == '-' || (c >= '0' && c <= '9'))
			return scan_number(sc);
		return scan_literal(sc);
	}
	return bad_start(sc, "a value");
}

enum state { ST_VALUE, ST_AFTER, ST_KEY, ST_FIRST_KEY, ST_FIRST_ELEM };

int rt__jpos_scan(struct rt__jpos *p, const char *buf, size_t len)
{
	memset(p, 0, sizeof(*p));
	if (len > UINT32_MAX)
		return -ENOMEM; /* offsets are 32 bits: 4 GiB of table is not one */
	p->buf = buf;
	p->len = len;
	struct scan sc = { (const unsigned char *)buf, len, 0, 1, 1, p };
	char stack[RT_JPOS_MAXDEPTH];
	size_t depth = 0;
	size_t koff = 0;
	enum state st = ST_VALUE;
	int rc, opened;

	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
		sc.i = 3;
		p->bom = 3;
	}
	for (;;) {
		skip_ws(&sc);
		switch (st) {
		case ST_VALUE:
			if (eof(&sc))
				return fail_here(&sc, "unexpected end of input");
			rc = scan_value(&sc, stack, &depth, koff, &opened);
			if (rc)
				return rc;
			koff = 0;
			if (!opened)
				st = ST_AFTER;
			else
				st = stack[depth - 1] == '{' ? ST_FIRST_KEY : ST_FIRST_ELEM;
			break;
		case ST_FIRST_ELEM:
			if (!eof(&sc) && sc.s[sc.i] == ']') {
				step(&sc);
				depth--;
				st = ST_AFTER;
			} else {
				st = ST_VALUE;
			}
			break;
		case ST_FIRST_KEY:
			if (!eof(&sc) && sc.s[sc.i] == '}') {
				step(&sc);
				depth--;
				st = ST_AFTER;
				break;
			}
			/* fall through */
		case ST_KEY:
			if (eof(&sc))
				return fail_here(&sc, "unexpected end of input");
			if (sc.s[sc.i] != '"')
				return bad_start(&sc, "'\"' to start an object key");
			koff = sc.i;
			rc = scan_string(&sc);
			if (rc)
				return rc;
			skip_ws(&sc);
			if (eof(&sc))
				return fail_here(&sc, "unexpected end of input");
			if (sc.s[sc.i] != ':')
				return fail_here(&sc, "expected ':' after object key");
			step(&sc);
			st = ST_VALUE;
			break;
		case ST_AFTER: {
			if (!depth) {
				if (!eof(&sc))
					return fail_here(&sc, "extra data after the JSON document");
				shrink(p);
				return 0;
			}
			if (eof(&sc))
				return fail_here(&sc, "unexpected end of input");
			int obj = stack[depth - 1] == '{';
			unsigned char c = sc.s[sc.i];
			if (c == (obj ? '}' : ']')) {
				step(&sc);
				depth--;
				break;
			}
			if (c != ',')
				return fail_here(&sc, obj ? "expected ',' or '}' after object member"
							  : "expected ',' or ']' after array element");
			unsigned cline = sc.line, ccol = sc.col;
			step(&sc);
			skip_ws(&sc);
			if (!eof(&sc) && sc.s[sc.i] == (obj ? '}' : ']'))
				return fail(&sc, cline, ccol, "trailing comma");
			st = obj ? ST_KEY : ST_VALUE;
			break;
		}
		}
	}
}

/* Line and column of byte off (one the scan recorded), counted from the last checkpoint
 * at or before it. */
static void off_at(const struct rt__jpos *p, size_t off, unsigned *line, unsigned *col)
{
	size_t lo = 0, hi = p->nck; /* the first checkpoint is the first value's */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->ck[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	const struct rt__jpos_ck *k = &p->ck[lo];
	struct scan sc = { (const unsigned char *)p->buf, p->len, k->off, k->line, k->col, NULL };
	if (k->off > off) /* a key before the first value: none can be, but from the top */
		sc = (struct scan){ (const unsigned char *)p->buf, p->len, p->bom, 1, 1, NULL };
	while (sc.i < off)
		step(&sc);
	*line = sc.line;
	*col = sc.col;
}

/* Calls fn on each node of root in pre-order with its index, until fn returns non-zero
 * (which is returned) or the nodes outnumber the scan's values (-EINVAL); 0 at the end with
 * *count the nodes seen. */
static int preorder(const struct rt__jpos *p, cJSON *root, size_t *count,
		    int (*fn)(cJSON *node, size_t idx, void *arg), void *arg)
{
	/* without recursion: the stack holds the next sibling of each open level */
	cJSON *stack[RT_JPOS_MAXDEPTH + 2];
	size_t depth = 0, idx = 0;
	cJSON *node = root;
	while (node) {
		if (idx >= p->n)
			return -EINVAL;
		int rc = fn(node, idx++, arg);
		if (rc)
			return rc;
		if (node->child) {
			if (node->next) {
				if (depth == RT_JPOS_MAXDEPTH + 2)
					return -EINVAL;
				stack[depth++] = node->next;
			}
			node = node->child;
		} else if (node->next) {
			node = node->next;
		} else {
			node = depth ? stack[--depth] : NULL;
		}
	}
	*count = idx;
	return 0;
}

static int set_index(cJSON *node, size_t idx, void *arg)
{
	(void)arg;
	node->valueint = (int)idx;
	return 0;
}

/* Each node's index in document order goes in its valueint, which cJSON fills only for
 * numbers and none of its functions we call read (a number's value is valuedouble): a
 * pointer hash of twice the nodes' count cost 24 to 48 bytes a node, as much as the
 * positions themselves. */
int rt__jpos_bind(struct rt__jpos *p, cJSON *root)
{
	size_t n = 0;
	if (p->n > INT_MAX || preorder(p, root, &n, set_index, NULL))
		return -EINVAL;
	p->bound = n == p->n;
	return p->bound ? 0 : -EINVAL;
}

struct find {
	const cJSON *node;
	size_t idx;
};

static int is_node(cJSON *node, size_t idx, void *arg)
{
	struct find *f = arg;
	f->idx = idx;
	return node == f->node;
}

int rt__jpos_find(const struct rt__jpos *p, const cJSON *root, const cJSON *node,
		  unsigned *line, unsigned *col)
{
	struct find f = { node, 0 };
	size_t n;
	*line = *col = 0;
	/* the walk only reads: the cast is preorder's, shared with rt__jpos_bind */
	if (preorder(p, (cJSON *)root, &n, is_node, &f) != 1)
		return -ENOENT;
	off_at(p, p->v[f.idx].off, line, col);
	return 0;
}

/* The cJSON type a value starting with byte c has. */
static int type_of(unsigned char c)
{
	switch (c) {
	case '{':
		return cJSON_Object;
	case '[':
		return cJSON_Array;
	case '"':
		return cJSON_String;
	case 't':
		return cJSON_True;
	case 'f':
		return cJSON_False;
	case 'n':
		return cJSON_NULL;
	default:
		return cJSON_Number;
	}
}

/* node's entry; a node of another tree (whose valueint means something else) is told by
 * its type or its key not being those of the value its valueint names. */
static const struct rt__jpos_val *lookup(const struct rt__jpos *p, const cJSON *node)
{
	if (!p || !p->bound || !node || node->valueint < 0 || (size_t)node->valueint >= p->n)
		return NULL;
	const struct rt__jpos_val *v = &p->v[node->valueint];
	if ((node->type & 0xFF) != type_of((unsigned char)p->buf[v->off]) ||
	    !node->string != !v->koff)
		return NULL;
	return v;
}

int rt__jpos_get(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col)
{
	const struct rt__jpos_val *v = lookup(p, node);
	*line = *col = 0;
	if (!v)
		return -ENOENT;
	off_at(p, v->off, line, col);
	return 0;
}

int rt__jpos_key(const struct rt__jpos *p, const cJSON *node, unsigned *line, unsigned *col)
{
	const struct rt__jpos_val *v = lookup(p, node);
	*line = *col = 0;
	if (!v || !v->koff)
		return -ENOENT;
	off_at(p, v->koff, line, col);
	return 0;
}

void rt__jpos_locate(const char *buf, size_t len, size_t off, unsigned *line, unsigned *col)
{
	struct scan sc = { (const unsigned char *)buf, len, 0, 1, 1, NULL };
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		sc.i = 3;
	if (off > len)
		off = len;
	while (sc.i < off)
		step(&sc);
	*line = sc.line;
	*col = sc.col;
}

void rt__jpos_release(struct rt__jpos *p)
{
	free(p->v);
	free(p->ck);
	memset(p, 0, sizeof(*p));
}
