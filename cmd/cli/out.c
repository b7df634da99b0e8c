/* Diagnostics and the JSON document. Text goes to stderr as "hcclctl: WHERE: WHAT" with an
 * optional "hint: FIX"; with --json, stdout carries exactly one document even on failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "ranktable/ranktable.h"

/* Defined here, below the option parser that fills it, so that output never calls up into it. */
struct global_opts g_opts;

static int json_printed, json_silent, json_oneline;
int (*cli_exit_map)(int code);
static cJSON *first_error;

int use_color(int fd)
{
	const char *nc = getenv("NO_COLOR");
	if (g_opts.no_color || (nc && *nc))
		return 0;
	return isatty(fd);
}

const char *color(int fd, const char *code)
{
	return use_color(fd) ? code : "";
}

const char *out_safe(const char *s)
{
	static char buf[OUT_SAFE_N][OUT_SAFE_MAX];
	static unsigned next;
	char *b = buf[next++ % OUT_SAFE_N];
	rt_text_escape(b, OUT_SAFE_MAX, s ? s : "", s ? strlen(s) : 0);
	return b;
}

void out_write_safe(FILE *f, const char *p, size_t n)
{
	char b[OUT_SAFE_MAX];
	while (n) {
		/* a quarter of the room per round: each byte may take four */
		size_t take = n < OUT_SAFE_MAX / 4 - 1 ? n : OUT_SAFE_MAX / 4 - 1;
		fwrite(b, 1, rt_text_escape(b, sizeof(b), p, take), f);
		p += take;
		n -= take;
	}
}

/* Every message may quote input (a file name, a server, a node's answer): it is escaped
 * here, once, for all of them. */
int fail(int code, const char *where, const char *hint, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	const char *red = color(2, "\033[1;31m"), *off = *red ? "\033[0m" : "";
	fprintf(stderr, "%shcclctl%s: %s: %s\n", red, off, where, out_safe(what));
	if (hint)
		fprintf(stderr, "hint: %s\n", out_safe(hint));
	if (g_opts.json && !first_error) {
		first_error = cJSON_CreateObject();
		if (first_error) {
			cJSON_AddStringToObject(first_error, "where", where);
			cJSON_AddStringToObject(first_error, "message", what);
			if (hint)
				cJSON_AddStringToObject(first_error, "hint", hint);
		}
	}
	return code;
}

void warn_msg(const char *where, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	const char *y = color(2, "\033[1;33m"), *off = *y ? "\033[0m" : "";
	fprintf(stderr, "%shcclctl%s: %s: warning: %s\n", y, off, where, out_safe(what));
}

void info_msg(const char *fmt, ...)
{
	va_list ap;
	if (g_opts.quiet)
		return;
	char what[OUT_SAFE_MAX];
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fputs(out_safe(what), stderr);
}

/* What every JSON document says of the run that printed it, so that a document read
 * later (a CI artifact, a ticket) says which build, command and options made it. */
static struct {
	int argc;
	char **argv;
	const char *commit, *build_id;
	const struct opt *opts;
	char command[96], started[40];
} inv;

void out_json_invocation(int argc, char **argv, const char *command, const struct opt *opts,
			 const char *commit, const char *build_id)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(inv.started, sizeof(inv.started), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(inv.started + n, sizeof(inv.started) - n, ".%03ldZ", ts.tv_nsec / 1000000);
	inv.argc = argc;
	inv.argv = argv;
	snprintf(inv.command, sizeof(inv.command), "%s", command);
	inv.opts = opts;
	inv.commit = commit;
	inv.build_id = build_id;
}

void out_json_argv(int *argc, char ***argv)
{
	*argc = inv.argc;
	*argv = inv.argv;
}

/* Every option of the command with the value it ran with, defaults included. */
static cJSON *parameters(const struct opt *opts)
{
	cJSON *p = cJSON_CreateObject();
	for (const struct opt *o = opts; p && o && o->lng; o++) {
		switch (o->kind) {
		case OPT_FLAG:
			cJSON_AddBoolToObject(p, o->lng, *(const int *)o->val);
			break;
		case OPT_STRING: {
			const char *v = *(const char *const *)o->val;
			cJSON_AddItemToObject(p, o->lng, v ? cJSON_CreateString(v) : cJSON_CreateNull());
			break;
		}
		case OPT_INT:
			cJSON_AddNumberToObject(p, o->lng, (double)*(const long *)o->val);
			break;
		case OPT_LIST: {
			const struct str_list *l = o->val;
			cJSON *a = cJSON_AddArrayToObject(p, o->lng);
			for (size_t i = 0; a && i < l->n; i++)
				cJSON_AddItemToArray(a, cJSON_CreateString(l->v[i]));
			break;
		}
		case OPT_END:
			break;
		}
	}
	return p;
}

/* Moves doc's members behind the invocation's; a member doc has wins over ours. */
static cJSON *enveloped(cJSON *doc)
{
	cJSON *e = cJSON_IsObject(doc) && inv.argv ? cJSON_CreateObject() : NULL;
	if (!e)
		return doc;
	char schema[128];
	snprintf(schema, sizeof(schema), "hcclctl%s%s/1", *inv.command ? "-" : "", inv.command);
	for (char *c = schema; *c; c++)
		*c = *c == ' ' ? '-' : *c;
	cJSON_AddStringToObject(e, "schema", schema);
	cJSON *h = cJSON_AddObjectToObject(e, "hcclctl");
	cJSON_AddStringToObject(h, "version", HCCLCTL_VERSION);
	cJSON_AddStringToObject(h, "commit", inv.commit);
	cJSON_AddStringToObject(h, "build_id", inv.build_id);
	cJSON *cmd = cJSON_AddArrayToObject(e, "command");
	for (int i = 0; cmd && i < inv.argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(inv.argv[i]));
	cJSON_AddStringToObject(e, "started", inv.started);
	cJSON_AddItemToObject(e, "parameters", parameters(inv.opts));
	if (first_error && !cJSON_GetObjectItemCaseSensitive(doc, "error"))
		cJSON_AddItemToObject(e, "error", cJSON_Duplicate(first_error, 1));
	while (doc->child) {
		cJSON *it = cJSON_DetachItemViaPointer(doc, doc->child);
		char key[128];
		snprintf(key, sizeof(key), "%s", it->string ? it->string : "");
		if (cJSON_GetObjectItemCaseSensitive(e, key))
			cJSON_ReplaceItemInObjectCaseSensitive(e, key, it);
		else
			cJSON_AddItemToObject(e, key, it);
	}
	cJSON_Delete(doc);
	return e;
}

/* Every string and key of the document in valid UTF-8 (see rt_utf8_repair): one reader of
 * the report must not fail on one line of a log in another encoding. */
static void json_utf8(cJSON *it)
{
	for (; it; it = it->next) {
		char *fixed;
		if (cJSON_IsString(it) && it->valuestring && (fixed = rt_utf8_repair(it->valuestring))) {
			cJSON_SetValuestring(it, fixed);
			free(fixed);
		}
		if (it->string && !(it->type & cJSON_StringIsConst) &&
		    (fixed = rt_utf8_repair(it->string))) {
			free(it->string);
			it->string = fixed;
		}
		json_utf8(it->child);
	}
}

void out_json(void *doc)
{
	doc = enveloped(doc);
	if (doc)
		json_utf8(((cJSON *)doc)->child);
	char *s = json_silent ? NULL : json_oneline ? cJSON_PrintUnformatted(doc) : cJSON_Print(doc);
	if (s) {
		fputs(s, stdout);
		fputc('\n', stdout);
		free(s);
	}
	cJSON_Delete(doc);
	json_printed = 1;
}

void out_json_set_printed(void)
{
	json_printed = 1;
}

void out_json_oneline(void)
{
	json_oneline = 1;
}

void out_json_silence(void)
{
	json_silent = json_printed = 1;
}

int out_json_printed(void)
{
	return json_printed;
}

void out_finish(int code)
{
	if (g_opts.json && !json_printed) {
		cJSON *doc = cJSON_CreateObject();
		if (doc) {
			if (first_error)
				cJSON_AddItemToObject(doc, "error", first_error);
			else
				cJSON_Delete(first_error);
			first_error = NULL;
			cJSON_AddNumberToObject(doc, "exit_code", code);
			out_json(doc);
		}
	}
	cJSON_Delete(first_error);
	first_error = NULL;
}

void print_findings(const struct rt_diags *d, const char *name)
{
	for (size_t k = 0; k < d->n; k++) {
		const struct rt_diag *x = &d->v[k];
		fprintf(stderr, "%s:%u:%u: %s: %s [%s]\n", out_safe(name), x->line, x->col,
			rt_severity_name(x->sev), out_safe(x->msg), x->code);
		if (x->hint)
			fprintf(stderr, "  hint: %s\n", out_safe(x->hint));
	}
}
