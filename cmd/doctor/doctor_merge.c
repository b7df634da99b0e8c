/* doctor --merge FILE...|-: every report read (cmd/doctor/report_parse.c parses them), for
 * doctor_plan.c to fold into one cluster report. The reports come in whatever order the tasks
 * happened to write them (srun's merged stdout), so the nodes are put in name order, numbers
 * by value (node2 before node10): the same report for the same nodes, every time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/doctor.h"
#include "cmd/doctor/doctor_checks.h"

#define MERGE_CAP (64UL * 1024 * 1024)

static int by_name(const void *a, const void *b)
{
	return strverscmp(((const struct doctor_merged_node *)a)->name,
			  ((const struct doctor_merged_node *)b)->name);
}

int doctor_merge_read(struct doctor_merged *m, char *const *paths, int n, char *err, size_t errlen)
{
	m->code_index = doctor_check_index; /* a report naming a check we do not make is refused */
	for (int i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		int rc = fetch_input(paths[i], MERGE_CAP, &buf, &len, err, errlen);
		if (!rc)
			rc = doctor_merge_parse(m, strcmp(paths[i], "-") ? paths[i] : "<stdin>",
						buf, len, err, errlen);
		free(buf);
		if (rc)
			return rc;
	}
	if (m->n > 1)
		qsort(m->v, m->n, sizeof(m->v[0]), by_name);
	return 0;
}

int doctor_merge_expect(struct doctor_merged *m, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (doctor_merged_expect(m, names[i]))
			return -ENOMEM;
	if (m->n > 1)
		qsort(m->v, m->n, sizeof(m->v[0]), by_name);
	return 0;
}
