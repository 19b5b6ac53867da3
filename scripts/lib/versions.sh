# shellcheck shell=bash
# Packaged versions: Debian version <-> DEP-14 tag, track of a version,
# what apt lists (cached per package-list state), and resolving what a
# user typed.  Needs common.sh.

# DEP-14 tag name for a Debian version: ~ becomes _, : becomes %.
version_tag() { local v=${1//\~/_}; printf 'debian/%s\n' "${v//:/%}"; }
tag_version() { local v=${1#debian/}; v=${v//_/\~}; printf '%s\n' "${v//%/:}"; }
upstream_of() { local v=${1#*:}; printf '%s\n' "${v%%-*}"; }
track_of() { local u; u=$(upstream_of "$1"); printf '%s\n' "${u%.*}"; }

# ---- the queue's own apt configuration -----------------------------------
# Debian's archive serves more suites than this machine's sources name
# (trixie-backports and sid carry linux-source-7.x).  The queue keeps an apt
# configuration of its own in $KQ_APT: sources from scripts/debian-suites,
# checked against Debian's archive keyring alone (Dir::Etc::trusted* point at
# a copy of it; never trusted=yes), its own lists, cache and an empty dpkg
# status.  /etc/apt is never written, and
# nothing is ever installed from it: apt-get download only.  An APT_CONFIG
# in the environment wins (the tests' private archives, a mirror).
# The host's apt configuration is not read (apt reads Dir::Etc::parts and
# Dir::Etc::main after APT_CONFIG: both point into $KQ_APT), so no host
# setting can turn a check off; of it, the queue takes only how this
# machine reaches the archive (apt_access_settings), into
# $KQ_APT/apt.conf.d/50access.
KQ_APT=${KQ_APT:-$KQ_CACHE/apt}
KQ_SUITES=${KQ_SUITES:-$KQ_SCRIPTS/debian-suites}
KQ_APT_KEYRING=${KQ_APT_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
KQ_APT_MAX_AGE=${KQ_APT_MAX_AGE:-86400}
if [ -z "${APT_CONFIG:-}" ] || [ "${KQ_APT_OWN:-}" = "$KQ_APT" ]; then
	export KQ_APT_OWN=$KQ_APT APT_CONFIG=$KQ_APT/apt.conf
else
	KQ_APT_OWN=
fi

# suites_list: the "suite archive components..." lines of $KQ_SUITES.
suites_list() { awk '!/^#/ && NF' "$KQ_SUITES"; }
# suite_names: the suites of $KQ_SUITES on one line.
suite_names() { suites_list | awk '{ printf "%s%s", s, $1; s = " " } END { print "" }'; }
# suite_problem SUITE URI: why apt's last update could not use SUITE, or nothing.
suite_problem() { awk -v uri="$2" -v suite="$1" -f "$KQ_SCRIPTS/lib/apt-errors.awk" "$KQ_APT/update.log" 2>/dev/null || true; }

# apt_access_settings: the host's settings of how it reaches the archive
# (a proxy; Check-Valid-Until and Check-Date, which a frozen copy of the
# archive needs off), one apt.conf line each, and no other setting.
# KQ_HOST_APT_CONFIG names another host configuration (the tests').
apt_access_settings() {
	local host=()
	[ -z "${KQ_HOST_APT_CONFIG:-}" ] || host=(APT_CONFIG="$KQ_HOST_APT_CONFIG")
	env -u APT_CONFIG "${host[@]}" apt-config dump 2>/dev/null |
		grep -E '^Acquire::(https?::Proxy(::[^ ]+)?|Check-Valid-Until|Check-Date) "[^"]*";$' || true
}

# apt_ready: write the queue's apt configuration and refresh its package
# lists when they are older than KQ_APT_MAX_AGE seconds or the suites
# changed.  A suite apt cannot use is one line naming it; the others go on.
apt_ready() {
	[ -n "$KQ_APT_OWN" ] || return 0
	[ -r "$KQ_SUITES" ] || bad_input "$KQ_SUITES: no such suites file"
	[ -r "$KQ_APT_KEYRING" ] ||
		die "$KQ_APT_KEYRING: no archive keyring to check the suites with (apt-get install debian-archive-keyring)"
	local sources conf access stamp=$KQ_APT/lists/.updated age
	sources=$(suites_list | awk '
		NF < 3 { print "bad " FILENAME ":" NR; exit 1 }
		{ printf "deb %s %s", $2, $1
		  for (i = 3; i <= NF; i++) printf " %s", $i; print "" }') ||
		bad_input "$KQ_SUITES: a line needs a suite, an archive and components"
	[ -n "$sources" ] || bad_input "$KQ_SUITES: names no suite"
	conf="Dir::Etc::main \"$KQ_APT/apt.conf.main\";
Dir::Etc::parts \"$KQ_APT/apt.conf.d\";
Dir::Etc::preferences \"$KQ_APT/preferences\";
Dir::Etc::preferencesparts \"$KQ_APT/preferences.d\";
Dir::Etc::sourcelist \"$KQ_APT/sources.list\";
Dir::Etc::sourceparts \"$KQ_APT/sources.list.d\";
Dir::State \"$KQ_APT\";
Dir::State::lists \"$KQ_APT/lists\";
Dir::State::status \"$KQ_APT/status\";
Dir::Cache \"$KQ_APT/cache\";
Dir::Etc::trusted \"$KQ_APT/trusted.gpg\";
Dir::Etc::trustedparts \"$KQ_APT/trusted.gpg.d\";
Acquire::GzipIndexes \"true\";
APT::Sandbox::User \"root\";
Acquire::Languages \"none\";"
	mkdir -p "$KQ_APT/lists/partial" "$KQ_APT/cache/archives/partial" "$KQ_APT/sources.list.d" "$KQ_APT/trusted.gpg.d" \
		"$KQ_APT/apt.conf.d" "$KQ_APT/preferences.d"
	access=$(apt_access_settings)
	if [ "$(cat "$KQ_APT/apt.conf.d/50access" 2>/dev/null)" != "$access" ]; then
		printf '%s\n' "$access" >"$KQ_APT/apt.conf.d/50access"
		rm -f "$stamp"
	fi
	# Acquire::GzipIndexes: the lists are apt's copies, taken when their
	# signature was checked; without it apt links a file: mirror's indexes
	# in place, and they change under the queue with no update.
	# The only key apt trusts here: the archive keyring, not /etc/apt's.
	if ! cmp -s "$KQ_APT_KEYRING" "$KQ_APT/trusted.gpg.d/archive-keyring.gpg"; then
		cp "$KQ_APT_KEYRING" "$KQ_APT/trusted.gpg.d/archive-keyring.gpg.tmp" &&
			mv "$KQ_APT/trusted.gpg.d/archive-keyring.gpg.tmp" "$KQ_APT/trusted.gpg.d/archive-keyring.gpg"
		rm -f "$stamp"
	fi
	[ -e "$KQ_APT/status" ] || : >"$KQ_APT/status"
	[ "$(cat "$KQ_APT/apt.conf" 2>/dev/null)" = "$conf" ] || printf '%s\n' "$conf" >"$KQ_APT/apt.conf"
	if [ "$(cat "$KQ_APT/sources.list" 2>/dev/null)" != "$sources" ]; then
		printf '%s\n' "$sources" >"$KQ_APT/sources.list"
		rm -f "$stamp"
	fi
	if [ -e "$stamp" ]; then
		age=$(( $(date +%s) - $(stat -c %Y "$stamp") ))
		[ "$age" -ge "$KQ_APT_MAX_AGE" ] || return 0
	fi
	(
		exec 8>"$KQ_APT/lock"
		flock 8
		# a concurrent run may have refreshed while this one waited
		if [ -e "$stamp" ] && [ $(( $(date +%s) - $(stat -c %Y "$stamp") )) -lt "$KQ_APT_MAX_AGE" ]; then
			exit 0
		fi
		apt_refresh
	)
}

# apt_refresh: apt-get update of the queue's suites; one line per suite
# that failed (unreachable, unknown, bad signature), fatal only if all did.
apt_refresh() {
	local log=$KQ_APT/update.log rc=0 bad=0 total=0 suite uri reason
	note "apt: updating the package lists of $(suite_names)"
	apt-get update >"$log" 2>&1 || rc=$?
	while read -r suite uri _; do
		total=$((total + 1))
		reason=$(suite_problem "$suite" "$uri")
		[ -n "$reason" ] || continue
		note "apt: suite $suite ($uri) cannot be used: $reason"
		bad=$((bad + 1))
	done < <(suites_list)
	[ "$bad" -lt "$total" ] || die "apt: none of the suites in $KQ_SUITES can be used (log: $log)"
	if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		die "apt-get update failed: $(grep -m1 -E '^(E|W):' "$log" || tail -n 1 "$log")"
	fi
	touch "$KQ_APT/lists/.updated"
}

# packaged_versions: "track debian-version" lines, oldest first per track,
# tracks in KQ_TRACKS order.  apt-cache sorts newest first, so reverse.
# The answer is cached until apt's package lists change (apt-get update).
packaged_versions() {
	local lists key cache
	apt_ready
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

# packaged_suites [TRACK...]: "track debian-version suite[,suite]" lines,
# oldest first, the suites that carry each version (from apt-cache madison:
# "archive suite/component arch Packages", read from the end since a file:
# archive may hold spaces; a flat archive is "./").
packaged_suites() {
	local track
	apt_ready
	for track in "${@:-$KQ_TRACKS}"; do
		apt-cache madison "linux-source-$track" 2>/dev/null |
			awk -F'|' -v t="$track" '
			{ v = $2; gsub(/ /, "", v); k = split($3, w, " "); s = (w[k - 1] ~ /^\.\/?$/) ? "." : w[k - 2]; sub(/\/.*/, "", s)
			  if (s == "" || s == ".") s = "local"
			  if (!(v in suites)) { order[++n] = v; suites[v] = s }
			  else if (index("," suites[v] ",", "," s ",") == 0) suites[v] = suites[v] "," s }
			END { for (i = n; i >= 1; i--) print t, order[i], suites[order[i]] }' || true
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
			{ grep -F "$(printf '%s' "$spec" | cut -d. -f1-2)" || true; } | tr '\n' ' ')
		[ -n "$near" ] || near=$(printf '%s\n' "$all" | awk '{ print $2 }' | tr '\n' ' ')
		bad_input "unknown kernel version '$spec'; packaged: ${near% }"
	fi
	printf '%s\n' "$match"
}
