#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034,SC2154
test_description='CI: the workflow passes actionlint, its matrix is generated from branches/,
make status turns records into Markdown, an HTML page and badges, and Chromium renders it'
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# topic NAME STATE TRACKS: a valid manifest with one patch and a cover
topic() {
	mkdir -p "root/kernel-patches/$1" root/branches root/cover-letters &&
	printf "0001-x.patch\n" >"root/kernel-patches/$1/series" &&
	printf "Subject: [PATCH] x\n\ndiff --git a/f b/f\n" >"root/kernel-patches/$1/0001-x.patch" &&
	printf "x: cover\n\nbody\n" >"root/cover-letters/$1.txt" &&
	printf "[topic]\n\tname = %s\n\tprefix = x\n\tstate = %s\n\ttracks = %s\n\tpatches = kernel-patches/%s\n\tcover = cover-letters/%s.txt\n\tdescription = fixture %s\n" \
		"$1" "$2" "$3" "$1" "$1" "$1" >"root/branches/$1.conf"
}
# expected_matrix DIR: the matrix computed here from the manifests, sorted
expected_matrix() {
	awk '!/^#/ && NF { print $1 }' "$REPO/scripts/tracks" | while read -r track; do
		for f in "$1"/branches/*.conf; do
			test "$(git config -f "$f" topic.state)" = active || continue
			case " $(git config -f "$f" topic.tracks) " in *" $track "*) ;; *) continue ;; esac
			echo "$(basename "$f" .conf) $track"
		done
	done | sort
}
# json_matrix: the include list of ci-matrix's first line as "topic track" lines, sorted
json_matrix() { python3 -c "import json, sys; [print(e['topic'], e['track']) for e in json.loads(sys.stdin.readline())['include']]" | sort; }

test_expect_success 'the matrix of the repository is its active topics x their tracks' '
	ci-matrix >out &&
	json_matrix <out >got && expected_matrix "$REPO" >want &&
	test_cmp want got && test "$(wc -l <got)" -ge 10 &&
	awk "{ print \$2 }" want | sort -uV | python3 -c "import json, sys; print(json.dumps({\"track\": sys.stdin.read().split()}))" >want.tracks &&
	sed -n 2p out | python3 -c "import json, sys; print(json.dumps(json.load(sys.stdin)))" >got.tracks &&
	test_cmp want.tracks got.tracks
'

test_expect_success 'the matrix follows branches/: merged topics out, per-track topics once' '
	topic a active "6.1 6.12" && topic b active 6.12 && topic c merged 6.1 &&
	git config -f root/branches/c.conf topic.upstream v6.2 &&
	KQ_ROOT=$PWD/root ci-matrix >out &&
	json_matrix <out >got &&
	printf "a 6.1\na 6.12\nb 6.12\n" >want && test_cmp want got &&
	KQ_ROOT=$PWD/root GITHUB_OUTPUT=$PWD/gh ci-matrix --github &&
	grep -x "topics={\"include\":\[{\"topic\":\"a\",\"track\":\"6.1\",\"send\":false},{\"topic\":\"a\",\"track\":\"6.12\",\"send\":true},{\"topic\":\"b\",\"track\":\"6.12\",\"send\":true}\]}" gh &&
	grep -x "tracks={\"track\":\[\"6.1\",\"6.12\"\]}" gh
'

test_expect_success 'a malformed manifest stops the matrix: one line, exit 2' '
	topic b active "6.12 7.0" &&
	test_expect_code 2 env KQ_ROOT="$PWD/root" ci-matrix >out 2>err &&
	test_line_count = 1 err && grep "b.conf:topic.tracks: unknown track .7.0." err && ! test -s out
'

test_expect_success 'the workflow passes actionlint; a broken copy does not' '
	lint-workflows >out 2>&1 || { cat out; false; } &&
	sed "s/steps.kernel.outputs.version/steps.kernl.outputs.version/" "$REPO/.github/workflows/queue.yml" >broken.yml &&
	! cmp -s broken.yml "$REPO/.github/workflows/queue.yml" &&
	test_expect_code 1 lint-workflows broken.yml >out 2>&1 &&
	grep -E "^broken.yml:[0-9]+:[0-9]+: property \"kernl\" is not defined" out
'

test_expect_success 'the workflow runs make targets that exist, from the generated matrix' '
	wf=$REPO/.github/workflows/queue.yml &&
	grep -q "scripts/ci-matrix --github" "$wf" &&
	grep -q "fromJSON(needs.matrix.outputs.topics)" "$wf" &&
	grep -q "fromJSON(needs.matrix.outputs.tracks)" "$wf" &&
	# no track is named in the workflow: scripts/tracks is the only list
	! grep -nE "[\"'\'']([67]\.[0-9]+|[67]\.\*)[\"'\'']" "$wf" &&
	grep -q "if: matrix.send" "$wf" &&
	sed -n "s/.*run: make \([a-z-]*\).*/\1/p; s/^ *make \([a-z-]*\) .*/\1/p" "$wf" | sort -u >targets &&
	test "$(wc -l <targets)" -ge 8 &&
	for t in $(cat targets); do
		make -n -C "$REPO" "$t" TOPIC=f2fs TO=x >/dev/null 2>&1 || { echo "no make target $t"; return 1; }
	done
'

# Records for two kernels, written the way the scripts write them (through
# scripts/lib/records.py, which refuses what does not fit the schema).
tipof() { printf "%040d" "$(printf "%s" "$1$2" | cksum | cut -d" " -f1)"; }
rec() { # KIND FILE VERSION TOPIC KEY=SPEC...
	mkdir -p "results/$3" &&
	python3 "$S/lib/records.py" write "$1" "results/$3/$2" "kernel=str:$3" "topic=opt:$4" \
		tool=str:0 started=str:2026-01-01T00:00:00Z duration_s=num:1 reproducer=str:test "${@:5}"
}
apply_ok() { # VERSION TOPIC
	rec apply "apply-$2.json" "$1" "$2" track=str:x status=str:ok "branch=str:topic/$2/$1" base=str:0 \
		"tip=str:$(tipof "$1" "$2")" patches=int:1 patches_sha1=str:0 failed=null:
}
apply_fail() { # VERSION TOPIC WHY
	rec apply "apply-$2.json" "$1" "$2" track=str:x status=str:fail "branch=str:topic/$2/$1" base=str:0 \
		tip=null: patches=int:1 patches_sha1=str:0 "failed=str:$3"
}
check_rec() { # VERSION TOPIC CHECKPATCH SPARSE [TIP]
	echo "log" >"results/$1/check-$2.build.log" &&
	rec check "check-$2.json" "$1" "$2" track=str:x base=str:0 "tip=str:${5:-$(tipof "$1" "$2")}" built=str:0 \
		config=str:x objects=words:x.o \
		"checks.checkpatch.status=str:$3" checks.checkpatch.summary=str:s checks.checkpatch.details=words: \
		"checks.sparse.status=str:$4" checks.sparse.summary=str:s checks.sparse.new=words: \
		checks.sparse.removed=words: checks.sparse.kept=words: checks.sparse.vm_fault_t_left=words: \
		checks.sparse.unchecked=words: \
		checks.w1.status=str:pass checks.w1.summary=str:s checks.w1.new=words: checks.w1.removed=words: \
		checks.w1.kept=words: checks.build.status=str:pass checks.build.summary=str:s checks.build.errors=words: \
		checks.checkpatch.tool=str:0 checks.sparse.tool=str:0 checks.w1.tool=str:0 checks.build.tool=str:0
}
rebase_rec() { # VERSION TOPIC FROM STATUS OUTCOME
	mkdir -p "results/$1" && echo "1:  a = 1:  b x" >"results/$1/rangediff-$2.txt" &&
	printf "0001-x.patch\t%s\n" "$5" >outcomes &&
	rec rebase "rebase-$2.json" "$1" "$2" "from=str:$3" "to=str:$1" "status=str:$4" dry_run=bool:0 \
		old_tip=null: new_tip=null: patches=tsv:outcomes:patch,outcome range_diff=null: \
		range_diff_summary=null: resume=null:
}
boot_rec() { # VERSION VERDICT TOPIC...
	v=$1 verdict=$2 && shift 2 &&
	echo console >"results/$v/boot.console.log" &&
	for t; do echo "$t|$(tipof "$v" "$t")|booted|guest tests: x"; done >topics &&
	rec boot boot.json "$v" "" track=str:x commit=str:0 selftest=null: "verdict=str:$verdict" \
		reasons=words: accel=str:tcg qemu_exit=int:3 build_s=num:1 boot_s=num:1 config=str:x \
		console=str:x results=words: topics=table:topics:topic,tip,how,detail
}
send_rec() { # VERSION TOPIC SENT-VERSION
	rec send "send-$2.json" "$1" "$2" "version=int:$3" via=str:x from=str:x to=words: cc=words: \
		subjects=words: change_id=str:x base_commit=str:0 tip=str:0 tag=str:x cover_message_id=null: \
		sent_from=str:0
}

test_expect_success 'setup: four topics on 6.1.5-1 and 6.12.3-1 in every state' '
	rm -rf root && topic good active "6.1 6.12" && topic bad active 6.12 &&
	topic conf active "6.1 6.12" && topic stale active "6.1 6.12" && topic gone merged 6.1 &&
	git config -f root/branches/gone.conf topic.upstream v6.2 &&
	git config -f root/branches/good.conf topic.sent-version 2 &&
	mkdir -p root/ci && cp "$REPO/ci/status.html" root/ci/ &&
	v1=6.1.5-1 v2=6.12.3-1 &&
	apply_ok $v1 good && rebase_rec $v1 good 6.1.4-1 ok unchanged && check_rec $v1 good pass pass &&
	apply_ok $v2 good && rebase_rec $v2 good 6.12.2-1 ok refreshed && check_rec $v2 good pass warn &&
	send_rec $v2 good 2 &&
	apply_ok $v2 bad && check_rec $v2 bad pass fail &&
	apply_fail $v1 conf "0001-x.patch f:3" &&
	apply_ok $v2 conf && rebase_rec $v2 conf 6.12.2-1 conflict conflict && check_rec $v2 conf pass pass &&
	apply_ok $v1 stale && check_rec $v1 stale pass pass 1234567890123456789012345678901234567890 &&
	apply_ok $v2 stale && check_rec $v2 stale pass pass &&
	boot_rec $v1 PASS good stale && boot_rec $v2 PASS good bad conf stale &&
	export KQ_ROOT=$PWD/root KQ_RESULTS=$PWD/results
'

cellof() { awk -F" [|] " -v t="| $1" -v c="$2" "index(\$0, t \" |\") == 1 { print \$(c + 1) }" status.md; }

test_expect_success 'make status: the Markdown matrix says what each record says' '
	test_expect_code 1 status --out page 6.1.5-1 6.12.3-1 >out &&
	cp page/status.md status.md && cat status.md &&
	head -n 1 status.md | grep -x "| topic | 6.1.5-1 (6.1) | 6.12.3-1 (6.12) |" &&
	test "$(grep -c "^| " status.md)" = 5 && ! grep "^| gone " status.md &&
	cellof good 1 | grep "^PASS applied, 1 patch · rebase: unchanged · checkpatch pass · sparse pass · W=1 pass · build pass · boot PASS (booted) · sent v2" &&
	cellof good 2 | grep "^WARN .*rebase: 1 refreshed · checkpatch pass · sparse warn" &&
	test "$(cellof bad 1)" = "—" &&
	cellof bad 2 | grep "^FAIL .*\*\*sparse fail\*\*" &&
	cellof conf 1 | grep "^FAIL \*\*conflict: 0001-x.patch f:3\*\*" &&
	cellof conf 1 | grep "no checks · no boot\|no checks · boot PASS without it" &&
	cellof conf 2 | grep "\*\*rebase conflict from 6.12.2-1\*\*" &&
	cellof stale 1 | grep "^WARN .*checkpatch pass (stale)" &&
	cellof stale 2 | grep "^PASS " &&
	tail -n 1 status.md | grep "^4 topics x 2 kernels: 2 pass, 2 warn, 3 fail" &&
	grep -v "^status page: " out >printed && test_cmp page/status.md printed
'

test_expect_success 'badges: one per topic branch, coloured by its state' '
	ls page/badges >badges &&
	printf "%s\n" bad-6.12.svg conf-6.1.svg conf-6.12.svg good-6.1.svg good-6.12.svg stale-6.1.svg stale-6.12.svg >want &&
	test_cmp want badges &&
	grep -q "fill=\"#2da44e\"" page/badges/good-6.1.svg && grep -q ">pass</text>" page/badges/good-6.1.svg &&
	grep -q "fill=\"#cf222e\"" page/badges/bad-6.12.svg && grep -q ">fail</text>" page/badges/bad-6.12.svg &&
	grep -q "fill=\"#bf8700\"" page/badges/stale-6.1.svg &&
	python3 -c "import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]" page/badges/*.svg
'

test_expect_success 'the HTML page is self-contained and its links reach the records' '
	! grep -E "(src|href)=\"(https?:)?//" page/index.html &&
	grep -o "href=\"[^\"]*\"" page/index.html | sed "s/href=\"//; s/\"$//" | sort -u >links &&
	test "$(wc -l <links)" -ge 10 &&
	while read -r l; do
		f=$(python3 -c "import sys, urllib.parse; print(urllib.parse.unquote(sys.argv[1]))" "$l") &&
		test -f "page/$f" || { echo "dangling link $l"; return 1; }
	done <links &&
	test "$(grep -o "<td class=\"cell fail\"" page/index.html | wc -l)" = 3
'

test_expect_success 'Chromium renders the page: a screenshot with the pass and fail colours' '
	test_expect_code 1 status --out page --screenshot 6.1.5-1 6.12.3-1 >out &&
	grep "^screenshot: .*page/screenshot.png$" out &&
	"$SHARNESS_TEST_DIRECTORY/png-colors.py" page/screenshot.png "#dafbe1" "#ffebe9" "#fff8c5" >colors &&
	cat colors &&
	grep -E "^1400x1000 [0-9]{3,}$" colors &&
	for c in dafbe1 ffebe9 fff8c5; do
		n=$(sed -n "s/^#$c //p" colors) && test "$n" -gt 2000 || { echo "#$c: $n pixels"; return 1; }
	done &&
	mkdir -p "$SHARNESS_TEST_DIRECTORY/artifacts" &&
	cp page/screenshot.png "$SHARNESS_TEST_DIRECTORY/artifacts/status-fixture.png"
'

test_expect_success 'warn only where a person must look: base warnings are shown, a build-only boot warns' '
	cp -r results results2 && cp -r root root2 &&
	python3 - results2/6.1.5-1 <<-\EOP &&
	import json, sys
	d = sys.argv[1]
	c = json.load(open(d + "/check-good.json"))
	c["checks"]["w1"]["kept"] = ["fs/x.c:1: warning: old", "fs/x.c:2: warning: older"]
	json.dump(c, open(d + "/check-good.json", "w"))
	b = json.load(open(d + "/boot.json"))
	for t in b["topics"]:
	    if t["topic"] == "stale":
	        t["how"] = "build-only"
	json.dump(b, open(d + "/boot.json", "w"))
	EOP
	git config -f root2/branches/stale.conf topic.build-only "needs hardware QEMU lacks" &&
	{ KQ_ROOT=$PWD/root2 KQ_RESULTS=$PWD/results2 status --out page2 6.1.5-1 >out2; test $? -le 1; } &&
	cp page2/status.md status2.md && cat status2.md &&
	cellof_in() { awk -F" [|] " -v t="| $2" -v c="$3" "index(\$0, t \" |\") == 1 { print \$(c + 1) }" "$1"; } &&
	cellof_in status2.md good 1 | grep "^PASS .*W=1 pass (2 kept from base) · build pass · boot PASS (booted)" &&
	cellof_in status2.md stale 1 | grep "^WARN .*boot PASS (build-only: needs hardware QEMU lacks)"
'

test_expect_success 'a check that could not judge (error) is a failure on the page, never a pass' '
	rm -rf t3 && mkdir t3 && cp -r results t3/ &&
	(cd t3 && check_rec 6.1.5-1 good pass error) &&
	{ KQ_ROOT=$PWD/root KQ_RESULTS=$PWD/t3/results status --out page3 6.1.5-1 >out3; test $? -eq 1; } &&
	awk -F" [|] " "index(\$0, \"| good |\") == 1 { print \$2 }" page3/status.md >cell3 && cat cell3 &&
	grep "^FAIL .*\*\*sparse error\*\*" cell3
'

test_expect_success 'nine topics on four kernels fit a 1400x1000 window; a cell opens to its details in one click' '
	four_topics="alpha-long-topic-name bravo charlie delta echo foxtrot golf hotel india" &&
	rm -rf four && mkdir -p four/root/ci && cp root/ci/status.html four/root/ci/ &&
	(
		cd four &&
		for t in $four_topics; do
			topic "$t" active "6.1 6.12 7.2 7.3" || exit
		done &&
		for v in 6.1.5-1 6.12.3-1 7.2.9-1 7.3.4-1; do
			for t in $four_topics; do
				apply_ok $v $t && rebase_rec $v $t "$v~old" ok refreshed &&
				check_rec $v $t pass warn && send_rec $v $t 3 || exit
			done &&
			boot_rec $v PASS $four_topics || exit
		done
	) &&
	{ KQ_ROOT=$PWD/four/root KQ_RESULTS=$PWD/four/results status --out page4 6.1.5-1 6.12.3-1 7.2.9-1 7.3.4-1 >out4; test $? -le 1; } &&
	head -n 1 page4/status.md | grep -x "| topic | 6.1.5-1 (6.1) | 6.12.3-1 (6.12) | 7.2.9-1 (7.2) | 7.3.4-1 (7.3) |" &&
	"$SHARNESS_TEST_DIRECTORY/page-measure.sh" page4/index.html >measure && cat measure &&
	grep -x "cells 36" measure && grep -x "view 1400" measure &&
	w=$(sed -n "s/^width //p" measure) && test "$w" -le 1400 &&
	b=$(sed -n "s/^bottom //p" measure) && test "$b" -gt 200 && test "$b" -le 1000 &&
	h=$(sed -n "s/^tallest //p" measure) && test "$h" -le 40 &&
	grep -x "closed 0" measure && grep -x "open 1" measure && grep -x "shown 1" measure
'

test_expect_success 'the kernel'"'"'s mm selftests: counted in the cells of the topics they judge' '
	rm -rf mmt && mkdir -p mmt/root/ci && cp root/ci/status.html mmt/root/ci/ &&
	(
		cd mmt && topic judged active 6.12 && topic other active 6.12 &&
		git config -f root/branches/judged.conf topic.boot "dax mm" &&
		v=6.12.3-1 && apply_ok $v judged && apply_ok $v other &&
		check_rec $v judged pass pass && check_rec $v other pass pass &&
		echo console >"results/$v/boot.console.log" &&
		for t in judged other; do echo "$t|$(tipof "$v" "$t")|booted|guest tests: x"; done >topics &&
		printf "%s\n" "ok|dax.x" "ok|mm.cow.a" "ok|mm.cow.b" "skip|mm.cow.c" "fails-on-base|mm.hmm-tests.d" >mmres &&
		rec boot boot.json "$v" "" track=str:6.12 commit=str:0 selftest=null: verdict=str:PASS \
			reasons=words: accel=str:tcg qemu_exit=int:3 build_s=num:1 boot_s=num:1 config=str:x \
			console=str:x results=table:mmres:status,name topics=table:topics:topic,tip,how,detail
	) &&
	{ KQ_ROOT=$PWD/mmt/root KQ_RESULTS=$PWD/mmt/results status --out pagemm 6.12.3-1 >outmm; test $? -le 1; } &&
	grep "^| judged | PASS .*boot PASS (booted) · mm selftests: 2 pass, 1 skipped, 0 new failures, 1 fail on base too" pagemm/status.md &&
	grep "^| other | " pagemm/status.md >other && ! grep "mm selftests" other
'

test_expect_success 'bad input: unknown option or version, one line, exit 2' '
	test_expect_code 2 status --frobnicate 2>err && test_line_count = 1 err &&
	test_expect_code 2 status newest-7.0 2>err && test_line_count = 1 err && grep "unknown track .7.0." err
'

default_tracks=$(awk '!/^#/ && $2 == "default" { print $1 }' "$REPO/scripts/tracks")
real_records() {
	for t in $default_tracks; do
		v=$(KQ_CACHE=$REAL_CACHE KQ_ROOT=$REPO kernels --newest "$t" 2>/dev/null) &&
		test -f "$REAL_CACHE/results/$v/boot.json" || return 1
	done
}
real_records && test_set_prereq REAL_RECORDS

test_expect_success REAL_RECORDS 'the real records of the default tracks: every active topic, rendered at a glance' '
	vs= && for t in $default_tracks; do
		vs="$vs $(KQ_CACHE=$REAL_CACHE KQ_ROOT=$REPO kernels --newest "$t")" || return 1
	done &&
	{ KQ_CACHE=$REAL_CACHE KQ_RESULTS=$REAL_CACHE/results KQ_ROOT=$REPO status --out real --screenshot $vs >out; test $? -le 1; } &&
	cat real/status.md &&
	for t in $(expected_matrix "$REPO" | cut -d" " -f1 | sort -u); do
		grep -q "^| $t | " real/status.md || { echo "no row for $t"; return 1; }
	done &&
	! grep -q "not applied" real/status.md &&
	"$SHARNESS_TEST_DIRECTORY/png-colors.py" real/screenshot.png >colors && grep -E "^1400x1000 [0-9]{3,}$" colors &&
	"$SHARNESS_TEST_DIRECTORY/page-measure.sh" real/index.html >measure && cat measure &&
	w=$(sed -n "s/^width //p" measure) && test "$w" -le 1400 &&
	h=$(sed -n "s/^tallest //p" measure) && test "$h" -le 40 &&
	cp real/screenshot.png "$SHARNESS_TEST_DIRECTORY/artifacts/status-real.png"
'

test_done
