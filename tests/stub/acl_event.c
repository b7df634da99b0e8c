/* libascendcl stand-in: events. An event records the time its stream reached it (the
 * stream's worker stamps it in stream order), so the time between two events on a stream is
 * the time the stream spent on the work between them, as device events measure. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "tests/stub/acl_internal.h"
#include "tests/stub/stub_log.h"

enum { EV_NONE, EV_PENDING, EV_DONE };

struct event {
	int state, dead, refs; /* refs: the handle and each queued record */
	unsigned gen;          /* which record counts: the last one made */
	aclError err;          /* the stream's error when it reached the event */
	struct timespec when;
	struct event *next;
};

struct rec_task {
	struct stubacl_task t;
	struct event *ev;
	unsigned gen;
};

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;
static struct event *events;

/* With ev_lock held: the live event of handle h, or NULL. */
static struct event *lookup(aclrtEvent h)
{
	for (struct event *e = events; e; e = e->next)
		if (e == h && !e->dead)
			return e;
	return NULL;
}

/* With ev_lock held. */
static void unref(struct event *e)
{
	if (--e->refs)
		return;
	for (struct event **p = &events; *p; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			break;
		}
	}
	free(e);
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
	struct event *e;

	if (!event)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is NULL");
	if (stubacl_current_device() < 0)
		return stubacl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				 "aclrtCreateEvent: no device set on this thread (aclrtSetDevice)");
	if (!(e = calloc(1, sizeof(*e))))
		return stubacl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateEvent: out of memory");
	e->refs = 1;
	pthread_mutex_lock(&ev_lock);
	e->next = events;
	events = e;
	pthread_mutex_unlock(&ev_lock);
	*event = e;
	return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
	struct event *e;

	pthread_mutex_lock(&ev_lock);
	if ((e = lookup(event))) {
		e->dead = 1;
		unref(e);
	}
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: %p is not a live event",
				 event);
	return ACL_SUCCESS;
}

static void run_record(struct stubacl_task *t, aclError status)
{
	struct rec_task *r = (struct rec_task *)t;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&ev_lock);
	if (r->gen == r->ev->gen) {
		r->ev->state = EV_DONE;
		r->ev->err = status;
		r->ev->when = now;
	}
	unref(r->ev);
	pthread_cond_broadcast(&ev_cond);
	pthread_mutex_unlock(&ev_lock);
	free(r);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	void *s = NULL;
	struct rec_task *r;
	struct event *e;
	aclError rc;

	if ((rc = stubacl_stream_get(stream, &s)))
		return rc;
	if (!(r = malloc(sizeof(*r))))
		return stubacl_fail(ACL_ERROR_BAD_ALLOC, "aclrtRecordEvent: out of memory");
	pthread_mutex_lock(&ev_lock);
	if ((e = lookup(event))) {
		e->state = EV_PENDING;
		e->refs++;
		r->gen = ++e->gen;
		r->ev = e;
	}
	pthread_mutex_unlock(&ev_lock);
	if (!e) {
		free(r);
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: %p is not a live event",
				 event);
	}
	r->t.run = run_record;
	return stubacl_stream_enqueue(s, &r->t);
}

aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	struct event *e;
	aclError rc = ACL_SUCCESS;

	pthread_mutex_lock(&ev_lock);
	if (!(e = lookup(event))) {
		pthread_mutex_unlock(&ev_lock);
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtSynchronizeEvent: %p is not a live event", event);
	}
	e->refs++;
	while (e->state == EV_PENDING && !e->dead)
		pthread_cond_wait(&ev_cond, &ev_lock);
	if (e->state == EV_DONE)
		rc = e->err;
	unref(e);
	pthread_mutex_unlock(&ev_lock);
	if (rc)
		stubacl_fail(rc, "aclrtSynchronizeEvent: the event's stream failed");
	return rc;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	struct event *e;

	if (!status)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is NULL");
	pthread_mutex_lock(&ev_lock);
	if ((e = lookup(event)))
		*status = e->state == EV_DONE && e->err == 0 ? ACL_EVENT_RECORDED_STATUS_COMPLETE
							     : ACL_EVENT_RECORDED_STATUS_NOT_READY;
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM,
				 "aclrtQueryEventStatus: %p is not a live event", event);
	return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
	struct event *a, *b;
	aclError rc = ACL_SUCCESS;
	double d = 0;

	if (!ms)
		return stubacl_fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is NULL");
	pthread_mutex_lock(&ev_lock);
	a = lookup(startEvent);
	b = lookup(endEvent);
	if (!a || !b)
		rc = ACL_ERROR_INVALID_PARAM;
	else if (a->state == EV_NONE || b->state == EV_NONE)
		rc = ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
	else if (a->state != EV_DONE || b->state != EV_DONE)
		rc = ACL_ERROR_RT_EVENT_NOT_COMPLETE;
	else
		d = (double)(b->when.tv_sec - a->when.tv_sec) * 1e3 +
		    (double)(b->when.tv_nsec - a->when.tv_nsec) / 1e6;
	pthread_mutex_unlock(&ev_lock);
	if (rc == 0 && d < 0)
		rc = ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
	if (rc)
		return stubacl_fail(rc, "aclrtEventElapsedTime: %s",
				 rc == ACL_ERROR_INVALID_PARAM ? "not a live event"
				 : rc == ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID ? "an event was never recorded"
				 : rc == ACL_ERROR_RT_EVENT_NOT_COMPLETE ? "an event is not complete"
									 : "the end event is before the start");
	*ms = (float)d;
	return ACL_SUCCESS;
}
