#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034,SC2154
test_description='check: fixture topics on the real 7.3 tree fail each check for the right reason'
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

file=drivers/misc/dummy-irq.c
# The newest track, as t0600's send fixture: both check in the fixture
# cache's 7.3 worktree and build directory, so a new machine prepares that
# allmodconfig once for the two scripts.
track=7.3

# fixture_topic NAME SUBJECT SED-SCRIPT [FILE]: a one-patch topic editing
# FILE ($file by default).
fixture_topic() {
	local name=$1 subject=$2 edit=$3 file=${4:-$file} d=$PWD/data g=$PWD/gen.$1
	mkdir -p "$d/branches" "$d/kernel-patches/$name" "$d/cover-letters" "$g/${file%/*}" &&
	git init -q "$g" &&
	kq_git show "$tag:$file" >"$g/$file" &&
	git -C "$g" add . &&
	fgit -C "$g" commit -qm base &&
	sed -i "$edit" "$g/$file" &&
	! git -C "$g" diff --quiet &&
	printf '%s\n\n%s\n\nSigned-off-by: Fixture Author <fixture@example.org>\n' "$subject" \
		"Fixture for the check tests: this change exists to exercise one check." >msg &&
	fgit -C "$g" commit -qa -F "$PWD/msg" &&
	git -C "$g" format-patch -q -1 -o "$d/kernel-patches/$name" &&
	(cd "$d/kernel-patches/$name" && ls -- *.patch >series) &&
	echo "Fixture." >"$d/cover-letters/$name.txt" &&
	cat >"$d/branches/$name.conf" <<-EOC
	[topic]
		name = $name
		prefix = misc
		state = active
		tracks = $track
		patches = kernel-patches/$name
		cover = cover-letters/$name.txt
		description = check fixture
	EOC
}

record() { cat "$KQ_RESULTS/$(cat version)/check-$1.json"; }
# A compiler message with every character a hand-made JSON writer gets
# wrong: quotes, backslashes, a tab, an ESC and a byte that is not UTF-8.
hostile_edit='s/^static int irq = -1;/&\n#warning "say \\"hi\\" back\\\\slash\ttab\x1besc\xffbyte"/'

# get TOPIC PATH: a field of the topic's check record, through records.py.
get() { python3 "$S/lib/records.py" get "$KQ_RESULTS/$(cat version)/check-$1.json" "$2"; }
status_of() { get "$1" "checks.$2.status"; }

test_expect_success 'setup: seven fixture topics on the real 7.3 tree' '
	v=$(KQ_CACHE=$REAL_CACHE kernels --newest $track) && echo "$v" >version &&
	KQ_CACHE=$REAL_CACHE kernel-tree "$v" >/dev/null &&
	tag=debian/$(sed "s/~/_/" version) &&
	use_fixture_cache "$REAL_CACHE" "$tag" &&
	fixture_topic chk-pass "misc: dummy-irq: Don'"'"'t initialise a static to 0" \
		"s/static int count = 0;/static int count;/" &&
	fixture_topic chk-style "misc: dummy-irq: Test the irq parameter first" \
		"s/	if (irq < 0) {/	if(irq < 0) {/" &&
	fixture_topic chk-sparse "misc: dummy-irq: Count the interrupts seen" \
		"s/^static int irq = -1;/&\nint dummy_irq_seen;/; s/	static int count = 0;/&\n\n	dummy_irq_seen++;/" &&
	fixture_topic chk-w1 "misc: dummy-irq: Remember the last interrupt" \
		"s/	static int count = 0;/	static int count = 0;\n	int last;\n\n	last = irq;/" &&
	fixture_topic chk-broken "misc: dummy-irq: Return a better value" \
		"s/	return IRQ_NONE;/	return IRQ_NOT_A_VALUE;/" &&
	fixture_topic chk-hostile "misc: dummy-irq: Warn \"loudly\" at build time" "$hostile_edit" &&
	# another file, whose base has sparse warnings (two of them vm_fault_t
	# ones): its base object is compiled in the same make as dummy-irq.o
	fixture_topic chk-other "x86/sgx: Reword the header comment" \
		"s|^ \* Device driver to expose SGX enclave memory to KVM guests\.\$| * Device driver exposing SGX enclave memory to KVM guests.|" \
		arch/x86/kernel/cpu/sgx/virt.c &&
	grep -q "#warning \"say" "gen.chk-hostile/$file" &&
	KQ_ROOT=$PWD/data topics all >topics.out
'

test_expect_success 'make check on all five exits 1, one line per check per topic' '
	top=$KQ_CACHE/scan/$(cat version) &&
	mkdir -p "$top/check.w1.build" &&
	test_expect_code 1 env KQ_ROOT="$PWD/data" check all "$(cat version)" >out 2>err &&
	cat out &&
	for t in chk-broken chk-pass chk-sparse chk-style chk-w1; do
		for c in checkpatch sparse w1 build; do
			grep -E "^$t +$c +(pass|warn|fail|error) +[0-9.]+s  " out || return 1
		done
	done
'

test_expect_success 'base and tips share the packaged worktree and its build directory, left at the base' '
	top=$KQ_CACHE/scan/$(cat version) &&
	test "$(git -C "$top/none" rev-parse HEAD)" = "$(kq_git rev-parse "$tag^{commit}")" &&
	git -C "$top/none" diff --quiet HEAD &&
	! test -e "$top/check.w1.build" && ! test -e "$top/check" &&
	! kq_git worktree list | grep -F "$top/check" &&
	# each of the seven topics compiled its object at its tip; the base
	# compiled the two objects they touch once, in one make
	test "$(grep -c "1 objects compiled with C=2 W=1 at the tip in" err)" = 7 &&
	grep -x "check on [^ ]*: the base.s 2 objects of 7 topics compiled with C=2 W=1 in one make in [0-9.]*s" err
'

# The base of every topic is one make: each topic must be judged by its
# own objects' part of it, not by another topic's warnings.
test_expect_success 'each topic compares its tip with its own objects of the shared base make' '
	test "$(get chk-other objects)" = arch/x86/kernel/cpu/sgx/virt.o &&
	get chk-other checks.sparse.kept >other.kept &&
	grep "^arch/x86/kernel/cpu/sgx/virt.c:[0-9]*: cast removes address space" other.kept &&
	! grep -v "^arch/x86/kernel/cpu/sgx/virt.c:" other.kept &&
	test "$(status_of chk-other sparse)" = fail &&
	get chk-other checks.sparse.vm_fault_t_left | grep "^arch/x86/kernel/cpu/sgx/virt.c:" &&
	test -z "$(get chk-other checks.sparse.removed)" &&
	test -z "$(get chk-other checks.w1.removed)" &&
	for t in chk-pass chk-sparse chk-w1 chk-style; do
		for c in sparse w1; do
			for l in kept removed; do
				! get $t checks.$c.$l | grep -F sgx/virt.c || return 1
			done
		done
	done
'

test_expect_success 'the clean patch passes every check' '
	for c in checkpatch sparse w1 build; do
		test "$(status_of chk-pass $c)" = pass || return 1
	done &&
	test "$(get chk-pass objects)" = drivers/misc/dummy-irq.o
'

test_expect_success 'a style error fails checkpatch, naming the error' '
	test "$(status_of chk-style checkpatch)" = fail &&
	get chk-style checks.checkpatch.details | grep "ERROR: space required before the open parenthesis" &&
	test "$(status_of chk-style build)" = pass
'

test_expect_success 'a new sparse warning fails sparse and is listed, W=1 does not see it' '
	test "$(status_of chk-sparse sparse)" = fail &&
	get chk-sparse checks.sparse.new | grep "symbol .dummy_irq_seen. was not declared" &&
	test "$(status_of chk-sparse w1)" = pass
'

test_expect_success 'a new W=1 warning fails w1 and is listed, sparse does not see it' '
	test "$(status_of chk-w1 w1)" = fail &&
	get chk-w1 checks.w1.new | grep "unused-but-set-variable" &&
	test "$(status_of chk-w1 sparse)" = pass
'

test_expect_success 'a compile error fails the build, naming file and error; sparse could not judge it' '
	test "$(status_of chk-broken build)" = fail &&
	test "$(status_of chk-broken sparse)" = error &&
	grep -E "^chk-broken +sparse +error .*sparse did not run on it" out &&
	get chk-broken checks.build.errors | grep "^$file:[0-9]*: .*IRQ_NOT_A_VALUE" &&
	grep -A3 "^chk-broken  *build  *fail" out | grep IRQ_NOT_A_VALUE
'

test_expect_success 'the record has the fields of a status record' '
	record chk-pass | python3 -c "
import json, sys
r = json.load(sys.stdin)
for k in (\"topic\", \"kernel\", \"base\", \"tip\", \"started\", \"duration_s\", \"reproducer\", \"checks\"):
    assert k in r, k
assert r[\"topic\"] == \"chk-pass\" and len(r[\"base\"]) == 40 and len(r[\"tip\"]) == 40 and r[\"base\"] != r[\"tip\"]
assert r[\"reproducer\"].startswith(\"make check TOPIC=chk-pass KERNEL=\")
for c in r[\"checks\"].values():
    assert c[\"status\"] in (\"pass\", \"warn\", \"fail\", \"error\") and c[\"summary\"] and c[\"tool\"]
" &&
	test "$(get chk-pass base)" = \
	     "$(kq_git rev-parse "$tag^{commit}")"
'

test_expect_success 'a second run reuses the records of the same built commits; FORCE and other code rerun' '
	cp "$KQ_RESULTS/$(cat version)/check-chk-sparse.json" before.json &&
	test_expect_code 1 env KQ_ROOT="$PWD/data" check chk-sparse "$(cat version)" >out2 2>err2 &&
	KQ_ROOT="$PWD/data" check chk-pass "$(cat version)" >>out2 2>>err2 &&
	grep -E "^chk-sparse +sparse +fail +reused  " out2 && grep -E "^chk-pass +build +pass +reused  " out2 &&
	grep -c "record reused" err2 | grep -x 2 &&
	test_cmp before.json "$KQ_RESULTS/$(cat version)/check-chk-sparse.json" &&
	KQ_CHECK_FORCE=1 KQ_ROOT="$PWD/data" check chk-pass "$(cat version)" >out3 2>&1 &&
	grep -E "^chk-pass +build +pass +[0-9.]+s  " out3 && ! grep reused out3 &&
	sed -i "s/\"tool\": \"[0-9a-f]*\"/\"tool\": \"0000\"/" "$KQ_RESULTS/$(cat version)/check-chk-pass.json" &&
	KQ_ROOT="$PWD/data" check chk-pass "$(cat version)" >out4 2>&1 &&
	! grep reused out4 && grep -E "^chk-pass +checkpatch +pass +[0-9.]+s  " out4
'

# Every library check sources is part of its tool id: a change to any of
# them reruns the checks (lib/scan.sh, sourced for trace_users, was not).
test_expect_success 'a change to any library or program under lib/, or to KQ_CHECK_USERS, reruns the checks; the same code reuses' '
	rm -rf copy && cp -R "$S" copy &&
	KQ_ROOT="$PWD/data" copy/check chk-pass "$(cat version)" >out9 2>&1 && grep reused out9 &&
	rec=$KQ_RESULTS/$(cat version)/check-chk-pass.json && cp "$rec" base.rec &&
	libs=$(sed -n "s/^kq_lib //p" "$S/check") && test -n "$libs" &&
	for l in common $libs; do
		echo "# changed" >>"copy/lib/$l.sh" &&
		KQ_ROOT="$PWD/data" copy/check chk-pass "$(cat version)" >out9 2>&1 &&
		{ ! grep reused out9 || { echo "lib/$l.sh changed, the record reused"; return 1; }; } &&
		cp "$S/lib/$l.sh" "copy/lib/$l.sh" && cp base.rec "$rec" || return 1
	done &&
	for l in split-build-log.awk match-sources.awk; do
		echo "# changed" >>"copy/lib/$l" &&
		KQ_ROOT="$PWD/data" copy/check chk-pass "$(cat version)" >out9 2>&1 &&
		{ ! grep reused out9 || { echo "lib/$l changed, the record reused"; return 1; }; } &&
		cp "$S/lib/$l" "copy/lib/$l" && cp base.rec "$rec" || return 1
	done &&
	KQ_CHECK_USERS=5 KQ_ROOT="$PWD/data" copy/check chk-pass "$(cat version)" >out9 2>&1 &&
	{ ! grep reused out9 || { echo "KQ_CHECK_USERS changed, the record reused"; return 1; }; } &&
	cp base.rec "$rec" && KQ_ROOT="$PWD/data" copy/check chk-pass "$(cat version)" >out9 2>&1 && grep reused out9
'

test_expect_success 'a changed input of one check (its codespell dictionary) reruns the checks; the same input reuses' '
	KQ_ROOT="$PWD/data" check chk-pass "$(cat version)" >out6 2>&1 && grep reused out6 &&
	{ cat /usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt 2>/dev/null; echo "fautl->fault"; } >dict.txt &&
	KQ_CODESPELL_DICT=$PWD/dict.txt KQ_ROOT="$PWD/data" check chk-pass "$(cat version)" >out7 2>&1 &&
	! grep reused out7 && grep -E "^chk-pass +checkpatch +pass +[0-9.]+s  " out7
'

test_expect_success 'mutation: a check program that breaks its contract (no status, odd exit) is an error naming it' '
	cp -R "$S/checks" broken && printf "#!/bin/sh\necho w1 went away >&2\nexit 0\n" >broken/w1/run &&
	printf "#!/bin/sh\nmkdir -p \"\$1/build\"; echo pass >\"\$1/build/status\"; exit 7\n" >broken/build/run &&
	test_expect_code 1 env KQ_CHECKS_DIR="$PWD/broken" KQ_ROOT="$PWD/data" check chk-pass "$(cat version)" >out8 2>&1 &&
	grep -E "^chk-pass +w1 +error .*the w1 check broke its contract \(exit 0\): w1 went away" out8 &&
	grep -E "^chk-pass +build +error .*the build check broke its contract \(exit 7\)" out8 &&
	grep -E "^chk-pass +sparse +pass " out8 &&
	test "$(status_of chk-pass w1)" = error
'

test_expect_success 'hostile compiler output: the record stays valid and keeps every character' '
	test_expect_code 1 env KQ_ROOT="$PWD/data" check chk-hostile "$(cat version)" >out5 2>&1 &&
	rec=$KQ_RESULTS/$(cat version)/check-chk-hostile.json &&
	python3 "$REPO/scripts/lib/records.py" validate "$rec" &&
	python3 - "$rec" <<-\EOP
	import json, sys
	r = json.load(open(sys.argv[1], encoding="utf-8"))
	new = [w for w in r["checks"]["w1"]["new"] if "#warning" in w]
	assert len(new) == 1, r["checks"]["w1"]
	want = "say \\\"hi\\\" back\\\\slash\ttab\x1besc\ufffdbyte"
	assert want in new[0], (want, new[0])
	assert r["checks"]["w1"]["status"] == "fail"
	EOP
'

# checker TREE: the sparse kbuild_checker picks for a tree, as check and scan do.
checker() { bash -c '. "$1/lib/common.sh"; kq_lib kbuild; kbuild_checker "$2"' _ "$S" "$1"; }

test_expect_success 'a tree whose checker-valid.sh rejects the sparse: none is used, one line, not a silent skip' '
	mkdir -p newtree/scripts oldtree/scripts &&
	printf "#!/bin/sh\n# the tree accepts no checker\necho 0\n" >newtree/scripts/checker-valid.sh &&
	test_must_fail env KQ_SPARSE="$(command -v sparse)" bash -c ". \"$S/lib/common.sh\"; kq_lib kbuild; kbuild_checker newtree" 2>err &&
	test_line_count = 1 err && grep "no sparse this tree accepts (tried $(command -v sparse);" err &&
	test "$(KQ_SPARSE=$(command -v sparse) checker oldtree)" = "$(command -v sparse)" &&
	printf "#!/bin/sh\necho 1\n" >newtree/scripts/checker-valid.sh &&
	test "$(KQ_SPARSE=$(command -v sparse) checker newtree)" = "$(command -v sparse)"
'

test_expect_success 'mutation: a missing sparse stops the check with one line; a crashing one fails sparse, never passes' '
	test_must_fail env KQ_ROOT="$PWD/data" KQ_CHECK_FORCE=1 KQ_SPARSE="$PWD/no-such-sparse" \
		check chk-pass "$(cat version)" >out 2>err &&
	grep "no sparse this tree accepts (tried $PWD/no-such-sparse" err &&
	! grep -E "^chk-pass +sparse +pass" out &&
	# kbuild runs CHECK unquoted (7.x also through scripts/checker-valid.sh):
	# a path without spaces, unlike the trash directory, or kbuild never
	# runs it and the crash is never tested
	crash=$KQ_CACHE/crash-sparse &&
	printf "#!/bin/sh\nexit 139\n" >"$crash" && chmod +x "$crash" &&
	test_expect_code 1 env KQ_ROOT="$PWD/data" KQ_CHECK_FORCE=1 KQ_SPARSE="$crash" \
		check chk-pass "$(cat version)" >out 2>err &&
	cat out &&
	test "$(status_of chk-pass sparse)" = error &&
	grep -E "^chk-pass +sparse +error .*sparse did not run on it" out &&
	! grep -F "is not available or not up to date" out &&
	test "$(status_of chk-pass build)" != pass
'

test_expect_success 'every record this script wrote fits the schema' '
	ls "$KQ_RESULTS"/*/check-*.json >recs && test "$(wc -l <recs)" -ge 6 &&
	validate_listed recs
'

test_expect_success 'bad input: unknown topic, exit 2, one line' '
	test_expect_code 2 env KQ_ROOT="$PWD/data" check no-such-topic "$(cat version)" 2>err &&
	test_line_count = 1 err && grep no-such-topic err
'

test_done
