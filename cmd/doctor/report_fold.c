/* doctor's report folds identical results across nodes ("PASS npu.health gpu[1-3] all 8
 * chips healthy"). A group gathers every result of a code with the same status and message,
 * and its nodes are counted by results: a report that repeats a check (ten identical lines
 * from one node) makes a group larger than the number of nodes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/report_fold.h"

int doctor_fold_init(struct doctor_fold *f, const struct doctor_row *r, size_t n)
{
	memset(f, 0, sizeof(*f));
	f->r = r;
	f->n = n;
	f->done = calloc(n + 1, sizeof(*f->done));
	f->idx = malloc((n + 1) * sizeof(*f->idx));
	return f->done && f->idx ? 0 : -ENOMEM;
}

int doctor_fold_next(struct doctor_fold *f, size_t *first, size_t *nnodes)
{
	for (;;) {
		if (f->a >= f->e) { /* the next code's results */
			f->s = f->a = f->e;
			if (f->s >= f->n)
				return 0;
			while (f->e < f->n && f->r[f->e].code == f->r[f->s].code)
				f->e++;
		}
		size_t a = f->a++;
		if (f->done[a])
			continue;
		size_t k = 0;
		for (size_t b = a; b < f->e; b++)
			if (!f->done[b] && f->r[b].st == f->r[a].st &&
			    !strcmp(f->r[b].msg, f->r[a].msg)) {
				f->done[b] = true;
				if (f->r[b].node >= 0)
					f->idx[k++] = f->r[b].node;
			}
		*first = a;
		*nnodes = k;
		return 1;
	}
}

void doctor_fold_release(struct doctor_fold *f)
{
	free(f->done);
	free(f->idx);
	memset(f, 0, sizeof(*f));
}
