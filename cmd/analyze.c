/* hcclctl analyze DUMP...: reads the flight-recorder dumps of one job (one per rank), and prints
 * the job, the ranks present and missing, what each rank was doing, the first point where the
 * ranks diverge and a verdict naming the most likely culprit. The analysis and its messages come
 * from probes/flight/flight_merge.c, so the text and the JSON say the same. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/analyze.h"
#include "probes/flight/flight.h"

#define WHERE "analyze"
#define DUMP_CAP (64UL * 1024 * 1024) /* 1000 records are about 400 KB */

static long opt_tail;

const struct opt analyze_opts[] = {
	OPT_NUM("tail", 0, &opt_tail, "N",
		"also list each rank's last N records, oldest first (default 0)", 0, 1000000),
	OPT_TERM,
};

struct input {
	struct flight_dump *dump; /* n entries; ok[i] when dump[i] was read */
	int *ok;
	char **file;  /* the names given */
	char **error; /* why dump i could not be read */
	size_t n, nok;
	const struct flight_dump **good;
};

static void input_release(struct input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		flight_dump_release(&in->dump[i]);
		free(in->error[i]);
	}
	free(in->dump);
	free(in->ok);
	free(in->error);
	free(in->good);
}

/* Reads every file; one that cannot be read is reported and kept out. Returns 0 or
 * EXIT_UNKNOWN (out of memory). */
static int read_dumps(struct input *in, int argc, char **argv)
{
	size_t n = (size_t)argc;
	in->n = n;
	in->file = argv;
	in->dump = calloc(n, sizeof(*in->dump));
	in->ok = calloc(n, sizeof(*in->ok));
	in->error = calloc(n, sizeof(*in->error));
	in->good = calloc(n, sizeof(*in->good));
	if (!in->dump || !in->ok || !in->error || !in->good)
		return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char err[FLIGHT_ERRLEN] = "", *buf = NULL;
		size_t len = 0;
		int rc = fetch_input(argv[i], DUMP_CAP, &buf, &len, err, sizeof(err));
		if (!rc)
			rc = flight_dump_parse(&in->dump[i], argv[i], buf, len, err, sizeof(err));
		free(buf);
		if (rc == -ENOMEM)
			return fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
		if (rc) {
			fail(EXIT_FAIL, WHERE, NULL, "%s", err);
			in->error[i] = strdup(err);
			if (!in->error[i])
				return fail(EXIT_UNKNOWN, WHERE, NULL, "out of memory");
			continue;
		}
		in->ok[i] = 1;
		in->good[in->nok++] = &in->dump[i];
	}
	return 0;
}

/* Integers as written, never as doubles: microsecond times need 16 digits. */
static cJSON *int_json(int64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "%lld", (long long)v);
	return cJSON_CreateRaw(b);
}

static void add_int(cJSON *o, const char *key, int64_t v)
{
	cJSON_AddItemToObject(o, key, int_json(v));
}

static cJSON *ranks_json(const struct flight_ranks *r)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < r->n; i++)
		cJSON_AddItemToArray(arr, int_json(r->v[i]));
	return arr;
}

static void add_str_or_null(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *record_json(const struct flight_record *r)
{
	cJSON *o = cJSON_CreateObject();
	add_int(o, "seq", r->seq);
	cJSON_AddStringToObject(o, "coll", flight_coll_name(r->coll));
	add_int(o, "count", r->count);
	cJSON_AddStringToObject(o, "dtype", flight_dtype_name(r->dtype));
	cJSON_AddStringToObject(o, "op", flight_op_name(r->op));
	add_int(o, "root", r->root);
	cJSON_AddStringToObject(o, "algo", flight_algo_name(r->algo));
	add_int(o, "bytes", r->bytes);
	cJSON_AddStringToObject(o, "state", flight_state_name(r->state));
	add_int(o, "step", r->step);
	add_int(o, "peer", r->peer);
	add_int(o, "sent", r->sent);
	add_int(o, "received", r->received);
	add_int(o, "start_us", r->start_us);
	if (r->end_us >= 0)
		add_int(o, "end_us", r->end_us);
	else
		cJSON_AddNullToObject(o, "end_us");
	add_str_or_null(o, "error", r->error);
	return o;
}

/* "  allreduce #40: count 262144 fp32 sum root -1 ring: done (step 5, ...), 4000 us" */
static void print_record(const struct flight_record *r)
{
	printf("  %s #%lld", flight_coll_name(r->coll), (long long)r->seq);
	if (r->coll == FLIGHT_SEND || r->coll == FLIGHT_RECV)
		printf(" %s rank %lld", r->coll == FLIGHT_SEND ? "to" : "from", (long long)r->root);
	printf(": count %lld", (long long)r->count);
	if (*flight_dtype_name(r->dtype))
		printf(" %s", flight_dtype_name(r->dtype));
	if (*flight_op_name(r->op))
		printf(" %s", flight_op_name(r->op));
	if (!flight_is_p2p(r->coll) && r->root >= 0)
		printf(" root %lld", (long long)r->root);
	if (*flight_algo_name(r->algo))
		printf(" %s", flight_algo_name(r->algo));
	printf(": %s (step %lld, peer %lld, sent %lld and received %lld bytes of a %lld-byte "
	       "buffer)",
	       flight_state_name(r->state), (long long)r->step, (long long)r->peer,
	       (long long)r->sent, (long long)r->received, (long long)r->bytes);
	if (r->end_us >= 0 && r->end_us >= r->start_us)
		printf(", %lld us", (long long)(r->end_us - r->start_us));
	if (r->error)
		printf(": %s", out_safe(r->error));
	putchar('\n');
}

static const char *div_kind_name(enum flight_div_kind k)
{
	switch (k) {
	case FLIGHT_DIV_PROGRESS:
		return "progress";
	case FLIGHT_DIV_FINGERPRINT:
		return "fingerprint";
	case FLIGHT_DIV_P2P_PROGRESS:
		return "p2p-progress";
	case FLIGHT_DIV_P2P_FINGERPRINT:
		return "p2p-fingerprint";
	default:
		return "none";
	}
}

static cJSON *divergence_json(const struct flight_divergence *dv)
{
	if (dv->kind == FLIGHT_DIV_NONE)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", div_kind_name(dv->kind));
	add_int(o, "seq", dv->seq);
	add_str_or_null(o, "coll",
			dv->coll >= 0 ? flight_coll_name((enum flight_coll)dv->coll) : NULL);
	cJSON_AddStringToObject(o, "message", dv->message);
	if (dv->kind == FLIGHT_DIV_P2P_PROGRESS || dv->kind == FLIGHT_DIV_P2P_FINGERPRINT) {
		add_int(o, "from", dv->from);
		add_int(o, "to", dv->to);
	}
	if (dv->kind == FLIGHT_DIV_PROGRESS || dv->kind == FLIGHT_DIV_P2P_PROGRESS) {
		cJSON_AddItemToObject(o, "behind", ranks_json(&dv->behind));
		cJSON_AddItemToObject(o, "ahead", ranks_json(&dv->ahead));
	}
	if (dv->kind == FLIGHT_DIV_PROGRESS)
		cJSON_AddBoolToObject(o, "waiting", dv->waiting);
	if (dv->kind == FLIGHT_DIV_FINGERPRINT) {
		cJSON *fields = cJSON_AddArrayToObject(o, "fields");
		for (size_t k = 0; k < dv->nfield; k++) {
			const struct flight_field *f = &dv->field[k];
			cJSON *fo = cJSON_CreateObject(), *vals;
			cJSON_AddStringToObject(fo, "field", f->name);
			cJSON_AddStringToObject(fo, "message", f->message);
			vals = cJSON_AddArrayToObject(fo, "values");
			for (size_t i = 0; i < f->nval; i++) {
				cJSON *v = cJSON_CreateObject();
				cJSON_AddStringToObject(v, "value", f->val[i].text);
				if (f->val[i].bytes >= 0)
					add_int(v, "bytes", f->val[i].bytes);
				cJSON_AddItemToObject(v, "ranks", ranks_json(&f->val[i].ranks));
				cJSON_AddItemToArray(vals, v);
			}
			cJSON_AddItemToArray(fields, fo);
		}
	}
	return o;
}

static cJSON *rank_json(const struct flight_rank_state *rs)
{
	const struct flight_dump *d = rs->dump;
	cJSON *o = cJSON_CreateObject(), *open;
	add_int(o, "rank", d->rank);
	cJSON_AddStringToObject(o, "host", d->host);
	cJSON_AddStringToObject(o, "file", d->name);
	cJSON_AddStringToObject(o, "reason", flight_reason_name(d->reason));
	add_str_or_null(o, "error", d->error);
	add_int(o, "dumped_at_us", d->dumped_at_us);
	add_int(o, "records", d->nrec);
	if (rs->last_done >= 0) {
		cJSON *l = cJSON_AddObjectToObject(o, "last_done");
		add_int(l, "seq", rs->last_done);
		cJSON_AddStringToObject(l, "coll",
					flight_coll_name((enum flight_coll)rs->last_done_coll));
	} else {
		cJSON_AddNullToObject(o, "last_done");
	}
	open = cJSON_AddArrayToObject(o, "open");
	for (size_t k = 0; k < rs->nopen; k++)
		cJSON_AddItemToArray(open, record_json(rs->open[k]));
	if (opt_tail > 0) {
		cJSON *tail = cJSON_AddArrayToObject(o, "tail");
		size_t from = d->nrec > (size_t)opt_tail ? d->nrec - (size_t)opt_tail : 0;
		for (size_t k = from; k < d->nrec; k++)
			cJSON_AddItemToArray(tail, record_json(&d->rec[k]));
	}
	cJSON_AddStringToObject(o, "message", rs->message);
	return o;
}

static void print_json(const struct input *in, const struct flight_analysis *a, int code)
{
	cJSON *doc = cJSON_CreateObject(), *arr;
	if (a->kind != FLIGHT_CONFIG) {
		cJSON_AddStringToObject(doc, "comm_id", a->comm_id);
		add_int(doc, "world_size", a->world_size);
		cJSON_AddItemToObject(doc, "ranks_present", ranks_json(&a->present));
		cJSON_AddItemToObject(doc, "ranks_missing", ranks_json(&a->missing));
	}
	arr = cJSON_AddArrayToObject(doc, "unreadable");
	for (size_t i = 0; i < in->n; i++) {
		if (in->ok[i])
			continue;
		cJSON *u = cJSON_CreateObject();
		cJSON_AddStringToObject(u, "file", in->file[i]);
		cJSON_AddStringToObject(u, "error", in->error[i]);
		cJSON_AddItemToArray(arr, u);
	}
	arr = cJSON_AddArrayToObject(doc, "notes");
	for (size_t i = 0; i < a->nnote; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(a->note[i]));
	if (a->kind != FLIGHT_CONFIG) {
		arr = cJSON_AddArrayToObject(doc, "ranks");
		for (size_t i = 0; i < a->nrank; i++)
			cJSON_AddItemToArray(arr, rank_json(&a->rank[i]));
		cJSON_AddItemToObject(doc, "divergence", divergence_json(&a->div));
	} else {
		cJSON_AddStringToObject(doc, "problem", a->problem);
	}
	cJSON *v = cJSON_AddObjectToObject(doc, "verdict");
	cJSON_AddStringToObject(v, "kind", flight_kind_name(a->kind));
	if (a->culprit >= 0)
		add_int(v, "rank", a->culprit);
	else
		cJSON_AddNullToObject(v, "rank");
	add_str_or_null(v, "host", a->culprit_host);
	cJSON_AddStringToObject(v, "message", a->verdict);
	cJSON_AddStringToObject(doc, "status", code == EXIT_OK ? "PASS" : "FAIL");
	cJSON_AddNumberToObject(doc, "exit_code", code);
	out_json(doc);
}

static void print_text(const struct input *in, const struct flight_analysis *a)
{
	char buf[256];
	size_t nbad = in->n - in->nok;
	if (a->kind != FLIGHT_CONFIG) {
		printf("job: comm %s, world size %lld\n", out_safe(a->comm_id),
		       (long long)a->world_size);
		printf("ranks present: %s (%zu of %lld)\n",
		       flight_ranks_text(&a->present, buf, sizeof(buf)), a->present.n,
		       (long long)a->world_size);
		printf("ranks missing: %s\n",
		       a->missing.n ? flight_ranks_text(&a->missing, buf, sizeof(buf)) : "none");
	}
	if (nbad) {
		printf("unreadable dumps:");
		for (size_t i = 0, k = 0; i < in->n; i++)
			if (!in->ok[i])
				printf("%s %s", k++ ? "," : "", out_safe(in->file[i]));
		putchar('\n');
	}
	for (size_t i = 0; a->kind != FLIGHT_CONFIG && i < a->nrank; i++) {
		const struct flight_rank_state *rs = &a->rank[i];
		const struct flight_dump *d = rs->dump;
		if (g_opts.quiet && !rs->nopen)
			continue;
		printf("%s\n", out_safe(rs->message));
		if (g_opts.verbose && d->error)
			printf("  error: %s\n", out_safe(d->error));
		size_t from = d->nrec > (size_t)opt_tail ? d->nrec - (size_t)opt_tail : 0;
		for (size_t k = from; opt_tail > 0 && k < d->nrec; k++)
			print_record(&d->rec[k]);
	}
	if (a->kind != FLIGHT_CONFIG)
		printf("divergence: %s\n", a->div.message ? out_safe(a->div.message) : "none");
	printf("verdict: %s: %s\n", flight_kind_name(a->kind), out_safe(a->verdict));
}

int cmd_analyze(int argc, char **argv)
{
	struct input in = {0};
	struct flight_analysis a = {0};
	char err[FLIGHT_ERRLEN];
	int rc = read_dumps(&in, argc, argv);
	if (rc)
		goto out;
	if (!in.nok) {
		rc = fail(EXIT_UNKNOWN, WHERE, "pass the flight-recorder dumps of the job's ranks",
			  "no dump could be read (%zu given)", in.n);
		goto out;
	}
	if (flight_analyze(&a, in.good, in.nok, err, sizeof(err))) {
		rc = fail(EXIT_UNKNOWN, WHERE, NULL, "%s", err);
		goto out;
	}
	for (size_t i = 0; i < a.nnote; i++)
		warn_msg(WHERE, "%s", a.note[i]);
	if (a.kind == FLIGHT_CONFIG)
		fail(EXIT_FAIL, WHERE, "analyze the dumps of one job together", "%s", a.problem);
	rc = a.kind == FLIGHT_OK && in.nok == in.n ? EXIT_OK : EXIT_FAIL;
	if (g_opts.json)
		print_json(&in, &a, rc);
	else
		print_text(&in, &a);
out:
	flight_analysis_release(&a);
	input_release(&in);
	return rc;
}
