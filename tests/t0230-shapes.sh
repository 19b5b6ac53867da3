#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='scan: every generated shape of vm_fault_t mixing is found, by the tools that can see it, on the real 7.3 tree; no correct form is reported'
# The tree comes from the user's cache (sharness resets HOME); this test
# borrows its objects and writes only into the fixture cache next to it.
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

GEN=$SHARNESS_TEST_DIRECTORY/gen-shapes
misc=drivers/misc
track=7.3

# shape_topic NAME REPO: a topic NAME, the last commit of REPO.
shape_topic() {
	local name=$1 d=$PWD/data g=$PWD/$2
	mkdir -p "$d/branches" "$d/kernel-patches/$name" "$d/cover-letters" &&
	git -C "$g" add -A &&
	git -C "$g" -c user.name=T -c user.email=t@example.org commit -qm "misc: add the generated shapes" &&
	git -C "$g" format-patch -q -1 -o "$d/kernel-patches/$name" &&
	(cd "$d/kernel-patches/$name" && ls -- *.patch >series) &&
	echo "Shapes." >"$d/cover-letters/$name.txt" &&
	cat >"$d/branches/$name.conf" <<-EOC
	[topic]
		name = $name
		prefix = misc
		state = active
		tracks = $track
		patches = kernel-patches/$name
		cover = cover-letters/$name.txt
		description = generated shapes
	EOC
}

# base_files TAG NAME FILE...: patchgen.NAME, a repository holding FILEs as
# TAG has them, committed.
base_files() {
	local tag=$1 g=$PWD/patchgen.$2 f
	shift 2
	git init -q "$g" &&
	for f in "$@"; do
		mkdir -p "$g/$(dirname "$f")" && kq_git show "$tag:$f" >"$g/$f" || return 1
	done &&
	git -C "$g" add -A &&
	git -C "$g" -c user.name=T -c user.email=t@example.org commit -qm base
}

field() { cut -d"|" -f"$1"; }

test_expect_success 'setup: the real 7.3 tree in the fixture cache; the shapes, generated into drivers/misc' '
	v=$(KQ_CACHE=$REAL_CACHE kernels --newest $track) && echo "$v" >version &&
	KQ_CACHE=$REAL_CACHE kernel-tree "$v" >/dev/null &&
	tag=debian/$(sed "s/~/_/" version) &&
	use_fixture_cache "$REAL_CACHE" "$tag" &&
	# make shapes scans the whole tree: the queue topics are applied too,
	# so that nothing but the shapes is left
	mkdir -p data &&
	{ test "${KQ_SHAPES_ALL:-no}" != yes || cp -r "$REPO/branches" "$REPO/kernel-patches" "$REPO/cover-letters" data/; } &&
	base_files "$tag" gen $misc/Makefile &&
	"$GEN" patchgen.gen/$misc >/dev/null &&
	mv patchgen.gen/$misc/shapes shapes &&
	(cd patchgen.gen/$misc && ls vmf_shape_*.c) | sed "s/\.c$/.o/" |
		sed "s/^/obj-y\t\t\t\t+= /" >>patchgen.gen/$misc/Makefile &&
	shape_topic shapes-gen patchgen.gen &&
	(cd patchgen.gen/$misc && ls vmf_shape_*.c) | sed "s|^|$misc/|" >gen-files &&
	test "$(grep -c "|mixing|" shapes)" -ge 100 &&
	test "$(grep -c "|correct|" shapes)" -ge 5
'

test_expect_success "scan --apply all of the generated files: nothing unchecked" '
	export KQ_ROOT=$PWD/data &&
	test_expect_code 1 scan --apply all $(sed "s/^/--only /" gen-files) "$(cat version)" >table 2>log &&
	cp "$KQ_RESULTS/$(cat version)/scan-all.only.json" scan.json &&
	rows scan.json findings file line kind tools seen_on owner topic message >findings.txt &&
	rows scan.json unchecked file tool reason >unchecked.txt &&
	test_must_be_empty unchecked.txt
'

test_expect_success 'every mixing is found on its line, by exactly the tools that can see it, with spatch'"'"'s kind' '
	: >missed &&
	while IFS="|" read -r id class kind tools file line; do
		test "$class" = mixing || continue
		rec=$(grep "^$misc/$file|$line|" findings.txt) ||
			{ echo "$id: not found ($file:$line)" >>missed; continue; }
		# (a site spatch sees has the kind spatch names: it knows the construct)
		case ,$tools, in
		*,spatch,*) test "$(echo "$rec" | field 3)" = "$kind" ||
			echo "$id: kind $(echo "$rec" | field 3), want $kind" >>missed ;;
		esac
		got=$(echo "$rec" | field 4 | tr , "\n" | sort | paste -sd,)
		want=$(echo "$tools" | tr , "\n" | sort | paste -sd,)
		test "$got" = "$want" || echo "$id: seen by $got, want $want" >>missed
	done <shapes &&
	test_must_be_empty missed
'

test_expect_success 'no finding off the marked lines: correct forms and helpers are silent' '
	awk -F"|" -v m="$misc/" "\$2 == \"mixing\" { print m \$5 \":\" \$6 }" shapes | sort >want &&
	awk -F"|" -v m="$misc/vmf_shape" "index(\$1, m) == 1 { print \$1 \":\" \$2 }" findings.txt | sort >got &&
	test_cmp want got
'

# real_files TAG CONFIG DIR...: the single-file objects of DIRs' Makefiles
# that CONFIG builds (obj-$(CONFIG_X) += name.o, X=y or m), as DIR/name.c.
real_files() {
	local tag=$1 cfg=$2 d
	shift 2
	for d in "$@"; do
		kq_git show "$tag:$d/Makefile" |
			sed -n "s|^obj-\$(\(CONFIG_[A-Z0-9_]*\))[[:space:]]*+=[[:space:]]*\([a-z0-9_-]*\)\.o[[:space:]]*\$|\1 \2|p" |
			while read -r c n; do
				grep -qE "^$c=(y|m)\$" "$cfg" && kq_git cat-file -e "$tag:$d/$n.c" 2>/dev/null &&
					echo "$d/$n.c"
			done
	done
}

# The shapes planted into real files: every one with KQ_SHAPES_ALL=yes
# (make shapes), else each sink once, its source turning, and every correct
# form (make test).  A shape living in a header is not planted.
test_expect_success 'setup: the shapes planted one per file into real files allmodconfig builds' '
	tag=debian/$(sed "s/~/_/" version) &&
	cfg=$KQ_CACHE/scan/$(cat version)/none.build/.config && test -f "$cfg" &&
	real_files "$tag" "$cfg" drivers/misc drivers/hwmon >real-all &&
	"$GEN" --list | awk -v all="${KQ_SHAPES_ALL:-no}" "
		\$5 == \"inline\" { next }
		all == \"yes\" || \$2 == \"correct\" { print \$1; next }
		!(\$3 \" \" \$5 in seen) { seen[\$3 \" \" \$5]; n[\$3]++; want[\$3 \" \" \$5] = n[\$3] }
		{ k = \$3 \" \" \$5; i[k]++; if (i[k] == (want[k] - 1) % (\$3 == \"fault\" ? 5 : 3) + 1 ||
			(\$3 == \"errno\" && \$5 == \"switch\")) print \$1 }" >plant-ids &&
	test "$(wc -l <real-all)" -ge "$(wc -l <plant-ids)" &&
	head -n "$(wc -l <plant-ids)" real-all >real-files &&
	base_files "$tag" real $(cat real-files) &&
	paste -d" " real-files plant-ids | while read -r f id; do
		"$GEN" --plant "patchgen.real/$f" "$id" || return 1
	done | sed "s|patchgen.real/||" >planted &&
	test_line_count = "$(wc -l <plant-ids)" planted &&
	shape_topic shapes-real patchgen.real
'

# make shapes scans the whole tree (its candidate search included), make
# test the planted files.
test_expect_success 'scan --apply all of the real files with the shapes planted: each found, nothing else' '
	if test "${KQ_SHAPES_ALL:-no}" = yes
	then
		test_expect_code 1 scan --apply all "$(cat version)" >real-table 2>real-log &&
		cp "$KQ_RESULTS/$(cat version)/scan-all.json" real.json &&
		rows real.json findings file line kind tools seen_on owner topic message >all-findings.txt &&
		# nothing but the shapes: the generated files and the planted ones
		{ grep -v "^$misc/vmf_shape_" all-findings.txt | grep -v -F -f <(sed "s/$/|/" real-files) >others || :; } &&
		test_must_be_empty others &&
		grep -F -f <(sed "s/$/|/" real-files) all-findings.txt >real-findings.txt
	else
		test_expect_code 1 scan --apply all $(sed "s/^/--only /" real-files) "$(cat version)" >real-table 2>real-log &&
		cp "$KQ_RESULTS/$(cat version)/scan-all.only.json" real.json &&
		rows real.json findings file line kind tools seen_on owner topic message >real-findings.txt
	fi &&
	rows real.json unchecked file tool reason >all-unchecked.txt &&
	{ grep -F -f <(sed "s/$/|/" real-files) all-unchecked.txt >real-unchecked.txt || :; } &&
	test_must_be_empty real-unchecked.txt &&
	: >missed &&
	while IFS="|" read -r id class kind tools file line; do
		test "$class" = mixing || continue
		rec=$(grep "^$file|$line|" real-findings.txt) || { echo "$id: not found ($file:$line)" >>missed; continue; }
		got=$(echo "$rec" | field 4 | tr , "\n" | sort | paste -sd,)
		want=$(echo "$tools" | tr , "\n" | sort | paste -sd,)
		test "$got" = "$want" || echo "$id: seen by $got in $file, want $want" >>missed
	done <planted &&
	test_must_be_empty missed &&
	awk -F"|" "\$2 == \"mixing\" { print \$5 \":\" \$6 }" planted | sort >want &&
	awk -F"|" "{ print \$1 \":\" \$2 }" real-findings.txt | sort >got &&
	test_cmp want got
'

# The figures (make bench STAGES=shapes): to KQ_SHAPES_REPORT when set.
test_expect_success 'the figures: shapes generated, found by each tool and by the scan, false positives' '
	m=$(grep -c "|mixing|" shapes) && c=$(grep -c "|correct|" shapes) &&
	found=0 sp=0 co=0 &&
	while IFS="|" read -r id class kind tools file line; do
		test "$class" = mixing || continue
		rec=$(grep "^$misc/$file|$line|" findings.txt) || continue
		found=$((found + 1))
		case ,$(echo "$rec" | field 4), in *,sparse,*) sp=$((sp + 1)) ;; esac
		case ,$(echo "$rec" | field 4), in *,spatch,*) co=$((co + 1)) ;; esac
	done <shapes &&
	fp=$(awk -F"|" -v m="$misc/" "\$2 == \"mixing\" { print m \$5 \":\" \$6 }" shapes | sort |
		comm -13 - <(awk -F"|" -v m="$misc/vmf_shape" "index(\$1, m) == 1 { print \$1 \":\" \$2 }" findings.txt | sort) | wc -l) &&
	pm=$(grep -c "|mixing|" planted) && pc=$(grep -c "|correct|" planted) &&
	pf=$(awk -F"|" "\$2 == \"mixing\" { print \$5 \"|\" \$6 \"|\" }" planted | grep -c -F -f - real-findings.txt) &&
	rfp=$(awk -F"|" "\$2 == \"mixing\" { print \$5 \":\" \$6 }" planted | sort |
		comm -13 - <(awk -F"|" "{ print \$1 \":\" \$2 }" real-findings.txt | sort) | wc -l) &&
	line="$(cat version): $((m + c)) shapes ($m mixings, $c correct forms): the scan found $found/$m (sparse $sp, spatch $co), false positives $fp; planted one per real file: $pf/$pm mixings found, $pc correct forms, false positives $rfp" &&
	echo "$line" &&
	test "$found" = "$m" && test "$fp" = 0 && test "$pf" = "$pm" && test "$rfp" = 0 &&
	{ test -z "${KQ_SHAPES_REPORT-}" || echo "$line" >"$KQ_SHAPES_REPORT"; }
'

test_done
