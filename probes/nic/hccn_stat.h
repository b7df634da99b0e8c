/* hccn_tool -i N -stat -g: the RoCE port's packet and error counters ("packet statistics:"
 * then one "name:value" line per counter), read by hccn_stat.c, and the table that says which
 * non-zero counters are errors and which are traffic (hccn_statrule.c). The counters count
 * from the last time they were cleared, so one reading tells a total, never a rate. */
#ifndef HCCLCTL_PROBES_HCCN_STAT_H
#define HCCLCTL_PROBES_HCCN_STAT_H

#include <stddef.h>

#include "probes/tool/verdict.h"

#define HCCN_STAT_MAX 128
#define HCCN_STAT_NAME 48

struct hccn_stat {
	size_t n;	/* counters, in the order printed (names hcclctl does not know kept) */
	size_t nelided; /* "..." lines of a shortened copy */
	struct {
		char name[HCCN_STAT_NAME];
		unsigned long long value;
		unsigned line; /* 1-based line of the output */
	} c[HCCN_STAT_MAX];
};

/* Reads the output; blanks around the colon, CRLF line ends, heading lines ("packet
 * statistics:") and "..." elisions are accepted. Returns 0, or -EINVAL with err naming the
 * line: a value that is not a decimal count, a counter given twice, a line that is not a
 * counter, no counter at all (or hccn_tool's own error sentence, as hccn_known_error names). */
int hccn_parse_stat(const char *buf, size_t len, struct hccn_stat *s, char *err, size_t errlen);

/* The counter called name: 1 with its value in *v, or 0 when the output does not print it. */
int hccn_stat_get(const struct hccn_stat *s, const char *name, unsigned long long *v);

/* A row of the judgement table: the counter family its patterns (fnmatch(3)) name, what a
 * non-zero value in it means and how much it matters. */
struct hccn_stat_rule {
	const char *pattern[4];	  /* NULL-terminated */
	enum probe_status status; /* when non-zero: PASS (traffic, flow control) or WARN */
	const char *what;	  /* the family, as findings name it */
	const char *why;	  /* why that status */
};

/* The first row whose patterns match name, or NULL when none does (a counter not judged). */
const struct hccn_stat_rule *hccn_stat_rule_for(const char *name);

/* The table itself, for the man page check and JSON; *n rows. */
const struct hccn_stat_rule *hccn_stat_rules(size_t *n);

/* The non-zero counters of s whose row is not PASS, grouped by row: fills idx[] with counter
 * indexes in table order and then output order, at most max; returns how many. The worst
 * status among them goes to *worst (PASS when none). */
size_t hccn_stat_findings(const struct hccn_stat *s, size_t *idx, size_t max,
			  enum probe_status *worst);

#endif
