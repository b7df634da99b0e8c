/* What doctor does with its result besides reporting it: as Slurm's HealthCheckProgram it
 * drains its node on FAIL (--on-fail drain) and resumes it on a later pass (--on-pass
 * resume) — but only a drain whose reason hcclctl wrote, so an operator's own drain stays;
 * as a node-problem-detector plugin (--exit-codes npd) it says one short line with NPD's
 * exit codes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/doctor/doctor.h"
#include "probes/tool/tool.h"

#define REASON_PREFIX "hcclctl:"
#define SCONTROL_TIMEOUT_MS 20000

const char *doctor_slurm_node(const char *node_name, char *buf, size_t len)
{
	const char *e = getenv("SLURMD_NODENAME");
	if (e && *e)
		return e;
	if (node_name && *node_name)
		return node_name;
	if (gethostname(buf, len - 1))
		return NULL;
	buf[len - 1] = '\0';
	buf[strcspn(buf, ".")] = '\0'; /* Slurm's node names are short host names */
	return buf;
}

static int scontrol(char *const *argv, struct probe_tool_result *r, char *err, size_t errlen)
{
	static const char *const fallbacks[] = {"/usr/bin/scontrol", "/usr/local/bin/scontrol",
						NULL};
	char path[4096];
	int rc = probe_tool_find("scontrol", NULL, "HCCLCTL_SCONTROL", fallbacks, path,
				 sizeof(path), err, errlen);
	if (rc)
		return rc;
	memset(r, 0, sizeof(*r));
	rc = probe_tool_run(path, argv, SCONTROL_TIMEOUT_MS, r, err, errlen);
	if (!rc && r->status != 0) {
		char cmd[300];
		probe_tool_cmdline(argv, cmd, sizeof(cmd));
		snprintf(err, errlen, "%s: exit %d: %.300s", cmd, r->status,
			 r->errout && *r->errout ? r->errout
			 : r->out		 ? r->out
						 : "");
		err[strcspn(err, "\n")] = '\0';
		rc = -EIO;
	}
	return rc;
}

/* The node's state and reason from `scontrol show node`: "IDLE+DRAIN", "hcclctl: ...". */
static int node_state(const char *node, char *state, size_t slen, char *reason, size_t rlen,
		      char *err, size_t errlen)
{
	char *argv[] = {(char *)"scontrol", (char *)"-o", (char *)"show",
			(char *)"node",	    (char *)node, NULL};
	struct probe_tool_result r;
	int rc = scontrol(argv, &r, err, errlen);
	state[0] = reason[0] = '\0';
	if (!rc) {
		/* one line of KEY=VALUE words; Reason= runs to the end of the line */
		const char *s = r.out ? strstr(r.out, " State=") : NULL;
		const char *why = r.out ? strstr(r.out, " Reason=") : NULL;
		if (s)
			snprintf(state, slen, "%.*s", (int)strcspn(s + 7, " \n"), s + 7);
		if (why)
			snprintf(reason, rlen, "%.*s", (int)strcspn(why + 8, "\n"), why + 8);
		/* scontrol adds who set it and when: " [root@2026-12-01T12:00:00]" */
		char *stamp = strrchr(reason, '[');
		if (stamp && stamp > reason && stamp[-1] == ' ' && strchr(stamp, '@') &&
		    stamp[strlen(stamp) - 1] == ']')
			stamp[-1] = '\0';
	}
	probe_tool_result_release(&r);
	return rc;
}

int doctor_act(const struct doctor_action *a, int status, const char *cause, char *did,
	       size_t didlen, char *err, size_t errlen)
{
	char hn[256], state[128], reason[1024], arg[600];
	did[0] = '\0';
	int drain = a->on_fail && !strcmp(a->on_fail, "drain") && status == EXIT_FAIL;
	int resume = a->on_pass && !strcmp(a->on_pass, "resume") &&
		     (status == EXIT_OK || status == EXIT_WARN);
	if (!drain && !resume)
		return 0;
	const char *node = doctor_slurm_node(a->node_name, hn, sizeof(hn));
	if (!node) {
		snprintf(err, errlen, "cannot tell this node's Slurm name: pass --node-name");
		return -EINVAL;
	}
	int rc = node_state(node, state, sizeof(state), reason, sizeof(reason), err, errlen);
	if (rc)
		return rc;
	int drained = strstr(state, "DRAIN") != NULL;
	int ours = !strncmp(reason, REASON_PREFIX, strlen(REASON_PREFIX));
	if (drain && drained && !ours) {
		/* someone else's drain says more than ours would: leave it */
		snprintf(did, didlen, "left node %s drained by another reason: %.300s", node,
			 reason);
		return 0;
	}
	if (resume && !(drained && ours))
		return 0; /* nothing of ours to undo */
	if (drain) {
		/* Slurm keeps the reason in one line; a long one is cut at a word */
		char why[300];
		snprintf(why, sizeof(why), REASON_PREFIX " %s", cause && *cause ? cause : "FAIL");
		for (char *p = why; *p; p++)
			if (*p == '\n' || *p == '\t')
				*p = ' ';
		snprintf(arg, sizeof(arg), "reason=%s", why);
		char nodearg[300];
		snprintf(nodearg, sizeof(nodearg), "nodename=%s", node);
		char *argv[] = {(char *)"scontrol",
				(char *)"update",
				nodearg,
				(char *)"state=drain",
				arg,
				NULL};
		struct probe_tool_result r;
		rc = scontrol(argv, &r, err, errlen);
		probe_tool_result_release(&r);
		if (!rc)
			snprintf(did, didlen, "drained node %s: %s", node, why);
		return rc;
	}
	char nodearg[300];
	snprintf(nodearg, sizeof(nodearg), "nodename=%s", node);
	char *argv[] = {(char *)"scontrol", (char *)"update", nodearg, (char *)"state=resume",
			NULL};
	struct probe_tool_result r;
	rc = scontrol(argv, &r, err, errlen);
	probe_tool_result_release(&r);
	if (!rc)
		snprintf(did, didlen, "resumed node %s (drained by hcclctl: %.300s)", node,
			 reason + strlen(REASON_PREFIX) + (reason[strlen(REASON_PREFIX)] == ' '));
	return rc;
}

int doctor_npd_exit(int code)
{
	/* node-problem-detector's custom plugins: 0 OK, 1 a problem, 2 unknown */
	switch (code) {
	case EXIT_OK:
	case EXIT_WARN:
		return 0;
	case EXIT_FAIL:
		return 1;
	case EXIT_UNKNOWN:
		return 2;
	default:
		return code;
	}
}

void doctor_npd_line(int code, const char *cause, char *out, size_t len)
{
	const char *what = code == EXIT_OK     ? "OK: every check passed"
			   : code == EXIT_WARN ? "OK with warnings"
			   : code == EXIT_FAIL ? "FAIL"
					       : "UNKNOWN: nothing could be checked";
	if (len > DOCTOR_NPD_MAX + 1)
		len = DOCTOR_NPD_MAX + 1;
	if (cause && *cause && code != EXIT_OK)
		snprintf(out, len, "%s: %s",
			 code == EXIT_WARN ? "WARN" : code == EXIT_FAIL ? what : "UNKNOWN", cause);
	else
		snprintf(out, len, "%s", what);
	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}
