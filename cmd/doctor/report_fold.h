/* doctor's results folded for its report (cmd/doctor/report_fold.c): one line per check, status
 * and message, with the nodes it holds on. */
#ifndef HCCLCTL_PROBES_DOCTORFOLD_H
#define HCCLCTL_PROBES_DOCTORFOLD_H

#include <stdbool.h>
#include <stddef.h>

/* One result: node an index into the job's nodes (-1: the cluster as a whole), code an
 * index into the caller's table of checks, st a status (cmd/doctor/doctor_job.h's PASS, SKIP, WARN, FAIL). msg and fix
 * are owned by whoever fills the array. */
struct doctor_row {
	int node;
	int code;
	int st;
	char *msg, *fix;
};

/* Walks the groups of r[0..n) (sorted by code): results of one code with the same status and
 * message, in the order of their first result. Any number of results of one code may be
 * identical: room is made for all of them, not for one per node. */
struct doctor_fold {
	const struct doctor_row *r;
	size_t n, s, e, a;
	bool *done; /* per result: already in a group */
	int *idx;   /* the group's nodes */
};
/* 0 or -ENOMEM; release in every case. */
int doctor_fold_init(struct doctor_fold *f, const struct doctor_row *r, size_t n);
/* The next group: 1 with *first its first result and f->idx[0..*nnodes) its nodes (results
 * on the cluster have none), 0 after the last. */
int doctor_fold_next(struct doctor_fold *f, size_t *first, size_t *nnodes);
void doctor_fold_release(struct doctor_fold *f);

#endif
