#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='the real newest packaged 6.12 kernel: import and apply every topic'
# The user's cache (sharness resets HOME), so a tree imported by `make` is
# reused; this test writes only tags and topic branches there.
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
export KQ_CACHE
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
use_results_copy

need_real_kernel

test_expect_success 'the newest packaged 6.12 is imported and tagged' '
	v=$(kernels --newest 6.12) && echo "$v" >version &&
	kernel-tree "$v" &&
	tag=debian/$(sed "s/~/_/" version) &&
	kq_git cat-file -e "$tag:fs/dax.c" &&
	kq_git cat-file -e "$tag:MAINTAINERS" &&
	test "$(kq_git show "$tag:Makefile" | sed -n "s/^SUBLEVEL = //p")" = \
	     "$(sed "s/^6\.12\.\([0-9]*\)-.*/\1/" version)"
'

test_expect_success 'every active 6.12 topic applies to it' '
	apply all "$(cat version)" >out &&
	for t in $(cd "$REPO/branches" && grep -l "tracks = .*6\.12" *.conf | sed "s/\.conf$//"); do
		test "$(git config -f "$REPO/branches/$t.conf" topic.state)" = active || continue
		grep "^$t: topic/$t/" out || return 1
	done
'

test_expect_success 'each topic branch carries exactly its patch files' '
	v=$(cat version) && tag=debian/$(sed "s/~/_/" version) &&
	for t in $(apply all "$v" | sed -n "s/^\([a-z0-9-]*\): topic\/.*/\1/p"); do
		br=topic/$t/${tag#debian/} &&
		n=$(kq_git rev-list --count "$tag..$br") &&
		grep -v "^#" "$REPO/kernel-patches/$t/series" | grep . >names &&
		test "$n" = "$(wc -l <names)" &&
		kq_git diff "$tag" "$br" >got.diff &&
		for p in $(cat names); do
			sed -n "/^diff --git/,\$p" "$REPO/kernel-patches/$t/$p"
		done | grep "^[-+][^-+]" | sort >want.lines &&
		grep "^[-+][^-+]" got.diff | sort >got.lines &&
		test_cmp want.lines got.lines || return 1
	done
'

test_expect_success 'the fsdax topic removes the implicit xarray conversions' '
	br=topic/fsdax/$(sed "s/~/_/" version) &&
	! kq_git show "$br:fs/dax.c" | grep -E "xa_mk_internal\(VM_FAULT_|= xa_to_internal\(entry\)" &&
	kq_git show "$br:fs/dax.c" | grep -c "dax_fault_entry(VM_FAULT_" >n &&
	test "$(cat n)" = 3
'

test_expect_success 'the apply records of every topic fit the schema' '
	ls "$KQ_RESULTS/$(cat version)"/apply-*.json >recs &&
	test "$(wc -l <recs)" -ge 5 && validate_listed recs
'

test_done
