/* libascendcl stand-in: streams. Each stream is a queue of tasks run in order by a worker
 * thread of its own, so work enqueued on it (callbacks, event records, HCCL collectives) is
 * asynchronous with respect to the host, as on a device. A failed task (aclStubTaskFail)
 * poisons the stream: later tasks are skipped and every synchronisation returns the code. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/stub/acl_internal.h"
#include "tests/stub/stub_log.h"

/* The code tasks still queued get when their stream is destroyed: they free themselves
 * without running. */
#define DESTROYED ACL_ERROR_RT_INVALID_HANDLE
#define MAX_DEVICES 64

struct stream {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct stubacl_task *head, *tail;
	int busy, stop, refs; /* refs: the handle and the worker */
	aclError status;
	int device;
	struct stream *next; /* in the list of live streams */
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stream *live;
static struct stream *defaults[MAX_DEVICES];
static __thread struct stream *running; /* the stream whose task this thread runs */

static void unref(struct stream *s)
{
	int last;

	pthread_mutex_lock(&s->lock);
	last = --s->refs == 0;
	pthread_mutex_unlock(&s->lock);
	if (last) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		free(s);
	}
}

static void *worker(void *arg)
{
	struct stream *s = arg;

	running = s;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		struct stubacl_task *t;
		aclError st;

		while (!s->head && !s->stop)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->head)
			break;
		t = s->head;
		s->head = t->next;
		if (!s->head)
			s->tail = NULL;
		s->busy = 1;
		st = s->stop ? DESTROYED : s->status;
		pthread_mutex_unlock(&s->lock);
		t->run(t, st);
		pthread_mutex_lock(&s->lock);
		s->busy = 0;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	unref(s);
	return NULL;
}

static aclError make(int device, struct stream **out)
{
	struct stream *s = calloc(1, sizeof(*s));
	pthread_t th;

	if (!s)
		return stubacl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateStream: out of memory");
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->device = device;
	s->refs = 2;
	if (pthread_create(&th, NULL, worker, s) != 0) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		free(s);
		return stubacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtCreateStream: no thread");
	}
	/* The worker may outlive the handle (a hung task): it frees the stream when done. */
	pthread_detach(th);
	pthread_mutex_lock(&list_lock);
	s->next = live;
	live = s;
	pthread_mutex_unlock(&list_lock);
	*out = s;
	return ACL_SUCCESS;
}

static int unlink_live(struct stream *s)
{
	int found = 0;

	pthread_mutex_lock(&list_lock);
	for (struct stream **p = &live; *p; p = &(*p)->next) {
		if (*p == s) {
			*p = s->next;
			found = 1;
			break;
		}
	}
	for (int d = 0; d < MAX_DEVICES; d++)
		if (defaults[d] == s)
			defaults[d] = NULL;
	pthread_mutex_unlock(&list_lock);
	return found;
}

static void stop(struct stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	unref(s);
}

aclError stubacl_stream_get(aclrtStream h, void **out)
{
	struct stream *found = NULL, *made = NULL;
	int dev;
	aclError rc;

	if (h) {
		pthread_mutex_lock(&list_lock);
		for (struct stream *s = live; s; s = s->next)
			if (s == h)
				found = s;
		pthread_mutex_unlock(&list_lock);
		if (!found)
			return stubacl_fail(ACL_ERROR_INVALID_PARAM, "stream %p is not a live stream", h);
		*out = found;
		return ACL_SUCCESS;
	}
	dev = stubacl_current_device();
	if (dev < 0 || dev >= MAX_DEVICES)
		return stubacl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				 "default stream: no device set on this thread (aclrtSetDevice)");
	pthread_mutex_lock(&list_lock);
	found = defaults[dev];
	pthread_mutex_unlock(&list_lock);
	if (!found) {
		if ((rc = make(dev, &made)))
			return rc;
		pthread_mutex_lock(&list_lock);
		if (!defaults[dev])
			defaults[dev] = made;
		found = defaults[dev];
		pthread_mutex_unlock(&list_lock);
		if (found != made) { /* another thread made it meanwhile */
			unlink_live(made);
			stop(made);
		}
	}
	*out = found;
	return ACL_SUCCESS;
}

aclError stubacl_stream_enqueue(void *stream, struct stubacl_task *t)
{
	struct stream *s = stream;

	t->next = NULL;
	pthread_mutex_lock(&s->lock);
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return ACL_SUCCESS;
}

void stubacl_streams_release(int device)
{
	for (;;) {
		struct stream *s;

		pthread_mutex_lock(&list_lock);
		for (s = live; s && device >= 0 && s->device != device; s = s->next)
			;
		pthread_mutex_unlock(&list_lock);
		if (!s)
			return;
		unlink_live(s);
		stop(s);
	}
}

aclError aclrtCreateStream(aclrtStream *stream)
{
	struct stream *s;
	int dev = stubacl_current_device();
	aclError rc;

	if (!stream)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
	if (dev < 0)
		return stubacl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				 "aclrtCreateStream: no device set on this thread (aclrtSetDevice)");
	if ((rc = make(dev, &s)))
		return rc;
	*stream = s;
	stub_log("aclrtCreateStream() = 0 (%p)", (void *)s);
	return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream)
{
	if (!stream)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: stream is NULL");
	if (!unlink_live(stream))
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtDestroyStream: %p is not a live stream", stream);
	stop(stream);
	stub_log("aclrtDestroyStream(%p) = 0", stream);
	return ACL_SUCCESS;
}

static aclError sync_stream(const char *fn, aclrtStream h, int32_t timeout_ms)
{
	void *p = NULL;
	struct stream *s;
	struct timespec dl;
	aclError rc;
	int err = 0;

	if (timeout_ms < -1)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "%s: timeout %d is below -1", fn,
				 (int)timeout_ms);
	if ((rc = stubacl_stream_get(h, &p)))
		return rc;
	s = p;
	clock_gettime(CLOCK_REALTIME, &dl);
	if (timeout_ms > 0) {
		dl.tv_sec += timeout_ms / 1000;
		dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
		if (dl.tv_nsec >= 1000000000L) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000L;
		}
	}
	pthread_mutex_lock(&s->lock);
	while ((s->head || s->busy) && err == 0) {
		if (timeout_ms < 0)
			pthread_cond_wait(&s->cond, &s->lock);
		else if (timeout_ms == 0)
			err = ETIMEDOUT;
		else
			err = pthread_cond_timedwait(&s->cond, &s->lock, &dl);
	}
	rc = err ? ACL_ERROR_RT_STREAM_SYNC_TIMEOUT : s->status;
	pthread_mutex_unlock(&s->lock);
	if (rc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
		stubacl_fail(rc, "%s: stream %p not done after %d ms", fn, (void *)s, (int)timeout_ms);
	else if (rc)
		stubacl_fail(rc, "%s: a task of stream %p failed", fn, (void *)s);
	stub_log("%s(%p, %d) = %d", fn, (void *)s, (int)timeout_ms, rc);
	return rc;
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
	return sync_stream("aclrtSynchronizeStream", stream, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	return sync_stream("aclrtSynchronizeStreamWithTimeout", stream, timeout);
}

struct cb_task {
	struct stubacl_task t;
	aclrtCallback fn;
	void *data;
};

static void run_cb(struct stubacl_task *t, aclError status)
{
	struct cb_task *c = (struct cb_task *)t;

	if (status == 0)
		c->fn(c->data);
	free(c);
}

/* Unlike the real runtime, the callback runs on the stream's own worker, with no
 * aclrtSubscribeReport thread needed: the stand-in's HCCL runs its collectives this way. */
aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
			     aclrtStream stream)
{
	void *s = NULL;
	struct cb_task *c;
	aclError rc;

	if (!fn)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: fn is NULL");
	if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: unknown block type %d",
				 (int)blockType);
	if ((rc = stubacl_stream_get(stream, &s)))
		return rc;
	if (!(c = malloc(sizeof(*c))))
		return stubacl_fail(ACL_ERROR_BAD_ALLOC, "aclrtLaunchCallback: out of memory");
	c->t.run = run_cb;
	c->fn = fn;
	c->data = userData;
	return stubacl_stream_enqueue(s, &c->t);
}

aclError aclStubTaskFail(aclError code)
{
	struct stream *s = running;

	if (!s)
		return stubacl_fail(ACL_ERROR_RT_PARAM_INVALID, "aclStubTaskFail: not on a stream");
	if (code == 0)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclStubTaskFail: code is 0");
	pthread_mutex_lock(&s->lock);
	if (s->status == 0)
		s->status = code;
	pthread_mutex_unlock(&s->lock);
	return ACL_SUCCESS;
}
