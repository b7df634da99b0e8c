/* doctor --prometheus FILE: one series per node, check and status (1 on the status the
 * check has), the counts by status, and the exit code. A check with several results on one
 * node (rare: a launcher-side and a node-side one) shows its worst, since two series with
 * the same labels are an error to the collector. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/doctor.h"
#include "cmd/lib/prom.h"

static const char *const sts[] = {"PASS", "SKIP", "WARN", "FAIL"};
static const char *const lower[] = {"pass", "skip", "warn", "fail"};

static int st_index(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, sts[i]))
			return i;
	return 3;
}

int doctor_prom_write(const char *path, const char *const *names, size_t nnames,
		      const struct doctor_cell *cells, size_t ncells, int exit_code, char *err,
		      size_t errlen)
{
	struct prom m;
	int count[4] = {0};
	char *seen = calloc(ncells + 1, 1);
	if (!seen)
		return -ENOMEM;
	prom_init(&m);
	for (size_t i = 0; i < ncells; i++) {
		count[st_index(cells[i].status)]++;
		if (seen[i])
			continue;
		int worst = st_index(cells[i].status);
		for (size_t k = i + 1; k < ncells; k++)
			if (cells[k].node == cells[i].node &&
			    !strcmp(cells[k].code, cells[i].code)) {
				seen[k] = 1;
				if (st_index(cells[k].status) > worst)
					worst = st_index(cells[k].status);
			}
		const char *node = cells[i].node >= 0 && (size_t)cells[i].node < nnames
					   ? names[cells[i].node]
					   : "cluster";
		for (int s = 0; s < 4; s++)
			prom_gauge(&m, "hcclctl_doctor_check_status", s == worst, "node", node,
				   "check", cells[i].code, "status", lower[s], NULL);
	}
	for (int s = 0; s < 4; s++)
		prom_gauge(&m, "hcclctl_doctor_checks", count[s], "status", lower[s], NULL);
	prom_footer(&m, "doctor", exit_code);
	int rc = prom_write(&m, path, err, errlen);
	prom_release(&m);
	free(seen);
	return rc;
}
