#!/bin/sh
# Every text a user reads stands alone: no message, hint, fix, --help, man page or
# completion cites the project's internal notes ("ascend.md §8.17", "DESIGN.md §3", a
# "shared/reference/" path, any "§"). A message may name a public source (a doc, a repository);
# it must never send the reader to a file they do not have.
. "$(dirname "$0")/lib.sh"

export PATTERNS='ascend\.md|asscend|diagnostics\.md|DESIGN\.md|shared/reference|§'

# The strings compiled into hcclctl: its read-only data, where every literal lives (the
# debug sections name source files and identifiers, which no user reads).
if command -v objcopy >/dev/null 2>&1 &&
	objcopy -O binary -j .rodata "$HCCLCTL" "$TMP/rodata" 2>/dev/null && [ -s "$TMP/rodata" ]; then
	src=$TMP/rodata
else
	src=$HCCLCTL
fi
# A "§" there is text only when a printable character follows it ("§8.17"): the bytes c2 a7
# also turn up in a switch's jump table, whose layout moves with every change of code.
LC_ALL=C grep -a -o -E ".{0,60}(${PATTERNS%|§}|§[ -~]).{0,20}" "$src" >"$TMP/hits"
[ ! -s "$TMP/hits" ]
_report $? "no string in hcclctl cites an internal note" "$(head -20 "$TMP/hits")"

# The man pages and the shell completions.
grep -n -E "$PATTERNS" man/*.1 completions/* >"$TMP/docs"
[ ! -s "$TMP/docs" ]
_report $? "no man page or completion cites an internal note" "$(head -20 "$TMP/docs")"

# What the commands print about themselves.
: >"$TMP/help"
hcclctl --help >>"$TMP/help" 2>&1
hcclctl --synopsis >>"$TMP/help" 2>&1
hcclctl ranktable rules >>"$TMP/help" 2>&1
for path in $(hcclctl --synopsis | awk '{p=""; for (i = 2; i <= NF; i++) { if ($i !~ /^[a-z][a-z-]*$/) break; p = p (p ? "," : "") $i } print p}' | sort -u); do
	# shellcheck disable=SC2046
	hcclctl $(printf '%s' "$path" | tr ',' ' ') --help >>"$TMP/help" 2>&1
done
ok "[ -s '$TMP/help' ]" "the help texts were read"
grep -n -E "$PATTERNS" "$TMP/help" >"$TMP/helphits"
[ ! -s "$TMP/helphits" ]
_report $? "no --help text or rule summary cites an internal note" "$(head -20 "$TMP/helphits")"

# The sources of the texts, so a cited note is found where it is written: the string
# literals of cmd/, ranktable/ and probes/ (comments are not shown to users).
perl -e '
	for my $f (@ARGV) {
		open(my $h, "<", $f) or die "$f: $!";
		local $/; my $s = <$h>;
		# comments, string and character literals, in one pass so none hides in another
		while ($s =~ m{(/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"|\x27(?:[^\x27\\\n]|\\.)*\x27)}gs) {
			my ($tok, $at) = ($1, $-[0]);
			next unless substr($tok, 0, 1) eq "\"";
			my $line = 1 + (substr($s, 0, $at) =~ tr/\n//);
			print "$f:$line: $tok\n" if $tok =~ /$ENV{PATTERNS}/;
		}
	}' cmd/*.c cmd/*.h cmd/*/*.c cmd/*/*.h ranktable/*.c ranktable/*.h ranktable/base/*.c ranktable/base/*.h probes/*/*.c probes/*/*.h >"$TMP/lits"
[ ! -s "$TMP/lits" ]
_report $? "no string literal in cmd/, ranktable/ or probes/ cites an internal note" "$(head -20 "$TMP/lits")"

done_testing
