/* hcclctl --version: what this build is, in text and --json from one table of fields.
 *
 * The version string says which release the source was; two builds of one release (another
 * commit, compiler, or flags) say the same. The build id tells builds apart: the linker's
 * GNU build-id note, a hash of the linked program, so two builds share one only when they
 * are the same program. deploy.c compares it to decide whether a node's own hcclctl is this
 * one. The commit comes from the Makefile (git; "unknown" in a tarball), the build date from
 * the compiler (__DATE__, __TIME__, which follow SOURCE_DATE_EPOCH for reproducible builds). */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <libssh2.h>
#include <openssl/crypto.h>

#include "cmd/cli/cli.h"
#include "cmd/cli/curlapi.h"

#ifndef HCCLCTL_COMMIT
#define HCCLCTL_COMMIT "unknown"
#endif

/* The build features: what this binary can do that another build of the source may not. */
static const struct {
	const char *name, *key; /* as --version prints it, its key in --json */
	int on;
	const char *what;
} features[] = {
#ifdef HAVE_IBVERBS
	{ "ibverbs", "ibverbs", 1, "RDMA verbs (libibverbs): probe rdma reads ports through verbs" },
#else
	{ "ibverbs", "ibverbs", 0, "RDMA verbs (libibverbs): built without; probe rdma reads sysfs only" },
#endif
	/* HCCL is loaded at run time (hcclapi.c): every build has the engine, a node needs CANN */
	{ "cann-engine", "cann_engine", 1, "run --engine hccl: CANN's libascendcl.so and libhccl.so, loaded at run time" },
};

static int find_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	char *out = arg;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;
		while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			size_t name = (nh->n_namesz + 3) & ~3u, desc = (nh->n_descsz + 3) & ~3u;
			size_t avail = (size_t)(end - p) - sizeof(*nh);
			if (name > avail || desc > avail - name)
				break;
			const unsigned char *d = p + sizeof(*nh) + name;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + sizeof(*nh), "GNU", 4) && nh->n_descsz >= 8 &&
			    nh->n_descsz <= 32) {
				for (unsigned k = 0; k < nh->n_descsz; k++)
					snprintf(out + 2 * k, 3, "%02x", d[k]);
				return 1;
			}
			p = d + desc;
		}
	}
	return 1; /* the first object is the program itself: only its note counts */
}

const char *cli_build_id(void)
{
	static char id[65];
	if (!*id) {
		dl_iterate_phdr(find_note, id);
		if (!*id)
			snprintf(id, sizeof(id), "unknown");
	}
	return id;
}

const char *cli_commit(void)
{
	return HCCLCTL_COMMIT;
}

/* __DATE__ "Dec  2 2026" and __TIME__ "14:03:26" as 2026-12-02T14:03:26 (UTC when
 * SOURCE_DATE_EPOCH is set, else the build host's clock). */
#ifdef __clang__
#define COMPILER "clang " __clang_version__
#else
#define COMPILER "gcc " __VERSION__
#endif

/* libcurl's version, or NULL when it cannot be loaded: --version works without it, as does
 * every command that reads no URL (curlapi.h). */
static const char *libcurl_version(void)
{
	char err[512];
	const struct libcurl_api *cu = libcurl(err, sizeof(err));
	return cu ? cu->version_info(CURLVERSION_NOW)->version : NULL;
}

static void build_date(char *out, size_t len)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	const char *d = __DATE__;
	const char *m = strstr(months, (char[4]){ d[0], d[1], d[2], 0 });
	int day = (d[4] == ' ' ? 0 : d[4] - '0') * 10 + (d[5] - '0');
	snprintf(out, len, "%.4s-%02d-%02dT%s", d + 7, m ? (int)(m - months) / 3 + 1 : 0, day,
		 __TIME__);
}

int cli_version(void)
{
	char date[32];
	build_date(date, sizeof(date));
	if (g_opts.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "name", "hcclctl");
		cJSON_AddStringToObject(doc, "version", HCCLCTL_VERSION);
		cJSON_AddStringToObject(doc, "commit", HCCLCTL_COMMIT);
		cJSON_AddStringToObject(doc, "build_date", date);
		cJSON_AddStringToObject(doc, "build_id", cli_build_id());
		cJSON *f = cJSON_AddObjectToObject(doc, "features");
		for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
			cJSON_AddBoolToObject(f, features[i].key, features[i].on);
		if (g_opts.verbose) {
			cJSON *l = cJSON_AddObjectToObject(doc, "libraries");
			cJSON_AddStringToObject(l, "cjson", cJSON_Version());
			if (libcurl_version())
				cJSON_AddStringToObject(l, "libcurl", libcurl_version());
			else
				cJSON_AddNullToObject(l, "libcurl");
			cJSON_AddStringToObject(l, "libssh2", libssh2_version(0));
			cJSON_AddStringToObject(l, "openssl", OpenSSL_version(OPENSSL_VERSION));
			cJSON_AddStringToObject(doc, "compiler", COMPILER);
		}
		cJSON_AddNumberToObject(doc, "exit_code", EXIT_OK);
		out_json(doc);
		return EXIT_OK;
	}
	/* the first line stays "hcclctl VERSION": scripts read it, as older builds print it */
	printf("hcclctl %s\ncommit %s\nbuild-date %s\nbuild-id %s\nfeatures", HCCLCTL_VERSION,
	       HCCLCTL_COMMIT, date, cli_build_id());
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		printf(" %s%s", features[i].on ? "" : "no-", features[i].name);
	printf("\n");
	if (!g_opts.verbose)
		return EXIT_OK;
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		printf("  %s%s: %s\n", features[i].on ? "" : "no-", features[i].name,
		       features[i].what);
	printf("compiler %s\nlibraries cJSON %s, libcurl %s, libssh2 %s, %s\n", COMPILER,
	       cJSON_Version(), libcurl_version() ? libcurl_version() : "not available",
	       libssh2_version(0), OpenSSL_version(OPENSSL_VERSION));
	return EXIT_OK;
}
