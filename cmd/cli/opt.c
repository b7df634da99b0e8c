/* Option parsing, help, synopsis and completion words, all from the command tables, so
 * the three can never disagree. Dispatch is by exact match: no prefixes, no guessing. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/situation.h"

#define MAX_DEPTH 4

/* The command table, handed in by main: the options layer knows no command. */
static const struct cmd *top_commands;

const struct opt global_opts_table[] = {
	OPT_BOOL("json", 0, &g_opts.json, "print one JSON document on stdout"),
	OPT_BOOL("no-color", 0, &g_opts.no_color, "no colour (also NO_COLOR=1)"),
	OPT_BOOL("quiet", 'q', &g_opts.quiet, "print only problems"),
	OPT_BOOL("verbose", 'v', &g_opts.verbose, "say more"),
	OPT_BOOL("strict", 0, &g_opts.strict, "treat warnings as failures (exit 2)"),
	OPT_BOOL("help", 'h', &g_opts.help, "show this help"),
	OPT_TERM,
};

static void path_name(const struct cmd *const *path, size_t depth, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "hcclctl");
	for (size_t i = 0; i < depth && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %s", path[i]->name);
}

__attribute__((format(printf, 3, 4))) static int
usage_error(const struct cmd *const *path, size_t depth, const char *fmt, ...)
{
	char name[128], what[256];
	va_list ap;
	path_name(path, depth, name, sizeof(name));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	char hint[160];
	snprintf(hint, sizeof(hint), "see '%s --help'", name);
	return fail(EXIT_USAGE, depth ? name + strlen("hcclctl ") : "usage", hint, "%s", what);
}

static const struct opt *find_long(const struct opt *opts, const char *name, size_t len)
{
	for (const struct opt *o = opts; o && o->lng; o++)
		if (strlen(o->lng) == len && !strncmp(o->lng, name, len))
			return o;
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (const struct opt *o = opts; o && o->lng; o++)
		if (o->shrt && o->shrt == c)
			return o;
	return NULL;
}

static int set_value(const struct cmd *const *path, size_t depth, const struct opt *o,
		     const char *v)
{
	char *end;
	switch (o->kind) {
	case OPT_FLAG:
		*(int *)o->val = 1;
		return 0;
	case OPT_STRING:
		*(const char **)o->val = v;
		return 0;
	case OPT_LIST: {
		struct str_list *l = o->val;
		if (l->n == sizeof(l->v) / sizeof(l->v[0]))
			return usage_error(path, depth, "too many '--%s' options", o->lng);
		l->v[l->n++] = v;
		return 0;
	}
	case OPT_INT: {
		errno = 0;
		long n = strtol(v, &end, 10);
		if (errno || end == v || *end || n < o->min || n > o->max) {
			char name[128], hint[96];
			path_name(path, depth, name, sizeof(name));
			snprintf(hint, sizeof(hint), "a whole number from %ld to %ld", o->min, o->max);
			return fail(EXIT_USAGE, name + strlen("hcclctl "), hint,
				    "invalid value '%s' for --%s", v, o->lng);
		}
		*(long *)o->val = n;
		return 0;
	}
	case OPT_END:
		break;
	}
	return 0;
}

/* Parses options of the leaf command (and the global ones) anywhere among the arguments;
 * positionals are gathered into pos in order. Returns 0 or EXIT_USAGE. */
int cli_parse(const struct cmd *const *path, size_t depth, int argc, char **argv, int *npos,
	      char **pos)
{
	const struct opt *local = depth ? path[depth - 1]->opts : NULL;
	int only_pos = 0;
	*npos = 0;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (only_pos || a[0] != '-' || !strcmp(a, "-")) {
			pos[(*npos)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		const struct opt *o;
		const char *val = NULL;
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_long(local, name, len);
			if (!o)
				o = find_long(global_opts_table, name, len);
			if (!o)
				return usage_error(path, depth, "unknown option '%s'", a);
			if (eq) {
				if (o->kind == OPT_FLAG)
					return usage_error(path, depth, "option '%s' takes no value", a);
				val = eq + 1;
			}
		} else {
			if (a[2])
				return usage_error(path, depth, "unknown option '%s'", a);
			o = find_short(local, a[1]);
			if (!o)
				o = find_short(global_opts_table, a[1]);
			if (!o)
				return usage_error(path, depth, "unknown option '%s'", a);
		}
		if (o->kind != OPT_FLAG && !val) {
			if (i + 1 >= argc)
				return usage_error(path, depth, "option '%s' needs a value", a);
			val = argv[++i];
		}
		int rc = set_value(path, depth, o, val);
		if (rc)
			return rc;
	}
	return 0;
}

static void opt_usage(const struct opt *o, char *buf, size_t len)
{
	if (o->shrt && o->arg)
		snprintf(buf, len, "-%c %s", o->shrt, o->arg);
	else if (o->shrt)
		snprintf(buf, len, "-%c", o->shrt);
	else if (o->arg)
		snprintf(buf, len, "--%s %s", o->lng, o->arg);
	else
		snprintf(buf, len, "--%s", o->lng);
}

/* One item of a synopsis: on the line if it fits in width columns (0: no limit), else on a
 * new one indented to the column after the command's name. */
static void syn_item(FILE *f, const char *item, size_t *col, size_t indent, size_t width)
{
	size_t n = strlen(item) + 1;
	if (width && *col + n > width && *col > indent) {
		fprintf(f, "\n%*s", (int)indent, "");
		*col = indent;
	}
	fprintf(f, " %s", item);
	*col += n;
}

/* The command's synopsis after "lead" (already printed): help wraps it at 80 columns, the
 * one-line-per-command list (--synopsis, read by scripts) does not. */
static void synopsis(const struct cmd *const *path, size_t depth, const char *lead, size_t width,
		     FILE *f)
{
	char name[128], u[128], item[140];
	path_name(path, depth, name, sizeof(name));
	const struct cmd *c = path[depth - 1];
	fputs(name, f);
	if (c->subs) {
		fputs(" COMMAND [ARGS]\n", f);
		return;
	}
	size_t indent = strlen(lead) + strlen(name), col = indent;
	for (const struct opt *o = c->opts; o && o->lng; o++) {
		opt_usage(o, u, sizeof(u));
		snprintf(item, sizeof(item), "[%s]", u);
		syn_item(f, item, &col, indent, width);
	}
	if (c->args)
		syn_item(f, c->args, &col, indent, width);
	fputc('\n', f);
}

static void print_opts(const char *title, const struct opt *opts, FILE *f)
{
	if (!opts || !opts->lng)
		return;
	fprintf(f, "\n%s:\n", title);
	for (const struct opt *o = opts; o->lng; o++) {
		char u[128];
		if (o->shrt)
			snprintf(u, sizeof(u), "-%c, --%s%s%s", o->shrt, o->lng, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(u, sizeof(u), "    --%s%s%s", o->lng, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(f, "  %-28s %s\n", u, o->help);
	}
}

void cli_help(const struct cmd *const *path, size_t depth, void *stream)
{
	FILE *f = stream;
	if (depth == 0) {
		fputs("usage: hcclctl [--json] [--no-color] [-q|-v] [--strict] COMMAND ...\n"
		      "       hcclctl --version\n"
		      "       hcclctl help [COMMAND]\n\n"
		      "Rank tables, link probes, collectives and preflight checks for AI "
		      "training clusters.\n\ncommands:\n",
		      f);
		for (const struct cmd *c = top_commands; c->name; c++)
			if (!c->hidden)
				fprintf(f, "  %-12s %s\n", c->name, c->summary);
		print_opts("global options", global_opts_table, f);
		fputs("\nexit status: 0 ok, 1 warnings, 2 problems found, 3 could not check, "
		      "64 usage error\n",
		      f);
		return;
	}
	const struct cmd *c = path[depth - 1];
	fputs("usage: ", f);
	synopsis(path, depth, "usage: ", 79, f);
	fprintf(f, "\n%s\n", c->summary);
	if (c->subs) {
		fputs("\ncommands:\n", f);
		int w = 12; /* the names' column fits the longest ("reducescatter") */
		for (const struct cmd *s = c->subs; s->name; s++)
			if ((int)strlen(s->name) > w)
				w = (int)strlen(s->name);
		for (const struct cmd *s = c->subs; s->name; s++)
			fprintf(f, "  %-*s %s\n", w, s->name, s->summary);
	}
	print_opts("options", c->opts, f);
	print_opts("global options", global_opts_table, f);
}

static void synopsis_walk(const struct cmd **path, size_t depth, const struct cmd *table,
			  FILE *f)
{
	for (const struct cmd *c = table; c->name; c++) {
		path[depth] = c;
		if (c->hidden)
			continue;
		if (c->subs)
			synopsis_walk(path, depth + 1, c->subs, f);
		else
			synopsis(path, depth + 1, "", 0, f);
	}
}

void cli_synopsis_all(void *stream)
{
	const struct cmd *path[MAX_DEPTH] = { 0 };
	synopsis_walk(path, 0, top_commands, stream);
}

static const struct cmd *find_cmd(const struct cmd *table, const char *name)
{
	for (const struct cmd *c = table; c && c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void complete_opts(const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->lng; o++) {
		printf("--%s\n", o->lng);
		if (o->shrt)
			printf("-%c\n", o->shrt);
	}
}

static const struct opt *any_opt(const struct opt *local, const char *w)
{
	const struct opt *o = NULL;
	if (w[0] == '-' && w[1] == '-') {
		o = find_long(local, w + 2, strlen(w + 2));
		if (!o)
			o = find_long(global_opts_table, w + 2, strlen(w + 2));
	} else if (w[0] == '-' && w[1] && !w[2]) {
		o = find_short(local, w[1]);
		if (!o)
			o = find_short(global_opts_table, w[1]);
	}
	return o;
}

/* Given the words typed so far (without the one being completed), prints the candidates,
 * one per line; ":file" or ":dir" asks the shell to complete paths. */
int cli_completion_words(int argc, char **argv)
{
	const struct cmd *table = top_commands, *leaf = NULL;
	const struct opt *pending = NULL;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		if (pending) {
			pending = NULL;
			continue;
		}
		if (w[0] == '-') {
			const struct opt *o = any_opt(leaf ? leaf->opts : NULL, w);
			if (o && o->kind != OPT_FLAG && !strchr(w, '='))
				pending = o;
			continue;
		}
		if (!strcmp(w, "help") && !leaf && table == top_commands)
			continue;
		const struct cmd *c = table ? find_cmd(table, w) : NULL;
		if (c) {
			leaf = c;
			table = c->subs;
		}
	}
	if (pending) {
		if (pending->complete == COMPLETE_FILE)
			puts(":file");
		else if (pending->complete == COMPLETE_DIR)
			puts(":dir");
		else if (pending->complete == COMPLETE_WORDS && pending->words_fn)
			pending->words_fn();
		else if (pending->complete == COMPLETE_WORDS) {
			char buf[256];
			snprintf(buf, sizeof(buf), "%s", pending->words);
			char *save = NULL;
			for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
				puts(t);
		}
		return EXIT_OK;
	}
	if (table) {
		for (const struct cmd *c = table; c->name; c++)
			if (!c->hidden)
				puts(c->name);
		if (table == top_commands)
			puts("help");
	}
	if (leaf && !leaf->subs) {
		complete_opts(leaf->opts);
		if (leaf->args_complete == COMPLETE_FILE)
			puts(":file");
	}
	complete_opts(global_opts_table);
	if (!leaf)
		puts("--version");
	return EXIT_OK;
}

static int run_help(int argc, char **argv)
{
	const struct cmd *path[MAX_DEPTH] = { 0 };
	const struct cmd *table = top_commands;
	size_t depth = 0;
	for (int i = 0; i < argc && depth < MAX_DEPTH; i++) {
		const struct cmd *c = find_cmd(table, argv[i]);
		if (!c)
			return usage_error(path, depth, "unknown command '%s'", argv[i]);
		path[depth++] = c;
		table = c->subs;
		if (!table && i + 1 < argc)
			return usage_error(path, depth, "unknown command '%s'", argv[i + 1]);
	}
	cli_help(path, depth, stdout);
	return EXIT_OK;
}


/* s at out[*at], cut to len - 1 bytes in all. */
static void put_str(char *out, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
}

size_t cli_command_line(char *out, size_t len)
{
	size_t at = 0;
	if (!len)
		return 0;
	*out = '\0';
	int argc;
	char **argv;
	out_json_argv(&argc, &argv);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		/* quoted as a shell would need it to run the same command again */
		int plain = *a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					    "0123456789_./=:,@%+-") == strlen(a);
		put_str(out, len, &at, i ? " " : "");
		if (plain) {
			put_str(out, len, &at, a);
			continue;
		}
		put_str(out, len, &at, "'");
		for (; *a; a++)
			put_str(out, len, &at, *a == '\'' ? "'\\''" : (char[2]){ *a, 0 });
		put_str(out, len, &at, "'");
	}
	return at;
}

int cli_main(int argc, char **argv, const struct cmd *top)
{
	const struct cmd *path[MAX_DEPTH] = { 0 };
	size_t depth = 0;
	const struct cmd *table;
	int i = 1;

	top_commands = top;
	table = top;
	/* a usage error's document says what was run too; the command, once known, refines it */
	out_json_invocation(argc, argv, "", NULL, cli_commit(), cli_build_id());

	if (argc > 1 && !strcmp(argv[1], "--completion-words"))
		return cli_completion_words(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--situations"))
		return situation_print_all();
	if (argc > 1 && !strcmp(argv[1], "--synopsis")) {
		cli_synopsis_all(stdout);
		return EXIT_OK;
	}
	/* Global flags before the command words. */
	int version = 0;
	for (; i < argc && argv[i][0] == '-' && strcmp(argv[i], "-"); i++) {
		if (!strcmp(argv[i], "--version")) { /* after the others: --json, -v shape it */
			version = 1;
			continue;
		}
		const struct opt *o = any_opt(NULL, argv[i]);
		if (!o || o->kind != OPT_FLAG)
			return usage_error(path, 0, "unknown option '%s'", argv[i]);
		*(int *)o->val = 1;
	}
	if (version) {
		out_json_invocation(argc, argv, "version", NULL, cli_commit(), cli_build_id());
		return cli_version();
	}
	if (i == argc) {
		if (g_opts.help) {
			cli_help(path, 0, stdout);
			return EXIT_OK;
		}
		cli_help(path, 0, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help"))
		return run_help(argc - i - 1, argv + i + 1);
	while (i < argc && table) {
		const struct cmd *c = find_cmd(table, argv[i]);
		if (!c) {
			if (argv[i][0] == '-' && !strcmp(argv[i], "--help") && depth) {
				cli_help(path, depth, stdout);
				return EXIT_OK;
			}
			return usage_error(path, depth, "unknown %s '%s'",
					   depth ? "subcommand" : "command", argv[i]);
		}
		path[depth++] = c;
		table = c->subs;
		i++;
		if (table && i < argc && argv[i][0] == '-') {
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
				cli_help(path, depth, stdout);
				return EXIT_OK;
			}
			break;
		}
	}
	const struct cmd *leaf = path[depth - 1];
	if (leaf->subs) {
		if (i < argc && argv[i][0] == '-')
			return usage_error(path, depth, "unknown option '%s'", argv[i]);
		cli_help(path, depth, stderr);
		return EXIT_USAGE;
	}
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	if (!pos)
		return fail(EXIT_UNKNOWN, "hcclctl", NULL, "out of memory");
	int npos = 0;
	char name[128];
	path_name(path, depth, name, sizeof(name));
	out_json_invocation(argc, argv, name + strlen("hcclctl "), leaf->opts, cli_commit(),
			    cli_build_id());
	int rc = cli_parse(path, depth, argc - i, argv + i, &npos, pos);
	if (rc)
		goto out;
	if (g_opts.help) {
		cli_help(path, depth, stdout);
		goto out;
	}
	if (npos < leaf->min_args) {
		rc = usage_error(path, depth, "%s", npos ? "too few arguments" : "missing argument");
		goto out;
	}
	if (leaf->max_args >= 0 && npos > leaf->max_args) {
		rc = usage_error(path, depth, "unexpected argument '%s'", pos[leaf->max_args]);
		goto out;
	}
	rc = leaf->run(npos, pos);
out:
	free(pos);
	return rc;
}
