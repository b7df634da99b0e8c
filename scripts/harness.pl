#!/usr/bin/perl
# Runs every test tier of `make check` as TAP (prove's parser), prints a line per test
# program and its failures, the ten slowest, and ends with "N passed, N failed, N skipped".
# Usage: perl scripts/harness.pl [TIER...]   (tiers: unit fuzz cli cli-asan cluster fault)
#
# Three kinds of program, by what they may have beside them:
# - shared (most): HARNESS_JOBS at a time (default 3 on two cores: they wait on sockets, sshd
#   and sleeps for a third of their time). Their namespaces, sshd and Slurm are named by the
#   test's pid and listen on ports the kernel picks; a fault's heartbeat budget of 5 s holds
#   beside a neighbour.
# - foreground ("# harness: foreground"): its verdicts hang on elapsed time (a Ctrl-C's grace,
#   one job's time against another's, a link's measured rate): one at a time, at normal
#   priority, with fillers beside it under SCHED_IDLE: a filler gets a core only when the
#   foreground program leaves one idle, which it does for most of its waits. A filler is
#   a shared program of the unit, fuzz or CLI tiers with no deadline of its own (one that has
#   one says "harness: timed"; in a unit test, in its .c file); the cluster and fault tiers
#   never fill. When the foreground ones are done, the fillers still running get normal
#   priority back.
# - alone ("# harness: alone"): its verdicts hang on the whole machine (/dev/shm compared
#   before and after, make run in this tree): nothing beside it.
# A CLI test that never runs $HCCLCTL (it builds and installs ./hcclctl itself) says
# "# harness: once" and runs in the cli tier only: in cli-asan it would repeat the very same
# commands.
#
# Order: with HARNESS_BUILD (make check), first what does not need the ASan tree while the
# command given builds it, under SCHED_IDLE: the plain tree's foreground ones with its fillers,
# then its shared ones; a build that fails fails every program that needs it. Then the alone
# ones, then the foreground ones with fillers, then the rest of the shared.
# Within each, longest first by the times of the last run (build/harness-times, written at
# the end of each run; in a fresh clone, tests/harness-times), so the lanes end together.
# Programs neither lists (new ones) go first, by tier: cluster and fault (the longest), unit,
# cli-asan, cli, then the fuzz corpora, the many short ones that fill the gaps.
use strict;
use warnings;
use TAP::Parser;
use Time::HiRes qw(time);
use File::Temp qw(tempdir);
use POSIX qw(WNOHANG);

my $asan = 'build/asan';
# HARNESS_BUILD: the command that builds the ASan tree, run here beside the programs that do
# not need it (make check builds the plain tree first): see "Order" above
my $build = $ENV{HARNESS_BUILD} // '';
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
	while ( my $l = <$fh> ) { return 1 if $l =~ m{^\s*(?:#|\*)\s*harness: \Q$word\E\b}; }
	return 0;
}

# What a program may have beside it (see the top): its "harness:" line, read from the test,
# or for a unit program from its source; $fills: whether its tier may fill beside a
# foreground program.
sub kind_of {
	my ( $src, $fills ) = @_;
	return 'alone' if says( $src, 'alone' );
	return 'foreground' if says( $src, 'foreground' );
	return $fills && !says( $src, 'timed' ) ? 'filler' : 'shared';
}

# The ASan tree's programs of tests/DIR named PREFIX*, sorted: the built ones, or while the
# tree is still to be built (HARNESS_BUILD) the ones their sources will make.
sub programs {
	my ( $dir, $prefix ) = @_;
	return sort map { s{^(.*)\.c$}{$asan/$1}r } glob("tests/$dir/$prefix*.c") if $build;
	return sort grep { -x $_ && !/\.[od]$/ } glob("$asan/tests/$dir/$prefix*");
}

my @jobs;    # {tier, name, cmd, env, kind}
sub job {
	push @jobs, { tier => $_[0], name => $_[1], cmd => $_[2], env => $_[3], kind => $_[4],
		      asan => $_[0] =~ /^(unit|fuzz|cli-asan)$/ ? 1 : 0 };
}
for my $tier (@tiers) {
	if ($tier eq 'unit') {
		for my $bin ( programs( 'unit', 'test_' ) ) {
			( my $src = $bin ) =~ s{^\Q$asan\E/}{};
			job( $tier, $bin, [$bin], {}, kind_of( "$src.c", 1 ) );
		}
	} elsif ($tier eq 'fuzz') {
		for my $bin ( programs( 'fuzz', 'fuzz_' ) ) {
			( my $n = $bin ) =~ s{.*/fuzz_}{};
			job( $tier, $bin, [ $bin, "tests/fuzz/corpus/$n" ], {}, 'filler' );
		}
	} elsif ( $tier eq 'cli' || $tier eq 'cli-asan' ) {
		my $bin = $tier eq 'cli' ? './hcclctl' : "$asan/hcclctl";
		for my $t ( sort glob('tests/cli/*.t') ) {
			next if $tier eq 'cli-asan' && says( $t, 'once' );
			job( $tier, $t, [ 'sh', $t ], { HCCLCTL => $bin }, kind_of( $t, 1 ) );
		}
	} elsif ( $tier eq 'cluster' || $tier eq 'fault' ) {
		job( $tier, $_, [ 'sh', $_ ], { HCCLCTL => './hcclctl' }, kind_of( $_, 0 ) ) for sort glob("tests/$tier/*.t");
	} else {
		die "harness: unknown tier '$tier'\n";
	}
}

# A filler runs under SCHED_IDLE (chrt --idle): it gets a core only when no other process
# wants it, and a foreground process that wakes takes the core back at once (at nice 19 it
# would still get slices of a core the foreground wants). Without chrt, nice 19.
my @idle = system('chrt --idle 0 true >/dev/null 2>&1') == 0 ? qw(chrt --idle 0) : qw(nice -n 19);

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
	my ( $j, $out, $filler ) = @_;
	local %ENV = ( %ENV, %{ $j->{env} } );
	# the program and all it starts share this process group: whatever is still in it when
	# the program has ended was left running, a failure, and is ended here
	POSIX::setpgid( 0, 0 );
	my $t0 = time;
	my $p = TAP::Parser->new( { exec => $filler ? [ @idle, @{ $j->{cmd} } ] : $j->{cmd}, merge => 1 } );
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

# The last run's seconds per "tier name"; what it lacks sorts first. A fresh clone has no
# last run: it orders by the times of a clean-clone run kept in tests/harness-times (refresh
# it from build/harness-times after a clean run when programs come or go).
my $times_file = 'build/harness-times';
my %last;
for my $f ( $times_file, 'tests/harness-times' ) {
	open my $fh, '<', $f or next;
	while (<$fh>) { $last{"$2 $3"} = $1 if /^([0-9.]+) (\S+) (\S+)$/; }
	last;
}
my %unknown = ( cluster => 5, fault => 5, unit => 4, 'cli-asan' => 3, cli => 2, fuzz => 1 );
sub cost { $last{"$_[0]{tier} $_[0]{name}"} // 1e9 * ( $unknown{ $_[0]{tier} } // 1 ) }

my $dir = tempdir( 'hcclctl-harness.XXXXXX', TMPDIR => 1, CLEANUP => 1 );

# The tests run python3 several hundred times, for its standard library only. Where it is a
# version manager's shim (pyenv's is a bash script that execs two more), each start costs up
# to 2 s on a loaded machine: the interpreter the shim picks is put first on PATH, once. And
# it starts without `site` (-S): a site-packages .pth may import packages at every start
# (one that loads certifi made each start 86 ms instead of 26 ms here), none of which a test
# uses.
my $py = `python3 -c 'import sys; print(sys.executable)' 2>/dev/null` // '';
chomp $py;
if ( $py =~ m{^/[^'\n]*$} && -x $py ) {
	mkdir "$dir/bin" or die "harness: $dir/bin: $!\n";
	open my $fh, '>', "$dir/bin/python3" or die "harness: $dir/bin/python3: $!\n";
	print $fh "#!/bin/sh\nexec '$py' -S \"\$@\"\n";
	close $fh or die "harness: $dir/bin/python3: $!\n";
	chmod 0755, "$dir/bin/python3" or die "harness: $dir/bin/python3: $!\n";
	$ENV{PATH} = "$dir/bin:$ENV{PATH}";
}
my ( $pass, $fail, $skip, $cpu_sum ) = ( 0, 0, 0, 0 );
my $started = time;
my ( @failed_files, @times );
my %running;    # pid -> [job, result file, filler]
my %idled;      # pid -> 1: a filler started under SCHED_IDLE, still running

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

# the ASan tree's build (HARNESS_BUILD), while it runs: its pid, and when it ended whether it
# succeeded
my ( $build_pid, $build_ok, $build_t0 ) = ( 0, 1, 0 );
my $build_log = "$dir/build.log";

sub build_ended {
	my ($status) = @_;
	( $build_pid, $build_ok ) = ( 0, $status == 0 );
	if ($build_ok) {
		printf "ok   build     %s (%.1fs, beside the tests)\n", $build, time - $build_t0;
		return;
	}
	$fail++;
	push @failed_files, "build     $build";
	open my $fh, '<', $build_log;
	my @log = $fh ? <$fh> : ();
	splice @log, 0, @log - 60 if @log > 60;
	print "FAIL build     $build: exit status " . ( $status >> 8 ) . "\n", map { "    $_" } @log;
}

sub reap_one {
	my $pid = waitpid( -1, 0 );
	return if $pid <= 0;
	return build_ended($?) if $build_pid && $pid == $build_pid;
	return if !$running{$pid};
	my $r = delete $running{$pid};
	delete $idled{$pid};
	report( $r->[0], $r->[1] );
}

$| = 1;
my $n = 0;

sub start {
	my ( $j, $filler ) = @_;
	my $file = "$dir/" . $n++;
	my $pid = fork // die "harness: fork: $!\n";
	if ( !$pid ) {
		run_job( $j, $file, $filler );
		POSIX::_exit(0);
	}
	$running{$pid} = [ $j, $file, $filler ];
	$idled{$pid} = 1 if $filler;
}

sub running_kind { scalar grep { $_->[0]{kind} eq $_[0] } values %running }

$jobs[$_]{seq} = $_ for 0 .. $#jobs;
my @order = sort { cost($b) <=> cost($a) || $a->{seq} <=> $b->{seq} } @jobs;
my @alone = grep { $_->{kind} eq 'alone' } @order;
my @fore = grep { $_->{kind} eq 'foreground' } @order;
my @rest = grep { $_->{kind} eq 'shared' || $_->{kind} eq 'filler' } @order;

# The foreground programs of $list, one at a time; beside each, $width fillers (of those
# $may run now) under SCHED_IDLE (one more than the shared lanes: a filler takes only what is
# idle, and most of them wait part of their time too). Then the fillers still running go
# back to the normal policy, every process of their group, as they compete with the shared
# ones now (where that is refused they keep taking what the others leave).
sub foreground {
	my ( $list, $may ) = @_;
	while ( @$list || running_kind('foreground') ) {
		start( shift @$list, 0 ) if @$list && !running_kind('foreground');
		while ( keys %running < $width + 1 ) {
			my ($i) = grep { $rest[$_]{kind} eq 'filler' && $may->( $rest[$_] ) } 0 .. $#rest;
			last unless defined $i;
			start( splice( @rest, $i, 1 ), 1 );
		}
		reap_one();
	}
	for my $pg ( grep { $running{$_} } keys %idled ) {
		for my $pid ( $pg, map { /^(\d+)/ ? $1 : () } group_left($pg) ) {
			system( $idle[0] eq 'chrt' ? "chrt --other -a -p 0 $pid >/dev/null 2>&1" : "renice -n 0 -p $pid >/dev/null 2>&1" );
		}
		delete $idled{$pg};
	}
}

# While the ASan tree builds (under SCHED_IDLE: it takes the cores the tests leave, which the
# foreground ones leave most of the time): the foreground programs that do not need it, with
# fillers that do not need it; then the shared ones that do not, until it is built.
my $plain = sub { !$_[0]{asan} };
if ($build) {
	$build_t0 = time;
	$build_pid = fork // die "harness: fork: $!\n";
	if ( !$build_pid ) {
		delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)}; # its own jobs, not a share of ours
		open STDOUT, '>', $build_log or POSIX::_exit(127);
		open STDERR, '>&', \*STDOUT or POSIX::_exit(127);
		exec( @idle, 'sh', '-c', $build ) or POSIX::_exit(127);
	}
	my @f0 = grep { $plain->($_) } @fore;
	@fore = grep { !$plain->($_) } @fore;
	foreground( \@f0, $plain );
	while ($build_pid) {
		my ($i) = grep { $plain->( $rest[$_] ) } 0 .. $#rest;
		if ( defined $i && keys %running < $width ) {
			start( splice( @rest, $i, 1 ), 0 );
		} else {
			reap_one();
		}
	}
	reap_one() while %running;
	if ( !$build_ok ) { # what needs the ASan tree cannot run: each counts as failed
		for my $j ( grep { !$plain->($_) } @fore, @rest ) {
			$fail++;
			push @failed_files, sprintf( "%-9s %s (not built)", $j->{tier}, $j->{name} );
		}
		@fore = grep { $plain->($_) } @fore;
		@rest = grep { $plain->($_) } @rest;
	}
}
my $t_build = time;
for my $j (@alone) {
	start( $j, 0 );
	reap_one() while %running;
}
my $t_alone = time;
foreground( \@fore, sub { 1 } );
my $t_fore = time;
for my $j (@rest) {
	reap_one() while keys %running >= $width;
	start( $j, 0 );
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
printf "\n%.0f s in all (%salone %.0f s, foreground with fillers %.0f s, the rest %.0f s), %.0f s of CPU\n",
	time - $started, $build ? sprintf( "beside the ASan build %.0f s, ", $t_build - $started ) : '',
	$t_alone - $t_build, $t_fore - $t_alone, time - $t_fore, $cpu_sum;
print "\n$pass passed, $fail failed, $skip skipped\n";
exit( $fail ? 1 : 0 );
