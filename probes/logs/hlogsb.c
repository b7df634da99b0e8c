/* The pieces of a triage report that several reasoning files fill: bounded text and the
 * evidence quoted. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probes/logs/hlogint.h"

void hlog__sb_add(struct sbuf *b, const char *fmt, ...)
{
	if (b->n + 1 >= b->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->n = b->n + (size_t)k < b->cap ? b->n + (size_t)k : b->cap - 1;
}

void hlog__evidence(struct hlog_report *r, const struct hlog_event *e)
{
	if (!e || r->nevidence >= HLOG_MAX_EVIDENCE)
		return;
	for (size_t i = 0; i < r->nevidence; i++)
		if ((r->evidence[i].line == e->line && !strcmp(r->evidence[i].file, e->file)) ||
		    !strcmp(r->evidence[i].text, e->text))
			return;
	struct hlog_quote *q = &r->evidence[r->nevidence++];
	snprintf(q->file, sizeof(q->file), "%s", e->file);
	q->line = e->line;
	snprintf(q->text, sizeof(q->text), "%s", e->text);
}
