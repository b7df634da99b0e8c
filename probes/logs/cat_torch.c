/* torch.distributed and Gloo. Sources: PyTorch's torch/csrc/distributed/c10d/socket.cpp
 * (the store's client and server sockets, with errno and its name), TCPStore.cpp,
 * reducer.cpp (DDP's unfinished reduction), comm.cpp (DDP's model check across ranks),
 * ProcessGroupGloo.cpp (the monitored barrier), Python's socket.gaierror (glibc's gai_strerror); Gloo's gloo/transport/tcp/pair.cc and unbound_buffer.cc. The watchdog's own lines are read
 * by hlogwatch.c. */
#include <string.h>

#include "probes/npu/hcclcodes.h"
#include "probes/logs/catalog.h"

/* A peer address of 127.0.0.0/8 or ::1: the host name of a node resolved to loopback (Debian
 * and Ubuntu map it to 127.0.1.1 in /etc/hosts), so the other nodes were told to connect to
 * themselves. */
static int loopback_peer(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	(void)m;
	(void)e;
	const struct hx_val *ip = hlog__xfind(x, HX_IP, HX_THIS | HX_OTHER);
	return ip && (!strncmp(ip->s, "127.", 4) || !strcmp(ip->s, "::1"));
}

/* torch's monitored barrier names the ranks that never arrived, after the reporting rank:
 * "[Rank 0]: Ranks 4, 5, 6, 7 failed to pass monitoredBarrier in 2000000 ms" or "Rank 3
 * failed to pass ...": the first rank listed is the culprit, the reporter the one that
 * waited. 0 (no row) when no rank is listed. */
static int barrier_missing(struct pspan m, const struct hx_vals *x, struct hlog_event *e)
{
	static const char tail[] = " failed to pass monitoredBarrier";
	const char *end = NULL;
	for (size_t i = 0; i + sizeof(tail) - 1 <= m.n && !end; i++)
		if (!memcmp(m.s + i, tail, sizeof(tail) - 1))
			end = m.s + i;
	if (!end)
		return 0;
	const char *p = end;
	while (p > m.s && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == ',' || p[-1] == ' '))
		p--;
	const char *w = p > m.s && p[-1] == 's' ? p - 1 : p; /* "Ranks" or "Rank" */
	if (p == end || w - m.s < 4 || memcmp(w - 4, "Rank", 4))
		return 0;
	while (p < end && (*p < '0' || *p > '9'))
		p++;
	long n = 0;
	for (; p < end && *p >= '0' && *p <= '9' && n < 0x7fffffff / 10; p++)
		n = n * 10 + (*p - '0');
	const struct hx_val *own = hlog__xfind(x, HX_RANK, HX_THIS);
	if (own && own->n != n)
		e->peer_rank = (int)own->n;
	e->rank = (int)n;
	return 1;
}

static const char store_fix[] =
	"check MASTER_ADDR and MASTER_PORT on every node (the same values, an address of the node "
	"running rank 0 that the others can reach), that rank 0 started, and that no firewall "
	"drops the port";

static const struct hlog_sig rows[] = {
	/* socket.cpp: "The client socket has failed to connect to any network address of (%s,
	 * %s)" is the final error after the retries (each retry a warning) */
	{{"client socket has failed to connect to any network address"}, HCAT_NET,
	 "store-unreachable", "the c10d store client could not connect to the store (rank 0)",
	 store_fix, 0, NULL},
	/* torch's lazy init (torch/cuda/__init__.py, torch_npu/npu/__init__.py): "Cannot
	 * re-initialize CUDA in forked subprocess" / "Cannot re-initialize NPU in forked
	 * subprocess. To use NPU with multiprocessing, you must use the 'spawn' start method"
	 * (vllm-project/vllm-ascend#4502): the parent touched the device before it forked */
	{{"Cannot re-initialize", "in forked subprocess"}, HCAT_CONFIG, "torch-fork-reinit",
	 "a worker process was forked after its parent had already used the device, which the "
	 "device runtime cannot re-initialize in the child",
	 "start the workers with the 'spawn' method (multiprocessing.set_start_method('spawn'); "
	 "vLLM: VLLM_WORKER_MULTIPROC_METHOD=spawn), or keep the parent from touching the device "
	 "(no device call or tensor before the workers start)",
	 0, NULL},
	/* TCPStore.cpp: "Timed out after %d seconds waiting for clients. %d/%d clients joined." */
	{{"waiting for clients", "clients joined"}, HCAT_RANK_STUCK, "store-clients-missing",
	 "the store on rank 0 waited for every rank and some never connected",
	 "find the ranks that did not start or could not reach MASTER_ADDR:MASTER_PORT (their own "
	 "logs, the launcher on their node)",
	 0, NULL},
	/* TCPStore.cpp: "wait timeout after %dms, keys: %s": a key another rank (in torchrun, the
	 * other nodes' agents) should have set never came */
	{{"wait timeout after", "keys:"}, HCAT_RANK_STUCK, "store-key-wait",
	 "a rank waited on the c10d store for keys the other ranks or nodes should have set, and "
	 "they never came",
	 "find the ranks or nodes that did not arrive (their launcher's log: not started, a "
	 "different MASTER_ADDR, NNODES or rendezvous id, or crashed before the store)",
	 0, NULL},
	/* ProcessGroupGloo.cpp: "Ranks %s failed to pass monitoredBarrier in %d ms" */
	/* the flight recorder's analyser (torch/distributed/flight_recorder, fr_trace) on the
	 * collective it found broken, under "Collective 39 at entry 38 errors": "collective
	 * state: scheduled" is one some ranks queued and never started, the others waiting */
	{{"collective state:", "scheduled"}, HCAT_RANK_STUCK, "fr-collective-scheduled",
	 "the flight recorder shows a collective scheduled but never started: not every rank of "
	 "its group reached it, and the others wait in it",
	 "compare the expected and found ranks of that collective in the flight recorder's "
	 "report: the ranks missing from it stopped earlier (their own logs, py-spy dump on "
	 "their processes); the ranks waiting are not the cause",
	 0, NULL},
	{{"failed to pass monitoredBarrier"}, HCAT_RANK_STUCK, "monitored-barrier",
	 "the ranks listed never reached the monitored barrier: they were stuck or slow before it",
	 "read the listed ranks' logs and stacks (py-spy dump) for what held them: data loading, "
	 "an earlier collective, a crash",
	 0, barrier_missing},
	/* Python's socket.gaierror / c10d's getaddrinfo: a host name that does not resolve. The
	 * jobs seen with it (Kubernetes and Volcano workers, a TCPStore's master) were the name
	 * service not knowing a peer's name yet, its pod not up: the network's answer, as a
	 * refused connection is */
	{{"Name or service not known"}, HCAT_NET, "host-unresolved",
	 "a host name of the job does not resolve on this node: the name service has no entry "
	 "for it (yet: in Kubernetes a pod's name exists only once the pod is up)",
	 "use an address, or make the name resolve on every node (/etc/hosts or DNS), for "
	 "MASTER_ADDR and the host list; under Kubernetes start the workers once the master's "
	 "service resolves (an init container that waits for it)",
	 0, NULL},
	/* reducer.cpp */
	/* a setting of the model's wrapper, not ranks that disagree: the line itself says the
	 * module "has parameters that were not used in producing loss", and the fixes seen are
	 * find_unused_parameters=True or a model that uses them */
	{{"Expected to have finished reduction in the prior iteration"}, HCAT_CONFIG,
	 "ddp-unused-params",
	 "DDP's gradient reduction of the last step did not finish: some parameters of the model "
	 "took no part in the loss, and DDP was not told to expect that",
	 "pass find_unused_parameters=True to DistributedDataParallel, or make every parameter "
	 "take part in the loss on every rank (or set static_graph=True)",
	 0, NULL},
	/* the same told by Lightning before DDP's own check: "RuntimeError: It looks like your
	 * LightningModule has parameters that were not used in producing the loss returned by
	 * training_step. If this is intentional, you must enable the detection of unused
	 * parameters in DDP, ..." */
	{{"were not used in producing the loss"}, HCAT_CONFIG, "lightning-unused-params",
	 "DDP's gradient reduction cannot finish: some parameters of the model took no part in "
	 "the loss, and DDP was not told to expect that",
	 "let DDP expect them (Lightning: strategy='ddp_find_unused_parameters_true'; plain DDP: "
	 "find_unused_parameters=True), or make every parameter take part in the loss",
	 0, NULL},
	/* comm.cpp: "DDP expects same model across all ranks, but Rank %d has %d params, while
	 * rank %d has inconsistent %d params." */
	{{"DDP expects same model across all ranks"}, HCAT_OP_MISMATCH, "ddp-model-differs",
	 "the ranks built different models, or one rank reached DDP's check late with garbage "
	 "after a failed collective",
	 "build the same model on every rank; if a rank shows 0 params it was still busy "
	 "elsewhere (data loading, a timeout): look at its log",
	 0, NULL},
	/* pair.cc: "connect [%s]:%d: Connection refused" with a loopback peer first */
	{{"Connection refused", "connect ["}, HCAT_CONFIG, "gloo-loopback-host",
	 "Gloo was told to connect to a loopback address: a node's host name resolves to "
	 "127.0.x.x",
	 "set GLOO_SOCKET_IFNAME to the interface between the nodes, or map the host name to its "
	 "real address in /etc/hosts",
	 0, loopback_peer},
	{{"gloo", "Connection refused"}, HCAT_NET, "gloo-connect",
	 "Gloo could not connect to a peer: nothing listened at its address",
	 "check that the peer is running and reachable on the interface Gloo uses "
	 "(GLOO_SOCKET_IFNAME, the same on every node)",
	 0, NULL},
	/* tcp/device.cc: GLOO_ENFORCE(ifa != nullptr, "Unable to find address for: ", iface) */
	{{"Unable to find address for"}, HCAT_CONFIG, "gloo-no-interface",
	 "the network interface named for Gloo does not exist on this host or has no address",
	 "set GLOO_SOCKET_IFNAME to an interface that exists, is up and carries the nodes' network "
	 "on every node (ip -br addr); interface names differ between hosts and containers",
	 0, NULL},
	/* newer tcp/device.cc, for an interface given by its address (GLOO_SOCKET_IFNAME or a
	 * host name that resolved to one): "ifa != nullptr. Unable to find interface for:
	 * [0.0.0.189]" */
	{{"Unable to find interface for"}, HCAT_CONFIG, "gloo-no-interface2",
	 "the network interface or address named for Gloo is not one of this host's",
	 "set GLOO_SOCKET_IFNAME to an interface that exists, is up and carries the nodes' network "
	 "on every node (ip -br addr), and check that each host name resolves to its own address "
	 "(a host name of digits alone is read as an address)",
	 0, NULL},
	{{"Gloo connectFullMesh failed"}, HCAT_NET, "gloo-full-mesh",
	 "Gloo could not connect every pair of ranks",
	 "check GLOO_SOCKET_IFNAME and that the nodes reach each other on every port", 0, NULL},
	/* pair.cc: "Read error [%s]:%d: Connection reset by peer", "Connection closed by peer" */
	/* gloo/transport/tcp/device.cc: "[enforce fail at .../device.cc:276] ss1.ss_family ==
	 * ss2.ss_family. 2 vs 10": the two ends' addresses are AF_INET and AF_INET6 */
	{{"ss1.ss_family == ss2.ss_family"}, HCAT_CONFIG, "gloo-address-family",
	 "two ranks' Gloo addresses are of different families (IPv4 at one end, IPv6 at the "
	 "other)",
	 "make every rank use one family: bind Gloo to one interface on every node "
	 "(GLOO_SOCKET_IFNAME) and give MASTER_ADDR as an address, or a name that resolves to "
	 "IPv4 (or IPv6) on every node alike (/etc/hosts, gai.conf)",
	 0, NULL},
	{{"gloo", "Connection reset by peer"}, HCAT_RANK_STUCK, "gloo-peer-closed",
	 "a Gloo peer closed its connection: its process exited or aborted",
	 "read the log of the rank at that address for why it stopped", 0, NULL},
	{{"gloo", "Connection closed by peer"}, HCAT_RANK_STUCK, "gloo-peer-closed2",
	 "a Gloo peer closed its connection: its process exited or aborted",
	 "read the log of the rank at that address for why it stopped", 0, NULL},
	/* unbound_buffer.cc: "Timed out waiting %dms for recv operation to complete" */
	{{"Timed out waiting", "for recv operation to complete"}, HCAT_RANK_STUCK, "gloo-recv-timeout",
	 "a Gloo receive waited its whole timeout: the peer never sent (stuck, slow or gone)",
	 "find the rank that did not reach this collective (its log, py-spy dump of its process)",
	 0, NULL},
};

const struct hlog_sigtab hlog__cat_torch = {"torch", rows, sizeof(rows) / sizeof(rows[0])};
