/* What deploy.c and run --ssh read from and write to the nodes: the loader's refusal (the
 * words of glibc's ld.so, missing and broken), the package table for every library the
 * Makefile links, run-node's tagged lines, the command line around a path, the line that
 * checks a cached copy again where it runs (run by sh here, with the copy swapped after its
 * first check), and the sha256 and cache folder of this very binary against sha256sum's. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "cmd/lib/deploy.h"
#include "cmd/lib/nodeout.h"

/* cmd/cli/cli.h, whose fail() cmocka's macro of that name hides */
const char *cli_build_id(void);

static void test_loader_missing(void **state)
{
	(void)state;
	char lib[64], why[256];
	const char *out = "/root/.cache/hcclctl/0.1.0-b42ef7686e0de356/hcclctl: error while "
			  "loading shared libraries: libssh2.so.1: cannot open shared object "
			  "file: No such file or directory\n";
	assert_int_equal(deploy_loader_error(out, lib, sizeof(lib), why, sizeof(why)), 1);
	assert_string_equal(lib, "libssh2.so.1");
	assert_string_equal(why, "cannot open shared object file: No such file or directory");
}

static void test_loader_broken(void **state)
{
	(void)state;
	char lib[64], why[256];
	const char *out = "hcclctl: error while loading shared libraries: /tmp/x/libcjson.so.1: "
			  "file too short\nsecond line\n";
	assert_int_equal(deploy_loader_error(out, lib, sizeof(lib), why, sizeof(why)), 1);
	assert_string_equal(lib, "libcjson.so.1");
	assert_string_equal(why, "/tmp/x/libcjson.so.1: file too short");
}

static void test_loader_not(void **state)
{
	(void)state;
	char lib[64] = "", why[256] = "";
	static const char *const outs[] = {
		"hcclctl 0.1.0\n",
		"",
		"error while loading shared libraries: libz.so.1",    /* no reason */
		"error while loading shared libraries: : x\n",        /* no library */
		"error while loading shared libraries: dir/: x\n",    /* no file name */
		"error while loading shared libraries: a\nb: c\n",    /* the reason is not on its line */
	};
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		assert_int_equal(deploy_loader_error(outs[i], lib, sizeof(lib), why, sizeof(why)), 0);
	assert_int_equal(deploy_loader_error(NULL, lib, sizeof(lib), why, sizeof(why)), 0);
}

static void test_packages(void **state)
{
	(void)state;
	/* every library the Makefile links hcclctl with, by its soname on Debian 12 */
	assert_string_equal(deploy_lib_packages("libcjson.so.1"), "libcjson1");
	assert_string_equal(deploy_lib_packages("libz.so.1"), "zlib1g");
	assert_string_equal(deploy_lib_packages("libibverbs.so.1"), "libibverbs1");
	assert_non_null(strstr(deploy_lib_packages("libcurl.so.4"), "libcurl4"));
	assert_non_null(strstr(deploy_lib_packages("libssh2.so.1"), "libssh2-1"));
	assert_non_null(strstr(deploy_lib_packages("libcrypto.so.3"), "libssl3"));
	assert_null(deploy_lib_packages("libfoo.so.1"));
	assert_null(deploy_lib_packages(""));
}

static void assert_tag(const char *line, int rank, char kind, const char *payload)
{
	int r = -1;
	char k = 0;
	const char *p = NULL;
	size_t pl = 0;
	assert_int_equal(run_node_tag(line, strlen(line), &r, &k, &p, &pl), 1);
	assert_int_equal(r, rank);
	assert_int_equal(k, kind);
	assert_int_equal(pl, strlen(payload));
	assert_memory_equal(p, payload, pl);
}

static void test_tags(void **state)
{
	(void)state;
	assert_tag("\03712 # hcclctl run allreduce", 12, ' ', "# hcclctl run allreduce");
	assert_tag("\0370 ", 0, ' ', "");
	assert_tag("\0373=exit 2", 3, '=', "exit 2");
	assert_tag("\037511=signal KILL", 511, '=', "signal KILL");
	assert_tag("\0377+part", 7, '+', "part");
	static const char *const bad[] = { "", "\037", "\0371", "\03712", "\037 x", "\037=x",
					   "\0371?x", "12 x", "x\0371 y" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r;
		char k;
		const char *p;
		size_t pl;
		assert_int_equal(run_node_tag(bad[i], strlen(bad[i]), &r, &k, &p, &pl), 0);
	}
}

static void test_cmdline(void **state)
{
	(void)state;
	char *s = deploy_cmdline("HCCLCTL=", "/home/o'neil/.cache/hcclctl/x/hcclctl", "; run");
	assert_string_equal(s, "HCCLCTL='/home/o'\\''neil/.cache/hcclctl/x/hcclctl' ; run");
	free(s);
	s = deploy_cmdline("", "hcclctl", "'doctor' '--node'");
	assert_string_equal(s, "'hcclctl' 'doctor' '--node'");
	free(s);
}

/* dir/hcclctl, a script saying who it is; its sha256 in hex */
static void put_script(const char *dir, const char *who, char hex[65])
{
	char path[512], body[256];
	unsigned char md[32];
	unsigned mdl = 0;
	int n = snprintf(body, sizeof(body), "#!/bin/sh\necho \"%s $*\"\ntouch \"%s/ran-%s\"\n",
			 who, dir, who);
	snprintf(path, sizeof(path), "%s/hcclctl", dir);
	unlink(path); /* a new file, as someone swapping it in would make */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(body, 1, (size_t)n, f), (size_t)n);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
	assert_true(EVP_Digest(body, (size_t)n, md, &mdl, EVP_sha256(), NULL));
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* Runs cmd with sh; its stdout (first line) in out; the exit status. */
static int run_sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, (int)len, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int leftovers(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, ".run.", 5);
	closedir(d);
	return n;
}

static void test_checked(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_deploy.XXXXXX", good[65], evil[65], path[512], out[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/hcclctl", dir);
	put_script(dir, "good", good);

	/* run --ssh's shape: the line ends by exec'ing the copy; doctor's: by running it */
	const char *befores[] = { "X=1 exec ", "" };
	for (int stays = 0; stays < 3; stays++) {
		char *cmd = stays < 2 ? deploy_cmdline_checked(good, path, befores[stays], "a 'b c'", 0) :
				       deploy_cmdline_checked(good, path, "HCCLCTL=",
							      "; export HCCLCTL; PATH=${HCCLCTL%/*}:$PATH; "
							      "export PATH; hcclctl x",
							      1);
		assert_non_null(cmd);
		assert_int_equal(run_sh(cmd, out, sizeof(out)), 0);
		assert_string_equal(out, stays < 2 ? "good a b c" : "good x");
		assert_int_equal(leftovers(dir), 0);
		free(cmd);
	}

	/* the copy is swapped after it was checked: the line refuses it, nothing of it runs */
	put_script(dir, "evil", evil);
	for (int stays = 0; stays < 2; stays++) {
		char *cmd = deploy_cmdline_checked(good, path, stays ? "HCCLCTL=" : "exec ",
						   stays ? "; hcclctl" : "run", stays);
		char redir[1200];
		snprintf(redir, sizeof(redir), "exec 2>%s/err; %s", dir, cmd);
		assert_int_equal(run_sh(redir, out, sizeof(out)), 126);
		assert_string_equal(out, "");
		snprintf(redir, sizeof(redir), "%s/ran-evil", dir);
		assert_int_equal(access(redir, F_OK), -1);
		snprintf(redir, sizeof(redir), "%s/err", dir);
		FILE *f = fopen(redir, "r");
		assert_non_null(f);
		char line[600], want[600];
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		snprintf(want, sizeof(want),
			 "hcclctl: %s is not the hcclctl that was checked (its sha256 changed); "
			 "nothing was run\n",
			 path);
		assert_string_equal(line, want);
		assert_int_equal(leftovers(dir), 0);
		free(cmd);
	}
	/* and the line made for the new copy runs it */
	char *cmd = deploy_cmdline_checked(evil, path, "exec ", "z", 0);
	assert_int_equal(run_sh(cmd, out, sizeof(out)), 0);
	assert_string_equal(out, "evil z");
	free(cmd);

	char rm[600];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	assert_int_equal(system(rm), 0);
}

static void test_self(void **state)
{
	(void)state;
	struct deploy d;
	char err[256] = "", want[80] = "", dir[96];
	assert_int_equal(deploy_init(&d, "/opt/hcclctl", err, sizeof(err)), 0);
	assert_null(d.bin);
	assert_string_equal(d.version, "hcclctl " HCCLCTL_VERSION);
	/* the build id a node's hcclctl must say: this program's GNU build-id note */
	assert_string_equal(d.build_id, cli_build_id());
	FILE *r = popen("readelf -n /proc/$PPID/exe 2>/dev/null | sed -n 's/.*Build ID: //p'", "r");
	char note[80] = "";
	if (r && fgets(note, sizeof(note), r) && strlen(note) > 16) {
		note[strcspn(note, "\n")] = 0;
		assert_string_equal(d.build_id, note);
	}
	if (r)
		pclose(r);
	deploy_release(&d);

	FILE *p = popen("sha256sum </proc/$PPID/exe 2>/dev/null", "r");
	if (!p || !fgets(want, sizeof(want), p) || strlen(want) < 64) {
		if (p)
			pclose(p);
		skip(); /* no sha256sum (coreutils) to check against */
	}
	pclose(p);
	want[64] = '\0';
	assert_int_equal(deploy_init(&d, NULL, err, sizeof(err)), 0);
	assert_non_null(d.bin);
	assert_true(d.len > 0);
	assert_string_equal(d.sha256, want);
	snprintf(dir, sizeof(dir), "%s-%.16s", HCCLCTL_VERSION, want);
	assert_string_equal(d.dir, dir);
	deploy_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loader_missing), cmocka_unit_test(test_loader_broken),
		cmocka_unit_test(test_loader_not),     cmocka_unit_test(test_packages),
		cmocka_unit_test(test_tags),	       cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_checked),	       cmocka_unit_test(test_self),
	};
	return cmocka_run_group_tests_name("deploy", tests, NULL, NULL);
}
