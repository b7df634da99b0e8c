/* --checks and --skip: whether a check (or a group, for a step that makes several) is
 * wanted. Pure string matching on the codes, so that every step can ask it without the
 * table (doctor_checks.c checks the names once, before anything runs). */
#include <string.h>

#include "cmd/doctor/doctor.h"

static int in_list(const char *list, const char *code)
{
	size_t cl = strlen(code);
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		/* "net" covers "net.ports"; "net.ports" covers the group "net" it is in */
		if ((n <= cl && !strncmp(p, code, n) && (code[n] == '\0' || code[n] == '.')) ||
		    (n > cl && !strncmp(p, code, cl) && p[cl] == '.'))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

int doctor_wanted(const struct doctor_filter *f, const char *code)
{
	if (!f)
		return 1;
	if (f->checks && *f->checks && !in_list(f->checks, code))
		return 0;
	return !(f->skip && *f->skip && in_list(f->skip, code) &&
		 (strchr(code, '.') || !strchr(f->skip, '.')));
}
