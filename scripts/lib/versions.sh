# shellcheck shell=bash
# Packaged versions: Debian version <-> DEP-14 tag, track of a version,
# what apt lists (cached per package-list state), and resolving what a
# user typed.  Needs common.sh.

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
