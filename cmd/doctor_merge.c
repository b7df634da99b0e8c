/* doctor --merge FILE...|-: every report read (probes/doctordoc.c parses them), for
 * doctor.c to fold into one cluster report. */
#include <stdlib.h>
#include <string.h>

#include "doctor.h"

#define MERGE_CAP (64UL * 1024 * 1024)

int doctor_merge_read(struct doctor_merged *m, char *const *paths, int n, char *err, size_t errlen)
{
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
	return 0;
}
