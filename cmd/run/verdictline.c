/* Verdict kinds by name, and a verdict line read back: the SSH launcher takes the verdict a
 * rank printed when the ranks reached it among themselves (--engine hccl), not libcomm's
 * monitor. Apart from verdict.c so that the parser's fuzz target needs libcomm only. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/run/run.h"

const char *run_verdict_kind_name(int kind)
{
	return kind == RUN_VERDICT_HCCL_ERROR	 ? "hccl-error"
	       : kind == RUN_VERDICT_UNREACHABLE ? "unreachable"
						 : comm_verdict_kind_name(kind);
}

int run_verdict_parse(const char *text, size_t len, struct comm_verdict *v)
{
	static const char mark[] = "hcclctl: verdict: ";
	for (size_t at = 0; at < len;) {
		const char *l = text + at, *nl = memchr(l, '\n', len - at);
		size_t n = nl ? (size_t)(nl - l) : len - at;
		at += n + (nl ? 1 : 0);
		if (n <= sizeof(mark) - 1 || memcmp(l, mark, sizeof(mark) - 1))
			continue;
		const char *k = l + sizeof(mark) - 1, *end = l + n;
		for (int kind = COMM_VERDICT_NONE + 1; kind <= RUN_VERDICT_UNREACHABLE; kind++) {
			const char *name = run_verdict_kind_name(kind);
			size_t kl = strlen(name);
			if ((size_t)(end - k) < kl + 2 || memcmp(k, name, kl) || memcmp(k + kl, ": ", 2))
				continue;
			const char *m = k + kl + 2;
			*v = (struct comm_verdict){ .kind = kind, .rank = -1, .link_from = -1,
						    .link_to = -1, .coll = -1, .step = -1,
						    .waiter = -1, .peer = -1 };
			snprintf(v->msg, sizeof(v->msg), "%.*s", (int)(end - m), m);
			int r = -1, used = 0;
			if (sscanf(v->msg, "rank %d%n", &r, &used) == 1 && used > 5 && r >= 0)
				v->rank = r;
			return 0;
		}
	}
	return -ENOENT;
}
