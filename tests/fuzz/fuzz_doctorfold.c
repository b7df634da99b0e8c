/* Fuzzes doctor --merge's fold: any bytes read as reports, then their results folded as the
 * report does. Twice: what the reader accepts (one result per check and node, known codes),
 * and every well-formed check of the raw JSON as it comes (repeats and all), so the fold
 * itself holds up when a node repeats a check. Each group's nodes are real node indexes,
 * and the folded names stay within their buffer. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/report_parse.h"
#include "cmd/doctor/report_fold.h"
#include "ranktable/ranktable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int st_of(const char *s)
{
	static const char *const st[] = { "PASS", "SKIP", "WARN", "FAIL" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, st[i]))
			return i;
	return -1;
}

/* The command's table of checks is not linked here: each distinct "group.name" seen gets
 * the next index (the fold only needs codes it can sort), up to MAX_CODES. */
#define MAX_CODES 64
static char codes_seen[MAX_CODES][64];
static int nseen;

static int code_index(const char *code)
{
	if (!strchr(code, '.') || strlen(code) >= sizeof(codes_seen[0]))
		return -1;
	for (int i = 0; i < nseen; i++)
		if (!strcmp(codes_seen[i], code))
			return i;
	if (nseen == MAX_CODES)
		return -1;
	snprintf(codes_seen[nseen], sizeof(codes_seen[0]), "%s", code);
	return nseen++;
}

/* The checks of doc on node into rows; 0 when they did not fit. */
static size_t rows_of(const cJSON *doc, int node, struct doctor_row *r, size_t n, size_t cap)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "checks"))
	{
		const char *code = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "code"));
		const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
		char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "message"));
		if (!code || !st || !msg || code_index(code) < 0 || st_of(st) < 0)
			continue;
		if (n == cap)
			return n;
		r[n++] = (struct doctor_row){ node, code_index(code), st_of(st), msg, NULL };
	}
	return n;
}

static int by_code(const void *a, const void *b)
{
	return ((const struct doctor_row *)a)->code - ((const struct doctor_row *)b)->code;
}

static void fold(struct doctor_row *r, size_t n, const char *const *names, size_t nnodes)
{
	struct doctor_fold f;
	size_t first, k, seen = 0;
	char out[64];
	qsort(r, n, sizeof(*r), by_code);
	if (doctor_fold_init(&f, r, n) == 0)
		while (doctor_fold_next(&f, &first, &k)) {
			assert(first < n && k <= n);
			for (size_t i = 0; i < k; i++)
				assert(f.idx[i] >= 0 && (size_t)f.idx[i] < nnodes);
			rt_hostlist_fold(names, f.idx, k, out, sizeof(out));
			assert(strlen(out) < sizeof(out));
			seen++;
		}
	assert(seen <= n);
	doctor_fold_release(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { CAP = 4096 };
	struct doctor_merged m = { .code_index = code_index };
	struct doctor_row *r = calloc(CAP, sizeof(*r));
	const char **names = calloc(CAP, sizeof(*names));
	char err[512] = "";
	size_t n = 0;
	nseen = 0;
	if (!r || !names)
		goto out;
	int rc = doctor_merge_parse(&m, "in", (const char *)data, size, err, sizeof(err));
	if (rc == -EBADMSG)
		assert(!strncmp(err, "in: line ", 9));
	for (size_t i = 0; !rc && i < m.n && i < CAP; i++) {
		names[i] = m.v[i].name;
		n = rows_of(m.v[i].doc, (int)i, r, n, CAP);
	}
	if (!rc)
		fold(r, n, names, m.n < CAP ? m.n : CAP);
	/* the raw checks, each on node 0, whatever the reader thought of them */
	cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
	names[0] = "n1";
	n = rows_of(doc, 0, r, 0, CAP);
	fold(r, n, names, 1);
	cJSON_Delete(doc);
out:
	doctor_merged_release(&m);
	free(r);
	free(names);
	return 0;
}
