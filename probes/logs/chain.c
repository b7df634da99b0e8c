/* Who waited on whom, across the workers and devices of a bundle, and where the waits end.
 *
 * Every process is placed on a worker and a device from what states it: the path of its files
 * (bundle.c: worker-N, device-D, rank_N, the pid of plog-PID_...), and its own lines (HCCL's
 * SetupAgent and hcclCommInitInfo lines give its rank, device, device IP and server, a Listen
 * line a device IP, a LINK_ERROR_INFO row its device IP and rank). Each wait is then an edge
 * from the waiting device to the one it waits for, found by what the wait names: a device IP
 * (link-error rows), a server and device (transport init), a physical device id on the same
 * worker (P2P), a rank of a group (AI CPU task exceptions), a server and device (heartbeats).
 * A wait whose target is in no log of the bundle ends at that target, named by its address.
 *
 * The root is where the waits end: a device that waits for nobody (its log is here and shows
 * no wait, or it is not here at all), or a set of devices that wait on each other. When there
 * are several, the one most devices wait for, directly or not; a device whose log is here
 * before one known only by address. The chain shown is the longest path of waits into it,
 * the evidence a reader can check hop by hop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/logs/bundle.h"
#include "probes/logs/hlogint.h"
#include "probes/hcclcodes.h"
#include "probes/logs/logtext.h"

#define MAX_NODES 256
#define MAX_EDGES 1024
#define MAX_IPS 4
#define MAX_GROUPS 4

int hlog__chain_line(struct pspan m, struct hlog_event *e)
{
	int v;
	/* "SetupAgent rankNum[16], rank[2], ..., server[51.38.67.141%enp189s0f0], ...,
	 * logicDevId[2], phydevId[2], deviceIp[192.168.100.202]"; "hcom init by file success,
	 * ..., rankNum[128], rank[76],server[192.168.102.141], device[4]"; "hcclCommInitInfo:
	 * commId[...], rank[0], totalRanks[2], ..., logicDevId[11], identifier[group_name_1]" */
	if (hlog__has(m, "SetupAgent rankNum") || hlog__has(m, "hcom init by file success") ||
	    hlog__has(m, "hcclCommInitInfo:")) {
		e->kind = HLOG_PLACE;
		hlog__int_after(m, ", rank[", &e->rank);
		if (hlog__int_after(m, "rankNum[", &v) || hlog__int_after(m, "totalRanks[", &v))
			e->group_size = v;
		if (!hlog__int_after(m, "logicDevId[", &e->dev))
			hlog__int_after(m, "device[", &e->dev);
		hlog__int_after(m, "phydevId[", &e->peer_dev);
		hlog__ip_after(m, "deviceIp[", e->ip, sizeof(e->ip));
		hlog__ip_after(m, "server[", e->peer_ip, sizeof(e->peer_ip));
		if (hlog__has(m, "hcclCommInitInfo:"))
			hlog__name_after(m, "identifier[", e->group, sizeof(e->group));
		return 1;
	}
	/* "[Start][Vnic]Listen on ip[192.168.2.197], port[16666] sucess, devPhyId[2],
	 * devLogicId[2]" (the word is misspelt in some releases) */
	if (hlog__has(m, "Listen on ip[") &&
	    (hlog__has(m, "sucess") || hlog__has(m, "success"))) {
		e->kind = HLOG_PLACE;
		hlog__ip_after(m, "Listen on ip[", e->ip, sizeof(e->ip));
		hlog__int_after(m, "devLogicId[", &e->dev);
		hlog__int_after(m, "devPhyId[", &e->peer_dev);
		return 1;
	}
	/* "[Wait][P2PConnected]connected p2p timeout, timeout:130 s. local logicDevid:0, remote
	 * physic id:1."; "Wait Enable P2P Failed, src devicePhyId[0], dst devicePhyId[1]" */
	if (hlog__has(m, "connected p2p timeout") || hlog__has(m, "Wait Enable P2P Failed")) {
		e->kind = HLOG_SOCKET_TIMEOUT;
		e->sub = HLOG_SUB_P2P;
		if (!hlog__int_after(m, "local logicDevid", &e->dev))
			hlog__int_after(m, "src devicePhyId", &e->dev);
		if (!hlog__int_after(m, "remote physic id", &e->peer_dev))
			hlog__int_after(m, "dst devicePhyId", &e->peer_dev);
		return 1;
	}
	/* "[TaskException]base information is streamId:149, ..., type:NOTIFY WAIT, localRank:1,
	 * remoteRank:0, ..." and, next, "[TaskException]opData information is tag:...,
	 * group:group_name_17271, ..." */
	if (hlog__has(m, "[TaskException]") && hlog__has(m, "type:NOTIFY WAIT")) {
		e->kind = HLOG_NOTIFY_TIMEOUT;
		e->sub = HLOG_SUB_TASK_WAIT;
		hlog__int_after(m, "localRank", &e->rank);
		hlog__int_after(m, "remoteRank", &e->peer_rank);
		return 1;
	}
	if (hlog__has(m, "[TaskException]opData information") &&
	    hlog__name_after(m, "group:", e->group, sizeof(e->group))) {
		e->kind = HLOG_PLACE;
		e->sub = HLOG_SUB_OPDATA;
		return 1;
	}
	return 0;
}
