#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='scan: every kind of vm_fault_t mixing, on a fixture driver in the real 6.12 tree'
# The tree comes from the user's cache (sharness resets HOME); this test
# borrows its objects and writes only into the fixture cache next to it.
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

FIX=$SHARNESS_TEST_DIRECTORY/fixtures/scan
misc=drivers/misc
# a directory drivers/Makefile lists itself: drivers/hwtracing/ has no
# Makefile
th=drivers/hwtracing/intel_th

# markers FILE: "line kind tools" for every line marked "/* scan: KIND
# TOOLS [fix[@+N]: CODE] */" (a mixing the scan must report; its fix
# replaces that line, or the line N below it).
markers() {
	sed -n 's|^\([0-9]*\):.*/\* scan: \([a-z-]*\) \([a-z,]*\)\( fix\(@+[0-9]*\)\{0,1\}: .*\)\{0,1\} \*/$|\1 \2 \3|p' \
		<(grep -n "/\* scan: " "$1")
}

# fixed FILE LINE: FILE with the fix of the mark on LINE applied.
fixed() {
	local code indent at=$2
	code=$(sed -n "$2p" "$1")
	case $code in
	*"fix@+"*) code=${code##*fix@+}; at=$(($2 + ${code%%:*})); code=${code#*: } ;;
	*) code=${code##*fix: } ;;
	esac
	code=${code% \*/}
	indent=$(sed -n "${at}p" "$1"); indent=${indent%%[![:space:]]*}
	awk -v n="$at" -v c="$indent$code" 'NR == n { print c; next } { print }' "$1"
}

# make_mutants DIR: for every marked line of every fixture file, a copy of
# the file (vmf_mut_<file>_<line>.c) where that line is replaced by its
# "fix:" code: the mixing removed, nothing else changed.
make_mutants() {
	local f base line code indent
	for f in "$FIX"/vmf_fixture*.c; do
		base=${f##*/vmf_fixture}; base=${base%.c}; base=${base#_}
		grep -n "/\* scan: .* fix\(@+[0-9]*\)\{0,1\}: " "$f" | cut -d: -f1 | while read -r line; do
			fixed "$f" "$line" >"$1/vmf_mut_${base:-main}_$line.c"
		done
	done
	# a marked line of a header: the header under a name of its own (its
	# guard and trace include file renamed with it) and a copy of the file
	# that instantiates it, including the mutant instead
	for f in "$FIX"/vmf_fixture_*.h; do
		base=${f##*/vmf_fixture_}; base=${base%.h}
		grep -n "/\* scan: .* fix\(@+[0-9]*\)\{0,1\}: " "$f" | cut -d: -f1 | while read -r line; do
			fixed "$f" "$line" |
				sed "s/vmf_fixture_$base/vmf_mut_${base}_$line/g; s/_VMF_FIXTURE_${base^^}_H/_VMF_MUT_${base^^}_${line}_H/g" \
				>"$1/vmf_mut_${base}_$line.h" &&
			sed "s/vmf_fixture_$base\.h/vmf_mut_${base}_$line.h/" "$FIX/vmf_fixture_$base.c" >"$1/vmf_hmut_${base}_$line.c"
		done
	done
}

# A topic that adds the fixture files and their mutants to drivers/misc
# and builds all but the unbuilt ones.
make_fixture_topic() {
	local tag=$1 d=$PWD/data g=$PWD/patchgen
	mkdir -p "$d/branches" "$d/kernel-patches/scan-fixture" "$d/cover-letters" "$g/$misc"
	mkdir -p "$g/arch/arm64/mm" "$g/$th" &&
	git init -q "$g" &&
	kq_git show "$tag:$misc/Makefile" >"$g/$misc/Makefile" &&
	kq_git show "$tag:arch/arm64/mm/Makefile" >"$g/arch/arm64/mm/Makefile" &&
	kq_git show "$tag:$th/Makefile" >"$g/$th/Makefile" &&
	git -C "$g" add . &&
	git -C "$g" -c user.name=T -c user.email=t@example.org commit -qm base &&
	cp "$FIX"/vmf_fixture*.[ch] "$g/$misc/" &&
	make_mutants "$g/$misc" &&
	cp "$FIX/arm64/vmf_fixture_arm64.c" "$g/arch/arm64/mm/" &&
	printf "obj-y\t\t\t\t+= vmf_fixture_arm64.o\n" >>"$g/arch/arm64/mm/Makefile" &&
	cp "$FIX/intel_th/vmf_fixture_th.c" "$g/$th/" &&
	printf "obj-m\t\t\t\t+= vmf_fixture_th.o\n" >>"$g/$th/Makefile" &&
	(cd "$g/$misc" && ls vmf_fixture.c vmf_fixture_many.c vmf_fixture_unchecked.c vmf_fixture_unparsed.c vmf_fixture_trace.c vmf_fixture_gen.c vmf_mut_*.c vmf_hmut_*.c) | grep -v unbuilt |
		sed 's/\.c$/.o/' | paste -sd' ' | sed 's/^/obj-m\t\t\t\t+= /' >>"$g/$misc/Makefile" &&
	# vmf_fixture_gen.c and its mutants include a header the build writes
	{ (cd "$g/$misc" && ls vmf_fixture_gen.c vmf_mut_gen_*.c) | sed "s|^|\$(obj)/|; s|\.c$|.o|" | paste -sd" " |
		sed "s|\$|: \$(obj)/vmf_fixture_gen_code.h|"
	  printf "\$(obj)/vmf_fixture_gen_code.h:\n\t\$(Q)echo \"#define VMF_FIXTURE_GEN_CODE VM_FAULT_SIGBUS\" >\$@\n"
	} >>"$g/$misc/Makefile" &&
	(cd "$g/$misc" && ls vmf_fixture*.c vmf_mut_*.c vmf_hmut_*.c) | sed "s|^|$misc/|" >"$d/fixture-files" &&
	(cd "$g/$misc" && ls vmf_mut_*) >"$d/fixture-mutants" &&
	git -C "$g" add . &&
	git -C "$g" -c user.name=T -c user.email=t@example.org commit -qm "misc: add the scanner fixture" &&
	git -C "$g" format-patch -q -1 -o "$d/kernel-patches/scan-fixture" &&
	(cd "$d/kernel-patches/scan-fixture" && ls -- *.patch >series) &&
	echo "Fixture." >"$d/cover-letters/scan-fixture.txt" &&
	cat >"$d/branches/scan-fixture.conf" <<-EOC
	[topic]
		name = scan-fixture
		prefix = misc
		state = active
		tracks = 6.12
		patches = kernel-patches/scan-fixture
		cover = cover-letters/scan-fixture.txt
		description = scanner fixture
	EOC
}

# The record read through records.py, one line per element, fields "|"-joined
# (lists comma-joined): findings.txt "file|line|kind|tools|seen_on|owner|
# topic|message", unchecked.txt "file|tool|reason", workarounds.txt
# "file|checker_flags|why".  finding FILE LINE: that site's line.
finding() { grep "^$1|$2|" findings.txt; }
# field N: the Nth field of the lines on stdin.
field() { cut -d"|" -f"$1"; }

test_expect_success 'setup: the real 6.12 tree in a private cache, and the fixture topic' '
	v=$(KQ_CACHE=$REAL_CACHE kernels --newest 6.12) && echo "$v" >version &&
	KQ_CACHE=$REAL_CACHE kernel-tree "$v" >/dev/null &&
	tag=debian/$(sed "s/~/_/" version) &&
	use_fixture_cache "$REAL_CACHE" "$tag" &&
	make_fixture_topic "$tag" &&
	KQ_ROOT=$PWD/data topics scan-fixture
'

test_expect_success 'scan --apply all finds the fixture mixings and fails' '
	export KQ_ROOT=$PWD/data &&
	n=$(($(wc -l <data/fixture-files) + 5)) &&
	test_expect_code 1 scan --apply all \
		$(sed "s/^/--only /" data/fixture-files) --only arch/x86/kernel/cpu/sgx/virt.c \
		--only drivers/gpu/drm/amd/amdkfd/kfd_migrate.c \
		--only $th/vmf_fixture_th.c \
		--arch arm64 --only arch/arm64/mm/vmf_fixture_arm64.c --only arch/loongarch/kernel/vdso.c \
		"$(cat version)" >table 2>log &&
	cp "$KQ_RESULTS/$(cat version)/scan-all.only.json" scan.json &&
	python3 "$S/lib/records.py" validate scan.json &&
	rows scan.json findings file line kind tools seen_on owner topic message >findings.txt &&
	rows scan.json unchecked file tool reason >unchecked.txt &&
	rows scan.json workarounds file checker_flags why >workarounds.txt &&
	test -s findings.txt && test -s unchecked.txt &&
	grep "^$(cat version) \[all\]: $n files, " table
'

test_expect_success 'every marked line is found, with its kind and the tools that must see it' '
	n=0 &&
	for f in "$FIX"/vmf_fixture*.[ch]; do
		markers "$f" >marks && test_line_count = "$(grep -c "/\* scan: " "$f")" marks &&
		while read -r line kind tools; do
			rec=$(finding "$misc/${f##*/}" "$line") || { echo "missing: ${f##*/}:$line $kind"; return 1; }
			test "$(echo "$rec" | field 3)" = "$kind" ||
				{ echo "wrong kind at ${f##*/}:$line: $rec"; return 1; }
			want=$(echo "$tools" | tr , "\n" | sort | paste -sd,) &&
			got=$(echo "$rec" | field 4 | tr , "\n" | sort | paste -sd,) &&
			test "$want" = "$got" || { echo "${f##*/}:$line seen by $got, want $want"; return 1; }
		done <marks || return 1
		n=$((n + $(wc -l <marks)))
	done &&
	test "$n" -ge 19
'

test_expect_success 'VM_FAULT_* constants are seen by spatch in every position' '
	grep -n "VM_FAULT_.*/\* scan: " "$FIX/vmf_fixture.c" | sed "s|/\* scan: .*||" >const-lines &&
	for kind in fault-in-int fault-return argument compare; do
		markers "$FIX/vmf_fixture.c" | awk -v k="$kind" "\$2 == k { print \$1 }" >k-lines &&
		{ grep -f <(sed "s/^/^/; s/$/:/" k-lines) const-lines >k-const || :; } &&
		test -s k-const || { echo "the fixture has no VM_FAULT_ constant case of $kind"; return 1; }
		while IFS=: read -r line code; do
			finding $misc/vmf_fixture.c "$line" | field 4 | grep -w spatch >/dev/null ||
				{ echo "spatch misses the constant at vmf_fixture.c:$line:$code"; return 1; }
		done <k-const || return 1
	done
'

# The rules know a file's integer functions by name (a set in spatch's
# Python, emptied at each file's first function): one spatch process reads
# many files, and a name that is an int function in one is a vm_fault_t
# function in another.
test_expect_success 'an integer function is its own file'"'"'s: spatch reading other files first neither carries nor loses it' '
	mkdir scope &&
	cat >scope/int.c <<-\EOF &&
	static int scope_helper(void)
	{
		return -ENOMEM;
	}

	static vm_fault_t scope_fault(struct vm_fault *vmf)
	{
		vm_fault_t ret;

		ret = scope_helper();
		if (ret)
			return ret;
		return scope_helper();
	}
	EOF
	sed "s/static int scope_helper/static vm_fault_t scope_helper/; s/-ENOMEM/VM_FAULT_OOM/" scope/int.c >scope/fault.c &&
	printf "static int other(void)\n{\n\treturn 0;\n}\n" >scope/other.c &&
	sed -e "s/\"FAULT_FNS\"/\"^(scope_fault)\$\"/" -e "s/\"FAULT_OPS\"/\"^(fault)\$\"/" "$S/vm_fault_t.cocci" >scope/rules.cocci &&
	for order in "int fault other" "fault int other" "other fault int" "int other fault"; do
		for f in $order; do printf "scope/%s.c\n\n" "$f"; done >scope/groups &&
		spatch --sp-file scope/rules.cocci -D report --very-quiet --no-includes --jobs 1 \
			--file-groups scope/groups >scope/out 2>scope/err &&
		sort scope/out >scope/got &&
		printf "%s\n" "scope/int.c|10|int-in-fault|vm_fault_t ret assigned an integer" \
			"scope/int.c|13|errno-return|scope_fault() returns vm_fault_t but returns an integer" >scope/want &&
		test_cmp scope/want scope/got || { echo "files read in the order: $order"; return 1; }
	done
'

test_expect_success 'mutation: fixing one marked line removes exactly that finding' '
	sites() { awk -F"|" -v f="$misc/$1" "\$1 == f { print \$2, \$3 }" findings.txt | sort; } &&
	m=0 &&
	for mut in $(cat data/fixture-mutants); do
		line=${mut##*_}; line=${line%.[ch]} ext=${mut##*.} base=${mut#vmf_mut_}; base=${base%_*} &&
		case $base in main) orig=vmf_fixture.$ext ;; *) orig=vmf_fixture_$base.$ext ;; esac &&
		{ sites "$orig" | grep -v "^$line " >want || :; } &&
		sites "$mut" >got &&
		test_line_count = $(($(sites "$orig" | wc -l) - 1)) want &&
		{ test_cmp want got || { echo "fixing $orig:$line did not remove exactly that finding"; return 1; }; } &&
		m=$((m + 1)) || return 1
	done &&
	test "$m" -ge 20 && grep -q "^vmf_mut_trace_[0-9]*\.h$" data/fixture-mutants
'

test_expect_success 'the amdkfd fault handler keeping VM_FAULT_SIGBUS in an int is found by both tools' '
	kfd=drivers/gpu/drm/amd/amdkfd/kfd_migrate.c &&
	grep "^$kfd|[0-9]*|fault-in-int|" findings.txt | field 4 | tr , "\n" | sort | paste -sd, | grep -x sparse,spatch &&
	grep -F "$kfd|-U__linux__|amdgv_sriovmsg.h" workarounds.txt &&
	! grep -F "$kfd|" unchecked.txt &&
	grep -x "  $kfd: CF=-U__linux__" table
'

# kbuild reaches drivers/hwtracing/intel_th/ straight from drivers/Makefile:
# the map of sources to objects must ask for that directory, not stop at
# drivers/hwtracing/, which kbuild never enters (its files were "not built
# by allmodconfig" and sparse never read them).
test_expect_success 'a file in a directory its grandparent'"'"'s Makefile lists is built, and checked by sparse' '
	f=$th/vmf_fixture_th.c &&
	! grep "^$f|sparse|" unchecked.txt &&
	markers "$FIX/intel_th/vmf_fixture_th.c" >marks && test_line_count = 2 marks &&
	while read -r line kind tools; do
		finding $f "$line" | awk -F"|" -v k="$kind" "\$3 == k && \$4 ~ /sparse/ && \$4 ~ /spatch/ && \$5 == \"x86_64\"" |
			grep . || { echo "$f:$line: $(finding $f "$line" || echo "no finding")"; return 1; }
	done <marks &&
	cut -d" " -f1 marks >want && awk -F"|" -v f="$f" "\$1 == f { print \$2 }" findings.txt | sort -n >got &&
	test_cmp want got
'

test_expect_success 'a file only arm64 builds is checked by the arm64 sparse pass, and says so' '
	f=arch/arm64/mm/vmf_fixture_arm64.c &&
	line=$(markers "$FIX/arm64/vmf_fixture_arm64.c" | cut -d" " -f1) &&
	finding $f "$line" | awk -F"|" "\$3 == \"fault-in-int\" && \$5 == \"arm64\" && index(\$8, \"incorrect type in initializer\") == 1" |
		field 4 | tr , "\n" | sort | paste -sd, | grep -x sparse,spatch &&
	test "$(grep -c "^$f|" findings.txt)" = 1 &&
	! grep -F "$f|" unchecked.txt &&
	python3 "$S/lib/records.py" get scan.json configs >configs &&
	printf "x86_64 allmodconfig\narm64 allmodconfig\n" >configs.want && test_cmp configs.want configs &&
	test "$(finding $misc/vmf_fixture.c "$(markers "$FIX/vmf_fixture.c" | sed -n "1s/ .*//p")" | field 5)" = x86_64 &&
	grep -E "^$f:$line +fault-in-int +spatch,sparse +scan-fixture +ARM64 PORT .* arm64$" table
'

test_expect_success 'a file no Debian compiler builds is unchecked, with the reason per architecture' '
	grep -Fx "arch/loongarch/kernel/vdso.c|sparse|x86_64: not built by allmodconfig; loongarch: no cross compiler in Debian bookworm" unchecked.txt
'

test_expect_success 'correct code is not reported: no finding off the marked lines' '
	for f in "$FIX"/vmf_fixture*.[ch]; do
		grep -n "/\* scan: " "$f" | cut -d: -f1 | sed "s|^|$misc/${f##*/}:|"
	done | sort >want &&
	awk -F"|" -v m="$misc/vmf_fixture" "index(\$1, m) == 1 { print \$1 \":\" \$2 }" findings.txt | sort >got &&
	test_cmp want got
'

test_expect_success 'a file sparse cannot parse is unchecked with sparse'"'"'s reason, not clean' '
	grep -F "$misc/vmf_fixture_unchecked.c|sparse|x86_64, arm64: sparse error: $misc/vmf_fixture_unchecked.c:10: " unchecked.txt &&
	grep "^$misc/vmf_fixture_unchecked.c|sparse|.*vmf_fixture_unchecked cannot be checked by sparse" unchecked.txt
'

test_expect_success 'fault code in a function spatch cannot parse is named and fails the scan; the guards it is taught parse' '
	grep -E "^$misc/vmf_fixture_unparsed.c\|spatch\|spatch could not parse the function around line 21, which holds fault code" unchecked.txt &&
	grep -E "^could not judge [0-9]+ files: a tool failed on them: .*$misc/vmf_fixture_unparsed.c" table &&
	! grep -F "$misc/vmf_fixture.c|spatch|" unchecked.txt &&
	finding $misc/vmf_fixture.c "$(grep -n "^	return (unsigned int)ret; .*scan: cast" "$FIX/vmf_fixture.c" | sed -n 2p | cut -d: -f1)" | field 4 | grep -x "spatch,sparse"
'

test_expect_success 'a file sparse fails on fails the scan even with no finding: could not judge, not clean' '
	m=$(sed -n "s|^\($misc/vmf_mut_unchecked_[0-9]*\.c\)$|\1|p" data/fixture-files | sed -n 1p) &&
	test -n "$m" &&
	test_expect_code 1 scan --apply all --only "$m" "$(cat version)" >one 2>one.err &&
	grep "\[all\]: 1 files, 0 findings, 0 uncovered, 1 unchecked" one &&
	grep -x "could not judge 1 files: a tool failed on them: $m" one &&
	grep -E "^could not judge [0-9]+ files: a tool failed on them: .*$misc/vmf_fixture_unchecked.c" table
'

test_expect_success 'a sparse pass and a spatch run of the same commit, tools and files are kept, not rerun; another sparse or spatch, or KQ_SCAN_FRESH=1, reruns them' '
	m=$(sed -n "s|^\($misc/vmf_mut_unchecked_[0-9]*\.c\)$|\1|p" data/fixture-files | sed -n 1p) &&
	test_expect_code 1 scan --apply all --only "$m" "$(cat version)" >again 2>again.err &&
	grep "x86_64: sparse pass kept from " again.err &&
	! grep "x86_64: sparse done" again.err &&
	grep "\]: spatch kept from " again.err && ! grep "\]: spatch done" again.err &&
	test_cmp one again &&
	test_expect_code 1 env KQ_SCAN_FRESH=1 scan --apply all --only "$m" "$(cat version)" >fresh 2>fresh.err &&
	grep "x86_64: sparse done" fresh.err && grep "\]: spatch done" fresh.err && ! grep "kept from" fresh.err &&
	test_cmp one fresh &&
	# a spatch that says it is another version is another tool: both rerun
	mkdir -p other-spatch &&
	printf "#!/bin/sh\n[ \"\$1\" = --version ] && { echo spatch version 0.0-other; exit 0; }\nexec %s \"\$@\"\n" "$(command -v spatch)" >other-spatch/spatch &&
	chmod +x other-spatch/spatch &&
	test_expect_code 1 env PATH="$PWD/other-spatch:$PATH" scan --apply all --only "$m" "$(cat version)" >osp 2>osp.err &&
	grep "\]: spatch done" osp.err && ! grep "kept from" osp.err &&
	test_cmp one osp &&
	# a sparse that says it is another version is another tool
	mkdir -p other-sparse &&
	printf "#!/bin/sh\n[ \"\$1\" = --version ] && { echo v0.0-other; exit 0; }\nexec %s \"\$@\"\n" "$(command -v sparse)" >other-sparse/sparse &&
	chmod +x other-sparse/sparse &&
	test_expect_code 1 env PATH="$PWD/other-sparse:$PATH" scan --apply all --only "$m" "$(cat version)" >other 2>other.err &&
	grep "x86_64: sparse done" other.err && ! grep "kept from" other.err
'

# spatch runs beside the sparse pass, in the background: its failure must
# still fail the scan, with its reason, and leave the last record as it was.
test_expect_success 'a spatch that fails beside the sparse pass fails the scan with its reason; the last record stays, no spatch is left running' '
	m=$(sed -n "s|^\($misc/vmf_mut_unchecked_[0-9]*\.c\)$|\1|p" data/fixture-files | sed -n 1p) &&
	rec="$KQ_RESULTS/$(cat version)/scan-all.only.json" &&
	cp "$rec" rec.before &&
	mkdir -p crash-spatch &&
	cat >crash-spatch/spatch <<-EOF &&
	#!/bin/sh
	case " \$* " in
	*" --sp-file "*) echo "Fatal error: kq-crash-test" >&2; exit 3 ;;
	esac
	exec $(command -v spatch) "\$@"
	EOF
	chmod +x crash-spatch/spatch &&
	test_expect_code 1 env PATH="$PWD/crash-spatch:$PATH" KQ_SCAN_FRESH=1 scan --apply all --only "$m" "$(cat version)" >crash 2>crash.err &&
	grep -x "scan: spatch failed: Fatal error: kq-crash-test" crash.err &&
	grep "x86_64: sparse done" crash.err &&
	! grep "files, .* findings" crash &&
	test_cmp rec.before "$rec" &&
	! pgrep -f kq-crash-test
'

test_expect_success 'a scan stopped in its sparse pass stops the spatch running beside it' '
	m=$(sed -n "s|^\($misc/vmf_mut_unchecked_[0-9]*\.c\)$|\1|p" data/fixture-files | sed -n 1p) &&
	mkdir -p kq-slow-spatch &&
	cat >kq-slow-spatch/spatch <<-EOF &&
	#!/bin/sh
	[ "\$1" != --version ] || exec $(command -v spatch) --version
	# (a minute at most: left running, it fails the test, not hangs it)
	i=0; while [ \$i -lt 60 ]; do sleep 1; i=\$((i + 1)); done
	EOF
	chmod +x kq-slow-spatch/spatch &&
	test_expect_code 1 env PATH="$PWD/kq-slow-spatch:$PATH" KQ_SCAN_FRESH=1 KQ_SPARSE=/nonexistent/sparse \
		scan --apply all --only "$m" "$(cat version)" >slow 2>slow.err &&
	grep "no sparse this tree accepts" slow.err &&
	! pgrep -f kq-slow-spatch
'

test_expect_success 'a file including a header only the build makes is checked: built first, not unchecked' '
	grep "^$misc/vmf_fixture_gen.c|" findings.txt &&
	! grep -F "$misc/vmf_fixture_gen.c|" unchecked.txt &&
	h=$KQ_CACHE/scan/$(cat version)/none.build/$misc/vmf_fixture_gen_code.h &&
	rm -f "$h" &&
	test_expect_code 1 env KQ_SCAN_FRESH=1 scan --apply all --only $misc/vmf_fixture_gen.c "$(cat version)" >gen 2>gen.err &&
	grep -E "^$misc/vmf_fixture_gen.c:[0-9]+ +fault-in-int +sparse " gen &&
	! grep "by sparse" gen && test -f "$h"
'

test_expect_success 'the sparse pass compiles nothing: kbuild'"'"'s check command lines, no object file' '
	b=$KQ_CACHE/scan/$(cat version)/none.build &&
	rm -f "$b/$misc/vmf_fixture.o" "$b/$misc/.vmf_fixture.o.cmd" &&
	test_expect_code 1 env KQ_SCAN_FRESH=1 scan --apply all --only $misc/vmf_fixture.c "$(cat version)" >nocc 2>nocc.err &&
	grep "x86_64: sparse done" nocc.err &&
	grep "^$misc/vmf_fixture.c:[0-9]* " nocc >nocc.sites &&
	test "$(grep -c . nocc.sites)" = "$(grep -c "^$misc/vmf_fixture.c|" findings.txt)" &&
	! test -e "$b/$misc/vmf_fixture.o"
'

test_expect_success 'a sparse that dies on a file: unchecked with its exit status, the scan fails' '
	# (kbuild runs CHECK unquoted: a path without spaces, unlike the trash directory)
	dying=$KQ_CACHE/dying-sparse &&
	printf "#!/bin/sh\nfor a; do :; done\ncase \$a in */vmf_fixture.c) echo \"sparse: died\" >&2; exit 3 ;; esac\nexec %s \"\$@\"\n" \
		"$(command -v sparse)" >"$dying" && chmod +x "$dying" &&
	test_expect_code 1 env KQ_SPARSE="$dying" scan --apply all \
		--only $misc/vmf_fixture.c --only $misc/vmf_fixture_trace.c "$(cat version)" >died 2>died.err &&
	grep -Fx "  $misc/vmf_fixture.c: by sparse: x86_64: sparse exited 3 (see scan log)" died &&
	grep -x "could not judge 1 files: a tool failed on them: $misc/vmf_fixture.c" died &&
	! grep -F "$misc/vmf_fixture_trace.c: by sparse" died
'

test_expect_success 'a step of the sparse pass that fails (its log parser) fails the scan; nothing of that pass is kept' '
	mkdir -p shim && cat >shim/awk <<-\EOF &&
	#!/bin/sh
	case "$*" in *sparse-findings.awk*) echo "awk: kq-test: the parser broke" >&2; exit 2 ;; esac
	exec /usr/bin/awk "$@"
	EOF
	chmod +x shim/awk &&
	test_expect_code 1 env PATH="$PWD/shim:$PATH" KQ_SCAN_FRESH=1 scan --apply all --only $misc/vmf_fixture.c \
		"$(cat version)" >out 2>err &&
	grep "scan: sparse pass on x86_64 failed" err &&
	! grep "x86_64: sparse done" err &&
	{ scan --apply all --only $misc/vmf_fixture.c "$(cat version)" >out 2>err || :; } &&
	! grep "sparse pass kept from" err
'

test_expect_success 'a file no Makefile builds is unchecked by sparse, and spatch still reads it' '
	grep -Fx "$misc/vmf_fixture_unbuilt.c|sparse|x86_64, arm64: not built by allmodconfig" unchecked.txt &&
	finding $misc/vmf_fixture_unbuilt.c 12 >/dev/null &&
	! grep -F "$misc/vmf_fixture.c|" unchecked.txt
'

test_expect_success 'findings name the covering topic or uncovered, and the MAINTAINERS owner' '
	test "$(finding $misc/vmf_fixture.c "$(markers "$FIX/vmf_fixture.c" | sed -n "1s/ .*//p")" | field 7)" = scan-fixture &&
	test "$(finding arch/x86/kernel/cpu/sgx/virt.c 59 | field 7)" = uncovered &&
	test "$(finding arch/x86/kernel/cpu/sgx/virt.c 59 | field 6)" = "INTEL SGX" &&
	grep -E "^arch/x86/kernel/cpu/sgx/virt.c:59 +fault-in-int +spatch,sparse +uncovered +INTEL SGX" table
'

test_expect_success 'the table lists what the JSON lists' '
	grep -c . findings.txt >n.json &&
	grep -cE "^[a-z].*\.(c|h):[0-9]+ " table >n.table &&
	test_cmp n.json n.table
'

test_expect_success 'the integration branch is the topic applied to the packaged tree' '
	v=$(cat version) && b=integration/${v//\~/_} &&
	kq_git rev-parse --verify "refs/heads/$b" &&
	kq_git diff --name-only "debian/${v//\~/_}" "$b" >changed &&
	grep -x "$misc/vmf_fixture.c" changed
'

test_expect_success 'both scans use the packaged worktree and its build directories, moved to their commit' '
	v=$(cat version) && top=$KQ_CACHE/scan/$v &&
	test "$(git -C "$top/none" rev-parse HEAD)" = "$(kq_git rev-parse "integration/${v//\~/_}")" &&
	! test -e "$top/all.build" && ! test -e "$top/all.arm64.build" && test -d "$top/none.arm64.build" &&
	kfd=drivers/gpu/drm/amd/amdkfd/kfd_migrate.c &&
	test_expect_code 1 scan --only $kfd "$v" >base.table 2>base.err &&
	test "$(git -C "$top/none" rev-parse HEAD)" = "$(kq_git rev-parse "debian/${v//\~/_}^{commit}")" &&
	git -C "$top/none" diff --quiet HEAD &&
	! test -e "$top/none/$misc/vmf_fixture.c" &&
	grep -E "^$kfd:[0-9]+ +fault-in-int +spatch,sparse " base.table
'

test_expect_success 'bad input: one line naming it, exit 2' '
	test_expect_code 2 scan --apply some "$(cat version)" 2>err && test_line_count = 1 err &&
	grep "some" err &&
	test_expect_code 2 scan --only fs/no-such-file.c "$(cat version)" 2>err && test_line_count = 1 err &&
	grep "no-such-file" err &&
	test_expect_code 2 scan 6.12.99999 2>err && test_line_count = 1 err
'

test_done
