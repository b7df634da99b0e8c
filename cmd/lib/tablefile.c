/* The digest of a node's copy of a rank table: run's ranks and doctor's node side compare it
 * with the launcher's, so a node that holds another table is named before a job starts. */
#include <errno.h>
#include <stdlib.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/tablefile.h"
#include "ranktable/ranktable.h"

#define TABLE_CAP (64UL * 1024 * 1024)

int table_file_load(const char *path, struct rt_table *t, char *err, size_t errlen)
{
	struct rt_diags d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int rc = fetch_table(path, "run", TABLE_CAP, &buf, &len, err, errlen);
	if (rc)
		return rc < 0 ? rc : -ENOENT;
	rc = rt_table_load(t, path, buf, len, &d, err, errlen);
	free(buf);
	rt_diags_release(&d);
	return rc;
}

int table_file_digest(const char *path, char out[17], char *err, size_t errlen)
{
	struct rt_table t = { 0 };
	int rc = table_file_load(path, &t, err, errlen);
	if (rc == 0)
		rt_table_digest(&t, out);
	rt_table_release(&t);
	return rc;
}
