#!/bin/sh
# --help, the man page SYNOPSIS and OPTIONS, and the completion words come from one table;
# this keeps the hand-written man pages in step with it.
. "$(dirname "$0")/lib.sh"
MAN=${MAN:-man}

troff_text() { # man page text without font escapes
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(em/--/g' "$@"
}

synopsis_of() { # the .nf lines of the SYNOPSIS section
	troff_text "$1" | awk '/^\.SH SYNOPSIS/{s=1;next} /^\.SH/{s=0} s && !/^\./'
}

hcclctl --synopsis >"$TMP/syn"
ok "[ -s '$TMP/syn' ]" "--synopsis prints the commands"
while IFS= read -r line; do
	group=$(printf '%s\n' "$line" | awk '{print $2}')
	page=$MAN/hcclctl-$group.1
	if [ ! -f "$page" ]; then
		_report 1 "man page for '$group'" "missing $page"
		continue
	fi
	synopsis_of "$page" >"$TMP/mansyn"
	grep -qxF -- "$line" "$TMP/mansyn"
	_report $? "man SYNOPSIS of $group has: $line" "man page has:" "$(cat "$TMP/mansyn")"

	# the words of the command path: everything before the first option or argument
	path=$(printf '%s\n' "$line" | awk '{for(i=2;i<=NF;i++){if($i !~ /^[a-z][a-z-]*$/)break; printf "%s ", $i}}')
	# shellcheck disable=SC2086
	hcclctl $path --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMP/help"
	# shellcheck disable=SC2086
	hcclctl --completion-words $path | grep -- '^--' | sort -u >"$TMP/words"
	cmp -s "$TMP/help" "$TMP/words"
	_report $? "help and completion words agree for '$path'" "$(diff "$TMP/help" "$TMP/words")"
	# each option a fixed string somewhere in the two pages (none holds a newline), read in one
	# awk: two processes per option were 1000 in all, most of this test's time
	troff_text "$page" "$MAN/hcclctl.1" >"$TMP/mantext"
	missing=$(awk 'NR == FNR { t = t $0 "\n"; next } index(t, $0) == 0 { printf " %s", $0 }' \
		"$TMP/mantext" "$TMP/help")
	[ -z "$missing" ]
	_report $? "man pages document every option of '$path'" "undocumented:$missing"
done <"$TMP/syn"

synopsis_of "$MAN/hcclctl.1" >"$TMP/topsyn"
hcclctl help 2>&1 | sed -n 's/^usage: //p' >"$TMP/topusage"
grep -qxF -- "$(cat "$TMP/topusage")" "$TMP/topsyn"
_report $? "hcclctl(1) SYNOPSIS matches the usage line" "usage: $(cat "$TMP/topusage")" "man: $(cat "$TMP/topsyn")"

for c in $(hcclctl --completion-words | grep -v -- '^-'); do
	[ "$c" = help ] && continue
	troff_text "$MAN/hcclctl.1" | grep -q "^\.B $c\$"
	_report $? "hcclctl(1) lists the command '$c'"
done

missing=""
troff_text "$MAN/hcclctl-ranktable.1" >"$TMP/rtman"
for code in $(hcclctl ranktable rules | awk '{print $1}'); do
	grep -qx -- ".B $code" "$TMP/rtman" || missing="$missing $code"
done
[ -z "$missing" ] && [ "$(hcclctl ranktable rules | wc -l)" -gt 50 ]
_report $? "hcclctl-ranktable(1) RULES lists every rule code" "missing:$missing"

# doctor's checks: hcclctl-doctor(1)'s CHECKS and the README's list are those of --list-checks
# (the table that runs them), no more, no fewer, in its order (the report's and the cause's)
hcclctl doctor --list-checks >"$TMP/checks"
awk '{print $1}' "$TMP/checks" >"$TMP/codes"
troff_text "$MAN/hcclctl-doctor.1" |
	awk '/^\.SH CHECKS/{s=1;next} /^\.SH/{s=0} s && /^\.B /{print $2}' >"$TMP/mancodes"
[ "$(wc -l <"$TMP/codes")" -gt 30 ] && cmp -s "$TMP/codes" "$TMP/mancodes"
_report $? "hcclctl-doctor(1) CHECKS lists every check of --list-checks, none other, in order" \
	"$(diff "$TMP/codes" "$TMP/mancodes")"
awk '/^\$ hcclctl doctor --list-checks$/{s=1;next} s && /^```/{exit} s' README.md >"$TMP/readme"
[ -s "$TMP/readme" ] && cmp -s "$TMP/checks" "$TMP/readme"
_report $? "README's list of doctor's checks is --list-checks' output" \
	"$(diff "$TMP/checks" "$TMP/readme")"

# the README's table of verdicts is --situations' output: kind, exit status, meaning, in order
hcclctl --situations >"$TMP/sit"
awk '/^\| kind \| exit \| meaning \|$/{s=1;next} s && !/^\|/{exit}
	s && !/^\|---/{sub(/^\| `/, ""); sub(/` \| /, " "); sub(/ \| /, " "); sub(/ \|$/, ""); print}' \
	README.md >"$TMP/readmesit"
[ -s "$TMP/readmesit" ] && cmp -s "$TMP/sit" "$TMP/readmesit"
_report $? "README's table of verdicts is --situations' output" "$(diff "$TMP/sit" "$TMP/readmesit")"

# the one table of situations: hcclctl(1)'s SITUATIONS is the code's (--situations), each kind
# with its exit status and its meaning, in order; every exit status it uses is in EXIT STATUS
hcclctl --situations >"$TMP/sit"
troff_text "$MAN/hcclctl.1" | awk '/^\.SH SITUATIONS/{s=1;next} /^\.SH/{s=0}
	s && /^\.BR /{k=$2; c=$4; gsub(/[")( ]/, "", c); getline m; print k " " c " " m}' >"$TMP/mansit"
[ "$(wc -l <"$TMP/sit")" -ge 10 ] && cmp -s "$TMP/sit" "$TMP/mansit"
_report $? "hcclctl(1) SITUATIONS is the code's table: kind, exit status, meaning, in order" \
	"$(diff "$TMP/sit" "$TMP/mansit")"
missing=""
for c in $(awk '{print $2}' "$TMP/sit" | sort -u); do
	troff_text "$MAN/hcclctl.1" | awk '/^\.SH EXIT STATUS/{s=1;next} /^\.SH/{s=0} s' |
		grep -qx ".B $c" || missing="$missing $c"
done
[ -z "$missing" ]
_report $? "hcclctl(1) EXIT STATUS explains every exit status a situation has" "missing:$missing"

run hcclctl --completion-words ranktable
check_out "gen
validate
show
diff
rules
--json
--no-color
--quiet
-q
--verbose
-v
--strict
--help
-h" "completion words after 'ranktable' are its subcommands and the global flags"

run hcclctl --completion-words ranktable gen --format
check_out "1.0
1.2" "the value of --format completes to its choices"

run hcclctl --completion-words ranktable gen -o
check_out ":file" "the value of -o completes to files"

done_testing
