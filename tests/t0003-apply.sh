#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='topic branches are built from patch files'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# make_topic NAME TRACKS: manifest + cover for a fixture topic
make_topic() {
	mkdir -p root/kernel-patches/"$1" &&
	printf "%s: fixture\n\nA fixture topic.\n" "$1" >root/cover-letters/"$1".txt &&
	cat >root/branches/"$1".conf <<-EOC
	[topic]
		name = $1
		prefix = fs
		state = active
		tracks = $2
		patches = kernel-patches/$1
		cover = cover-letters/$1.txt
	EOC
}

test_expect_success 'setup: archive, cache, two kernels and fixture topics' '
	make_archive "$PWD/archive" && use_private_cache &&
	kernel-tree 6.1.2-2 && kernel-tree 6.12.1 &&
	mkdir -p root/branches root/cover-letters && export KQ_ROOT=$PWD/root &&
	kq_git worktree add -q --detach wt debian/6.1.2-2 &&
	export GIT_AUTHOR_NAME="Fixture Author" GIT_AUTHOR_EMAIL=author@example.org \
	       GIT_COMMITTER_NAME="Fixture Author" GIT_COMMITTER_EMAIL=author@example.org &&
	(cd wt &&
	 sed -i "s/int ret = 0;/vm_fault_t ret = 0;/" fs/dax.c &&
	 git commit -q -a -m "fs: keep the fault code in a vm_fault_t" &&
	 sed -i "s/^int dax_fault/vm_fault_t dax_fault/" fs/dax.c &&
	 git commit -q -a -m "fs: return vm_fault_t from dax_fault") &&
	make_topic good "6.1 6.12" &&
	git -C wt format-patch -q --zero-commit -o "$PWD/root/kernel-patches/good" debian/6.1.2-2..HEAD &&
	(cd root/kernel-patches/good && ls *.patch >series) &&
	make_topic bad "6.1" &&
	cp root/kernel-patches/good/0001-*.patch root/kernel-patches/bad/0001-first.patch &&
	sed "s/^-int dax_fault(void)$/-int dax_fault(int nope)/" \
		root/kernel-patches/good/0002-*.patch >root/kernel-patches/bad/0002-second.patch &&
	printf "0001-first.patch\n0002-second.patch\n" >root/kernel-patches/bad/series &&
	make_topic newonly "6.12" &&
	cp root/kernel-patches/good/0001-*.patch root/kernel-patches/newonly/ &&
	(cd root/kernel-patches/newonly && ls *.patch >series)
'

test_expect_success 'apply prints one line per patch and makes the branch' '
	apply good 6.1.2 >out &&
	grep -E "^  \[1/2\] 0001-fs-keep-the-fault-code-in-a-vm_fault_t.patch: applied$" out &&
	grep -E "^  \[2/2\] 0002-fs-return-vm_fault_t-from-dax_fault.patch: applied$" out &&
	kq_git rev-parse -q --verify refs/heads/topic/good/6.1.2-2 &&
	kq_git diff debian/6.1.2-2 topic/good/6.1.2-2 >d &&
	grep "^+vm_fault_t dax_fault(void)" d && grep "^+	vm_fault_t ret = 0;" d
'

test_expect_success 'the topic commits keep the patch authorship and message' '
	kq_git log --format=%s debian/6.1.2-2..topic/good/6.1.2-2 >got &&
	printf "fs: return vm_fault_t from dax_fault\nfs: keep the fault code in a vm_fault_t\n" >want &&
	test_cmp want got
'

test_expect_success 'the worktree is sparse: only the touched files are checked out' '
	find "$KQ_CACHE/worktrees/good" -path "*/.git" -prune -o -type f -print >files &&
	grep "/fs/dax.c$" files && ! grep "/scripts/checkpatch.pl$" files
'

test_expect_success 'applying twice gives the same branch' '
	id=$(kq_git rev-parse topic/good/6.1.2-2) &&
	apply good 6.1.2 && test "$(kq_git rev-parse topic/good/6.1.2-2)" = "$id"
'

test_expect_success 'one topic applied on two kernels at once (run-tracks runs tracks side by side): both branches right' '
	# the cache lock held as run-tracks holds it for the verbs it runs
	a=$(kq_git rev-parse topic/good/6.1.2-2) &&
	apply good 6.12.1 >/dev/null && b=$(kq_git rev-parse topic/good/6.12.1-1_deb12u1) &&
	for i in 1 2 3 4 5; do
		(KQ_LOCK_HELD=$KQ_CACHE KQ_APPLY_FORCE=1 apply good 6.1.2 >out1.$i 2>&1; echo $? >rc1.$i) &
		(KQ_LOCK_HELD=$KQ_CACHE KQ_APPLY_FORCE=1 apply good 6.12.1 >out2.$i 2>&1; echo $? >rc2.$i) &
		wait || return 1
		for r in 1 2; do
			test "$(cat rc$r.$i)" = 0 || { cat out$r.$i; return 1; }
		done
		test "$(kq_git rev-parse topic/good/6.1.2-2)" = "$a" &&
		test "$(kq_git rev-parse topic/good/6.12.1-1_deb12u1)" = "$b" || return 1
	done
'

test_expect_success 'a topic commit is the queue'"'"'s: the same id whoever applies it, the author kept' '
	id=$(kq_git rev-parse topic/good/6.1.2-2) &&
	test "$(kq_git log -1 --format="%cn <%ce>" "$id")" = "vmfault-queue <vmfault-queue@localhost>" &&
	test "$(kq_git log -1 --format="%an <%ae>" "$id")" = "Fixture Author <author@example.org>" &&
	kq_git update-ref -d refs/heads/topic/good/6.1.2-2 &&
	GIT_COMMITTER_NAME=Someone GIT_COMMITTER_EMAIL=someone@example.net apply good 6.1.2 >out &&
	grep "^  \[2/2\] .*: applied$" out &&
	test "$(kq_git rev-parse topic/good/6.1.2-2)" = "$id"
'

test_expect_success 'a branch another committer made (and recorded) is applied again as the queue'"'"'s' '
	id=$(kq_git rev-parse topic/good/6.1.2-2) &&
	c=$(kq_git rev-parse debian/6.1.2-2) &&
	for x in $(kq_git rev-list --reverse debian/6.1.2-2..topic/good/6.1.2-2); do
		c=$(kq_git log -1 --format=%B "$x" | GIT_COMMITTER_NAME=Old GIT_COMMITTER_EMAIL=old@example.net \
			GIT_AUTHOR_NAME="Fixture Author" GIT_AUTHOR_EMAIL=author@example.org \
			kq_git commit-tree -p "$c" "$x^{tree}") || return 1
	done &&
	kq_git update-ref refs/heads/topic/good/6.1.2-2 "$c" &&
	rec="$KQ_RESULTS/6.1.2-2/apply-good.json" &&
	python3 -c "import json, sys; r = json.load(open(sys.argv[1])); r[\"tip\"] = sys.argv[2]; json.dump(r, open(sys.argv[1], \"w\"))" "$rec" "$c" &&
	apply good 6.1.2 >out &&
	grep "^  \[2/2\] .*: applied$" out &&
	test "$(kq_git rev-parse topic/good/6.1.2-2)" = "$id"
'

test_expect_success 'a patch that does not apply names patch, file and hunk; nothing changes' '
	kq_git update-ref refs/heads/topic/bad/6.1.2-2 debian/6.1.2-2 &&
	kq_git for-each-ref >refs.before &&
	test_expect_code 1 apply bad 6.1.2 >out &&
	grep "^  \[1/2\] 0001-first.patch: applied" out &&
	hunk=$(grep -m1 "^@@ " root/kernel-patches/bad/0002-second.patch) &&
	grep -F "  [2/2] 0002-second.patch: does not apply: fs/dax.c, hunk $hunk" out &&
	grep "bad: FAILED, branch topic/bad/6.1.2-2 left as it was" out &&
	kq_git for-each-ref >refs.after &&
	test_cmp refs.before refs.after
'

test_expect_success 'all applies every active topic of the track and skips others' '
	test_expect_code 1 apply all 6.1.2 >out &&
	grep "^good: topic/good/6.1.2-2 at" out &&
	grep "^bad: FAILED" out &&
	! grep newonly out &&
	apply all 6.12.1 >out &&
	grep "^good: topic/good/6.12.1-1_deb12u1 at" out &&
	grep "^newonly: topic/newonly/6.12.1-1_deb12u1 at" out
'

test_expect_success 'the integration merge is the same whoever makes it, dated like its base' '
	kq_git worktree add -q --detach wt12 debian/6.12.1-1_deb12u1 &&
	echo "/* another file */" >>wt12/include/linux/mm_types.h &&
	git -C wt12 commit -q -a -m "mm: a second topic, in another file" &&
	make_topic other "6.12" &&
	git -C wt12 format-patch -q --zero-commit -o "$PWD/root/kernel-patches/other" HEAD~1..HEAD &&
	(cd root/kernel-patches/other && ls *.patch >series) &&
	apply other 6.12.1 >/dev/null &&
	integ() { bash -c ". \"\$1/lib/common.sh\"; kq_lib versions topics trees; integration_commit 6.12.1-1~deb12u1 6.12" _ "$S"; } &&
	a=$(GIT_COMMITTER_NAME=One GIT_COMMITTER_EMAIL=one@example.net GIT_AUTHOR_NAME=One integ) &&
	b=$(GIT_COMMITTER_NAME=Two GIT_COMMITTER_EMAIL=two@example.net GIT_AUTHOR_NAME=Two integ) &&
	test "$a" = "$b" && test "$(kq_git rev-list --parents -1 "$a" | wc -w)" = 3 &&
	test "$(kq_git log -1 --format="%an <%ae>|%cn <%ce>" "$a")" = "vmfault-queue <vmfault-queue@localhost>|vmfault-queue <vmfault-queue@localhost>" &&
	test "$(kq_git log -1 --format=%ad --date=raw "$a")" = "$(kq_git log -1 --format=%ad --date=raw debian/6.12.1-1_deb12u1)"
'

test_expect_success 'the integration merge made by two verbs at once (make runs boot beside scan): both get it, the ref right' '
	a=$(integ) && ref=refs/heads/integration/6.12.1-1_deb12u1 &&
	for i in $(seq 20); do
		(integ >i1.$i 2>e1.$i; echo $? >r1.$i) &
		(integ >i2.$i 2>e2.$i; echo $? >r2.$i) &
		wait || return 1
		for r in 1 2; do
			test "$(cat r$r.$i)" = 0 || { cat e$r.$i; return 1; }
			test "$(cat i$r.$i)" = "$a" || return 1
		done
		test "$(kq_git rev-parse $ref)" = "$a" || return 1
	done
'

test_expect_success 'the summary table shows each topic on each kernel' '
	test_expect_code 1 summary 6.1.2 6.12.1 >out &&
	grep -E "^good +ok \(2 patches\) +ok \(2 patches\)" out &&
	grep -E "^bad +FAIL +skip \(not 6.12\)" out &&
	grep -E "^newonly +skip \(not 6.1\) +ok \(1 patches\)" out
'

test_expect_success 'a topic that does not target the track is refused, exit 2' '
	test_expect_code 2 apply newonly 6.1.2 2>err &&
	grep "topic.tracks: .newonly. does not target track 6.1" err
'

test_expect_success 'a malformed patch file is named, exit 2' '
	echo "garbage" >root/kernel-patches/newonly/0001-*.patch &&
	test_expect_code 2 apply newonly 6.12.1 2>err &&
	grep "0001-fs-keep-the-fault-code-in-a-vm_fault_t.patch: not a git format-patch file" err
'

test_expect_success 'an unknown topic and an unknown kernel are one line each, exit 2' '
	test_expect_code 2 apply nosuch 6.1.2 2>err && test_line_count = 1 err &&
	test_expect_code 2 apply good 7.0.1 2>err && test_line_count = 1 err &&
	grep "unknown kernel version .7.0.1." err
'

test_expect_success 'bench: a stage whose command dies fails the bench, naming it; one that works is timed' '
	test_expect_code 1 env STAGES=apply BENCH_TOPIC=bad bench 6.1.2-2 >out 2>err &&
	grep "^bench: a stage failed: .*apply bad 6.1.2-2 exited 1: " err &&
	grep "^bench: a stage failed: naive_apply exited " err &&
	STAGES=apply BENCH_TOPIC=good KQ_BENCH_RESULTS=$PWD/rows/bench.tsv bench 6.12.1 >out 2>err &&
	grep -E "^apply +[0-9.]+ +[0-9.]+ +[0-9.]+x" out && test_must_be_empty err &&
	# the row is kept as data: date, commit, kernel, cores, yardstick, the row
	sed -n 1p rows/bench.tsv | grep -x "# date	commit	kernel	cores	ref	stage	ours	naive	ratio	note" &&
	grep -E "^[0-9T:-]+Z	[0-9a-f-]+(-dirty)?	6\.12\.1[^	]*	[0-9]+	-	apply	[0-9.]+	[0-9.]+	[0-9.]+x	" rows/bench.tsv
'

# The cold figures are scaled to the slow machine by the mean of the run's
# yardsticks (before and after), never by one of them alone.
test_expect_success 'bench: a cold figure on the slow machine is scaled by the mean of the yardsticks' '
	slow() { awk -v s="$1" -v p="$2" -v t="$3" -v slow=1.16 -v refs="$4" -f "$S/lib/on-slow.awk"; } &&
	slow 2087 3 15 " 0.83 0.88" >out &&
	grep "^15\.7 min on the 1\.16 machine (x1\.357 by the mean yardstick 0\.855 of 2; 15\.3-16\.2 by each alone): OVER 15 min$" out &&
	slow 2087 3 15 "0.88 0.83" >out2 && test_cmp out out2 &&
	slow 2281 3 15 "1.03 1.01" >out &&
	grep "^14\.4 min .* (x1\.137 by the mean yardstick 1\.020 of 2; 14\.3-14\.6 by each alone): within 15 min$" out &&
	slow 3000 1 60 "0.90" >out &&
	grep "^64\.4 min .* OVER 60 min$" out &&
	test_expect_code 1 slow 3000 1 60 "" >out && grep "^no yardstick$" out
'

test_done
