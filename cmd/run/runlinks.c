/* Which transport each rank's links use: counted on every rank for -v (with why a link is
 * TCP, grouped by reason), and gathered to rank 0 for the JSON document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/run/run.h"

#define REASONS 4 /* distinct reasons -v names; more are counted as "other" */

void run_links_count(struct comm *c, int out[2])
{
	out[0] = out[1] = 0;
	for (int r = 0; r < comm_size(c); r++) {
		const char *t = comm_link_transport(c, r);
		if (t)
			out[strcmp(t, "shm") != 0]++;
	}
}

void run_links_say(struct comm *c, const char *where)
{
	struct {
		char why[COMM_ERRLEN / 4];
		char ranks[160];
		size_t len;
	} g[REASONS];
	int ng = 0, other = 0, k[2], n = comm_size(c);
	run_links_count(c, k);
	for (int r = 0; r < n; r++) {
		const char *t = comm_link_transport(c, r);
		char why[COMM_ERRLEN / 4];
		if (!t || !strcmp(t, "shm") || comm_link_reason(c, r, why, sizeof(why)))
			continue;
		int i = 0;
		while (i < ng && strcmp(g[i].why, why))
			i++;
		if (i == ng && ng == REASONS) {
			other++;
			continue;
		}
		if (i == ng) {
			snprintf(g[i].why, sizeof(g[i].why), "%s", why);
			g[i].len = 0;
			g[i].ranks[0] = '\0';
			ng++;
		}
		if (g[i].len + 16 < sizeof(g[i].ranks)) {
			int w = snprintf(g[i].ranks + g[i].len, sizeof(g[i].ranks) - g[i].len, "%s%d",
					 g[i].len ? " " : "", r);
			g[i].len += w > 0 ? (size_t)w : 0;
		} else if (!strstr(g[i].ranks, "...")) {
			snprintf(g[i].ranks + g[i].len, sizeof(g[i].ranks) - g[i].len, " ...");
			g[i].len += 4;
		}
	}
	char line[1024];
	size_t at = (size_t)snprintf(line, sizeof(line), "%d shm, %d tcp", k[0], k[1]);
	for (int i = 0; i < ng && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%sto rank%s %s: %s",
				       i ? "; " : " (", strchr(g[i].ranks, ' ') ? "s" : "", g[i].ranks,
				       g[i].why);
	if (other && at < sizeof(line))
		at += (size_t)snprintf(line + at, sizeof(line) - at, "; %d more", other);
	if (ng && at < sizeof(line))
		snprintf(line + at, sizeof(line) - at, ")");
	fprintf(stderr, "hcclctl: %s: rank %d: links: %s\n", where, comm_rank(c), line);
}

int run_links_gather(struct comm *c, struct cJSON **out)
{
	int n = comm_size(c), mine[2];
	int32_t m[2], *all = calloc(2 * (size_t)n, sizeof(*all));
	*out = NULL;
	if (!all)
		return COMM_E_NOMEM;
	run_links_count(c, mine);
	m[0] = mine[0];
	m[1] = mine[1];
	int rc = comm_allgather(c, m, all, 2, COMM_INT32);
	if (!rc && comm_rank(c) == 0) {
		/* each link is counted at both its ends */
		long shm = 0, tcp = 0;
		cJSON *o = cJSON_CreateObject(), *per = cJSON_CreateArray();
		for (int r = 0; r < n; r++) {
			cJSON *x = cJSON_CreateObject();
			cJSON_AddNumberToObject(x, "rank", r);
			cJSON_AddNumberToObject(x, "shm", all[2 * r]);
			cJSON_AddNumberToObject(x, "tcp", all[2 * r + 1]);
			cJSON_AddItemToArray(per, x);
			shm += all[2 * r];
			tcp += all[2 * r + 1];
		}
		cJSON_AddNumberToObject(o, "shm", (double)(shm / 2));
		cJSON_AddNumberToObject(o, "tcp", (double)(tcp / 2));
		cJSON_AddItemToObject(o, "per_rank", per);
		*out = o;
	}
	free(all);
	return rc;
}
