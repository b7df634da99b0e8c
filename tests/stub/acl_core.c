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

uint32_t stubacl_device_count(void)
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
