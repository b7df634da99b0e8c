#include <stdlib.h>

#include "ranktable/base/env.h"

long env_whole(const char *name, long deflt, long lo, long hi)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return deflt;
	long n = strtol(v, &end, 10);
	return *end || n < lo || n > hi ? -1 : n;
}

long env_seconds(const char *name, long deflt)
{
	return env_whole(name, deflt, 1, ENV_SECONDS_MAX);
}
