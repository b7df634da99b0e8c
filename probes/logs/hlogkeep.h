/* The lines no rule explains, kept for the report (hccllog.c's scan hands them over): the
 * first error, the unexplained lines and the one whose words explain the most, and the lines
 * that the lines around them show to be errors (a retry a log ends on, a message over a native
 * stack trace, a command line over its program's advice to read its help). */
#ifndef PROBES_LOGS_HLOGKEEP_H
#define PROBES_LOGS_HLOGKEEP_H

#include "probes/logs/hlogint.h"

/* A line of a file, as the end of the scan needs it. */
struct unk_line {
	unsigned no;
	int rank, error, info, frame;
	struct pspan line, msg;
};

void hlog__set_unk(struct hlog_unk *u, const char *name, const char *node, unsigned no,
		   int rank, struct pspan line);
void hlog__offer_word(struct hlog_report *r, const char *name, const char *node, unsigned no,
		      int rank, struct pspan line, int fam, int level, int dev);
void hlog__keep_unk(struct hlog_report *r, const char *name, const char *node, unsigned no,
		    int rank, int level, struct pspan line, int kernel, int dev);
void hlog__promote(struct hlog_report *r, const char *name, const char *node,
		   const struct unk_line *t);
void hlog__ended_on_failure(struct hlog_report *r, const char *name, const char *node,
			    const struct unk_line *t, const struct unk_line *above);
void hlog__trace_below(struct hlog_report *r, const char *name, const char *node,
		       const struct unk_line *prev, struct pspan line);
void hlog__usage_below(struct hlog_report *r, const char *name, const char *node,
		       const struct unk_line *prev, struct pspan msg);

#endif
