/* Fuzzes doctor --merge's reader: any bytes are one or more reports or an error that names
 * the input and a line; every node read has a name and a document with a checks array. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cmd/doctor/report_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reader takes its checks from the command's table; here any "group.name" is one, so
 * that both a known and an unknown code are reached. */
static int code_index(const char *code)
{
	return strchr(code, '.') ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doctor_merged m = { .code_index = code_index };
	char err[512] = "";
	int rc = doctor_merge_parse(&m, "in", (const char *)data, size, err, sizeof(err));
	assert(rc == 0 || rc == -EBADMSG || rc == -EEXIST || rc == -ENODATA || rc == -ENOMEM);
	if (rc == -EBADMSG)
		assert(!strncmp(err, "in: line ", 9));
	else if (rc)
		assert(!strncmp(err, "in: ", 4) || rc == -ENOMEM);
	for (size_t i = 0; i < m.n; i++) {
		assert(m.v[i].name && *m.v[i].name);
		assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(m.v[i].doc, "checks")));
	}
	doctor_merged_release(&m);
	return 0;
}
