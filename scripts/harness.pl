#!/usr/bin/perl
# Runs every test tier of `make check` as TAP (prove's parser), prints a line per test
# program and its failures, and ends with "N passed, N failed, N skipped".
# Usage: perl scripts/harness.pl [TIER...]   (tiers: unit fuzz cli cli-asan cluster fault)
use strict;
use warnings;
use TAP::Parser;
use Time::HiRes qw(time);

my $asan = 'build/asan';
my @tiers = @ARGV ? @ARGV : qw(unit fuzz cli cli-asan cluster fault);
$ENV{CMOCKA_MESSAGE_OUTPUT} = 'TAP';
$ENV{ASAN_OPTIONS} //= 'detect_leaks=1:abort_on_error=1';
$ENV{UBSAN_OPTIONS} //= 'print_stacktrace=1:halt_on_error=1';
$ENV{NO_COLOR} = '1';

my @jobs;    # [tier, name, command array ref, env hash ref]
for my $tier (@tiers) {
	if ($tier eq 'unit') {
		push @jobs, [ $tier, $_, [$_], {} ] for grep { -x $_ && !/\.[od]$/ } sort glob("$asan/tests/unit/test_*");
	} elsif ($tier eq 'fuzz') {
		for my $bin (sort glob("$asan/tests/fuzz/fuzz_*")) {
			next if $bin =~ /\.[od]$/;
			(my $n = $bin) =~ s{.*/fuzz_}{};
			push @jobs, [ $tier, $bin, [ $bin, "tests/fuzz/corpus/$n" ], {} ];
		}
	} elsif ($tier eq 'cli' || $tier eq 'cli-asan') {
		my $bin = $tier eq 'cli' ? './hcclctl' : "$asan/hcclctl";
		push @jobs, [ $tier, $_, [ 'sh', $_ ], { HCCLCTL => $bin } ]
		    for sort glob('tests/cli/*.t');
	} elsif ($tier eq 'cluster') {    # network namespaces; they skip where not permitted
		push @jobs, [ $tier, $_, [ 'sh', $_ ], { HCCLCTL => './hcclctl' } ]
		    for sort glob('tests/cluster/*.t');
	} elsif ($tier eq 'fault') {    # faults injected into runs, loopback and namespaces
		push @jobs, [ $tier, $_, [ 'sh', $_ ], { HCCLCTL => './hcclctl' } ]
		    for sort glob('tests/fault/*.t');
	} else {
		die "harness: unknown tier '$tier'\n";
	}
}

my ( $pass, $fail, $skip ) = ( 0, 0, 0 );
my @failed_files;
for my $j (@jobs) {
	my ( $tier, $name, $cmd, $env ) = @$j;
	local %ENV = ( %ENV, %$env );
	my $t0 = time;
	my $p = TAP::Parser->new( { exec => $cmd, merge => 1 } );
	my ( $ok, $bad, $sk ) = ( 0, 0, 0 );
	my @lines;
	my $last_bad = 0;
	while ( my $r = $p->next ) {
		if ( $r->is_test ) {
			$last_bad = 0;
			if ( $r->has_skip ) { $sk++; push @lines, '    ' . $r->as_string if $ENV{HARNESS_VERBOSE}; }
			elsif ( $r->is_ok ) { $ok++ }
			else { $bad++; $last_bad = 1; push @lines, '    ' . $r->as_string; }
		} elsif ( $last_bad || $r->is_bailout || ( !$r->is_comment && !$r->is_plan && !$r->is_test ) ) {
			push @lines, '    ' . $r->as_string if @lines < 200;
		}
	}
	my $exit = $p->exit // 0;
	my $wait = $p->wait // 0;
	my @why;
	if ( $p->parse_errors ) { push @why, $p->parse_errors; }
	if ( $exit || $wait ) { push @why, "exit status $exit" . ( $wait & 127 ? ", signal " . ( $wait & 127 ) : '' ); }
	# A program that dies or breaks its plan counts as one more failure, so a crash
	# after its last "ok" can never pass.
	$bad++ if @why && !$bad;
	$pass += $ok;
	$fail += $bad;
	$skip += $sk;
	my $label = sprintf "%-9s %s", $tier, $name;
	my $dt = sprintf "%.1fs", time - $t0;
	if ($bad) {
		push @failed_files, $label;
		print "FAIL $label: $ok passed, $bad failed, $sk skipped ($dt)\n";
		print "    $_\n" for @why;
		print "$_\n" for @lines;
	} else {
		print "ok   $label: $ok passed" . ( $sk ? ", $sk skipped" : '' ) . " ($dt)\n";
	}
}
print "\nfailed: $_\n" for @failed_files;
print "\n$pass passed, $fail failed, $skip skipped\n";
exit( $fail ? 1 : 0 );
