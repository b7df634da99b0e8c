/* A rank table file as the commands share it. */
#ifndef HCCLCTL_TABLEFILE_H
#define HCCLCTL_TABLEFILE_H

#include <stddef.h>

struct rt_table;

/* The rank table at path (FILE, URL or -) into t, which the caller releases (also on
 * failure). 0, -ENOENT when it cannot be read, or another negative code; err says why. */
int table_file_load(const char *path, struct rt_table *t, char *err, size_t errlen);
/* The digest of the rank table at path (FILE, URL or -) as rt_table_digest gives it.
 * 0, -ENOENT when it cannot be read, or another negative code; err says why. */
int table_file_digest(const char *path, char out[17], char *err, size_t errlen);

#endif
