/* libascendcl stand-in: device memory. Device memory is host memory from aclrtMalloc, kept
 * in a table of allocations so that every call taking a device pointer can tell it from host
 * memory (as the real runtime can) and reject a wrong copy kind or a short buffer. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/stub/acl_internal.h"
#include "tests/stub/stub_log.h"

/* Every allocation is aligned like device memory is (the runtime hands out 512-byte
 * aligned blocks; 64 would do for the stand-in, the larger value catches fewer bugs). */
#define DEV_ALIGN 512
/* One aclrtMalloc may not exceed this: a sweep asking for more is a bug worth seeing. */
#define DEV_MAX_BYTES (8ull << 30)

struct alloc {
	uintptr_t base;
	size_t size;
	int device;
};

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct alloc *allocs;
static size_t nallocs, capallocs;

/* The allocation holding [p, p + len), or 0 when none holds it whole. */
static int find(const void *p, size_t len, struct alloc *out)
{
	uintptr_t a = (uintptr_t)p;
	int found = 0;

	pthread_mutex_lock(&mem_lock);
	for (size_t i = 0; i < nallocs; i++) {
		if (a >= allocs[i].base && a < allocs[i].base + allocs[i].size) {
			if (len <= allocs[i].base + allocs[i].size - a) {
				*out = allocs[i];
				found = 1;
			}
			break;
		}
	}
	pthread_mutex_unlock(&mem_lock);
	return found;
}

static int is_device(const void *p)
{
	struct alloc a;

	return find(p, 1, &a);
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	void *p = NULL;
	int dev = stubacl_current_device();

	if (!devPtr)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is NULL");
	if (size == 0)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size is 0");
	if ((unsigned)policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy %d",
				 (int)policy);
	if (dev < 0)
		return stubacl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				 "aclrtMalloc: no device set on this thread (aclrtSetDevice)");
	if (size > DEV_MAX_BYTES || posix_memalign(&p, DEV_ALIGN, size) != 0)
		return stubacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
				 "aclrtMalloc: cannot allocate %zu bytes", size);
	pthread_mutex_lock(&mem_lock);
	if (nallocs == capallocs) {
		size_t cap = capallocs ? 2 * capallocs : 64;
		struct alloc *v = realloc(allocs, cap * sizeof(*v));

		if (!v) {
			pthread_mutex_unlock(&mem_lock);
			free(p);
			return stubacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: out of memory");
		}
		allocs = v;
		capallocs = cap;
	}
	allocs[nallocs++] = (struct alloc){ (uintptr_t)p, size, dev };
	pthread_mutex_unlock(&mem_lock);
	*devPtr = p;
	stub_log("aclrtMalloc(%zu) = 0 (%p)", size, p);
	return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr)
{
	void *p = NULL;

	if (!devPtr)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is NULL");
	pthread_mutex_lock(&mem_lock);
	for (size_t i = 0; i < nallocs; i++) {
		if (allocs[i].base == (uintptr_t)devPtr) {
			p = devPtr;
			allocs[i] = allocs[--nallocs];
			break;
		}
	}
	pthread_mutex_unlock(&mem_lock);
	if (!p)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtFree: %p is not the start of device memory", devPtr);
	stub_log("aclrtFree(%p) = 0", devPtr);
	free(p);
	return ACL_SUCCESS;
}

/* Checks one side of a copy: device memory holding len bytes, or not device memory at all. */
static aclError side(const char *what, const void *p, size_t len, int want_device)
{
	struct alloc a;

	if (want_device) {
		if (!is_device(p))
			return stubacl_fail(ACL_ERROR_RT_PARAM_INVALID,
					 "aclrtMemcpy: %s %p is not device memory", what, p);
		if (!find(p, len, &a))
			return stubacl_fail(ACL_ERROR_INVALID_PARAM,
					 "aclrtMemcpy: %s %p: %zu bytes run past its device allocation",
					 what, p, len);
	} else if (is_device(p)) {
		return stubacl_fail(ACL_ERROR_RT_PARAM_INVALID,
				 "aclrtMemcpy: %s %p is device memory, the kind says host", what, p);
	}
	return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
		     aclrtMemcpyKind kind)
{
	aclError rc;
	int ddev, sdev;

	if (!dst || !src)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: %s is NULL",
				 dst ? "src" : "dst");
	if (count > destMax)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtMemcpy: count %zu is more than destMax %zu", count, destMax);
	switch (kind) {
	case ACL_MEMCPY_HOST_TO_HOST: ddev = 0, sdev = 0; break;
	case ACL_MEMCPY_HOST_TO_DEVICE: ddev = 1, sdev = 0; break;
	case ACL_MEMCPY_DEVICE_TO_HOST: ddev = 0, sdev = 1; break;
	case ACL_MEMCPY_DEVICE_TO_DEVICE: ddev = 1, sdev = 1; break;
	case ACL_MEMCPY_DEFAULT: ddev = is_device(dst), sdev = is_device(src); break;
	default:
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown kind %d", (int)kind);
	}
	if (count == 0)
		return ACL_SUCCESS;
	if ((rc = side("dst", dst, count, ddev)) || (rc = side("src", src, count, sdev)))
		return rc;
	memmove(dst, src, count);
	stub_log("aclrtMemcpy(%p, %p, %zu, kind %d) = 0", dst, src, count, (int)kind);
	return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	struct alloc a;

	if (!devPtr)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is NULL");
	if (count > maxCount)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtMemset: count %zu is more than maxCount %zu", count, maxCount);
	if (is_device(devPtr) && !find(devPtr, count, &a))
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtMemset: %zu bytes at %p run past its device allocation",
				 count, devPtr);
	memset(devPtr, value, count);
	return ACL_SUCCESS;
}

aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
	struct alloc a;

	if (!ptr || !attributes)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes: a NULL argument");
	memset(attributes, 0, sizeof(*attributes));
	if (find(ptr, 1, &a)) {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		attributes->location.id = (uint32_t)a.device;
		attributes->pageSize = 4096;
	} else {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	}
	return ACL_SUCCESS;
}

aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
	struct alloc a;

	if (!ptr || !pbase || !psize)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAddressRange: a NULL argument");
	if (!find(ptr, 1, &a))
		return stubacl_fail(ACL_ERROR_RT_PARAM_INVALID,
				 "aclrtMemGetAddressRange: %p is not device memory", ptr);
	*pbase = (void *)a.base;
	*psize = a.size;
	return ACL_SUCCESS;
}
