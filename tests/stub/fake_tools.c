/* Stand-ins for npu-smi and hccn_tool in the tests: print recorded output for the arguments
 * they get (one program, named by argv[0]). A test calls them a few thousand times, and a
 * shell script that execs cat costs two process starts each (~10 ms apiece on the test
 * machine); this is one.
 *
 * npu-smi info [-l | -m | -t KEY] [-i N] [-c C]
 *   FAKE_NPU_SMI_DIR  colon-separated fixture directories, searched in order
 *   FAKE_STATE        a directory for call counters: the Nth call of the same command prints
 *                     NAME.N.txt when it exists (counters that grow between two reads)
 *   FAKE_HANG         space-separated keys (info-l, hccs, topo, ...) that hang instead
 *   For key K (and ids -i N -c C) it prints the first of K-N-C.<call>.txt, K-N-C.txt,
 *   K.<call>.txt, K.txt that exists, K...err on stderr, and exits with K...rc (default 0).
 *
 * hccn_tool -i N -CMD -g [address IP] [-inet6] ...
 *   FAKE_HCCN_DIR     colon-separated fixture directories, searched in order
 *   FAKE_HANG         space-separated commands (link, ip, tls, ...) that hang instead
 *   FAKE_HCCN_MESH    topology files for -ping, -hccs_ping and -lldp: those calls are
 *                     fake_mesh.c's, which reads this process's parent's words
 *   For command K on device N it prints the first of K-N.txt, K.txt that exists, K...err on
 *   stderr, and exits with K...rc (default 0). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ranktable/base/io.h"
#include "tests/stub/fake_mesh.h"

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void copy(const char *path, int to)
{
	char buf[65536];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && fd_write_all(to, buf, (size_t)n))
			break;
	close(fd);
}

/* The first directory of dirs (colon-separated) with NAME.txt: print it, NAME.err on stderr,
 * exit with NAME.rc. Returns only when no directory has it. */
static void print_recorded(const char *dirs, const char *name)
{
	char path[4096];
	for (const char *d = dirs;;) {
		const char *end = strchr(d, ':');
		int len = end ? (int)(end - d) : (int)strlen(d);
		snprintf(path, sizeof(path), "%.*s/%s.txt", len, d, name);
		if (exists(path)) {
			copy(path, 1);
			snprintf(path, sizeof(path), "%.*s/%s.err", len, d, name);
			copy(path, 2);
			snprintf(path, sizeof(path), "%.*s/%s.rc", len, d, name);
			int rc = 0;
			FILE *f = fopen(path, "r");
			if (f) {
				if (fscanf(f, "%d", &rc) != 1)
					rc = 0;
				fclose(f);
			}
			exit(rc);
		}
		if (!end)
			return;
		d = end + 1;
	}
}

static void hang_if(const char *key)
{
	const char *h = getenv("FAKE_HANG");
	if (!h)
		return;
	size_t k = strlen(key);
	for (const char *p = h; (p = strstr(p, key)); p += k)
		if ((p == h || p[-1] == ' ') && (p[k] == ' ' || p[k] == '\0')) {
			sleep(30);
			exit(0);
		}
}

static const char *need(const char *var)
{
	const char *v = getenv(var);
	if (!v || !v[0]) {
		fprintf(stderr, "%s: %s is not set\n", var, var);
		exit(2);
	}
	return v;
}

static int npu_smi(int argc, char **argv)
{
	const char *key = "info", *id = "", *chip = "";
	if (argc < 2 || strcmp(argv[1], "info")) {
		fputs("Error: only 'info' is recorded\n", stderr);
		return 1;
	}
	const char *dirs = need("FAKE_NPU_SMI_DIR");
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-l"))
			key = "info-l";
		else if (!strcmp(argv[i], "-m"))
			key = "info-m";
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			key = argv[++i];
		else if (!strcmp(argv[i], "-i") && i + 1 < argc)
			id = argv[++i];
		else if (!strcmp(argv[i], "-c") && i + 1 < argc)
			chip = argv[++i];
		else {
			fprintf(stderr, "Error: unknown option %s\n", argv[i]);
			return 1;
		}
	}
	hang_if(key);
	int call = 1;
	const char *state = getenv("FAKE_STATE");
	if (state && state[0]) {
		char f[4096];
		snprintf(f, sizeof(f), "%s/npu-smi.%s-%s-%s", state, key, id, chip);
		FILE *in = fopen(f, "r");
		if (in) {
			if (fscanf(in, "%d", &call) != 1)
				call = 0;
			call++;
			fclose(in);
		}
		FILE *out = fopen(f, "w");
		if (out) {
			fprintf(out, "%d\n", call);
			fclose(out);
		}
	}
	char spec[512], name[600];
	if (id[0])
		snprintf(spec, sizeof(spec), "%s-%s-%s", key, id, chip);
	else
		snprintf(spec, sizeof(spec), "%s", key);
	snprintf(name, sizeof(name), "%s.%d", spec, call);
	print_recorded(dirs, name);
	print_recorded(dirs, spec);
	snprintf(name, sizeof(name), "%s.%d", key, call);
	print_recorded(dirs, name);
	print_recorded(dirs, key);
	fprintf(stderr, "Error: this command is not recorded (%s%s%s%s%s)\n", key, id[0] ? " -i " : "",
		id, chip[0] ? " -c " : "", chip);
	return 1;
}

static int hccn_tool(int argc, char **argv)
{
	const char *id = "", *key = "", *to = "";
	int inet6 = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-i") && i + 1 < argc)
			id = argv[++i];
		else if (!strcmp(a, "-g"))
			;
		else if (!strcmp(a, "-inet6"))
			inet6 = 1;
		else if (!strcmp(a, "address") || !strcmp(a, "ipv6_address"))
			to = i + 1 < argc ? argv[++i] : "";
		else if (!strcmp(a, "sdid") || !strcmp(a, "pkt") || !strcmp(a, "cnt") ||
			 !strcmp(a, "interval") || !strcmp(a, "timeout"))
			i++;
		else if (a[0] == '-')
			key = a + 1;
		else {
			fputs("Cmd execute failed!\n", stderr);
			return 1;
		}
	}
	hang_if(key);
	const char *mesh = getenv("FAKE_HCCN_MESH");
	if (mesh && mesh[0] &&
	    (!strcmp(key, "ping") || !strcmp(key, "hccs_ping") || !strcmp(key, "lldp")))
		return fake_hccn_mesh(mesh, key, id, to, inet6);
	const char *dirs = need("FAKE_HCCN_DIR");
	char name[600];
	snprintf(name, sizeof(name), "%s-%s", key, id);
	print_recorded(dirs, name);
	print_recorded(dirs, key);
	fputs("The device is not exist!\n", stderr);
	return 1;
}

int main(int argc, char **argv)
{
	const char *me = strrchr(argv[0], '/');
	me = me ? me + 1 : argv[0];
	if (!strcmp(me, "npu-smi"))
		return npu_smi(argc, argv);
	if (!strcmp(me, "hccn_tool"))
		return hccn_tool(argc, argv);
	fprintf(stderr, "fake_tools: run me as npu-smi or hccn_tool, not %s\n", me);
	return 2;
}
