/* doctor's own reports read back (doctor --merge): the documents that `doctor --local
 * --json` printed on each node, one after another as srun's merged stdout holds them, into
 * one document per node ({"hostname", "checks", "facts"}), as if the SSH fan-out had
 * fetched them. Input from outside: every problem is an error with its line and column. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor/report_parse.h"
#include "ranktable/jsonpos.h"

static void where_at(const char *buf, size_t len, const char *at, char *out, size_t outlen)
{
	unsigned line = 1, col = 1;
	if (!at || at < buf || at > buf + len)
		at = buf + len;
	for (const char *p = buf; p < at; p++) {
		col = *p == '\n' ? 1 : col + 1;
		line += *p == '\n';
	}
	snprintf(out, outlen, "line %u, column %u", line, col);
}

static int bad(char *err, size_t errlen, const char *name, const char *buf, size_t len,
	       const char *at, const char *what)
{
	char where[160];
	where_at(buf, len, at, where, sizeof(where));
	snprintf(err, errlen, "%s: %s: %s", name, where, what);
	return -EBADMSG;
}

/* Where node (of doc, parsed from buf[at..end)) starts in buf: "line L, column C". The
 * document is scanned again only on this error path; if the scan fails, its start. */
static void node_at(const char *buf, size_t len, const char *at, const char *end,
		    const cJSON *doc, const cJSON *node, char *out, size_t outlen)
{
	struct rt__jpos p;
	unsigned l0 = 1, c0 = 1, l = 0, c = 0;
	for (const char *q = buf; q < at; q++) {
		c0 = *q == '\n' ? 1 : c0 + 1;
		l0 += *q == '\n';
	}
	if (end && end > at && !rt__jpos_scan(&p, at, (size_t)(end - at)))
		rt__jpos_find(&p, doc, node, &l, &c);
	rt__jpos_release(&p);
	if (!l) {
		where_at(buf, len, at, out, outlen);
		return;
	}
	snprintf(out, outlen, "line %u, column %u", l0 + l - 1, l == 1 ? c0 + c - 1 : c);
}

struct key {
	const char *node, *code;
	const cJSON *c;
	size_t idx;
};

static int by_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int r = strcmp(x->node, y->node);
	if (!r)
		r = strcmp(x->code, y->code);
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Every check of a document: its strings, a known status and code, and one result per check
 * and node (the fold and the cause assume it). host: the node of a node report, NULL for a
 * launcher report, whose checks name their node. */
static int checks_valid(const cJSON *checks, const char *host, doctor_code_index_fn *code_index,
			const char *name, const char *buf, size_t len, const char *at,
			const char *end, const cJSON *doc, char *err, size_t errlen)
{
	char what[300], where[64], first[64];
	const cJSON *bad_c = NULL, *c;
	size_t n = (size_t)cJSON_GetArraySize(checks), k = 0;
	struct key *v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	cJSON_ArrayForEach(c, checks)
	{
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(c, "code");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c, "message");
		const cJSON *on = cJSON_GetObjectItemCaseSensitive(c, "node");
		bad_c = c;
		if (!cJSON_IsString(code) || !cJSON_IsString(st) || !cJSON_IsString(msg)) {
			snprintf(what, sizeof(what),
				 "a check without string \"code\", \"status\" and \"message\"");
			goto bad;
		}
		if (strcmp(st->valuestring, "PASS") && strcmp(st->valuestring, "WARN") &&
		    strcmp(st->valuestring, "FAIL") && strcmp(st->valuestring, "SKIP")) {
			snprintf(what, sizeof(what), "check %.40s: unknown status '%.20s'",
				 code->valuestring, st->valuestring);
			goto bad;
		}
		if (!code_index || code_index(code->valuestring) < 0) {
			snprintf(what, sizeof(what),
				 "unknown check '%.40s' (from a newer hcclctl? hcclctl-doctor(1) "
				 "lists the checks)",
				 code->valuestring);
			goto bad;
		}
		v[k] = (struct key){ host ? host : cJSON_IsString(on) ? on->valuestring : "",
				     code->valuestring, c, k };
		k++;
	}
	bad_c = NULL;
	qsort(v, k, sizeof(*v), by_key);
	/* a launcher report's cluster-wide rows (node null) are not folded per node */
	for (size_t i = 1; i < k && !bad_c; i++)
		if (*v[i].node && !strcmp(v[i].node, v[i - 1].node) &&
		    !strcmp(v[i].code, v[i - 1].code)) {
			bad_c = v[i].c;
			node_at(buf, len, at, end, doc, v[i - 1].c, first, sizeof(first));
			snprintf(what, sizeof(what),
				 "check %.40s of node '%.100s' again (first at %s): one result per "
				 "check and node",
				 v[i].code, v[i].node, first);
		}
bad:
	free(v);
	if (!bad_c)
		return 0;
	node_at(buf, len, at, end, doc, bad_c, where, sizeof(where));
	snprintf(err, errlen, "%s: %s: %s", name, where, what);
	return -EBADMSG;
}

int doctor_doc_check(const char *name, const char *buf, size_t len, const cJSON *doc,
		     const char *host, doctor_code_index_fn *code_index, char *err,
		     size_t errlen)
{
	const cJSON *checks = cJSON_GetObjectItemCaseSensitive(doc, "checks");
	if (!cJSON_IsArray(checks))
		return bad(err, errlen, name, buf, len, buf, "no \"checks\" array");
	return checks_valid(checks, host, code_index, name, buf, len, buf, buf + len, doc, err,
			    errlen);
}

static int add_node(struct doctor_merged *m, const char *name, cJSON *doc, const char *file,
		    char *err, size_t errlen)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name)) {
			snprintf(err, errlen,
				 "%s: node '%.100s' is also in %s: one report per node", file, name,
				 m->v[i].file);
			return -EEXIST;
		}
	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 16;
		struct doctor_merged_node *nv = realloc(m->v, nc * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		m->v = nv;
		m->cap = nc;
	}
	char *nm = strdup(name), *fl = strdup(file);
	if (!nm || !fl) {
		free(nm);
		free(fl);
		return -ENOMEM;
	}
	m->v[m->n++] = (struct doctor_merged_node){nm, fl, doc};
	return 0;
}

/* One document of a stream into nodes: a launcher report (schema hcclctl-doctor/1, its
 * checks by node) or a node's own (hcclctl-doctor-node/1, from doctor --node). */
static int take(struct doctor_merged *m, const cJSON *doc, const char *name, const char *buf,
		size_t len, const char *at, const char *end, char *err, size_t errlen)
{
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
	const cJSON *checks = cJSON_GetObjectItemCaseSensitive(doc, "checks");
	const cJSON *facts = cJSON_GetObjectItemCaseSensitive(doc, "facts");
	if (!cJSON_IsObject(doc) || !cJSON_IsString(schema))
		return bad(err, errlen, name, buf, len, at,
			   "not a doctor report (no \"schema\"): give what 'hcclctl --json doctor "
			   "--local' printed");
	if (!cJSON_IsArray(checks))
		return bad(err, errlen, name, buf, len, at, "no \"checks\" array");
	const cJSON *c;
	int node_doc = !strcmp(schema->valuestring, "hcclctl-doctor-node/1");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(doc, "hostname");
	if (node_doc && (!cJSON_IsString(h) || !*h->valuestring))
		return bad(err, errlen, name, buf, len, at, "a node report without \"hostname\"");
	int rc = checks_valid(checks, node_doc ? h->valuestring : NULL, m->code_index, name, buf,
			      len, at, end, doc, err, errlen);
	if (rc)
		return rc;
	if (node_doc) {
		cJSON *copy = cJSON_Duplicate(doc, 1);
		rc = copy ? add_node(m, h->valuestring, copy, name, err, errlen) : -ENOMEM;
		if (rc)
			cJSON_Delete(copy);
		return rc;
	}
	if (strcmp(schema->valuestring, "hcclctl-doctor/1"))
		return bad(err, errlen, name, buf, len, at, "unknown \"schema\"");
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes"), *nd;
	if (!cJSON_IsArray(nodes) || !cJSON_GetArraySize(nodes))
		return bad(err, errlen, name, buf, len, at, "no \"nodes\"");
	cJSON_ArrayForEach(nd, nodes)
	{
		if (!cJSON_IsString(nd) || !*nd->valuestring)
			return bad(err, errlen, name, buf, len, at,
				   "a node name that is not a string");
		/* the node's part: its checks, and its facts (--local reports carry them) */
		cJSON *mine = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(mine, "checks");
		cJSON_AddStringToObject(mine, "hostname", nd->valuestring);
		const cJSON *f = cJSON_IsObject(facts)
					 ? cJSON_GetObjectItemCaseSensitive(facts, nd->valuestring)
					 : NULL;
		if (cJSON_IsObject(f))
			cJSON_AddItemToObject(mine, "facts", cJSON_Duplicate(f, 1));
		cJSON_ArrayForEach(c, checks)
		{
			const cJSON *on = cJSON_GetObjectItemCaseSensitive(c, "node");
			if (cJSON_IsString(on) && !strcmp(on->valuestring, nd->valuestring))
				cJSON_AddItemToArray(arr, cJSON_Duplicate(c, 1));
		}
		rc = add_node(m, nd->valuestring, mine, name, err, errlen);
		if (rc) {
			cJSON_Delete(mine);
			return rc;
		}
	}
	return 0;
}

int doctor_merge_parse(struct doctor_merged *m, const char *name, const char *buf, size_t len,
		       char *err, size_t errlen)
{
	size_t at = 0, ndocs = 0;
	for (;;) {
		while (at < len &&
		       (buf[at] == ' ' || buf[at] == '\n' || buf[at] == '\t' || buf[at] == '\r'))
			at++;
		if (at == len)
			break;
		const char *end = NULL;
		cJSON *doc = cJSON_ParseWithLengthOpts(buf + at, len - at, &end, 0);
		if (!doc)
			return bad(err, errlen, name, buf, len, cJSON_GetErrorPtr(),
				   "not JSON (doctor --merge reads 'hcclctl --json doctor --local' "
				   "output)");
		int rc = take(m, doc, name, buf, len, buf + at, end, err, errlen);
		cJSON_Delete(doc);
		if (rc)
			return rc;
		ndocs++;
		at = (size_t)(end - buf);
	}
	if (!ndocs) {
		snprintf(err, errlen, "%s: empty: no doctor report", name);
		return -ENODATA;
	}
	return 0;
}

int doctor_merged_expect(struct doctor_merged *m, const char *name)
{
	char err[64];
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return 0;
	return add_node(m, name, NULL, "", err, sizeof(err));
}

void doctor_merged_release(struct doctor_merged *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].file);
		cJSON_Delete(m->v[i].doc);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}
