# shellcheck shell=bash
# The contract of every check under scripts/checks/ (NIPA's, in shell):
#
#   scripts/checks/NAME/run DIR
#
# DIR is what the runner (scripts/check) prepared; a check only reads it:
#   base-tree, tip-tree  one line each: the packaged worktree, the topic's
#   range                one line: BASE..TIP, the topic's commits
#   sources              the touched sources (headers followed to their users)
#   map                  "source object" for each the configuration builds
#   unbuilt              touched sources the configuration does not build
#   sampled              (optional) one line per header whose users were cut
#                        to KQ_CHECK_USERS: a check of the objects judged only
#                        a sample of them, so it warns (sampled_warn)
#   before.log after.log kbuild's output of C=2 W=1 on those objects at the
#                        base and at the tip (absent: nothing was compiled)
# and writes only DIR/NAME/:
#   status               pass, warn, fail or error (error: could not judge)
#   summary              one line; for an error, what stopped the check
#   any other file       one detail per line, recorded as checks.NAME.FILE
# Scratch files go to DIR/NAME.work/.  Exit: 0 pass, 1 fail, 3 warn,
# 4 error, 2 bad input.  NAME/reads lists what else the check reads
# (paths under scripts/, and "$ command" lines whose output names a tool's
# version): the runner reuses a record only while all of it is unchanged.
set -euo pipefail

CHECKS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KQ_SCRIPTS=${KQ_SCRIPTS:-$(dirname "$CHECKS_DIR")}

# check_start NAME ARGS...: parse the command line, set DIR, OUT, WORK.
check_start() {
	NAME=$1
	shift
	case ${1:-} in
	-h | --help)
		echo "usage: run DIR   (scripts/checks/$NAME/run, the $NAME check; its header says what it judges)"
		echo
		sed -n '/^# The contract/,/^set -euo/p' "$CHECKS_DIR/lib.sh" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	esac
	if [ $# -ne 1 ] || [ ! -d "$1" ]; then
		echo "$NAME: usage: scripts/checks/$NAME/run DIR (DIR: the runner's work directory; -h: the contract)" >&2
		exit 2
	fi
	DIR=$1
	OUT=$DIR/$NAME
	WORK=$DIR/$NAME.work
	rm -rf "$OUT" "$WORK"
	mkdir -p "$OUT" "$WORK"
}

# need FILE...: inputs the runner must have written; a missing one is bad input.
need() {
	local f
	for f; do
		[ -e "$DIR/$f" ] || { echo "$NAME: $DIR/$f is missing: not a runner's work directory" >&2; exit 2; }
	done
}

# verdict STATUS SUMMARY: write both and exit with the status's code.
# sampled_warn SUMMARY: warn, naming the cut, when the runner built only a
# sample of a header's users (DIR/sampled); otherwise nothing.
sampled_warn() {
	[ -s "$DIR/sampled" ] || return 0
	case $1 in
	*"$(sed -n 1p "$DIR/sampled")"*) verdict warn "$1" ;;
	*) verdict warn "$1; only a sample was built: $(paste -sd';' "$DIR/sampled")" ;;
	esac
}

verdict() {
	printf '%s\n' "$1" >"$OUT/status"
	printf '%s\n' "$2" >"$OUT/summary"
	case $1 in
	pass) exit 0 ;;
	fail) exit 1 ;;
	warn) exit 3 ;;
	error) exit 4 ;;
	esac
	echo "$NAME: no such status '$1'" >&2
	exit 2
}

# count FILE: its non-empty lines.
count() { grep -c . "$1" || true; }

# warnings WT < LOG: "tool|file|line|message" per diagnostic (tool gcc or
# sparse, "-error" appended for errors).
warnings() {
	awk -v src="$1/" -f "$KQ_SCRIPTS/lib/paths.awk" -f "$KQ_SCRIPTS/lib/build-warnings.awk"
}

# compare BEFORE AFTER TOOL new|removed|kept: diagnostics of TOOL the tip
# adds, removes or keeps from the base, matched by file and message.
compare() {
	awk -F'|' -v tool="$3" -v what="$4" -f "$KQ_SCRIPTS/lib/compare-warnings.awk" "$1" "$2" | sort
}

# not_compiled WT MAP LOG: the objects of MAP that LOG has neither a "CC"
# line nor a failure for: the compiler never ran on them.
not_compiled() {
	awk -v src="$1/" -f "$KQ_SCRIPTS/lib/paths.awk" -f "$KQ_SCRIPTS/lib/cc-notrun.awk" "$2" "$3" | sort
}
