/* Fuzzes the rank-table loader: the JSON reader, format detection and every rule. Besides
 * memory errors it checks the invariants callers rely on: findings carry a listed rule code
 * and a message, -EINVAL means exactly one json-syntax finding, and the model's ranges stay
 * inside the rank array. The reader's tree is compared with cJSON's of the same bytes, node
 * by node, and its errors with the scan's (which other parsers use). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranktable/jsonpos.h"
#include "ranktable/ranktable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int listed(const char *code)
{
	for (const struct rt_rule *r = rt_rules; r->code; r++)
		if (!strcmp(r->code, code))
			return 1;
	return 0;
}

/* cJSON's type of a node of ours. */
static int ctype(const struct rt__jnode *n)
{
	static const int map[] = { 0,	       cJSON_False, cJSON_True,	 cJSON_NULL,
				   cJSON_Number, cJSON_String, cJSON_Array, cJSON_Object };
	return map[rt__jtype(n)];
}

/* a (the reader's) and b (cJSON's) hold the same values, keys and order, and rt__jequal
 * says of each member and its next what cJSON_Compare says. */
static int same(const struct rt__jnode *a, const cJSON *b)
{
	for (; a && b; a = rt__jnext(a), b = b->next) {
		const char *k = rt__jkey(a);
		if (ctype(a) != (b->type & 0xFF) || !k != !b->string ||
		    (k && strcmp(k, b->string)) ||
		    (cJSON_IsString(b) && strcmp(rt__jstr(a), b->valuestring)) ||
		    (cJSON_IsNumber(b) && rt__jnum(a) != b->valuedouble &&
		     rt__jnum(a) == rt__jnum(a)) ||
		    (b->next && rt__jnext(a) &&
		     rt__jequal(a, rt__jnext(a)) != cJSON_Compare(b, b->next, 1)) ||
		    !same(rt__jchild(a), b->child))
			return 0;
	}
	return !a && !b;
}

static void reader(const char *buf, size_t len)
{
	struct rt__jpos p, q;
	struct rt__tree t;
	int rc = rt__jpos_parse(&p, &t, buf, len), rq = rt__jpos_scan(&q, buf, len);
	if (rc != rq && rc != -ENOMEM && rq != -ENOMEM)
		abort();
	if (rc == -EINVAL && (p.eline != q.eline || p.ecol != q.ecol || strcmp(p.emsg, q.emsg)))
		abort();
	if (!rc) {
		/* cJSON reads all the reader does (it nests deeper, and keeps what follows a
		 * NUL escape out of sight, which the reader refuses) */
		cJSON *b = cJSON_ParseWithLength(buf + p.bom, len - p.bom);
		if (b && !same(t.root, b))
			abort();
		cJSON_Delete(b);
	}
	rt__tree_release(&t);
	rt__jpos_release(&p);
	rt__jpos_release(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reader((const char *)data, size);

	struct rt_table t;
	struct rt_diags d = { 0 };
	char err[RT_ERRLEN], digest[17];
	int rc = rt_table_load(&t, "fuzz", (const char *)data, size, &d, err, sizeof(err));

	if (rc == -EINVAL && (d.n != 1 || strcmp(d.v[0].code, "json-syntax")))
		abort();
	for (size_t i = 0; i < d.n; i++)
		if (!listed(d.v[i].code) || !d.v[i].msg || !d.v[i].path)
			abort();
	for (size_t s = 0; s < t.nservers; s++)
		if (t.servers[s].first_rank + t.servers[s].nranks > t.nranks)
			abort();
	rt_table_digest(&t, digest);
	rt_table_release(&t);
	rt_diags_release(&d);
	return 0;
}
