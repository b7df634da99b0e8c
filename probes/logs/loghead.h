/* The head of a line (loghead.c): the level words and the labels before its message, for
 * logline.c's prefix passes only. */
#ifndef HCCLCTL_PROBES_LOGS_LOGHEAD_H
#define HCCLCTL_PROBES_LOGS_LOGHEAD_H

#include <stddef.h>

#include "probes/logs/logtext.h"

/* A level word of exactly s[0..n), any case ("ERROR", "Warn", "DIAG", "ERR"): its HLINE_*
 * level; HLINE_NONE when it is none. */
int hlog__level_word(const char *s, size_t n);
/* The level a logger writes by its initial (Python's "%(levelname).1s", glog's, Ray's): D, I,
 * W, E or F; HLINE_NONE for any other byte. */
int hlog__initial_level(char c);

/* docker compose's "service-1  | " */
int hlog__compose_prefix(struct pspan *m);
/* a log viewer's table cells before the line: empty ones and one time stamp */
int hlog__viewer_cells(struct pspan *m);
/* a host's name and a colon that pdsh or a launcher puts first ("node7: "), taken only
 * before a traceback's heading or frame */
int hlog__host_label(struct pspan *m);
/* a process's role label ("[default2]:") */
int hlog__role_label(struct pspan *m);
/* a job runner's task label at the line's start ("finetune/0 ") */
int hlog__pytest_mark(struct pspan *m);
int hlog__task_label(struct pspan *m);

#endif
