/* Fuzzes fc_table_load_json and fc_lookup: any bytes give 0, -EINVAL or -ENOMEM; a table
 * that loads is sorted, each code once, each a code, and every code looks up to its class. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "probes/logs/faultcode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fc_table t;
	char err[256], code[FC_CODE_LEN];
	int rc = fc_table_load_json(&t, "fuzz", (const char *)data, size, err, sizeof(err));
	assert(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	if (rc == 0) {
		size_t sum = 0;
		assert(t.n >= 1);
		for (size_t i = 0; i < t.n; i++) {
			assert(t.v[i].cls < FC_NCLASSES);
			assert(strspn(t.v[i].code, "0123456789ABCDEF") == strlen(t.v[i].code));
			assert(!i || strcmp(t.v[i - 1].code, t.v[i].code) < 0);
			assert(fc_lookup(&t, t.v[i].code) == t.v[i].cls);
		}
		for (int c = 0; c < FC_NCLASSES; c++)
			sum += t.ncount[c];
		assert(sum == t.n);
		fc_table_release(&t);
	}
	/* the input as one code */
	rc = fc_code_normalize((const char *)data, size, code, sizeof(code));
	assert(rc == 0 || rc == -EINVAL);
	if (rc == 0) {
		fc_table_builtin(&t);
		int cls = fc_lookup(&t, code);
		assert(cls == -ENOENT || (cls >= 0 && cls < FC_NCLASSES));
	}
	return 0;
}
