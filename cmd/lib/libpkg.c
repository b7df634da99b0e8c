/* Which package to install when a copied hcclctl cannot start on a node: the loader's own
 * message names the library, this table the Debian packages that ship it. The table holds
 * hcclctl's direct dependencies (what the Makefile links, and libcurl, which fetch.c opens
 * at the first URL and names the package of when it cannot); Debian 13 and Ubuntu 24.04
 * renamed some for the 64-bit time_t transition, so both names are given. */
#include <stdio.h>
#include <string.h>

#include "cmd/lib/deploy.h"

static const struct {
	const char *soname, *packages;
} libs[] = {
	{ "libcjson.so.1", "libcjson1" },
	{ "libcurl.so.4", "libcurl4 (libcurl4t64 on Debian 13, Ubuntu 24.04)" },
	{ "libssh2.so.1", "libssh2-1 (libssh2-1t64 on Debian 13, Ubuntu 24.04)" },
	{ "libibverbs.so.1", "libibverbs1" },
	{ "libz.so.1", "zlib1g" },
	{ "libcrypto.so.3", "libssl3 (libssl3t64 on Debian 13, Ubuntu 24.04)" },
	{ "libcrypto.so.1.1", "libssl1.1" },
};

const char *deploy_lib_packages(const char *soname)
{
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (!strcmp(libs[i].soname, soname))
			return libs[i].packages;
	return NULL;
}
