#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='run-tracks: the verbs of make on several tracks side by side, their output whole'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# The verbs here are small executables of the test (run-tracks takes a
# path as a verb): each appends "start|end VERSION VERB TIME NICE" to
# events, prints two lines of its own, sleeps SLEEP_<verb> seconds (0.5 by
# default), spends BUSY_<verb> seconds of CPU time in a grandchild if that
# is set (CPU time, not wall time: the figure holds however loaded the
# machine is), and exits with FAIL_<verb>_<version> if that is set.
V1=6.1.1-1 V2=6.1.2-2 V3=6.12.1-1~deb12u1

test_expect_success 'setup: archive, cache, three versions and the verbs' '
	make_archive "$PWD/archive" && use_private_cache &&
	mkdir verbs &&
	cat >verbs/fake <<-\EOF &&
	#!/bin/bash
	verb=$(basename "$0") v=${!#}
	sv=SLEEP_$verb fv=$(echo "FAIL_${verb}_$v" | tr -c "A-Za-z0-9_\n" _)
	echo "start $v $verb $(date +%s.%N) $(nice)" >>"$EVENTS"
	echo "$verb on $v: first line"
	sleep "${!sv:-0.5}"
	bv=BUSY_$verb
	[ -z "${!bv:-}" ] || bash -c "perl -e \"1 while (times)[0] < ${!bv}\""
	echo "$verb on $v: last line"
	echo "end $v $verb $(date +%s.%N)" >>"$EVENTS"
	exit "${!fv:-0}"
	EOF
	chmod +x verbs/fake &&
	for n in check scan boot; do ln -s fake verbs/$n || return 1; done &&
	export EVENTS=$PWD/events
'

# most_at_once: the most verbs running at one time, from events.
most_at_once() {
	awk '{ print $4, ($1 == "start" ? 1 : -1) }' "$EVENTS" | sort -k1,1g -k2,2n |
		awk '{ n += $2; if (n > m) m = n } END { print m + 0 }'
}
# (the verbs by a path without the trash directory's space: run-tracks
# splits a verb's words at spaces)
verbs3=(-v "./verbs/check all" -v ./verbs/scan -v ./verbs/boot)

test_expect_success 'three tracks, two at a time: each track runs its verbs in order, two tracks overlap, never three' '
	: >events &&
	run-tracks -j 2 "${verbs3[@]}" $V1 $V2 $V3 >out 2>err &&
	test_line_count = 18 events &&
	for v in $V1 $V2 $V3; do
		grep " $v " events | awk "{ print \$1, \$3 }" | paste -sd" " >order &&
		echo "start check end check start scan end scan start boot end boot" >want &&
		test_cmp want order || return 1
	done &&
	test "$(most_at_once)" = 2 &&
	: >events &&
	run-tracks -j 1 "${verbs3[@]}" $V1 $V2 >out1 2>err &&
	test "$(most_at_once)" = 1 &&
	: >events &&
	KQ_TRACK_JOBS=1 run-tracks "${verbs3[@]}" $V1 $V2 >out1 2>err &&
	test "$(most_at_once)" = 1
'

test_expect_success 'by default as many tracks at once as cores' '
	: >events &&
	run-tracks "${verbs3[@]}" $V1 $V2 $V3 >out3 2>err &&
	n=$(nproc) && test "$(most_at_once)" = $((n < 3 ? n : 3))
'

test_expect_success 'each track is one whole block, in the order given, after a line per verb' '
	for v in $V1 $V2 $V3; do
		grep -n "^== $v (every verb exit 0)$" out || return 1
	done | cut -d: -f1 | paste -sd" " >at &&
	sort -n -c <(tr " " "\n" <at) &&
	# a block: the header, then the six lines of its three verbs, in order
	awk -v v="$V2" "\$0 == \"== \" v \" (every verb exit 0)\" { b = 1; next } /^== / { b = 0 } b && NF" out >block &&
	printf "%s on $V2: %s line\n" check first check last scan first scan last boot first boot last >want &&
	test_cmp want block &&
	# the live lines: one per verb, each ended before its block
	test "$(grep -c -E "^[^ ]+: (check|scan|boot) exit 0 in [0-9.]+s, cpu [0-9.]+s$" out)" = 9 &&
	test_cmp block <(grep . "$KQ_RESULTS/$V2/run-tracks.log")
'

test_expect_success 'the line of a verb has its CPU time, that of the grandchildren it waited for included, apart from its wall time' '
	BUSY_check=1.5 SLEEP_scan=1.5 SLEEP_check=0 SLEEP_boot=0 run-tracks -j 1 "${verbs3[@]}" $V1 >out 2>err &&
	cpu() { sed -n "s/^$V1: $1 exit 0 in \([0-9.]*\)s, cpu \([0-9.]*\)s$/\1 \2/p" out; } &&
	read -r cw cc <<<"$(cpu check)" && read -r sw sc <<<"$(cpu scan)" &&
	awk -v cw="$cw" -v cc="$cc" -v sw="$sw" -v sc="$sc" "BEGIN { exit !(cc >= 1.2 && cc <= cw + 0.2 && sw >= 1.5 && sc < 0.5) }"
'

test_expect_success 'every verb runs at nice 10 but boot, whose QEMU guest keeps the priority of make' '
	awk "\$1 == \"start\" { print \$3, \$5 - n }" n="$(nice)" events | sort -u >nices &&
	printf "boot 0\ncheck 10\nscan 10\n" >want &&
	test_cmp want nices
'

# at START|END VERB [VERSION]: the time of that event (the first verb of a
# version when several)
at() { awk -v k="$1" -v b="$2" -v v="${3:-}" '$1 == k && $3 == b && (v == "" || $2 == v) { print $4; exit }' "$EVENTS"; }

test_expect_success 'a verb given with -B starts when the verbs before it have ended, and those after it run beside it' '
	: >events &&
	SLEEP_boot=2 run-tracks -j 2 -v ./verbs/check -B ./verbs/boot -v ./verbs/scan $V1 >out 2>err &&
	awk -v ce="$(at end check)" -v bs="$(at start boot)" -v ss="$(at start scan)" -v se="$(at end scan)" -v be="$(at end boot)" \
		"BEGIN { exit !(ce <= bs && ce <= ss && ss < be && se < be) }" &&
	# the block in the order given, whatever the order they ended in
	awk -v v="$V1" "\$0 == \"== \" v \" (every verb exit 0)\" { b = 1; next } /^== / { b = 0 } b && NF" out >block &&
	printf "%s on $V1: %s line\n" check first check last boot first boot last scan first scan last >want &&
	test_cmp want block &&
	grep -x "$V1: scan exit 0 in [0-9.]*s, cpu [0-9.]*s" out >/dev/null &&
	test "$(sed -n "/^$V1: scan exit/=" out)" -lt "$(sed -n "/^$V1: boot exit/=" out)"
'

test_expect_success 'with -B on three tracks, two verbs at once, never three; each track in its order' '
	: >events &&
	run-tracks -j 2 -v ./verbs/check -B ./verbs/boot -v ./verbs/scan $V1 $V2 $V3 >out 2>err &&
	test_line_count = 18 events &&
	test "$(most_at_once)" = 2 &&
	for v in $V1 $V2 $V3; do
		awk -v ce="$(at end check $v)" -v bs="$(at start boot $v)" -v ss="$(at start scan $v)" \
			"BEGIN { exit !(ce <= bs && ce <= ss) }" || return 1
		grep -x "== $v (every verb exit 0)" out >/dev/null || return 1
	done
'

test_expect_success '-n prints the plan, a verb a line with the one it waits for, and runs nothing; --make is make'"'"'s' '
	: >events &&
	run-tracks -n -V ./verbs/check -B ./verbs/boot -v "./verbs/scan x" $V1 $V3 >out 2>err &&
	test ! -s events &&
	cat >want <<-EOF &&
	$V1: ./verbs/check
	$V1: ./verbs/boot, after ./verbs/check, beside what follows
	$V1: ./verbs/scan x, after ./verbs/check
	$V3: ./verbs/check
	$V3: ./verbs/boot, after ./verbs/check, beside what follows
	$V3: ./verbs/scan x, after ./verbs/check
	EOF
	test_cmp want out &&
	run-tracks -n --make foo $V1 >out 2>err &&
	cat >want <<-EOF &&
	$V1: kernel-tree
	$V1: apply foo, after kernel-tree
	$V1: boot, after apply foo, beside what follows
	$V1: check foo, after apply foo
	$V1: scan --apply all, after check foo
	EOF
	test_cmp want out &&
	test_expect_code 2 run-tracks --make foo -v ./verbs/check $V1 2>err &&
	test_line_count = 1 err && grep "either --make or -v" err
'

test_expect_success 'a failing verb is named, the track goes on with its next verb, the others are untouched; exit 1' '
	: >events &&
	test_expect_code 1 env FAIL_scan_6_1_2_2=3 run-tracks -j 2 "${verbs3[@]}" $V1 $V2 $V3 >out 2>err &&
	grep -x "$V2: scan exit 3 in [0-9.]*s, cpu [0-9.]*s" out &&
	grep -x "== $V2 (scan exit 3)" out &&
	grep -x "== $V1 (every verb exit 0)" out &&
	grep -x "== $V3 (every verb exit 0)" out &&
	grep "^end $V2 boot " events
'

test_expect_success 'a verb given with -V that fails stops its track: the later verbs are named as not run' '
	: >events &&
	test_expect_code 1 env FAIL_check_6_1_1_1=1 run-tracks -j 2 -V ./verbs/check -v ./verbs/scan -B ./verbs/boot $V1 $V2 >out 2>err &&
	grep -x "$V1: scan not run: check failed" out &&
	grep -x "$V1: boot not run: check failed" out &&
	grep -x "== $V1 (check exit 1, scan not run: check failed, boot not run: check failed)" out &&
	! grep -q " $V1 scan " events && ! grep -q " $V1 boot " events &&
	grep -x "== $V2 (every verb exit 0)" out &&
	grep -q "^end $V2 boot " events
'

test_expect_success 'the longest track of the last run starts first, an unknown one before any' '
	echo 9.0 >"$KQ_RESULTS/$V1/run-tracks.secs" &&
	echo 30.5 >"$KQ_RESULTS/$V2/run-tracks.secs" &&
	rm -f "$KQ_RESULTS/$V3/run-tracks.secs" &&
	: >events &&
	run-tracks -j 1 -v "./verbs/check" $V1 $V2 $V3 >out 2>err &&
	awk "{ print \$2 }" events | uniq | paste -sd" " >order &&
	echo "$V3 $V2 $V1" >want &&
	test_cmp want order &&
	# and the blocks stay in the order given
	grep "^== " out | cut -d" " -f2 | paste -sd" " >blocks &&
	echo "$V1 $V2 $V3" >want &&
	test_cmp want blocks &&
	for v in $V1 $V2 $V3; do
		grep -E "^[0-9]+\.[0-9]$" "$KQ_RESULTS/$v/run-tracks.secs" || return 1
	done
'

test_expect_success 'of the verbs ready, those given earlier first, of any track: a track is never left to start last' '
	echo 5.0 >"$KQ_RESULTS/$V1/run-tracks.secs" &&
	echo 1.0 >"$KQ_RESULTS/$V2/run-tracks.secs" &&
	echo 3.0 >"$KQ_RESULTS/$V3/run-tracks.secs" &&
	: >events &&
	run-tracks -j 1 -v ./verbs/check -v ./verbs/scan $V1 $V2 $V3 >out 2>err &&
	awk "\$1 == \"start\" { print \$3, \$2 }" events >order &&
	# within a stage, the longest track of the last run first
	printf "%s\n" "check $V1" "check $V3" "check $V2" "scan $V1" "scan $V3" "scan $V2" >want &&
	test_cmp want order
'

test_expect_success 'TERM stops every track and every verb below it; the output so far is kept; exit 130' '
	: >events && rm -f "$KQ_RESULTS"/*/run-tracks.log || return 1
	# (a statement of its own: an & ending an && list sends the whole list)
	(SLEEP_check=60 run-tracks -j 2 -v "./verbs/check" -v "./verbs/scan" $V1 $V2 $V3 >out 2>err & echo $! >pid; wait $!; echo $? >rc) &
	for i in $(seq 100); do [ "$(grep -c ^start events)" -ge 2 ] && break; sleep 0.1; done &&
	test "$(grep -c ^start events)" = 2 &&
	kill -TERM "$(cat pid)" &&
	for i in $(seq 100); do [ -s rc ] && break; sleep 0.1; done &&
	test "$(cat rc)" = 130 &&
	grep "interrupted" err &&
	! pgrep -f "verbs/(check|scan)|sleep 60" &&
	! grep -q "^start .* scan " events &&
	grep -l "check on .*: first line" "$KQ_RESULTS"/*/run-tracks.log >logs &&
	test_line_count = 2 logs
'

test_expect_success 'bad input: one line naming it, exit 2, no verb run' '
	: >events &&
	test_expect_code 2 run-tracks -v "./verbs/check" 9.9.9 2>err &&
	test_line_count = 1 err && grep "unknown kernel version .9\.9\.9." err &&
	test_expect_code 2 run-tracks -v nosuchverb $V1 2>err &&
	test_line_count = 1 err && grep "verb .nosuchverb.: not a verb of scripts/" err &&
	test_expect_code 2 run-tracks -v "./verbs/nothere" $V1 2>err &&
	test_line_count = 1 err && grep "not an executable file" err &&
	test_expect_code 2 run-tracks -j 0 -v "./verbs/check" $V1 2>err &&
	test_line_count = 1 err && grep "jobs: not a positive number: .0." err &&
	test_expect_code 2 run-tracks $V1 2>err &&
	test_line_count = 1 err && grep "no verb" err &&
	test_expect_code 2 run-tracks -v "./verbs/check" $V1 $V1 2>err &&
	test_line_count = 1 err && grep "given twice" err &&
	test ! -s events &&
	run-tracks -h | grep "^usage: run-tracks"
'

test_done
