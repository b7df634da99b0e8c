#!/usr/bin/perl
# Runs every test tier of `make check` as TAP (prove's parser), prints a line per test
# program and its failures, the ten slowest, and ends with "N passed, N failed, N skipped".
# Usage: perl scripts/harness.pl [TIER...]   (tiers: unit fuzz cli cli-asan cluster fault)
#
# Programs that share no ports, namespaces or timing run HARNESS_JOBS at a time (default 3 on
# two cores: the shared programs wait on sockets, sshd and sleeps for a third of their time):
# unit tests, fuzz corpora, the CLI tiers, and the cluster and fault tiers (their namespaces,
# sshd and Slurm are named by the test's pid and listen on ports the kernel picks; a fault's
# heartbeat budget of 5 s holds beside a neighbour). A test whose verdicts depend on elapsed
# time under load (a Ctrl-C's grace, one job's time against another's, a link's measured
# rate) or on the whole machine (/dev/shm compared before and after) says so with a line
# "# harness: alone" and runs with nothing else beside it. A CLI test that never runs
# $HCCLCTL (it builds and installs ./hcclctl itself) says "# harness: once" and runs in the
# cli tier only: in cli-asan it would repeat the very same commands.
#
# Programs start longest first, by the times of the last run (build/harness-times, written at
# the end of each run), so the lanes end together instead of one long program running
# alone at the end of the shared ones. Programs it does not list (a fresh clone) go first, by
# tier: cluster and fault (the longest), unit, cli-asan, cli, then the fuzz corpora, the many
# short ones that fill the gaps.
use strict;
use warnings;
use TAP::Parser;
use Time::HiRes qw(time);
use File::Temp qw(tempdir);
use POSIX qw(WNOHANG);

my $asan = 'build/asan';
my @tiers = @ARGV ? @ARGV : qw(unit fuzz cli cli-asan cluster fault);
my $width = $ENV{HARNESS_JOBS} // 3;
$width = 1 if $width !~ /^[1-9][0-9]*$/;
$ENV{CMOCKA_MESSAGE_OUTPUT} = 'TAP';
$ENV{ASAN_OPTIONS} //= 'detect_leaks=1:abort_on_error=1';
$ENV{UBSAN_OPTIONS} //= 'print_stacktrace=1:halt_on_error=1';
$ENV{NO_COLOR} = '1';

# Whether a test has a line "# harness: WORD".
sub says {
	my ( $file, $word ) = @_;
	open my $fh, '<', $file or return 0;
	while ( my $l = <$fh> ) { return 1 if $l =~ /^# harness: \Q$word\E\b/; }
	return 0;
}

my @jobs;    # {tier, name, cmd, env, alone}
sub job { push @jobs, { tier => $_[0], name => $_[1], cmd => $_[2], env => $_[3], alone => $_[4] } }
for my $tier (@tiers) {
	if ($tier eq 'unit') {
		job( $tier, $_, [$_], {}, 0 ) for grep { -x $_ && !/\.[od]$/ } sort glob("$asan/tests/unit/test_*");
	} elsif ($tier eq 'fuzz') {
		for my $bin (sort glob("$asan/tests/fuzz/fuzz_*")) {
			next if $bin =~ /\.[od]$/;
			( my $n = $bin ) =~ s{.*/fuzz_}{};
			job( $tier, $bin, [ $bin, "tests/fuzz/corpus/$n" ], {}, 0 );
		}
	} elsif ( $tier eq 'cli' || $tier eq 'cli-asan' ) {
		my $bin = $tier eq 'cli' ? './hcclctl' : "$asan/hcclctl";
		for my $t ( sort glob('tests/cli/*.t') ) {
			next if $tier eq 'cli-asan' && says( $t, 'once' );
			job( $tier, $t, [ 'sh', $t ], { HCCLCTL => $bin }, says( $t, 'alone' ) );
		}
	} elsif ( $tier eq 'cluster' || $tier eq 'fault' ) {
		job( $tier, $_, [ 'sh', $_ ], { HCCLCTL => './hcclctl' }, says( $_, 'alone' ) ) for sort glob("tests/$tier/*.t");
	} else {
		die "harness: unknown tier '$tier'\n";
	}
}

# Runs one program in a child; the child writes "ok bad skip seconds" and the report lines
# to $out, so the parent prints whole reports, never interleaved ones.
# The processes of process group $pg other than this one, as "pid (command)".
sub group_left {
	my ($pg) = @_;
	my @left;
	opendir my $d, '/proc' or return ();
	for my $pid ( grep { /^[0-9]+$/ } readdir $d ) {
		next if $pid == $$;
		open my $fh, '<', "/proc/$pid/stat" or next;
		my $st = <$fh> // '';
		# pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
		next unless $st =~ /^\d+ \((.*)\) (\S+) \d+ (\d+) /s && $3 == $pg && $2 ne 'Z';
		push @left, "$pid ($1)";
	}
	return @left;
}

sub run_job {
	my ( $j, $out ) = @_;
	local %ENV = ( %ENV, %{ $j->{env} } );
	# the program and all it starts share this process group: whatever is still in it when
	# the program has ended was left running, a failure, and is ended here
	POSIX::setpgid( 0, 0 );
	my $t0 = time;
	my $p = TAP::Parser->new( { exec => $j->{cmd}, merge => 1 } );
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
	# the CPU the program and what it started used (its waited-for children): a program
	# that uses far less than its wall time mostly waits, and could share the machine
	my ( undef, undef, $cu, $cs ) = times;
	my @why;
	push @why, $p->parse_errors if $p->parse_errors;
	push @why, "exit status $exit" . ( $wait & 127 ? ", signal " . ( $wait & 127 ) : '' ) if $exit || $wait;
	# what was being stopped as the program ended gets a moment to go
	my @left = group_left($$);
	for ( my $i = 0; @left && $i < 20; $i++ ) {
		select( undef, undef, undef, 0.1 );
		@left = group_left($$);
	}
	if (@left) {
		push @why, scalar(@left) . " process(es) left running: @left";
		local $SIG{TERM} = 'IGNORE';
		kill 'TERM', -$$;
		sleep 1;
		kill 'KILL', map { /^(\d+)/ ? $1 : () } group_left($$);
	}
	# A program that dies or breaks its plan counts as one more failure, so a crash
	# after its last "ok" can never pass.
	$bad++ if @why && !$bad;
	open my $fh, '>', $out or die "harness: $out: $!\n";
	printf $fh "%d %d %d %.1f %.1f\n", $ok, $bad, $sk, time - $t0, $cu + $cs;
	print $fh "    $_\n" for @why;
	print $fh "$_\n" for @lines;
	close $fh or die "harness: $out: $!\n";
}

# The last run's seconds per "tier name"; what it lacks sorts first.
my $times_file = 'build/harness-times';
my %last;
if ( open my $fh, '<', $times_file ) {
	while (<$fh>) { $last{"$2 $3"} = $1 if /^([0-9.]+) (\S+) (\S+)$/; }
}
my %unknown = ( cluster => 5, fault => 5, unit => 4, 'cli-asan' => 3, cli => 2, fuzz => 1 );
sub cost { $last{"$_[0]{tier} $_[0]{name}"} // 1e9 * ( $unknown{ $_[0]{tier} } // 1 ) }

my $dir = tempdir( 'hcclctl-harness.XXXXXX', TMPDIR => 1, CLEANUP => 1 );

# The tests run python3 a few hundred times. Where it is a version manager's shim (pyenv's
# is a bash script that execs two more), each start costs up to 2 s on a loaded machine:
# the interpreter the shim picks is put first on PATH, once.
my $py = `python3 -c 'import sys; print(sys.executable)' 2>/dev/null` // '';
chomp $py;
if ( $py =~ m{^/} && -x $py ) {
	mkdir "$dir/bin" or die "harness: $dir/bin: $!\n";
	symlink( $py, "$dir/bin/python3" ) or die "harness: $dir/bin/python3: $!\n";
	$ENV{PATH} = "$dir/bin:$ENV{PATH}";
}
my ( $pass, $fail, $skip, $cpu_sum ) = ( 0, 0, 0, 0 );
my $started = time;
my ( @failed_files, @times );
my %running;    # pid -> [job, result file]

sub report {
	my ( $j, $file ) = @_;
	my ( $ok, $bad, $sk, $dt, $cpu ) = ( 0, 1, 0, 0, 0 );
	my @body;
	if ( open my $fh, '<', $file ) {
		my $head = <$fh>;
		( $ok, $bad, $sk, $dt, $cpu ) = split ' ', $head if defined $head;
		@body = <$fh>;
	} else {
		@body = ("    the harness lost this program's report\n");
	}
	$pass += $ok;
	$fail += $bad;
	$skip += $sk;
	$cpu_sum += $cpu;
	my $label = sprintf "%-9s %s", $j->{tier}, $j->{name};
	push @times, [ $dt, $label, "$j->{tier} $j->{name}", $cpu ];
	if ($bad) {
		push @failed_files, $label;
		print "FAIL $label: $ok passed, $bad failed, $sk skipped (${dt}s, cpu ${cpu}s)\n", @body;
	} else {
		print "ok   $label: $ok passed" . ( $sk ? ", $sk skipped" : '' ) . " (${dt}s, cpu ${cpu}s)\n";
	}
}

sub reap_one {
	my $pid = waitpid( -1, 0 );
	return if $pid <= 0 || !$running{$pid};
	my $r = delete $running{$pid};
	report(@$r);
}

$| = 1;
my $n = 0;
# the shared ones first, $width at a time, longest first (ties, such as the unknown ones, in
# their tier's order); then those that run alone
$jobs[$_]{seq} = $_ for 0 .. $#jobs;
my @shared = sort { cost($b) <=> cost($a) || $a->{seq} <=> $b->{seq} } grep { !$_->{alone} } @jobs;
for my $j ( @shared, ( grep { $_->{alone} } @jobs ) ) {
	my $limit = $j->{alone} ? 1 : $width;
	reap_one() while keys %running >= $limit || ( $j->{alone} && %running );
	my $file = "$dir/" . $n++;
	my $pid = fork // die "harness: fork: $!\n";
	if ( !$pid ) {
		run_job( $j, $file );
		POSIX::_exit(0);
	}
	$running{$pid} = [ $j, $file ];
	reap_one() while $j->{alone} && %running;
}
reap_one() while %running;

# this run's times replace the last run's for the programs it ran (written whole, then renamed)
$last{ $_->[2] } = $_->[0] for @times;
if ( -d 'build' && open my $fh, '>', "$times_file.tmp" ) {
	printf $fh "%s %s\n", $last{$_}, $_ for sort keys %last;
	close $fh and rename "$times_file.tmp", $times_file;
}

print "\nthe ten slowest:\n";
printf "  %7.1fs  cpu %6.1fs  %s\n", $_->[0], $_->[3], $_->[1] for ( sort { $b->[0] <=> $a->[0] } @times )[ 0 .. ( @times < 10 ? $#times : 9 ) ];
print "\nfailed: $_\n" for @failed_files;
printf "\n%.0f s in all, %.0f s of CPU\n", time - $started, $cpu_sum;
print "\n$pass passed, $fail failed, $skip skipped\n";
exit( $fail ? 1 : 0 );
