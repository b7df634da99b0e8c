/* The verdict of a failed job, as one stderr line and as the JSON "verdict" object: the same
 * for every launcher and every rank, so logs from all nodes can be compared line by line. */
#include <stdio.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/situation.h"
#include "cmd/run/run.h"

int run_verdict_exit(const struct comm_verdict *v)
{
	return v->kind == COMM_VERDICT_NONE ? EXIT_OK
					    : situation_exit(run_verdict_kind_name(v->kind));
}

void run_verdict_print(const struct comm_verdict *v)
{
	if (v->kind == COMM_VERDICT_NONE)
		return;
	fprintf(stderr, "hcclctl: %sverdict%s: %s: %s\n", color(2, "\033[1;31m"),
		use_color(2) ? "\033[0m" : "", run_verdict_kind_name(v->kind), v->msg);
}

void *run_verdict_json(const struct comm_verdict *v)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", run_verdict_kind_name(v->kind));
	if (v->rank >= 0) {
		cJSON_AddNumberToObject(o, "rank", v->rank);
		cJSON_AddStringToObject(o, "host", v->host);
	} else {
		cJSON_AddNullToObject(o, "rank");
		cJSON_AddNullToObject(o, "host");
	}
	if (v->link_from >= 0 && v->link_to >= 0) {
		cJSON *l = cJSON_AddObjectToObject(o, "link");
		cJSON_AddNumberToObject(l, "from", v->link_from);
		cJSON_AddNumberToObject(l, "to", v->link_to);
	} else {
		cJSON_AddNullToObject(o, "link");
	}
	if (v->coll >= 0) {
		cJSON_AddStringToObject(o, "collective", v->coll < COMM_COLL_COUNT
								 ? comm_coll_name((enum comm_coll)v->coll)
								 : "split");
		cJSON_AddNumberToObject(o, "seq", v->seq);
		cJSON_AddNumberToObject(o, "step", v->step);
	} else {
		cJSON_AddNullToObject(o, "collective");
		cJSON_AddNullToObject(o, "seq");
		cJSON_AddNullToObject(o, "step");
	}
	if (v->waiter >= 0)
		cJSON_AddNumberToObject(o, "waiter", v->waiter);
	else
		cJSON_AddNullToObject(o, "waiter");
	if (v->peer >= 0)
		cJSON_AddNumberToObject(o, "peer", v->peer);
	else
		cJSON_AddNullToObject(o, "peer");
	cJSON_AddNumberToObject(o, "bytes", (double)v->bytes);
	cJSON_AddNumberToObject(o, "after_ms", v->after_ms);
	cJSON_AddStringToObject(o, "message", v->msg);
	return o;
}

void run_verdict_from_status(struct comm_verdict *v, int status, const char *msg)
{
	*v = (struct comm_verdict){ .rank = -1, .link_from = -1, .link_to = -1, .coll = -1,
				    .step = -1, .waiter = -1, .peer = -1 };
	switch (status) {
	case COMM_E_AUTH:
	case COMM_E_BOOTSTRAP:
		v->kind = COMM_VERDICT_CONFIG;
		break;
	case COMM_E_TIMEOUT: /* a rank never said hello */
		v->kind = COMM_VERDICT_STUCK_RANK;
		break;
	case COMM_E_MISMATCH:
		v->kind = COMM_VERDICT_MISMATCH;
		break;
	case COMM_E_PEER:
		v->kind = COMM_VERDICT_DEAD_RANK;
		break;
	default:
		v->kind = COMM_VERDICT_ERROR;
		break;
	}
	snprintf(v->msg, sizeof(v->msg), "%s", msg);
}
