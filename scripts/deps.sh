#!/bin/sh
# Install the Debian packages hcclctl builds and tests with, only those missing (slurm-wlm
# and munge: tests/cluster/slurm.t; prometheus: promtool for the --prometheus files;
# libgloo-dev and g++: bench/gloo_coll, Gloo's side of `make bench`; chromium:
# tests/cli/doctor-html.t renders the --html page headless; strace: tests/fault/shm.t watches
# ranks sleep on the rings' futex flags and wake each other there).
# Quick and silent when everything is there; exit 3 (UNKNOWN) when it cannot install.
set -eu

PKGS="build-essential pkg-config libcjson-dev libcurl4-openssl-dev libssh2-1-dev zlib1g-dev
libibverbs-dev libcmocka-dev libssl-dev clang libclang-rt-14-dev openssh-server openssh-client
iproute2 nftables perl python3 time openmpi-bin libopenmpi-dev etcd-server curl openssl
dpkg-dev binutils slurm-wlm munge prometheus g++ libgloo-dev chromium strace"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages:$missing" >&2
	echo "hint: run as root: apt-get update && $cmd" >&2
	exit 3
fi

echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# An install from a stale list fails on a fresh machine; refresh once, then install.
if ! apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -qq >&2 || { echo "deps.sh: apt-get update failed" >&2; exit 3; }
	apt-get install -y --no-install-recommends $missing >&2 || {
		echo "deps.sh: apt-get install failed; hint: $cmd" >&2; exit 3; }
fi
