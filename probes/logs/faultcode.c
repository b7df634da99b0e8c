/* Fault-code tables: the built-in one and faultCode.json files. The device plugin's file has
 * quirks every reader must survive, all seen in real versions: a code listed twice in one
 * class, a code in two classes (the most severe class wins, as the plugin's own lookup
 * checks the severe classes first), 9-digit codes, codes with leading zeros (so codes stay
 * strings), and hex in either case. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "probes/logs/faultcode.h"

static const char *const class_names[FC_NCLASSES] = {
	[FC_NOT_HANDLE] = "NotHandle",		[FC_SUB_HEALTH] = "SubHealth",
	[FC_RESTART_REQUEST] = "RestartRequest", [FC_RESTART_BUSINESS] = "RestartBusiness",
	[FC_FREE_RESTART_NPU] = "FreeRestartNPU", [FC_RESTART_NPU] = "RestartNPU",
	[FC_PRE_SEPARATE_NPU] = "PreSeparateNPU", [FC_SEPARATE_NPU] = "SeparateNPU",
};

const char *fc_class_name(enum fc_class c)
{
	return (unsigned)c < FC_NCLASSES ? class_names[c] : "?";
}

int fc_code_normalize(const char *in, size_t n, char *out, size_t outlen)
{
	while (n && (*in == ' ' || *in == '\t')) {
		in++;
		n--;
	}
	while (n && (in[n - 1] == ' ' || in[n - 1] == '\t' || in[n - 1] == '\r'))
		n--;
	if (n > 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X')) {
		in += 2;
		n -= 2;
	}
	if (!n || n >= FC_CODE_LEN || n >= outlen)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char c = in[i];
		if (c >= 'a' && c <= 'f')
			c = (char)(c - 'a' + 'A');
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')))
			return -EINVAL;
		out[i] = c;
	}
	out[n] = '\0';
	return 0;
}

static void count_classes(struct fc_table *t)
{
	memset(t->ncount, 0, sizeof(t->ncount));
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].cls < FC_NCLASSES)
			t->ncount[t->v[i].cls]++;
}

void fc_table_builtin(struct fc_table *t)
{
	memset(t, 0, sizeof(*t));
	t->v = fc_builtin_entries;
	t->n = fc_builtin_count;
	snprintf(t->source, sizeof(t->source), "%s", fc_builtin_source);
	count_classes(t);
}

void fc_table_release(struct fc_table *t)
{
	if (!t)
		return;
	free(t->owned);
	memset(t, 0, sizeof(*t));
}

/* The class a key of the file names: the longest class name it starts with, so that
 * "PreSeparateNPUCodes" is not taken for "SeparateNPU..." nor "FreeRestartNPUCodes" for
 * "RestartNPU...". -1 for other keys. */
static int key_class(const char *key)
{
	int best = -1;
	size_t bl = 0;
	for (int c = 0; c < FC_NCLASSES; c++) {
		size_t n = strlen(class_names[c]);
		if (n > bl && !strncmp(key, class_names[c], n)) {
			best = c;
			bl = n;
		}
	}
	return best;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct fc_entry *x = a, *y = b;
	int d = strcmp(x->code, y->code);
	return d ? d : (int)y->cls - (int)x->cls; /* the most severe first among equals */
}

int fc_table_load_json(struct fc_table *t, const char *name, const char *buf, size_t len,
		       char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	struct fc_entry *v = NULL;
	size_t n = 0, cap = 0, invalid = 0;
	int rc = 0;
	if (!doc || !cJSON_IsObject(doc)) {
		snprintf(err, errlen, "%s: %s", name, doc ? "not a JSON object" : "not JSON");
		rc = -EINVAL;
		goto out;
	}
	const cJSON *arr;
	cJSON_ArrayForEach(arr, doc)
	{
		int cls = arr->string ? key_class(arr->string) : -1;
		if (cls < 0 || !cJSON_IsArray(arr))
			continue;
		const cJSON *x;
		cJSON_ArrayForEach(x, arr)
		{
			struct fc_entry e = { .cls = (unsigned char)cls };
			if (!cJSON_IsString(x) ||
			    fc_code_normalize(x->valuestring, strlen(x->valuestring), e.code,
					      sizeof(e.code))) {
				invalid++;
				continue;
			}
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 256;
				struct fc_entry *nv = realloc(v, nc * sizeof(*nv));
				if (!nv) {
					snprintf(err, errlen, "%s: out of memory", name);
					rc = -ENOMEM;
					goto out;
				}
				v = nv;
				cap = nc;
			}
			v[n++] = e;
		}
	}
	if (!n) {
		snprintf(err, errlen,
			 "%s: no fault code under a known class key (e.g. RestartNPUCodes)", name);
		rc = -EINVAL;
		goto out;
	}
	qsort(v, n, sizeof(*v), cmp_entry);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(v[i - 1].code, v[i].code)) {
			if (v[i - 1].cls == v[i].cls)
				t->duplicates++;
			else
				t->conflicts++;
			continue; /* sorted most severe first: the kept one is the most severe */
		}
		v[k++] = v[i];
	}
	t->v = v;
	t->n = k;
	t->owned = v;
	t->invalid = invalid;
	v = NULL;
	snprintf(t->source, sizeof(t->source), "%s", name);
	count_classes(t);
out:
	free(v);
	cJSON_Delete(doc);
	return rc;
}

int fc_lookup(const struct fc_table *t, const char *code)
{
	struct fc_entry key = { 0 };
	if (fc_code_normalize(code, strlen(code), key.code, sizeof(key.code)))
		return -EINVAL;
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(key.code, t->v[mid].code);
		if (!d)
			return t->v[mid].cls;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -ENOENT;
}
