#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='a topic carried to a newer track: unchanged, applied upstream, fixed upstream differently, conflict'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# up_tree V: chain_tree V plus two C files with a vm_fault_t leftover.
#   e.c  v1: an errno kept in the fault code; 6.12 (v9): upstream fixed it
#        its own way (an int err, another helper), so our patch cannot apply
#   g.c  v1: the same leftover; 6.12: upstream took exactly our fix
up_tree() {
	chain_tree "$1" && mkdir -p fs/up &&
	if [ "$1" -lt 9 ]; then up_c e_copy ret >fs/up/e.c; else up_c e_copy_folio err >fs/up/e.c; fi &&
	if [ "$1" -lt 9 ]; then up_c g_copy ret >fs/up/g.c; else up_c g_copy err >fs/up/g.c; fi
}
# up_c HELPER VAR: a fault handler keeping HELPER's errno in VAR.
up_c() {
	printf '#include <linux/mm.h>\n\nstatic int %s(struct page *page)\n{\n\treturn page ? 0 : -ENOMEM;\n}\n\n' "$1"
	printf 'vm_fault_t up_fault(struct vm_fault *vmf)\n{\n\tvm_fault_t ret = 0;\n'
	[ "$2" = ret ] || printf '\tint err;\n'
	printf '\n\t%s = %s(vmf->page);\n\tif (%s)\n\t\tret = VM_FAULT_SIGBUS;\n\treturn ret;\n}\n' "$2" "$1" "$2"
}
up_debs() {
	make_deb "$1" linux-source-6.1 6.1.1-1 "up_tree 1"
	make_deb "$1" linux-source-6.12 6.12.1-1~deb12u1 "up_tree 9"
}

test_expect_success 'setup: 6.1.1 and 6.12.1, four topics on 6.1 only' '
	make_archive "$PWD/archive" up_debs && use_private_cache &&
	export KQ_ROOT=$PWD/root KQ_BRANCHES=$PWD/root/branches &&
	export GIT_AUTHOR_NAME="Fixture Author" GIT_AUTHOR_EMAIL=author@example.org \
	       GIT_COMMITTER_NAME="Fixture Author" GIT_COMMITTER_EMAIL=author@example.org &&
	kernel-tree 6.1.1-1 && kernel-tree 6.12.1 &&
	chain_topic carry 6.1 6.1.1-1 "a.c:s/^a5$/a5 ours/" &&
	chain_topic clash 6.1 6.1.1-1 "d.c:s/^d5$/d5 ours/" &&
	rm -rf gen && kq_git worktree prune && kq_git worktree add -q --detach gen debian/6.1.1-1 &&
	for f in e g; do
		up_c "${f}_copy" err >"gen/fs/up/$f.c" &&
		git -C gen commit -q -a -m "fs/up: keep the errno out of the fault code in $f.c" -m Fixture. &&
		mkdir -p "root/kernel-patches/$f-fix" &&
		git -C gen format-patch -q --zero-commit -1 -o "$PWD/root/kernel-patches/$f-fix" HEAD &&
		(echo "# base: 6.1.1-1" && cd "root/kernel-patches/$f-fix" && ls -- *.patch) >"root/kernel-patches/$f-fix/series" &&
		echo "fs/up: $f" >"root/cover-letters/$f-fix.txt" &&
		printf "[topic]\n\tname = %s\n\tprefix = fs/up\n\tstate = active\n\ttracks = 6.1\n\tpatches = kernel-patches/%s\n\tcover = cover-letters/%s.txt\n" \
			"$f-fix" "$f-fix" "$f-fix" >"root/branches/$f-fix.conf" || return 1
	done &&
	topics >/dev/null
'

test_expect_success 'a topic not on the track is refused without --extend, one line, exit 2' '
	test_expect_code 2 rebase carry 6.12.1 2>err &&
	test_line_count = 1 err &&
	grep "carry. does not target track 6.12 (--extend carries it there)" err
'

test_expect_success '--extend carries an unchanged series: the base line and the track are added' '
	rebase --extend carry 6.12.1 >out &&
	grep "0001-fs-rb-change-a.c.patch: unchanged" out &&
	grep "carry: now targets track 6.12" out &&
	test "$(git config -f root/branches/carry.conf topic.tracks)" = "6.1 6.12" &&
	printf "# base: 6.1.1-1\n# base: 6.12.1-1~deb12u1\n0001-fs-rb-change-a.c.patch\n" >want &&
	test_cmp want root/kernel-patches/carry/series &&
	apply carry 6.12.1 &&
	grep -E "^[0-9]+=, 0!" "$KQ_RESULTS/6.12.1-1~deb12u1/rangediff-carry.txt" >/dev/null ||
	grep -E "^1: +[0-9a-f]+ = 1:" "$KQ_RESULTS/6.12.1-1~deb12u1/rangediff-carry.txt"
'

test_expect_success '--extend from a track with its own series: the new track reads that series, not the default one' '
	chain_topic own 6.1 6.1.1-1 "a.c:s/^a5$/a5 own/" &&
	mv root/kernel-patches/own/series root/kernel-patches/own/series-6.1 &&
	printf "# base: 6.0.0-1\n" >root/kernel-patches/own/series &&
	git config -f root/branches/own.conf track.6.1.series series-6.1 &&
	rebase --extend own 6.12.1 >out &&
	grep "0001-fs-rb-change-a.c.patch: unchanged" out &&
	test "$(git config -f root/branches/own.conf track.6.12.series)" = series-6.1 &&
	grep -x "# base: 6.12.1-1~deb12u1" root/kernel-patches/own/series-6.1 &&
	! grep 6.12 root/kernel-patches/own/series &&
	apply own 6.12.1 >apply.out &&
	grep "own on 6.12.1-1~deb12u1 (1 patches)" apply.out
'

test_expect_success 'a patch upstream took as it is: applied upstream, the topic is merged from that track on' '
	cp root/kernel-patches/g-fix/series series.before &&
	rebase --extend g-fix 6.12.1 >out &&
	grep "0001-fs-up-keep-the-errno-out-of-the-fault-code-in-g.c.patch: dropped: applied upstream in 6.12.1-1~deb12u1" out &&
	grep "g-fix: every patch is upstream in 6.12.1-1~deb12u1: merged from track 6.12 on" out &&
	test "$(git config -f root/branches/g-fix.conf topic.merged-in)" = 6.12 &&
	test "$(git config -f root/branches/g-fix.conf topic.merged-reason)" = "applied upstream in 6.12.1-1~deb12u1" &&
	test "$(git config -f root/branches/g-fix.conf topic.tracks)" = 6.1 &&
	test "$(git config -f root/branches/g-fix.conf topic.state)" = active &&
	test_cmp series.before root/kernel-patches/g-fix/series &&
	test "$(python3 "$S/lib/records.py" get "$KQ_RESULTS/6.12.1-1~deb12u1/rebase-g-fix.json" status)" = merged &&
	topics >/dev/null &&
	apply g-fix 6.1.1-1 >/dev/null &&
	test_expect_code 1 summary 6.1.1-1 6.12.1 >table &&
	grep -E "^g-fix +ok \(1 patches\) +merged upstream *$" table
'

test_expect_success 'a merged track is refused by name, and --extend all skips it' '
	test_expect_code 2 rebase --extend g-fix 6.12.1 2>err &&
	grep "g-fix. is upstream from track 6.12 on (applied upstream in 6.12.1-1~deb12u1)" err
'

test_expect_success 'a patch upstream fixed another way: "fixed upstream differently: confirm", nothing written' '
	cp -r root snapshot &&
	rebase --extend e-fix 6.12.1 >out &&
	grep "0001-fs-up-keep-the-errno-out-of-the-fault-code-in-e.c.patch: fixed upstream differently: confirm (Coccinelle found the leftover in fs/up/e.c on 6.1.1-1 and finds nothing left on 6.12.1-1~deb12u1)" out &&
	grep "confirm: .*git config -f branches/e-fix.conf topic.merged-in .6.12." out &&
	! grep -i conflict out &&
	diff -r snapshot root &&
	f=$KQ_RESULTS/6.12.1-1~deb12u1/rebase-e-fix.json &&
	test "$(python3 "$S/lib/records.py" get "$f" status)" = confirm &&
	validate_records "$f"
'

test_expect_success 'a spatch that cannot run on the new version could not judge: a conflict, never "fixed upstream differently"' '
	mkdir -p broken && cat >broken/spatch <<-\EOF &&
	#!/bin/sh
	# Coccinelle dies on the new version only (as on a bare system without
	# libpython): what it could not read is not "nothing left"
	case "$*" in *--version*) exec /usr/bin/spatch "$@" ;; esac
	case "$*" in *6.12.1-1*) echo "Fatal error: kq-test cannot run" >&2; exit 3 ;; esac
	exec /usr/bin/spatch "$@"
	EOF
	chmod +x broken/spatch &&
	# (KQ_SCAN_FRESH: the spatch run of test 7 would be reused, not rerun)
	test_expect_code 1 env PATH="$PWD/broken:$PATH" KQ_SCAN_FRESH=1 rebase --extend e-fix 6.12.1 >out &&
	grep "0001-fs-up-keep-the-errno-out-of-the-fault-code-in-e.c.patch: conflict" out &&
	! grep "fixed upstream differently" out &&
	diff -r snapshot root
'

test_expect_success 'a patch whose file changed with no leftover before it: still a conflict, exit 1' '
	test_expect_code 1 rebase --extend clash 6.12.1 >out &&
	grep "0001-fs-rb-change-d.c.patch: conflict" out &&
	diff -r snapshot/kernel-patches root/kernel-patches &&
	test "$(python3 "$S/lib/records.py" get "$KQ_RESULTS/6.12.1-1~deb12u1/rebase-clash.json" status)" = conflict
'

test_expect_success 'the confirmation is the manifest: merged-in without a reason is refused' '
	git config -f root/branches/e-fix.conf topic.merged-in 6.12 &&
	test_expect_code 2 topics 2>err &&
	grep "e-fix.conf:topic.merged-reason: missing" err &&
	git config -f root/branches/e-fix.conf topic.merged-reason "fixed upstream differently in 6.12.1-1~deb12u1" &&
	topics >/dev/null
'

test_expect_success 'an unknown track is one line, exit 2, nothing written' '
	test_expect_code 2 rebase --extend carry 9.9.9 2>err &&
	test_line_count = 1 err && grep "unknown kernel version .9.9.9." err
'

test_done
