#!/bin/sh
# Rank tables from URLs (libcurl: https verified, --cacert, a deadline, a size cap, clear
# errors) and MindCluster's hccl.json that stays "initializing" until Ascend Operator fills
# it in (--wait). Every server is started here on 127.0.0.1 and stopped by its PID.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
HTTPD="python3 $(cd "$(dirname "$0")" && pwd)/httpd.py"
GOOD=$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json
PIDS=
stop_all() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=
	rm -rf "$TMP"
}
trap stop_all EXIT INT TERM

start() { # start NAME CMD...: runs CMD in the background; PORT_NAME its port
	name=$1
	shift
	"$@" >/dev/null 2>"$TMP/$name.log" &
	PIDS="$PIDS $!"
	i=0
	while [ ! -s "$TMP/$name.port" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	eval "PORT_$name=\$(cat \"$TMP/$name.port\")"
}

mkdir -p "$TMP/www"
cp "$GOOD" "$TMP/www/hccl.json"
printf '<html><body>Sign in to continue</body></html>\n' >"$TMP/www/login.json"
printf '{"status":"completed",\n "version": 1.0,, }\n' >"$TMP/www/broken.json"
head -c 4096 /dev/zero | tr '\0' ' ' >"$TMP/www/big.json"
echo '{}' >>"$TMP/www/big.json"
start http $HTTPD serve "$TMP/www" "$TMP/http.port"
U=http://127.0.0.1:$PORT_http

run hcclctl ranktable validate "$U/hccl.json"
check_rc 0 "a valid table over http: exit 0"
check_out "$U/hccl.json: valid: 0 errors, 0 warnings (format 1.0, 2 servers, 4 ranks)" "  named by its URL"

run hcclctl ranktable validate "$U/missing.json"
check_rc 3 "404: exit 3 (could not check)"
check_err "hcclctl: ranktable validate: $U/missing.json: HTTP 404 File not found
hint: check the URL's path" "  with the server's status line"

run hcclctl ranktable validate "$U/login.json"
check_rc 3 "a body that is not JSON (a login page): exit 3"
check_err "hcclctl: ranktable validate: $U/login.json: the response is not JSON (Content-Type application/json, 46 bytes): line 1, column 1: near '<html><body>Sign'
hint: is this the rank table's URL? 'curl -i URL' shows what it serves" "  located, with its start and the content type"

run hcclctl ranktable validate "$U/broken.json"
check_rc 3 "a URL with broken JSON is not a rank table: exit 3"
ok "grep -qF 'broken.json: the response is not JSON (Content-Type application/json, 43 bytes): line 2, column 18: near' '$TMP/err'" "  located at line and column"

run env HCCLCTL_URL_MAX_SIZE=1K "$HCCLCTL" ranktable validate "$U/big.json"
check_rc 3 "larger than the size cap: exit 3"
check_err_has "hcclctl: ranktable validate: $U/big.json: larger than 1024 bytes" "  says the cap"
run env HCCLCTL_RANKTABLE_MAX=1K "$HCCLCTL" ranktable validate "$U/big.json"
check_rc 3 "larger than the rank tables' limit: exit 3"
check_err_has "hcclctl: ranktable validate: $U/big.json: larger than 1024 bytes, the most a rank table may be (65536 ranks take about 15 MB)" \
	"  names that limit, not the URL's"

run hcclctl ranktable show "$U/hccl.json"
check_rc 0 "ranktable show reads URLs the same way"
run hcclctl ranktable diff "$U/hccl.json" "$GOOD"
check_rc 0 "ranktable diff of a URL and the same file: no difference"

# https: a self-signed certificate for 127.0.0.1, made here.
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" \
	-days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" >/dev/null 2>&1; then
	start https $HTTPD serve "$TMP/www" "$TMP/https.port" "$TMP/cert.pem" "$TMP/key.pem"
	S=https://127.0.0.1:$PORT_https
	run hcclctl ranktable validate "$S/hccl.json"
	check_rc 3 "https with a certificate no CA vouches for: exit 3"
	ok "grep -q '^hcclctl: ranktable validate: $S/hccl.json: TLS: SSL certificate problem: self-signed certificate' '$TMP/err'" "  a TLS error, named"
	check_err_has "hint: give the CA certificate that signed the server's with --cacert FILE (or HCCLCTL_CACERT); the certificate must name the host of the URL" "  the fix: --cacert"
	run hcclctl ranktable validate --cacert "$TMP/cert.pem" "$S/hccl.json"
	check_rc 0 "--cacert FILE: verified, exit 0"
	run env HCCLCTL_CACERT="$TMP/cert.pem" "$HCCLCTL" ranktable validate "$S/hccl.json"
	check_rc 0 "HCCLCTL_CACERT does the same"
	run hcclctl ranktable validate --cacert "$TMP/nonexistent.pem" "$S/hccl.json"
	check_rc 3 "--cacert of a missing file: exit 3"
	check_err_has "hint: --cacert (HCCLCTL_CACERT) must be a readable PEM file of CA certificates" "  says so"
else
	skip "openssl cannot make a certificate here"
fi

# A server that accepts and never answers.
start hang $HTTPD hang "$TMP/hang.port"
t0=$(date +%s)
run hcclctl ranktable validate --url-timeout 1 "http://127.0.0.1:$PORT_hang/hccl.json"
t1=$(date +%s)
check_rc 3 "a server that never answers: exit 3"
check_err "hcclctl: ranktable validate: http://127.0.0.1:$PORT_hang/hccl.json: no complete answer within 1 s (0 bytes received)
hint: check the server; --url-timeout SEC (HCCLCTL_URL_TIMEOUT) waits longer" "  the deadline is named"
ok "[ $((t1 - t0)) -le 3 ]" "  within the deadline ($((t1 - t0)) s)"
run env HCCLCTL_URL_TIMEOUT=1 "$HCCLCTL" ranktable validate "http://127.0.0.1:$PORT_hang/x.json"
check_rc 3 "HCCLCTL_URL_TIMEOUT sets the same deadline"

# MindCluster: the ConfigMap holds {"status":"initializing"} until Ascend Operator writes the
# table. A writer flips it to the real table after 2 s, atomically (a rename), as a
# ConfigMap volume's update does.
flip() { # flip FILE DELAY
	printf '{\n    "status":"initializing"\n}\n' >"$1"
	# no stdout: an orphaned sleep must not hold the TAP pipe open after the test
	# and stopped, the writer stops its sleep too (the harness fails a test that leaves one)
	(
		trap 'kill $s 2>/dev/null; exit 0' TERM
		sleep "$2" &
		s=$!
		wait $s && cp "$GOOD" "$1.new" && mv "$1.new" "$1"
	) >/dev/null 2>&1 &
	PIDS="$PIDS $!"
}
flip "$TMP/hccl.json" 2
run hcclctl ranktable validate "$TMP/hccl.json"
check_rc 2 "without --wait an initializing table is not ready: exit 2"
check_out_has "$TMP/hccl.json:2:14: error: status is \"initializing\": the rank table is not ready yet [status-not-ready]" "  and says so"
run hcclctl ranktable validate --wait 20 "$TMP/hccl.json"
check_rc 0 "--wait: re-read until completed, then valid"
check_err_has "hcclctl: ranktable validate: $TMP/hccl.json: status is \"initializing\": waiting up to 20 s for \"completed\", re-reading it every second" "  progress on stderr"
ok "grep -q '^hcclctl: ranktable validate: $TMP/hccl.json: status \"completed\" after [1-3] s$' '$TMP/err'" "  and when it completed"

flip "$TMP/slow.json" 30
t0=$(date +%s)
run hcclctl ranktable validate --wait 2 "$TMP/slow.json"
t1=$(date +%s)
check_rc 2 "a table still initializing after --wait: exit 2"
check_err_has "hcclctl: ranktable validate: warning: $TMP/slow.json: still \"initializing\" after 2 s (--wait)" "  says it gave up waiting"
ok "[ $((t1 - t0)) -ge 2 ] && [ $((t1 - t0)) -le 4 ]" "  after the --wait limit ($((t1 - t0)) s)"

# The same over a URL, and with HCCLCTL_RANKTABLE_WAIT.
flip "$TMP/www/cm.json" 2
run env HCCLCTL_RANKTABLE_WAIT=20 "$HCCLCTL" -q ranktable validate "$U/cm.json"
check_rc 0 "HCCLCTL_RANKTABLE_WAIT: a URL that turns completed"
check_out "" "  -q: no progress, no output"

# run --ranktable URL --ssh loads the table the same way: a 404 stops it before any SSH.
run hcclctl run allreduce --ssh --ranktable "$U/missing.json"
check_rc 3 "run --ssh --ranktable URL: a 404 is exit 3"
check_err "hcclctl: run allreduce: $U/missing.json: HTTP 404 File not found
hint: check the URL's path" "  with the same message"
run hcclctl run allreduce --ssh --ranktable "$U/login.json"
check_rc 3 "run --ssh --ranktable URL: not JSON is exit 3"
if [ -n "${PORT_https:-}" ]; then
	run hcclctl run allreduce --ssh --ranktable "https://127.0.0.1:$PORT_https/hccl.json"
	check_rc 3 "run --ssh --ranktable https URL: an unverified certificate is exit 3"
	ok "grep -q 'TLS: SSL certificate problem' '$TMP/err'" "  a TLS error"
fi
flip "$TMP/www/run.json" 30
run hcclctl run allreduce --ssh --ranktable "$U/run.json" --wait 1
check_rc 2 "run --ssh: a table still initializing after --wait is refused: exit 2"
check_err_has "hcclctl: run allreduce: warning: $U/run.json: still \"initializing\" after 1 s (--wait)" "  after waiting"

done_testing
