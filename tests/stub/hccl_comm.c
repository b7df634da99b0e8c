/* libhccl stand-in: communicator lifetime. Handles are checked against the live ones, and a
 * communicator is freed only when its handle and every queued collective are done with it,
 * so destroying one while its stream still works (or hangs) is safe. */
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/stub/hccl_internal.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stub_comm **reg;
static size_t nreg, capreg;

HcclResult stubhccl_comm_new(uint32_t rank, uint32_t nranks, struct stub_comm **out)
{
	struct stub_comm *c = calloc(1, sizeof(*c));

	if (!c)
		return HCCL_E_MEMORY;
	c->fd = malloc(nranks * sizeof(int));
	c->seq_out = calloc(nranks, sizeof(uint32_t));
	c->seq_in = calloc(nranks, sizeof(uint32_t));
	if (!c->fd || !c->seq_out || !c->seq_in) {
		free(c->fd);
		free(c->seq_out);
		free(c->seq_in);
		free(c);
		return HCCL_E_MEMORY;
	}
	for (uint32_t i = 0; i < nranks; i++)
		c->fd[i] = -1;
	pthread_mutex_init(&c->lock, NULL);
	c->refs = 1;
	c->rank = rank;
	c->nranks = nranks;
	c->device = -1;
	c->exec_timeout_ms = stubhccl_env_ms("HCCL_EXEC_TIMEOUT", 1836);
	*out = c;
	return HCCL_SUCCESS;
}

void stubhccl_comm_put(struct stub_comm *c)
{
	int last;

	pthread_mutex_lock(&c->lock);
	last = --c->refs == 0;
	pthread_mutex_unlock(&c->lock);
	if (!last)
		return;
	for (uint32_t i = 0; i < c->nranks; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	pthread_mutex_destroy(&c->lock);
	free(c->fd);
	free(c->seq_out);
	free(c->seq_in);
	free(c->scratch);
	free(c);
}

void stubhccl_comm_publish(struct stub_comm *c)
{
	pthread_mutex_lock(&reg_lock);
	if (nreg == capreg) {
		size_t cap = capreg ? 2 * capreg : 16;
		struct stub_comm **v = realloc(reg, cap * sizeof(*v));

		if (v) {
			reg = v;
			capreg = cap;
		}
	}
	if (nreg < capreg)
		reg[nreg++] = c;
	pthread_mutex_unlock(&reg_lock);
}

HcclResult stubhccl_comm_get(HcclComm h, struct stub_comm **out)
{
	HcclResult rc = HCCL_E_PTR;

	if (!h)
		return HCCL_E_PTR;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < nreg; i++) {
		if (reg[i] == h) {
			pthread_mutex_lock(&reg[i]->lock);
			reg[i]->refs++;
			pthread_mutex_unlock(&reg[i]->lock);
			*out = reg[i];
			rc = HCCL_SUCCESS;
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

HcclResult stubhccl_comm_unpublish(HcclComm h)
{
	struct stub_comm *c = NULL;

	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < nreg; i++) {
		if (reg[i] == h) {
			c = reg[i];
			reg[i] = reg[--nreg];
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	if (!c)
		return HCCL_E_PTR;
	/* Wakes a collective still waiting on the sockets; it fails, as on a destroyed comm. */
	for (uint32_t i = 0; i < c->nranks; i++)
		if (c->fd[i] >= 0)
			shutdown(c->fd[i], SHUT_RDWR);
	stubhccl_comm_put(c);
	return HCCL_SUCCESS;
}

int stubhccl_env_ms(const char *name, int default_s)
{
	const char *v = getenv(name);
	char *end;
	long s;

	if (!v || !*v)
		return default_s * 1000;
	s = strtol(v, &end, 10);
	if (*end || s <= 0 || s > 100000)
		return default_s * 1000;
	return (int)s * 1000;
}
