/* CANN's version.info, the file at the top of an install (…/ascend-toolkit/latest/, a
 * runtime or driver directory): "key=value" lines, the version under "Version" (the
 * toolkit's install info writes "version"). */
#ifndef HCCLCTL_PROBES_CANNVER_H
#define HCCLCTL_PROBES_CANNVER_H

#include <stddef.h>

/* The first version line's value of buf (len bytes, need not be NUL-terminated) in
 * out[outlen]. 0; -ENOENT when no line has a version; -EINVAL when the first one's value is
 * empty, longer than 63 bytes or holds a byte outside [A-Za-z0-9._-] (err: "LINE:COL: why"). */
int cann_version_parse(const char *buf, size_t len, char *out, size_t outlen, char *err,
		       size_t errlen);

#endif
