#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='topic manifests are validated on read'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

test_expect_success 'the repository manifests are valid' '
	topics >out &&
	grep -E "^gfs2-seed +merged .*upstream 109dbb1e6f27" out &&
	grep -E "^dax-seed +merged .*fs/dax.c: use new return type vm_fault_t" out &&
	grep -E "^fsdax +active" out
'

test_expect_success 'every active topic has a cover letter with a subject and a body' '
	for f in "$REPO"/branches/*.conf; do
		test "$(git config -f "$f" topic.state)" = active || continue
		c=$REPO/$(git config -f "$f" topic.cover) &&
		test -n "$(sed -n 1p "$c")" && test -z "$(sed -n 2p "$c")" &&
		test "$(wc -l <"$c")" -gt 5 || { echo "bad cover $c"; return 1; }
	done
'

setup_root() {
	rm -rf root && mkdir -p root/branches root/kernel-patches/t root/cover-letters &&
	printf "0001-x.patch\n" >root/kernel-patches/t/series &&
	printf "Subject: [PATCH] x\n\ndiff --git a/f b/f\n" >root/kernel-patches/t/0001-x.patch &&
	printf "x: cover\n\nbody\n" >root/cover-letters/t.txt &&
	cat >root/branches/t.conf <<-EOC
	[topic]
		name = t
		prefix = x
		state = active
		tracks = 6.12
		patches = kernel-patches/t
		cover = cover-letters/t.txt
	EOC
	export KQ_ROOT=$PWD/root
}

test_expect_success 'a well-formed fixture manifest passes' '
	setup_root && topics t >out && grep -E "^t +active +6.12 +6.12: 1 patches" out
'

test_expect_success 'an unknown key is named with its file, exit 2' '
	setup_root && git config -f root/branches/t.conf topic.colour blue &&
	test_expect_code 2 topics t 2>err &&
	grep -x "$KQ_ROOT/branches/t.conf:topic.colour: unknown key" err
'

test_expect_success 'a bad state is rejected' '
	setup_root && git config -f root/branches/t.conf topic.state maybe &&
	test_expect_code 2 topics t 2>err &&
	grep "t.conf:topic.state: .maybe. is not active or merged" err
'

test_expect_success 'an unknown track is rejected' '
	setup_root && git config -f root/branches/t.conf topic.tracks "6.12 5.10" &&
	test_expect_code 2 topics t 2>err && grep "topic.tracks: unknown track .5.10." err
'

test_expect_success 'a series naming a missing patch is rejected' '
	setup_root && echo 0002-gone.patch >>root/kernel-patches/t/series &&
	test_expect_code 2 topics t 2>err && grep "names missing patch 0002-gone.patch" err
'

test_expect_success 'a missing cover letter is rejected' '
	setup_root && rm root/cover-letters/t.txt &&
	test_expect_code 2 topics t 2>err && grep "topic.cover: no file cover-letters/t.txt" err
'

test_expect_success 'a merged topic needs an upstream commit id' '
	setup_root && cat >root/branches/t.conf <<-EOC &&
	[topic]
		name = t
		prefix = x
		state = merged
		tracks = 6.12
		upstream = not-a-commit
	EOC
	test_expect_code 2 topics t 2>err && grep "topic.upstream: .not-a-commit. is not" err
'

test_expect_success 'a manifest that is not git-config syntax says so' '
	setup_root && echo "[topic" >root/branches/t.conf &&
	test_expect_code 2 topics t 2>err && grep "t.conf: not git-config syntax" err
'

test_expect_success 'a per-track series file is used for that track' '
	setup_root &&
	printf "0001-x.patch\n0001-x.patch\n" >root/kernel-patches/t/series-6.1 &&
	git config -f root/branches/t.conf topic.tracks "6.1 6.12" &&
	git config -f root/branches/t.conf track.6.1.series series-6.1 &&
	topics t >out && grep "6.1: 2 patches  6.12: 1 patches" out
'

test_expect_success 'an unknown topic is one line, exit 2' '
	setup_root && test_expect_code 2 topics nosuch 2>err &&
	test_line_count = 1 err && grep "unknown topic .nosuch." err
'

test_done
