/* libhccl stand-in: the fault knobs, read once per communicator at init. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/stub/hccl_internal.h"

/* name's value as a whole number, or def when unset; -1 when it is not a number. */
static int num(const char *name, long def, long *out, char *why, size_t whylen)
{
	const char *v = getenv(name);
	char *end;

	*out = def;
	if (!v || !*v)
		return 0;
	*out = strtol(v, &end, 10);
	if (*end || *out < 0) {
		snprintf(why, whylen, "%s='%s' is not a number of 0 or more", name, v);
		return -1;
	}
	return 0;
}

HcclResult stubhccl_fault_read(struct stub_fault *f, char *why, size_t whylen)
{
	const char *hang = getenv("HCCL_STUB_HANG");
	long init_code, error_code, async;

	if (num("HCCL_STUB_INIT_FAIL_RANK", -1, &f->init_fail_rank, why, whylen) ||
	    num("HCCL_STUB_INIT_CODE", HCCL_E_INTERNAL, &init_code, why, whylen) ||
	    num("HCCL_STUB_ERROR_RANK", -1, &f->error_rank, why, whylen) ||
	    num("HCCL_STUB_ERROR_CODE", HCCL_E_INTERNAL, &error_code, why, whylen) ||
	    num("HCCL_STUB_ERROR_ASYNC", 0, &async, why, whylen) ||
	    num("HCCL_STUB_HANG_RANK", -1, &f->hang_rank, why, whylen) ||
	    num("HCCL_STUB_CORRUPT_RANK", -1, &f->corrupt_rank, why, whylen) ||
	    num("HCCL_STUB_CORRUPT_INDEX", 0, &f->corrupt_index, why, whylen) ||
	    num("HCCL_STUB_AT", 1, &f->at, why, whylen))
		return HCCL_E_PARA;
	if (init_code == 0 || init_code >= HCCL_E_RESERVED || error_code == 0 ||
	    error_code >= HCCL_E_RESERVED) {
		snprintf(why, whylen, "HCCL_STUB_INIT_CODE and HCCL_STUB_ERROR_CODE take 1..%d",
			 HCCL_E_RESERVED - 1);
		return HCCL_E_PARA;
	}
	if (f->at == 0) {
		snprintf(why, whylen, "HCCL_STUB_AT counts from 1");
		return HCCL_E_PARA;
	}
	if (hang && *hang && strcmp(hang, "after") && strcmp(hang, "before")) {
		snprintf(why, whylen, "HCCL_STUB_HANG='%s' is not after or before", hang);
		return HCCL_E_PARA;
	}
	f->init_code = (int)init_code;
	f->error_code = (int)error_code;
	f->error_async = async != 0;
	f->hang_before = hang && strcmp(hang, "before") == 0;
	return HCCL_SUCCESS;
}
