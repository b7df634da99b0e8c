/* A C string as the span the log readers take: for the tests that feed them literal lines. */
#ifndef HCCLCTL_TESTS_UNIT_SPAN_H
#define HCCLCTL_TESTS_UNIT_SPAN_H

#include <string.h>

#include "probes/tool/ptext.h"

static inline struct pspan span(const char *s)
{
	return (struct pspan){s, strlen(s)};
}

#endif
