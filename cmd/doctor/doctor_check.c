/* One result of a node's check, as the node's JSON report carries it: every step of the node
 * side adds through here. */
#include <stdarg.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"

cJSON *doctor_check_add(cJSON *checks, const char *code, const char *status, const char *fix,
			const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "code", code);
	cJSON_AddStringToObject(c, "status", status);
	cJSON_AddStringToObject(c, "message", msg);
	if (fix)
		cJSON_AddStringToObject(c, "fix", fix);
	else
		cJSON_AddNullToObject(c, "fix");
	cJSON_AddItemToArray(checks, c);
	return c;
}
