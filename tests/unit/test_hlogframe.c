/* The lines read by their form alone (probes/logs/hlogframe.c): a program's advice to read its
 * help under the command line it refused, and the frames of a stack dump. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "probes/logs/hlogint.h"
#include "tests/unit/span.h"

static void test_help_advice(void **state)
{
	(void)state;
	static const char *const yes[] = {
		/* real: real-logs-new batch626 (HPL-MxP's CLI11 parser) */
		"Run with --help for more information.",
		/* GNU cp's, as a kernel CI build log quotes it under "cp: missing destination file
		 * operand after ..." */
		"Try 'cp --help' for more information.",
		/* clap's */
		"For more information, try '--help'.",
	};
	static const char *const no[] = {
		"Run with --help to list the options",
		"see the docs for more information",
		/* a program's own usage text, too long for advice after an error */
		"Try 'hcclctl --help' for more information about every subcommand, its options, "
		"and the environment variables it reads.",
		"Starting: for more information pass --help",
	};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!hlog__help_advice(span(yes[i])))
			fail_msg("'%s' not read as advice to read the help", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (hlog__help_advice(span(no[i])))
			fail_msg("'%s' read as advice to read the help", no[i]);
}

static void test_frames(void **state)
{
	(void)state;
	char coll[32];
	/* a Python traceback frame of torch.distributed's */
	const char *f = "  File \"/usr/lib/python3/torch/distributed/distributed_c10d.py\", line 2615, "
			"in broadcast_object_list";
	assert_true(hlog__frame_collective(span(f), coll, sizeof(coll)));
	assert_string_equal(coll, "broadcast_object_list");
	assert_false(hlog__frame_collective(span("  File \"x.py\", line 3, in main"), coll,
					    sizeof(coll)));
	assert_true(hlog__wait_call(span("  File \"types.py\", line 117, in wait")));
	assert_true(hlog__wait_call(span("    x.wait()  # finish lengths all2all")));
	assert_false(hlog__wait_call(span("  File \"types.py\", line 117, in forward")));
	/* MPICH's error stack */
	assert_int_equal(hlog__stack_frame(span("MPID_Open_port(238)..........: ")), 1);
	assert_int_equal(hlog__stack_frame(span("MPIDI_UCX_get_local_upids(31): The function is "
						"currently not supported with ucx netmod")),
			 2);
	assert_int_equal(hlog__stack_frame(span("main(): nothing")), 0);
}

static void test_fs_table(void **state)
{
	(void)state;
	/* df -h's heading and df -i's, then rows: NHC's node with /tmp full, a snap image, a
	 * long device name wrapped onto a line of its own */
	assert_true(hlog__fs_table_heading(span("Filesystem      Size  Used Avail Use% Mounted on")));
	assert_true(hlog__fs_table_heading(
		span("Filesystem      Inodes IUsed IFree IUse% Mounted on                      ")));
	assert_false(hlog__fs_table_heading(span("Filesystem check failed on /dev/sda1")));
	assert_int_equal(hlog__fs_table_row(span("tmpfs           512M  512M     0 100% /tmp")), 2);
	assert_int_equal(hlog__fs_table_row(span("overlay         1.8T   96G  1.6T   6% /")), 1);
	assert_int_equal(hlog__fs_table_row(span("/dev/loop3       64M   64M     0 100% /snap/core20/2318")),
			 1);
	assert_int_equal(hlog__fs_table_row(span("/dev/mapper/vg-root")), 1);
	assert_int_equal(hlog__fs_table_row(span("                  50G   50G     0 100% /")), 2);
	assert_int_equal(hlog__fs_table_row(span("[root@c1104 ~]# nhc -ad")), 0);
	assert_int_equal(hlog__fs_table_row(span("shm  1.0G  1.0G  0  100 /dev/shm")), 0);
	assert_int_equal(hlog__fs_table_row(span("")), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_advice),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_fs_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
