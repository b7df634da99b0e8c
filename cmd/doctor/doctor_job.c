/* hcclctl doctor: the job every step fills, its results and the status names; below every
 * other file of doctor so that each can add a result without calling another. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"
#include "cmd/doctor/doctor_job.h"

/* The triage of --logs, kept for the text and JSON that only it has. */
struct hlog_report doctor_hlog;

/* The code of a result (doctor_checks.c's row). */
const char *doctor_code_of(int i)
{
	return doctor_checks[i].code;
}

const char *const doctor_st_name[] = { "PASS", "SKIP", "WARN", "FAIL" };

void doctor_job_add(struct job *j, int node, const char *code, enum st st, const char *fix,
		    const char *fmt, ...)
{
	/* a node that gave no report is never filtered away: --checks would hide it */
	if (!doctor_wanted(&j->filter, code) && (st == ST_PASS || strcmp(code, "node.reach")))
		return;
	int ci = doctor_check_index(code);
	if (ci < 0) /* node reports are checked before; this is only ever our own mistake */
		return;
	if (j->n == j->cap) {
		size_t nc = j->cap ? j->cap * 2 : 64;
		struct doctor_row *nr = realloc(j->r, nc * sizeof(*nr));
		if (!nr)
			return;
		j->r = nr;
		j->cap = nc;
	}
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	j->r[j->n++] = (struct doctor_row){ node, ci, (int)st, strdup(msg),
					fix ? strdup(fix) : NULL };
}

double doctor_real_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
