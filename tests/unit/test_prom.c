/* The Prometheus writer: label values escaped as the text format says (backslash, quote,
 * newline), HELP and TYPE once per family before its first sample, numbers Prometheus reads
 * back (NaN, +Inf, integers without exponent), and the file replaced by a rename. */
/* before cmocka.h, whose fail() macro would take cli.h's fail() */
#include "cmd/lib/prom.h"

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_samples(void **state)
{
	(void)state;
	struct prom m;
	prom_init(&m);
	prom_gauge(&m, "hcclctl_roce_link_up", 1, "device", "0", NULL);
	prom_gauge(&m, "hcclctl_roce_link_up", 0, "device", "a\"b\\c\nd", NULL);
	prom_gauge(&m, "hcclctl_run_time_seconds", NAN, NULL);
	prom_gauge(&m, "hcclctl_run_time_seconds", INFINITY, "x", "", NULL);
	prom_gauge(&m, "hcclctl_rdma_port_rate_bytes_per_second", 50e9, NULL);
	assert_false(m.b.err);
	assert_string_equal(
		buf_str(&m.b), "# HELP hcclctl_roce_link_up NPU RoCE NIC (hccn_tool): 1 link up, 0 down\n"
		     "# TYPE hcclctl_roce_link_up gauge\n"
		     "hcclctl_roce_link_up{device=\"0\"} 1\n"
		     "hcclctl_roce_link_up{device=\"a\\\"b\\\\c\\nd\"} 0\n"
		     "# HELP hcclctl_run_time_seconds Time of one collective call at one size\n"
		     "# TYPE hcclctl_run_time_seconds gauge\n"
		     "hcclctl_run_time_seconds NaN\n"
		     "hcclctl_run_time_seconds{x=\"\"} +Inf\n"
		     "# HELP hcclctl_rdma_port_rate_bytes_per_second RDMA port's link rate\n"
		     "# TYPE hcclctl_rdma_port_rate_bytes_per_second gauge\n"
		     "hcclctl_rdma_port_rate_bytes_per_second 50000000000\n");
	prom_release(&m);
}

static void test_write(void **state)
{
	(void)state;
	char dir[] = "/tmp/hcclctl-prom.XXXXXX", path[64], tmp[256], err[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.prom", dir);
	struct prom m;
	prom_init(&m);
	prom_gauge(&m, "hcclctl_exit_code", 2, "command", "doctor", NULL);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
	struct stat a, b;
	assert_int_equal(stat(path, &a), 0);
	assert_int_equal(prom_write(&m, path, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &b), 0);
	assert_true(a.st_ino != b.st_ino); /* a new file renamed over the old one */
	assert_int_equal((size_t)b.st_size, m.b.len);
	/* no temporary left beside it: the directory holds x.prom alone */
	DIR *d = opendir(dir);
	assert_non_null(d);
	int entries = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			entries++;
			snprintf(tmp, sizeof(tmp), "%.200s", e->d_name);
		}
	closedir(d);
	assert_int_equal(entries, 1);
	assert_string_equal(tmp, "x.prom");
	char bad[96];
	snprintf(bad, sizeof(bad), "%s/no/x.prom", dir);
	assert_int_equal(prom_write(&m, bad, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cannot create a temporary file in '"));
	assert_non_null(strstr(err, "/no'"));
	assert_non_null(strstr(err, "No such file or directory"));
	prom_release(&m);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_write),
	};
	return cmocka_run_group_tests_name("prom", tests, NULL, NULL);
}
