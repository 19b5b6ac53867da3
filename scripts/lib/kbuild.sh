# shellcheck shell=bash
# Kbuild: prepared build directories, checker runs with their workarounds,
# and the real Kbuild object of a source.  Needs common.sh.

# kbuild_prepare WT OBJ [OPTION...]: the build directory OBJ for worktree
# WT, an allmodconfig (of $ARCH, x86_64 by default) minus the options that
# turn warnings into errors or need tools outside the build (BTF wants
# pahole) and minus OPTIONs, with "make prepare" done.  Cheap when OBJ is
# warm.  OBJ/.kq-config names the configuration last made there, written
# only once it is complete: a different architecture, option list or
# kernel version, or a configure cut short, configures again.
kbuild_prepare() {
	local wt=$1 obj=$2 o off=() want
	shift 2
	for o; do off+=(-d "$o"); done
	want="${ARCH:-x86_64} allmodconfig -d WERROR -d DEBUG_INFO_BTF${off[*]:+ ${off[*]}} of $(make -C "$wt" -s kernelversion 2>/dev/null || true)"
	if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.kq-config" 2>/dev/null)" != "$want" ]; then
		mkdir -p "$obj"
		rm -f "$obj/.kq-config"
		if ! { make -C "$wt" O="$obj" -s allmodconfig >/dev/null &&
			"$wt/scripts/config" --file "$obj/.config" -d WERROR -d DEBUG_INFO_BTF ${off[@]+"${off[@]}"} &&
			make -C "$wt" O="$obj" -s olddefconfig >/dev/null; }; then
			die "configuring $obj ($want) failed"
		fi
		printf '%s\n' "$want" >"$obj/.kq-config"
	fi
	make -C "$wt" O="$obj" -s -j"$(nproc)" prepare >"$obj/prepare.log" 2>&1 ||
		die "make prepare failed in $obj: $(grep -m1 -E 'error|Error' "$obj/prepare.log")"
}

# sparse_workarounds < PATHS: "path<TAB>flags<TAB>why" for every source or
# object path that scripts/sparse-workarounds gives checker-only flags
# (make CF=); paths without one print nothing.
sparse_workarounds() {
	awk -F'\t' 'FNR == NR { if (!/^#/ && NF == 3) { n++; pre[n] = $1; cf[n] = $2; why[n] = $3 }; next }
		{ for (i = 1; i <= n; i++) if (index($0, pre[i]) == 1) { print $0 "\t" cf[i] "\t" why[i]; next } }' \
		"$KQ_SCRIPTS/sparse-workarounds" -
}

# kbuild_checker WT: the sparse to run on worktree WT.  A tree with
# scripts/checker-valid.sh (6.15 on) skips C= entirely, with one warning,
# when it rejects the checker; so the system's sparse is used only when the
# tree accepts it, otherwise the one scripts/sparse-build makes from
# Debian's newer source.  KQ_SPARSE forces one (the tests' broken tools).
# No acceptable sparse is fatal: nothing would be checked.
kbuild_checker() {
	local wt=$1 c cands=()
	if [ -n "${KQ_SPARSE:-}" ]; then
		cands=("$KQ_SPARSE")
	else
		cands=("$(command -v sparse || echo /usr/bin/sparse)" "$KQ_CACHE/tools/sparse/bin/sparse")
	fi
	for c in "${cands[@]}"; do
		if [ ! -x "$c" ] && [ -z "${KQ_SPARSE:-}" ] && [ "$c" = "$KQ_CACHE/tools/sparse/bin/sparse" ]; then
			"$KQ_SCRIPTS/sparse-build" >&2 || die "no sparse this tree accepts: building one failed"
		fi
		[ -x "$c" ] || continue
		if [ ! -f "$wt/scripts/checker-valid.sh" ] ||
			[ "$(sh "$wt/scripts/checker-valid.sh" "$c" -m64 2>/dev/null)" = 1 ]; then
			echo "$c"
			return 0
		fi
	done
	die "no sparse this tree accepts (tried ${cands[*]}; scripts/checker-valid.sh of $wt)"
}

# kbuild_checker_skipped LOG: kbuild's own words when it ran C= without
# the checker; the caller must not take the log as checked.
kbuild_checker_skipped() { grep -m1 -E 'C=[0-9] specified, but .* is not available or not up to date' "$1"; }

# checker_make WT OBJ MAKE-ARG... -- OBJECT...: make -k MAKE-ARGs over the
# OBJECTs in build directory OBJ with CHECK= the sparse kbuild_checker
# picks, with the objects that have a checker workaround in a make of their
# own with its flags in CF=.  Output on stdout; a failed make is not an
# error (its log says what failed).  No usable sparse is fatal.
# Every checker run has -fmax-warnings=unlimited (KQ_CHECKER_CAP): sparse
# otherwise prints 100 warnings of a file, then "too many warnings" and
# nothing more, and what follows in that file would read as clean.
KQ_CHECKER_CAP=-fmax-warnings=unlimited
checker_make() {
	local wt=$1 obj=$2 args=() cf o plain=() chk jobs
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	[ $# -gt 0 ] || return 0
	chk=$(kbuild_checker "$wt") || exit 1
	args+=("CHECK=$chk")
	# make -n prints a plan that checker_direct runs line by line: one job.
	# With two, a parent make's command line for a recursive make (never
	# output-synced) once landed inside a sub-make's CHECK line, and that
	# check ran as "traneed-builtin=1: command not found" (6.1.192, make).
	jobs=-j"$(nproc)"
	case " ${args[*]} " in *" -n "*) jobs=-j1 ;; esac
	declare -A group=()
	while IFS=$'\t' read -r o cf _; do group[$cf]+=" $o"; done < <(printf '%s\n' "$@" | sparse_workarounds)
	for o; do
		case " ${group[*]} " in *" $o "*) ;; *) plain+=("$o") ;; esac
	done
	[ ${#plain[@]} -eq 0 ] ||
		make -C "$wt" O="$obj" -k "$jobs" --output-sync=target "${args[@]}" CF="$KQ_CHECKER_CAP" "${plain[@]}" 2>&1 || true
	for cf in "${!group[@]}"; do
		# shellcheck disable=SC2086
		make -C "$wt" O="$obj" -k "$jobs" --output-sync=target "${args[@]}" CF="$KQ_CHECKER_CAP $cf" ${group[$cf]} 2>&1 || true
	done
}

# checker_direct WT OBJ MAKE-ARG... -- OBJECT...: what checker_make prints
# for C=2, without compiling the objects first.  C=2 checks an object even
# when it is up to date, so checker_make with -n prints the checker's
# command line for every OBJECT, with the flags kbuild gives that object
# (and CF= for the ones with a workaround); those lines run here, one per
# CPU, and each object's output is printed whole, in the order asked.  A
# check that cannot open an include (a header only the build generates) or
# that make -n printed no check for goes through checker_make instead,
# which builds what it needs.  A checker that exits non-zero says so in a
# line of its own ("kq-checker: exit N on OBJECT"), as make's error would.
checker_direct() {
	local wt=$1 obj=$2 args=() o d n=0 f src rest=() run
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	[ $# -gt 0 ] || return 0
	d=$(mktemp -d "${TMPDIR:-/tmp}/kq-check.XXXXXX")
	declare -A cmd=()
	checker_make "$wt" "$obj" -n "${args[@]}" -- "$@" >"$d/plan"
	# kbuild's own refusal of the checker stays in the log.
	kbuild_checker_skipped "$d/plan" || true
	# One script per "  CHECK   <source>" line, named by its object.
	while IFS= read -r f; do
		src=${f#*"echo '  CHECK   "}; src=${src%%"'"*}; src=${src#"$wt/"}
		n=$((n + 1)); cmd[${src%.c}.o]=$d/$n
		printf '%s\n' "$f" >"$d/$n"
	done < <(grep -F "echo '  CHECK   " "$d/plan")
	for o; do [ -n "${cmd[$o]:-}" ] || rest+=("$o"); done
	# shellcheck disable=SC2016  # expanded by the shell xargs runs
	run='bash "$0" >"$0.out" 2>&1 || echo "kq-checker: exit $? on $1" >>"$0.out"'
	for o; do [ -z "${cmd[$o]:-}" ] || printf '%s\t%s\n' "${cmd[$o]}" "$o"; done |
		(cd "$obj" && xargs -r -P "$(nproc)" -L 1 sh -c "$run")
	for o; do
		f=${cmd[$o]:-}
		[ -n "$f" ] || continue
		if grep -q -E '^[^ ]+: error: unable to open ' "$f.out"; then rest+=("$o"); else cat "$f.out"; fi
	done
	rm -rf "$d"
	[ ${#rest[@]} -eq 0 ] || checker_make "$wt" "$obj" "${args[@]}" -- "${rest[@]}"
}

# sparse_findings WT OBJS UNCHECKED CHECKED LABEL < LOG: the vm_fault_t
# diagnostics of a sparse pass's LOG over the objects listed in OBJS
# (lib/sparse-findings.awk), files not checked appended to UNCHECKED, the
# checked ones to CHECKED, reasons prefixed with LABEL.
sparse_findings() {
	awk -v src="$1/" -v objs="$2" -v unchecked="$3" -v checked="$4" -v label="$5" \
		-v types="$SPARSE_TYPE_DIAGNOSTICS" \
		-f "$KQ_SCRIPTS/lib/paths.awk" -f "$KQ_SCRIPTS/lib/sparse-findings.awk"
}

# SPARSE_TYPE_DIAGNOSTICS: the sparse errors that are ordinary type
# diagnostics; any other error means sparse did not understand the file.
# shellcheck disable=SC2034  # used by the scripts that source this file
SPARSE_TYPE_DIAGNOSTICS='^(incompatible types?|incorrect type|different address spaces|dereference of noderef|cast (from|to|removes))'

# kbuild_objects WT OBJ < SOURCES: "source object" for every source (a
# path relative to WT) that the configuration in OBJ builds, the object
# named by its real Kbuild path (amdkfd files build as
# drivers/gpu/drm/amd/amdgpu/../amdkfd/X.o).  make -n over directories
# says which object compiles which file, in two rounds: the sources' own
# directories, then, for the sources none of them builds, their directories
# two levels down (drivers/gpu/ builds amdkfd's files, arch/x86/ KVM's
# virt/kvm/ ones).  A directory goal is a single build: kbuild descends to
# it from the top through the Makefiles that list it, so a directory the
# configuration leaves out builds nothing, as in a whole build.  A source
# high in the tree still has its whole directory walked (drivers/gpu/drm/),
# so the first round saves less than the Makefile count suggests: make
# bench STAGES=objmap measured 1.2x against one round over the two-level
# directories.  Each round's answer is cached per kbuild_tree_key and set
# of directories.
kbuild_objects() {
	local wt=$1 obj=$2 srcs dirs tree map1 map2=/dev/null rest
	srcs=$(cat)
	tree=$(kbuild_tree_key "$wt")
	dirs=$(printf '%s\n' "$srcs" | awk -F/ 'NF >= 2 { sub(/[^\/]*$/, ""); print }' | kbuild_topmost)
	map1=/dev/null
	[ -z "$dirs" ] || map1=$(kbuild_objmap "$wt" "$obj" "$tree" "$dirs") || return 1
	rest=$(awk -f "$KQ_SCRIPTS/lib/paths.awk" -f "$KQ_SCRIPTS/lib/match-sources.awk" <(printf '%s\n' "$srcs") "$map1" |
		awk 'FILENAME == ARGV[1] { m[$1]; next } NF && !($1 in m)' - <(printf '%s\n' "$srcs"))
	# the second round: two levels down, less what the first walked whole
	dirs=$(printf '%s\n' "$rest" | awk -F/ 'NF >= 3 { print $1 "/" $2 "/"; next } NF { print $1 "/" }' |
		kbuild_topmost | awk 'FILENAME == ARGV[1] { if (NF) d[++n] = $0; next }
			{ for (i = 1; i <= n; i++) if (index($0, d[i]) == 1) next; print }' <(printf '%s\n' "$dirs") -)
	[ -z "$dirs" ] || map2=$(kbuild_objmap "$wt" "$obj" "$tree" "$dirs") || return 1
	# Match sources by their normalised path ("a/b/../c/x.c" is "a/c/x.c").
	awk -f "$KQ_SCRIPTS/lib/paths.awk" -f "$KQ_SCRIPTS/lib/match-sources.awk" \
		<(printf '%s\n' "$srcs") <(sort -u "$map1" "$map2")
}

# kbuild_tree_key WT: the hash of worktree WT's Makefile, Kbuild and
# Kconfig files (their git tree entries), all a directory walk of kbuild
# reads of the tree.
kbuild_tree_key() {
	git -C "$1" ls-tree -r HEAD |
		grep -E '/(Makefile|Kbuild|Kconfig)[^/]*$|	(Makefile|Kbuild|Kconfig)[^/]*$' | sha1sum | cut -c1-40
}

# kbuild_topmost < DIRS: the directories, sorted, less those inside another.
kbuild_topmost() {
	sort -u | awk '{ for (d in seen) if (index($0, d) == 1) next; seen[$0]; print }'
}

# kbuild_objmap WT OBJ TREE DIRS: the path of the map "source object" of
# every object make -n builds in DIRS (newline-separated) of the
# configuration in OBJ, made unless cached under this TREE (the hash of the
# worktree's Makefile, Kbuild and Kconfig files), DIRS, ARCH, the .config
# and the compiler.  A make -n that fails or is cut short is an error (a
# map it left half written would make sources "not built"), never cached.
kbuild_objmap() {
	local wt=$1 obj=$2 tree=$3 dirs=$4 key map rc=0
	key=$(printf '%s\n' "$tree" "$dirs" "ARCH=${ARCH:-x86_64}" "config=${KQ_CONFIG_NAME:-}" \
		"$(sha1sum <"$obj/.config" 2>/dev/null || echo no-config)" \
		"$({ "${CROSS_COMPILE:-}gcc" --version 2>/dev/null || echo no-compiler; } | sed -n 1p)" | sha1sum | cut -c1-16)
	map=$KQ_CACHE/objmap/$key
	if [ ! -f "$map" ]; then
		mkdir -p "$KQ_CACHE/objmap"
		# make -n prints only what is out of date: an extra KCFLAGS makes
		# every object's command line differ from the one it was built with.
		# shellcheck disable=SC2086
		make -C "$wt" O="$obj" -n -k KCFLAGS=-DKQ_OBJMAP $dirs >"$map.plan.$$" 2>"$map.err.$$" || rc=$?
		if [ "$rc" -ne 0 ]; then
			note "object map: make -n in $obj over $(printf '%s' "$dirs" | wc -l | awk '{ print $1 + 1 }') directories failed (exit $rc): $(grep . "$map.err.$$" | tail -n 1 || true)"
			rm -f "$map.plan.$$" "$map.err.$$"
			return 1
		fi
		{ grep -oE -- " -c -o [^ ]+\.o [^ ]+\.c( |$)" "$map.plan.$$" || true; } |
			awk -v src="$wt/" '{ s = $4; if (index(s, src) == 1) s = substr(s, length(src) + 1)
				print s, $3 }' | sort -u >"$map.tmp.$$"
		rm -f "$map.plan.$$" "$map.err.$$"
		mv "$map.tmp.$$" "$map"
	fi
	echo "$map"
}
