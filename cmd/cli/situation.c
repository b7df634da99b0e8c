/* The one table of situations and their exit codes (situation.h). A row is a case: a
 * command that meets one says its kind and exits with its code, whoever meets it. */
#include <stdio.h>
#include <string.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/situation.h"

static const struct situation table[] = {
	/* a node: its SSH connect, host key, handshake or login failed, or it stopped answering
	 * before it ran anything. A problem found (the node cannot be used), as a Nagios
	 * check_ssh says CRITICAL when it cannot connect; doctor's node.reach FAILs it, and
	 * probe net and probe roce --mesh FAIL such a node (probe_situation_status). */
	{ "unreachable", EXIT_FAIL, "a node cannot be reached over SSH (connect, host key, handshake, login), or its probe net agent's port" },
	{ "dead-rank", EXIT_FAIL, "a rank's process ended without closing the communicator" },
	{ "stuck-rank", EXIT_FAIL, "a rank is alive but silent: frozen, or it never came" },
	{ "link-down", EXIT_FAIL, "a host or a directed link between ranks carries no packets" },
	{ "slow-link", EXIT_WARN, "a directed link is clearly slower than the others" },
	{ "mismatch", EXIT_FAIL, "the ranks called different collectives" },
	{ "config", EXIT_FAIL, "the ranks disagree on their setup: secret, world size, rank table" },
	{ "hccl-error", EXIT_FAIL, "an HCCL or ACL call failed on a rank" },
	{ "error", EXIT_UNKNOWN, "a rank failed on its own (memory, a system call): nothing judged" },
	{ "interrupted", EXIT_INTERRUPT, "Ctrl-C: the run ended early, what was measured printed" },
	{ "output-closed", EXIT_PIPE, "standard output closed by its reader: ended quietly, by SIGPIPE" },
};

const struct situation *situation_of(const char *kind)
{
	for (size_t i = 0; kind && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].kind, kind))
			return &table[i];
	return NULL;
}

int situation_exit(const char *kind)
{
	const struct situation *s = situation_of(kind);
	return s ? s->exit_code : EXIT_UNKNOWN;
}

int situation_print_all(void)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		printf("%s %d %s\n", table[i].kind, table[i].exit_code, table[i].means);
	return EXIT_OK;
}
