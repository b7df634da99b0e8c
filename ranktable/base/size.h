/* Sizes as people write them. Part of the base every layer may use. */
#ifndef HCCLCTL_BASE_SIZE_H
#define HCCLCTL_BASE_SIZE_H

/* "1048576", "64K", "8M", "2G" (k, m, g too) into bytes. 0, or -EINVAL for anything else
 * (a sign, a fraction, another suffix, a value that overflows). */
int parse_size(const char *s, unsigned long long *out);

#endif
