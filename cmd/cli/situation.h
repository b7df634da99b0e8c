/* The situations a command can end in, each with one kind word and one exit code, so that
 * doctor, exec, run and the probes name the same situation alike (hcclctl(1) prints this
 * table under SITUATIONS; tests/cli/docs-agree.t holds the two together). */
#ifndef HCCLCTL_SITUATION_H
#define HCCLCTL_SITUATION_H

struct situation {
	const char *kind;  /* the word verdicts, reports and JSON use: "unreachable" */
	int exit_code;     /* EXIT_* (cli.h) */
	const char *means; /* one line for the man page */
};

/* The row of kind, or NULL for a word that is not one. */
const struct situation *situation_of(const char *kind);
/* Its exit code; EXIT_UNKNOWN for a word that is not a kind. */
int situation_exit(const char *kind);
/* hcclctl --situations (hidden, for the man page's test): "KIND EXIT MEANS", one a line. */
int situation_print_all(void);

#endif
