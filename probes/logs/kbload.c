/* Reads a user's kg-config.json into the same tables scripts/gen-kb.py writes, refusing what
 * would make matching wrong or unbounded (an empty keyword matches every line) with the
 * entity and the field named. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "probes/logs/kbint.h"

#define KB_MAX_ENTITIES 100000

struct own {
	char **str;
	size_t nstr, capstr;
	const char **needle;
	size_t capneedle;
	struct kb_group *group;
	size_t capgroup;
	struct kb_entity *ent;
	struct kb_edge *edge;
	size_t capedge;
};

struct ld {
	struct kb *kb;
	struct own *o;
	const char *name, *code;
	char *err;
	size_t errlen;
};

static int grow(void *pp, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(*(void **)pp, c * sz);
	if (!p)
		return -ENOMEM;
	*(void **)pp = p;
	*cap = c;
	return 0;
}

static const char *keep(struct ld *l, const char *s)
{
	if (grow(&l->o->str, &l->o->capstr, l->o->nstr, sizeof(char *)))
		return NULL;
	char *d = strdup(s ? s : "");
	if (d)
		l->o->str[l->o->nstr++] = d;
	return d;
}

static int bad(struct ld *l, const char *what)
{
	snprintf(l->err, l->errlen, "%s: entity \"%.80s\": %s", l->name, l->code, what);
	return -EINVAL;
}

/* One group of keywords: a list of non-empty strings. */
static int add_group(struct ld *l, const cJSON *g, int win, const char *where)
{
	struct kb *kb = l->kb;
	char what[160];
	int n = cJSON_GetArraySize(g);
	if (!cJSON_IsArray(g) || n < 1 || n > 64) {
		snprintf(what, sizeof(what), "%s: a group of keywords is a list of 1 to 64 strings",
			 where);
		return bad(l, what);
	}
	if (grow(&l->o->group, &l->o->capgroup, kb->ngroup, sizeof(struct kb_group)))
		return -ENOMEM;
	l->o->group[kb->ngroup++] = (struct kb_group){ (int)kb->nneedle, n, win };
	for (const cJSON *k = g->child; k; k = k->next) {
		if (!cJSON_IsString(k) || !k->valuestring[0] ||
		    strlen(k->valuestring) > KB_MAX_NEEDLE) {
			snprintf(what, sizeof(what), "%s: a keyword must be a non-empty string of at "
				 "most %d bytes", where, KB_MAX_NEEDLE);
			return bad(l, what);
		}
		if (grow(&l->o->needle, &l->o->capneedle, kb->nneedle, sizeof(char *)))
			return -ENOMEM;
		const char *s = keep(l, k->valuestring);
		if (!s)
			return -ENOMEM;
		l->o->needle[kb->nneedle++] = s;
	}
	kb->needle = l->o->needle;
	kb->group = l->o->group;
	return 0;
}

/* "in" (or "all"): one list of strings, or a list of such lists. */
static int add_groups(struct ld *l, const cJSON *v, int window, int max_lines, const char *where)
{
	if (!v)
		return 0;
	if (!cJSON_IsArray(v) || !v->child)
		return bad(l, "\"in\" must be a non-empty list");
	if (cJSON_IsString(v->child))
		return add_group(l, v, window ? (max_lines << 8 | 1) : 0, where);
	int ng = cJSON_GetArraySize(v), k = 0;
	if (window && ng > 255)
		return bad(l, "a multi-line option has more than 255 groups");
	for (const cJSON *g = v->child; g; g = g->next, k++) {
		int rc = add_group(l, g, window ? (k ? -1 : (max_lines << 8 | ng)) : 0, where);
		if (rc)
			return rc;
	}
	return 0;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The suggestion lines of a user's file, joined: shown only from the user's own file. */
static const char *advice_of(struct ld *l, const cJSON *a)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(a, "suggestion_en");
	char buf[1024] = "";
	size_t n = 0;
	for (const cJSON *k = cJSON_IsArray(s) ? s->child : NULL; k; k = k->next)
		if (cJSON_IsString(k) && n < sizeof(buf) - 2)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "",
					      k->valuestring);
	return keep(l, buf);
}

static int add_entity(struct ld *l, const cJSON *e, size_t i)
{
	struct kb_entity *en = &l->o->ent[i];
	if (!cJSON_IsObject(e))
		return bad(l, "not an object");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "attribute");
	const cJSON *rx = cJSON_GetObjectItemCaseSensitive(e, "regex");
	if (rx && !cJSON_IsObject(rx))
		return bad(l, "\"regex\" must be an object");
	en->g0 = (int)l->kb->ngroup;
	int rc = add_groups(l, cJSON_GetObjectItemCaseSensitive(rx, "in"), 0, 0, "regex.in");
	const cJSON *opt = cJSON_GetObjectItemCaseSensitive(rx, "opt");
	for (const cJSON *o = cJSON_IsArray(opt) ? opt->child : NULL; !rc && o; o = o->next) {
		const cJSON *ml = cJSON_GetObjectItemCaseSensitive(o, "max_lines");
		int win = cJSON_IsNumber(ml) && ml->valuedouble >= 1 && ml->valuedouble <= 10000 ?
				  (int)ml->valuedouble : 20;
		rc = add_groups(l, cJSON_GetObjectItemCaseSensitive(o, "all"), 1, win, "opt.all");
		if (!rc)
			rc = add_groups(l, cJSON_GetObjectItemCaseSensitive(o, "in"), 0, 0, "opt.in");
	}
	if (rc)
		return rc;
	en->ng = (int)l->kb->ngroup - en->g0;
	const cJSON *re = cJSON_GetObjectItemCaseSensitive(rx, "regex");
	if (re && (!cJSON_IsString(re) || strlen(re->valuestring) > KB_MAX_NEEDLE))
		return bad(l, "\"regex\".\"regex\" must be a string of at most 1024 bytes");
	en->code = keep(l, l->code);
	en->log = keep(l, str_of(e, "source_file"));
	en->cls = keep(l, str_of(a, "class"));
	en->comp = keep(l, str_of(a, "component"));
	en->mod = keep(l, str_of(a, "module"));
	en->regex = keep(l, re ? re->valuestring : "");
	en->name = keep(l, str_of(a, "cause_en"));
	en->advice = advice_of(l, a);
	if (!en->code || !en->log || !en->cls || !en->comp || !en->mod || !en->regex ||
	    !en->name || !en->advice)
		return -ENOMEM;
	return 0;
}

static int by_code(const void *a, const void *b)
{
	return strcmp((*(const struct kb_entity *const *)a)->code,
		      (*(const struct kb_entity *const *)b)->code);
}

/* Edges name their destination by code: looked up in a sorted index, so that a large file
 * costs n log n, not n squared. */
static int add_edges(struct ld *l, const cJSON *repo)
{
	size_t n = l->kb->nent, i = 0;
	const struct kb_entity **idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		idx[k] = &l->o->ent[k];
	qsort(idx, n, sizeof(*idx), by_code);
	for (const cJSON *e = repo->child; e; e = e->next, i++) {
		const cJSON *rule = cJSON_GetObjectItemCaseSensitive(e, "rule");
		for (const cJSON *r = cJSON_IsArray(rule) ? rule->child : NULL; r; r = r->next) {
			char dst[256];
			snprintf(dst, sizeof(dst), "%s", str_of(r, "dst_code"));
			struct kb_entity key = { .code = dst };
			const struct kb_entity *kp = &key, **hit;
			/* CODE_SUFFIX names one code of the generic entity CODE */
			char *us;
			while (!(hit = bsearch(&kp, idx, n, sizeof(*idx), by_code)) &&
			       (us = strrchr(dst, '_')))
				*us = '\0';
			if (!hit) /* an edge to an entity the file lacks */
				continue;
			if (grow(&l->o->edge, &l->o->capedge, l->kb->nedge, sizeof(struct kb_edge))) {
				free(idx);
				return -ENOMEM;
			}
			l->o->edge[l->kb->nedge++] =
				(struct kb_edge){ (int)i, (int)(*hit - l->o->ent) };
		}
	}
	free(idx);
	l->kb->edge = l->o->edge;
	return 0;
}

static void own_free(struct own *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nstr; i++)
		free(o->str[i]);
	free(o->str);
	free(o->needle);
	free(o->group);
	free(o->ent);
	free(o->edge);
	free(o);
}

void kb_free(struct kb *kb)
{
	if (!kb)
		return;
	kb__unindex(kb);
	own_free(kb->own);
	free(kb);
}

int kb_load_json(const char *name, const char *buf, size_t len, struct kb **out, char *err,
		 size_t errlen)
{
	*out = NULL;
	if (len > KB_MAX_BYTES) {
		snprintf(err, errlen, "%s: %zu bytes, more than a knowledge base has (%u MiB)", name,
			 len, KB_MAX_BYTES >> 20);
		return -EINVAL;
	}
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	const cJSON *repo = cJSON_GetObjectItemCaseSensitive(doc, "knowledge-repository");
	if (!cJSON_IsObject(repo) || !repo->child) {
		snprintf(err, errlen, "%s: %s", name,
			 doc ? "no \"knowledge-repository\" object with entities (not an ascend-fd "
			       "kg-config.json)" : "not JSON");
		cJSON_Delete(doc);
		return -EINVAL;
	}
	struct kb *kb = calloc(1, sizeof(*kb));
	struct own *o = calloc(1, sizeof(*o));
	size_t n = (size_t)cJSON_GetArraySize(repo);
	int rc = -ENOMEM;
	if (!kb || !o || n > KB_MAX_ENTITIES || !(o->ent = calloc(n, sizeof(*o->ent)))) {
		if (n > KB_MAX_ENTITIES)
			snprintf(err, errlen, "%s: %zu entities, more than %d", name, n,
				 KB_MAX_ENTITIES);
		else
			snprintf(err, errlen, "%s: out of memory", name);
		rc = n > KB_MAX_ENTITIES ? -EINVAL : -ENOMEM;
		free(kb);
		own_free(o);
		cJSON_Delete(doc);
		return rc;
	}
	kb->own = o;
	kb->ent = o->ent;
	kb->nent = n;
	struct ld l = { kb, o, name, "", err, errlen };
	size_t i = 0;
	rc = 0;
	for (const cJSON *e = repo->child; !rc && e; e = e->next, i++) {
		l.code = e->string ? e->string : "";
		rc = add_entity(&l, e, i);
	}
	if (!rc)
		rc = add_edges(&l, repo);
	kb->source = keep(&l, name);
	if (!rc && !kb->source)
		rc = -ENOMEM;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (!rc)
		rc = kb__index(kb, err, errlen);
	cJSON_Delete(doc);
	if (rc) {
		kb_free(kb);
		return rc;
	}
	*out = kb;
	return 0;
}
