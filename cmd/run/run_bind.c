/* run --local: each rank on a CPU of its own while the ranks fit the CPUs the launcher may
 * use, as mpirun binds its ranks to cores. Unbound, the scheduler often left two polling
 * ranks on one CPU with the other idle (it places a woken process beside its waker), and
 * each then waited for the other's time slice: an 8-byte allreduce at N=2 took 25 us a call
 * in half the launches, 0.3-0.5 us bound (2 vCPUs). More ranks than CPUs stay unbound:
 * they share the cores, and the scheduler spreads them. HCCLCTL_BIND=none leaves every rank
 * unbound; core (the default) binds as above. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/run.h"

int run_bind_plan(struct run_bind *b, int n, char *err, size_t errlen)
{
	const char *v = getenv("HCCLCTL_BIND");
	memset(b, 0, sizeof(*b));
	if (v && *v && strcmp(v, "core") && strcmp(v, "none")) {
		snprintf(err, errlen, "HCCLCTL_BIND='%s' is not one of core, none", v);
		return -1;
	}
	if ((v && !strcmp(v, "none")) || sched_getaffinity(0, sizeof(b->allowed), &b->allowed))
		return 0; /* unbound: asked so, or the allowed CPUs unknown */
	b->on = n <= CPU_COUNT(&b->allowed);
	return 0;
}

int run_bind_rank(const struct run_bind *b, int rank)
{
	if (!b->on)
		return -1;
	int k = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &b->allowed) || k++ != rank)
			continue;
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		return sched_setaffinity(0, sizeof(one), &one) ? -1 : cpu;
	}
	return -1;
}
