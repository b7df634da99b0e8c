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

/* The tree is in a mapping of its own, which AddressSanitizer does not watch: what is past
 * the last record is poisoned by hand, so a read past the tree (the fuzz target's) is
 * caught. */
#if defined(__SANITIZE_ADDRESS__) /* gcc's */
#define TREE_ASAN 1
#elif defined(__has_feature) /* clang's */
#if __has_feature(address_sanitizer)
#define TREE_ASAN 1
#endif
#endif
#ifdef TREE_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

/* ---- the tree (jtree.h): records appended to one mapping ---- */

/* The mapping starts at about the text's size (a pretty table's tree is half of it, a compact
 * one's 1.2 times; untouched pages cost nothing) and doubles with mremap, which moves pages
 * without copying them: the records point only relative to themselves. Not asked for huge
 * pages: the tree of 65 536 ranks is 5 MB, 1200 page faults (a few ms), and 2 MiB pages
 * rounded its RSS up by 1.3 MB on average. */
#define TREE_MIN ((size_t)1 << 21)

/* Key names repeat on every rank ("device_id", "rank_id"): their text is stored once, with
 * the first record that has it, and later records point back to it. A slot of this table
 * holds the last key of its hash. */
#define INTERN_SLOTS 256
#define INTERN_MAXLEN 64

#define NONE ((size_t)-1)

struct build {
	struct rt__tree *t;
	size_t used;
	size_t faulted; /* pages before it are populated */
	size_t open[RT_JPOS_MAXDEPTH]; /* the containers being filled (byte offsets) */
	size_t last[RT_JPOS_MAXDEPTH]; /* their last member so far, or NONE */
	const unsigned char *key;      /* the next value's key, as written, or NULL */
	size_t keylen;
	int keyesc;
	struct {
		size_t at; /* where its text is, + 1; 0: empty */
		size_t n;
	} intern[INTERN_SLOTS];
};

/* Pages are populated POPULATE_STEP at a time ahead of the records: a page fault costs
 * microseconds on a virtual machine, and one a 4 KiB page was a fifth of validating 65 536
 * ranks (perf: 1300 more faults, 150 -> 200 ms task-clock, than with huge pages, which
 * rounded the tree's RSS up by 1.3 MB). Where the kernel has no MADV_POPULATE_WRITE (before
 * 5.14), pages fault one by one. */
#define POPULATE_STEP ((size_t)1 << 20)

static void populate(struct build *b, size_t end)
{
#ifdef MADV_POPULATE_WRITE
	struct rt__tree *t = b->t;
	if (end <= b->faulted)
		return;
	end = (end + POPULATE_STEP - 1) & ~(POPULATE_STEP - 1);
	if (end > t->cap)
		end = t->cap;
	madvise(t->mem + b->faulted, end - b->faulted, MADV_POPULATE_WRITE);
	b->faulted = end;
#else
	(void)b;
	(void)end;
#endif
}

/* Room for need more bytes; -ENOMEM past RT_J_MAXBYTES. */
static int grow(struct build *b, size_t need)
{
	struct rt__tree *t = b->t;
	populate(b, b->used + need);
	if (t->cap - b->used >= need)
		return 0;
	if (need >= RT_J_MAXBYTES - b->used)
		return -ENOMEM;
	size_t cap = t->cap;
	while (cap - b->used < need)
		cap *= 2;
	if (cap > RT_J_MAXBYTES)
		cap = RT_J_MAXBYTES;
	void *m = mremap(t->mem, t->cap, cap, MREMAP_MAYMOVE);
	if (m == MAP_FAILED)
		return -ENOMEM;
	t->mem = m;
	t->cap = cap;
	return 0;
}

static int tree_init(struct rt__tree *t, size_t len)
{
	size_t cap = TREE_MIN;
	while (cap < len && cap < RT_J_MAXBYTES / 2)
		cap *= 2;
	void *m = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	t->mem = m;
	t->cap = cap;
	return 0;
}

void rt__tree_release(struct rt__tree *t)
{
	ASAN_UNPOISON_MEMORY_REGION(t->mem, t->cap);
	if (t->mem)
		munmap(t->mem, t->cap);
	memset(t, 0, sizeof(*t));
}

static struct rt__jnode *at_(const struct build *b, size_t at)
{
	return (struct rt__jnode *)(b->t->mem + at);
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

/* The string s[0..n) (between its quotes, already checked) decoded into o, NUL-terminated
 * and padded with NULs to 4 bytes; returns the bytes written. o has room for n + 4: the
 * decoded form is never longer, an escape of 2, 6 or 12 bytes giving at most 4. */
static size_t str_put(char *o, const unsigned char *s, size_t n, int esc)
{
	size_t k = 0;
	if (!esc) {
		memcpy(o, s, n);
		k = n;
	}
	for (size_t i = 0; esc && i < n;) {
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
	size_t end = (k + 4) & ~(size_t)3;
	memset(o + k, 0, end - k);
	return end;
}

/* The slot of the pending key in the intern table, or -1 for a key never interned
 * (escaped or long). */
static long intern_slot(const struct build *b)
{
	if (b->keyesc || b->keylen > INTERN_MAXLEN)
		return -1;
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < b->keylen; i++)
		h = (h ^ b->key[i]) * 16777619u;
	h ^= h >> 16;
	return (long)(h % INTERN_SLOTS);
}

/* The pending key into the record at at: pointing back to its earlier copy, or written after
 * the header. Returns the bytes written. */
static size_t key_put(struct build *b, size_t at)
{
	struct rt__jnode *n = at_(b, at);
	long slot = intern_slot(b);
	size_t had = slot < 0 ? 0 : b->intern[slot].at;
	if (had && b->intern[slot].n == b->keylen &&
	    !memcmp(b->t->mem + had - 1, b->key, b->keylen)) {
		n->key = (int32_t)(-(long)((at - (had - 1)) / 4));
		return 0;
	}
	size_t k = at + sizeof(*n);
	n->key = RT_J_OWNKEY;
	size_t w = str_put(b->t->mem + k, b->key, b->keylen, b->keyesc);
	if (slot >= 0) {
		b->intern[slot].at = k + 1;
		b->intern[slot].n = b->keylen;
	}
	return w;
}

/* A record for the value of type at offset off of the text, appended to the open container
 * (or the root), with the string s[0..n) (esc: with escapes) or the number *num. */
static int node_new(struct build *b, size_t depth, int type, size_t off,
		    const unsigned char *s, size_t n, int esc, const double *num)
{
	size_t need = sizeof(struct rt__jnode) + (b->key ? b->keylen + 4 : 0) +
		      (type == RT_J_STRING ? n + 4 : 0) + (num ? sizeof(*num) : 0);
	if (grow(b, need))
		return -ENOMEM;
	size_t at = b->used;
	struct rt__jnode *node = at_(b, at);
	node->off = (uint32_t)off;
	node->key = 0;
	size_t w = sizeof(*node) + (b->key ? key_put(b, at) : 0);
	b->key = NULL;
	if (type == RT_J_STRING)
		w += str_put(b->t->mem + at + w, s, n, esc);
	if (num) {
		memcpy(b->t->mem + at + w, num, sizeof(*num));
		w += sizeof(*num);
	}
	/* a container's size counts its members too: set when it closes */
	node->lt = (uint32_t)type | (type < RT_J_ARRAY ? (uint32_t)(w / 4) << RT_J_SHIFT : 0);
	b->used += w;
	if (depth)
		b->last[depth - 1] = at;
	return 0;
}

/* The container open at depth is complete: its size, and its last member's mark. */
static void node_close(struct build *b, size_t depth)
{
	size_t at = b->open[depth];
	at_(b, at)->lt |= (uint32_t)((b->used - at) / 4) << RT_J_SHIFT;
	if (b->last[depth] != NONE)
		at_(b, b->last[depth])->lt |= RT_J_LAST;
}

/* ---- lines and columns ---- */

/* The lines are counted in one loop the compiler vectorises, and the columns only from the
 * last line's start: a position is asked for every device of a table, from a checkpoint up
 * to 256 bytes back, and stepping each byte with both counts was a tenth of validating a
 * 65536-rank table. */
void rt__jpos_advance(const char *buf, size_t from, size_t to, unsigned *line, unsigned *col)
{
	const unsigned char *b = (const unsigned char *)buf + from, *e = (const unsigned char *)buf + to;
	const unsigned char *nl = to > from ? memrchr(b, '\n', (size_t)(e - b)) : NULL;
	if (nl) {
		unsigned n = 0;
		for (const unsigned char *c = b; c <= nl; c++)
			n += *c == '\n';
		*line += n;
		*col = 1;
		b = nl + 1;
	}
	for (const unsigned char *c = b; c < e; c++) /* a UTF-8 continuation adds no column */
		*col += *c != '\r' && (*c & 0xC0) != 0x80;
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

/* A value starts at off (sc->i, or a string's opening quote already scanned): its offset
 * when there is no tree, else its record with the string s[0..n) or the number *num. The
 * checkpoint was taken at off. */
static int record(struct scan *sc, int type, size_t off, const unsigned char *s, size_t n,
		  int esc, const double *num)
{
	struct rt__jpos *p = sc->p;
	if (sc->b)
		return node_new(sc->b, sc->depth, type, off, s, n, esc, num);
	uint32_t *v = room(p->v, p->n, &p->cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v = v;
	p->v[p->n++] = (uint32_t)off;
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
	size_t q = sc->i;
	int esc, rc = checkpoint(sc);
	if (!rc)
		rc = scan_string(sc, &esc);
	if (!rc)
		rc = record(sc, RT_J_STRING, q, sc->s + q + 1, sc->i - q - 2, esc, NULL);
	return rc;
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
	double d = 0;
	if (sc->b) {
		char num[RT_JPOS_MAXNUM + 1]; /* strtod needs its end; the text has none */
		memcpy(num, sc->s + sc->i, j - sc->i);
		num[j - sc->i] = 0;
		d = strtod(num, NULL);
	}
	int rc = checkpoint(sc);
	if (!rc)
		rc = record(sc, RT_J_NUMBER, sc->i, NULL, 0, 0, &d);
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
	int type = n == 4 && !memcmp(w, "true", 4)    ? RT_J_TRUE
		   : n == 5 && !memcmp(w, "false", 5) ? RT_J_FALSE
		   : n == 4 && !memcmp(w, "null", 4)  ? RT_J_NULL
						      : 0;
	if (!type) {
		int shown = n > 32 ? 32 : (int)n;
		return fail(sc, sc->i, "invalid literal '%.*s%s' (strings need double quotes)",
			    shown, w, n > 32 ? "..." : "");
	}
	int rc = checkpoint(sc);
	if (!rc)
		rc = record(sc, type, sc->i, NULL, 0, 0, NULL);
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
		size_t at = sc->b ? sc->b->used : 0;
		int rc = checkpoint(sc);
		if (!rc)
			rc = record(sc, c == '{' ? RT_J_OBJECT : RT_J_ARRAY, sc->i, NULL, 0, 0,
				    NULL);
		if (rc)
			return rc;
		if (sc->b) {
			sc->b->open[sc->depth] = at;
			sc->b->last[sc->depth] = NONE;
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
		sc->b->key = sc->s + q + 1;
		sc->b->keylen = sc->i - q - 2;
		sc->b->keyesc = esc;
	}
	skip_ws(sc);
	if (sc->i >= sc->len)
		return fail_here(sc, "unexpected end of input");
	if (sc->s[sc->i] != ':')
		return fail_here(sc, "expected ':' after object key");
	sc->i++;
	return 0;
}

/* The container open at sc->i ends there. */
static void close_value(struct scan *sc)
{
	sc->i++;
	sc->depth--;
	if (sc->b)
		node_close(sc->b, sc->depth);
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
		close_value(sc);
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
		close_value(sc);
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
		return -ENOMEM; /* offsets are 31 bits: 2 GiB is no table */
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
	int rc = b ? tree_init(t, len) : -ENOMEM;
	if (rc) {
		free(b);
		memset(p, 0, sizeof(*p));
		return rc;
	}
	b->t = t;
	rc = parse(p, b, buf, len);
	size_t used = b->used;
	free(b);
	if (rc) {
		rt__tree_release(t);
		return rc;
	}
	((struct rt__jnode *)t->mem)->lt |= RT_J_LAST;
	t->root = (const struct rt__jnode *)t->mem;
	ASAN_POISON_MEMORY_REGION(t->mem + used, t->cap - used);
	return 0;
}
