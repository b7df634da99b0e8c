/* Finds and opens CANN's libascendcl.so and libhccl.so at run time, fills the function table
 * from one list of symbols, and names HCCL's and ACL's codes. */
#include <dlfcn.h>
#include <unistd.h>
#include <sys/wait.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/lib/hcclapi.h"
#include "probes/host/cannver.h"
#include "probes/npu/hcclcodes.h"
#include "ranktable/base/io.h"

enum { LIB_ACL, LIB_HCCL };
static const char *const lib_names[] = { "libascendcl.so", "libhccl.so" };

#define SYM(lib, f) { lib, #f, offsetof(struct hccl_api, f) }
static const struct {
	int lib;
	const char *name;
	size_t off;
} syms[] = {
	SYM(LIB_ACL, aclInit), SYM(LIB_ACL, aclFinalize), SYM(LIB_ACL, aclrtSetDevice),
	SYM(LIB_ACL, aclrtResetDevice), SYM(LIB_ACL, aclrtGetDeviceCount),
	SYM(LIB_ACL, aclrtCreateStream), SYM(LIB_ACL, aclrtDestroyStream),
	SYM(LIB_ACL, aclrtSynchronizeStream), SYM(LIB_ACL, aclrtSynchronizeStreamWithTimeout),
	SYM(LIB_ACL, aclrtMalloc), SYM(LIB_ACL, aclrtFree), SYM(LIB_ACL, aclrtMemcpy),
	SYM(LIB_ACL, aclrtMemset), SYM(LIB_ACL, aclrtCreateEvent), SYM(LIB_ACL, aclrtDestroyEvent),
	SYM(LIB_ACL, aclrtRecordEvent), SYM(LIB_ACL, aclrtSynchronizeEvent),
	SYM(LIB_ACL, aclrtQueryEventStatus), SYM(LIB_ACL, aclrtEventElapsedTime),
	SYM(LIB_ACL, aclrtGetVersion), SYM(LIB_ACL, aclGetRecentErrMsg),
	SYM(LIB_HCCL, HcclCommInitClusterInfo), SYM(LIB_HCCL, HcclGetRootInfo),
	SYM(LIB_HCCL, HcclCommInitRootInfo), SYM(LIB_HCCL, HcclCommDestroy),
	SYM(LIB_HCCL, HcclAllReduce), SYM(LIB_HCCL, HcclAllGather),
	SYM(LIB_HCCL, HcclReduceScatter), SYM(LIB_HCCL, HcclBroadcast),
	SYM(LIB_HCCL, HcclAlltoAll), SYM(LIB_HCCL, HcclSend), SYM(LIB_HCCL, HcclRecv),
	SYM(LIB_HCCL, HcclBarrier), SYM(LIB_HCCL, HcclGetRankSize), SYM(LIB_HCCL, HcclGetRankId),
	SYM(LIB_HCCL, HcclGetCommAsyncError), SYM(LIB_HCCL, HcclGetErrorString),
};

/* Names from the one table of HCCL's and ACL's codes, which the log triage reads too. */
const char *hccl_result_name(int code)
{
	const char *n = hresult_name(code);
	return n ? n : "HCCL_E_?";
}

const char *hccl_acl_error_name(int code)
{
	return hacl_name(code);
}

int hccl_supported(enum comm_coll coll, enum comm_dtype t, enum comm_op op, char *why,
		   size_t len)
{
	/* the reductions take int8 int16 int32 int64 fp16 fp32 bf16, prod not int16 or bf16;
	 * the other collectives take every type */
	static const unsigned char reduces[COMM_DTYPE_COUNT] = {
		[COMM_INT8] = 1, [COMM_INT32] = 1, [COMM_INT64] = 1, [COMM_FP16] = 1,
		[COMM_BF16] = 1, [COMM_FP32] = 1, [COMM_INT16] = 1,
	};
	const char *name = coll == COMM_COLL_ALLREDUCE ? "HcclAllReduce" : "HcclReduceScatter";
	if ((coll != COMM_COLL_ALLREDUCE && coll != COMM_COLL_REDUCESCATTER) ||
	    (unsigned)t >= COMM_DTYPE_COUNT)
		return 0;
	if (!reduces[t]) {
		snprintf(why, len, "%s takes no %s: HCCL reduces int8, int16, int32, int64, fp16, "
				   "fp32 and bf16", name, comm_dtype_name(t));
		return -ENOTSUP;
	}
	if (op == COMM_PROD && (t == COMM_BF16 || t == COMM_INT16)) {
		snprintf(why, len, "%s takes no prod on %s", name, comm_dtype_name(t));
		return -ENOTSUP;
	}
	return 0;
}

/* One entry of a visible-devices list: "4" or a range "4-7". 0 with [*lo, *hi] and *p past
 * it, or -1. */
static int visible_entry(const char **p, long *lo, long *hi)
{
	char *end;
	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	*lo = *hi = strtol(*p, &end, 10);
	if (*end == '-') {
		const char *q = end + 1;
		if (*q < '0' || *q > '9')
			return -1;
		*hi = strtol(q, &end, 10);
	}
	if (errno || *hi > 65535 || *hi < *lo || (*end && *end != ','))
		return -1;
	*p = end;
	return 0;
}

int hccl_visible_position(const char *list, int phys)
{
	int pos = 0, found = -1;
	for (const char *p = list;;) {
		long lo, hi;
		if (visible_entry(&p, &lo, &hi) || pos + (hi - lo) > 65535)
			return -2;
		if (found < 0 && phys >= lo && phys <= hi)
			found = pos + (int)(phys - lo);
		pos += (int)(hi - lo + 1);
		if (!*p)
			return found;
		p++;
	}
}

int hccl_dtype_of(enum comm_dtype t)
{
	static const int map[COMM_DTYPE_COUNT] = {
		[COMM_INT8] = HCCL_DT_INT8, [COMM_INT32] = HCCL_DT_INT32,
		[COMM_INT64] = HCCL_DT_INT64, [COMM_FP16] = HCCL_DT_FP16,
		[COMM_BF16] = HCCL_DT_BFP16, [COMM_FP32] = HCCL_DT_FP32,
		[COMM_FP64] = HCCL_DT_FP64, [COMM_INT16] = HCCL_DT_INT16,
		[COMM_UINT8] = HCCL_DT_UINT8, [COMM_UINT32] = HCCL_DT_UINT32,
		[COMM_UINT64] = HCCL_DT_UINT64,
	};
	return (unsigned)t < COMM_DTYPE_COUNT ? map[t] : -1;
}

int hccl_op_of(enum comm_op op)
{
	static const int map[COMM_OP_COUNT] = { [COMM_SUM] = HCCL_OP_SUM,
						[COMM_PROD] = HCCL_OP_PROD,
						[COMM_MAX] = HCCL_OP_MAX,
						[COMM_MIN] = HCCL_OP_MIN };
	return (unsigned)op < COMM_OP_COUNT ? map[op] : -1;
}

/* The file a handle was loaded from, symlinks resolved. */
static void loaded_path(void *handle, char *out, size_t len)
{
	struct link_map *m = NULL;
	char real[PATH_MAX];
	if (dlinfo(handle, RTLD_DI_LINKMAP, &m) || !m || !m->l_name || !*m->l_name)
		snprintf(out, len, "?");
	else
		snprintf(out, len, "%s", realpath(m->l_name, real) ? real : m->l_name);
}

/* The files CANN writes its version in, nearest first at each level above libhccl.so:
 * version.info (a runtime's or the top of an install), the toolkit's
 * <arch>-linux/ascend_toolkit_install.info, and version.cfg at the toolkit's top
 * (…/ascend-toolkit/8.0.RC3/, which latest/ links to). The first found is the version
 * reported. */
static void cann_version(struct hccl_api *a)
{
	static const char *const files[] = { "version.info", "ascend_toolkit_install.info",
					     "version.cfg" };
	char dir[4096], path[4200];
	snprintf(a->cann_note, sizeof(a->cann_note),
		 "no version.info, ascend_toolkit_install.info or version.cfg");
	snprintf(dir, sizeof(dir), "%s", a->hccl_path);
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			return;
		*slash = 0;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			FILE *f = fopen(path, "r");
			if (!f)
				continue;
			char text[4096], err[128];
			size_t n = fread(text, 1, sizeof(text), f);
			fclose(f);
			int rc = cann_version_parse(text, n, a->cann_version,
						    sizeof(a->cann_version), err, sizeof(err));
			if (rc == -EINVAL) /* said, not hidden: a file that is not what it claims */
				snprintf(a->cann_note, sizeof(a->cann_note), "%.180s:%.100s", path,
					 err);
			if (rc != -ENOENT)
				return;
		}
	}
}

static void *open_lib(const char *name, char *tried, size_t tlen)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
	const char *lp = getenv("LD_LIBRARY_PATH");
	size_t at = (size_t)snprintf(tried, tlen, "%s on the loader's path (LD_LIBRARY_PATH%s%s)",
				     name, lp && *lp ? "=" : " unset", lp && *lp ? lp : "");
	static const char *const envs[] = { "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME" };
	for (size_t i = 0; !h && i < sizeof(envs) / sizeof(envs[0]); i++) {
		const char *root = getenv(envs[i]);
		char path[4200];
		if (!root || !*root) {
			if (at < tlen)
				at += (size_t)snprintf(tried + at, tlen - at, ", $%s unset", envs[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/lib64/%s", root, name);
		h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
		if (at < tlen)
			at += (size_t)snprintf(tried + at, tlen - at, ", %s ($%s)", path, envs[i]);
	}
	return h;
}

int hccl_api_load(struct hccl_api *a, char *err, size_t errlen)
{
	void *h[2];
	char tried[1500];
	memset(a, 0, sizeof(*a));
	/* acl first: libhccl.so needs it resolved when it is opened by path */
	for (int l = LIB_ACL; l <= LIB_HCCL; l++) {
		h[l] = open_lib(lib_names[l], tried, sizeof(tried));
		if (!h[l]) {
			snprintf(err, errlen, "cannot load %s: not found; tried %s", lib_names[l],
				 tried);
			return -ENOENT;
		}
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *p = dlsym(h[syms[i].lib], syms[i].name);
		if (!p) {
			char where[4096];
			loaded_path(h[syms[i].lib], where, sizeof(where));
			snprintf(err, errlen, "%s has no symbol %s (loaded from %s): not the CANN "
					      "version hcclctl needs",
				 lib_names[syms[i].lib], syms[i].name, where);
			return -ENOSYS;
		}
		memcpy((char *)a + syms[i].off, &p, sizeof(p));
	}
	/* optional: older runtimes have none, and the device lookup falls back on the
	 * visible-devices list */
	void *phy = dlsym(h[LIB_ACL], "aclrtGetPhyDevIdByLogicDevId");
	memcpy(&a->aclrtGetPhyDevIdByLogicDevId, &phy, sizeof(phy));
	a->acl_handle = h[LIB_ACL];
	a->hccl_handle = h[LIB_HCCL];
	loaded_path(h[LIB_ACL], a->acl_path, sizeof(a->acl_path));
	loaded_path(h[LIB_HCCL], a->hccl_path, sizeof(a->hccl_path));
	int32_t ma = -1, mi = -1, pa = -1;
	if (a->aclrtGetVersion(&ma, &mi, &pa) == HCCL_ACL_SUCCESS)
		snprintf(a->acl_version, sizeof(a->acl_version), "%d.%d.%d", ma, mi, pa);
	else
		snprintf(a->acl_version, sizeof(a->acl_version), "?");
	cann_version(a);
	return 0;
}

/* What a probe's child sends back: the outcome and what -v shows. */
struct probe_msg {
	int rc;
	char err[2048];
	char acl_path[4096], hccl_path[4096], acl_version[32], cann_version[64], cann_note[300];
};

int hccl_api_probe(struct hccl_api *a, char *err, size_t errlen)
{
	struct probe_msg *m = calloc(1, sizeof(*m));
	int fd[2], st = 0;
	if (!m || pipe(fd)) {
		free(m);
		snprintf(err, errlen, "cannot check the libraries: %s", strerror(errno));
		return -EAGAIN;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		m->rc = hccl_api_load(a, m->err, sizeof(m->err));
		memcpy(m->acl_path, a->acl_path, sizeof(m->acl_path));
		memcpy(m->hccl_path, a->hccl_path, sizeof(m->hccl_path));
		memcpy(m->acl_version, a->acl_version, sizeof(m->acl_version));
		memcpy(m->cann_version, a->cann_version, sizeof(m->cann_version));
		memcpy(m->cann_note, a->cann_note, sizeof(m->cann_note));
		_exit(fd_write_all(fd[1], m, sizeof(*m)) ? 1 : 0);
	}
	close(fd[1]);
	size_t got = 0;
	while (pid > 0 && got < sizeof(*m)) {
		ssize_t r = read(fd[0], (char *)m + got, sizeof(*m) - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd[0]);
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	memset(a, 0, sizeof(*a));
	int rc = got == sizeof(*m) ? m->rc : -EAGAIN;
	if (got == sizeof(*m)) {
		snprintf(err, errlen, "%s", m->err);
		memcpy(a->acl_path, m->acl_path, sizeof(a->acl_path));
		memcpy(a->hccl_path, m->hccl_path, sizeof(a->hccl_path));
		memcpy(a->acl_version, m->acl_version, sizeof(a->acl_version));
		memcpy(a->cann_version, m->cann_version, sizeof(a->cann_version));
		memcpy(a->cann_note, m->cann_note, sizeof(a->cann_note));
	} else {
		snprintf(err, errlen, "cannot check the libraries: the checking process %s",
			 pid < 0 ? "did not start" : "ended without an answer");
	}
	free(m);
	return rc;
}
