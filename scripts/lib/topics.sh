# shellcheck shell=bash
# Topic manifests (branches/<topic>.conf), series files and topic branch
# names.  Needs common.sh and versions.sh.

kq_lib versions

# ---- topic manifests ------------------------------------------------------
# branches/<topic>.conf, git-config syntax:
#   [topic]        name, prefix, state (active|merged), tracks, patches,
#                  cover, upstream + upstream-subject (merged only),
#                  description
#   [track "6.1"]  series: the series file for that track when the code
#                  differs between tracks (default: <patches>/series);
#                  build-only-part: the part of that track's series no
#                  guest can run, and why (said in the cover's testing)
MANIFEST_KEYS="topic.name topic.prefix topic.state topic.tracks topic.patches
topic.cover topic.upstream topic.upstream-subject topic.description topic.depends
topic.boot topic.build-only topic.change-id topic.sent-version topic.sent-from topic.send-prefixes
topic.merged-in topic.merged-reason
$(for t in $KQ_TRACKS; do printf 'track.%s.series track.%s.build-only-part ' "$t" "$t"; done)"

mget() { git config -f "$1" --get "$2" 2>/dev/null || true; }

# validate_manifest FILE: one "file:key: problem" line per fault, exit 2.
validate_manifest() {
	local f=$1 errs=() keys key name state tracks t patches cover up pend
	[ -r "$f" ] || bad_input "$f: cannot read manifest"
	# a rebase killed while writing the topic's files (scripts/rebase's
	# commit_staged): the next rebase finishes it, nothing reads it before
	pend=$(dirname "$f")/.$(basename "$f" .conf).rebase-pending
	[ ! -e "$pend" ] ||
		bad_input "$f: a rebase was interrupted while writing this topic's files: make rebase or make update finishes it (${pend##*/})"
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
	for t in $(mget "$f" topic.merged-in); do
		case " $KQ_TRACKS " in *" $t "*) ;; *) errs+=("$f:topic.merged-in: unknown track '$t' (known: $KQ_TRACKS)") ;; esac
		[ "$state" != active ] || case " $tracks " in *" $t "*) errs+=("$f:topic.merged-in: track $t is also in topic.tracks") ;; esac
		[ -n "$(mget "$f" topic.merged-reason)" ] || errs+=("$f:topic.merged-reason: missing (why $t needs no patch)")
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
		[[ $up =~ ^([0-9a-f]{12,40}|v[0-9].*)$ ]] ||
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

# merged_tracks MANIFEST: the tracks the topic is upstream on: every track
# of scripts/tracks from the first one topic.merged-in names.
merged_tracks() {
	local m t on=''
	m=" $(mget "$1" topic.merged-in) "
	[ "$m" != "  " ] || return 0
	for t in $KQ_TRACKS; do
		case $m in *" $t "*) on=yes ;; esac
		[ -z "$on" ] || echo "$t"
	done
}

# merged_on MANIFEST TRACK: is the topic upstream on TRACK?
merged_on() {
	local t
	for t in $(merged_tracks "$1"); do
		[ "$t" != "$2" ] || return 0
	done
	return 1
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
