#include <errno.h>
#include <unistd.h>

#include "ranktable/base/io.h"

int fd_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w) /* write(2) makes no progress only on a broken descriptor */
				errno = EIO;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
