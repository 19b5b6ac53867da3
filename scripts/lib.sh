# shellcheck shell=bash
# Shared by every script in scripts/: paths, messages, the cache lock,
# packaged-version lookup and topic manifests.  Source it, don't run it.

KQ_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# KQ_ROOT holds branches/, kernel-patches/ and cover-letters/ (tests point
# it at fixtures); the scripts always come from KQ_SCRIPTS.
KQ_ROOT=${KQ_ROOT:-${KQ_SCRIPTS%/scripts}}
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
KQ_TRACKS=${KQ_TRACKS:-6.1 6.12}
KQ_GIT=$KQ_CACHE/linux.git
KQ_RESULTS=${KQ_RESULTS:-$KQ_CACHE/results}
KQ_BRANCHES=${KQ_BRANCHES:-$KQ_ROOT/branches}
export KQ_CACHE KQ_TRACKS
# Kbuild reads these from the environment, and a make that runs a verb
# hands its command-line variables to every make below it in MAKEFLAGS:
# neither a developer's exported ARCH=arm64 nor `make scan ARCH=arm64` may
# turn the x86_64 builds into something else.  The kernel builds here are
# self-contained (they pass their own -j); the scan's other-architecture
# passes set ARCH and CROSS_COMPILE in subshells of their own.
unset ARCH SUBARCH CROSS_COMPILE KQ_CONFIG_NAME MAKEFLAGS MFLAGS MAKELEVEL

PROG=${PROG:-$(basename "$0")}

die() { printf '%s: %s\n' "$PROG" "$*" >&2; exit 1; }
bad_input() { printf '%s: %s\n' "$PROG" "$*" >&2; exit 2; }
note() { printf '%s\n' "$*" >&2; }

# usage TEXT: print TEXT when -h/--help is the first argument.
handle_help() {
	local text=$1; shift
	case "${1:-}" in -h|--help) printf '%s\n' "$text"; exit 0 ;; esac
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

kgit() { git --git-dir="$KQ_GIT" "$@"; }

ensure_cache() {
	mkdir -p "$KQ_CACHE" "$KQ_CACHE/debs" "$KQ_CACHE/worktrees" "$KQ_RESULTS"
	if [ ! -d "$KQ_GIT" ]; then
		git init -q --bare "$KQ_GIT"
		kgit config gc.auto 0
		kgit config core.bigFileThreshold 8m
	fi
	# git am needs a committer: the user's identity, else a neutral one
	# for this process only (never written to the cache's config).
	if [ -z "$(kgit config user.email || true)" ]; then
		export GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-vmfault-queue}
		export GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-vmfault-queue@localhost}
		export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-$GIT_COMMITTER_NAME}
		export GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-$GIT_COMMITTER_EMAIL}
	fi
}

# take_lock: serialise everything that writes to the cache.  flock drops
# the lock when the process dies, so an interrupted run leaves none behind.
take_lock() {
	ensure_cache
	# A verb run by a verb that holds the lock (rebase runs apply) is
	# covered by its parent's lock.
	[ "${KQ_LOCK_HELD:-}" != "$KQ_CACHE" ] || return 0
	exec 9>"$KQ_CACHE/lock"
	if ! flock -n 9; then
		note "$PROG: waiting for another run to release $KQ_CACHE/lock"
		flock 9
	fi
	export KQ_LOCK_HELD=$KQ_CACHE
}

# DEP-14 tag name for a Debian version: ~ becomes _, : becomes %.
version_tag() { local v=${1//\~/_}; printf 'debian/%s\n' "${v//:/%}"; }
tag_version() { local v=${1#debian/}; v=${v//_/\~}; printf '%s\n' "${v//%/:}"; }
upstream_of() { local v=${1#*:}; printf '%s\n' "${v%%-*}"; }
track_of() { local u; u=$(upstream_of "$1"); printf '%s\n' "${u%.*}"; }

# packaged_versions: "track debian-version" lines, oldest first per track,
# tracks in KQ_TRACKS order.  apt-cache sorts newest first, so reverse.
# The answer is cached until apt's package lists change (apt-get update).
packaged_versions() {
	local lists key cache
	eval "$(apt-config shell lists Dir::State::lists/d)"
	key=$(printf '%s|%s|%s' "${APT_CONFIG:-}" "$KQ_TRACKS" "$lists" | cksum | cut -d' ' -f1)
	cache=$KQ_CACHE/madison.$key
	if [ -s "$cache" ] && [ -d "$lists" ] &&
	   [ -z "$(find "$lists" -maxdepth 1 -newer "$cache" -print -quit)" ]; then
		cat "$cache"
		return
	fi
	mkdir -p "$KQ_CACHE"
	packaged_versions_uncached | tee "$cache.$$"
	if [ -s "$cache.$$" ]; then mv -f "$cache.$$" "$cache"; else rm -f "$cache.$$"; fi
}
packaged_versions_uncached() {
	local track out
	for track in $KQ_TRACKS; do
		out=$(apt-cache madison "linux-source-$track" 2>/dev/null |
			awk -F'|' -v t="$track" '{ gsub(/ /, "", $2); print t, $2 }' |
			awk '!seen[$0]++') || true
		[ -n "$out" ] && printf '%s\n' "$out" | tac
	done
}

# deb_path TRACK VERSION: where the downloaded package is kept.
deb_path() { printf '%s/debs/linux-source-%s_%s_all.deb\n' "$KQ_CACHE" "$1" "${2//:/%3a}"; }

imported_tags() { kgit tag -l 'debian/*' 2>/dev/null || true; }

# resolve_version SPEC: a full Debian version or an upstream one (6.12.118,
# newest Debian revision wins) or "newest-<track>" -> "track debversion".
resolve_version() {
	local spec=$1 all match
	all=$(packaged_versions)
	[ -n "$all" ] || die "apt-cache madison lists no linux-source-{${KQ_TRACKS// /,}} (run apt-get update?)"
	case "$spec" in
	newest|latest)
		match=$(printf '%s\n' "$all" | tail -n 1) ;;
	newest-*)
		match=$(printf '%s\n' "$all" | awk -v t="${spec#newest-}" '$1 == t' | tail -n 1) ;;
	*)
		match=$(printf '%s\n' "$all" | awk -v s="$spec" '$2 == s' | tail -n 1)
		[ -n "$match" ] || match=$(printf '%s\n' "$all" |
			awk -v s="$spec" '{ u = $2; sub(/-.*/, "", u); if (u == s) print }' |
			tail -n 1) ;;
	esac
	if [ -z "$match" ]; then
		local near
		near=$(printf '%s\n' "$all" | awk '{ print $2 }' |
			grep -F "$(printf '%s' "$spec" | cut -d. -f1-2)" | tr '\n' ' ')
		[ -n "$near" ] || near=$(printf '%s\n' "$all" | awk '{ print $2 }' | tr '\n' ' ')
		bad_input "unknown kernel version '$spec'; packaged: ${near% }"
	fi
	printf '%s\n' "$match"
}

# ---- topic manifests ------------------------------------------------------
# branches/<topic>.conf, git-config syntax:
#   [topic]        name, prefix, state (active|merged), tracks, patches,
#                  cover, upstream + upstream-subject (merged only),
#                  description
#   [track "6.1"]  series: the series file for that track when the code
#                  differs between tracks (default: <patches>/series)
MANIFEST_KEYS="topic.name topic.prefix topic.state topic.tracks topic.patches
topic.cover topic.upstream topic.upstream-subject topic.description topic.depends
topic.boot topic.build-only topic.change-id topic.sent-version topic.sent-from topic.send-prefixes
$(for t in $KQ_TRACKS; do printf 'track.%s.series ' "$t"; done)"

mget() { git config -f "$1" --get "$2" 2>/dev/null || true; }

# validate_manifest FILE: one "file:key: problem" line per fault, exit 2.
validate_manifest() {
	local f=$1 errs=() keys key name state tracks t patches cover up
	[ -r "$f" ] || bad_input "$f: cannot read manifest"
	if ! keys=$(git config -f "$f" --name-only --list 2>&1); then
		bad_input "$f: not git-config syntax: ${keys##*: }"
	fi
	for key in $keys; do
		# shellcheck disable=SC2086
		case " $(printf '%s ' $MANIFEST_KEYS)" in
		*" $key "*) ;;
		*) errs+=("$f:$key: unknown key") ;;
		esac
	done
	name=$(mget "$f" topic.name)
	[ "$name" = "$(basename "$f" .conf)" ] ||
		errs+=("$f:topic.name: '$name' does not match the file name")
	state=$(mget "$f" topic.state)
	tracks=$(mget "$f" topic.tracks)
	[ -n "$(mget "$f" topic.prefix)" ] || errs+=("$f:topic.prefix: missing")
	[ -n "$tracks" ] || errs+=("$f:topic.tracks: missing")
	for t in $tracks; do
		case " $KQ_TRACKS " in *" $t "*) ;; *) errs+=("$f:topic.tracks: unknown track '$t' (known: $KQ_TRACKS)") ;; esac
	done
	case "$state" in
	active)
		patches=$(mget "$f" topic.patches)
		cover=$(mget "$f" topic.cover)
		if [ -z "$patches" ]; then
			errs+=("$f:topic.patches: missing")
		elif [ ! -d "$KQ_ROOT/$patches" ]; then
			errs+=("$f:topic.patches: no directory $patches")
		else
			for t in $tracks; do
				local s
				s=$(series_file "$f" "$t")
				if [ ! -f "$s" ]; then
					errs+=("$f:topic.patches: no series file ${s#"$KQ_ROOT"/}")
					continue
				fi
				local p
				while read -r p; do
					[ -f "$KQ_ROOT/$patches/$p" ] ||
						errs+=("$f:topic.patches: ${s#"$KQ_ROOT"/} names missing patch $p")
				done < <(series_patches "$s")
			done
		fi
		if [ -z "$cover" ]; then
			errs+=("$f:topic.cover: missing")
		elif [ ! -f "$KQ_ROOT/$cover" ]; then
			errs+=("$f:topic.cover: no file $cover")
		fi
		;;
	merged)
		up=$(mget "$f" topic.upstream)
		printf '%s' "$up" | grep -qE '^[0-9a-f]{12,40}$|^v[0-9].*$' ||
			errs+=("$f:topic.upstream: '$up' is not an upstream commit id or release")
		;;
	"") errs+=("$f:topic.state: missing") ;;
	*) errs+=("$f:topic.state: '$state' is not active or merged") ;;
	esac
	if [ "${#errs[@]}" -gt 0 ]; then
		printf '%s\n' "${errs[@]}" >&2
		exit 2
	fi
}

# series_file MANIFEST TRACK: the series file for that track
# (topic.series-<track> if set, else <patches>/series).
series_file() {
	local s
	s=$(mget "$1" "track.$2.series")
	[ -n "$s" ] || s=series
	printf '%s/%s/%s\n' "$KQ_ROOT" "$(mget "$1" topic.patches)" "$s"
}
series_patches() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }
# series_base FILE TRACK: the packaged version of TRACK the series applies
# to: its "# base: <version>" line for that track (a series file shared by
# two tracks has one line per track).
series_base() {
	local v
	sed -n 's/^# base: *\([^ ]*\).*/\1/p' "$1" | while read -r v; do
		if [ "$(track_of "$v")" = "$2" ]; then echo "$v"; fi
	done | tail -n 1
}

# series_head FILE TRACK VERSION [own]: the comment lines a series file
# keeps when TRACK moves to VERSION: its other comments, the base lines of
# the other tracks (unless "own": a series of TRACK alone), and
# "# base: VERSION".
series_head() {
	local v
	grep -v '^# base: ' "$1" | sed -n '/^#/p' || true
	[ "${4:-}" = own ] || sed -n 's/^# base: *\([^ ]*\).*/\1/p' "$1" | while read -r v; do
		if [ "$(track_of "$v")" != "$2" ]; then echo "# base: $v"; fi
	done
	echo "# base: $3"
}

# patch_failure WT PATCH AMLOG: name the file and hunk of PATCH that did not
# apply.  Runs after "am --abort", in the worktree WT where it should go.
patch_failure() {
	local wt=$1 patch=$2 log=$3 where file line hunk conflicts
	where=$(git -C "$wt" apply --check "$patch" 2>&1 |
		grep -oE 'patch failed: [^ ]+:[0-9]+' | sed -n 1p | cut -d' ' -f3) || true
	conflicts=$(sed -n 's/^CONFLICT ([a-z/]*): Merge conflict in /3-way conflict in /p' "$log" | tr '\n' ' ')
	if [ -n "$where" ]; then
		file=${where%:*} line=${where##*:}
		hunk=$(grep -m1 -E "^@@ -$line(,[0-9]+)? " "$patch" || true)
		printf '%s: does not apply: %s, hunk %s%s\n' "${patch##*/}" "$file" \
			"${hunk:-at line $line}" "${conflicts:+ ($conflicts)}"
		return
	fi
	where=$(grep -E '^CONFLICT|does not exist in index|already exists in|error: ' "$log" | sed -n 1,3p | tr '\n' ' ')
	printf '%s: does not apply: %s\n' "${patch##*/}" "${where:-$(tail -n 1 "$log")}"
}


manifest_of() {
	local f=$KQ_BRANCHES/$1.conf
	[ -f "$f" ] || bad_input "unknown topic '$1' (topics: $(all_topics | tr '\n' ' '))"
	printf '%s\n' "$f"
}
all_topics() {
	local f
	for f in "$KQ_BRANCHES"/*.conf; do
		[ -e "$f" ] && basename "$f" .conf
	done
}
# active_topics [TRACK]: active topics, optionally only those for TRACK.
active_topics() {
	local t f
	for t in $(all_topics); do
		f=$KQ_BRANCHES/$t.conf
		[ "$(mget "$f" topic.state)" = active ] || continue
		if [ -n "${1:-}" ]; then
			case " $(mget "$f" topic.tracks) " in *" $1 "*) ;; *) continue ;; esac
		fi
		printf '%s\n' "$t"
	done
}

topic_branch() { printf 'topic/%s/%s\n' "$1" "$(version_tag "$2" | sed 's|^debian/||')"; }

# build_helper NAME: compile scripts/NAME.c into the cache once; print path.
build_helper() {
	local src=$KQ_SCRIPTS/$1.c bin=$KQ_CACHE/bin/$1
	mkdir -p "$KQ_CACHE/bin"
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		${CC:-cc} -O2 -Wall -Wextra -o "$bin.tmp.$$" "$src" ||
			die "cannot compile $src"
		mv -f "$bin.tmp.$$" "$bin"
	fi
	printf '%s\n' "$bin"
}

# merge_onto COMMIT BRANCH...: COMMIT with each BRANCH merged in, as linux-next
# does it (merge-tree, no worktree), each merge dated like COMMIT so the same
# inputs give the same id.  Fast-forwards when COMMIT is an ancestor.
# Prints the result; dies naming the branch and the file on a conflict.
merge_onto() {
	local commit=$1 b mb tree date
	shift
	date=$(kgit log -1 --format=%ad --date=raw "$commit")
	for b; do
		mb=$(kgit merge-base "$commit" "$b") || die "$b shares no history with $commit"
		if [ "$mb" = "$(kgit rev-parse "$b^{commit}")" ]; then
			continue
		elif [ "$mb" = "$(kgit rev-parse "$commit^{commit}")" ]; then
			commit=$(kgit rev-parse "$b^{commit}")
			continue
		fi
		tree=$(kgit merge-tree --write-tree --name-only "$commit" "$b") ||
			die "merging $b conflicts in $(printf '%s\n' "$tree" | sed -n '2,/^$/p' | sed '/^$/d' | paste -sd' ')"
		commit=$(GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
			kgit commit-tree -p "$commit" -p "$b" -m "Merge $b" "$tree")
	done
	printf '%s\n' "$commit"
}

# integration_commit VERSION TRACK: the packaged tree with every active
# topic of TRACK merged (in manifest order), as refs/heads/integration/<v>.
# The topic branches must exist (scripts/apply all VERSION).
integration_commit() {
	local tag base t b c branches=()
	tag=$(version_tag "$1")
	base=$(kgit rev-parse "refs/tags/$tag^{commit}")
	for t in $(active_topics "$2"); do
		b=$(topic_branch "$t" "$1")
		[ "$(kgit merge-base "$base" "$b" 2>/dev/null)" = "$base" ] || die "$b is not based on $tag"
		branches+=("$b")
	done
	c=$(merge_onto "$base" ${branches[@]+"${branches[@]}"})
	kgit update-ref "refs/heads/integration/${tag#debian/}" "$c"
	printf '%s\n' "$c"
}

# sparse_worktree WT COMMIT PATH...: a worktree of the cache at COMMIT
# (made once, detached) with only the top-level files and PATHs ("/dir/file")
# checked out, and no git am left in progress.
sparse_worktree() {
	local wt=$1 commit=$2 err
	shift 2
	if [ ! -e "$wt/.git" ]; then
		rm -rf "$wt"
		kgit worktree prune
		mkdir -p "${wt%/*}"
		err=$(kgit worktree add -q --no-checkout --detach "$wt" "$commit" 2>&1) ||
			die "cannot create worktree $wt: $err"
	fi
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" sparse-checkout set --no-cone '/*' '!/*/' "$@" 2>/dev/null
	git -C "$wt" checkout -q --detach -f "$commit"
	git -C "$wt" reset -q --hard "$commit"
}
# patch_paths PATCH...: the files the patches touch, as sparse_worktree paths.
patch_paths() { sed -n 's|^diff --git a/\([^ ]*\) b/\(.*\)$|/\1\n/\2|p' "$@" | sort -u; }

# worktree_at WT COMMIT: a full worktree of the cache at COMMIT, made once
# and then moved with reset --hard, so only changed files get new mtimes
# and a build directory next to it stays warm.
worktree_at() {
	local wt=$1 commit=$2
	if [ ! -e "$wt/.git" ]; then
		rm -rf "$wt"
		kgit worktree prune
		kgit worktree add -q --detach "$wt" "$commit"
	else
		git -C "$wt" reset -q --hard "$commit"
	fi
}

# kbuild_prepare WT OBJ [OPTION...]: the build directory OBJ for worktree
# WT, an allmodconfig (of $ARCH, x86_64 by default) minus the options that
# turn warnings into errors or need tools outside the build (BTF wants
# pahole) and minus OPTIONs, with "make prepare" done.  Cheap when OBJ is
# warm.
kbuild_prepare() {
	local wt=$1 obj=$2 o off=()
	shift 2
	for o; do off+=(-d "$o"); done
	if [ ! -f "$obj/.config" ]; then
		mkdir -p "$obj"
		make -C "$wt" O="$obj" -s allmodconfig >/dev/null
		"$wt/scripts/config" --file "$obj/.config" -d WERROR -d DEBUG_INFO_BTF ${off[@]+"${off[@]}"}
		make -C "$wt" O="$obj" -s olddefconfig >/dev/null
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

# checker_make WT OBJ MAKE-ARG... -- OBJECT...: make -k MAKE-ARGs over the
# OBJECTs in build directory OBJ, with the objects that have a checker
# workaround in a make of their own with its flags in CF=.  Output on
# stdout; a failed make is not an error (its log says what failed).
checker_make() {
	local wt=$1 obj=$2 args=() cf o plain=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	[ $# -gt 0 ] || return 0
	declare -A group=()
	while IFS=$'\t' read -r o cf _; do group[$cf]+=" $o"; done < <(printf '%s\n' "$@" | sparse_workarounds)
	for o; do
		case " ${group[*]} " in *" $o "*) ;; *) plain+=("$o") ;; esac
	done
	[ ${#plain[@]} -eq 0 ] ||
		make -C "$wt" O="$obj" -k -j"$(nproc)" --output-sync=target "${args[@]}" "${plain[@]}" 2>&1 || true
	for cf in "${!group[@]}"; do
		# shellcheck disable=SC2086
		make -C "$wt" O="$obj" -k -j"$(nproc)" --output-sync=target "${args[@]}" CF="$cf" ${group[$cf]} 2>&1 || true
	done
}

# SPARSE_TYPE_DIAGNOSTICS: the sparse errors that are ordinary type
# diagnostics; any other error means sparse did not understand the file.
# shellcheck disable=SC2034  # used by the scripts that source this file
SPARSE_TYPE_DIAGNOSTICS='^(incompatible types|incorrect type|different address spaces|dereference of noderef|cast (from|to|removes))'

# kbuild_objects WT OBJ < SOURCES: "source object" for every source (a
# path relative to WT) that the configuration in OBJ builds, the object
# named by its real Kbuild path (amdkfd files build as
# drivers/gpu/drm/amd/amdgpu/../amdkfd/X.o).  make -n over the sources'
# directories says which object compiles which file; the answer is cached
# per set of Makefile, Kbuild and Kconfig files and directories.
kbuild_objects() {
	local wt=$1 obj=$2 srcs dirs key map
	srcs=$(cat)
	dirs=$(printf '%s\n' "$srcs" | awk -F/ 'NF >= 3 { print $1 "/" $2 "/"; next } NF { print $1 "/" }' |
		sort -u | awk '{ for (d in seen) if (index($0, d) == 1) next; seen[$0]; print }')
	[ -n "$dirs" ] || return 0
	key=$(git -C "$wt" ls-tree -r HEAD |
		grep -E '/(Makefile|Kbuild|Kconfig)[^/]*$|	(Makefile|Kbuild|Kconfig)[^/]*$' |
		cat - <(printf '%s\n' "$dirs" "ARCH=${ARCH:-x86_64}" "config=${KQ_CONFIG_NAME:-}") | sha1sum | cut -c1-16)
	map=$KQ_CACHE/objmap/$key
	if [ ! -s "$map" ]; then
		mkdir -p "$KQ_CACHE/objmap"
		# make -n prints only what is out of date: an extra KCFLAGS makes
		# every object's command line differ from the one it was built with.
		# shellcheck disable=SC2086
		make -C "$wt" O="$obj" -n -k KCFLAGS=-DKQ_OBJMAP $dirs 2>/dev/null |
			grep -oE -- " -c -o [^ ]+\.o [^ ]+\.c( |$)" |
			awk -v src="$wt/" '{ s = $4; if (index(s, src) == 1) s = substr(s, length(src) + 1)
				print s, $3 }' | sort -u >"$map.tmp.$$" || true
		mv "$map.tmp.$$" "$map"
	fi
	# Match sources by their normalised path ("a/b/../c/x.c" is "a/c/x.c").
	awk 'function norm(p,   n, i, k, q, s) {
		n = split(p, x, "/"); k = 0
		for (i = 1; i <= n; i++) if (x[i] == "..") k--; else if (x[i] != ".") q[++k] = x[i]
		s = q[1]; for (i = 2; i <= k; i++) s = s "/" q[i]
		return s
	}
	FILENAME == ARGV[1] { want[$1]; next }
	{ s = norm($1); if ((s in want) && !(s in done)) { done[s]; print s, $2 } }' \
		<(printf '%s\n' "$srcs") "$map"
}
