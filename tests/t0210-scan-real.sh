#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='scan the real newest 6.12: every finding covered, nothing left with the topics on any architecture'
# The user's cache (sharness resets HOME): its scan worktrees and build
# directories make a repeated scan cost minutes, not a full build.
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
export KQ_CACHE
export KQ_RESULTS=${KQ_RESULTS:-$KQ_CACHE/results}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

test_expect_success 'the packaged tree has findings, and every one is covered by a topic' '
	v=$(kernels --newest 6.12) && echo "$v" >version &&
	scan "$v" >table 2>log &&
	j=$KQ_RESULTS/$v/scan-none.json && cp "$j" none.json &&
	grep -c "\"file\": .*\"line\": " none.json >n && test "$(cat n)" -gt 0 &&
	! grep -F "\"topic\": \"uncovered\"" none.json
'

test_expect_success 'the two checkers agree: spatch sees every finding sparse reports, header tables included' '
	python3 "$S/lib/records.py" get none.json "findings.*.file" >files &&
	python3 "$S/lib/records.py" get none.json "findings.*.line" >lines &&
	python3 - none.json >tools <<-\EOP &&
	import json, sys
	for f in json.load(open(sys.argv[1]))["findings"]:
	    print(",".join(sorted(f["tools"])))
	EOP
	paste -d" " files lines tools >sites && cat sites &&
	grep " sparse$" sites >sparse-only || : &&
	test_line_count = 0 sparse-only &&
	grep -E "^include/trace/events/(fs_dax|f2fs)\.h [0-9]+ sparse,spatch$" sites >tables &&
	test_line_count = 3 tables
'

test_expect_success 'every finding names an active topic of the 6.12 track' '
	sed -n "s/.*\"topic\": \"\([^\"]*\)\".*/\1/p" none.json | sort -u >named &&
	test_line_count -gt 3 named &&
	while read -r t; do
		test "$(git config -f "$REPO/branches/$t.conf" topic.state)" = active &&
		git config -f "$REPO/branches/$t.conf" topic.tracks | grep -w 6.12 || return 1
	done <named
'

test_expect_success 'with every topic applied, the scan finds nothing, with sparse on every Debian architecture' '
	scan --arches all --apply all "$(cat version)" >table.all 2>log.all &&
	cp "$KQ_RESULTS/$(cat version)/scan-all.json" all.json &&
	python3 -m json.tool all.json >/dev/null &&
	! grep "\"file\": .*\"line\": " all.json &&
	grep "\[all\]: [0-9]* files, 0 findings, 0 uncovered" table.all &&
	for a in $(awk "!/^#/ && NF { print \$1 }" "$REPO/scripts/cross-arches"); do
		grep -F "\"$a allmodconfig\"" all.json >/dev/null || { echo "no $a pass"; return 1; }
	done
'

test_expect_success 'files sparse could not check are listed with a reason; other architectures check most of them' '
	sed -n "s/.*\"tool\": \"sparse\", \"reason\": \"\([^\"]*\)\".*/\1/p" none.json | sort -u >reasons &&
	grep -x "x86_64: not built by allmodconfig" reasons &&
	sed -n "s/.*\"file\": \"\([^\"]*\)\", \"tool\".*/\1/p" none.json | sort >un.none &&
	sed -n "s/.*\"file\": \"\([^\"]*\)\", \"tool\".*/\1/p" all.json | sort >un.all &&
	comm -13 un.none un.all >extra && test_line_count = 0 extra &&
	test "$(wc -l <un.all)" -lt "$(($(wc -l <un.none) / 2))" &&
	# what is left: no Debian compiler, or not built / not checkable on any
	sed -n "s/.*\"tool\": \"sparse\", \"reason\": \"\([^\"]*\)\".*/\1/p" all.json >why.all &&
	! grep -v "no cross compiler in Debian bookworm\|not built by allmodconfig\|compile failed\|sparse did not run\|sparse error" why.all
'

test_expect_success 'the scan records fit the schema' '
	v=$(cat version) && validate_records "$KQ_RESULTS/$v/scan-none.json" "$KQ_RESULTS/$v/scan-all.json" &&
	records_written >recs && grep -q "/scan-all.json$" recs
'

test_done
