#!/usr/bin/env python3
"""Writes a valid HCCL 1.0 rank table of SERVERS x DEVICES ranks (for the scale benchmark)."""
import json
import sys

servers, devices = int(sys.argv[1]), int(sys.argv[2])
rank = 0
server_list = []
for s in range(servers):
    dev = []
    for d in range(devices):
        dev.append({"device_id": str(d),
                    "device_ip": "10.%d.%d.%d" % (s // 256, s % 256, d + 1),
                    "rank_id": str(rank)})
        rank += 1
    server_list.append({"server_id": "172.%d.%d.%d" % (16 + s // 65536, (s // 256) % 256, s % 256),
                        "device": dev, "host_nic_ip": "reserve"})
doc = {"version": "1.0", "server_count": str(servers), "server_list": server_list,
       "status": "completed"}
json.dump(doc, sys.stdout, indent=4)
sys.stdout.write("\n")
