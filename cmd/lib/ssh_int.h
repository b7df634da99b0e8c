/* What ssh.c lends ssh_exec.c, and no other file: waits on a session's socket and the end of a
 * session that cannot be closed politely. */
#ifndef HCCLCTL_CMD_LIB_SSH_INT_H
#define HCCLCTL_CMD_LIB_SSH_INT_H

#include "cmd/lib/ssh.h"

/* for the goodbye and the kill of a timed-out command */
#define SSH__CLOSE_GRACE_MS 2000

/* Waits for the session's socket, as ssh_conn_wait, at most max_ms (> 0) and until wake_fd
 * (>= 0) is readable. */
int ssh__wait_max(struct ssh_conn *c, long long deadline, int max_ms, int wake_fd);
/* Whether fd (>= 0) has something to read now. */
int ssh__readable(int fd);
/* Gives up the session without a goodbye (a stuck peer would make it wait). */
void ssh__abandon(struct ssh_conn *c);

#endif
