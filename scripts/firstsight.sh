#!/bin/sh
# First sight: runs doctor --logs on every case of a batch of real failed jobs (CASE/ beside
# CASE.expect) and prints a markdown table of expected against got, then the batch's rate.
# Judged as tests/cli/doctor-logs.t judges: its own comparison script is taken out of it here, so
# a case is right at first sight exactly when that test would pass it. A case whose expect says
# `kind: healthy` is right when doctor exits 0 with no cause.
#   usage: scripts/firstsight.sh [BATCH_DIR...]   (HCCLCTL=path overrides ./hcclctl)
set -u
HCCLCTL=${HCCLCTL:-./hcclctl}
T=${TMPDIR:-/tmp}/firstsight.$$
mkdir -p "$T" || exit 3
trap 'rm -rf "$T"' EXIT INT TERM

# the comparison heredoc of doctor-logs.t, verbatim
sed -n "/^cat >\"\$TMP\/cmp.py\" <<'EOF2'\$/,/^EOF2\$/p" tests/cli/doctor-logs.t | sed '1d;$d' >"$T/cmp.py"
if ! grep -q "\['jobs'\]" "$T/cmp.py"; then
	echo "firstsight: could not find the comparison script in tests/cli/doctor-logs.t" >&2
	exit 3
fi

# what doctor named: kind (detail) and the culprit's fields, for the table
cat >"$T/got.py" <<'EOF'
import json, sys
try:
    c = json.loads(sys.stdin.read()).get('cause') or {}
except ValueError:
    print("(no JSON)\t"); sys.exit(0)
kind = c.get('kind') or '(none)'
if c.get('detail'):
    kind += ' (%s)' % c['detail']
who = []
for k in ('node', 'rank', 'group', 'device', 'ip', 'port', 'peer_rank', 'peer_ip'):
    if c.get(k) is not None and c.get(k) != '':
        who.append('%s %s' % (k, c[k]))
print('%s\t%s' % (kind, ', '.join(who) or '-'))
EOF

[ $# -gt 0 ] || set -- tests/data/real-logs-new/batch*
right=0 total=0 prose=0 unsettled=0 uright=0 named=0
echo "| case | expected | first sight: kind | culprit | exit | right? |"
echo "|---|---|---|---|---|---|"
for batch in "$@"; do
	for exp in "$batch"/*.expect; do
		[ -f "$exp" ] || continue
		case=$(basename "$exp" .expect)
		out=$("$HCCLCTL" --json doctor --logs "$batch/$case" 2>"$T/err")
		rc=$?
		want=$(sed -n 's/^kind: //p' "$exp")
		wantall=$(grep -v -e '^todo:' -e '^kind:' "$exp" | sed 's/: / /' | paste -sd',' - | sed 's/,/, /g')
		wantall="$want${wantall:+; $wantall}"
		todo=$(grep -c '^todo:' "$exp")
		got=$(printf '%s' "$out" | python3 "$T/got.py")
		gkind=$(printf '%s' "$got" | cut -f1)
		gwho=$(printf '%s' "$got" | cut -f2)
		if [ "$want" = healthy ]; then
			miss=
			[ "$rc" -eq 0 ] || miss="exit $rc, expected 0"
		else
			# the script reads a --each document and "N<TAB>CASE<TAB>EXPECT" lines, prints
			# "N<TAB>CASE<TAB>EXIT<TAB>mismatches"; the binary judged may be older than
			# --each: its one report is put in such a document
			printf '{"jobs": [%s]}' "$out" >"$T/doc.json"
			miss=$(printf '1\t%s\t%s\n' "$case" "$exp" | python3 "$T/cmp.py" "$T/doc.json" |
				tail -n 1 | cut -f4-)
			# a cause the log does not show may be a warning (unclassified) as well as a
			# failure (as doctor-logs.t judges)
			[ "$rc" -eq 2 ] || { [ "$want" = unresolved ] && [ "$rc" -eq 1 ]; } ||
				miss="$miss${miss:+; }exit $rc, expected 2"
		fi
		total=$((total + 1))
		if [ -z "$miss" ]; then
			right=$((right + 1)); verdict=right
		else
			verdict="wrong: $miss"
			[ "$todo" -eq 0 ] || verdict="$verdict (TODO: cause found outside the log)"
			[ "$todo" -eq 0 ] || [ "$want" = unresolved ] || prose=$((prose + 1))
		fi
		# a thread that settles no cause cannot show a named class wrong, nor right: counted
		# apart so the rate over settled causes can be read beside the one over all
		if [ "$want" = unresolved ]; then
			unsettled=$((unsettled + 1))
			[ "$verdict" != right ] || uright=$((uright + 1))
			case $gkind in unresolved*|'(none)'*) ;; *) named=$((named + 1)) ;; esac
		fi
		echo "| $case | $wantall | $gkind | $gwho | $rc | $verdict |"
	done
done
# the commit the binary was built from (its --version), not the tree's
commit=$("$HCCLCTL" --version 2>/dev/null | sed -n 's/^commit \(.......\).*/\1/p')
[ -n "$commit" ] || commit='?'

main=$(git rev-parse --short main 2>/dev/null || echo '?')
pct=0
[ "$total" -eq 0 ] || pct=$((right * 100 / total))
echo
echo "first sight: $right/$total right ($pct %) with hcclctl built at $commit (main at $main)"
p2=0 sp=0
settled=$((total - prose - unsettled)) sright=$((right - uright))
[ $((total - prose)) -eq 0 ] || p2=$((right * 100 / (total - prose)))
[ "$settled" -eq 0 ] || sp=$((sright * 100 / settled))
echo "without the causes found only outside the log: $right/$((total - prose)) right ($p2 %)"
echo "threads that settle no cause: $unsettled ($uright right, $named given a named class);" \
	"the settled causes: $sright/$settled right ($sp %)"
