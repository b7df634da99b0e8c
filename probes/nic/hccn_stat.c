/* hccn_tool -stat -g output reader. The real output is a heading and then one counter per line,
 * "name:value", the value a decimal count; copies in docs and issues are shortened with "..."
 * and carry CRLF ends. Every counter printed is kept, including names this tool has no row
 * for, because newer drivers add counters and the judgement (hccn_statrule.c) works by family. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probes/nic/hccn.h"
#include "probes/nic/hccn_stat.h"
#include "probes/tool/ptext.h"

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static int is_name(struct pspan k)
{
	if (!k.n || k.n >= HCCN_STAT_NAME)
		return 0;
	for (size_t i = 0; i < k.n; i++)
		if (!name_char(k.s[i]))
			return 0;
	return 1;
}

/* "...", "…" or a run of dots: where a poster cut the list. */
static int is_elision(struct pspan t)
{
	if (probe__eq(t, "\xe2\x80\xa6"))
		return 1;
	return t.n >= 3 && probe__count_in(t, ".") == t.n;
}

static int bad(char *err, size_t errlen, unsigned line, const char *what, struct pspan text)
{
	char q[64];
	probe__copy(q, sizeof(q), text);
	snprintf(err, errlen, "line %u: %s \"%s\"", line, what, q);
	return -EINVAL;
}

static int add_counter(struct hccn_stat *s, unsigned line, struct pspan k, struct pspan v,
		       char *err, size_t errlen)
{
	char name[HCCN_STAT_NAME];
	unsigned long long x;
	probe__copy(name, sizeof(name), k);
	if (probe__u64(v, &x)) {
		char what[96];
		snprintf(what, sizeof(what), "counter %s has a value that is not a count:", name);
		return bad(err, errlen, line, what, v);
	}
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name)) {
			snprintf(err, errlen, "line %u: counter %s given twice (first on line %u)",
				 line, name, s->c[i].line);
			return -EINVAL;
		}
	if (s->n == HCCN_STAT_MAX) {
		snprintf(err, errlen, "line %u: more than %d counters", line, HCCN_STAT_MAX);
		return -EINVAL;
	}
	snprintf(s->c[s->n].name, sizeof(s->c[s->n].name), "%s", name);
	s->c[s->n].value = x;
	s->c[s->n].line = line;
	s->n++;
	return 0;
}

int hccn_parse_stat(const char *buf, size_t len, struct hccn_stat *s, char *err, size_t errlen)
{
	struct pspan rest = {buf, len}, line;
	unsigned ln = 0;
	memset(s, 0, sizeof(*s));
	while (probe__next_line(&rest, &line)) {
		struct pspan t = probe__trim(line);
		ln++;
		if (!t.n)
			continue;
		if (is_elision(t)) {
			s->nelided++;
			continue;
		}
		const char *known = hccn_known_error(t.s, t.n);
		if (known) {
			snprintf(err, errlen, "line %u: %s", ln, known);
			return -EINVAL;
		}
		const char *colon = memchr(t.s, ':', t.n);
		if (!colon)
			return bad(err, errlen, ln, "not a \"name:value\" counter line:", t);
		struct pspan k = probe__trim((struct pspan){t.s, (size_t)(colon - t.s)});
		struct pspan v =
			probe__trim((struct pspan){colon + 1, t.n - (size_t)(colon + 1 - t.s)});
		if (!is_name(k)) {
			/* "packet statistics:" and the like head the list; any other text with a
			 * colon is not something -stat prints. */
			if (!v.n && k.n)
				continue;
			return bad(err, errlen, ln, "not a counter name:", k);
		}
		if (!v.n) {
			char what[96];
			snprintf(what, sizeof(what), "counter %.*s has no value:", (int)k.n, k.s);
			return bad(err, errlen, ln, what, t);
		}
		int rc = add_counter(s, ln, k, v, err, errlen);
		if (rc)
			return rc;
	}
	if (!s->n) {
		const char *known = hccn_known_error(buf, len);
		snprintf(err, errlen, "%s",
			 known ? known : "no \"name:value\" counter in the output");
		return -EINVAL;
	}
	return 0;
}

int hccn_stat_get(const struct hccn_stat *s, const char *name, unsigned long long *v)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name)) {
			*v = s->c[i].value;
			return 1;
		}
	return 0;
}
