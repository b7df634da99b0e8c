/* The one way hcclctl writes a file: rank tables, Prometheus textfiles, profiles, doctor's
 * HTML and flight-recorder dumps all come here.
 *
 * A reader must only ever see the old file or the whole new one (HCCL re-reads a rank table
 * every second while its status is "initializing"; `hcclctl analyze` may read a dump while a
 * rank rewrites it), so the data goes to a temporary file that is then renamed over the
 * target. The temporary lives in the target's directory because rename(2) is only atomic
 * within one file system, and it is made by mkstemp (O_CREAT|O_EXCL, a random name, mode
 * 0600): in a directory others can write to, such as /tmp, a name they could guess would
 * let them plant a symlink there and make us (root, often) truncate the file it points at.
 * rename(2) replaces a symlink at the target itself, never what it points to. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ranktable/ranktable.h"
#include "ranktable/base/io.h"

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

int rt_atomic_open(struct rt_atomic *a, const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dlen;
	int rc;

	a->fd = -1;
	if (!*base) {
		snprintf(err, errlen, "cannot write '%s': no file name", path);
		return -EISDIR;
	}
	if (!slash) {
		snprintf(a->dir, sizeof(a->dir), ".");
	} else {
		dlen = slash == path ? 1 : (size_t)(slash - path); /* "/x" lives in "/" */
		if (dlen >= sizeof(a->dir)) {
			snprintf(err, errlen, "cannot write '%s': path too long", path);
			return -ENAMETOOLONG;
		}
		memcpy(a->dir, path, dlen);
		a->dir[dlen] = '\0';
	}
	if ((size_t)snprintf(a->path, sizeof(a->path), "%s", path) >= sizeof(a->path) ||
	    (size_t)snprintf(a->tmp, sizeof(a->tmp), "%s/.%s.XXXXXX", a->dir, base) >=
		    sizeof(a->tmp)) {
		snprintf(err, errlen, "cannot write '%s': path too long", path);
		return -ENAMETOOLONG;
	}
	a->fd = mkostemp(a->tmp, O_CLOEXEC);
	if (a->fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a temporary file in '%s': %s", a->dir,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

void rt_atomic_abort(struct rt_atomic *a)
{
	if (a->fd < 0)
		return;
	close(a->fd);
	unlink(a->tmp);
	a->fd = -1;
}

int rt_atomic_commit(struct rt_atomic *a, mode_t mode, char *err, size_t errlen)
{
	int rc;

	if (fsync(a->fd) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot sync '%s': %s", a->tmp, strerror(-rc));
		goto fail;
	}
	if (fchmod(a->fd, mode) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot chmod '%s': %s", a->tmp, strerror(-rc));
		goto fail;
	}
	rc = close(a->fd) ? -errno : 0;
	a->fd = -1;
	if (rc) {
		snprintf(err, errlen, "cannot write '%s': %s", a->tmp, strerror(-rc));
		unlink(a->tmp);
		return rc;
	}
	if (rename(a->tmp, a->path) != 0) {
		rc = -errno;
		if (rc == -EISDIR) /* the name of a directory where a file's belongs */
			snprintf(err, errlen, "'%s' is a directory, not a file", a->path);
		else
			snprintf(err, errlen, "cannot rename '%s' to '%s': %s", a->tmp, a->path,
				 strerror(-rc));
		unlink(a->tmp);
		return rc;
	}
	sync_dir(a->dir);
	return 0;

fail:
	rt_atomic_abort(a);
	return rc;
}

int rt_atomic_write(struct rt_atomic *a, const void *data, size_t len, char *err, size_t errlen)
{
	int rc = fd_write_all(a->fd, data, len);

	if (rc)
		snprintf(err, errlen, "cannot write '%s': %s", a->tmp, strerror(-rc));
	return rc;
}

int rt_write_atomic_mode(const char *path, const char *data, size_t len, mode_t mode,
			 char *err, size_t errlen)
{
	struct rt_atomic a;
	int rc = rt_atomic_open(&a, path, err, errlen);

	if (rc)
		return rc;
	rc = rt_atomic_write(&a, data, len, err, errlen);
	if (rc) {
		rt_atomic_abort(&a);
		return rc;
	}
	return rt_atomic_commit(&a, mode, err, errlen);
}

/* mkstemp creates 0600; a rank table is read by every training process. */
int rt_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	return rt_write_atomic_mode(path, data, len, 0644, err, errlen);
}
