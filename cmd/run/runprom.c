/* run --prometheus FILE: busbw, algbw, time and wrong elements per size, and the verdict.
 * Rank 0 writes the file as its sweep ends; a launcher that learns of a failure after that
 * (a rank that died, a verdict) writes it again, so the file always holds the last word. */
#include <stdio.h>
#include <string.h>

#include "cmd/lib/prom.h"
#include "cmd/run/run.h"

/* a sweep of 1 B to 8 GiB by factor 2 is 34 rows; -d all -o all runs 44 of them */
#define MAX_ROWS 2048

static struct run_row rows[MAX_ROWS];
static size_t nrows;
static const char *row_coll;

/* The text format wants each family's samples together: rows are kept until the end. */
void run_prom_row(const struct run_params *p, const char *coll, const char *op,
		  const struct run_row *r)
{
	(void)p;
	(void)op;
	if (!prom_path)
		return;
	row_coll = coll;
	/* -N runs a size again: its latest row stands, one series per labels */
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].bytes == r->bytes && rows[i].dtype == r->dtype && rows[i].op == r->op) {
			rows[i] = *r;
			return;
		}
	if (nrows < MAX_ROWS)
		rows[nrows++] = *r;
}

static void family(struct prom *m, const char *name, int which)
{
	for (size_t i = 0; i < nrows; i++) {
		const struct run_row *r = &rows[i];
		char size[32];
		double v = which == 0	? r->busbw * 1e9 /* GB/s here is 1e9 bytes/s */
			   : which == 1 ? r->algbw * 1e9
			   : which == 2 ? r->time_us / 1e6
					: (double)r->wrong;
		if (which == 3 && r->wrong < 0)
			continue; /* not checked: no series rather than a made-up 0 */
		snprintf(size, sizeof(size), "%zu", r->bytes);
		prom_gauge(m, name, v, "collective", row_coll, "dtype",
			   comm_dtype_name(r->dtype), "op", run_row_op(r), "size_bytes", size, NULL);
	}
}

int run_prom_write(const char *coll, int kind, int exit_code)
{
	static const char *const names[] = {
		"hcclctl_run_busbw_bytes_per_second", "hcclctl_run_algbw_bytes_per_second",
		"hcclctl_run_time_seconds", "hcclctl_run_wrong_elements"};
	struct prom m;
	char err[600], cmd[48];
	int wrong = 0;
	if (!prom_path)
		return 0;
	prom_init(&m);
	for (int f = 0; f < 4; f++)
		family(&m, names[f], f);
	for (size_t i = 0; i < nrows; i++)
		wrong |= rows[i].wrong > 0;
	nrows = 0;
	if (exit_code < 0)
		exit_code = wrong ? 2 : 0;
	for (int k = 0; k < COMM_VERDICT_KIND_COUNT; k++)
		prom_gauge(&m, "hcclctl_run_verdict", k == kind, "collective", coll, "kind",
			   comm_verdict_kind_name(k), NULL);
	snprintf(cmd, sizeof(cmd), "run %s", coll);
	prom_footer(&m, cmd, exit_code);
	int rc = prom_write(&m, prom_path, err, sizeof(err));
	prom_release(&m);
	if (!rc)
		return 0;
	/* metrics asked for and not written are stale metrics served as fresh (probe's form) */
	fail(EXIT_UNKNOWN, cmd,
	     "give a FILE in a directory that exists and you can write (node_exporter's textfile "
	     "directory)",
	     "--prometheus: cannot write the metrics: %s", err);
	return -1;
}

int run_prom_exit(int outputs_failed, int code)
{
	return outputs_failed && code < EXIT_FAIL ? EXIT_UNKNOWN : code;
}
