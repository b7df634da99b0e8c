/* hcclctl run COLLECTIVE: real collectives on libcomm with a nccl-tests-style table.
 * Launch, first that applies: --local N (forked ranks on this host: shared memory between them);
 * --ranktable FILE --ssh (one rank per entry on its server, runssh.c);
 * --rank/--world-size/--master; the environment of torchrun, Open MPI, Slurm or Ascend. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cli/cli.h"
#include "cmd/lib/hcclapi.h"
#include "ranktable/ranktable.h"
#include "cmd/lib/prom.h"
#include "cmd/run/run.h"
#include "cmd/run/runhccl.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/size.h"
#include "ranktable/base/plural.h"

static const char *o_min = "8", *o_max = "16M", *o_dtype = "fp32", *o_op = "sum",
		  *o_algo = "auto", *o_master, *o_ranktable, *o_ssh_user, *o_ssh_key,
		  *o_ssh_known_hosts, *o_remote_hcclctl, *o_master_addr;
static const char *o_compress = "none";
/* --engine: what the collectives run on; hccl_loaded: the launcher (--local) or this rank
 * loaded CANN's libraries into hccl_lib. */
static const char *o_engine = "libcomm";
static struct hccl_api hccl_lib;
static int hccl_loaded, hccl_probed;
/* o_factor 0: -f not given (2; -i may stand instead); o_average 3: the slowest rank's time,
 * the time a collective takes (nccl-tests' default is 1, the mean); -m, -g, -t and -p: the
 * other tools' flags (read_layout says what each does here). */
static const char *o_step;
static long o_average = 3, o_cycles = 1, o_agg = 1, o_ngpus = 1, o_nthreads = 1, o_npus;
static long o_factor = 0, o_iters = 20, o_warmup = 5, o_check = 1, o_root = 0, o_timeout,
	    o_local, o_rank = -1, o_world = -1, o_ssh_port, o_parallel;
static int o_ssh, o_ssh_insecure, o_insecure;
/* --rendezvous etcd://HOST:PORT/PREFIX (or HCCLCTL_RENDEZVOUS): meet through etcd. */
static const char *o_rendezvous;
/* What a rank says in its hello besides its rank: its host name and the table's digest. */
static const char *rank_host, *rank_digest;
/* --local: where a forked rank leaves its flight recorder's path for the launcher. */
static char *flight_slot;
/* rank 0's rows besides its table (run_out.c): --local's page in the launcher, this
 * process's own document, or the launcher over SSH */
static struct run_relay relay;

static const struct opt run_opts[] = {
	OPT_STR("minbytes", 'b', &o_min, "MIN", "smallest size in bytes, K/M/G suffixes (default 8)"),
	OPT_STR("maxbytes", 'e', &o_max, "MAX", "largest size (default 16M)"),
	OPT_NUM("stepfactor", 'f', &o_factor, "FACTOR", "multiply the size by this (default 2)", 2,
		1024),
	OPT_STR("stepbytes", 'i', &o_step, "STEP",
		"add STEP bytes instead (K/M/G; 0: -b alone); -f given too wins, as in nccl-tests"),
	OPT_CHOICE("datatype", 'd', &o_dtype, "DTYPE",
		   "int8 int16 int32 int64 uint8 uint32 uint64 fp16 bf16 fp32 fp64, or all; "
		   "nccl-tests' float half bfloat16 double too (default fp32)",
		   "int8 int16 int32 int64 uint8 uint32 uint64 fp16 bf16 fp32 fp64 all float half "
		   "bfloat16 double"),
	OPT_CHOICE("op", 'o', &o_op, "OP", "sum prod max min, or all (default sum)",
		   "sum prod max min all"),
	OPT_NUM("iters", 'n', &o_iters, "ITERS", "timed iterations per size (default 20)", 1,
		1000000),
	OPT_NUM("warmup-iters", 'w', &o_warmup, "WARMUP", "untimed iterations first (default 5)",
		0, 1000000),
	OPT_NUM("check", 'c', &o_check, "0|1", "check every result exactly (default 1)", 0, 1),
	OPT_NUM("root", 'r', &o_root, "ROOT", "root rank of broadcast (default 0)", 0, 1 << 20),
	OPT_NUM("average", 'a', &o_average, "0-3",
		"a row's time across ranks: 0 rank 0's, 1 the mean, 2 the fastest, 3 the slowest "
		"(default 3)", 0, 3),
	OPT_NUM("run-cycles", 'N', &o_cycles, "N",
		"run the whole sweep N times, 0: until Ctrl-C (default 1)", 0, 1000000),
	OPT_NUM("agg-iters", 'm', &o_agg, "M",
		"nccl-tests' collectives per group: accepted, but each iteration runs one "
		"(libcomm has no groups); hccl_test's -m 0|1 (symmetric memory) alike", 0, 1024),
	OPT_NUM("ngpus", 'g', &o_ngpus, "G",
		"nccl-tests' devices per process: hcclctl runs one rank per process; without a "
		"launcher, G x T ranks on this host (as --local)", 1, 4096),
	OPT_NUM("nthreads", 't', &o_nthreads, "T", "nccl-tests' threads per process: as -g", 1,
		4096),
	OPT_NUM("npus", 'p', &o_npus, "N",
		"hccl_test's NPUs per node: --local N, or under a launcher that starts the ranks "
		"(mpirun), ignored", 1, 4096),
	OPT_CHOICE("algo", 0, &o_algo, "ALGO", "auto ring rhd mesh (default auto; HCCLCTL_ALGO)",
		   "auto ring rhd mesh"),
	OPT_CHOICE("compress", 0, &o_compress, "MODE",
		   "allreduce: int8 sends block-quantised int8, a quarter of the bytes, on N(0,1) "
		   "data with its error against the exact sum (default none)",
		   "none int8"),
	OPT_CHOICE("engine", 0, &o_engine, "ENGINE",
		   "libcomm: host memory over TCP; hccl: HCCL itself on the NPUs, libascendcl.so "
		   "and libhccl.so loaded at run time; auto: hccl where they load on every rank "
		   "(default libcomm)",
		   "libcomm hccl auto"),
	OPT_NUM("timeout", 'T', &o_timeout, "SEC",
		"deadline of every wait (default: HCCLCTL_EXEC_TIMEOUT or 300); nccl-tests' -T",
		1, 86400),
	OPT_NUM("local", 0, &o_local, "N", "N ranks on this host, over shared memory (default 2)", 1,
		4096),
	OPT_NUM("rank", 0, &o_rank, "R", "this process's rank (with --world-size, --master)", 0,
		65535),
	OPT_NUM("world-size", 0, &o_world, "N", "number of ranks", 1, 65536),
	OPT_STR("master", 0, &o_master, "HOST:PORT", "rendezvous address, hosted by rank 0"),
	OPT_PATH("ranktable", 0, &o_ranktable, "FILE|URL",
		 "with --ssh: one rank per entry on its server; with --rank: check this node's copy",
		 COMPLETE_FILE),
	OPT_BOOL("ssh", 0, &o_ssh, "start the ranks of --ranktable on their servers over SSH"),
	OPT_STR("ssh-user", 0, &o_ssh_user, "USER", "log in as USER (default: $USER)"),
	OPT_NUM("ssh-port", 0, &o_ssh_port, "PORT", "SSH port (default 22)", 1, 65535),
	OPT_PATH("ssh-key", 0, &o_ssh_key, "FILE",
		 "private key (default: ssh-agent, ~/.ssh/id_ed25519, ~/.ssh/id_rsa)",
		 COMPLETE_FILE),
	OPT_PATH("ssh-known-hosts", 0, &o_ssh_known_hosts, "FILE",
		 "known host keys (default ~/.ssh/known_hosts)", COMPLETE_FILE),
	OPT_BOOL("ssh-insecure", 0, &o_ssh_insecure, "do not check host keys (warns)"),
	OPT_NUM("parallel", 0, &o_parallel, "N", "SSH connects at once (default 32)", 1, 4096),
	OPT_PATH("remote-hcclctl", 0, &o_remote_hcclctl, "PATH",
		 "hcclctl on the servers (default: hcclctl in their PATH)", COMPLETE_FILE),
	OPT_STR("master-addr", 0, &o_master_addr, "IP",
		"where the servers reach the launcher's rendezvous (default: the route's source)"),
	OPT_PATH("profile", 0, &run_profile_file, "FILE",
		 "write every step of every rank as one Chrome trace (HCCLCTL_PROFILE)",
		 COMPLETE_FILE),
	OPT_PATH("flight-dir", 0, &run_flight_dir, "DIR",
		 "where a failed rank writes its flight recorder (default $HCCLCTL_FLIGHT_DIR, else ${TMPDIR:-/tmp}/hcclctl-UID)",
		 COMPLETE_DIR),
	OPT_BOOL("insecure", 0, &o_insecure,
		 "ranks of another launcher without HCCLCTL_SECRET: run on a key derived from "
		 "--master, which anyone who can reach it can compute (warns on every rank)"),
	OPT_STR("rendezvous", 0, &o_rendezvous, "URL",
		"meet through etcd://HOST:PORT/PREFIX instead of --master (HCCLCTL_RENDEZVOUS)"),
	OPT_FETCH,
	OPT_PROM,
	OPT_TERM,
};

static enum comm_coll coll;

/* ---- one rank ---- */

static int status_exit(int rc)
{
	switch (rc) {
	case 0:
		return EXIT_OK;
	case 1: /* wrong results */
	case COMM_E_TIMEOUT:
	case COMM_E_PEER:
	case COMM_E_MISMATCH:
	case COMM_E_AUTH:
	case COMM_E_BOOTSTRAP:
	case COMM_E_PROTO:
		return EXIT_FAIL;
	default:
		return EXIT_UNKNOWN;
	}
}

static const char *where(void)
{
	static char w[64];
	snprintf(w, sizeof(w), "run %s", coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(coll));
	return w;
}

/* Set when this rank's HCCL engine was given up with a call outstanding: the process must
 * end with _exit, as a thread of it may never come back from HCCL. */
static int hccl_abandoned;

/* --engine hccl, or auto where every rank loaded the libraries: HCCL's communicator beside
 * c, on the device of this rank's rank-table entry (without a table: its launcher's local
 * rank, else the ranks before it on its host; cmd/run/runhccl.c). 0 with q->engine set (or left NULL: libcomm), else the exit code, with err and v. */
static int open_engine(struct comm *c, struct run_params *q, struct run_engine **eng,
		       char *err, size_t errlen, struct comm_verdict *v)
{
	int rank = comm_rank(c), rc, device = rank;
	char server[256] = "", terr[RT_ERRLEN] = "";
	const char *table = NULL;

	if (!strcmp(o_engine, "libcomm"))
		return 0;
	if (hccl_probed && !hccl_loaded) { /* --local: the launcher only checked */
		char lerr[2048];
		hccl_loaded = !hccl_api_load(&hccl_lib, lerr, sizeof(lerr));
		if (!hccl_loaded && !strcmp(o_engine, "hccl")) {
			snprintf(err, errlen, "rank %d: --engine hccl: %.900s", rank, lerr);
			return EXIT_UNKNOWN;
		}
	}
	if (!strcmp(o_engine, "auto")) {
		int64_t can = hccl_loaded;
		rc = comm_allreduce(c, &can, &can, 1, COMM_INT64, COMM_MIN);
		if (rc) {
			snprintf(err, errlen, "%s", comm_last_error(c));
			if (!comm_verdict(c, v, 2500))
				run_verdict_from_status(v, rc, err);
			return run_verdict_exit(v);
		}
		if (!can) {
			if (g_opts.verbose && rank == 0)
				warn_msg(where(), "--engine auto: libhccl.so does not load on every "
						  "rank: running on libcomm");
			return 0;
		}
	}
	if (o_ranktable) {
		rc = run_hccl_table_entry(o_ranktable, rank, &device, server, sizeof(server), terr,
					  sizeof(terr));
		if (rc) {
			snprintf(err, errlen, "rank %d (host %s): --engine hccl: %s; "
					      "HcclCommInitClusterInfo reads the table on every server",
				 rank, rank_host ? rank_host : "?", terr);
			return EXIT_UNKNOWN;
		}
		table = o_ranktable;
	} else {
		if (rank_host)
			snprintf(server, sizeof(server), "%s", rank_host);
		else if (gethostname(server, sizeof(server) - 1))
			snprintf(server, sizeof(server), "?");
	}
	struct run_hccl_args a = { .api = &hccl_lib, .table = table, .device = device,
				   .server = server, .where = where() };
	rc = run_hccl_open(eng, c, &a);
	if (*eng && run_hccl_stalled(*eng))
		hccl_abandoned = 1;
	if (rc) {
		snprintf(err, errlen, "%s", *eng ? run_hccl_error(*eng) : "out of memory");
		if (rc == RUN_E_ENGINE && run_hccl_verdict(*eng, v))
			return run_verdict_exit(v);
		if (rc < 0 && comm_verdict(c, v, 2500))
			return run_verdict_exit(v);
		return status_exit(rc);
	}
	q->engine = *eng;
	return 0;
}

/* Runs one rank to the end. err gets the reason of a failure (for the launcher), v the
 * job's verdict when it failed (kind NONE otherwise). */
static int rank_main(const struct comm_root_info *ri, int rank, int n,
		     const struct run_params *params, char *err, size_t errlen,
		     struct comm_verdict *v)
{
	struct run_params local = *params, *p = &local;
	struct run_engine *eng = NULL;
	struct comm *c = NULL;
	struct comm_config cfg = { .rank = rank, .nranks = n, .algo = p->algo,
				   .host = rank_host, .digest = rank_digest };
	struct out_ctx o = { .nrmse_max = -1, .relay = &relay };
	char wrong[512] = "";
	int rc;

	v->kind = COMM_VERDICT_NONE;
	if (o_timeout)
		cfg.exec_timeout_ms = (int)o_timeout * 1000;
	double ti0 = mono_s();
	rc = comm_init(&c, ri, &cfg, err, errlen);
	double ti1 = mono_s();
	if (!rc && g_opts.verbose) /* bench/rendezvous.sh reads this */
		fprintf(stderr, "hcclctl: %s: rank %d: communicator of %d ranks up in %.0f ms\n",
			where(), rank, n,
			(ti1 - ti0) * 1e3);
	if (rc) {
		run_verdict_from_status(v, rc, err);
		return status_exit(rc);
	}
	rc = open_engine(c, p, &eng, err, errlen, v);
	if (rc) {
		comm_destroy(c);
		return rc;
	}
	if (rank == 0) {
		run_out_header(p, n);
		o.results = cJSON_CreateArray();
	}
	run_flight_arm(c);
	if (run_profile_path() && comm_profile_start(c, 0))
		warn_msg(where(), "--profile: out of memory; running without it");
	rc = run_sets(c, p, run_out_relay_row, &o, wrong, sizeof(wrong));
	run_flight_disarm();
	int profiled = 0;
	if (rc >= 0 && run_profile_path()) {
		char perr[600];
		if (run_profile_gather(c, perr, sizeof(perr)))
			warn_msg(where(), "%s", perr);
		else
			profiled = 1;
	}
	if (eng && run_hccl_stalled(eng))
		hccl_abandoned = 1;
	if (rc == RUN_E_ENGINE) {
		snprintf(err, errlen, "%s", run_hccl_error(eng));
		if (!run_hccl_verdict(eng, v))
			run_verdict_from_status(v, COMM_E_SYS, err);
	} else if (rc < 0) {
		snprintf(err, errlen, "%s", comm_last_error(c));
		/* the record of what this rank did, for `hcclctl analyze` across ranks */
		char path[4096], ferr[4400];
		int frc = run_flight_write(c, rc == COMM_E_TIMEOUT ? "timeout" : "error", path,
					   sizeof(path), ferr, sizeof(ferr));
		if (frc)
			warn_msg(where(), "flight recorder: %s", ferr);
		else if (!g_opts.quiet && !flight_slot)
			fprintf(stderr, "hcclctl: %s: flight recorder: rank %d wrote %s\n", where(), rank,
				path);
		if (!frc && flight_slot)
			snprintf(flight_slot, ERR_SLOT, "%.1000s", path);
		/* the monitor's verdict follows the first fault within its settle time */
		if (!comm_verdict(c, v, 2500))
			run_verdict_from_status(v, rc, err);
		/* the side channel failed under HCCL: where the culprit's device and plogs are */
		size_t el = strlen(err);
		if (eng && v->rank >= 0 && v->rank < n && el + 1 < errlen)
			run_hccl_where(eng, v->rank, err + el, errlen - el);
	}
	else if (rc == 1)
		snprintf(err, errlen, "%s", wrong);
	struct run_slow sl = { .from = -1, .to = -1, .rank = -1 };
	if (rc >= 0 && !eng && run_slow_judge(c, mono_s() - ti1, &sl))
		memset(&sl, 0, sizeof(sl)); /* the communicator failed after the sweep */
	if (rc >= 0 && p->json && run_links_gather(c, &o.links))
		o.links = NULL;
	int outs_failed = 0; /* --prometheus asked for and not written: exit 3 (issue 31) */
	if (rc >= 0 && rank == 0 && !(run_stop_agreed() & RUN_STOP_OUTPUT))
		outs_failed = run_out_footer(p, n, &o, &sl, c, run_stop_exit(status_exit(rc))) < 0;
	if (profiled && rank == 0 && !g_opts.quiet && !p->json)
		printf("# profile: %s (a Chrome trace: open it in https://ui.perfetto.dev)\n",
		       run_profile_path());
	if (*wrong && rc >= 0 && rank != 0)
		snprintf(err, errlen, "%s", wrong);
	if (rc < 0 && rank == 0 && o.results) /* a failure keeps what was measured */
		run_out_keep(&relay, &o.results);
	cJSON_Delete(o.results);
	cJSON_Delete(o.links);
	if (g_opts.verbose) { /* bench/scale.sh reads this */
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "hcclctl: %s: rank %d: %d peer connections of %d ranks, peak RSS %ld KiB\n",
			where(), rank, comm_connections(c), n, ru.ru_maxrss);
		unsigned st = comm_strangers(c);
		if (st)
			fprintf(stderr, "hcclctl: %s: rank %d: dropped %u connection%s from strangers "
				"to its port (silent, closed early, or not of this job)\n",
				where(), rank, st, plural_s(st));
		run_links_say(c, where());
	}
	if (eng && !hccl_abandoned)
		run_hccl_close(eng, c);
	comm_destroy(c);
	if (v->kind != COMM_VERDICT_NONE && rc < 0)
		return run_verdict_exit(v);
	return run_prom_exit(outs_failed, run_stop_exit(status_exit(rc)));
}

/* --local: the ranks' body and what they need from this file, handed down to run_local.c. */
static int local_launch(const struct run_params *p, int n)
{
	const struct run_local l = { .rank_main = rank_main,
				     .flight_slot = &flight_slot,
				     .measured_slot = &relay.slot,
				     .where = where(),
				     .timeout_s = o_timeout };
	return run_local_launch(p, n, &l);
}

static int split_master(const char *m, char *host, size_t hlen, int *port)
{
	const char *colon = strrchr(m, ':');
	if (!colon || colon == m)
		return -1;
	size_t l = (size_t)(colon - m);
	if (m[0] == '[' && l >= 2 && m[l - 1] == ']') {
		m++;
		l -= 2;
	}
	if (l >= hlen)
		return -1;
	memcpy(host, m, l);
	host[l] = 0;
	char *end;
	long pn = strtol(colon + 1, &end, 10);
	if (*end || pn < 1 || pn > 65535)
		return -1;
	*port = (int)pn;
	return 0;
}

static long env_long(const char *name)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return -1;
	long n = strtol(v, &end, 10);
	return *end || n < 0 ? -2 : n;
}

/* A rank's host name (HCCLCTL_HOST, set by the SSH launcher to the server's name in the
 * rank table) and the rank-table digest of its hello: that of this node's copy of
 * --ranktable, which must match the launcher's (HCCLCTL_DIGEST) when both are known. */
static int rank_identity(int rank)
{
	static char mine[17];
	const char *h = getenv("HCCLCTL_HOST"), *theirs = getenv("HCCLCTL_DIGEST");
	char err[RT_ERRLEN] = "";
	if (h && *h && strlen(h) < 256 && rt_host_unsafe_at(h) < 0)
		rank_host = h;
	if (theirs && (strlen(theirs) != 16 || strspn(theirs, "0123456789abcdef") != 16))
		return fail(EXIT_USAGE, where(), NULL, "invalid HCCLCTL_DIGEST '%.40s'", theirs);
	if (theirs)
		rank_digest = theirs;
	if (!o_ranktable)
		return 0;
	int rc = table_file_digest(o_ranktable, mine, err, sizeof(err));
	if (rc == -ENOENT && theirs) {
		/* this node has no copy at that path: it takes the launcher's word for it */
		if (g_opts.verbose)
			warn_msg(where(), "rank %d: %s is not on this node: using the launcher's "
					  "digest", rank, o_ranktable);
		return 0;
	}
	if (rc)
		return fail(rc == -ENOENT ? EXIT_UNKNOWN : EXIT_FAIL, where(), NULL,
			    "rank %d: rank table: %s", rank, err);
	if (theirs && strcmp(mine, theirs))
		return fail(EXIT_FAIL, where(),
			    "give every node the launcher's copy of the table",
			    "rank %d (host %s): the rank table %s here differs from the launcher's: "
			    "digest %s, the launcher's %s",
			    rank, rank_host ? rank_host : "?", o_ranktable, mine, theirs);
	rank_digest = mine;
	return 0;
}

static int run_one_rank(struct run_params *p, int rank, int n, const struct comm_root_info *ri,
			struct comm_rendezvous *rdv);

static const char *rendezvous_url(void)
{
	const char *e = getenv("HCCLCTL_RENDEZVOUS");
	return o_rendezvous ? o_rendezvous : e && *e ? e : NULL;
}

/* The ranks meet through etcd (rdvetcd.c): no address known in advance. */
static int etcd_launch(struct run_params *p, int rank, int n, const char *url)
{
	char err[COMM_ERRLEN + 512] = "", host[256] = "";
	struct comm_root_info ri;
	struct comm_rendezvous *rdv = NULL;
	struct rdv_etcd *e = NULL;
	int tmo = o_timeout ? (int)o_timeout * 1000 : 120000;

	if (rank >= n)
		return fail(EXIT_USAGE, where(), NULL, "rank %d is not below the world size %d", rank,
			    n);
	int rc = rank_identity(rank);
	if (rc)
		return rc;
	if (!rank_host && gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	struct rdv_etcd_args a = { .url = url, .rank = rank, .nranks = n,
				   .host = rank_host ? rank_host : host,
				   .bind_addr = o_master_addr, .timeout_ms = tmo,
				   .rdv_timeout_ms = tmo, .label = where() };
	double t0 = mono_s();
	rc = rdv_etcd_meet(&a, &ri, &rdv, &e, err, sizeof(err));
	double t1 = mono_s();
	if (!rc && g_opts.verbose) /* bench/rendezvous.sh reads this */
		fprintf(stderr, "hcclctl: %s: rank %d: met %d ranks through etcd in %.0f ms\n",
			where(), rank, n,
			(t1 - t0) * 1e3);
	if (rc) {
		struct comm_verdict v;
		int code = rc == -ETIMEDOUT || rc == -EEXIST || rc == -EINVAL ? EXIT_FAIL :
										 EXIT_UNKNOWN;
		if (rc == -EINVAL && !strncmp(err, "'", 1))
			return fail(EXIT_USAGE, where(), NULL, "--rendezvous %s", err);
		fail(code, where(),
		     code == EXIT_UNKNOWN ? "is etcd running there? 'etcdctl endpoint health' "
					    "checks it" :
					    NULL,
		     "rank %d: %s", rank, err);
		if (code == EXIT_FAIL) {
			run_verdict_from_status(&v, rc == -ETIMEDOUT ? COMM_E_TIMEOUT :
								      COMM_E_BOOTSTRAP, err);
			run_verdict_print(&v);
		}
		return code;
	}
	rc = run_one_rank(p, rank, n, &ri, rdv);
	rdv_etcd_finish(e);
	return rc;
}

#define SECRET_HINT                                                                        \
	"export HCCLCTL_SECRET=$(openssl rand -hex 16) (or HCCLCTL_SECRET_FILE=FILE, mode 0600)"

static int single_launch(struct run_params *p, int rank, int n, const char *master)
{
	if (rendezvous_url())
		return etcd_launch(p, rank, n, rendezvous_url());
	char host[256], err[COMM_ERRLEN] = "";
	int port;
	unsigned char secret[16];
	struct comm_root_info ri;
	struct comm_rendezvous *rdv = NULL;

	if (!master)
		return fail(EXIT_USAGE, where(), "give --master HOST:PORT (rank 0 hosts it)",
			    "rank %d of %d: no rendezvous address", rank, n);
	if (split_master(master, host, sizeof(host), &port))
		return fail(EXIT_USAGE, where(), "use HOST:PORT, e.g. 10.0.0.1:29500",
			    "invalid --master '%s'", master);
	if (rank >= n)
		return fail(EXIT_USAGE, where(), NULL, "rank %d is not below the world size %d", rank,
			    n);
	int derived = run_job_secret(host, port, n, secret, err, sizeof(err));
	if (derived < 0)
		return fail(EXIT_USAGE, where(), SECRET_HINT, "rank %d: %s", rank, err);
	if (derived && n > 1 && !o_insecure)
		return fail(EXIT_USAGE, where(), SECRET_HINT " on every rank, or pass --insecure",
			    "rank %d of %d: no HCCLCTL_SECRET: the job's key would be derived from "
			    "%s, and anyone who can reach it could compute it and join",
			    rank, n, master);
	if (derived && n > 1)
		warn_msg(where(), "rank %d: --insecure: no HCCLCTL_SECRET, the job's key is derived "
			 "from %s: anyone who can reach it can join this job", rank, master);
	if (comm_root_info_make(&ri, host, port, secret, err, sizeof(err)))
		return fail(EXIT_USAGE, where(), NULL, "--master: %s", err);
	int rc = rank_identity(rank);
	if (rc)
		return rc;
	/* Under the SSH launcher, the launcher hosts the rendezvous. */
	if (rank == 0 && strcmp(p->launch, "ssh")) {
		int tmo = o_timeout ? (int)o_timeout * 1000 : 120000;
		if (comm_rendezvous_start(&rdv, &ri, n, tmo, err, sizeof(err)))
			return fail(EXIT_UNKNOWN, where(), "is another job using that port?",
				    "rank 0 cannot host the rendezvous at %s: %s", master, err);
	}
	return run_one_rank(p, rank, n, &ri, rdv);
}

/* One rank of a job whose root info is known (rdv: the rendezvous it hosts, or NULL). */
static int run_one_rank(struct run_params *p, int rank, int n, const struct comm_root_info *ri,
			struct comm_rendezvous *rdv)
{
	char err[COMM_ERRLEN + 512] = "";
	struct comm_verdict v;
	int rc = rank_main(ri, rank, n, p, err, sizeof(err), &v);
	if (*err)
		fail(rc ? rc : EXIT_FAIL, where(), NULL, "%s", err);
	if (rc == EXIT_INTERRUPT)
		fail(rc, where(), NULL, "rank %d: interrupted", rank);
	run_verdict_print(&v);
	if (rank == 0 && v.kind != COMM_VERDICT_NONE)
		run_prom_write(coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(coll), v.kind,
			       rc);
	if (p->json && (rank != 0 || v.kind != COMM_VERDICT_NONE) && !out_json_printed()) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddNumberToObject(doc, "rank", rank);
		cJSON_AddNumberToObject(doc, "world_size", n);
		if (*err)
			cJSON_AddStringToObject(doc, "error", err);
		if (v.kind != COMM_VERDICT_NONE)
			cJSON_AddItemToObject(doc, "verdict", run_verdict_json(&v));
		if (rank == 0) { /* what was measured before the failure */
			cJSON *own = relay.own ? relay.own : cJSON_CreateArray();
			relay.own = NULL;
			cJSON_AddItemToObject(doc, "results", own);
		}
		cJSON_AddNumberToObject(doc, "exit_code", rc);
		out_json(doc);
	}
	cJSON_Delete(relay.own);
	relay.own = NULL;
	comm_rendezvous_stop(rdv);
	if (hccl_abandoned) { /* exit() could wait on HCCL's threads: nothing is left to flush */
		fflush(NULL);
		_exit(rc);
	}
	return rc;
}

static const char *coll_word(void)
{
	return coll == COMM_COLL_SEND ? "sendrecv" : comm_coll_name(coll);
}

/* Launch mode 4: the sweep options go to every rank as they were given. */
static int ssh_launch(const struct run_params *p)
{
	char f[24], n[24], w[24], c[24], r[24], t[24], av[24], cy[24];
	const char *fwd[40];
	int k = 0;
	(void)p;
	snprintf(f, sizeof(f), "%ld", o_factor ? o_factor : 2);
	snprintf(av, sizeof(av), "%ld", o_average);
	snprintf(cy, sizeof(cy), "%ld", o_cycles);
	snprintf(n, sizeof(n), "%ld", o_iters);
	snprintf(w, sizeof(w), "%ld", o_warmup);
	snprintf(c, sizeof(c), "%ld", o_check);
	snprintf(r, sizeof(r), "%ld", o_root);
	snprintf(t, sizeof(t), "%ld", o_timeout);
	const char *pairs[][2] = { { "-b", o_min }, { "-e", o_max },
				   /* -i where -f does not win over it (a factor given wins) */
				   { o_step && !o_factor ? "-i" : "-f", o_step && !o_factor ? o_step : f },
				   { "-d", o_dtype }, { "-o", o_op }, { "-n", n },
				   { "-w", w }, { "-c", c }, { "-r", r }, { "--algo", o_algo },
				   { "--compress", o_compress }, { "--engine", o_engine } };
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		fwd[k++] = pairs[i][0];
		fwd[k++] = pairs[i][1];
	}
	/* only when given: a node's older hcclctl still runs what it knows */
	if (o_average != 3) {
		fwd[k++] = "-a";
		fwd[k++] = av;
	}
	if (o_cycles != 1) {
		fwd[k++] = "-N";
		fwd[k++] = cy;
	}
	if (o_timeout) {
		fwd[k++] = "--timeout";
		fwd[k++] = t;
	}
	if (run_flight_dir) {
		fwd[k++] = "--flight-dir";
		fwd[k++] = run_flight_dir;
	}
	if (run_profile_path()) { /* rank 0 writes it on its server */
		fwd[k++] = "--profile";
		fwd[k++] = run_profile_path();
	}
	struct run_ssh_args a = {
		.where = where(), .coll_name = coll_word(), .ranktable = o_ranktable,
		.user = o_ssh_user, .key = o_ssh_key, .known_hosts = o_ssh_known_hosts,
		.remote_hcclctl = o_remote_hcclctl, .master_addr = o_master_addr,
		.port = o_ssh_port, .parallel = o_parallel, .root = o_root,
		.insecure = o_ssh_insecure,
		.rdv_timeout_ms = o_timeout ? (int)o_timeout * 1000 : 120000,
		.fwd = fwd, .nfwd = k,
	};
	return run_ssh_launch(&a);
}

/* --engine hccl|auto: loads CANN's libraries in this process; where it forks ranks
 * (probe), a child only checks that they load, and each rank loads them after the fork.
 * hccl: a library or symbol missing is exit 3; auto: libcomm then. */
static int load_hccl(int probe)
{
	char err[6000];
	const char *rk = o_rank >= 0 ? "rank " : "";
	char rs[32] = "";
	if (o_rank >= 0)
		snprintf(rs, sizeof(rs), "%ld: ", o_rank);
	if (!strcmp(o_engine, "libcomm"))
		return 0;
	if (probe ? hccl_api_probe(&hccl_lib, err, sizeof(err))
		  : hccl_api_load(&hccl_lib, err, sizeof(err))) {
		if (!strcmp(o_engine, "auto")) {
			if (g_opts.verbose)
				warn_msg(where(), "%s%s--engine auto: %s: running on libcomm", rk, rs,
					 err);
			return 0;
		}
		return fail(EXIT_UNKNOWN, where(),
			    HCCL_SET_ENV " (or put CANN's lib64 on LD_LIBRARY_PATH)",
			    "%s%s--engine hccl: %s", rk, rs, err);
	}
	hccl_loaded = !probe;
	hccl_probed = probe;
	if (g_opts.verbose) {
		fprintf(stderr, "hcclctl: %s: %s%slibascendcl.so: %s (aclrtGetVersion %s)\n",
			where(), rk, rs, hccl_lib.acl_path, hccl_lib.acl_version);
		fprintf(stderr, "hcclctl: %s: %s%slibhccl.so: %s (%s%s)\n", where(), rk, rs,
			hccl_lib.hccl_path, *hccl_lib.cann_version ? "CANN " : hccl_lib.cann_note,
			hccl_lib.cann_version);
	}
	return 0;
}

/* A rank table beside a world size (--world-size, or the launcher's) must have that many
 * ranks: HCCL would wait for the missing ones until every rank is judged stuck. A table that
 * does not load is left to the rank that reads it, which says why. */
static int check_world(int n)
{
	char err[RT_ERRLEN];
	size_t nt = 0;
	if (!o_ranktable || strstr(o_ranktable, "://") ||
	    run_hccl_table_ranks(o_ranktable, &nt, err, sizeof(err)) || nt == (size_t)n)
		return 0;
	return fail(EXIT_USAGE, where(), "start as many ranks as the table has, or use its rank "
					 "count as the world size",
		    "--ranktable %s has %zu rank%s, the world size is %d", o_ranktable, nt,
		    plural_s(nt), n);
}

/* -d and -o into p: their sets (runsets.c), each dtype and op checked against --compress
 * and the engine (--engine auto falls back to libcomm here). */
static int read_types(struct run_params *p)
{
	char why[300];
	p->ndtypes = run_dtypes_parse(o_dtype, p->dtypes, why, sizeof(why));
	if (p->ndtypes < 0)
		return fail(EXIT_USAGE, where(),
			    "int8 int16 int32 int64 uint8 uint32 uint64 fp16 bf16 fp32 fp64 all",
			    "%s", why);
	p->nops = run_ops_parse(o_op, p->ops, why, sizeof(why));
	if (p->nops < 0)
		return fail(EXIT_USAGE, where(), "sum prod max min all", "%s", why);
	int z = comm_compress_parse(o_compress);
	if (z < 0)
		return fail(EXIT_USAGE, where(), "none int8", "unknown compression '%s'",
			    o_compress);
	p->compress = (enum comm_compress)z;
	for (int d = 0; z && d < p->ndtypes; d++) {
		enum comm_dtype t = p->dtypes[d];
		if (t != COMM_FP32 && t != COMM_FP16 && t != COMM_BF16)
			return fail(EXIT_USAGE, where(), "fp32 fp16 bf16",
				    "--compress %s takes -d fp32, fp16 or bf16, not %s", o_compress,
				    o_dtype);
	}
	if (z && (p->nops > 1 || p->ops[0] != COMM_SUM))
		return fail(EXIT_USAGE, where(), "-o sum",
			    "--compress %s takes -o sum, not %s", o_compress, o_op);
	for (int d = 0; strcmp(o_engine, "libcomm") && d < p->ndtypes; d++)
		for (int o = 0; strcmp(o_engine, "libcomm") && o < p->nops; o++) {
			if (!hccl_supported(coll, p->dtypes[d], p->ops[o], why, sizeof(why)))
				continue;
			if (!strcmp(o_engine, "hccl"))
				return fail(EXIT_USAGE, where(),
					    "--engine libcomm runs it on the host",
					    "--engine hccl: %s", why);
			if (g_opts.verbose)
				warn_msg(where(), "--engine auto: %s: running on libcomm", why);
			o_engine = "libcomm";
		}
	p->dtype = p->dtypes[0];
	p->op = p->ops[0];
	return 0;
}

/* The datatype, op, algorithm, compression and sizes of the sweep into p, each checked
 * against the others and the engine. */
static int read_params(struct run_params *p)
{
	int a = comm_algo_parse(o_algo);
	if (a < 0)
		return fail(EXIT_USAGE, where(), "auto ring rhd mesh", "unknown algo '%s'", o_algo);
	int rc = read_types(p);
	if (rc)
		return rc;
	if (p->compress && coll != COMM_COLL_ALLREDUCE)
		return fail(EXIT_USAGE, where(), "run allreduce --compress int8",
			    "--compress %s applies to allreduce only", o_compress);
	if (p->compress && strcmp(o_engine, "libcomm"))
		return fail(EXIT_USAGE, where(), "--engine libcomm",
			    "--compress %s is libcomm's: HCCL has no compressed allreduce", o_compress);
	p->algo = (enum comm_algo)a;
	int bad_min = parse_size(o_min, &p->min_bytes);
	if (bad_min || parse_size(o_max, &p->max_bytes))
		return fail(EXIT_USAGE, where(), "sizes are bytes with K, M or G, e.g. -b 8 -e 64M",
			    "invalid value '%s' for --%s", bad_min ? o_min : o_max,
			    bad_min ? "minbytes" : "maxbytes");
	if (o_step && parse_size(o_step, &p->step))
		return fail(EXIT_USAGE, where(), "bytes with K, M or G, e.g. -i 1M",
			    "invalid value '%s' for --stepbytes", o_step);
	if (o_step && o_factor) /* nccl-tests: a factor above 1 wins over the step */
		p->step = 0;
	else if (o_step && p->step == 0) /* hccl_test: -i 0 repeats -b */
		p->max_bytes = p->min_bytes;
	if (p->min_bytes > p->max_bytes)
		return fail(EXIT_USAGE, where(), NULL, "-b %s is larger than -e %s", o_min, o_max);
	if (p->max_bytes > (8ULL << 30))
		return fail(EXIT_USAGE, where(), NULL, "-e %s: at most 8G", o_max);
	if (p->min_bytes == 0)
		p->min_bytes = 1;
	if (o_agg > 1)
		warn_msg(where(), "-m %ld: libcomm has no groups of collectives: each iteration runs "
			 "one, as -m 1", o_agg);
	return 0;
}

/* env_launch's answer when no launcher's environment names this rank. */
#define NO_ENV_LAUNCH (-1)

/* The rank and world size from the environment of torchrun, Open MPI, Slurm or Ascend (the
 * first that is set), with the master address they imply: runs that rank. */
static int env_launch(struct run_params *p)
{
	static const struct {
		const char *rank, *size, *name;
	} envs[] = {
		{ "RANK", "WORLD_SIZE", "torchrun" },
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "openmpi" },
		{ "SLURM_PROCID", "SLURM_NTASKS", "slurm" },
		{ "RANK_ID", "RANK_SIZE", "ascend" },
	};
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		long r = env_long(envs[i].rank), n = env_long(envs[i].size);
		if (r == -1 && n == -1)
			continue;
		if (r < 0 || n < 1)
			return fail(EXIT_USAGE, where(), NULL, "%s and %s must both be set to numbers",
				    envs[i].rank, envs[i].size);
		p->launch = envs[i].name;
		if (r != 0) /* the launcher merges every rank's stdout: rank 0 speaks for all */
			out_json_silence();
		const char *master = o_master;
		char buf[300];
		if (!master && !strcmp(envs[i].name, "torchrun") && getenv("MASTER_ADDR") &&
		    getenv("MASTER_PORT")) {
			/* torchrun's agent may hold its own store on MASTER_PORT (it tells its
			 * workers so): rank 0 hosts on the next port then */
			const char *as = getenv("TORCHELASTIC_USE_AGENT_STORE");
			long mp = atol(getenv("MASTER_PORT"));
			if (as && !strcasecmp(as, "true") && mp > 0 && mp < 65535)
				snprintf(buf, sizeof(buf), "%s:%ld", getenv("MASTER_ADDR"), mp + 1);
			else
				snprintf(buf, sizeof(buf), "%s:%s", getenv("MASTER_ADDR"),
					 getenv("MASTER_PORT"));
			master = buf;
		}
		/* srun started from the batch script: task 0 runs on the node that launched
		 * the step, whose address Slurm gives; the port is MASTER_PORT or 29500 */
		if (!master && !strcmp(envs[i].name, "slurm") && getenv("SLURM_LAUNCH_NODE_IPADDR") &&
		    *getenv("SLURM_LAUNCH_NODE_IPADDR")) {
			const char *port = getenv("MASTER_PORT"), *ip = getenv("SLURM_LAUNCH_NODE_IPADDR");
			snprintf(buf, sizeof(buf), strchr(ip, ':') ? "[%s]:%s" : "%s:%s", ip,
				 port && *port ? port : "29500");
			master = buf;
		}
		int rc = check_world((int)n);
		if (!rc)
			rc = load_hccl(0);
		return rc ? rc : single_launch(p, (int)r, (int)n, master);
	}
	return NO_ENV_LAUNCH;
}

/* -g, -t and -p (runsets.c): the --local they stand for, if any. */
static int read_placement(void)
{
	static const char *const env[] = { "RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID",
					   "RANK_ID" };
	struct run_placement pl = { .ngpus = o_ngpus, .nthreads = o_nthreads, .npus = o_npus,
				    .local = o_local, .where = where(),
				    .launcher = o_rank >= 0 || o_world >= 0 || o_ssh };
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		pl.launcher |= env_long(env[i]) != -1;
	int rc = run_placement_read(&pl);
	o_local = pl.local;
	return rc;
}

static int do_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct run_params p = { .coll = coll, .factor = o_factor ? (unsigned long)o_factor : 2,
				.iters = o_iters, .warmup = o_warmup, .check = (int)o_check,
				.root = (int)o_root, .cycles = o_cycles, .average = (int)o_average,
				.seed = 20261130, .json = g_opts.json, .launch = "local" };
	int rc = read_params(&p);
	if (!rc)
		rc = read_placement();
	if (rc)
		return rc;

	/* Launch, first that applies. */
	if (o_ssh || ((o_ssh_user || o_ssh_key || o_ssh_known_hosts || o_ssh_port ||
		       o_ssh_insecure || o_parallel || o_remote_hcclctl ||
		       (o_master_addr && !rendezvous_url())) &&
		      o_rank < 0 && o_world < 0)) {
		if (!o_ssh)
			return fail(EXIT_USAGE, where(), "add --ssh (with --ranktable FILE)",
				    "the --ssh-* options need --ssh");
		if (!o_ranktable)
			return fail(EXIT_USAGE, where(), NULL, "--ssh needs --ranktable FILE|URL");
		if (o_local || o_rank >= 0 || o_world >= 0 || o_master || o_rendezvous || o_insecure)
			return fail(EXIT_USAGE, where(), NULL,
				    "--ssh cannot be combined with --local, --rank, --world-size, "
				    "--master, --rendezvous or --insecure (it gives its ranks a fresh "
				    "secret)");
		return ssh_launch(&p);
	}
	if (o_ranktable && o_local)
		return fail(EXIT_USAGE, where(), "add --ssh to start the ranks on its servers",
			    "--ranktable with --local");
	if (o_rendezvous && (o_local || o_master))
		return fail(EXIT_USAGE, where(), "--rendezvous replaces --master; --local needs neither",
			    "--rendezvous cannot be combined with --%s", o_local ? "local" : "master");
	if (o_local) {
		if (o_rank >= 0 || o_world >= 0 || o_insecure)
			return fail(EXIT_USAGE, where(), NULL,
				    "--local cannot be combined with --rank/--world-size or --insecure "
				    "(it gives its ranks a fresh secret)");
		if (o_root >= o_local)
			return fail(EXIT_USAGE, where(), NULL, "--root %ld is not a rank of %ld", o_root,
				    o_local);
		rc = load_hccl(1);
		return rc ? rc : local_launch(&p, (int)o_local);
	}
	if (o_rank >= 0 || o_world >= 0) {
		if (o_rank < 0 || o_world < 0)
			return fail(EXIT_USAGE, where(), NULL, "--rank and --world-size go together");
		const char *by = getenv("HCCLCTL_LAUNCH"); /* set by the SSH launcher */
		p.launch = by && !strcmp(by, "ssh") ? "ssh" : rendezvous_url() ? "etcd" : "master";
		/* `srun hcclctl run --rank $SLURM_PROCID`: one task of a launcher that merges
		 * every task's stdout, as when the rank comes from its environment */
		if (o_rank != 0 && strcmp(p.launch, "ssh") &&
		    (env_long("SLURM_NTASKS") > 1 || env_long("OMPI_COMM_WORLD_SIZE") > 1 ||
		     env_long("WORLD_SIZE") > 1))
			out_json_silence();
		/* a rank of run-node (runnode.c), which passes Ctrl-C on as SIGINT: stop at the
		 * next row with the others, as --local's ranks do */
		if (getenv("HCCLCTL_RUN_NODE")) {
			run_stop_arm();
			relay.to_launcher = o_rank == 0 && !strcmp(p.launch, "ssh");
		}
		rc = check_world((int)o_world);
		if (!rc)
			rc = load_hccl(0);
		return rc ? rc : single_launch(&p, (int)o_rank, (int)o_world, o_master);
	}
	if ((rc = env_launch(&p)) != NO_ENV_LAUNCH)
		return rc;
	if (o_ranktable)
		return fail(EXIT_USAGE, where(), "add --ssh to start the ranks on its servers",
			    "--ranktable without --ssh or --rank");
	if (o_root >= 2)
		return fail(EXIT_USAGE, where(), NULL, "--root %ld is not a rank of 2", o_root);
	rc = load_hccl(1);
	return rc ? rc : local_launch(&p, 2);
}

#define RUN_LEAF(coll_)                                                                   \
	static int run_##coll_(int argc, char **argv)                                     \
	{                                                                                 \
		coll = COMM_COLL_##coll_;                                                 \
		return do_run(argc, argv);                                                \
	}
RUN_LEAF(ALLREDUCE)
RUN_LEAF(ALLGATHER)
RUN_LEAF(REDUCESCATTER)
RUN_LEAF(BROADCAST)
RUN_LEAF(ALLTOALL)
RUN_LEAF(SEND)
RUN_LEAF(BARRIER)

#define LEAF(n, f, s) { .name = n, .summary = s, .run = f, .opts = run_opts, .max_args = 0 }
const struct cmd run_commands[] = {
	LEAF("allreduce", run_ALLREDUCE, "every rank gets the reduction of all ranks' buffers"),
	LEAF("allgather", run_ALLGATHER, "every rank gets every rank's buffer"),
	LEAF("reducescatter", run_REDUCESCATTER, "every rank gets its block of the reduction"),
	LEAF("broadcast", run_BROADCAST, "every rank gets the root's buffer"),
	LEAF("alltoall", run_ALLTOALL, "every rank sends a block to every other rank"),
	LEAF("sendrecv", run_SEND, "each rank sends to the next and receives from the previous"),
	LEAF("barrier", run_BARRIER, "every rank waits for all"),
	{ 0 },
};
