#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='boot: the integration kernel of the real newest 7.3 in QEMU, and each failure mode caught'
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
export KQ_CACHE
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
use_results_copy

need_real_kernel

# The newest track, where maintainers apply.  Its base kernel differs from
# the integration one in a few objects (no topic of it changes a header most
# objects include), so the base rerun's kernel comes from ccache: the cheap
# track for a new machine's cold cache.  6.1 and 6.12 are booted by make and
# the workflow's boot job.
track=7.3

field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

test_expect_success 'the guest init and tests are checkpatch --strict clean (kernel style)' '
	v=$(kernels --newest $track) && kernel-tree "$v" >/dev/null &&
	for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
		kq_git show "refs/tags/debian/$(echo "$v" | tr "~:" "_%"):scripts/$f" >$f || return 1
	done &&
	for f in "$REPO"/ci/guest/*.[ch] "$REPO"/ci/guest/mm-planted/*.c; do
		perl checkpatch.pl --no-tree --strict --quiet -f "$f" >out 2>&1 ||
			{ cat out; return 1; }
	done
'

test_expect_success 'the integration kernel boots and every guest test and KUnit case passes' '
	v=$(kernels --newest $track) && echo "$v" >version &&
	boot "$v" >out 2>err &&
	cat out && cp out out.first &&
	grep -E "^boot $(ere "$v"): PASS in " out &&
	rec=$KQ_RESULTS/$v/boot.json &&
	test "$(field "$rec" "r[\"verdict\"]")" = PASS &&
	test "$(field "$rec" "r[\"qemu_exit\"]")" = 3 &&
	test "$(field "$rec" "r[\"commit\"]")" = "$(kq_git rev-parse "integration/$(echo "$v" | tr "~:" "_%")")"
'

test_expect_success 'each guest program and the KUnit suite reported results by name, all ok' '
	rec=$KQ_RESULTS/$(cat version)/boot.json &&
	python3 - "$rec" <<-\EOP
	import json, sys
	r = json.load(open(sys.argv[1]))
	names = {x["name"]: x["status"] for x in r["results"]}
	want = ["dax.dax_is_on", "dax.read_fault_on_hole", "dax.write_fault_reaches_the_file",
	        "dax.pmd_fault_on_aligned_mapping", "dax.map_sync_write_fault_needs_dsync",
	        "dax.data_survives_remount", "f2fs.read_fault_reads_the_page_in",
	        "f2fs.write_fault_runs_page_mkwrite", "f2fs.write_fault_after_shutdown_is_sigbus",
	        "gfs2.write_fault_on_full_fs_is_sigbus", "vfio.edu_bar0_mmap_faults_through_vfio_pci",
	        "vm_fault_errno.vmf_error_enomem_is_oom", "vm_fault_errno.vmf_fs_error_success_is_locked",
	        "vm_fault_errno.vm_fault_to_errno_maps_back"]
	missing = [n for n in want if n not in names]
	assert not missing, missing
	# the mm selftests have a test of their own below
	bad = {n: s for n, s in names.items() if s != "ok" and not n.startswith("mm.")}
	assert not bad, bad
	EOP
'

test_expect_success 'the kernel'"'"'s mm selftests ran in that boot: every listed program, results by name, none failing only with the topics' '
	rec=$KQ_RESULTS/$(cat version)/boot.json &&
	python3 - "$rec" "$REPO/ci/mm-selftests-$track.list" <<-\EOP
	import json, sys
	r = json.load(open(sys.argv[1]))
	mm = {x["name"]: x["status"] for x in r["results"] if x["name"].startswith("mm.")}
	runs = [l.split(None, 1)[1].strip() for l in open(sys.argv[2]) if l.startswith("run ")]
	missing = [p for p in runs if "mm." + p not in mm]
	assert not missing, "no result for %s" % missing
	# what fails on the packaged kernel too is shown, not held against the topics
	bad = {n: s for n, s in mm.items() if s == "fail"}
	assert not bad, bad
	assert r["verdict"] == "PASS", r["reasons"]
	ok = [n for n, s in mm.items() if s == "ok"]
	assert len(ok) >= 50, len(ok)
	# device-private pages of test_hmm fault back through migrate_to_ram
	assert [n for n in ok if n.startswith("mm.hmm-tests") and ".hmm_device_private.migrate" in n], "no hmm migration passed"
	EOP
'

test_expect_success 'the console is kept, and topics that cannot run here say why' '
	v=$(cat version) &&
	grep "kq-init: verdict PASS" "$KQ_RESULTS/$v/boot.console.log" &&
	grep -E "^  x86-sgx +build-only +SGX enclaves need SGX hardware" out &&
	grep -E "^  amdkfd +build-only +.*AMD GPU" out &&
	grep -E "^  fsdax +booted +guest tests: dax" out
'

# KQ_BOOT_MM=0: the same kernel (kept: no build) without the mm selftests.
test_expect_success 'KQ_BOOT_MM=0 boots the same kernel without the mm selftests, and says so' '
	KQ_BOOT_MM=0 boot "$(cat version)" >out0 2>err0 &&
	cat out0 &&
	grep -E "^boot $(ere "$(cat version)"): PASS in " out0 &&
	grep -E "^boot $(ere "$(cat version)"): bzImage of this commit and config kept from the last build" out0 &&
	grep -E "^  ok +vm_fault_errno\." out0 &&
	{ grep -E "^  (fail|skip) " out0 >bad0 || :; } &&
	test_line_count = 0 bad0 &&
	grep "^boot $(cat version): the kernel.s mm selftests are not run (KQ_BOOT_MM=0)$" out0 &&
	! grep -E "^  [a-z]+ +mm\." out0
'

test_expect_success 'a guest that panics fails the verdict' '
	test_expect_code 1 boot --selftest crash "$(cat version)" >out 2>err &&
	cat out &&
	grep -E ": FAIL in .*QEMU exited without a verdict" out &&
	grep -E "console: .*Kernel panic" out
'

test_expect_success 'with every guest slot taken (one per core), a boot waits, then boots when one is free' '
	mkdir -p slots && rm -f release &&
	n=$(nproc) && : >held &&
	for i in $(seq $n); do
		(exec 7>"slots/slot.$i"; flock 7; echo $i >>held
		 for k in $(seq 3000); do [ -e release ] && break; sleep 0.2; done) &
	done &&
	for i in $(seq 50); do [ "$(wc -l <held)" = $n ] && break; sleep 0.1; done &&
	test "$(wc -l <held)" = $n || return 1
	# (a statement of its own: an & ending an && list sends the whole list)
	(KQ_GUEST_SLOTS="$PWD/slots" boot --selftest crash "$(cat version)" >out 2>err; echo $? >rc) &
	# the slots are given back once the boot says it waits (or after 5 min)
	for i in $(seq 1500); do grep -q "waiting for a guest slot" out 2>/dev/null && break; sleep 0.2; done &&
	sleep 2 && ! grep -q ": booting under " out &&
	touch release && wait &&
	test "$(cat rc)" = 1 &&
	w=$(grep -n "waiting for a guest slot: $n guests already run here" out | cut -d: -f1) &&
	f=$(grep -n "a guest slot is free after [0-9]*s" out | cut -d: -f1) &&
	b=$(grep -n ": booting under " out | cut -d: -f1) &&
	test "$w" -lt "$f" && test "$f" -lt "$b" &&
	grep -E ": FAIL in .*QEMU exited without a verdict" out
'

test_expect_success 'a guest that WARNs fails the verdict even though its tests pass' '
	test_expect_code 1 boot --selftest warn "$(cat version)" >out 2>err &&
	cat out &&
	grep -E ": FAIL in .*console: .*(WARNING|cut here)" out &&
	test "$(field "$KQ_RESULTS/$(cat version)/boot-warn.json" "r[\"qemu_exit\"]")" = 3
'

test_expect_success 'a failing guest test fails the verdict and is named' '
	test_expect_code 1 boot --selftest fail "$(cat version)" >out 2>err &&
	cat out &&
	grep -E "^  fail +fail\.deliberately_fails" out &&
	grep -E ": FAIL in .*1 TAP/KTAP results not ok" out
'

test_expect_success 'a guest that hangs is killed by the host timeout' '
	test_expect_code 1 boot --selftest hang --timeout 20 "$(cat version)" >out 2>err &&
	cat out &&
	grep -E ": FAIL in .*timeout: no verdict after 20s" out
'

test_expect_success 'an mm selftest failing only with the topics fails the verdict, named; one failing on the base kernel too is shown as such' '
	test_expect_code 1 boot --selftest mm "$(cat version)" >out 2>err &&
	cat out &&
	grep -E ": FAIL in .*mm selftests that fail only with the topics \(the base kernel passes them\): mm\.kq-mm-regress\.fails_with_the_topics" out &&
	grep -E "^boot $(ere "$(cat version)"): base kernel: 2 of them fail there too" out &&
	# the base kernel was built in the integration build directory: kbuild
	# compiled what the topics change and what depends on it (174 compiles
	# for 1021 objects on 7.3.4), not a whole kernel (a base run kept from
	# an earlier run of this cache builds nothing)
	B=$KQ_CACHE/boot/$(cat version)/build &&
	if grep -q "base kernel built" out; then
		nobj=$(find "$B" -name "*.o" | wc -l) &&
		{ sed -n "s/^boot $(cat version): base kernel built in the integration build directory (.*; \([0-9]*\) of \([0-9]*\) compiles from ccache)$/\2/p" out >n || :; } &&
		{ test -s n || grep -q "^boot $(cat version): base kernel built in the integration build directory (.*; nothing compiled)$" out; } &&
		echo "base build compiled $(cat n) of $nobj objects" &&
		test $(( $(cat n 2>/dev/null || echo 0) * 3 )) -lt "$nobj" &&
		grep -q "^boot $(cat version): integration kernel built again (" out
	fi &&
	# the integration worktree, build directory and stamp are back: the next
	# boot keeps the bzImage, and no mirrored base directory is left
	test "$(git -C "$KQ_CACHE/scan/$(cat version)/all" rev-parse HEAD)" = \
		"$(kq_git rev-parse "integration/$(tr "~:" "_%" <version)")" &&
	test ! -e "$KQ_CACHE/base/boot/$(cat version)" &&
	rec=$KQ_RESULTS/$(cat version)/boot-mm.json &&
	python3 "$S/lib/records.py" get "$rec" "results.*.status" >st &&
	python3 "$S/lib/records.py" get "$rec" "results.*.name" >nm &&
	paste -d" " st nm | grep "^[a-z-]* mm\.kq-mm" | sort >got &&
	printf "%s\n" "fail mm.kq-mm-regress.fails_with_the_topics" "fail mm.kq-mm-regress" \
		"fails-on-base mm.kq-mm-broken.fails_everywhere" "fails-on-base mm.kq-mm-broken" \
		"ok mm.kq-mm-broken.passes_everywhere" \
		"ok mm.kq-mm-layout.heap_follows_program" "ok mm.kq-mm-layout" | sort >want &&
	test_cmp want got &&
	grep -q "kq-init: mode mm" "$KQ_RESULTS/$(cat version)/boot-mm.base.console.log" &&
	# again: the base run is kept, with its console where the record says
	rm "$KQ_RESULTS/$(cat version)/boot-mm.base.console.log" &&
	test_expect_code 1 boot --selftest mm "$(cat version)" >out2 2>err2 &&
	grep -E "^boot $(ere "$(cat version)"): bzImage of this commit and config kept from the last build" out2 &&
	grep -E "^boot $(ere "$(cat version)"): [0-9]+ mm selftest results failed; the base kernel.s run of the same programs is kept" out2 &&
	grep -E ": FAIL in .*the base kernel passes them\): mm\.kq-mm-regress\.fails_with_the_topics" out2 &&
	grep -q "kq-init: mode mm" "$KQ_RESULTS/$(cat version)/boot-mm.base.console.log"
'

# A new machine judges 6.x's mm failures without building the base kernel
# when the repository carries the base run of exactly the same inputs.
test_expect_success 'a base run carried in the repository (ci/base-runs) judges the same failures without building the base kernel; KQ_BASE_RUN=fresh builds it anyway' '
	v=$(cat version) && kept=$KQ_CACHE/boot/$v/base-runs &&
	mkdir carry && cp -r "$REPO/branches" "$REPO/kernel-patches" "$REPO/cover-letters" "$REPO/ci" carry/ &&
	rm -rf carry/ci/base-runs &&
	KQ_ROOT=$PWD/carry base-runs save --selftest mm "$v" >saved &&
	cat saved &&
	read -r key _ <"$KQ_RESULTS/$v/boot-mm.base-run" &&
	test_cmp "$kept/$key.failed" "carry/ci/base-runs/$key.failed" &&
	grep -q "kq-init: mode mm" "carry/ci/base-runs/$key.console" &&
	grep -qxF "kernel $v" "carry/ci/base-runs/$key.about" &&
	KQ_ROOT=$PWD/carry base-runs list >list && cat list &&
	grep -E "^${key:0:12} +$(ere "$v") +mm " list &&
	# this cache keeps no run of it: the carried one judges, nothing is built
	mv "$kept" kept.aside &&
	test_when_finished "mkdir -p \"$kept\" && cp -n kept.aside/* \"$kept/\"" &&
	test_expect_code 1 env KQ_ROOT="$PWD/carry" boot --selftest mm "$v" >out 2>err &&
	cat out &&
	grep -E "^boot $(ere "$v"): [0-9]+ mm selftest results failed; the base kernel.s run of the same programs is carried in ci/base-runs/${key:0:12}" out &&
	! grep "base kernel built in" out &&
	grep -E ": FAIL in .*the base kernel passes them\): mm\.kq-mm-regress\.fails_with_the_topics" out &&
	grep -E "^  fails-on-base mm\.kq-mm-broken\.fails_everywhere$" out &&
	grep -q "kq-init: mode mm" "$KQ_RESULTS/$v/boot-mm.base.console.log" &&
	# KQ_BASE_RUN=fresh: built and booted again, carried or not
	test_expect_code 1 env KQ_ROOT="$PWD/carry" KQ_BASE_RUN=fresh boot --selftest mm "$v" >out2 2>err2 &&
	cat out2 &&
	grep -E "^boot $(ere "$v"): base kernel built in the integration build directory" out2 &&
	grep -E ": FAIL in .*the base kernel passes them\): mm\.kq-mm-regress\.fails_with_the_topics" out2 &&
	grep -E "^  fails-on-base mm\.kq-mm-broken\.fails_everywhere$" out2 &&
	# a carried .failed that its own console does not give (here: edited to
	# excuse the regression) is not used: the base kernel judges
	rm -rf "$kept" && cp "carry/ci/base-runs/$key.failed" failed.carried &&
	echo "mm.kq-mm-regress.fails_with_the_topics" >>"carry/ci/base-runs/$key.failed" &&
	test_expect_code 1 env KQ_ROOT="$PWD/carry" boot --selftest mm "$v" >out4 2>err4 &&
	cat out4 &&
	grep -E "^boot $(ere "$v"): the base kernel.s run ${key:0:12}.* is not what its console says .*: not used$" out4 &&
	grep -E ": FAIL in .*the base kernel passes them\): mm\.kq-mm-regress\.fails_with_the_topics" out4 &&
	cp failed.carried "carry/ci/base-runs/$key.failed" &&
	# the guest init decides how the programs run (sysctls, huge pages,
	# mounts): another init is another key, kept and carried runs unused
	sed -i "s/say(\"mode %s\", mode)/say(\"mode %s (changed)\", mode)/" carry/ci/guest/init.c && ! cmp -s carry/ci/guest/init.c "$REPO/ci/guest/init.c" &&
	test_expect_code 1 env KQ_ROOT="$PWD/carry" boot --selftest mm "$v" >out3 2>err3 &&
	cat out3 &&
	grep -E "^boot $(ere "$v"): [0-9]+ mm selftest results failed: the same programs on the base kernel" out3 &&
	grep -E "^  fails-on-base mm\.kq-mm-broken\.fails_everywhere$" out3
'

test_expect_success 'base-runs: bad input is one line and exit 2, nothing written' '
	ls -l carry/ci/base-runs >before &&
	test_expect_code 2 base-runs save 6.12.0-nosuch 2>err && test_line_count = 1 err &&
	test_expect_code 2 base-runs save --selftest crash "$(cat version)" 2>err && test_line_count = 1 err &&
	test_expect_code 2 base-runs explode 2>err && test_line_count = 1 err &&
	test_expect_code 2 env KQ_RESULTS="$PWD/no-results" KQ_ROOT="$PWD/carry" base-runs save "$(cat version)" 2>err &&
	test_line_count = 1 err && grep "no base run" err &&
	ls -l carry/ci/base-runs >after && test_cmp before after
'

test_expect_success 'a hang inside an mm selftest is caught by the watchdog, which names it' '
	test_expect_code 1 boot --selftest mm-hang --timeout 30 "$(cat version)" >out 2>err &&
	cat out &&
	grep -E ": FAIL in .*timeout: no verdict after 30s, QEMU killed while /mm/kq-mm-hang was running" out &&
	grep -E "^  fail +mm\.kq-mm-hang$" out
'

test_expect_success 'a config symbol that does not stick fails the build, naming it' '
	mkdir data && cp -r "$REPO/branches" "$REPO/kernel-patches" "$REPO/cover-letters" "$REPO/ci" data/ &&
	echo CONFIG_KQ_NO_SUCH_SYMBOL=y >>data/ci/boot.config &&
	test_expect_code 1 env KQ_ROOT="$PWD/data" boot "$(cat version)" >out 2>err &&
	test_line_count = 1 err &&
	grep "config symbols that did not stick after olddefconfig: CONFIG_KQ_NO_SUCH_SYMBOL=y (got: not in Kconfig)" err
'

test_expect_success 'bad input: one line, exit 2' '
	test_expect_code 2 boot --selftest explode "$(cat version)" 2>err &&
	test_line_count = 1 err && grep "unknown mode .explode." err &&
	test_expect_code 2 boot 6.12.0-nosuch 2>err &&
	test_line_count = 1 err &&
	test_expect_code 2 env KQ_BASE_RUN=yes boot "$(cat version)" 2>err &&
	test_line_count = 1 err && grep "KQ_BASE_RUN: .yes. is not .fresh." err
'

test_expect_success 'every boot record this script wrote fits the schema' '
	records_written >recs && test "$(grep -c "/boot[-a-z]*\.json$" recs)" -ge 7 &&
	validate_listed recs
'

test_done
