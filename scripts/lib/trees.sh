# shellcheck shell=bash
# Worktrees of the cache, linux-next style merges, the integration tree,
# and naming the hunk of a patch that did not apply.  Needs common.sh,
# versions.sh and topics.sh.

kq_lib versions topics

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

# merge_onto COMMIT BRANCH...: COMMIT with each BRANCH merged in, as linux-next
# does it (merge-tree, no worktree), each merge the queue's (as_queue) and
# dated like COMMIT, so the same inputs give the same id.  Fast-forwards when COMMIT is an ancestor.
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
			GIT_AUTHOR_NAME=$KQ_IDENT_NAME GIT_AUTHOR_EMAIL=$KQ_IDENT_EMAIL \
			as_queue kgit commit-tree -p "$commit" -p "$b" -m "Merge $b" "$tree")
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
