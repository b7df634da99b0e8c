/* Functions that overflow or keep hidden state; use snprintf, strlcpy-like helpers and
 * strtok_r instead. Included into every file by the Makefile. */
#ifndef HCCLCTL_BASE_BANNED_H
#define HCCLCTL_BASE_BANNED_H
/* The system declarations come first, so the macros below only catch our own calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BANNED(f) sorry_##f##_is_banned
#undef strcpy
#define strcpy(a, b) BANNED(strcpy)
#undef strcat
#define strcat(a, b) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(a, b) BANNED(strtok)
#endif
