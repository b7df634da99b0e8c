/* A file of the report by its name: kept apart from the scan so that the parts that judge a
 * finished report (causes, run success) can look files up without linking back into it. */
#include <string.h>

#include "probes/logs/hlogint.h"

struct hlog_file *hlog__file_named(const struct hlog_report *r, const char *name)
{
	for (size_t i = 0; r && name && i < r->nfile; i++)
		if (!strcmp(r->file[i].name, name))
			return &r->file[i];
	return NULL;
}
