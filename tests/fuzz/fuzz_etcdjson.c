/* Fuzzes the etcd answer readers: any bytes, parsed as JSON, go through the range and txn
 * readers and the base64 decoder; a reader either accepts or names the path, and what it
 * accepts stays in bounds. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/etcd_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512], path[128];
	/* the raw bytes as a base64 string, NUL-terminated */
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	size_t len = 0, bad = 0;
	char *d = etcdj_b64_decode(s, &len, &bad);
	if (d) {
		assert(len <= size);
		char *e = etcdj_b64_encode(d, len);
		free(e);
		free(d);
	} else {
		assert(bad <= size);
	}
	free(s);

	cJSON *j = cJSON_ParseWithLength((const char *)data, size);
	if (!j)
		return 0;
	struct etcdj_kv kv;
	int64_t count = 0;
	int rc = etcdj_range_kvs(j, "$", &kv, &count, err, sizeof(err));
	assert(rc == 0 || rc == -EBADMSG || rc == -ENOMEM);
	if (rc == 0) {
		assert(kv.key || !cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "kvs")) ||
		       !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "kvs")));
		etcdj_kv_release(&kv);
	} else {
		assert(strncmp(err, "etcd: answer: $", 15) == 0);
	}
	for (int i = 0; i < 3; i++) {
		const cJSON *r = etcdj_txn_resp(j, i, "response_range", path, sizeof(path), err,
						sizeof(err));
		if (r && etcdj_range_kvs(r, path, &kv, &count, err, sizeof(err)) == 0)
			etcdj_kv_release(&kv);
	}
	cJSON_Delete(j);
	return 0;
}
