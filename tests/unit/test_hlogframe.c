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

/* py-spy's dumps, real lines: huggingface/text-generation-inference#2099 (a shard spinning in
 * NCCL), huggingface/transformers#22363 (a rank in broadcast), pytorch/torchtitan#1342 (a
 * tqdm monitor thread, idle in wait) */
static void test_spy(void **state)
{
	(void)state;
	assert_int_equal(hlog__spy_thread(span("Thread 1302975 (active): \"MainThread\"")), 1);
	assert_int_equal(hlog__spy_thread(span("Thread 0x7F7D9CFF9640 (idle): \"Thread-2\"")), 2);
	assert_int_equal(hlog__spy_thread(span("Thread 39 (idle): \"MainThread\" extra")), 0);
	assert_int_equal(hlog__spy_thread(span("Thread pool exhausted (x): \"MainThread\"")), 0);
	/* a heading cut after its name's opening quote */
	assert_int_equal(hlog__spy_thread(span("Thread 1 (idle): \"")), 0);
	struct pspan fn = hlog__spy_function(span("    ncclAllReduce (collectives.cc:49)"));
	assert_int_equal(fn.n, 13);
	assert_true(hlog__spy_waits(fn));
	fn = hlog__spy_function(span("    broadcast (torch/distributed/distributed_c10d.py:1555)"));
	assert_true(fn.s && hlog__spy_waits(fn));
	fn = hlog__spy_function(span("    sched_yield (libc.so.6)"));
	assert_true(fn.s && !hlog__spy_waits(fn));
	fn = hlog__spy_function(span("    backward (torch/autograd/__init__.py:266)"));
	assert_true(fn.s && !hlog__spy_waits(fn));
	/* a sentence in parentheses, or a Python frame, is no py-spy frame */
	assert_null(hlog__spy_function(span("Training done (see the log)")).s);
	assert_null(hlog__spy_function(span("  File \"x.py\", line 3, in main")).s);

	/* the main thread's innermost frames only: a wait further down, or another thread's,
	 * is not where it was blocked */
	struct hlog_spy sp = {0};
	const char *dump[] = {"Thread 1302975 (active): \"MainThread\"",
			      "    sched_yield (libc.so.6)",
			      "    ncclLaunchKernelBefore_NoUncapturedCuda (enqueue.cc:968)",
			      "    doLaunches (group.cc:161)"};
	for (unsigned i = 0; i < 4; i++)
		hlog__spy_line(&sp, i + 1, -1, span(dump[i]), span(dump[i]));
	assert_int_equal(sp.wait_no, 3);
	struct hlog_spy other = {0};
	const char *idle[] = {"Thread 0x7F7D9CFF9640 (idle): \"Thread-2\"",
			      "    wait (threading.py:324)"};
	for (unsigned i = 0; i < 2; i++)
		hlog__spy_line(&other, i + 1, -1, span(idle[i]), span(idle[i]));
	assert_int_equal(other.wait_no, 0);
	struct hlog_spy deep = {0};
	hlog__spy_line(&deep, 1, -1, span(dump[0]), span(dump[0]));
	for (unsigned i = 0; i < 8; i++)
		hlog__spy_line(&deep, i + 2, -1, span("    forward (model.py:10)"),
			       span("    forward (model.py:10)"));
	hlog__spy_line(&deep, 10, -1, span("    barrier (c10d.py:1)"), span("    barrier (c10d.py:1)"));
	assert_int_equal(deep.wait_no, 0);
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

static void test_wrong_table(void **state)
{
	(void)state;
	struct hlog_wrong_cols t;
	/* nccl-tests 2.17's heading (real-logs-new batch119, Sigma2's GH200 nodes) and a row of
	 * it with wrong values in both halves, one clean, one not checked */
	assert_true(hlog__wrong_heading(
		span("#       size         count      type   redop    root     time   algbw   busbw  "
		     "#wrong     time   algbw   busbw  #wrong "),
		&t));
	assert_int_equal(t.n, 13);
	assert_int_equal(t.mask, (1UL << 8) | (1UL << 12));
	assert_int_equal(hlog__wrong_row(span("     2097152       2097152      int8     sum      -1  "
					      "6249.20    0.34    0.63   18134  6142.32    0.34    "
					      "0.64    9609"),
					 &t),
			 2);
	assert_int_equal(hlog__wrong_row(span("           1             1      int8     sum      -1    "
					      "24.41    0.00    0.00       0    21.26    0.00    0.00"
					      "       0"),
					 &t),
			 1);
	assert_int_equal(hlog__wrong_row(span("     8  2  float  sum  -1  35.1  0.00  0.00  N/A  34.9 "
					      " 0.00  0.00  N/A"),
					 &t),
			 1);
	/* the units line under the heading, and a row of another table: the table ends */
	assert_int_equal(hlog__wrong_row(span("#        (B)    (elements)                               "
					      "(us)  (GB/s)  (GB/s)"),
					 &t),
			 1);
	assert_int_equal(hlog__wrong_row(span("8 16 32"), &t), 0);
	assert_int_equal(hlog__wrong_row(span("NCCL INFO Channel 00/0 : 0 1"), &t), 0);
	/* before 2.10 the column is "error", the largest error seen: rounding below one */
	assert_true(hlog__wrong_heading(span("#       size         count    type   redop     time   "
					     "algbw   busbw  error     time   algbw   busbw  error"),
					&t));
	assert_int_equal(hlog__wrong_row(span("    33554432       8388608   float     sum    402.9   "
					      "83.28  156.16  5e-07    401.6   83.55  156.65  5e-07"),
					 &t),
			 1);
	assert_int_equal(hlog__wrong_row(span("    33554432       8388608   float     sum    402.9   "
					      "83.28  156.16  9.28957e+06    401.6   83.55  156.65  "
					      "9.28541e+06"),
					 &t),
			 2);
	/* a table printed without its "#" (real-logs-new batch716, the Perlmutter communication
	 * libraries image's all_reduce_perf): the column is "errors", a count */
	assert_true(hlog__wrong_heading(span("bytes        count       type   redop  root   time(us) "
					     "algbw busbw errors time(us) algbw busbw errors"),
					&t));
	assert_int_equal(hlog__wrong_row(span("4294967296   1073741824 float  sum    -1     120675   "
					      "35.59 68.96 0      120722   35.58 68.93 0"),
					 &t),
			 1);
	assert_int_equal(hlog__wrong_row(span("4294967296   1073741824 float  sum    -1     120675   "
					      "35.59 68.96 3      120722   35.58 68.93 0"),
					 &t),
			 2);
	/* prose that uses the word, a heading of numbers, a heading with no such column */
	assert_false(hlog__wrong_heading(span("the error was in the second step of it"), &t));
	assert_false(hlog__wrong_heading(span("#  Rank  0 Group  0 Pid 206828 on   gpu-1-43 device  0"),
					 &t));
	assert_false(hlog__wrong_heading(span("Filesystem      Size  Used Avail Use% Mounted on"), &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_advice),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_spy),
		cmocka_unit_test(test_fs_table),
		cmocka_unit_test(test_wrong_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
