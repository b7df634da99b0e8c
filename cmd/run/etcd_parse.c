/* etcd's v3 JSON gateway answers, as `run --rendezvous etcd://` reads them: base64 keys and
 * values, int64 fields written as decimal strings, range and txn answers. Outside input: every
 * field is type-checked and a bad one named by its JSON path ("etcd: answer: $.kvs[0].value:
 * not base64 at character 3"). Never prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/etcd_parse.h"

/* ---- base64, as etcd's JSON carries keys and values ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *etcdj_b64_encode(const char *s, size_t n)
{
	char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)s[i] << 16;
		if (i + 1 < n)
			v |= (unsigned char)s[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)s[i + 2];
		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		*o++ = i + 2 < n ? b64[v & 63] : '=';
	}
	*o = 0;
	return out;
}

/* Strict: length a multiple of 4, padding only at the end. NULL when s is not base64
 * (*bad: the offset of the first wrong character). */
char *etcdj_b64_decode(const char *s, size_t *outlen, size_t *bad)
{
	size_t n = strlen(s);
	*bad = n;
	if (n % 4)
		return NULL;
	char *out = malloc(n / 4 * 3 + 1);
	size_t k = 0;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 4) {
		unsigned v = 0;
		int pad = 0;
		for (int j = 0; j < 4; j++) {
			const char *p = s[i + j] ? strchr(b64, s[i + j]) : NULL;
			if (s[i + j] == '=' && i + 4 == n && j >= 2 && (j == 3 || s[i + 3] == '=')) {
				pad++;
				v <<= 6;
				continue;
			}
			if (!p || pad) {
				*bad = i + (size_t)j;
				free(out);
				return NULL;
			}
			v = v << 6 | (unsigned)(p - b64);
		}
		out[k++] = (char)(v >> 16);
		if (pad < 2)
			out[k++] = (char)(v >> 8);
		if (pad < 1)
			out[k++] = (char)v;
	}
	out[k] = 0;
	*outlen = k;
	return out;
}

/* ---- etcd's answers ---- */

/* An int64 field, which etcd's JSON writes as a decimal string (absent: 0, proto3's
 * default). 0, or -EBADMSG with err naming the path. */
int etcdj_i64(const cJSON *o, const char *name, const char *path, int64_t *v, char *err,
		   size_t errlen)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
	*v = 0;
	if (!x)
		return 0;
	/* in range before the cast: a double beyond int64 does not convert (found by fuzzing) */
	if (cJSON_IsNumber(x) && x->valuedouble >= -9.2e18 && x->valuedouble <= 9.2e18 &&
	    x->valuedouble == (double)(int64_t)x->valuedouble) {
		*v = (int64_t)x->valuedouble;
		return 0;
	}
	if (cJSON_IsString(x)) {
		char *end;
		errno = 0;
		long long n = strtoll(x->valuestring, &end, 10);
		if (*x->valuestring && !*end && !errno) {
			*v = n;
			return 0;
		}
	}
	snprintf(err, errlen, "etcd: answer: %s.%s: expected an integer, got %s", path, name,
		 cJSON_IsString(x) ? x->valuestring : "another type");
	return -EBADMSG;
}


void etcdj_kv_release(struct etcdj_kv *k)
{
	free(k->key);
	free(k->value);
	memset(k, 0, sizeof(*k));
}

int etcdj_b64(const cJSON *o, const char *name, const char *path, char **out, size_t *len,
		   char *err, size_t errlen)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
	size_t bad, l;
	*out = NULL;
	if (!x) { /* proto3 leaves out empty values */
		*out = calloc(1, 1);
		if (len)
			*len = 0;
		return *out ? 0 : -ENOMEM;
	}
	if (!cJSON_IsString(x)) {
		snprintf(err, errlen, "etcd: answer: %s.%s: expected a base64 string", path, name);
		return -EBADMSG;
	}
	*out = etcdj_b64_decode(x->valuestring, &l, &bad);
	if (!*out) {
		snprintf(err, errlen, "etcd: answer: %s.%s: not base64 at character %zu", path,
			 name, bad);
		return -EBADMSG;
	}
	if (len)
		*len = l;
	return 0;
}

/* The kvs of a range answer r (at path): at most max, the first one's in *first (when not
 * NULL), their number in *n. */
int etcdj_range_kvs(const cJSON *r, const char *path, struct etcdj_kv *first, int64_t *count,
		     char *err, size_t errlen)
{
	const cJSON *kvs = cJSON_GetObjectItemCaseSensitive(r, "kvs");
	char p[128];
	int rc = etcdj_i64(r, "count", path, count, err, errlen);
	if (rc)
		return rc;
	if (first)
		memset(first, 0, sizeof(*first));
	if (!kvs)
		return 0;
	if (!cJSON_IsArray(kvs)) {
		snprintf(err, errlen, "etcd: answer: %s.kvs: expected an array", path);
		return -EBADMSG;
	}
	if (!first || !cJSON_GetArraySize(kvs))
		return 0;
	const cJSON *k = cJSON_GetArrayItem(kvs, 0);
	snprintf(p, sizeof(p), "%s.kvs[0]", path);
	if (!cJSON_IsObject(k)) {
		snprintf(err, errlen, "etcd: answer: %s: expected an object", p);
		return -EBADMSG;
	}
	if ((rc = etcdj_b64(k, "key", p, &first->key, NULL, err, errlen)) ||
	    (rc = etcdj_b64(k, "value", p, &first->value, &first->value_len, err, errlen)) ||
	    (rc = etcdj_i64(k, "create_revision", p, &first->create_rev, err, errlen)) ||
	    (rc = etcdj_i64(k, "mod_revision", p, &first->mod_rev, err, errlen)) ||
	    (rc = etcdj_i64(k, "lease", p, &first->lease, err, errlen))) {
		etcdj_kv_release(first);
		return rc;
	}
	return 0;
}

/* The i-th response of a txn answer, of kind ("response_range", "response_put"). */
const cJSON *etcdj_txn_resp(const cJSON *t, int i, const char *kind, char *path, size_t plen,
			     char *err, size_t errlen)
{
	const cJSON *rs = cJSON_GetObjectItemCaseSensitive(t, "responses");
	const cJSON *r = cJSON_IsArray(rs) ? cJSON_GetArrayItem(rs, i) : NULL;
	const cJSON *x = r ? cJSON_GetObjectItemCaseSensitive(r, kind) : NULL;
	snprintf(path, plen, "$.responses[%d].%s", i, kind);
	if (!cJSON_IsObject(x)) {
		snprintf(err, errlen, "etcd: answer: %s: missing", path);
		return NULL;
	}
	return x;
}

