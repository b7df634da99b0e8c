/* Writing to a descriptor. Part of the base every layer may use. */
#ifndef HCCLCTL_BASE_IO_H
#define HCCLCTL_BASE_IO_H

#include <stddef.h>

/* Writes all n bytes of buf to fd, again after a short write or EINTR: 0, or -errno when
 * the write failed (-EPIPE: the reader is gone); errno is left set. */
int fd_write_all(int fd, const void *buf, size_t n);

#endif
