/* hcclctl run's output: the header, one row per size and the footer, printed as the
 * nccl-tests-style table or gathered into the JSON document (and the Prometheus rows), from
 * the same calls so the two cannot drift. Rank 0 calls it from run.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/run/run.h"
#include "ranktable/base/plural.h"

/* What ran: sendrecv is libcomm's send and recv ("p2p"), not an algorithm of its collectives. */
static const char *row_algo(const struct run_params *p, const struct run_row *r)
{
	return p->coll == COMM_COLL_SEND ? "p2p" : comm_algo_name(r->algo);
}

static int reduces(enum comm_coll c)
{
	return c == COMM_COLL_ALLREDUCE || c == COMM_COLL_REDUCESCATTER;
}

/* The dtype and op of the header: all of them with -d all / -o all; only what applies. */
static void header_types(const struct run_params *p, char *buf, size_t len)
{
	const char *d = p->ndtypes > 1 ? "all dtypes" : comm_dtype_name(p->dtype);
	const char *o = p->nops > 1 ? "all ops" : comm_op_name(p->op);
	if (p->coll == COMM_COLL_BARRIER)
		snprintf(buf, len, "no data");
	else if (reduces(p->coll))
		snprintf(buf, len, "%s %s", d, o);
	else
		snprintf(buf, len, "%s", d);
}

/* The header: hcclctl's line, then nccl-tests' three column lines as its src/common.cu prints
 * them, so a script that finds its columns by those names finds them here; hcclctl's algo
 * (and --compress's nrmse) follow nccl-tests' columns, which keep their places. */
void run_out_header(const struct run_params *p, int n)
{
	if (p->json || g_opts.quiet)
		return;
	char z[32] = "", ty[48], cy[32] = "";
	if (p->compress)
		snprintf(z, sizeof(z), ", compress %s", comm_compress_name(p->compress));
	if (p->cycles != 1)
		snprintf(cy, sizeof(cy), p->cycles ? ", cycles %ld" : ", cycles until Ctrl-C",
			 p->cycles);
	header_types(p, ty, sizeof(ty));
	/* -a: the slowest rank's time (3) goes unsaid, as before -a was there */
	static const char *const avg[] = { ", time of rank 0", ", time mean of ranks",
					   ", time min of ranks", "" };
	printf("# hcclctl run %s: %d rank%s (%s), %s, algo %s%s, iters %ld, warmup %ld, "
	       "check %s%s%s, engine %s\n#\n",
	       p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll), n, plural_s(n),
	       p->launch, ty, comm_algo_name(p->algo), z, p->iters, p->warmup,
	       p->check ? "on" : "off", avg[p->average & 3], cy,
	       p->engine ? p->engine->name : "libcomm");
	const char *nr = p->compress ? "  nrmse(%)" : "";
	printf("#%74s%31s\n", "out-of-place", "in-place");
	printf("#       size         count      type   redop    root     time   algbw   busbw "
	       "#wrong     time   algbw   busbw #wrong%s    algo\n", nr);
	printf("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)  "
	       "          (us)  (GB/s)  (GB/s)\n");
	run_stop_flush();
}

/* nccl-tests' time: fewer decimals as it grows, in 7 characters. */
static void fmt_time(double us, char *buf, size_t len)
{
	snprintf(buf, len, us >= 10000 ? "%7.0f" : us >= 100 ? "%7.1f" : "%7.2f", us);
}

/* One group of a row (out of place or in place): time, algbw, busbw, #wrong. A barrier's
 * bandwidths, and a group that did not run, are N/A rather than a made-up 0. */
static void print_group(int ran, int bw, double us, double algbw, double busbw, long long wrong)
{
	char t[24], w[24];
	if (!ran) {
		printf("  %7s  %6s  %6s  %5s", "N/A", "N/A", "N/A", "N/A");
		return;
	}
	fmt_time(us, t, sizeof(t));
	if (wrong < 0)
		snprintf(w, sizeof(w), "N/A");
	else
		snprintf(w, sizeof(w), "%lld", wrong);
	if (bw)
		printf("  %7s  %6.2f  %6.2f  %5s", t, algbw, busbw, w);
	else
		printf("  %7s  %6s  %6s  %5s", t, "N/A", "N/A", w);
}

static cJSON *json_group(double us, double algbw, double busbw, long long wrong)
{
	cJSON *x = cJSON_CreateObject();
	cJSON_AddNumberToObject(x, "time_us", us);
	cJSON_AddNumberToObject(x, "algbw_GBps", algbw);
	cJSON_AddNumberToObject(x, "busbw_GBps", busbw);
	if (wrong < 0)
		cJSON_AddNullToObject(x, "wrong");
	else
		cJSON_AddNumberToObject(x, "wrong", (double)wrong);
	return x;
}

static void json_row(const struct run_params *p, const struct run_row *r, struct out_ctx *o)
{
	cJSON *x = json_group(r->time_us, r->algbw, r->busbw, r->wrong);
	cJSON_AddNumberToObject(x, "size_bytes", (double)r->bytes);
	cJSON_AddNumberToObject(x, "count", (double)r->count);
	cJSON_AddStringToObject(x, "dtype", comm_dtype_name(r->dtype));
	cJSON_AddStringToObject(x, "op", run_row_op(r));
	if (r->root >= 0)
		cJSON_AddNumberToObject(x, "root", r->root);
	else
		cJSON_AddNullToObject(x, "root");
	cJSON_AddStringToObject(x, "algo", row_algo(p, r));
	if (r->ip_time_us >= 0)
		cJSON_AddItemToObject(x, "in_place", json_group(r->ip_time_us, r->ip_algbw,
								r->ip_busbw, r->ip_wrong));
	else
		cJSON_AddNullToObject(x, "in_place");
	if (p->compress && r->nrmse < 0)
		cJSON_AddNullToObject(x, "nrmse");
	else if (p->compress)
		cJSON_AddNumberToObject(x, "nrmse", r->nrmse);
	cJSON_AddItemToArray(o->results, x);
}

void run_out_row(const struct run_params *p, int n, const struct run_row *r, void *arg)
{
	struct out_ctx *o = arg;
	int bw = p->coll != COMM_COLL_BARRIER, ip = r->ip_time_us >= 0;
	(void)n;
	/* nccl-tests' average is over both groups of every row */
	o->busbw_sum += r->busbw + (ip ? r->ip_busbw : 0);
	o->groups += 1 + ip;
	o->time_sum += r->time_us;
	o->rows++;
	o->wrong += (r->wrong > 0 ? r->wrong : 0) + (r->ip_wrong > 0 ? r->ip_wrong : 0);
	if (r->nrmse > o->nrmse_max || r->nrmse != r->nrmse) /* NaN sticks */
		o->nrmse_max = r->nrmse;
	run_prom_row(p, p->coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(p->coll),
		     run_row_op(r), r);
	if (p->json) {
		json_row(p, r, o);
		return;
	}
	printf("%12zu  %12zu  %8s  %6s  %6d", r->bytes, r->count,
	       bw ? comm_dtype_name(r->dtype) : "none", run_row_op(r), r->root);
	print_group(1, bw, r->time_us, r->algbw, r->busbw, r->wrong);
	print_group(ip, bw, r->ip_time_us, r->ip_algbw, r->ip_busbw, r->ip_wrong);
	if (p->compress && r->nrmse < 0)
		printf("  %8s", "N/A");
	else if (p->compress)
		printf("  %8.4f", 100 * r->nrmse);
	printf("  %6s\n", row_algo(p, r));
	run_stop_flush();
}

/* The rows into the launcher's shared page, never cut into invalid JSON: once they no longer
 * fit (a sweep repeated for hours), the page keeps the rows that last did and is not written
 * again. */
static void slot_rows(struct run_relay *rl, const cJSON *rows)
{
	if (rl->full)
		return;
	char *s = cJSON_PrintUnformatted(rows);
	size_t n = s ? strlen(s) : RUN_MEASURED_MAX;
	if (n < RUN_MEASURED_MAX)
		memcpy(rl->slot, s, n + 1);
	else
		rl->full = 1;
	free(s);
}

void run_out_keep(struct run_relay *rl, cJSON **rows)
{
	if (!rl->slot) {
		cJSON_Delete(rl->own);
		rl->own = *rows;
		*rows = NULL;
		return;
	}
	slot_rows(rl, *rows);
}

void run_out_relay_row(const struct run_params *p, int n, const struct run_row *r, void *arg)
{
	run_out_row(p, n, r, arg);
	const struct out_ctx *o = arg;
	struct run_relay *rl = o->relay;
	if (!rl || !p->json || !o->results)
		return;
	if (rl->slot)
		slot_rows(rl, o->results);
	if (rl->to_launcher) {
		char *row = cJSON_PrintUnformatted(cJSON_GetArrayItem(
			o->results, cJSON_GetArraySize(o->results) - 1));
		if (row) {
			printf("%s%s\n", RUN_ROW_LINE, row);
			fflush(stdout);
		}
		free(row);
	}
}

int run_out_footer(const struct run_params *p, int n, struct out_ctx *o,
		   const struct run_slow *sl, struct comm *c, int code)
{
	double avg = o->groups ? o->busbw_sum / (double)o->groups : 0;
	double lat = o->rows ? o->time_sum / (double)o->rows : 0;
	int barrier = p->coll == COMM_COLL_BARRIER;
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
		if (barrier) {
			cJSON_AddNullToObject(doc, "avg_busbw_GBps");
			cJSON_AddNumberToObject(doc, "avg_time_us", lat);
		} else {
			cJSON_AddNumberToObject(doc, "avg_busbw_GBps", avg);
		}
		if (p->check)
			cJSON_AddNumberToObject(doc, "out_of_bounds", (double)o->wrong);
		else
			cJSON_AddNullToObject(doc, "out_of_bounds");
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
	/* nccl-tests' closing lines: the wrong elements of all rows, the mean busbw of both
	 * groups (GB/s, unnamed as nccl-tests leaves it); a barrier's mean time instead */
	if (p->check)
		printf("# Out of bounds values : %lld %s\n", o->wrong, o->wrong ? "FAILED" : "OK");
	else
		printf("# Out of bounds values : N/A (not checked: -c 0)\n");
	if (barrier)
		printf("# Avg bus bandwidth    : N/A (a barrier moves no data)\n"
		       "# Avg latency          : %.2f us\n", lat);
	else
		printf("# Avg bus bandwidth    : %g\n", avg);
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
