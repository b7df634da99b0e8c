/* Reading one flight-recorder dump: a strict scan for syntax errors with their line and
 * column (ranktable/jsonpos.c, shared so both readers locate errors the same way), cJSON for the
 * tree, then every field checked against the schema with its JSON path. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "probes/flight/flight.h"
#include "ranktable/jsonpos.h"

static const char *const coll_names[] = {"allreduce", "allgather", "reducescatter", "broadcast",
					 "alltoall",  "send",	   "recv",	    "barrier",
					 "split",     NULL};
static const char *const dtype_names[] = {"",	  "int8", "int32", "int64", "fp16",
					  "bf16", "fp32", "fp64",  NULL};
static const size_t dtype_sizes[] = {0, 1, 4, 8, 2, 2, 4, 8};
static const char *const op_names[] = {"", "sum", "prod", "max", "min", NULL};
static const char *const algo_names[] = {"", "auto", "ring", "rhd", "mesh", NULL};
static const char *const state_names[] = {"done", "running", "failed", NULL};
static const char *const reason_names[] = {"timeout", "error", "signal", "exit", NULL};

#define NAMES_LEN(a) (sizeof(a) / sizeof(a[0]) - 1)

static const char *name_of(const char *const *names, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? names[v] : "?";
}

const char *flight_coll_name(enum flight_coll c)
{
	return name_of(coll_names, NAMES_LEN(coll_names), (int)c);
}

const char *flight_dtype_name(enum flight_dtype t)
{
	return name_of(dtype_names, NAMES_LEN(dtype_names), (int)t);
}

size_t flight_dtype_size(enum flight_dtype t)
{
	return (size_t)t < NAMES_LEN(dtype_names) ? dtype_sizes[t] : 0;
}

const char *flight_op_name(enum flight_op o)
{
	return name_of(op_names, NAMES_LEN(op_names), (int)o);
}

const char *flight_algo_name(enum flight_algo a)
{
	return name_of(algo_names, NAMES_LEN(algo_names), (int)a);
}

const char *flight_state_name(enum flight_state s)
{
	return name_of(state_names, NAMES_LEN(state_names), (int)s);
}

const char *flight_reason_name(enum flight_reason r)
{
	return name_of(reason_names, NAMES_LEN(reason_names), (int)r);
}

int flight_is_p2p(enum flight_coll c)
{
	return c == FLIGHT_SEND || c == FLIGHT_RECV;
}

/* ---- located errors ---- */

struct ctx {
	const char *name;
	const struct rt__jpos *pos; /* NULL when positions are not known */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 4, 5))) static int bad(struct ctx *c, const cJSON *node,
						     const char *path, const char *fmt, ...)
{
	char what[FLIGHT_ERRLEN];
	unsigned line = 0, col = 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (c->pos && node)
		rt__jpos_get(c->pos, node, &line, &col);
	if (line)
		snprintf(c->err, c->errlen, "%s:%u:%u: %s: %s", c->name, line, col, path, what);
	else
		snprintf(c->err, c->errlen, "%s: %s: %s", c->name, path, what);
	return -EINVAL;
}

static const char *type_of(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	return "an object";
}

/* The member key of obj (at path), or a located "missing" error. */
static int member(struct ctx *c, const cJSON *obj, const char *path, const char *key,
		  const cJSON **out)
{
	*out = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (*out)
		return 0;
	return bad(c, obj, *path ? path : "$", "missing \"%s\"", key);
}

/* An integer in [lo, hi]; null gives -1 when nullable. */
static int get_int(struct ctx *c, const cJSON *obj, const char *path, const char *key, int64_t lo,
		   int64_t hi, int nullable, int64_t *out)
{
	const cJSON *v;
	char p[96];
	int rc = member(c, obj, path, key, &v);
	if (rc)
		return rc;
	snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", key);
	if (nullable && cJSON_IsNull(v)) {
		*out = -1;
		return 0;
	}
	if (!cJSON_IsNumber(v))
		return bad(c, v, p, "expected an integer%s, found %s", nullable ? " or null" : "",
			   type_of(v));
	double d = v->valuedouble;
	if (!isfinite(d) || d != floor(d))
		return bad(c, v, p, "expected an integer, found %g", d);
	if (d < (double)lo || d > (double)hi || fabs(d) > 9007199254740992.0)
		return bad(c, v, p, "%.0f is out of range [%lld, %lld]", d, (long long)lo,
			   (long long)hi);
	*out = (int64_t)d;
	return 0;
}

static int get_enum(struct ctx *c, const cJSON *obj, const char *path, const char *key,
		    const char *const *names, size_t first, int *out)
{
	const cJSON *v;
	char p[96], list[160] = "";
	size_t n = 0;
	int rc = member(c, obj, path, key, &v);
	if (rc)
		return rc;
	snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", key);
	if (!cJSON_IsString(v))
		return bad(c, v, p, "expected a string, found %s", type_of(v));
	for (size_t k = 0; names[k]; k++)
		if (k >= first && !strcmp(v->valuestring, names[k])) {
			*out = (int)k;
			return 0;
		}
	for (size_t k = first; names[k] && n < sizeof(list); k++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s\"%s\"", n ? ", " : "",
				      names[k]);
	return bad(c, v, p, "unknown value \"%.40s%s\" (expected %s)", v->valuestring,
		   strlen(v->valuestring) > 40 ? "..." : "", list);
}

/* A name (host, comm_id): printable ASCII or UTF-8, no control characters, under cap bytes. */
static int get_name(struct ctx *c, const cJSON *obj, const char *key, char *buf, size_t cap,
		    int allow_empty)
{
	const cJSON *v;
	int rc = member(c, obj, "$", key, &v);
	if (rc)
		return rc;
	if (!cJSON_IsString(v))
		return bad(c, v, key, "expected a string, found %s", type_of(v));
	const unsigned char *s = (const unsigned char *)v->valuestring;
	size_t n = strlen(v->valuestring);
	if (!n && !allow_empty)
		return bad(c, v, key, "empty");
	if (n >= cap)
		return bad(c, v, key, "longer than %zu bytes", cap - 1);
	for (size_t k = 0; k < n; k++)
		if (s[k] < 0x20 || s[k] == 0x7f)
			return bad(c, v, key, "control character 0x%02x", s[k]);
	memcpy(buf, s, n + 1);
	return 0;
}

/* An error message: null, or a string kept (up to FLIGHT_MSGLEN - 1 bytes, control characters
 * as '?') so that it can be printed safely. */
static int get_msg(struct ctx *c, const cJSON *obj, const char *path, const char *key, char **out)
{
	const cJSON *v;
	char p[96];
	int rc = member(c, obj, path, key, &v);
	*out = NULL;
	if (rc)
		return rc;
	if (cJSON_IsNull(v))
		return 0;
	snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", key);
	if (!cJSON_IsString(v))
		return bad(c, v, p, "expected a string or null, found %s", type_of(v));
	size_t n = strnlen(v->valuestring, FLIGHT_MSGLEN - 1);
	/* do not cut a UTF-8 sequence */
	while (n && v->valuestring[n] && ((unsigned char)v->valuestring[n] & 0xC0) == 0x80)
		n--;
	char *s = malloc(n + 1);
	if (!s)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		unsigned char ch = (unsigned char)v->valuestring[k];
		s[k] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	s[n] = 0;
	*out = s;
	return 0;
}

/* ---- records ---- */

static int parse_record(struct ctx *c, const struct flight_dump *d, const cJSON *o, size_t i,
			struct flight_record *r)
{
	char p[48];
	int v, rc;
	int64_t ws = d->world_size;
	snprintf(p, sizeof(p), "records[%zu]", i);
	if (!cJSON_IsObject(o))
		return bad(c, o, p, "expected an object, found %s", type_of(o));
	if (c->pos)
		rt__jpos_get(c->pos, o, &r->line, &r->col);
	if ((rc = get_int(c, o, p, "seq", 0, INT64_MAX, 0, &r->seq)))
		return rc;
	if ((rc = get_enum(c, o, p, "coll", coll_names, 0, &v)))
		return rc;
	r->coll = (enum flight_coll)v;
	if ((rc = get_int(c, o, p, "count", 0, INT64_MAX, 0, &r->count)))
		return rc;
	if ((rc = get_enum(c, o, p, "dtype", dtype_names, 0, &v)))
		return rc;
	r->dtype = (enum flight_dtype)v;
	if ((rc = get_enum(c, o, p, "op", op_names, 0, &v)))
		return rc;
	r->op = (enum flight_op)v;
	if (flight_is_p2p(r->coll)) {
		if ((rc = get_int(c, o, p, "root", 0, ws - 1, 0, &r->root)))
			return rc;
		if (r->root == d->rank) {
			char rp[64];
			snprintf(rp, sizeof(rp), "%s.root", p);
			return bad(c, cJSON_GetObjectItemCaseSensitive(o, "root"), rp,
				   "%s to itself (root is the peer rank of send and recv)",
				   flight_coll_name(r->coll));
		}
	} else if ((rc = get_int(c, o, p, "root", -1, ws - 1, 0, &r->root))) {
		return rc;
	}
	if ((rc = get_enum(c, o, p, "algo", algo_names, 0, &v)))
		return rc;
	r->algo = (enum flight_algo)v;
	if ((rc = get_int(c, o, p, "bytes", 0, INT64_MAX, 0, &r->bytes)))
		return rc;
	if ((rc = get_enum(c, o, p, "state", state_names, 0, &v)))
		return rc;
	r->state = (enum flight_state)v;
	if ((rc = get_int(c, o, p, "step", -1, INT32_MAX, 0, &r->step)))
		return rc;
	if ((rc = get_int(c, o, p, "peer", -1, ws - 1, 0, &r->peer)))
		return rc;
	if ((rc = get_int(c, o, p, "sent", 0, INT64_MAX, 0, &r->sent)))
		return rc;
	if ((rc = get_int(c, o, p, "received", 0, INT64_MAX, 0, &r->received)))
		return rc;
	if ((rc = get_int(c, o, p, "start_us", 0, INT64_MAX, 0, &r->start_us)))
		return rc;
	if ((rc = get_int(c, o, p, "end_us", 0, INT64_MAX, 1, &r->end_us)))
		return rc;
	return get_msg(c, o, p, "error", &r->error);
}

struct p2p_key {
	int coll;
	int64_t peer;
	size_t idx;
};

static int cmp_p2p(const void *a, const void *b)
{
	const struct p2p_key *x = a, *y = b;
	if (x->coll != y->coll)
		return x->coll < y->coll ? -1 : 1;
	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sequence numbers only grow: the shared one of the collectives, and each peer's for send
 * and for recv. The analysis relies on it. */
static int check_order(struct ctx *c, const struct flight_dump *d, const cJSON *recs)
{
	struct p2p_key *k = NULL;
	size_t nk = 0, last = SIZE_MAX;
	int rc = 0;
	for (size_t i = 0; i < d->nrec; i++) {
		const struct flight_record *r = &d->rec[i];
		if (flight_is_p2p(r->coll)) {
			nk++;
			continue;
		}
		if (last != SIZE_MAX && r->seq <= d->rec[last].seq) {
			char p[48];
			snprintf(p, sizeof(p), "records[%zu].seq", i);
			return bad(c,
				   cJSON_GetObjectItemCaseSensitive(
					   cJSON_GetArrayItem(recs, (int)i), "seq"),
				   p, "%lld after %lld in records[%zu]: sequence numbers must grow",
				   (long long)r->seq, (long long)d->rec[last].seq, last);
		}
		last = i;
	}
	if (!nk)
		return 0;
	k = malloc(nk * sizeof(*k));
	if (!k)
		return -ENOMEM;
	nk = 0;
	for (size_t i = 0; i < d->nrec; i++)
		if (flight_is_p2p(d->rec[i].coll))
			k[nk++] = (struct p2p_key){(int)d->rec[i].coll, d->rec[i].root, i};
	qsort(k, nk, sizeof(*k), cmp_p2p);
	for (size_t j = 1; j < nk && !rc; j++) {
		if (k[j].coll != k[j - 1].coll || k[j].peer != k[j - 1].peer)
			continue;
		const struct flight_record *a = &d->rec[k[j - 1].idx], *b = &d->rec[k[j].idx];
		if (b->seq > a->seq)
			continue;
		char p[48];
		snprintf(p, sizeof(p), "records[%zu].seq", k[j].idx);
		rc = bad(c,
			 cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(recs, (int)k[j].idx),
							  "seq"),
			 p,
			 "%s #%lld %s rank %lld after #%lld in records[%zu]: sequence numbers must "
			 "grow",
			 flight_coll_name(b->coll), (long long)b->seq,
			 b->coll == FLIGHT_SEND ? "to" : "from", (long long)b->root,
			 (long long)a->seq, k[j - 1].idx);
	}
	free(k);
	return rc;
}

static int parse_tree(struct ctx *c, struct flight_dump *d, const cJSON *root)
{
	const cJSON *v;
	int e, rc;
	if (!cJSON_IsObject(root))
		return bad(c, root, "$", "expected an object, found %s: not a flight-recorder dump",
			   type_of(root));
	v = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (!v)
		return bad(c, root, "$", "missing \"schema\": not a flight-recorder dump");
	if (!cJSON_IsString(v))
		return bad(c, v, "schema", "expected a string, found %s", type_of(v));
	if (strcmp(v->valuestring, FLIGHT_SCHEMA))
		return bad(c, v, "schema",
			   "\"%.40s%s\" is not supported (this hcclctl reads \"%s\")",
			   v->valuestring, strlen(v->valuestring) > 40 ? "..." : "", FLIGHT_SCHEMA);
	if ((rc = get_int(c, root, "", "world_size", 1, FLIGHT_MAX_WORLD, 0, &d->world_size)))
		return rc;
	if ((rc = get_int(c, root, "", "rank", 0, d->world_size - 1, 0, &d->rank)))
		return rc;
	if ((rc = get_name(c, root, "host", d->host, sizeof(d->host), 0)))
		return rc;
	if ((rc = get_name(c, root, "comm_id", d->comm_id, sizeof(d->comm_id), 0)))
		return rc;
	if ((rc = get_enum(c, root, "", "reason", reason_names, 0, &e)))
		return rc;
	d->reason = (enum flight_reason)e;
	if ((rc = get_msg(c, root, "", "error", &d->error)))
		return rc;
	if ((rc = get_int(c, root, "", "dumped_at_us", 0, INT64_MAX, 0, &d->dumped_at_us)))
		return rc;
	const cJSON *recs;
	if ((rc = member(c, root, "$", "records", &recs)))
		return rc;
	if (!cJSON_IsArray(recs))
		return bad(c, recs, "records", "expected an array, found %s", type_of(recs));
	size_t n = 0;
	for (const cJSON *o = recs->child; o; o = o->next)
		if (++n > FLIGHT_MAX_RECORDS)
			return bad(c, recs, "records", "more than %d records", FLIGHT_MAX_RECORDS);
	if (n) {
		d->rec = calloc(n, sizeof(*d->rec));
		if (!d->rec)
			return -ENOMEM;
	}
	for (const cJSON *o = recs->child; o; o = o->next) {
		rc = parse_record(c, d, o, d->nrec, &d->rec[d->nrec]);
		d->nrec++; /* counted even when it failed, so its error is freed */
		if (rc)
			return rc;
	}
	return check_order(c, d, recs);
}

/* A byte that can continue the last token of a document cut short. */
static int is_tok(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '.' || ch == '-' || ch == '+';
}

/* Whether the scan failed only because the input ends too soon: a dump cut short. */
static int cut_short(const struct rt__jpos *p, const char *buf, size_t len)
{
	if (!strcmp(p->emsg, "unexpected end of input") || !strcmp(p->emsg, "unterminated string"))
		return 1;
	/* or a number or literal cut short at the very end */
	if (strncmp(p->emsg, "invalid literal", 15) && strncmp(p->emsg, "invalid number", 14))
		return 0;
	size_t t = len;
	while (t > p->bom && is_tok((unsigned char)buf[t - 1]))
		t--;
	if (t == len)
		return 0;
	unsigned l, col;
	rt__jpos_locate(buf, len, t, &l, &col);
	return l == p->eline && col == p->ecol;
}

static int only_space(const char *buf, size_t len)
{
	for (size_t k = 0; k < len; k++)
		if (!strchr(" \t\r\n", buf[k]) || !buf[k])
			return 0;
	return 1;
}

int flight_dump_parse(struct flight_dump *d, const char *name, const char *buf, size_t len,
		      char *err, size_t errlen)
{
	struct rt__jpos pos;
	cJSON *root = NULL;
	int rc;

	memset(d, 0, sizeof(*d));
	d->rank = d->world_size = -1;
	d->name = strdup(name ? name : "-");
	if (!d->name) {
		snprintf(err, errlen, "%s: out of memory", name ? name : "-");
		return -ENOMEM;
	}
	struct ctx c = {d->name, NULL, err, errlen};
	rc = rt__jpos_scan(&pos, buf, len);
	if (rc == -EINVAL) {
		if (only_space(buf + pos.bom, len - pos.bom))
			snprintf(err, errlen,
				 "%s: empty: no dump was written (was the rank killed "
				 "before it dumped?)",
				 d->name);
		else if (cut_short(&pos, buf, len))
			snprintf(err, errlen,
				 "%s:%u:%u: truncated: %s (was the rank killed while "
				 "it was dumping?)",
				 d->name, pos.eline, pos.ecol, pos.emsg);
		else
			snprintf(err, errlen, "%s:%u:%u: not JSON: %s", d->name, pos.eline,
				 pos.ecol, pos.emsg);
		goto out;
	}
	if (rc)
		goto nomem;
	root = cJSON_ParseWithLength(buf + pos.bom, len - pos.bom);
	if (!root) {
		/* the scanner accepted it: cJSON ran out of memory */
		rc = -ENOMEM;
		goto nomem;
	}
	rc = rt__jpos_bind(&pos, root);
	if (rc == -ENOMEM)
		goto nomem;
	c.pos = rc ? NULL : &pos; /* a mismatch (a bug) only costs the positions */
	rc = parse_tree(&c, d, root);
	if (rc == -ENOMEM)
		goto nomem;
	goto out;
nomem:
	snprintf(err, errlen, "%s: out of memory", d->name);
out:
	cJSON_Delete(root);
	rt__jpos_release(&pos);
	return rc;
}

void flight_dump_release(struct flight_dump *d)
{
	for (size_t i = 0; i < d->nrec; i++)
		free(d->rec[i].error);
	free(d->rec);
	free(d->error);
	free(d->name);
	memset(d, 0, sizeof(*d));
}
