/* doctor's own reports read back (doctor --merge): the documents that `doctor --local
 * --json` printed on each node, one after another as srun's merged stdout holds them, into
 * one document per node ({"hostname", "checks", "facts"}), as if the SSH fan-out had
 * fetched them. Input from outside: every problem is an error with its line and column. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctordoc.h"

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
		size_t len, const char *at, char *err, size_t errlen)
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
	cJSON_ArrayForEach(c, checks)
	{
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(c, "code");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c, "message");
		if (!cJSON_IsString(code) || !cJSON_IsString(st) || !cJSON_IsString(msg))
			return bad(err, errlen, name, buf, len, at,
				   "a check without string \"code\", \"status\" and \"message\"");
		if (strcmp(st->valuestring, "PASS") && strcmp(st->valuestring, "WARN") &&
		    strcmp(st->valuestring, "FAIL") && strcmp(st->valuestring, "SKIP")) {
			char what[160];
			snprintf(what, sizeof(what), "check %.40s: unknown status '%.20s'",
				 code->valuestring, st->valuestring);
			return bad(err, errlen, name, buf, len, at, what);
		}
	}
	if (!strcmp(schema->valuestring, "hcclctl-doctor-node/1")) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(doc, "hostname");
		if (!cJSON_IsString(h) || !*h->valuestring)
			return bad(err, errlen, name, buf, len, at,
				   "a node report without \"hostname\"");
		cJSON *copy = cJSON_Duplicate(doc, 1);
		int rc = copy ? add_node(m, h->valuestring, copy, name, err, errlen) : -ENOMEM;
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
		int rc = add_node(m, nd->valuestring, mine, name, err, errlen);
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
		int rc = take(m, doc, name, buf, len, buf + at, err, errlen);
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
