#!/bin/sh
# scripts/deps.sh: quiet when everything is there; as non-root, the exact command and exit 3.
# harness: once (it reads the build's objects and scripts, never $HCCLCTL: cli-asan would repeat it)
. "$(dirname "$0")/lib.sh"
DEPS=$(pwd)/scripts/deps.sh

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	skip "needs root and setpriv to run deps.sh as another user"
	done_testing
	exit
fi
chmod 755 "$TMP"
mkdir -p "$TMP/fake"
printf '#!/bin/sh\nexit 1\n' >"$TMP/fake/dpkg-query" # every package "missing"
chmod 755 "$TMP/fake" "$TMP/fake/dpkg-query"

# The other user reads the script on stdin and runs from /: the checkout may live where
# only root can read (a 0700 home or mktemp -d), so it must not need to open anything there.
as_nobody() {
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$@" <"$DEPS")
}

run as_nobody sh -s
check_rc 0 "everything installed: exit 0, also as non-root"
check_err "" "and silent"

run as_nobody env PATH="$TMP/fake:$PATH" sh -s
check_rc 3 "missing packages as non-root: exit 3 (UNKNOWN)"
pkgs=$(sed -n '/^PKGS="/,/"$/p' "$DEPS" | tr -d '"' | sed 's/^PKGS=//' | tr '\n' ' ' | tr -s ' ' | sed 's/ $//')
check_err_has "hint: run as root: apt-get update && apt-get install -y --no-install-recommends $pkgs" "prints the exact apt-get command"

done_testing
