/* CANN's version files: version.info at the top of a runtime or driver directory
 * ("Version=8.0.0"), the toolkit's <arch>-linux/ascend_toolkit_install.info
 * ("version=8.0.RC3"), and version.cfg at the top of the toolkit
 * ("hccl_running_version=[7.5.0.1.129:8.0.RC3]", inner version before the colon, CANN's
 * after it). "key=value" lines. */
#ifndef HCCLCTL_PROBES_CANNVER_H
#define HCCLCTL_PROBES_CANNVER_H

#include <stddef.h>

/* The version of buf (len bytes, need not be NUL-terminated) in out[outlen]: the first
 * "version=" line's value, else the part after the colon of the first
 * "hccl_running_version=[...]", else of "runtime_running_version=[...]". 0; -ENOENT when no
 * line has a version; -EINVAL when the value taken is empty, longer than 63 bytes or holds a
 * byte outside [A-Za-z0-9._-], or a bracketed value is not closed (err: "LINE:COL: why"). */
int cann_version_parse(const char *buf, size_t len, char *out, size_t outlen, char *err,
		       size_t errlen);

#endif
