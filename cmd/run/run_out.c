/* hcclctl run's output: the header, one row per size and the footer, printed as the
 * nccl-tests-style table or gathered into the JSON document (and the Prometheus rows), from
 * the same calls so the two cannot drift. Rank 0 calls it from run.c. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/run/run.h"
#include "ranktable/base/plural.h"

void run_out_header(const struct run_params *p, int n)
{
	if (p->json || g_opts.quiet)
		return;
	char z[32] = "";
	if (p->compress)
		snprintf(z, sizeof(z), ", compress %s", comm_compress_name(p->compress));
	printf("# hcclctl run %s: %d rank%s (%s), %s %s, algo %s%s, iters %ld, warmup %ld, "
	       "check %s, engine %s\n#\n",
	       p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll), n, plural_s(n),
	       p->launch, comm_dtype_name(p->dtype), comm_op_name(p->op), comm_algo_name(p->algo),
	       z, p->iters, p->warmup, p->check ? "on" : "off",
	       p->engine ? p->engine->name : "libcomm");
	printf("# %10s %12s %6s %6s %6s %10s %12s %12s %7s%s\n", "size(B)", "count", "type",
	       "redop", "algo", "time(us)", "algbw(GB/s)", "busbw(GB/s)", "#wrong",
	       p->compress ? "   nrmse(%)" : "");
	run_stop_flush();
}

void run_out_row(const struct run_params *p, int n, const struct run_row *r, void *arg)
{
	struct out_ctx *o = arg;
	(void)n;
	o->busbw_sum += r->busbw;
	o->rows++;
	if (r->nrmse > o->nrmse_max || r->nrmse != r->nrmse) /* NaN sticks */
		o->nrmse_max = r->nrmse;
	const char *redop = (p->coll == COMM_COLL_ALLREDUCE || p->coll == COMM_COLL_REDUCESCATTER) ?
				    comm_op_name(p->op) : "none";
	run_prom_row(p, p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll), redop, r);
	if (p->json) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddNumberToObject(x, "size_bytes", (double)r->bytes);
		cJSON_AddNumberToObject(x, "count", (double)r->count);
		cJSON_AddStringToObject(x, "dtype", comm_dtype_name(p->dtype));
		cJSON_AddStringToObject(x, "op", redop);
		cJSON_AddStringToObject(x, "algo", comm_algo_name(r->algo));
		cJSON_AddNumberToObject(x, "time_us", r->time_us);
		cJSON_AddNumberToObject(x, "algbw_GBps", r->algbw);
		cJSON_AddNumberToObject(x, "busbw_GBps", r->busbw);
		if (r->wrong < 0)
			cJSON_AddNullToObject(x, "wrong");
		else
			cJSON_AddNumberToObject(x, "wrong", (double)r->wrong);
		if (p->compress && r->nrmse < 0)
			cJSON_AddNullToObject(x, "nrmse");
		else if (p->compress)
			cJSON_AddNumberToObject(x, "nrmse", r->nrmse);
		cJSON_AddItemToArray(o->results, x);
		return;
	}
	char wrong[24];
	if (r->wrong < 0)
		snprintf(wrong, sizeof(wrong), "N/A");
	else
		snprintf(wrong, sizeof(wrong), "%lld", r->wrong);
	char err[24] = "";
	if (p->compress && r->nrmse < 0)
		snprintf(err, sizeof(err), " %10s", "N/A");
	else if (p->compress)
		snprintf(err, sizeof(err), " %10.4f", 100 * r->nrmse);
	printf("  %10zu %12zu %6s %6s %6s %10.1f %12.3f %12.3f %7s%s\n", r->bytes, r->count,
	       comm_dtype_name(p->dtype), redop, comm_algo_name(r->algo), r->time_us, r->algbw,
	       r->busbw, wrong, err);
	run_stop_flush();
}

int run_out_footer(const struct run_params *p, int n, struct out_ctx *o,
		   const struct run_slow *sl, struct comm *c, int code)
{
	double avg = o->rows ? o->busbw_sum / (double)o->rows : 0;
	int bad = run_prom_write(p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll),
				 COMM_VERDICT_NONE, code) < 0;
	code = run_prom_exit(bad, code);
	if (p->json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "collective",
					p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll));
		cJSON_AddNumberToObject(doc, "world_size", n);
		cJSON_AddStringToObject(doc, "algo", comm_algo_name(p->algo));
		if (p->compress)
			cJSON_AddStringToObject(doc, "compress", comm_compress_name(p->compress));
		cJSON_AddStringToObject(doc, "launch", p->launch);
		cJSON_AddStringToObject(doc, "engine", p->engine ? p->engine->name : "libcomm");
		cJSON_AddItemToObject(doc, "results", o->results);
		o->results = NULL;
		cJSON_AddNumberToObject(doc, "avg_busbw_GBps", avg);
		cJSON_AddBoolToObject(doc, "interrupted",
				      !!(run_stop_agreed() & RUN_STOP_INTERRUPT));
		if (p->compress && o->nrmse_max >= 0)
			cJSON_AddNumberToObject(doc, "max_nrmse", o->nrmse_max);
		else if (p->compress)
			cJSON_AddNullToObject(doc, "max_nrmse");
		cJSON *sj = cJSON_AddObjectToObject(doc, "slowest");
		if (sl->have_link) {
			cJSON *l = cJSON_AddObjectToObject(sj, "link");
			cJSON_AddNumberToObject(l, "from", sl->from);
			cJSON_AddStringToObject(l, "from_host", comm_peer_host(c, sl->from));
			cJSON_AddNumberToObject(l, "to", sl->to);
			cJSON_AddStringToObject(l, "to_host", comm_peer_host(c, sl->to));
			cJSON_AddNumberToObject(l, "GBps", sl->rate / 1e9);
			cJSON_AddNumberToObject(l, "median_GBps", sl->median / 1e9);
		} else {
			cJSON_AddNullToObject(sj, "link");
		}
		if (sl->have_rank) {
			cJSON *r = cJSON_AddObjectToObject(sj, "rank");
			cJSON_AddNumberToObject(r, "rank", sl->rank);
			cJSON_AddStringToObject(r, "host", comm_peer_host(c, sl->rank));
			cJSON_AddNumberToObject(r, "waited_s", sl->waited);
			cJSON_AddNumberToObject(r, "median_waited_s", sl->median_waited);
		} else {
			cJSON_AddNullToObject(sj, "rank");
		}
		cJSON_AddNumberToObject(sj, "links_judged", sl->links);
		if (o->links)
			cJSON_AddItemToObject(doc, "links", o->links);
		else
			cJSON_AddNullToObject(doc, "links");
		o->links = NULL;
		cJSON_AddNumberToObject(doc, "exit_code", code);
		out_json(doc);
		return bad ? -1 : 0;
	}
	if (g_opts.quiet)
		return bad ? -1 : 0;
	if (run_stop_agreed() & RUN_STOP_INTERRUPT)
		printf("# Interrupted          : after %zu size%s\n", o->rows, plural_s(o->rows));
	printf("# Avg bus bandwidth    : %.3f GB/s\n", avg);
	if (p->compress && o->nrmse_max >= 0)
		printf("# Max error (nrmse)    : %.4f %% of the exact sum's RMS (limit %g %%)\n",
		       100 * o->nrmse_max, 100 * RUN_NRMSE_LIMIT);
	else if (p->compress && o->nrmse_max != o->nrmse_max)
		printf("# Max error (nrmse)    : nan (limit %g %%)\n", 100 * RUN_NRMSE_LIMIT);
	if (sl->have_link)
		printf("# Slowest link         : rank %d (host %s) -> rank %d (host %s): %.3f GB/s, "
		       "%.0f %% of the median link's %.3f GB/s\n",
		       sl->from, comm_peer_host(c, sl->from), sl->to, comm_peer_host(c, sl->to),
		       sl->rate / 1e9, 100.0 * sl->rate / sl->median, sl->median / 1e9);
	if (sl->have_rank)
		printf("# Slowest rank         : rank %d (host %s): the others waited %.3f s on it, "
		       "the median rank %.3f s\n",
		       sl->rank, comm_peer_host(c, sl->rank), sl->waited, sl->median_waited);
	printf("#\n");
	return bad ? -1 : 0;
}
