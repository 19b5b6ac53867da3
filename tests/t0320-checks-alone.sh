#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034,SC2154
test_description='checks: each check program alone on a tiny synthetic tree, its contract and its mutations'
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
use_private_cache

C=$S/checks

# kbuild_like TREE SRC...: a build log as Kbuild writes it with C=2 W=1
# (a CC line and gcc's output, a CHECK line and sparse's, paths relative
# to the tree), made by the real gcc and sparse on the tiny tree's files.
kbuild_like() {
	local tree=$1 src
	shift
	for src; do
		echo "  CC      ${src%.c}.o"
		(cd "$tree" && gcc -Wall -Wextra -c "$src" -o /dev/null 2>&1) ||
			echo "make[3]: *** [scripts/Makefile.build:243: ${src%.c}.o] Error 1"
		echo "  CHECK   $src"
		(cd "$tree" && sparse -Wbitwise "$src" 2>&1) || true
	done
}

# workdir NAME: a runner's work directory for the tiny tree's two commits.
workdir() {
	local w=$PWD/$1
	mkdir -p "$w" &&
	echo "$PWD/base" >"$w/base-tree" &&
	echo "$PWD/tree" >"$w/tip-tree" &&
	echo "$(git -C tree rev-parse HEAD~1)..$(git -C tree rev-parse HEAD)" >"$w/range" &&
	echo lib/tiny.c >"$w/sources" &&
	echo "lib/tiny.c lib/tiny.o" >"$w/map" &&
	: >"$w/unbuilt" &&
	echo "$w"
}

# commit_tiny MSG CONTENT: the tiny tree's next commit of lib/tiny.c.
commit_tiny() {
	printf '%s\n' "$2" >tree/lib/tiny.c &&
	git -C tree add -A &&
	printf '%s\n\n%s\n\nSigned-off-by: Fixture Author <fixture@example.org>\n' "$1" \
		"The tiny tree of the check tests: this change exercises one check." >msg &&
	fgit -C tree commit -qa -F "$PWD/msg"
}

# field DIR CHECK FILE: what the check wrote.
st() { cat "$1/$2/status"; }

base_c='// SPDX-License-Identifier: GPL-2.0
typedef unsigned int __attribute__((bitwise)) vm_fault_t;

static int tiny_count;

int tiny_seen(void);
int tiny_seen(void)
{
	return tiny_count;
}'

test_expect_success 'setup: a tiny tree, its base and tip' '
	mkdir -p tree/lib tree/scripts &&
	git init -q tree &&
	commit_tiny "lib: tiny: Start" "$base_c" &&
	git clone -q tree base
'

test_expect_success 'every check answers -h with the contract, and bad input with exit 2' '
	for c in checkpatch sparse w1 build; do
		"$C/$c/run" -h >out && grep "scripts/checks/NAME/run DIR" out &&
		test_expect_code 2 "$C/$c/run" 2>err && test_line_count = 1 err && grep "usage" err &&
		mkdir -p empty-$c && test_expect_code 2 "$C/$c/run" "$PWD/empty-$c" 2>err &&
		test_line_count = 1 err && grep "is missing: not a runner" err || return 1
	done
'

# checkpatch: the real script, from the packaged tree when one is imported.
real_tag=$(git --git-dir="$REAL_CACHE/linux.git" tag -l "debian/6.12*" 2>/dev/null | tail -n 1)
have_checkpatch=${real_tag:+yes}
for f in scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch; do
	[ -z "$have_checkpatch" ] ||
		git --git-dir="$REAL_CACHE/linux.git" show "$real_tag:$f" >"${f##*/}" || have_checkpatch=
done
[ -z "$have_checkpatch" ] || test_set_prereq CHECKPATCH

# cp_tree: the tiny tree with the real checkpatch, the top-level entries
# it takes for a kernel tree, and a commit on top.
cp_tree() {
	rm -rf tree && git clone -q base tree &&
	(cd tree && touch COPYING CREDITS Kbuild MAINTAINERS Makefile README &&
	 for d in Documentation arch include drivers fs init ipc kernel scripts; do mkdir -p "$d" && touch "$d/.keep" || return 1; done) &&
	cp checkpatch.pl spelling.txt const_structs.checkpatch tree/scripts/ &&
	git -C tree add scripts && fgit -C tree commit -qm "scripts: checkpatch" &&
	commit_tiny "$1" "$2"
}

test_expect_success CHECKPATCH 'checkpatch alone: a clean commit passes, a style error fails naming it' '
	cp_tree "lib: tiny: Return the count" "$(echo "$base_c" | sed "s/return tiny_count;/return tiny_count + 1;/")" &&
	w=$(workdir cp1) && "$C/checkpatch/run" "$w" &&
	test "$(st "$w" checkpatch)" = pass && grep "1 patches clean with --strict" "$w/checkpatch/summary" &&
	cp_tree "lib: tiny: Return the count" "$(echo "$base_c" | sed "s/return tiny_count;/return(tiny_count);/")" &&
	w=$(workdir cp2) && test_expect_code 1 "$C/checkpatch/run" "$w" &&
	test "$(st "$w" checkpatch)" = fail && grep "1 of 1 patches" "$w/checkpatch/summary" &&
	grep "ERROR: return is not a function" "$w/checkpatch/details"
'

test_expect_success CHECKPATCH 'mutation: checkpatch missing, crashing or printing nonsense is an error naming it, never a pass' '
	w=$(workdir cp3) &&
	mv tree/scripts/checkpatch.pl cp.keep &&
	test_expect_code 4 "$C/checkpatch/run" "$w" &&
	test "$(st "$w" checkpatch)" = error && grep "no scripts/checkpatch.pl in $PWD/tree" "$w/checkpatch/summary" &&
	printf "die \"checkpatch exploded\\\\n\";\n" >tree/scripts/checkpatch.pl &&
	test_expect_code 4 "$C/checkpatch/run" "$w" &&
	grep "checkpatch did not finish on [0-9a-f]* (\"lib: tiny: Return the count\"): checkpatch exploded" "$w/checkpatch/summary" &&
	printf "print \"all good, probably\\\\n\";\n" >tree/scripts/checkpatch.pl &&
	test_expect_code 4 "$C/checkpatch/run" "$w" &&
	grep "did not finish on .*: all good, probably" "$w/checkpatch/summary" &&
	mv cp.keep tree/scripts/checkpatch.pl
'

test_expect_success 'build alone: the tip compiles; a compile error fails naming file and line; an unbuilt source fails' '
	rm -rf tree && git clone -q base tree && commit_tiny "lib: tiny: Count" "$(echo "$base_c" | sed "s|return tiny_count;|return tiny_count + 1;|")" &&
	w=$(workdir b1) && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	"$C/build/run" "$w" && test "$(st "$w" build)" = pass && grep "1 objects build: lib/tiny.o" "$w/build/summary" &&
	commit_tiny "lib: tiny: Break" "$(echo "$base_c" | sed "s/return tiny_count;/return tiny_cnt;/")" &&
	w=$(workdir b2) && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	test_expect_code 1 "$C/build/run" "$w" && grep "^lib/tiny.c:9: .*tiny_cnt" "$w/build/errors" &&
	w=$(workdir b3) && echo lib/other.c >>"$w/sources" && echo lib/other.c >"$w/unbuilt" &&
	kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	test_expect_code 1 "$C/build/run" "$w" && grep "lib/other.c: not built by x86_64 allmodconfig" "$w/build/errors"
'

test_expect_success 'mutation: no build log, or a compiler that never ran, is an error naming it' '
	w=$(workdir b4) && test_expect_code 4 "$C/build/run" "$w" &&
	grep "no build log" "$w/build/summary" &&
	printf "make[2]: x86_64-linux-gnu-gcc: not found\n" >"$w/after.log" &&
	test_expect_code 4 "$C/build/run" "$w" &&
	grep "the compiler never ran on 1 of 1 objects, first lib/tiny.o: .*gcc: not found" "$w/build/summary"
'

test_expect_success 'w1 alone: a warning the tip adds fails and is listed, one the base has is kept' '
	rm -rf tree && git clone -q base tree &&
	commit_tiny "lib: tiny: Remember" "$(echo "$base_c" | sed "s/	return tiny_count;/	int last;\n\n	last = 1;\n	return tiny_count;/")" &&
	w=$(workdir w1) && kbuild_like "$PWD/base" lib/tiny.c >"$w/before.log" && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	test_expect_code 1 "$C/w1/run" "$w" && test "$(st "$w" w1)" = fail &&
	grep "^lib/tiny.c:9: variable .last. set but not used" "$w/w1/new" &&
	grep "^1 new, 0 removed, 1 kept from the base" "$w/w1/summary" &&
	grep "bitwise" "$w/w1/kept"
'

test_expect_success 'mutation: w1 with no log or a compiler that never ran is an error' '
	w=$(workdir w2) && test_expect_code 4 "$C/w1/run" "$w" && grep "no before.log" "$w/w1/summary" &&
	: >"$w/before.log" && printf "make: gcc: No such file or directory\n" >"$w/after.log" &&
	test_expect_code 4 "$C/w1/run" "$w" && grep "never ran on lib/tiny.o" "$w/w1/summary"
'

test_expect_success 'sparse alone: a new warning fails, a vm_fault_t warning left in a touched file fails' '
	rm -rf tree && git clone -q base tree &&
	commit_tiny "lib: tiny: Return a fault" "$base_c
int tiny_fault(vm_fault_t r);
int tiny_fault(vm_fault_t r)
{
	return r;
}" &&
	w=$(workdir s1) && kbuild_like "$PWD/base" lib/tiny.c >"$w/before.log" && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	test_expect_code 1 "$C/sparse/run" "$w" && test "$(st "$w" sparse)" = fail &&
	grep "incorrect type in return expression" "$w/sparse/new" &&
	grep "^lib/tiny.c:14: .*got restricted vm_fault_t" "$w/sparse/vm_fault_t_left" &&
	rm -rf tree && git clone -q base tree && commit_tiny "lib: tiny: Say what counts" "$(echo "$base_c" | sed "s|^static int tiny_count;|/* interrupts seen */\n&|")" &&
	w=$(workdir s2) && kbuild_like "$PWD/base" lib/tiny.c >"$w/before.log" && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	"$C/sparse/run" "$w" && test "$(st "$w" sparse)" = pass &&
	grep "^0 new, 0 removed, 0 kept" "$w/sparse/summary"
'

test_expect_success 'a header whose users were cut to KQ_CHECK_USERS (sampled) is never a pass: sparse, w1 and build warn, naming it' '
	w=$(workdir s3) && kbuild_like "$PWD/base" lib/tiny.c >"$w/before.log" && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" &&
	echo "include/tiny.h: 20 of the 31 files using its changed macros were built (the first by path)" >"$w/sampled" &&
	for c in sparse w1 build; do
		test_expect_code 3 "$C/$c/run" "$w" && test "$(st "$w" $c)" = warn &&
		grep "include/tiny.h: 20 of the 31 files using its changed macros were built" "$w/$c/summary" || return 1
	done
'

test_expect_success 'mutation: sparse missing, crashing, skipped by kbuild or stopped on a file is an error naming it' '
	w=$(workdir s3) && : >"$w/before.log" &&
	printf "  CC      lib/tiny.o\n" >"$w/after.log" &&
	test_expect_code 4 "$C/sparse/run" "$w" &&
	grep "sparse could not check: lib/tiny.c: sparse did not run on it" "$w/sparse/summary" &&
	printf "  CC      lib/tiny.o\nmake[2]: *** [scripts/Makefile.build:250: lib/tiny.o] Segmentation fault\n" >"$w/after.log" &&
	test_expect_code 4 "$C/sparse/run" "$w" && grep "sparse did not run on it" "$w/sparse/unchecked" &&
	printf "  CC      lib/tiny.o\n  CHECK   lib/tiny.c\nlib/tiny.c:1:10: error: unable to open '"'"'nosuch.h'"'"'\n" >"$w/after.log" &&
	test_expect_code 4 "$C/sparse/run" "$w" && grep "lib/tiny.c:1: unable to open" "$w/sparse/summary" &&
	printf "scripts/Makefile.build:1: C=2 specified, but sparse is not available or not up to date\n" >"$w/before.log" &&
	test_expect_code 4 "$C/sparse/run" "$w" &&
	grep "^sparse did not run (before): kbuild: C=2 specified, but sparse is not available" "$w/sparse/unchecked" &&
	rm "$w/before.log" && test_expect_code 4 "$C/sparse/run" "$w" && grep "no before.log" "$w/sparse/summary"
'

test_expect_success 'a check writes only its own folder: the runner'"'"'s inputs are untouched' '
	w=$(workdir s4) && kbuild_like "$PWD/tree" lib/tiny.c >"$w/after.log" && cp "$w/after.log" "$w/before.log" &&
	(cd "$w" && find . -type f | sort | xargs sha1sum) >before.sum &&
	for c in sparse w1 build; do "$C/$c/run" "$w" || return 1; done &&
	(cd "$w" && find . -type f ! -path "./sparse*" ! -path "./w1*" ! -path "./build*" | sort | xargs sha1sum) >after.sum &&
	test_cmp before.sum after.sum
'

# scripts/check compiles the base side of every topic in one make; each
# topic then reads its own objects' part (lib/split-build-log.awk).
test_expect_success 'the split of a shared make: a topic gets its objects'"'"' blocks and errors and the lines of no object, never another'"'"'s' '
	cat >shared.log <<-\EOF &&
	make[1]: Entering directory '"'"'/b'"'"'
	  SYNC    include/config/auto.conf.cmd
	  DESCEND objtool
	  CHECK   scripts/mod/empty.c
	  CC [M]  fs/a.o
	fs/a.c:1:2: warning: a from gcc [-Wx]
	  CHECK   fs/a.c
	fs/a.c:3:4: warning: a from sparse
	  CC      mm/b.o
	include/linux/h.h:5:6: warning: through b
	mm/b.c:7:8: error: b does not compile
	make[5]: *** [scripts/Makefile.build:250: mm/b.o] Error 1
	  CHECK   /src/drivers/gpu/drm/amd/amdgpu/../amdkfd/c.c
	drivers/gpu/drm/amd/amdkfd/c.c:9:1: warning: c from sparse
	make[4]: *** [scripts/Makefile.build:480: mm] Error 2
	scripts/Makefile.build:1: C=2 specified, but sparse is not available or not up to date
	EOF
	# (6.x prints the source tree before a CHECK path: /src/ here)
	split() { printf "%s\n" "$@" >want && awk -v objs=want -v src=/src/ -f "$S/lib/split-build-log.awk" shared.log; } &&
	split fs/a.o drivers/gpu/drm/amd/amdgpu/../amdkfd/c.o >a.out &&
	grep -x "fs/a.c:1:2: warning: a from gcc \[-Wx\]" a.out && grep -x "fs/a.c:3:4: warning: a from sparse" a.out &&
	grep -x "drivers/gpu/drm/amd/amdkfd/c.c:9:1: warning: c from sparse" a.out &&
	! grep -e "through b" -e "b does not compile" -e "mm/b.o" -e "empty.c" a.out &&
	grep -x "  SYNC    include/config/auto.conf.cmd" a.out && grep "C=2 specified, but sparse" a.out &&
	grep -F "[scripts/Makefile.build:480: mm] Error 2" a.out &&
	split mm/b.o >b.out &&
	grep -x "include/linux/h.h:5:6: warning: through b" b.out && grep -x "mm/b.c:7:8: error: b does not compile" b.out &&
	grep -F "[scripts/Makefile.build:250: mm/b.o] Error 1" b.out &&
	! grep -e "a from" -e "c from" b.out &&
	# every line goes to one of the topics, or to all
	split fs/a.o mm/b.o drivers/gpu/drm/amd/amdgpu/../amdkfd/c.o scripts/mod/empty.o >all.out &&
	test_cmp shared.log all.out
'

# A tree whose Makefile and scripts/config log what kbuild_prepare asks.
test_expect_success 'setup: a tree that logs configure and prepare' '
	mkdir -p kb/scripts &&
	printf "%s\n" "kernelversion: ; @echo 6.99.0" \
		"allmodconfig: ; @echo allmodconfig >>\"\$(O)/calls\"; echo CONFIG_A=y >\"\$(O)/.config\"" \
		"olddefconfig: ; @echo olddefconfig >>\"\$(O)/calls\"" \
		"prepare: ; @echo prepare >>\"\$(O)/calls\"" >kb/Makefile &&
	printf "#!/bin/sh\necho config \"\$@\" >>\"\$(dirname \"\$2\")/calls\"\n" >kb/scripts/config &&
	chmod +x kb/scripts/config
'

# prep [OPTION...]: kbuild_prepare on that tree (for PREP_ARCH: common.sh
# unsets an inherited ARCH), then the calls it made.
prep() {
	rm -f kb.build/calls &&
	bash -c '. "$1/lib/common.sh"; kq_lib kbuild; shift; ARCH=${PREP_ARCH:-}; kbuild_prepare "$PWD/kb" "$PWD/kb.build" "$@"' _ "$S" "$@" &&
	paste -sd" " kb.build/calls
}

test_expect_success 'the build directory is configured again when what it was configured for changes, or a configure was cut short' '
	test "$(prep)" = "allmodconfig config --file $PWD/kb.build/.config -d WERROR -d DEBUG_INFO_BTF olddefconfig prepare" &&
	test "$(prep)" = prepare &&
	test "$(prep KCOV)" = "allmodconfig config --file $PWD/kb.build/.config -d WERROR -d DEBUG_INFO_BTF -d KCOV olddefconfig prepare" &&
	test "$(prep KCOV)" = prepare &&
	rm kb.build/.kq-config && test "$(prep KCOV | cut -d" " -f1)" = allmodconfig &&
	test "$(PREP_ARCH=arm64 prep KCOV | cut -d" " -f1)" = allmodconfig &&
	grep -x "arm64 allmodconfig -d WERROR -d DEBUG_INFO_BTF -d KCOV of 6.99.0" kb.build/.kq-config &&
	sed -i "s/^allmodconfig: .*/allmodconfig: ; @exit 3/" kb/Makefile &&
	rm kb.build/.kq-config && test_must_fail prep KCOV 2>err &&
	grep "configuring $PWD/kb.build (x86_64 allmodconfig -d WERROR -d DEBUG_INFO_BTF -d KCOV of 6.99.0) failed" err &&
	! test -e kb.build/.kq-config
'

# A tree whose make -n prints one compile line per directory goal, and fails
# (after printing it: a + line runs under -n) when om/fail exists.
test_expect_success 'setup: a tree whose make -n names the objects of its directories' '
	mkdir -p om/wt om/build &&
	printf "%s\n" "%/:" "	@echo gcc -Wall -c -o \$@x.o \$@x.c" "	+@test ! -e ../fail" >om/wt/Makefile &&
	git -C om/wt init -q && git -C om/wt add Makefile && git -C om/wt -c user.name=t -c user.email=t@t commit -q -m t &&
	echo CONFIG_A=y >om/build/.config
'

# objmap DIRS...: kbuild_objects of DIRS' x.c in that tree, its map cache
# in om/cache; prints the map.
objmap() {
	printf "%sx.c\n" "$@" | KQ_CACHE=$PWD/om/cache bash -c '. "$1/lib/common.sh"; kq_lib kbuild; kbuild_objects "$PWD/om/wt" "$PWD/om/build"' _ "$S"
}

test_expect_success 'the object map: a make -n that fails is an error and is never cached; the key holds the .config' '
	objmap fs/a/ >map && grep -x "fs/a/x.c fs/a/x.o" map &&
	ls om/cache/objmap >kept && test_line_count = 1 kept &&
	: >om/fail && rm -rf om/cache &&
	test_must_fail objmap fs/a/ >map 2>err && cat err &&
	grep "object map: make -n .* failed" err &&
	! ls om/cache/objmap/* 2>/dev/null &&
	rm om/fail && objmap fs/a/ >map && grep -x "fs/a/x.c fs/a/x.o" map &&
	echo CONFIG_B=y >>om/build/.config && objmap fs/a/ >map &&
	ls om/cache/objmap >kept && test_line_count = 2 kept
'

test_done
