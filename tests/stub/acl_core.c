/* libascendcl stand-in: init and finalize, devices, version, the recent error message. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/stub/acl_internal.h"
#include "tests/stub/stub_log.h"

#define STUB_DEFAULT_DEVICES 8

static pthread_mutex_t core_lock = PTHREAD_MUTEX_INITIALIZER;
static int initialized;   /* aclInit done, aclFinalize not yet */
static int finalized;     /* aclFinalize done at least once */
static __thread int cur_device = -1;
static __thread char recent[512];
static __thread int have_recent;

aclError stubacl_fail(aclError code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(recent, sizeof(recent), fmt, ap);
	va_end(ap);
	have_recent = 1;
	stub_log("error %d: %s", code, recent);
	return code;
}

int stubacl_current_device(void)
{
	return cur_device;
}

/* Physical NPUs of the machine: HCCL_STUB_DEVICE_COUNT, default 8. */
static uint32_t machine_devices(void)
{
	const char *v = getenv("HCCL_STUB_DEVICE_COUNT");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return STUB_DEFAULT_DEVICES;
	n = strtoul(v, &end, 10);
	if (*end || n > 64)
		return STUB_DEFAULT_DEVICES;
	return (uint32_t)n;
}

/* The physical id of each logical device this process sees, as the runtime numbers them:
 * ASCEND_RT_VISIBLE_DEVICES (a list of physical ids, the runtime's own filter), else
 * ASCEND_VISIBLE_DEVICES (what a container's device plugin exposes), else every NPU of the
 * machine in order. Entries are ids or ranges ("4-7"); the list ends at its first entry
 * that is not NPUs of the machine, and a repeated id is skipped (the stand-in's choice). The count, the ids in phys[64]. */
static uint32_t visible(int32_t phys[64])
{
	static const char *const envs[] = { "ASCEND_RT_VISIBLE_DEVICES", "ASCEND_VISIBLE_DEVICES" };
	uint32_t all = machine_devices(), n = 0;

	for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
		const char *v = getenv(envs[e]);
		if (!v || !*v)
			continue;
		uint64_t seen = 0;
		for (int more = 1; more && n < 64;) {
			char *end;
			unsigned long lo = strtoul(v, &end, 10), hi = lo;
			if (end != v && *end == '-') /* "4-7", as device plugins write ranges */
				hi = strtoul(end + 1, &end, 10);
			if (end == v || hi >= all || hi < lo || (*end && *end != ','))
				break;
			for (unsigned long id = lo; id <= hi && n < 64 && !(seen >> id & 1); id++) {
				seen |= 1ULL << id;
				phys[n++] = (int32_t)id;
			}
			more = *end == ',';
			v = end + 1;
		}
		return n;
	}
	for (n = 0; n < all; n++)
		phys[n] = (int32_t)n;
	return n;
}

uint32_t stubacl_device_count(void)
{
	int32_t phys[64];
	return visible(phys);
}

int32_t stubacl_physical_id(int32_t logical)
{
	int32_t phys[64];
	uint32_t n = visible(phys);
	return logical >= 0 && (uint32_t)logical < n ? phys[logical] : -1;
}

int32_t aclStubPhyDevId(int32_t logical)
{
	return stubacl_physical_id(logical);
}

/* CANN 8.1 and later; HCCL_STUB_NO_PHYID=1 makes it refuse as a runtime without it would
 * have it missing (the caller then falls back on the visible-devices list). */
aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
	const char *off = getenv("HCCL_STUB_NO_PHYID");
	int32_t p;

	if (off && !strcmp(off, "1"))
		return stubacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				    "aclrtGetPhyDevIdByLogicDevId: not supported (HCCL_STUB_NO_PHYID)");
	if (!phyDevId)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				    "aclrtGetPhyDevIdByLogicDevId: phyDevId is NULL");
	p = stubacl_physical_id(logicDevId);
	if (p < 0)
		return stubacl_fail(ACL_ERROR_RT_INVALID_DEVICEID,
				    "aclrtGetPhyDevIdByLogicDevId: no logical device %d",
				    (int)logicDevId);
	*phyDevId = p;
	stub_log("aclrtGetPhyDevIdByLogicDevId(%d) = 0 (physical %d)", (int)logicDevId, (int)p);
	return ACL_SUCCESS;
}

aclError aclInit(const char *configPath)
{
	aclError rc = ACL_SUCCESS;

	pthread_mutex_lock(&core_lock);
	if (initialized)
		rc = stubacl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
	else if (configPath && *configPath && access(configPath, R_OK) != 0)
		rc = stubacl_fail(ACL_ERROR_INVALID_FILE, "aclInit: cannot read config '%s'",
			       configPath);
	else
		initialized = 1;
	pthread_mutex_unlock(&core_lock);
	stub_log("aclInit(%s) = %d", configPath ? configPath : "NULL", rc);
	return rc;
}

aclError aclFinalize(void)
{
	aclError rc = ACL_SUCCESS;

	pthread_mutex_lock(&core_lock);
	if (!initialized) {
		rc = finalized ? stubacl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalized")
			       : stubacl_fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was not called");
	} else {
		initialized = 0;
		finalized = 1;
	}
	pthread_mutex_unlock(&core_lock);
	if (rc == ACL_SUCCESS)
		stubacl_streams_release(-1);
	stub_log("aclFinalize() = %d", rc);
	return rc;
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
	if (!majorVersion || !minorVersion || !patchVersion)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: a NULL argument");
	*majorVersion = 1;
	*minorVersion = 0;
	*patchVersion = 0;
	stub_log("aclrtGetVersion() = 1.0.0");
	return ACL_SUCCESS;
}

/* Like the real one, the message is handed out once: the next call has none until a call
 * fails again. */
const char *aclGetRecentErrMsg(void)
{
	static __thread char out[sizeof(recent)];

	if (!have_recent)
		return NULL;
	memcpy(out, recent, sizeof(out));
	have_recent = 0;
	return out;
}

aclError aclrtGetDeviceCount(uint32_t *count)
{
	if (!count)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is NULL");
	*count = stubacl_device_count();
	stub_log("aclrtGetDeviceCount() = %u", *count);
	return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId)
{
	uint32_t n = stubacl_device_count();

	if (n == 0)
		return stubacl_fail(ACL_ERROR_RT_NO_DEVICE, "aclrtSetDevice: no device");
	if (deviceId < 0 || (uint32_t)deviceId >= n)
		return stubacl_fail(ACL_ERROR_RT_INVALID_DEVICEID,
				 "aclrtSetDevice: device %d is not in 0..%u", deviceId, n - 1);
	cur_device = deviceId;
	stub_log("aclrtSetDevice(%d) = 0", deviceId);
	return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId)
{
	uint32_t n = stubacl_device_count();

	if (deviceId < 0 || (uint32_t)deviceId >= n)
		return stubacl_fail(ACL_ERROR_RT_INVALID_DEVICEID,
				 "aclrtResetDevice: device %d is not in 0..%u", deviceId,
				 n ? n - 1 : 0);
	stubacl_streams_release(deviceId);
	if (cur_device == deviceId)
		cur_device = -1;
	stub_log("aclrtResetDevice(%d) = 0", deviceId);
	return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t *deviceId)
{
	if (!deviceId)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is NULL");
	if (cur_device < 0)
		return stubacl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				 "aclrtGetDevice: no device set on this thread");
	*deviceId = cur_device;
	return ACL_SUCCESS;
}

/* With HCCL_STUB_LOG, which processes load the library at all (a launcher that forks ranks
 * should not). */
__attribute__((constructor)) static void loaded(void)
{
	stub_log("libascendcl.so loaded");
}
