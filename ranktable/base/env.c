#include <stdlib.h>

#include "ranktable/base/env.h"

long env_seconds(const char *name, long deflt)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return deflt;
	long n = strtol(v, &end, 10);
	return *end || n < 1 || n > ENV_SECONDS_MAX ? -1 : n;
}
