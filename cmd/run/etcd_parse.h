/* etcd v3 JSON gateway answers (cmd/run/etcd_parse.c): base64, int64 strings, range and txn
 * responses. Functions return 0 or a negative errno (-EBADMSG for a bad answer, with err
 * naming the JSON path; -ENOMEM). */
#ifndef HCCLCTL_PROBES_ETCDJSON_H
#define HCCLCTL_PROBES_ETCDJSON_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

struct etcdj_kv {
	char *key, *value;
	size_t value_len;
	int64_t create_rev, mod_rev, lease;
};
void etcdj_kv_release(struct etcdj_kv *k);
/* base64 of s[0..n) / its decoding (NUL-terminated, *outlen bytes; NULL with *bad the offset
 * of the first bad character). Both malloc'd, the caller's. */
char *etcdj_b64_encode(const char *s, size_t n);
char *etcdj_b64_decode(const char *s, size_t *outlen, size_t *bad);
/* o.name as an int64 (a number or a decimal string; absent: 0). */
int etcdj_i64(const cJSON *o, const char *name, const char *path, int64_t *v, char *err,
	      size_t errlen);
/* o.name base64-decoded into *out (the caller's; absent: ""). */
int etcdj_b64(const cJSON *o, const char *name, const char *path, char **out, size_t *len,
	      char *err, size_t errlen);
/* A range answer: its count, and its first kv into *first (when not NULL; release it). */
int etcdj_range_kvs(const cJSON *r, const char *path, struct etcdj_kv *first, int64_t *count,
		    char *err, size_t errlen);
/* The i-th response of a txn answer, of kind ("response_range", ...); NULL, with err. */
const cJSON *etcdj_txn_resp(const cJSON *t, int i, const char *kind, char *path, size_t plen,
			    char *err, size_t errlen);

#endif
