/* The plural of a counted word in messages: "1 warning", "2 warnings", "0 files". Part of
 * the base every layer may use. */
#ifndef HCCLCTL_BASE_PLURAL_H
#define HCCLCTL_BASE_PLURAL_H

static inline const char *plural_s(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

#endif
