# shellcheck shell=bash disable=SC2034
# Fixtures for the queue's tests: a private apt archive with tiny
# linux-source packages, a private cache, and topic trees.  Sourced by the
# tests after sharness.

REPO=$(cd "$SHARNESS_TEST_DIRECTORY/.." && pwd)
S=$REPO/scripts
export PATH="$S:$PATH"

# ere STRING: STRING as an extended regular expression that matches only
# itself (a Debian version such as 7.3.4-1~bpo13+1 has a '+').
ere() { printf '%s' "$1" | sed 's/[][\\.*^$+?(){}|]/\\&/g'; }

# A private cache per test script; never the user's.
use_private_cache() {
	export KQ_CACHE="$SHARNESS_TRASH_DIRECTORY/cache"
	export KQ_RESULTS="$KQ_CACHE/results"
}

# use_results_copy: the user's records (KQ_RESULTS, or the cache's),
# copied into the trash directory: the verbs reuse what is recorded there,
# and what a test writes stays in its trash directory.
use_results_copy() {
	local real=${KQ_RESULTS:-$KQ_CACHE/results}
	mkdir -p "$SHARNESS_TRASH_DIRECTORY/results"
	[ ! -d "$real" ] || cp -a "$real/." "$SHARNESS_TRASH_DIRECTORY/results/"
	export KQ_RESULTS="$SHARNESS_TRASH_DIRECTORY/results"
}

# need_real_kernel: skip the whole script when real-kernel tests are off
# (KQ_SKIP_REAL) or apt lists no linux-source-6.12.
need_real_kernel() {
	if [ -n "${KQ_SKIP_REAL:-}" ]; then
		skip_all='KQ_SKIP_REAL is set'
		test_done
	fi
	if ! apt-cache madison linux-source-6.12 2>/dev/null | grep -q .; then
		skip_all='apt-cache lists no linux-source-6.12 (apt-get update?)'
		test_done
	fi
}

# use_fixture_cache REAL_CACHE TAG: a cache for fixture topics on a real
# packaged tree.  It lives next to the user's cache and is kept between runs,
# so its worktrees and build directories stay warm; it borrows the user's
# objects (alternates) and never writes the user's refs.  Results go to the
# trash directory.
use_fixture_cache() {
	local real=$1 tag=$2
	export KQ_CACHE="$real/test-fixtures"
	export KQ_RESULTS="$SHARNESS_TRASH_DIRECTORY/results"
	# The same ccache: a boot kernel with one fixture topic more compiles
	# what differs, not the whole kernel again.
	export KQ_CCACHE_DIR="$real/ccache"
	[ -d "$KQ_CACHE/linux.git" ] || git init -q --bare "$KQ_CACHE/linux.git" || return 1
	# the sparse make deps built for 7.x trees
	{ [ -e "$KQ_CACHE/tools" ] || [ ! -d "$real/tools" ] || ln -s "$real/tools" "$KQ_CACHE/tools"; } || return 1
	echo "$real/linux.git/objects" >"$KQ_CACHE/linux.git/objects/info/alternates" &&
	kq_git update-ref "refs/tags/$tag" "$(git --git-dir="$real/linux.git" rev-parse "refs/tags/$tag")"
}

# make_source_tree DIR VERSION: a tiny tree shaped like linux-source.
make_source_tree() {
	local d=$1 v=$2
	mkdir -p "$d/fs/dax" "$d/scripts" "$d/include/linux" "$d/debian" \
		"$d/drivers/a/very/long/path/that/goes/on/and/on/past/the/hundred/byte/limit/of/ustar/names"
	printf 'VERSION = %s\n' "$v" >"$d/Makefile"
	printf 'FSDAX\nM:\tA Maintainer <a@example.org>\nF:\tfs/dax.c\n' >"$d/MAINTAINERS"
	printf '#!/usr/bin/perl\nexit 0;\n' >"$d/scripts/checkpatch.pl"
	chmod +x "$d/scripts/checkpatch.pl"
	# Debian's top-level .gitignore ignores everything: must not matter.
	printf '/*\n!/debian/\n' >"$d/.gitignore"
	printf 'typedef unsigned int __bitwise vm_fault_t;\n' >"$d/include/linux/mm_types.h"
	cat >"$d/fs/dax.c" <<EOC
int dax_fault(void)
{
	int ret = 0;

	ret = do_fault();
	return ret;
}

static int helper(void)
{
	return 1;
}

/* version $v */
EOC
	echo "long $v" >"$d/drivers/a/very/long/path/that/goes/on/and/on/past/the/hundred/byte/limit/of/ustar/names/file-with-a-long-name.c"
	ln -s ../include/linux/mm_types.h "$d/fs/dax/link.h"
}

# make_deb OUTDIR PACKAGE VERSION [TREE-EDIT-CMD]: build linux-source-X_V_all.deb.
make_deb() {
	local out=$1 pkg=$2 v=$3 edit=${4:-:} up track w
	up=${v%%-*} track=${pkg#linux-source-}
	w=$(mktemp -d)
	make_source_tree "$w/src/$pkg" "$up"
	(cd "$w/src/$pkg" && eval "$edit")
	mkdir -p "$w/pkg/usr/src" "$w/pkg/usr/share/doc/$pkg" "$w/pkg/DEBIAN"
	tar -C "$w/src" --owner=0 --group=0 --format=gnu -cJf "$w/pkg/usr/src/$pkg.tar.xz" "$pkg"
	printf '%s (%s) bookworm; urgency=medium\n\n  * Test.\n\n -- Test Uploader <uploader@example.org>  Sat, 01 Aug 2026 10:00:00 +0000\n' \
		"$pkg" "$v" | gzip -9n >"$w/pkg/usr/share/doc/$pkg/changelog.Debian.gz"
	cat >"$w/pkg/DEBIAN/control" <<EOC
Package: $pkg
Version: $v
Architecture: all
Maintainer: Test <test@example.org>
Description: Linux kernel source for version $track (test fixture)
EOC
	dpkg-deb --root-owner-group -Zxz -b "$w/pkg" "$out/${pkg}_${v//:/%3a}_all.deb" >/dev/null
	rm -rf "$w"
}

# make_archive DIR [DEBS-FUNCTION]: a flat apt repository with a few
# versions (DEBS-FUNCTION POOL builds other ones), and an APT_CONFIG that
# sees only it.
default_debs() {
	make_deb "$1" linux-source-6.1 6.1.1-1
	make_deb "$1" linux-source-6.1 6.1.2-1
	make_deb "$1" linux-source-6.1 6.1.2-2 'echo "/* -2 */" >>fs/dax.c'
	make_deb "$1" linux-source-6.12 6.12.1-1~deb12u1
}
make_archive() {
	local a=$1
	mkdir -p "$a/pool" "$a/state/lists/partial" "$a/cache/archives/partial" "$a/etc/sources.list.d" "$a/etc/apt.conf.d"
	"${2:-default_debs}" "$a/pool"
	index_archive "$a"
	: >"$a/state/status"
	# sharness works in "trash directory.tNNNN": apt wants the space encoded
	echo "deb [trusted=yes] file:${a// /%20}/pool ./" >"$a/etc/sources.list"
	cat >"$a/apt.conf" <<EOC
Dir::Etc::main "$a/etc/apt.conf";
Dir::Etc::parts "$a/etc/apt.conf.d";
Dir::Etc::sourcelist "$a/etc/sources.list";
Dir::Etc::sourceparts "$a/etc/sources.list.d";
Dir::State "$a/state";
Dir::State::lists "$a/state/lists";
Dir::State::status "$a/state/status";
Dir::Cache "$a/cache";
APT::Sandbox::User "root";
Acquire::Languages "none";
EOC
	export APT_CONFIG="$a/apt.conf"
	refresh_archive "$a"
}

index_archive() {
	(cd "$1/pool" && apt-ftparchive packages . >Packages 2>/dev/null &&
	 gzip -9nk -f Packages && apt-ftparchive release . >Release 2>/dev/null)
}

# refresh_archive DIR: re-index after changing the pool, and tell apt.
refresh_archive() {
	index_archive "$1"
	apt-get update >"$1/update.log" 2>&1 || { cat "$1/update.log"; return 1; }
}

kq_git() { git --git-dir="$KQ_CACHE/linux.git" "$@"; }

# test_line_count OP N FILE (sharness 1.0 lacks git's helper)
test_line_count() {
	if ! test "$(wc -l <"$3")" "$1" "$2"; then
		echo "test_line_count: $3 has $(wc -l <"$3") lines, want $1 $2"
		cat "$3"
		return 1
	fi
}

# fgit: git as the fixture author, for commits in fixture trees.
fgit() { git -c user.name="Fixture Author" -c user.email=fixture@example.org "$@"; }

# When this test script started: records_written lists what it wrote.
touch "$SHARNESS_TRASH_DIRECTORY/.kq-started"
# records_written [DIR]: the JSON records under DIR ($KQ_RESULTS) written
# since this test script started.
records_written() {
	find "${1:-$KQ_RESULTS}" -name '*.json' -newer "$SHARNESS_TRASH_DIRECTORY/.kq-started" | sort
}
# validate_records FILE...: every FILE fits the schema of scripts/lib/records.py.
# rows FILE PATH FIELD...: the elements of a record's list, one per line,
# FIELDs "|"-joined (records.py reads the JSON; no pattern on its layout).
rows() { python3 "$S/lib/records.py" rows "$@"; }
validate_records() { python3 "$S/lib/records.py" validate "$@"; }
# validate_listed LIST: the same for the files LIST names, one per line.
validate_listed() { local f; mapfile -t f <"$1"; [ ${#f[@]} -gt 0 ] && validate_records "${f[@]}"; }

# A synthetic chain of packaged kernels for the rebase and update tests
# (t0500, t0520).
# chain_tree V: the files the fixture topics touch, as kernel V has them.
#   a.c  the same in every version            (its patch: unchanged)
#   b.c  three lines more at the top from v2  (refreshed)
#   c.c  v3 carries the topic's change        (dropped: applied upstream)
#   d.c  v3 changes the topic's line its way  (conflict)
chain_tree() {
	mkdir -p fs/rb
	seq -f "a%g" 10 >fs/rb/a.c
	{ [ "$1" -lt 2 ] || printf 'new1\nnew2\nnew3\n'; seq -f "b%g" 10; } >fs/rb/b.c
	seq -f "c%g" 10 >fs/rb/c.c
	seq -f "d%g" 10 >fs/rb/d.c
	if [ "$1" -ge 3 ]; then
		sed -i "s/^c5$/c5 upstream/" fs/rb/c.c
		sed -i "s/^d5$/d5 their way/" fs/rb/d.c
	fi
}
chain_debs() {
	make_deb "$1" linux-source-6.1 6.1.1-1 "chain_tree 1"
	make_deb "$1" linux-source-6.1 6.1.2-1 "chain_tree 2"
	make_deb "$1" linux-source-6.1 6.1.3-1 "chain_tree 3"
	make_deb "$1" linux-source-6.12 6.12.1-1~deb12u1 "chain_tree 1"
}

# chain_topic NAME TRACKS BASES EDITS...: a topic of one patch per "file:sed" edit,
# made on 6.1.1-1, its series based on BASES (space-separated versions).
chain_topic() {
	local name=$1 tracks=$2 bases=$3 e; shift 3
	rm -rf gen && kq_git worktree prune &&
	kq_git worktree add -q --detach gen debian/6.1.1-1 &&
	for e in "$@"; do
		sed -i "${e#*:}" "gen/fs/rb/${e%%:*}" &&
		git -C gen commit -q -a -m "fs/rb: change ${e%%:*}" -m "Fixture for the rebase and update tests." || return 1
	done &&
	mkdir -p "root/kernel-patches/$name" root/branches root/cover-letters &&
	git -C gen format-patch -q --zero-commit -o "$PWD/root/kernel-patches/$name" debian/6.1.1-1..HEAD &&
	{ for b in $bases; do echo "# base: $b"; done; (cd "root/kernel-patches/$name" && ls -- *.patch); } \
		>"root/kernel-patches/$name/series" &&
	printf "fs/rb: %s\n\nFixture.\n" "$name" >"root/cover-letters/$name.txt" &&
	cat >"root/branches/$name.conf" <<-EOC
	[topic]
		name = $name
		prefix = fs/rb
		state = active
		tracks = $tracks
		patches = kernel-patches/$name
		cover = cover-letters/$name.txt
	EOC
}
# chain_setup: the chain's archive and a private cache with its four
# versions imported; KQ_ROOT=./root and a fixed identity.
chain_setup() {
	make_archive "$PWD/archive" chain_debs && use_private_cache &&
	export KQ_ROOT=$PWD/root &&
	export GIT_AUTHOR_NAME="Fixture Author" GIT_AUTHOR_EMAIL=author@example.org \
	       GIT_COMMITTER_NAME="Fixture Author" GIT_COMMITTER_EMAIL=author@example.org &&
	for v in 6.1.1-1 6.1.2-1 6.1.3-1 6.12.1; do kernel-tree $v >/dev/null || return 1; done
}

# The README's walkthrough, as the tests run it.  readme_step STEP prints
# the commands of the fenced block that follows "<!-- walkthrough: STEP -->"
# in README.md, one per line, comments dropped.
readme_step() {
	awk -v m="<!-- walkthrough: $1 -->" '
		$0 == m { on = 1; next }
		on && $0 == "```sh" { inb = 1; next }
		inb && $0 == "```" { exit }
		inb { sub(/[ \t]+#.*$/, ""); if ($0 != "") print }' "$REPO/README.md"
}
# run_readme_step STEP [VAR=VALUE...]: run each command of STEP as
# make -s -C "$REPO" with the README's variables, VAR=VALUE replacing the
# README's value of VAR (or added): the fixture's topic, mbox, consent.
# Each command's output goes to walk.<STEP>.<n>.out, its exit status to a
# line of walk.<STEP>.rc.  Returns 0 when the README has the step; the test
# judges the statuses and outputs.
run_readme_step() {
	local step=$1 n=0 line a name
	local -a w args lines
	shift
	mapfile -t lines < <(readme_step "$step")
	[ ${#lines[@]} -gt 0 ] || { echo "README.md has no walkthrough step '$step'" >&2; return 1; }
	: >"walk.$step.rc"
	for line in "${lines[@]}"; do
		n=$((n + 1))
		read -r -a w <<<"$line"
		[ "${w[0]}" = make ] || { echo "walkthrough $step: not a make command: $line" >&2; return 1; }
		args=()
		for a in "${w[@]:1}"; do
			name=${a%%=*}
			case " $* " in *" $name="*) [ "$name" != "$a" ] && continue ;; esac
			args+=("$a")
		done
		args+=("$@")
		{ make -s -C "$REPO" "${args[@]}" >"walk.$step.$n.out" 2>&1; echo $? >>"walk.$step.rc"; } || true
	done
}
