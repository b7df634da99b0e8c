/* The monotonic clock, for deadlines and durations: it never jumps when the wall clock is
 * set. Part of the base every layer may use. */
#ifndef HCCLCTL_BASE_CLOCK_H
#define HCCLCTL_BASE_CLOCK_H

#include <stdint.h>

/* Milliseconds, nanoseconds and seconds since an arbitrary start (CLOCK_MONOTONIC). */
int64_t mono_ms(void);
int64_t mono_ns(void);
double mono_s(void);

#endif
