#!/usr/bin/env python3
"""Writes a valid HCCL 1.0 rank table of SERVERS x DEVICES ranks (for the scale benchmark).

The text is what json.dump(doc, indent=4) writes, byte for byte, but formatted directly:
with indent, json falls back to its pure-Python encoder, which took 5.9 s of a loaded test
machine for 4096 x 16 (tests/cli/ranktable-validate.t, twice per `make check`); this takes
well under a second."""
import sys

servers, devices = int(sys.argv[1]), int(sys.argv[2])
DEV = ('                {\n'
       '                    "device_id": "%d",\n'
       '                    "device_ip": "10.%d.%d.%d",\n'
       '                    "rank_id": "%d"\n'
       '                }')
out = ['{\n    "version": "1.0",\n    "server_count": "%d",\n    "server_list": [' % servers]
rank = 0
for s in range(servers):
    devs = ',\n'.join(DEV % (d, s // 256, s % 256, d + 1, rank + d) for d in range(devices))
    rank += devices
    out.append('%s\n        {\n            "server_id": "172.%d.%d.%d",\n'
               '            "device": [%s],\n'
               '            "host_nic_ip": "reserve"\n        }'
               % ('' if s == 0 else ',', 16 + s // 65536, (s // 256) % 256, s % 256,
                  '\n' + devs + '\n            ' if devices else ''))
out.append('\n    ],\n    "status": "completed"\n}\n' if servers else '],\n    "status": "completed"\n}\n')
sys.stdout.write(''.join(out))
