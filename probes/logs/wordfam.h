/* The word families' table (wordfam_node.c, wordfam_soft.c, wordfam_proc.c), the forms some
 * of its rows need (wordfam_forms.c) and the matcher that reads it (wordfam.c): shared by
 * those files only. */
#ifndef HCCLCTL_PROBES_LOGS_WORDFAM_H
#define HCCLCTL_PROBES_LOGS_WORDFAM_H

#include <stddef.h>

#include "probes/logs/logtext.h"

#define MAXW 24

struct family {
	int cat;
	const char *name; /* the verdict's detail: "words:NAME" */
	/* the cause, before the quoted line, and its fix; NULL: those of the row of the same
	 * name before it (a family in several rows says them once) */
	const char *what;
	const char *fix;
	const char *any[MAXW];	/* one of these phrases... */
	const char *also[MAXW]; /* ...and, when given, one of these too */
	const char *not[MAXW];	/* ...and none of these */
	/* news that a process failed, not why (an exception, a fatal error): it never replaces
	 * a failure code that nothing explains, which says more */
	int weak;
	int says; /* WF_SAYS_*: what the line says of its process besides */
	/* 1: the row holds only on a line that states it, not on one that guesses or foretells
	 * it (a hedge of wordfam.c's list: "may", "might", "potentially", ...) */
	int sure;
	/* 1: the row names only the line a log ends on, a state the log never left (hccllog.c);
	 * in the middle of a log the same words tell of a state that passed */
	int end_only;
	/* NULL, or: the line has the form the row is about (its phrases may then be empty) */
	int (*form)(struct pspan line, long long *port);
};

/* The rows, from the cause that explains the most to the least (see wordfam.c), in three
 * parts read in this order: the node (wordfam_node.c), the software (wordfam_soft.c), the
 * processes and their peers (wordfam_proc.c). */
extern const struct family hlog__fams_node[], hlog__fams_soft[], hlog__fams_proc[];
extern const size_t hlog__nfams_node, hlog__nfams_soft, hlog__nfams_proc;

/* The forms (wordfam_forms.c): 1 when the line has the form, with its port where one is
 * named. */
int hlog__wf_exit_failed(struct pspan s, long long *port);
int hlog__wf_exception_class(struct pspan s, long long *port);
int hlog__wf_http_status(struct pspan s, long long *port);
int hlog__wf_errno_access(struct pspan s, long long *port);
int hlog__wf_empty_host(struct pspan s, long long *port);
int hlog__wf_quoted_invalid(struct pspan s, long long *port);
int hlog__wf_set_assignment(struct pspan s, long long *port);
int hlog__wf_env_unset(struct pspan s, long long *port);
int hlog__wf_symbol_not_in_lib(struct pspan s, long long *port);
int hlog__wf_package_object_attr(struct pspan s, long long *port);
int hlog__wf_settings_object_attr(struct pspan s, long long *port);
int hlog__wf_broken_in_release(struct pspan s, long long *port);
int hlog__wf_cuda_oom(struct pspan s, long long *port);
int hlog__wf_cuda_busy(struct pspan s, long long *port);
int hlog__wf_word_compare(struct pspan s, long long *port);
int hlog__wf_module_missing(struct pspan s, long long *port);
int hlog__wf_module_part_missing(struct pspan s, long long *port);
int hlog__wf_alloc_size(struct pspan s, long long *port);
int hlog__wf_bound_stated(struct pspan s, long long *port);
int hlog__wf_assert_sizes(struct pspan s, long long *port);

#endif
