/* One file put on a host over SFTP, on a session ssh.c opened. Non-blocking like the rest of
 * ssh.c: every libssh2 call that says EAGAIN waits on the socket with the caller's deadline.
 * The file is written under a temporary name and renamed into place, because many launchers
 * (and the ranks of one of them) may put the same binary into the same cache at once and
 * one of them may already be running it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libssh2.h>
#include <libssh2_sftp.h>

#include "cmd/lib/ssh.h"

#define CHUNK (256 * 1024) /* libssh2 splits writes into 32 KiB packets; larger calls pipeline */

static const char *sftp_why(struct ssh_conn *c, LIBSSH2_SFTP *sftp, char *buf, size_t len)
{
	unsigned long e = sftp ? libssh2_sftp_last_error(sftp) : 0;
	if (e == LIBSSH2_FX_NO_SUCH_FILE || e == LIBSSH2_FX_NO_SUCH_PATH)
		return "no such directory";
	if (e == LIBSSH2_FX_PERMISSION_DENIED)
		return "permission denied";
	if (e == LIBSSH2_FX_NO_SPACE_ON_FILESYSTEM || e == LIBSSH2_FX_QUOTA_EXCEEDED)
		return "no space left";
	if (e)
		snprintf(buf, len, "SFTP status %lu", e);
	else
		snprintf(buf, len, "%s", ssh_conn_error(c));
	return buf;
}

static int open_sftp(struct ssh_conn *c, LIBSSH2_SFTP **out, long long deadline, char *err,
		     size_t errlen)
{
	LIBSSH2_SESSION *s = c->sess;
	for (;;) {
		*out = libssh2_sftp_init(s);
		if (*out)
			return 0;
		if (libssh2_session_last_errno(s) != LIBSSH2_ERROR_EAGAIN)
			break;
		int w = ssh_conn_wait(c, deadline);
		if (w) {
			snprintf(err, errlen, "%s: starting SFTP: %s", c->host,
				 w == -ETIMEDOUT ? "timed out" : "cancelled");
			return w;
		}
	}
	snprintf(err, errlen,
		 "%s: the SFTP subsystem is refused (%s); sshd needs a 'Subsystem sftp' line",
		 c->host, ssh_conn_error(c));
	return -EPROTO;
}

static int write_all(struct ssh_conn *c, LIBSSH2_SFTP_HANDLE *fh, const char *p, size_t len,
		     long long deadline)
{
	size_t off = 0;
	while (off < len) {
		size_t n = len - off < CHUNK ? len - off : CHUNK;
		ssize_t w = libssh2_sftp_write(fh, p + off, n);
		if (w == LIBSSH2_ERROR_EAGAIN) {
			int rc = ssh_conn_wait(c, deadline);
			if (rc)
				return rc;
			continue;
		}
		if (w < 0)
			return -EIO;
		off += (size_t)w;
	}
	return 0;
}

int ssh_sftp_put(struct ssh_conn *c, const char *path, const void *data, size_t len, long mode,
		 long long deadline, char *err, size_t errlen)
{
	LIBSSH2_SFTP *sftp = NULL;
	LIBSSH2_SFTP_HANDLE *fh = NULL;
	char tmp[1024], why[128];
	struct timespec ts;
	int rc;

	clock_gettime(CLOCK_REALTIME, &ts);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld.%ld", path, (long)getpid(), ts.tv_nsec) >=
	    sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long: %.200s", c->host, path);
		return -ENAMETOOLONG;
	}
	rc = open_sftp(c, &sftp, deadline, err, errlen);
	if (rc)
		return rc;
	for (;;) {
		fh = libssh2_sftp_open_ex(sftp, tmp, (unsigned)strlen(tmp),
					  LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | LIBSSH2_FXF_TRUNC,
					  mode, LIBSSH2_SFTP_OPENFILE);
		if (fh || libssh2_session_last_errno(c->sess) != LIBSSH2_ERROR_EAGAIN)
			break;
		if ((rc = ssh_conn_wait(c, deadline)))
			goto timeout;
	}
	if (!fh) {
		snprintf(err, errlen, "%s: cannot create %s: %s", c->host, tmp,
			 sftp_why(c, sftp, why, sizeof(why)));
		rc = -EIO;
		goto out;
	}
	rc = write_all(c, fh, data, len, deadline);
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto timeout;
	if (rc) {
		snprintf(err, errlen, "%s: writing %s: %s", c->host, tmp,
			 sftp_why(c, sftp, why, sizeof(why)));
		goto out_unlink;
	}
	SSH_RETRY(c, deadline, rc, libssh2_sftp_close_handle(fh));
	fh = NULL;
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto timeout;
	/* SFTP v3 renames fail onto an existing file: a stale or half-checked copy is removed
	 * first (one being run keeps its inode) */
	SSH_RETRY(c, deadline, rc,
		   libssh2_sftp_rename_ex(sftp, tmp, (unsigned)strlen(tmp), path,
					  (unsigned)strlen(path),
					  LIBSSH2_SFTP_RENAME_OVERWRITE | LIBSSH2_SFTP_RENAME_ATOMIC |
						  LIBSSH2_SFTP_RENAME_NATIVE));
	if (rc && rc != -ETIMEDOUT && rc != -ECANCELED) {
		SSH_RETRY(c, deadline, rc, libssh2_sftp_unlink_ex(sftp, path, (unsigned)strlen(path)));
		SSH_RETRY(c, deadline, rc,
			   libssh2_sftp_rename_ex(sftp, tmp, (unsigned)strlen(tmp), path,
						  (unsigned)strlen(path),
						  LIBSSH2_SFTP_RENAME_OVERWRITE |
							  LIBSSH2_SFTP_RENAME_NATIVE));
	}
	if (rc == -ETIMEDOUT || rc == -ECANCELED)
		goto timeout;
	if (rc) {
		snprintf(err, errlen, "%s: cannot rename %s to %s: %s", c->host, tmp, path,
			 sftp_why(c, sftp, why, sizeof(why)));
		rc = -EIO;
		goto out_unlink;
	}
	goto out;

timeout:
	snprintf(err, errlen, "%s: copying to %s: %s", c->host, path,
		 rc == -ECANCELED ? "cancelled" : "timed out");
	goto out; /* the session is in an unknown state: nothing more is sent on it */
out_unlink:
	if (fh) {
		int r2;
		SSH_RETRY(c, deadline, r2, libssh2_sftp_close_handle(fh));
		fh = NULL;
	}
	{
		int r2;
		SSH_RETRY(c, deadline, r2, libssh2_sftp_unlink_ex(sftp, tmp, (unsigned)strlen(tmp)));
	}
	if (rc >= 0)
		rc = -EIO;
out:
	if (fh && rc != -ETIMEDOUT && rc != -ECANCELED) {
		int r2;
		SSH_RETRY(c, deadline, r2, libssh2_sftp_close_handle(fh));
	}
	if (sftp && rc != -ETIMEDOUT && rc != -ECANCELED) {
		int r2;
		SSH_RETRY(c, deadline, r2, libssh2_sftp_shutdown(sftp));
	}
	return rc;
}
