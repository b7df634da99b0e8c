#!/bin/sh
# mpirun's remote shell for namespace clusters
# (--mca plm_rsh_agent "sh bench/nsexec.sh ID DIR"): `nsexec.sh ID DIR 10.77.0.I CMD...` runs
# CMD with sh in namespace IDnI (tests/cluster/netns.sh's names), as ssh would run it on host
# 10.77.0.I. Only hosts of that /24 are accepted. Every node gets its own TMPDIR under DIR:
# the orted daemons of one machine otherwise share Open MPI's session directory in /tmp, and
# one that cleans up can pull it from under one that starts.
set -eu
id=$1
dir=$2
host=$3
shift 3
case $host in
10.77.0.[0-9] | 10.77.0.[0-9][0-9] | 10.77.0.[0-9][0-9][0-9]) i=${host##*.} ;;
*)
	echo "nsexec.sh: '$host' is not a node of the namespace cluster" >&2
	exit 255
	;;
esac
TMPDIR=$dir/ompi-n$i
mkdir -p "$TMPDIR"
export TMPDIR
exec ip netns exec "${id}n$i" sh -c "$*"
