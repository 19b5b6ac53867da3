#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034,SC2154
test_description='send on the newest track: every real topic as the series a maintainer
gets (dry run); git am of the mails onto the packaged tree gives the topic branch, and
checkpatch --strict passes every mail; a topic upstream has is never prepared'
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

# The newest track, where maintainers apply: the last line of scripts/tracks.
track=$(awk '!/^#/ && NF { t = $1 } END { print t }' "$REPO/scripts/tracks")
conf() { git config -f "$REPO/branches/$1.conf" "$2"; }
SQ="'"
# sendable: the active topics of the track that upstream does not have there
sendable() {
	local f t
	for f in "$REPO"/branches/*.conf; do
		t=$(basename "$f" .conf)
		[ "$(conf "$t" topic.state)" = active ] || continue
		case " $(conf "$t" topic.tracks) " in *" $track "*) ;; *) continue ;; esac
		[ -z "$(conf "$t" topic.merged-in)" ] || continue
		echo "$t"
	done
}
# A reviewer-like identity (a placeholder would only add a refusal line).
export GIT_CONFIG_GLOBAL=$PWD/gitconfig
git config --file "$GIT_CONFIG_GLOBAL" user.name "Queue Tester"
git config --file "$GIT_CONFIG_GLOBAL" user.email tester@vmfault-queue.dev

test_expect_success 'setup: the newest packaged tree of the newest track, in the fixture cache' '
	v=$(KQ_CACHE=$REAL_CACHE kernels --newest $track) && echo "$v" >version &&
	KQ_CACHE=$REAL_CACHE kernel-tree "$v" >/dev/null &&
	tag=debian/$(sed "s/~/_/" version) && echo "$tag" >tag &&
	use_fixture_cache "$REAL_CACHE" "$tag" &&
	sendable >topics && test -s topics && cat topics
'

# Each subject carries the topic's prefix or, for a patch to another driver
# of the same subsystem, that driver's (vfio/pci: and vfio/nvgrace-gpu:).
# patches T: the topic's patch mails (a single patch goes without a cover)
patches() { if [ "$(wc -l <"mails.$1")" -gt 1 ]; then sed 1d "mails.$1"; else cat "mails.$1"; fi; }

test_expect_success 'the dry run prepares every topic: cover and patches, numbered, prefixed, addressed' '
	v=$(cat version) &&
	for t in $(cat topics); do
		send "$t" "$v" >"out.$t" 2>&1 || { cat "out.$t"; return 1; }
		d=results/$v/send-$t/v$(( $(conf "$t" topic.sent-version || echo 0) + 1 )) &&
		find "$d" -name "*.eml" | sort >"mails.$t" &&
		n=$(kq_git rev-list --count "$(cat tag)..topic/$t/$(sed "s|^debian/||" tag)") &&
		test "$n" -ge 1 &&
		if [ "$n" -eq 1 ]; then want=1 num=; else want=$((n + 1)) num=" 1/$n"; fi &&
		test "$(wc -l <"mails.$t")" = "$want" || { echo "$t: $(wc -l <"mails.$t") mails for $n patches"; return 1; }
		if [ "$n" -gt 1 ]; then
			awk -v h=Subject -f "$S/lib/header.awk" "$(sed -n 1p "mails.$t")" >subj &&
			grep -Fx "[PATCH 0/$n] $(sed -n 1p "$REPO/$(conf "$t" topic.cover)")" subj || { cat subj; return 1; }
		fi
		i=0 &&
		for m in $(patches "$t"); do
			i=$((i + 1)) &&
			awk -v h=Subject -f "$S/lib/header.awk" "$m" >subj &&
			if [ "$n" -eq 1 ]; then num=; else num=" $i/$n"; fi &&
			pfx=$(conf "$t" topic.prefix) &&
			grep -E "^\[PATCH$num\] $(ere "${pfx%%/*}")(/[a-z0-9_-]+)*: [^ ]" subj &&
			test -n "$(awk -v h=To -f "$S/lib/header.awk" "$m")" || { echo "$m"; cat subj; return 1; }
		done
	done
'

test_expect_success 'git am of the mails onto the packaged tree gives each topic branch, file for file' '
	am=$KQ_CACHE/worktrees/t0610-am &&
	if [ -e "$am/.git" ]; then
		git -C "$am" am --abort >/dev/null 2>&1; git -C "$am" checkout -q -f --detach "$(cat tag)" && git -C "$am" clean -qfd
	else
		rm -rf "$am" && kq_git worktree prune && kq_git worktree add -q --detach "$am" "$(cat tag)"
	fi &&
	for t in $(cat topics); do
		git -C "$am" checkout -q -f --detach "$(cat tag)" &&
		test -s "mails.$t" && mapfile -t ms < <(patches "$t" | sed "s|^|$PWD/|") &&
		fgit -C "$am" am -q "${ms[@]}" || { git -C "$am" am --abort; echo "$t does not am"; return 1; }
		br=topic/$t/$(sed "s|^debian/||" tag) &&
		test "$(git -C "$am" rev-list --count "$(cat tag)..HEAD")" = "$(patches "$t" | wc -l)" &&
		git -C "$am" diff --stat --exit-code "$br" HEAD -- || { echo "$t: the mails do not give $br"; return 1; }
	done
'

test_expect_success 'checkpatch --strict (with codespell) passes every mail of every series' '
	am=$KQ_CACHE/worktrees/t0610-am &&
	dict=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt &&
	spell= && { test ! -f "$dict" || spell="--codespell --codespellfile $dict"; } &&
	for t in $(cat topics); do
		test -s "mails.$t" || return 1
		for m in $(patches "$t"); do
			(cd "$am" && perl scripts/checkpatch.pl --strict --color=never $spell "$OLDPWD/$m") >cp.out 2>&1 ||
				{ echo "$t: $m"; cat cp.out; return 1; }
			grep -x "total: 0 errors, 0 warnings, 0 checks, [0-9]* lines checked" cp.out || { cat cp.out; return 1; }
		done
	done
'

test_expect_success 'a topic upstream has on this track is refused by name, nothing prepared' '
	v=$(cat version) && n=0 &&
	for f in "$REPO"/branches/*.conf; do
		t=$(basename "$f" .conf) &&
		test -n "$(conf "$t" topic.merged-in)" && test "$(conf "$t" topic.state)" = active || continue
		n=$((n + 1)) &&
		test_expect_code 2 send "$t" "$v" 2>err && test_line_count = 1 err &&
		grep -F "topic.merged-in: ${SQ}$t${SQ} is upstream from track" err &&
		test ! -e "results/$v/send-$t" || return 1
	done &&
	test "$n" -ge 1
'

test_done
