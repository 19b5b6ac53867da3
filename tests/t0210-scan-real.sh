#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='scan the real newest 6.12: every finding covered, nothing left with the topics, other architectures included'
# The user's cache (sharness resets HOME): its scan worktrees and build
# directories make a repeated scan cost minutes, not a full build.
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
export KQ_CACHE
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
use_results_copy

need_real_kernel

test_expect_success 'the packaged tree has findings, and every one is covered by a topic' '
	v=$(kernels --newest 6.12) && echo "$v" >version &&
	scan "$v" >table 2>log &&
	j=$KQ_RESULTS/$v/scan-none.json && cp "$j" none.json &&
	rows none.json findings file line tools topic >none.findings &&
	rows none.json unchecked file tool reason >none.unchecked &&
	test "$(grep -c . none.findings)" -gt 0 &&
	! grep "|uncovered$" none.findings
'

test_expect_success 'the two checkers agree: spatch sees every finding sparse reports, header tables included' '
	while IFS="|" read -r f l tools _; do
		echo "$f $l $(echo "$tools" | tr , "\n" | sort | paste -sd,)"
	done <none.findings >sites && cat sites &&
	{ grep " sparse$" sites >sparse-only || :; } &&
	test_line_count = 0 sparse-only &&
	grep -E "^include/trace/events/(fs_dax|f2fs)\.h [0-9]+ sparse,spatch$" sites >tables &&
	test_line_count = 3 tables
'

test_expect_success 'every finding names an active topic of the 6.12 track' '
	cut -d"|" -f4 none.findings | sort -u >named &&
	test_line_count -gt 3 named &&
	while read -r t; do
		test "$(git config -f "$REPO/branches/$t.conf" topic.state)" = active &&
		git config -f "$REPO/branches/$t.conf" topic.tracks | grep -w 6.12 || return 1
	done <named
'

# Three kinds of other pass: a cross compiler (arm64), ARCH=um with the host
# compiler, and x86_64 with an option list switched off.  Every Debian
# architecture (ARCHES=all, 13 more cold allmodconfig builds) is make scan's
# and the workflow's scan job, not the suite's: see the README.
ARCHES="arm64 um x86_64-noembedded"
test_expect_success 'with every topic applied, the scan finds nothing, with sparse on three kinds of other architecture pass' '
	scan --arches "$ARCHES" --apply all "$(cat version)" >table.all 2>log.all &&
	cp "$KQ_RESULTS/$(cat version)/scan-all.json" all.json &&
	python3 "$S/lib/records.py" validate all.json &&
	rows all.json findings file line >all.findings && test_line_count = 0 all.findings &&
	rows all.json unchecked file tool reason >all.unchecked &&
	python3 "$S/lib/records.py" get all.json configs >all.configs &&
	grep "\[all\]: [0-9]* files, 0 findings, 0 uncovered" table.all &&
	for a in $ARCHES; do
		grep -Fx "$a allmodconfig" all.configs >/dev/null || { echo "no $a pass"; return 1; }
	done
'

test_expect_success 'files sparse could not check are listed with a reason; the other passes check some of them' '
	awk -F"|" "\$2 == \"sparse\" { print \$3 }" none.unchecked | sort -u >reasons &&
	grep -x "x86_64: not built by allmodconfig" reasons &&
	cut -d"|" -f1 none.unchecked | sort >un.none &&
	cut -d"|" -f1 all.unchecked | sort >un.all &&
	comm -13 un.none un.all >extra && test_line_count = 0 extra &&
	test "$(wc -l <un.all)" -lt "$(wc -l <un.none)" &&
	# what is left: no Debian compiler, or not built / not checkable on any
	awk -F"|" "\$2 == \"sparse\" { print \$3 }" all.unchecked >why.all &&
	! grep -v "no cross compiler in Debian bookworm\|not built by allmodconfig\|compile failed\|sparse did not run\|sparse error" why.all
'

test_expect_success 'the scan records fit the schema' '
	v=$(cat version) && validate_records "$KQ_RESULTS/$v/scan-none.json" "$KQ_RESULTS/$v/scan-all.json" &&
	records_written >recs && grep -q "/scan-all.json$" recs
'

test_done
