/* The family of an error line that no rule of the catalog explains, read from its words: a
 * crash, memory, a link, a name that does not resolve, versions, a connection that could not
 * be made, and a wait that ran out. A log whose only errors are lines of a format nobody wrote a
 * rule for still says what kind of failure it holds; the line is quoted, and the verdict says
 * it was read from the words, so the reader knows how much to trust it. The rows go from the
 * cause that explains the most to the least: a crashed rank makes its peers' connections fail
 * and their waits run out, so a crash line outranks a refused connection, which outranks a
 * connection that timed out, and all outrank a bare timeout. */
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probes/npu/hcclcodes.h"
#include "ranktable/base/acm.h"
#include "probes/logs/logtext.h"
#include "probes/logs/extract.h"
#include "probes/logs/hlogcause.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/wordfam.h"

/* The table's parts in their order; a row's number counts across them. */
static const struct {
	const struct family *rows;
	const size_t *n;
} parts[] = {{hlog__fams_node, &hlog__nfams_node},
	     {hlog__fams_soft, &hlog__nfams_soft},
	     {hlog__fams_proc, &hlog__nfams_proc}};

/* Row number row of the whole table, or NULL. */
static const struct family *fam_at(int row)
{
	if (row < 0)
		return NULL;
	size_t r = (size_t)row;
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
		if (r < *parts[p].n)
			return &parts[p].rows[r];
		r -= *parts[p].n;
	}
	return NULL;
}

/* match_at's reading of needle (not empty) from s.s[*i], *i moved past it: the needle's last
 * byte, 0 when it does not match there */
static int match_body(struct pspan s, size_t *i, const char *needle)
{
	const char *p = needle;
	for (; *p; p++) {
		if (*p == ' ') {
			/* before a mark of the needle ("found (required"), blanks only */
			int blanks = p[1] && !hlog__word_char(p[1]);
			size_t from = *i;
			while (*i < s.n && (blanks ? s.s[*i] == ' ' || s.s[*i] == '\t'
						   : !hlog__word_char(s.s[*i])))
				(*i)++;
			if (*i == from)
				return 0;
			continue;
		}
		if (*i >= s.n || tolower((unsigned char)s.s[*i]) != tolower((unsigned char)*p))
			return 0;
		(*i)++;
	}
	return p > needle ? (unsigned char)p[-1] : 0;
}

/* needle at the start of a word, its spaces matching any run of punctuation and blanks
 * ("link failed" in "[link] failed"); letters in any case, other characters as they are.
 * "Timeout" inside "rtDeviceSynchronizeWithTimeout" is part of a name, not a word; nor is
 * a needle that a '_' continues: "sigkill" in DeepSpeed's launcher's "sigkill_handler",
 * which reports every rank's end whatever its code; nor a C++ function named in the code an
 * assertion quotes, its scope before it and its call after it ("owning_ptr ==
 * NullType::singleton()" is no MPI singleton). */
static int match_at(struct pspan s, size_t i, const char *needle)
{
	size_t from = i;
	int last = match_body(s, &i, needle);
	if (!last || (isalnum(last) && i < s.n && s.s[i] == '_'))
		return 0;
	return !(from >= 2 && s.s[from - 1] == ':' && s.s[from - 2] == ':' && i < s.n &&
		 s.s[i] == '(');
}

/* Whether needle may start at s.s[i] inside an identifier: one that starts with '_' is the
 * tail of a snake_case name ("_out_of_device_memory" in ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY),
 * one that starts with a capital a hump of a CamelCase one ("OutOfMemory" in
 * hipErrorOutOfMemory) */
static int part_start(struct pspan s, size_t i, const char *needle)
{
	return needle[0] == '_' || (isupper((unsigned char)needle[0]) && s.s[i] == needle[0] &&
				    islower((unsigned char)s.s[i - 1]));
}

static int has(struct pspan s, const char *needle)
{
	if (!needle[0])
		return 0;
	/* only where the first letter is, in either case: every error line is read against
	 * every family, and a call per byte made a log of error lines take 0.25 ms a line */
	unsigned char lo = (unsigned char)tolower((unsigned char)needle[0]);
	unsigned char up = (unsigned char)toupper((unsigned char)needle[0]);
	int any_byte = needle[0] == ' ';
	/* the next lo and the next up at or after i, found by memchr (NULL: not looked for yet;
	 * the end: none left) */
	const char *end = s.s + s.n, *nlo = NULL, *nup = up == lo ? end : NULL;
	for (size_t i = 0; i < s.n; i++) {
		if (!any_byte) {
			if (!nlo || nlo < s.s + i) {
				const char *f = memchr(s.s + i, lo, s.n - i);
				nlo = f ? f : end;
			}
			if (!nup || nup < s.s + i) {
				const char *f = memchr(s.s + i, up, s.n - i);
				nup = f ? f : end;
			}
			const char *at = nlo < nup ? nlo : nup;
			if (at == end)
				return 0;
			i = (size_t)(at - s.s);
		}
		if ((i == 0 || !hlog__word_char(s.s[i - 1]) || !hlog__word_char(needle[0]) ||
		     part_start(s, i, needle)) &&
		    match_at(s, i, needle))
			return 1;
	}
	return 0;
}

/* Every phrase of the rows (any, also, not) numbered in table order, and an automaton over
 * the longest run of each without a blank (the part a match holds as it is, letters in either
 * case): one pass over a line says which phrases may be in it, and only those are read again
 * (reading every row's phrases in every error line was a quarter of reading a log). */
#define PHRASES_MAX 8192
static struct {
	struct acm *a;	/* NULL: no automaton (out of memory); every phrase is read */
	unsigned *base; /* per row: the number of its first phrase, its lists in turn */
} idx;
static pthread_once_t idx_once = PTHREAD_ONCE_INIT;

static size_t rows_total(void)
{
	size_t n = 0;
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
		n += *parts[p].n;
	return n;
}

/* 0, or -1 for a phrase of blanks only, which no key could stand for. */
static int add_phrases(struct acm *a, const char *const *list, unsigned *id)
{
	for (size_t i = 0; i < MAXW && list[i]; i++, (*id)++) {
		const char *key = list[i], *p = list[i];
		size_t kn = 0;
		while (*p) {
			size_t k = strcspn(p, " ");
			if (k > kn)
				key = p, kn = k;
			p += k + (p[k] == ' ');
		}
		if (!kn)
			return -1;
		acm_add(a, key, kn, (int)*id);
	}
	return 0;
}

static void build_idx(void)
{
	size_t nrows = rows_total();
	unsigned id = 0;
	int blank = 0;
	struct acm *a = acm_new(ACM_NOCASE);
	idx.base = calloc(nrows ? nrows : 1, sizeof(*idx.base));
	for (size_t r = 0; idx.base && r < nrows; r++) {
		const struct family *f = fam_at((int)r);
		idx.base[r] = id;
		blank |= add_phrases(a, f->any, &id) | add_phrases(a, f->also, &id) |
			 add_phrases(a, f->not, &id);
	}
	if (!idx.base || blank || id > PHRASES_MAX || acm_build(a)) {
		acm_free(a);
		a = NULL;
	}
	idx.a = a;
}

struct seen {
	uint64_t bit[PHRASES_MAX / 64];
};

static int seen_hit(void *ctx, int id, size_t end)
{
	struct seen *s = ctx;
	(void)end;
	s->bit[id >> 6] |= 1ull << (id & 63);
	return 0;
}

/* Whether one of list's phrases (numbered from first; seen: those the line may hold, NULL:
 * any) is in s. */
static int has_any(struct pspan s, const char *const *list, const struct seen *seen,
		   unsigned first)
{
	for (unsigned i = 0; i < MAXW && list[i]; i++) {
		unsigned id = first + i;
		if ((!seen || (seen->bit[id >> 6] >> (id & 63) & 1)) && has(s, list[i]))
			return 1;
	}
	return 0;
}

static unsigned list_n(const char *const *list)
{
	unsigned i = 0;
	while (i < MAXW && list[i])
		i++;
	return i;
}

/* The words of a line that guesses or foretells instead of stating, for the rows marked sure:
 * torch's "Stack trace of the failed collective not found, potentially because FlightRecorder
 * is disabled", vLLM's "This might cause deadlock in distributed execution", Transformers'
 * "This is not supported for all configurations of models and can yield errors." */
static const char *const hedges[MAXW] = {
	"may cause", "might cause", "could cause", "may yield", "can yield",   "could yield",
	"possibly",  "potentially", "probably",	   "perhaps",	"might be",    "may be"};

/* Where a list of possibilities starts, or line.n: a phrase that offers causes ("There are
 * some potential root causes. (1) The process is killed by SIGKILL by OOM killer ... (2)
 * ray stop --force is called. (3) ...") followed by at least two numbered items. What the
 * list names may or may not have happened, so its words are no family of the line's; one
 * cause offered alone ("This might be caused by insufficient shared memory") stays. */
static size_t possibilities_at(struct pspan line)
{
	static const char *const offers[] = {"potential root cause", "possible root cause",
					     "potential cause", "possible cause", "possible reason",
					     "following reasons", "may be due to", "might be due to",
					     "may be caused by", "might be caused by",
					     "could be caused by"};
	for (size_t i = 0; i < sizeof(offers) / sizeof(offers[0]); i++) {
		const char *at = hlog__find_nocase(line, offers[i]);
		if (!at)
			continue;
		struct pspan rest = {at, line.n - (size_t)(at - line.s)};
		if ((hlog__has(rest, "(1)") && hlog__has(rest, "(2)")) ||
		    (hlog__has(rest, "1.") && hlog__has(rest, "2.")))
			return (size_t)(at - line.s);
	}
	return line.n;
}

/* Lines read before the automaton is worth building: a log with a few error lines (most of
 * them) reads their phrases one by one, cheaper than building it for every run. */
#define AUTOMATON_AFTER 64

static int family_of(struct pspan line, int at_end)
{
	static atomic_uint asked;
	struct seen seen;
	int use = atomic_fetch_add_explicit(&asked, 1, memory_order_relaxed) >= AUTOMATON_AFTER;
	if (use)
		pthread_once(&idx_once, build_idx);
	line.n = possibilities_at(line);
	if (use && idx.a) {
		memset(&seen, 0, sizeof(seen));
		acm_scan(idx.a, line.s, line.n, seen_hit, &seen);
	}
	const struct seen *sn = use && idx.a ? &seen : NULL;
	int row = 0;
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
		for (size_t i = 0; i < *parts[p].n; i++, row++) {
			const struct family *f = &parts[p].rows[i];
			unsigned any = sn ? idx.base[row] : 0, also = any + list_n(f->any),
				 not = also + list_n(f->also);
			if ((at_end || !f->end_only) && (!f->form || f->form(line, NULL)) &&
			    ((f->form && !f->any[0]) || has_any(line, f->any, sn, any)) &&
			    (!f->also[0] || has_any(line, f->also, sn, also)) &&
			    !has_any(line, f->not, sn, not) &&
			    (!f->sure || !has_any(line, hedges, NULL, 0)))
				return row;
		}
	return -1;
}

int hlog__word_family(struct pspan line)
{
	return family_of(line, 0);
}

int hlog__word_family_end(struct pspan line)
{
	return family_of(line, 1);
}

const char *hlog__word_family_name(int row)
{
	const struct family *f = fam_at(row);
	return f ? f->name : NULL;
}

int hlog__word_family_named(const char *name)
{
	for (int row = 0;; row++) {
		const struct family *f = fam_at(row);
		if (!f)
			return -1;
		if (!strcmp(f->name, name))
			return row;
	}
}

int hlog__word_family_says(int row)
{
	const struct family *f = fam_at(row);
	return f ? f->says : 0;
}

int hlog__word_family_cat(int row)
{
	const struct family *f = fam_at(row);
	return f ? f->cat : HCAT_NONE;
}

int hlog__word_family_row(int row, struct hlog_wordfam *out)
{
	const struct family *f = fam_at(row);
	if (!f)
		return 0;
	*out = (struct hlog_wordfam){f->cat, f->name, f->what, f->fix, f->weak, f->says, f->form};
	/* a row that leaves its cause or fix out says those of the row of its name before it */
	for (int r = row - 1; r >= 0 && (!out->what || !out->fix); r--) {
		const struct family *e = fam_at(r);
		if (strcmp(e->name, f->name))
			continue;
		if (!out->what)
			out->what = e->what;
		if (!out->fix)
			out->fix = e->fix;
	}
	return 1;
}
