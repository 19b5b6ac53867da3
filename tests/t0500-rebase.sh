#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='rebase: a synthetic chain of three kernels gives each outcome; conflicts lose nothing'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

sums() { (cd root && find kernel-patches branches -type f | sort | xargs md5sum); }
outcome() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r[\"patches\"][int(sys.argv[2])][\"outcome\"])" "$@"; }

test_expect_success 'setup: three 6.1 kernels, one 6.12, and the fixture topics' '
	chain_setup &&
	chain_topic main 6.1 6.1.1-1 "a.c:s/^a5$/a5 ours/" "b.c:s/^b7$/b7 ours/" "c.c:s/^c5$/c5 upstream/" &&
	chain_topic clash 6.1 6.1.1-1 "d.c:s/^d5$/d5 ours/" &&
	chain_topic shared "6.1 6.12" "6.1.1-1 6.12.1-1~deb12u1" "b.c:s/^b2$/b2 ours/" &&
	cp -r root pristine
'

test_expect_success 'a move with new context: unchanged patches stay byte for byte, the other is refreshed' '
	cp root/kernel-patches/main/0001-*.patch p1.before &&
	cp root/kernel-patches/main/0002-*.patch p2.before &&
	rebase main 6.1.2-1 >out &&
	cat out &&
	grep -E "^  \[1/3\] 0001-fs-rb-change-a.c.patch: unchanged$" out &&
	grep -E "^  \[2/3\] 0002-fs-rb-change-b.c.patch: refreshed$" out &&
	grep -E "^  \[3/3\] 0003-fs-rb-change-c.c.patch: unchanged$" out &&
	grep -E "^main: 2 unchanged, 1 refreshed, 0 dropped; range-diff 3=, 0!, 0<, 0> " out &&
	cmp p1.before root/kernel-patches/main/0001-*.patch &&
	! cmp p2.before root/kernel-patches/main/0002-*.patch &&
	grep "^@@ -4,7 +4,7 @@" p2.before && grep "^@@ -7,7 +7,7 @@" root/kernel-patches/main/0002-*.patch &&
	grep -x "# base: 6.1.2-1" root/kernel-patches/main/series &&
	test_line_count = 4 root/kernel-patches/main/series &&
	test -s "$KQ_RESULTS/6.1.2-1/rangediff-main.txt" &&
	test "$(outcome "$KQ_RESULTS/6.1.2-1/rebase-main.json" 1)" = refreshed &&
	kq_git rev-parse -q --verify topic/main/6.1.2-1
'

test_expect_success 'the refreshed series applies as it is on the new kernel' '
	apply main 6.1.2-1 >out && grep "^  \[2/3\] 0002-fs-rb-change-b.c.patch: applied$" out
'

test_expect_success 'a patch already in the new kernel is dropped, naming the version' '
	rebase main 6.1.3-1 >out &&
	cat out &&
	grep -E "^  \[3/3\] 0003-fs-rb-change-c.c.patch: dropped: applied upstream in 6.1.3-1$" out &&
	grep -E "^main: 2 unchanged, 0 refreshed, 1 dropped; range-diff 2=, 0!, 1<, 0> " out &&
	! grep 0003 root/kernel-patches/main/series &&
	! test -e root/kernel-patches/main/0003-fs-rb-change-c.c.patch &&
	grep -x "# base: 6.1.3-1" root/kernel-patches/main/series &&
	test "$(outcome "$KQ_RESULTS/6.1.3-1/rebase-main.json" 2)" = "dropped: applied upstream in 6.1.3-1"
'

test_expect_success 'a conflict writes nothing, names patch, file and hunk, and the way to resume' '
	sums >before &&
	old=$(apply clash 6.1.1-1 >/dev/null && kq_git rev-parse topic/clash/6.1.1-1) &&
	test_expect_code 1 rebase clash 6.1.3-1 >out &&
	cat out &&
	grep -E "^  \[1/1\] 0001-fs-rb-change-d.c.patch: conflict: does not apply: fs/rb/d.c, hunk @@ -2,7 \+2,7 @@" out &&
	grep -E "^clash: CONFLICT moving to 6.1.3-1 at 0001-fs-rb-change-d.c.patch; kernel-patches and topic branches are unchanged$" out &&
	grep -E "^  resume: fix kernel-patches/clash/0001-fs-rb-change-d.c.patch so it applies to 6.1.3-1, then run: make rebase TOPIC=clash TO=6.1.3-1$" out &&
	sums >after && test_cmp before after &&
	test "$(kq_git rev-parse topic/clash/6.1.1-1)" = "$old" &&
	! kq_git rev-parse -q --verify topic/clash/6.1.3-1 &&
	grep -q "<<<<<<<" "$KQ_CACHE/worktrees/rebase-clash/fs/rb/d.c"
'

test_expect_success 'a refresh of a patch file another track shares forks this track its own copy' '
	rebase shared 6.1.2-1 >out &&
	cat out &&
	grep "^  \[1/1\] 0001-fs-rb-change-b.c.patch: refreshed$" out &&
	test "$(git config -f root/branches/shared.conf track.6.1.series)" = series-6.1 &&
	printf "# base: 6.1.2-1\n6.1/0001-fs-rb-change-b.c.patch\n" >want && test_cmp want root/kernel-patches/shared/series-6.1 &&
	cmp pristine/kernel-patches/shared/0001-*.patch root/kernel-patches/shared/0001-*.patch &&
	grep -x "# base: 6.12.1-1~deb12u1" root/kernel-patches/shared/series &&
	apply shared 6.1.2-1 >/dev/null && apply shared 6.12.1 >/dev/null
'

test_expect_success 'update walks each topic through every newer version, stopping a topic at its conflict' '
	rm -rf root && cp -r pristine root &&
	test_expect_code 1 rebase --update >out &&
	cat out &&
	grep -E "^main 6.1.1-1 -> 6.1.2-1 " out && grep -E "^main 6.1.2-1 -> 6.1.3-1 " out &&
	grep -E "^clash 6.1.1-1 -> 6.1.2-1 " out &&
	grep -E "^clash: stopped on 6.1 at 6.1.3-1 \(conflict\)" out &&
	grep -x "# base: 6.1.3-1" root/kernel-patches/main/series &&
	grep -x "# base: 6.1.2-1" root/kernel-patches/clash/series &&
	! grep -E "^shared .* -> 6\.12" out &&
	rebase --update main >out2 &&
	grep -x "update: every topic is on the newest packaged version of its tracks" out2
'

test_expect_success 'a dry run records outcomes and writes no file' '
	rm -rf root && cp -r pristine root && sums >before &&
	rebase --dry-run main 6.1.2-1 >out &&
	grep "dry run, no file written" out &&
	sums >after && test_cmp before after &&
	test "$(outcome "$KQ_RESULTS/6.1.2-1/rebase-main.json" 1)" = refreshed
'

test_expect_success 'killed in the middle, a rerun finishes the job with the same result' '
	rm -rf root && cp -r pristine root && rebase main 6.1.2-1 >/dev/null && sums >want &&
	rm -rf root && cp -r pristine root &&
	for delay in 0.3 0.6 1.0; do
		(rebase main 6.1.2-1 >/dev/null 2>&1 & pid=$!; sleep $delay; kill -INT $pid 2>/dev/null; wait $pid) || :
	done &&
	rebase main 6.1.2-1 >out 2>&1 || { grep -q "already on 6.1.2-1" out; } &&
	sums >got && test_cmp want got
'

# killed_at N CMD...: CMD with a SIGKILL at the Nth step of its write-back
# (KQ_REBASE_KILL_AT); prints "killed" or "finished".
killed_at() {
	local n=$1 rc=0
	shift
	KQ_REBASE_KILL_AT=$n "$@" >/dev/null 2>&1 || rc=$?
	if [ "$rc" = 137 ]; then echo killed; else echo finished; fi
}

# Every kill point of the write-back of two moves (a refresh of a shared
# file that forks the series and sets it in the manifest; after a refresh
# and a drop, every patch upstream, the manifest marked merged): the topic is
# refused by name, never read half written, and a rerun ends where an
# uninterrupted run does.
test_expect_success 'SIGKILL at every step of the write-back of two moves: the topic is refused until a rebase finishes it, which ends as an uninterrupted run' '
	for move in "shared 6.1.2-1" "main 6.1.3-1"; do
		rm -rf root && cp -r pristine root &&
		{ [ "$move" != "main 6.1.3-1" ] || rebase main 6.1.2-1 >/dev/null; } &&
		cp -r root start &&
		rebase $move >/dev/null && sums >want &&
		n=0 && tried=0 &&
		while :; do
			n=$((n + 1)) &&
			rm -rf root && cp -r start root &&
			st=$(killed_at $n rebase $move) &&
			if [ "$st" = finished ]; then break; fi &&
			tried=$((tried + 1)) &&
			t=${move%% *} &&
			if ls root/branches/.$t.rebase-pending >/dev/null 2>&1; then
				test_expect_code 2 topics "$t" 2>err &&
				grep "a rebase was interrupted while writing this topic.s files: make rebase or make update finishes it" err
			else
				topics "$t" >/dev/null
			fi &&
			rebase $move >out 2>&1 || grep -q "already on" out &&
			sums >got && test_cmp want got &&
			! ls root/branches/.*.rebase-pending* 2>/dev/null &&
			test -z "$(find root -name "*.kq-new*")" || { echo "$move: kill point $n"; return 1; }
		done &&
		echo "$move: $tried kill points" && test "$tried" -ge 3 || return 1
	done
'

test_expect_success 'the chain walks copies through every version and prints the matrix; the topics are untouched' '
	rm -rf root && cp -r pristine root &&
	sed -i "s/^# base: 6.1.1-1$/# base: 6.1.3-1/" root/kernel-patches/main/series &&
	sums >before &&
	rebase --chain >out &&
	cat out &&
	sums >after && test_cmp before after &&
	grep "^main: 6.1 walk starts at 6.1.1-1, the oldest version its series applies to" out &&
	grep -E "^  main +\. +R +D$" out &&
	grep -E "^  clash +\. += +C$" out &&
	grep -E "^  shared +\. +R +=$" out &&
	grep -E "^  shared +\.$" out
'

test_expect_success 'chain --last N walks only the newest N versions of each track, and nothing older' '
	rm -rf root && cp -r pristine root && sums >before &&
	KQ_RESULTS=$PWD/last rebase --chain --last 2 >out &&
	cat out &&
	sums >after && test_cmp before after &&
	grep "^main: 6.1 walk starts at 6.1.2-1, the oldest version its series applies to" out &&
	grep "^shared: 6.12 walk starts at 6.12.1-1~deb12u1" out &&
	test -f last/6.1.3-1/rebase-main.json &&
	! test -e last/6.1.1-1 &&
	test_expect_code 2 rebase --chain --last 0 2>err && test_line_count = 1 err && grep -- "--last: .0. is not a positive number" err &&
	test_expect_code 2 rebase --chain --last x 2>err && test_line_count = 1 err
'

test_expect_success 'bad input: one line naming the problem, exit 2, nothing written' '
	rm -rf root && cp -r pristine root && sums >before &&
	test_expect_code 2 rebase nosuch 6.1.2-1 2>err && test_line_count = 1 err && grep "unknown topic .nosuch." err &&
	test_expect_code 2 rebase main 6.1.9-9 2>err && test_line_count = 1 err && grep "unknown kernel version" err &&
	test_expect_code 2 rebase main 6.12.1 2>err && test_line_count = 1 err && grep "does not target track 6.12" err &&
	sed -i "/^# base/d" root/kernel-patches/clash/series &&
	test_expect_code 2 rebase clash 6.1.2-1 2>err && test_line_count = 1 err && grep "no .# base: <6.1 version>. line" err &&
	sed -i "s/^# base: .*/# base: 6.1.3-1/" root/kernel-patches/main/series &&
	test_expect_code 2 rebase main 6.1.2-1 2>err && test_line_count = 1 err && grep "rebase only moves forward" err
'

test_done
