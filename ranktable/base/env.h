/* Settings read from the environment. Part of the base every layer may use. */
#ifndef HCCLCTL_BASE_ENV_H
#define HCCLCTL_BASE_ENV_H

#define ENV_SECONDS_MAX 86400 /* a day: a longer timeout is a typo */

/* A whole number from variable name: deflt when it is unset or empty, -1 when it is not a
 * decimal number in lo..hi (lo >= 0; the caller names the variable and the range). */
long env_whole(const char *name, long deflt, long lo, long hi);
/* The same in 1..ENV_SECONDS_MAX, a number of seconds. */
long env_seconds(const char *name, long deflt);

#endif
