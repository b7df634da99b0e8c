/* Metrics for monitoring: the Prometheus text exposition format, written atomically for
 * node_exporter's textfile collector (--prometheus FILE on doctor, the probes and run).
 * Every metric family, its name and help text, is a row of one table in prom.c; the man
 * pages list the same rows. */
#ifndef HCCLCTL_PROM_H
#define HCCLCTL_PROM_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "ranktable/base/buf.h"

/* --prometheus FILE of the command that runs, or NULL */
extern const char *prom_path;
#define OPT_PROM                                                                                   \
	OPT_PATH("prometheus", 0, &prom_path, "FILE",                                              \
		 "also write the results as Prometheus metrics to FILE (atomically; for "          \
		 "node_exporter's textfile collector)",                                            \
		 COMPLETE_FILE)

#define PROM_CAP (8UL << 20)

/* A document being built; its buffer is the struct's, freed by prom_release. */
struct prom {
	struct buf b; /* the document; fails whole at PROM_CAP */
	const char *families[32]; /* those whose HELP and TYPE are written */
	size_t nfamilies;
};

void prom_init(struct prom *m);
void prom_release(struct prom *m);
/* One sample of a gauge from the table (its HELP and TYPE come before its first sample):
 * labels are key, value pairs ending in NULL; values are escaped here. */
void prom_gauge(struct prom *m, const char *name, double value, ...) __attribute__((sentinel));
/* hcclctl_last_run_timestamp_seconds and hcclctl_exit_code of command. */
void prom_footer(struct prom *m, const char *command, int exit_code);
/* Writes the document to path through a temporary file in its directory and a rename, so
 * the collector never reads half a file. 0, or -errno with err. */
int prom_write(const struct prom *m, const char *path, char *err, size_t errlen);

/* prom_probe.c: a probe's JSON document as metrics (probe is "hccs", "rdma", "roce" or "net"),
 * written to prom_path. 0, or -1 with the message printed: metrics the user asked for and did
 * not get are stale metrics served as fresh. doc stays the caller's. */
int prom_probe_write(const char *probe, const cJSON *doc, int exit_code);
/* The end of a probe's document (takes it): its metrics with --prometheus, the document
 * itself with --json (whose exit_code says 3 when the metrics could not be written). */
void probe_emit(const char *probe, cJSON *doc, int exit_code);
/* A probe's exit code once its outputs are written: 3 where they could not be, unless the
 * probe failed (2 stands). */
int probe_prom_exit(int rc);

#endif
