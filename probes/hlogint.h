/* The pieces of the HCCL log triage, as the other pieces see them (internal to probes/). */
#ifndef HCCLCTL_PROBES_HLOGINT_H
#define HCCLCTL_PROBES_HLOGINT_H

#include "probes/hccllog.h"
#include "probes/logline.h"

enum hlog_cls { HLOG_CLS_CONSEQ, HLOG_CLS_FAULT, HLOG_CLS_CONFIG, HLOG_CLS_INFO };

/* hlogmatch.c: sets e's kind and fields when the line is a known signature, an inner error or
 * a code of the catalog; 0 when it is none. m is the whole trimmed line, l what logline.c
 * read of it. */
int hlog__recognise(struct pspan m, const struct hlog_line *l, struct hlog_event *e);
/* What part an event plays: a consequence (a wait that timed out), a fault, a configuration
 * cause, or context. */
enum hlog_cls hlog__class(const struct hlog_event *e);

#endif
