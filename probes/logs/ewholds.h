/* The tests that decide whether a benign form of an error word holds where it matched
 * (ewholds.c), for ewbenign.c's table of benign forms, and the matching errwords.c and
 * ewbenign.c share: for those files only. Each test takes the line and the span the form
 * matched, and returns 0 when the form does not vouch for the line after all. */
#ifndef HCCLCTL_PROBES_LOGS_EWHOLDS_H
#define HCCLCTL_PROBES_LOGS_EWHOLDS_H

#include <stddef.h>

#include "probes/logs/logtext.h"

/* A byte in lower case (ASCII only), inline: errwords.c and ewbenign.c call it on every byte
 * of an error line. */
static inline char hlog__ew_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}
static inline int ew_blank(char c)
{
	return c == ' ' || c == '\t';
}
/* errwords.c's and ewbenign.c's matching: the length of form matched at s[0..n), 0 when it
 * does not match. Case-insensitive unless exact; ' ' matches a run of blanks, "%d" a run of
 * digits; a form ending in a word character must end at a word end. Inline: it is tried at
 * every word of every line (out of line, a call per row was a twentieth of judging a log). */
static inline size_t hlog__ew_match_at(const char *s, size_t n, const char *form, int exact)
{
	size_t i = 0;
	const char *f = form;
	for (; *f; f++) {
		int digits = f[0] == '%' && f[1] == 'd';
		if (*f == ' ' || digits) {
			size_t b = i;
			while (i < n && (digits ? s[i] >= '0' && s[i] <= '9' : ew_blank(s[i])))
				i++;
			if (i == b)
				return 0;
			f += digits;
			continue;
		}
		if (i >= n || (exact ? s[i] != *f : hlog__ew_lower(s[i]) != hlog__ew_lower(*f)))
			return 0;
		i++;
	}
	if (hlog__word_char(f[-1]) && i < n && hlog__word_char(s[i]))
		return 0;
	return i;
}

int hlog__ew_retries_left(struct pspan m, size_t at, size_t len);
int hlog__ew_one_address(struct pspan m, size_t at, size_t len);
int hlog__ew_counts_zero(struct pspan m, size_t at, size_t len);
int hlog__ew_zero_before(struct pspan m, size_t at, size_t len);
int hlog__ew_set_to_span(struct pspan m, size_t at, size_t len);
int hlog__ew_span_after(struct pspan m, size_t at, size_t len);
int hlog__ew_assigned(struct pspan m, size_t at, size_t len);
int hlog__ew_negated(struct pspan m, size_t at, size_t len);
int hlog__ew_for_now(struct pspan m, size_t at, size_t len);
int hlog__ew_zero_tally(struct pspan m, size_t at, size_t len);
int hlog__ew_zero_subject(struct pspan m, size_t at, size_t len);
int hlog__ew_level_value(struct pspan m, size_t at, size_t len);
int hlog__ew_fallback_clause(struct pspan m, size_t at, size_t len);
/* Whether a fallback phrase at m[at..at+len) opens a clause of its own (the line's start, or
 * after '.', ',', ';' or ':'), the program saying what it does now that a step failed ("Failed
 * to dlopen libnuma.so. Fallback to GROUP_BY_SOCKET manual.", "Could not find a path for
 * pattern 1, falling back to simple order"); not a fallback to the CPU, which leaves the job
 * without the device it was given ("No GPU/TPU found, falling back to CPU."), nor one foretold
 * ("the communication will fall back to ..."). */
int hlog__ew_fallback_taken(struct pspan m, size_t at, size_t len);
int hlog__ew_none_value(struct pspan m, size_t at, size_t len);
int hlog__ew_quoted_value(struct pspan m, size_t at, size_t len);
int hlog__ew_warn_call(struct pspan m, size_t at, size_t len);
int hlog__ew_real_value(struct pspan m, size_t at, size_t len);
int hlog__ew_split_heading(struct pspan m, size_t at, size_t len);
int hlog__ew_adjusted(struct pspan m, size_t at, size_t len);
/* Whether ". Using" at m[at..at+len) names the value the program goes on with
 * and ends there: a few words, then "value" or "values", then the sentence's or the line's
 * end ("Using DeepSpeed's value."; not "using value 3 failed"). */
int hlog__ew_value_taken(struct pspan m, size_t at, size_t len);
/* Whether the sentence around m[at..at+len) gives a setting's state as its reason ("since X is
 * enabled", "because Y is disabled"): a feature left unused by the user's own choice. */
int hlog__ew_setting_chosen(struct pspan m, size_t at, size_t len);
/* Whether "Warning:" at m[at..] closes a CamelCase class name that starts a word
 * ("SyntaxWarning:"): a Python warning category. */
int hlog__ew_warning_class(struct pspan m, size_t at, size_t len);
/* Whether the word at m[at..at+len) heads a label, one word and a colon after it ("Evicted
 * Pages: 3720495"). */
int hlog__ew_label_head(struct pspan m, size_t at, size_t len);
/* Whether "waiting for" at m[at..at+len), after ", ", gives the time before the next try
 * ("failed, waiting for 10000 milliseconds"). */
int hlog__ew_wait_before_retry(struct pspan m, size_t at, size_t len);
/* Whether the form at m[at..] opens a sentence after another (". " before it). */
int hlog__ew_sentence_start(struct pspan m, size_t at, size_t len);
int hlog__ew_column_heading(struct pspan m, size_t at, size_t len);
int hlog__ew_dir_exists(struct pspan m, size_t at, size_t len);
int hlog__ew_foretold(struct pspan m, size_t at, size_t len);
int hlog__ew_advice_if(struct pspan m, size_t at, size_t len);
int hlog__ew_statistic(struct pspan m, size_t at, size_t len);
size_t hlog__ew_sentence_end(struct pspan m, size_t from);

#endif
