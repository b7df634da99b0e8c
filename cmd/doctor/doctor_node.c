/* doctor's node side: the checks one node can make of itself, as one JSON document on stdout
 * (`hcclctl doctor --node`, started on every node by the launcher over SSH, or in-process
 * with --local). The link checks run this binary's own probes (`probe hccs|roce|rdma
 * --json`) with a deadline, so doctor and the probes can never disagree; the host checks read
 * the kernel directly; the port check listens on the job's ports and connects to every peer.
 * Facts that only mean something across nodes (versions, TLS switch, MTU, clock) go in
 * "facts" for the launcher to compare. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/doctor/doctor.h"
#include "cmd/lib/nodeself.h"
#include "probes/nic/rdma_sysfs.h"
#include "probes/npu/npusmi.h"
#include "probes/tool/tool.h"
#include "ranktable/ranktable.h"
#include "cmd/lib/tablefile.h"
#include "ranktable/base/clock.h"
#include "ranktable/base/plural.h"

#define PROBE_TIMEOUT_MS 60000

/* One check's result, as doctor_hw.c and doctor_host.c add theirs. */
#define add_check doctor_check_add

/* Runs `hcclctl --json probe WHAT ARGS...` (this very binary): its JSON document and exit
 * code, or NULL with why. */
static cJSON *self_probe(const struct doctor_node_args *a, const char *what,
			 const char *const *extra, int *code, char *why, size_t wlen)
{
	char exe[4096];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k <= 0) {
		snprintf(why, wlen, "cannot find this program: %s", strerror(errno));
		return NULL;
	}
	exe[k] = '\0';
	char *argv[24];
	int n = 0;
	argv[n++] = exe;
	argv[n++] = (char *)"--json";
	argv[n++] = (char *)"probe";
	argv[n++] = (char *)what;
	for (int i = 0; extra && extra[i] && n < 20; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	struct probe_tool_result r = { 0 };
	char err[PROBE_ERRLEN];
	/* the running binary itself, even if it was replaced on disk meanwhile */
	int rc = probe_tool_run("/proc/self/exe", argv,
				a->timeout_ms ? a->timeout_ms : PROBE_TIMEOUT_MS, &r, err, sizeof(err));
	cJSON *doc = NULL;
	if (rc) {
		snprintf(why, wlen, "probe %s: %s", what, rc == -ETIMEDOUT ? "timed out" : err);
	} else {
		*code = r.status;
		doc = cJSON_ParseWithLength(r.out, r.outlen);
		if (!doc)
			snprintf(why, wlen, "probe %s printed no JSON (exit %d)", what, r.status);
	}
	probe_tool_result_release(&r);
	return doc;
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The "hcclctl: ... error" a probe recorded in its JSON error document, if any. */
static const char *probe_error(const cJSON *doc)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
	return cJSON_IsObject(e) ? jstr(e, "message") : NULL;
}

static const char *status_of_exit(int code)
{
	return code == 0 ? "PASS" : code == 1 ? "WARN" : code == 2 ? "FAIL" : "SKIP";
}

void doctor_hccs_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	(void)facts;
	const char *extra[4] = { NULL };
	int k = 0, code = 3;
	if (a->npu_smi) {
		extra[k++] = "--npu-smi";
		extra[k++] = a->npu_smi;
	}
	char why[600] = "";
	cJSON *doc = self_probe(a, "hccs", extra, &code, why, sizeof(why));
	if (!doc) {
		add_check(checks, "npu.smi", "FAIL", "check the NPU driver (dmesg, npu-smi info)", "%s",
			  why);
		return;
	}
	const char *perr = probe_error(doc);
	if (code == 3 && perr && strstr(perr, "(missing)")) {
		add_check(checks, "npu.smi", "SKIP", NULL,
			  "npu-smi not found: not an Ascend node, or the driver is not installed");
		add_check(checks, "npu.health", "SKIP", NULL, "no npu-smi");
		add_check(checks, "link.hccs", "SKIP", NULL, "no npu-smi");
		cJSON_Delete(doc);
		return;
	}
	if (code == 3) {
		add_check(checks, "npu.smi", "FAIL",
			  "check the driver (dmesg); restart the device manager; reboot the node",
			  "npu-smi does not answer: %s", perr ? perr : "unknown error");
		cJSON_Delete(doc);
		return;
	}
	const cJSON *chips = cJSON_GetObjectItemCaseSensitive(doc, "chips"), *ch;
	int nchips = 0, unhealthy = 0, down = 0;
	char bad[512] = "", links[512] = "";
	size_t bo = 0, lo = 0;
	cJSON_ArrayForEach(ch, chips)
	{
		nchips++;
		const cJSON *npu = cJSON_GetObjectItemCaseSensitive(ch, "npu");
		const cJSON *chip = cJSON_GetObjectItemCaseSensitive(ch, "chip");
		const char *h = jstr(ch, "health");
		if (h && strcmp(h, "OK") && bo < sizeof(bad) - 64) {
			unhealthy++;
			bo += (size_t)snprintf(bad + bo, sizeof(bad) - bo, "%sNPU %d chip %d: %s",
					       bo ? ", " : "", npu ? npu->valueint : -1,
					       chip ? chip->valueint : -1, h);
		}
		const cJSON *ls = cJSON_GetObjectItemCaseSensitive(ch, "links"), *l;
		cJSON_ArrayForEach(l, ls)
		{
			const char *st = jstr(l, "status");
			if (!st || !strcmp(st, "PASS") || !strcmp(st, "SKIP"))
				continue;
			down++;
			const cJSON *li = cJSON_GetObjectItemCaseSensitive(l, "link");
			const char *reason = jstr(l, "reason");
			if (lo < sizeof(links) - 96)
				lo += (size_t)snprintf(links + lo, sizeof(links) - lo,
						       "%sNPU %d chip %d link %d %s",
						       lo ? "; " : "", npu ? npu->valueint : -1,
						       chip ? chip->valueint : -1,
						       li ? li->valueint : -1, reason ? reason : st);
		}
	}
	add_check(checks, "npu.smi", "PASS", NULL, "npu-smi answers: %d NPU chip%s", nchips,
		  plural_s(nchips));
	if (unhealthy)
		add_check(checks, "npu.health", "FAIL",
			  "npu-smi info -t health -i N for the error code; reset or replace the NPU",
			  "health not OK: %s", bad);
	else
		add_check(checks, "npu.health", "PASS", NULL, "all %d chips healthy", nchips);
	if (code == 0)
		add_check(checks, "link.hccs", "PASS", NULL, "every HCCS link up");
	else
		add_check(checks, "link.hccs", status_of_exit(code),
			  "npu-smi info -t hccs -i N -c C; reseat or replace the board, or isolate the NPU",
			  "%s", *links ? links : "HCCS links degraded");
	cJSON_Delete(doc);
}

/* nic.counters: the error counters probe roce found non-zero on each NIC (its "counters"
 * findings). They total everything since the last clear, so this is a WARN that names them,
 * never a FAIL; no device whose counters could be read: no result at all. */
static void counter_check(const cJSON *devs, cJSON *checks)
{
	char bad[800] = "";
	size_t off = 0;
	int nread = 0;
	const cJSON *d;
	cJSON_ArrayForEach(d, devs)
	{
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(d, "counters"), *f;
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(d, "device");
		if (!cJSON_IsObject(c))
			continue;
		nread++;
		int first = 1;
		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(c, "findings"))
		{
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "value");
			const char *name = jstr(f, "counter");
			if (!name || !cJSON_IsNumber(v) || !cJSON_IsNumber(id) ||
			    off >= sizeof(bad) - 96)
				continue;
			if (first)
				off += (size_t)snprintf(bad + off, sizeof(bad) - off, "%sdevice %d: ",
							off ? "; " : "", id->valueint);
			off += (size_t)snprintf(bad + off, sizeof(bad) - off, "%s%s %.0f",
						first ? "" : ", ", name, v->valuedouble);
			first = 0;
		}
	}
	if (*bad)
		add_check(checks, "nic.counters", "WARN",
			  "read them again (hccn_tool -i N -stat -g): counters that grow mean a live "
			  "fault; check the fibre, optics (-optical -g) and the switch port",
			  "error counters since they were last cleared: %s", bad);
	else if (nread)
		add_check(checks, "nic.counters", "PASS", NULL,
			  "no error counter above 0 on %d NPU NIC%s", nread, plural_s(nread));
}

/* Why probe roce compared no device_ip with the table: its own reason, when it gave one. */
static const char *table_why(const cJSON *doc)
{
	const char *why = jstr(cJSON_GetObjectItemCaseSensitive(doc, "ranktable"), "reason");
	return why && *why ? why : "no device of the rank table has an IP on its NIC here";
}

void doctor_roce_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	const char *extra[10] = { NULL };
	int k = 0, code = 3;
	if (a->hccn_tool) {
		extra[k++] = "--hccn-tool";
		extra[k++] = a->hccn_tool;
	}
	if (a->npu_smi) {
		extra[k++] = "--npu-smi";
		extra[k++] = a->npu_smi;
	}
	if (a->ranktable) {
		extra[k++] = "--ranktable";
		extra[k++] = a->ranktable;
	}
	if (a->server_id) {
		extra[k++] = "--server-id";
		extra[k++] = a->server_id;
	}
	char why[600] = "";
	cJSON *doc = self_probe(a, "roce", extra, &code, why, sizeof(why));
	if (!doc) {
		add_check(checks, "link.roce", "FAIL", "check hccn_tool and the driver", "%s", why);
		return;
	}
	const char *perr = probe_error(doc);
	const cJSON *devs0 = cJSON_GetObjectItemCaseSensitive(doc, "devices");
	if (code == 3 && !cJSON_GetArraySize(devs0)) {
		int missing = perr && strstr(perr, "(missing)");
		add_check(checks, "link.roce", missing ? "SKIP" : "FAIL",
			  missing ? NULL : "check hccn_tool and the NPU driver", "%s",
			  missing ? "hccn_tool or npu-smi not found: no NPU NICs"
				  : perr ? perr : "hccn_tool failed");
		add_check(checks, "nic.ip", "SKIP", NULL, "no NIC facts");
		cJSON_Delete(doc);
		return;
	}
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices"), *d;
	char linkbad[600] = "", ipbad[600] = "";
	size_t lo = 0, io = 0;
	int ndev = 0, ncompared = 0, tls_on = 0, tls_off = 0;
	cJSON *tls = cJSON_AddArrayToObject(facts, "tls");
	cJSON_ArrayForEach(d, devs)
	{
		ndev++;
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(d, "device");
		int dev = cJSON_IsNumber(id) ? id->valueint : -1;
		const char *link = jstr(d, "link"), *health = jstr(d, "net_health");
		const char *ip = jstr(d, "ipaddr"), *want = jstr(d, "ranktable_device_ip");
		if (((link && strcmp(link, "UP")) || (health && strcmp(health, "Success"))) &&
		    lo < sizeof(linkbad) - 96)
			lo += (size_t)snprintf(linkbad + lo, sizeof(linkbad) - lo,
					       "%sdevice %d link %s, net health %s", lo ? "; " : "",
					       dev, link ? link : "?", health ? health : "?");
		ncompared += want && ip;
		if (want && ip && strcmp(want, ip) && io < sizeof(ipbad) - 128)
			io += (size_t)snprintf(ipbad + io, sizeof(ipbad) - io,
					       "%sdevice %d has %s, the rank table says %s",
					       io ? "; " : "", dev, ip, want);
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(d, "tls");
		const cJSON *en = cJSON_GetObjectItemCaseSensitive(t, "enabled");
		if (cJSON_IsBool(en)) {
			cJSON_IsTrue(en) ? tls_on++ : tls_off++;
			cJSON_AddItemToArray(tls, cJSON_CreateNumber(cJSON_IsTrue(en)));
		}
	}
	if (*linkbad)
		add_check(checks, "link.roce", "FAIL",
			  "hccn_tool -i N -link -g and -net_health -g; check the cable and optics "
			  "(-optical -g); hccn_tool -i N -cfg recovery",
			  "%s", linkbad);
	else
		add_check(checks, "link.roce", "PASS", NULL, "%d NPU NIC%s up, net health Success",
			  ndev, plural_s(ndev));
	if (*ipbad)
		add_check(checks, "nic.ip", "FAIL",
			  "make device_ip in the rank table equal the NIC's IP (hccn_tool -i N -ip -g, "
			  "/etc/hccn.conf), or set the NIC's IP: hccn_tool -i N -ip -s address ...",
			  "%s", ipbad);
	else if (ncompared)
		add_check(checks, "nic.ip", "PASS", NULL, "the device_ip of %d device%s equals "
			  "its NIC's IP", ncompared, plural_s(ncompared));
	else
		add_check(checks, "nic.ip", "SKIP", NULL, "nothing to compare: %s",
			  !a->ranktable ? "no rank table given" : table_why(doc));
	if (tls_on && tls_off)
		add_check(checks, "nic.tls", "FAIL",
			  "hccn_tool -i N -tls -s enable 0 (or 1) on every NPU of the cluster",
			  "TLS switch differs between the NPUs of this node: %d on, %d off", tls_on,
			  tls_off);
	counter_check(devs, checks);
	cJSON_Delete(doc);
}

void doctor_rdma_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	const char *extra[4] = { NULL };
	if (a->sysfs_root) {
		extra[0] = "--sysfs-root";
		extra[1] = a->sysfs_root;
	}
	int code = 3;
	char why[600] = "";
	cJSON *doc = self_probe(a, "rdma", extra, &code, why, sizeof(why));
	if (!doc) {
		add_check(checks, "link.rdma", "FAIL", NULL, "%s", why);
		return;
	}
	if (code == 3) {
		const char *perr = probe_error(doc);
		add_check(checks, "link.rdma", "SKIP", NULL, "%s",
			  perr ? perr : "no RDMA device on this node");
		cJSON_Delete(doc);
		return;
	}
	cJSON *mtu = cJSON_AddArrayToObject(facts, "mtu");
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices"), *d;
	cJSON_ArrayForEach(d, devs)
	{
		const cJSON *ports = cJSON_GetObjectItemCaseSensitive(d, "ports"), *p;
		cJSON_ArrayForEach(p, ports)
		{
			const cJSON *m = cJSON_GetObjectItemCaseSensitive(p, "active_mtu");
			if (cJSON_IsNumber(m))
				cJSON_AddItemToArray(mtu, cJSON_CreateNumber(m->valuedouble));
		}
	}
	add_check(checks, "link.rdma", status_of_exit(code),
		  code ? "ibstat / rdma link; check the cable, the switch port and the subnet manager"
		       : NULL,
		  "%s", code ? "an RDMA port is not active (probe rdma names it)" : "every RDMA port active");
	cJSON_Delete(doc);
}

/* npu-smi with args; its output in r (the caller releases), 0 when it ran and exited 0. */
static int npu_smi(const struct doctor_node_args *a, char *const *args,
		   struct probe_tool_result *r)
{
	char path[4096], err[PROBE_ERRLEN];
	if (probe_tool_find("npu-smi", a->npu_smi, "HCCLCTL_NPU_SMI", NULL, path, sizeof(path), err,
			    sizeof(err)))
		return -ENOENT;
	char *argv[12];
	int n = 0;
	argv[n++] = path;
	for (int i = 0; args[i] && n < 11; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	int rc = probe_tool_run(path, argv, 10000, r, err, sizeof(err));
	return rc ? rc : r->status ? -EIO : 0;
}

/* Driver and firmware: info -t board's Software and Firmware Version, else the driver from
 * npu-smi info's banner ("Version:"). */
void doctor_versions_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	(void)checks;
	struct probe_tool_result r = { 0 };
	char ver[64];
	char *board[] = { (char *)"info", (char *)"-t", (char *)"board", (char *)"-i", (char *)"0",
			  NULL };
	if (!npu_smi(a, board, &r)) {
		if (!npusmi_field(r.out, r.outlen, "Software Version", ver, sizeof(ver)))
			cJSON_AddStringToObject(facts, "driver", ver);
		if (!npusmi_field(r.out, r.outlen, "Firmware Version", ver, sizeof(ver)))
			cJSON_AddStringToObject(facts, "firmware", ver);
	}
	probe_tool_result_release(&r);
	if (cJSON_GetObjectItemCaseSensitive(facts, "driver"))
		return;
	char *info[] = { (char *)"info", NULL };
	memset(&r, 0, sizeof(r));
	if (!npu_smi(a, info, &r)) {
		const char *v = strstr(r.out, "Version:");
		if (v) {
			v += 8;
			while (*v == ' ')
				v++;
			size_t n = strcspn(v, " |\r\n");
			if (n && n < sizeof(ver)) {
				snprintf(ver, sizeof(ver), "%.*s", (int)n, v);
				cJSON_AddStringToObject(facts, "driver", ver);
			}
		}
	}
	probe_tool_result_release(&r);
}

/* A 1.2 table's super_device_id of each device of this server against npu-smi's SDID
 * (info -t spod-info -i ID -c 0, the value HCCL's A3 guide says super_device_id is). */
static void spod_check(const struct doctor_node_args *a, cJSON *checks, const struct rt_table *t,
		       const struct rt_server *sv)
{
	int have = 0, bad = 0, asked = 0;
	char msg[600] = "";
	size_t mo = 0;
	for (size_t k = sv->first_rank; k < sv->first_rank + sv->nranks && k < t->nranks; k++) {
		const struct rt_rank *rk = &t->ranks[k];
		if (rk->super_device_id < 0)
			continue;
		have++;
		char id[24], sdid[64];
		snprintf(id, sizeof(id), "%ld", rk->device_id);
		char *args[] = { (char *)"info", (char *)"-t", (char *)"spod-info", (char *)"-i", id,
				 (char *)"-c", (char *)"0", NULL };
		struct probe_tool_result r = { 0 };
		if (!npu_smi(a, args, &r) &&
		    !npusmi_field(r.out, r.outlen, "SDID", sdid, sizeof(sdid))) {
			asked++;
			if (strtol(sdid, NULL, 10) != rk->super_device_id) {
				bad++;
				if (mo < sizeof(msg) - 100)
					mo += (size_t)snprintf(msg + mo, sizeof(msg) - mo,
							       "%sdevice %ld: super_device_id %ld in the "
							       "table, SDID %s from npu-smi",
							       mo ? "; " : "", rk->device_id,
							       rk->super_device_id, sdid);
			}
		}
		probe_tool_result_release(&r);
	}
	if (!have)
		return;
	if (!asked)
		add_check(checks, "ranktable.spod", "SKIP", NULL,
			  "npu-smi gives no spod-info here (not an A3 super-pod node)");
	else if (bad)
		add_check(checks, "ranktable.spod", "FAIL",
			  "take super_device_id from npu-smi info -t spod-info -i N -c 0 (SDID)", "%s",
			  msg);
	else
		add_check(checks, "ranktable.spod", "PASS", NULL,
			  "super_device_id of %d device%s equals npu-smi's SDID", asked,
			  plural_s(asked));
}

/* CANN: version= in ascend_toolkit_install.info under $ASCEND_HOME_PATH, else
 * /usr/local/Ascend/ascend-toolkit/latest. */
void doctor_cann_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	(void)a;
	(void)checks;
	const char *home = getenv("ASCEND_HOME_PATH");
	char path[4200];
	const char *arch[] = { "", "/x86_64-linux", "/aarch64-linux" };
	for (size_t i = 0; i < sizeof(arch) / sizeof(arch[0]); i++) {
		snprintf(path, sizeof(path), "%s%s/ascend_toolkit_install.info",
			 home && *home ? home : "/usr/local/Ascend/ascend-toolkit/latest", arch[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		char line[512];
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, "version=", 8))
				continue;
			line[strcspn(line, "\r\n")] = '\0';
			cJSON_AddStringToObject(facts, "cann", line + 8);
			break;
		}
		fclose(f);
		return;
	}
}

static long long meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long v = -1;
	size_t kl = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtoll(line + kl + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

void doctor_host_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	struct rlimit rl;
	struct rdma_host rh;
	char why[300];
	/* only RDMA registers (locks) memory: without a device the limit means nothing */
	int nordma = rdma_sysfs_read(a->sysfs_root, NULL, &rh, why, sizeof(why)) == -ENOENT;
	rdma_host_release(&rh);
	if (nordma) {
		add_check(checks, "host.memlock", "SKIP", NULL,
			  "nothing registers memory here, so its limit does not matter (%s)", why);
	} else if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		if (rl.rlim_cur == RLIM_INFINITY)
			add_check(checks, "host.memlock", "PASS", NULL, "locked memory unlimited");
		else
			add_check(checks, "host.memlock", "WARN",
				  "ulimit -l unlimited for the job (limits.conf: * - memlock "
				  "unlimited; containers: --ulimit memlock=-1)",
				  "locked memory limited to %llu KiB: RDMA registration may fail",
				  (unsigned long long)rl.rlim_cur / 1024);
	}
	struct statvfs sv;
	if (statvfs("/dev/shm", &sv) == 0) {
		unsigned long long sz = (unsigned long long)sv.f_blocks * sv.f_frsize;
		if (sz < (1ULL << 30))
			add_check(checks, "host.shm", "WARN",
				  "mount /dev/shm larger (containers: --shm-size=16g)",
				  "/dev/shm is %llu MiB, less than 1 GiB", sz >> 20);
		else
			add_check(checks, "host.shm", "PASS", NULL, "/dev/shm is %llu MiB", sz >> 20);
	} else {
		add_check(checks, "host.shm", "WARN", "mount a tmpfs on /dev/shm", "no /dev/shm");
	}
	long long hp = meminfo("HugePages_Total");
	add_check(checks, "host.hugepages", hp > 0 ? "PASS" : "SKIP", NULL, "%lld huge pages",
		  hp < 0 ? 0 : hp);
	long long avail = meminfo("MemAvailable"), total = meminfo("MemTotal");
	if (avail >= 0 && total > 0 && avail * 10 < total)
		add_check(checks, "host.memory", "WARN",
			  "find what holds the memory (a leftover job?) before starting",
			  "only %lld MiB of %lld MiB available", avail >> 10, total >> 10);
	else if (avail >= 0)
		add_check(checks, "host.memory", "PASS", NULL, "%lld MiB of %lld MiB available",
			  avail >> 10, total >> 10);
	(void)facts;
}

/* ranktable.node's FAIL: the table's servers, none of which is this node. */
static void node_not_found(const struct doctor_node_args *a, cJSON *checks,
			   const struct rt_table *t)
{
	char names[300] = "";
	size_t no = 0;
	for (size_t i = 0; i < t->nservers && no < sizeof(names) - 80; i++)
		no += (size_t)snprintf(names + no, sizeof(names) - no, "%s%.64s", no ? " " : "",
				       t->servers[i].server_id ? t->servers[i].server_id : "?");
	add_check(checks, "ranktable.node", "FAIL",
		  "server_id (or host_ip) must be the node's address or host name: fix the "
		  "table, or run on the nodes it names",
		  "%s%s%s this node (by address and host name)",
		  a->server_id ? "server " : "no server of the rank table (",
		  a->server_id ? a->server_id : names,
		  a->server_id ? " of the rank table is not" : ") is");
}

void doctor_ranktable_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	(void)facts;
	if (!a->ranktable) {
		add_check(checks, "ranktable.same", "SKIP", NULL, "no rank table given");
		add_check(checks, "ranktable.node", "SKIP", NULL, "no rank table given");
		return;
	}
	char digest[17], err[512];
	struct rt_table t = { 0 };
	int rc = table_file_load(a->ranktable, &t, err, sizeof(err));
	if (rc) {
		add_check(checks, "ranktable.same", "FAIL",
			  rc == -ENOENT ? "copy the launcher's table to the same path on every node "
					  "(or mount the same ConfigMap)"
					: "copy the launcher's table to every node",
			  rc == -ENOENT ? "the rank table %s is not on this node: %s"
					: "this node's %s does not load: %s",
			  a->ranktable, err);
		add_check(checks, "ranktable.node", "SKIP", NULL, "no rank table on this node to "
			  "look for it in");
		rt_table_release(&t);
		return;
	}
	rt_table_digest(&t, digest);
	if (a->digest && strcmp(a->digest, digest))
		add_check(checks, "ranktable.same", "FAIL",
			  "copy the launcher's table to every node (or mount the same ConfigMap)",
			  "this node's %s differs from the launcher's: digest %s, the launcher's %s",
			  a->ranktable, digest, a->digest);
	else if (a->digest)
		add_check(checks, "ranktable.same", "PASS", NULL, "digest %s", digest);
	else
		add_check(checks, "ranktable.same", "SKIP", NULL, "%s",
			  a->local ? "the launcher is this node: no other copy to compare with"
				   : "no digest of the launcher's table to compare with (it did not "
				     "validate there)");
	long at = node_table_server(&t, a->server_id);
	if (at < 0) {
		node_not_found(a, checks, &t);
	} else {
		add_check(checks, "ranktable.node", "PASS", NULL,
			  "this node is server %s of the rank table", t.servers[at].server_id);
		if (doctor_wanted(a->filter, "ranktable.spod"))
			spod_check(a, checks, &t, &t.servers[at]);
	}
	rt_table_release(&t);
}

/* Listens on the job's ports (those free), connects to each on every peer, retrying until
 * the deadline, and keeps listening a moment after, so that the slowest peer's connects
 * find this node listening too. */
void doctor_ports_step(const struct doctor_node_args *a, cJSON *checks, cJSON *facts)
{
	(void)facts;
	if (!a->npeers || !a->nports) {
		add_check(checks, "net.ports", "SKIP", NULL, "no peers to reach");
		return;
	}
	int lfd[DOCTOR_MAX_PORTS], accepted[DOCTOR_MAX_PORTS] = { 0 };
	for (int i = 0; i < a->nports; i++) {
		lfd[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		int one = 1;
		setsockopt(lfd[i], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)a->ports[i]) };
		if (lfd[i] >= 0 && (bind(lfd[i], (struct sockaddr *)&sa, sizeof(sa)) ||
				    listen(lfd[i], 256))) {
			close(lfd[i]); /* in use: whoever listens answers for us */
			lfd[i] = -1;
		}
	}
	int64_t t0 = mono_ms();
	long long deadline = a->port_wait_ms ? a->port_wait_ms : 3000;
	char bad[900] = "";
	size_t bo = 0;
	int nbad = 0, ntried = 0;
	for (int p = 0; p < a->npeers; p++) {
		if (node_is_me(a->peers[p]))
			continue;
		for (int i = 0; i < a->nports; i++) {
			ntried++;
			int ok = 0, last = 0;
			for (;;) {
				/* accept what peers sent us meanwhile, so their backlog never fills */
				for (int j = 0; j < a->nports; j++) {
					int cfd;
					while (lfd[j] >= 0 && (cfd = accept(lfd[j], NULL, NULL)) >= 0) {
						close(cfd);
						accepted[j]++;
					}
				}
				char port[8];
				snprintf(port, sizeof(port), "%d", a->ports[i]);
				struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
				if (getaddrinfo(a->peers[p], port, &hints, &ai)) {
					last = EHOSTUNREACH;
					break;
				}
				int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
				int r = fd < 0 ? -1 : connect(fd, ai->ai_addr, ai->ai_addrlen);
				freeaddrinfo(ai);
				if (r && errno == EINPROGRESS) {
					struct pollfd pf = { fd, POLLOUT, 0 };
					r = poll(&pf, 1, 500) == 1 ? 0 : -1;
					int e = ETIMEDOUT;
					socklen_t sl = sizeof(e);
					if (!r && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) == 0 && e)
						r = -1;
					errno = e;
				}
				last = r ? errno : 0;
				if (fd >= 0)
					close(fd);
				if (!r) {
					ok = 1;
					break;
				}
				if (mono_ms() - t0 > deadline)
					break;
				usleep(100000);
			}
			if (!ok) {
				nbad++;
				if (bo < sizeof(bad) - 120)
					bo += (size_t)snprintf(bad + bo, sizeof(bad) - bo,
							       "%s%s:%d %s", bo ? ", " : "", a->peers[p],
							       a->ports[i],
							       last == ECONNREFUSED ? "refused"
							       : last == ETIMEDOUT  ? "timed out"
										    : strerror(last));
			}
		}
	}
	/* stay reachable until every peer has reached us on every port we listen on (or a
	 * while after the deadline): the slower peers test us after we are done with them */
	int others = 0;
	for (int p = 0; p < a->npeers; p++)
		others += !node_is_me(a->peers[p]);
	for (;;) {
		int all = 1;
		for (int j = 0; j < a->nports; j++) {
			int cfd;
			while (lfd[j] >= 0 && (cfd = accept(lfd[j], NULL, NULL)) >= 0) {
				close(cfd);
				accepted[j]++;
			}
			all &= lfd[j] < 0 || accepted[j] >= others;
		}
		long long el = mono_ms() - t0;
		if (all || el > deadline + 1500)
			break;
		usleep(20000);
	}
	for (int i = 0; i < a->nports; i++)
		if (lfd[i] >= 0)
			close(lfd[i]);
	if (nbad)
		add_check(checks, "net.ports", "FAIL",
			  "open these ports between the nodes (firewall: nft list ruleset, iptables -S; "
			  "security groups), or move HCCL_IF_BASE_PORT / HCCL_NPU_SOCKET_PORT_RANGE",
			  "cannot reach %s", bad);
	else
		add_check(checks, "net.ports", "PASS", NULL, "reached %d peer port%s", ntried,
			  plural_s(ntried));
}
