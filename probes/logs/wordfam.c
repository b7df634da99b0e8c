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
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probes/npu/hcclcodes.h"
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

/* needle at the start of a word, its spaces matching any run of punctuation and blanks
 * ("link failed" in "[link] failed"); letters in any case, other characters as they are.
 * "Timeout" inside "rtDeviceSynchronizeWithTimeout" is part of a name, not a word. */
static int match_at(struct pspan s, size_t i, const char *needle)
{
	for (const char *p = needle; *p; p++) {
		if (*p == ' ') {
			/* before a mark of the needle ("found (required"), blanks only */
			int blanks = p[1] && !hlog__word_char(p[1]);
			size_t from = i;
			while (i < s.n && (blanks ? s.s[i] == ' ' || s.s[i] == '\t' : !hlog__word_char(s.s[i])))
				i++;
			if (i == from)
				return 0;
			continue;
		}
		if (i >= s.n || tolower((unsigned char)s.s[i]) != tolower((unsigned char)*p))
			return 0;
		i++;
	}
	return 1;
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

/* The bytes and the pairs of adjacent bytes a line holds, folded to lower case: a word whose
 * first byte, or first two, the line lacks is not in it. That rules most of the families'
 * words out of a line without reading it again for each. */
struct line_bytes {
	uint64_t one[4];
	uint64_t pair[65536 / 64];
};

static unsigned fold_byte(char c)
{
	unsigned char u = (unsigned char)c;
	return u >= 'A' && u <= 'Z' ? u + 32u : u;
}

static void line_bytes(struct pspan s, struct line_bytes *b)
{
	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < s.n; i++) {
		unsigned c = fold_byte(s.s[i]);
		b->one[c >> 6] |= 1ull << (c & 63);
		if (i + 1 < s.n) {
			unsigned p = c << 8 | fold_byte(s.s[i + 1]);
			b->pair[p >> 6] |= 1ull << (p & 63);
		}
	}
}

/* Whether the line may hold needle: its first byte is there, and its first two are a pair
 * of the line unless the second is a blank (which matches a run of any non-word bytes). */
static int may_have(const struct line_bytes *b, const char *needle)
{
	if (needle[0] == ' ')
		return 1;
	unsigned c = fold_byte(needle[0]);
	if (!(b->one[c >> 6] >> (c & 63) & 1))
		return 0;
	if (!needle[1] || needle[1] == ' ')
		return 1;
	unsigned p = c << 8 | fold_byte(needle[1]);
	return (int)(b->pair[p >> 6] >> (p & 63) & 1);
}

static int has_any(struct pspan s, const char *const *list, const struct line_bytes *b)
{
	for (size_t i = 0; i < MAXW && list[i]; i++)
		if (may_have(b, list[i]) && has(s, list[i]))
			return 1;
	return 0;
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

static int family_of(struct pspan line, int at_end)
{
	struct line_bytes b;
	line.n = possibilities_at(line);
	line_bytes(line, &b);
	int row = 0;
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
		for (size_t i = 0; i < *parts[p].n; i++, row++) {
			const struct family *f = &parts[p].rows[i];
			if ((at_end || !f->end_only) && (!f->form || f->form(line, NULL)) &&
			    ((f->form && !f->any[0]) || has_any(line, f->any, &b)) &&
			    (!f->also[0] || has_any(line, f->also, &b)) &&
			    !has_any(line, f->not, &b) && (!f->sure || !has_any(line, hedges, &b)))
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
	*out = (struct hlog_wordfam){f->cat, f->name, f->what, f->fix, f->weak, f->form};
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
