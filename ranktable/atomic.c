/* Atomic file replacement: HCCL re-reads a rank table every second while its status is
 * "initializing", so a reader must only ever see the old file or the whole new one. The
 * temp file lives in the target's directory because rename(2) is only atomic within one
 * file system. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ranktable/ranktable.h"

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The directory entry itself must reach the disk too, or a crash can undo the rename.
 * Best effort: some file systems refuse fsync on a directory. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	(void)fsync(fd);
	close(fd);
}

int rt_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dlen;
	int fd, rc;

	if (!*base) {
		snprintf(err, errlen, "cannot write '%s': no file name", path);
		return -EISDIR;
	}
	if (!slash) {
		snprintf(dir, sizeof(dir), ".");
	} else {
		dlen = slash == path ? 1 : (size_t)(slash - path); /* "/x" lives in "/" */
		if (dlen >= sizeof(dir)) {
			snprintf(err, errlen, "cannot write '%s': path too long", path);
			return -ENAMETOOLONG;
		}
		memcpy(dir, path, dlen);
		dir[dlen] = '\0';
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >= sizeof(tmp)) {
		snprintf(err, errlen, "cannot write '%s': path too long", path);
		return -ENAMETOOLONG;
	}

	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a temporary file in '%s': %s", dir,
			 strerror(-rc));
		return rc;
	}
	rc = write_all(fd, data, len);
	if (rc) {
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(-rc));
		goto fail_close;
	}
	if (fsync(fd) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot sync '%s': %s", tmp, strerror(-rc));
		goto fail_close;
	}
	/* mkstemp creates 0600; a rank table is read by every training process. */
	if (fchmod(fd, 0644) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot chmod '%s': %s", tmp, strerror(-rc));
		goto fail_close;
	}
	if (close(fd) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(-rc));
		goto fail_unlink;
	}
	if (rename(tmp, path) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path, strerror(-rc));
		goto fail_unlink;
	}
	sync_dir(dir);
	return 0;

fail_close:
	close(fd);
fail_unlink:
	unlink(tmp);
	return rc;
}
