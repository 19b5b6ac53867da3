# shellcheck shell=bash
# Sourced by every verb in scripts/: paths, messages, timing, the cache and
# its lock, records, and kq_lib to source the other files of scripts/lib/
# a verb needs:
#   versions.sh  packaged versions, tags and their lookup
#   topics.sh    topic manifests, series files, topic branches
#   trees.sh     worktrees, merges and why a patch did not apply
#   kbuild.sh    build directories, checker runs, Kbuild object paths
# Source it, don't run it.

KQ_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# KQ_ROOT holds branches/, kernel-patches/ and cover-letters/ (tests point
# it at fixtures); the scripts always come from KQ_SCRIPTS.
KQ_ROOT=${KQ_ROOT:-${KQ_SCRIPTS%/scripts}}
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
# The tracks (scripts/tracks, data): all of them, and those `make` runs on.
KQ_TRACKS_FILE=${KQ_TRACKS_FILE:-$KQ_SCRIPTS/tracks}
KQ_TRACKS=${KQ_TRACKS:-$(awk '!/^#/ && NF { printf "%s%s", s, $1; s = " " }' "$KQ_TRACKS_FILE")}
KQ_DEFAULT_TRACKS=${KQ_DEFAULT_TRACKS:-$(awk '!/^#/ && $2 == "default" { printf "%s%s", s, $1; s = " " }' "$KQ_TRACKS_FILE")}
KQ_GIT=$KQ_CACHE/linux.git
KQ_RESULTS=${KQ_RESULTS:-$KQ_CACHE/results}
KQ_BRANCHES=${KQ_BRANCHES:-$KQ_ROOT/branches}
export KQ_CACHE KQ_TRACKS KQ_DEFAULT_TRACKS
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

# descendants PID: every process below PID, collected before any dies
# (an orphan is no longer found under its parent).
descendants() {
	local c
	for c in $(pgrep -P "$1" || true); do echo "$c"; descendants "$c"; done
}
# kill_tree PID: PID and every process below it, TERMed (a job a script
# started in the background, when the script ends before it).
kill_tree() {
	local all
	all=$(descendants "$1")
	# shellcheck disable=SC2086
	kill -TERM "$1" $all 2>/dev/null || true
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

# The commits the queue derives from the patch files (topic branches,
# rebased topics, integration merges) are the queue's, whoever runs it:
# the same patches on the same base then give the same commit ids in
# `make`, the tests and CI, and the records keyed on a commit (checks,
# kept scan passes) serve them all.  The patches' authors stay theirs.
KQ_IDENT_NAME=vmfault-queue
KQ_IDENT_EMAIL=vmfault-queue@localhost
# as_queue CMD...: CMD committing as the queue (git am).
as_queue() { GIT_COMMITTER_NAME=$KQ_IDENT_NAME GIT_COMMITTER_EMAIL=$KQ_IDENT_EMAIL "$@"; }
# by_queue COMMIT: whether the queue committed COMMIT.
by_queue() { [ "$(kgit log -1 --format=%ce "$1" 2>/dev/null)" = "$KQ_IDENT_EMAIL" ]; }

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

# kq_lib NAME...: source scripts/lib/NAME.sh once each (in the order given;
# list a file after the ones it needs).
declare -A KQ_LIB_LOADED=()
kq_lib() {
	local l
	for l; do
		[ -z "${KQ_LIB_LOADED[$l]:-}" ] || continue
		[ -f "$KQ_SCRIPTS/lib/$l.sh" ] || die "kq_lib: no scripts/lib/$l.sh"
		KQ_LIB_LOADED[$l]=1
		# shellcheck source=/dev/null
		. "$KQ_SCRIPTS/lib/$l.sh"
	done
}

# ---- records (scripts/lib/records.py is the only writer and reader) -------
utc_now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# record_write KIND OUT KEY=SPEC...: write a record (records.py write).
record_write() { python3 "$KQ_SCRIPTS/lib/records.py" write "$@" || die "cannot write the $1 record $2"; }
# record_get FILE PATH...: fields of a record, one per line.
record_get() { python3 "$KQ_SCRIPTS/lib/records.py" get "$@"; }
# tool_id [FILE...]: the git hash of what makes a record: the verb running,
# every library and program under lib/ (the awk, perl and python that
# decide verdicts), the data the checks read (rules, workarounds, cross
# architectures), FILEs, and the versions of the tools they run (sparse,
# the sparse built for newer trees, spatch, gcc, checkpatch's perl).
# shellcheck disable=SC2120  # FILEs are optional
tool_id() {
	{
		cat "$KQ_SCRIPTS/$PROG" "$KQ_SCRIPTS"/lib/* "$KQ_SCRIPTS/vm_fault_t.cocci" \
			"$KQ_SCRIPTS/spatch-macros.h" "$KQ_SCRIPTS/sparse-workarounds" "$KQ_SCRIPTS/sparse-limits" "$KQ_SCRIPTS/cross-arches" "$@"
		sparse --version
		echo "${KQ_SPARSE:-}"
		cat "$KQ_CACHE/tools/sparse/VERSION"
		spatch --version | sed -n 1p
		gcc --version | sed -n 1p
		perl -e 'print "$]\n"'
	} 2>/dev/null | git hash-object --stdin
}
