/* Verdicts shared by the probes: what one check concluded about one thing. */
#ifndef HCCLCTL_PROBES_VERDICT_H
#define HCCLCTL_PROBES_VERDICT_H

/* Ordered by how much they matter when results are combined: a FAIL hides everything,
 * UNKNOWN (could not check) hides WARN, SKIP (not applicable) counts as PASS. */
enum probe_status { PROBE_PASS = 0, PROBE_SKIP, PROBE_WARN, PROBE_UNKNOWN, PROBE_FAIL };

/* "PASS", "SKIP", "WARN", "UNKNOWN", "FAIL" */
const char *probe_status_name(enum probe_status s);
/* The worse of a and b, in the order above. */
enum probe_status probe_status_worst(enum probe_status a, enum probe_status b);
/* The exit code of an overall status (those of hcclctl(1)): 0, 1, 2 or 3. */
int probe_status_exit(enum probe_status s);

/* Appends "; what" (or "what" when buf is empty) to a reason, truncating quietly. */
void probe_reason_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
