#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='update: a new packaged kernel becomes a report, a pushed branch and a pull request'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# gh stands in for GitHub here (no network): it logs its arguments and
# answers "pr list" with the number in gh.open (empty: no open PR).
fake_gh() {
	mkdir -p bin &&
	printf "%s\n" "#!/bin/sh" "echo \"gh \$*\" >>\"$PWD/gh.log\"" \
		"case \"\$1 \$2\" in \"pr list\") cat \"$PWD/gh.open\" 2>/dev/null ;; esac" "exit 0" >bin/gh &&
	chmod +x bin/gh && : >gh.log
}
nodetails() { sed "/^<details>/,/^<\/details>/d" "$1" | cat -s; }

test_expect_success 'setup: three 6.1 kernels, three topics in a git repository with a remote' '
	chain_setup &&
	chain_topic fresh 6.1 6.1.1-1 "b.c:s/^b7$/b7 ours/" &&
	chain_topic drop 6.1 6.1.1-1 "a.c:s/^a5$/a5 ours/" "c.c:s/^c5$/c5 upstream/" &&
	chain_topic clash 6.1 6.1.1-1 "d.c:s/^d5$/d5 ours/" &&
	git init -q -b main root && git -C root add . && git -C root commit -q -m "the queue" &&
	git init -q --bare remote.git && git -C root remote add origin "$PWD/remote.git" &&
	export PATH="$PWD/bin:$PATH" &&
	git -C root push -q origin main && fake_gh
'

test_expect_success 'the README'"'"'s make kernels: the three packaged 6.1 versions, each imported' '
	run_readme_step kernels && cat walk.kernels.1.out &&
	test "$(cat walk.kernels.rc)" = 0 &&
	for v in 6.1.1-1 6.1.2-1 6.1.3-1; do
		grep -E "^6\.1 +$(ere "$v") +[0-9.]+ +[a-z-]+ +yes [0-9a-f]{7,}$" walk.kernels.1.out || return 1
	done
'

test_expect_success 'the README'"'"'s make update: one topic refreshed, a patch of another dropped, a third stopped at a conflict' '
	git -C root rev-parse HEAD >head.before &&
	cp root/kernel-patches/clash/0001-*.patch clash.before &&
	run_readme_step update && test "$(cat walk.update.rc)" = 2 &&
	cp walk.update.1.out out && cat out &&
	grep "^clash: stopped on 6.1 at 6.1.3-1 (conflict); later versions not tried$" out &&
	grep "^update: report in $KQ_RESULTS/update.md$" out &&
	test_cmp head.before <(git -C root rev-parse HEAD) &&
	cmp clash.before root/kernel-patches/clash/0001-*.patch &&
	validate_records "$KQ_RESULTS/update.json"
'

test_expect_success 'the report says, for people, what moved, per patch, and which files changed' '
	cat >expect <<-EOF &&
	# linux-source 6.1.3-1 (6.1)

	\`make update\` moved 3 of 3 topics through 2 packaged versions; 1 stopped at a conflict and need a person.

	## clash

	### 6.1.1-1 → 6.1.2-1 (6.1): 1 unchanged

	| patch | outcome |
	|---|---|
	| \`0001-fs-rb-change-d.c.patch\` | unchanged |

	range-diff: 1=, 0!, 0<, 0> (\`=\` same, \`!\` changed, \`<\` dropped, \`>\` added)

	### 6.1.2-1 → 6.1.3-1 (6.1): **conflict, needs a person**

	| patch | outcome |
	|---|---|
	| \`0001-fs-rb-change-d.c.patch\` | conflict: does not apply: fs/rb/d.c, hunk @@ -2,7 +2,7 @@ d1 |

	Nothing of this topic was written for 6.1.3-1: its patch files and branch are as they were.
	To resume: fix kernel-patches/clash/0001-fs-rb-change-d.c.patch so it applies to 6.1.3-1, then run: make rebase TOPIC=clash TO=6.1.3-1.

	## drop

	### 6.1.1-1 → 6.1.2-1 (6.1): 2 unchanged

	| patch | outcome |
	|---|---|
	| \`0001-fs-rb-change-a.c.patch\` | unchanged |
	| \`0002-fs-rb-change-c.c.patch\` | unchanged |

	range-diff: 2=, 0!, 0<, 0> (\`=\` same, \`!\` changed, \`<\` dropped, \`>\` added)

	### 6.1.2-1 → 6.1.3-1 (6.1): 1 unchanged, 1 dropped

	| patch | outcome |
	|---|---|
	| \`0001-fs-rb-change-a.c.patch\` | unchanged |
	| \`0002-fs-rb-change-c.c.patch\` | dropped: applied upstream in 6.1.3-1 |

	range-diff: 1=, 0!, 1<, 0> (\`=\` same, \`!\` changed, \`<\` dropped, \`>\` added)

	## fresh

	### 6.1.1-1 → 6.1.2-1 (6.1): 1 refreshed

	| patch | outcome |
	|---|---|
	| \`0001-fs-rb-change-b.c.patch\` | refreshed |

	range-diff: 1=, 0!, 0<, 0> (\`=\` same, \`!\` changed, \`<\` dropped, \`>\` added)

	### 6.1.2-1 → 6.1.3-1 (6.1): 1 unchanged

	| patch | outcome |
	|---|---|
	| \`0001-fs-rb-change-b.c.patch\` | unchanged |

	range-diff: 1=, 0!, 0<, 0> (\`=\` same, \`!\` changed, \`<\` dropped, \`>\` added)

	## Files changed in the repository

	- \`kernel-patches/clash/series\` (modified)
	- \`kernel-patches/drop/0002-fs-rb-change-c.c.patch\` (deleted)
	- \`kernel-patches/drop/series\` (modified)
	- \`kernel-patches/fresh/0001-fs-rb-change-b.c.patch\` (modified)
	- \`kernel-patches/fresh/series\` (modified)
	EOF
	nodetails "$KQ_RESULTS/update.md" >got && test_cmp expect got &&
	grep -c "^<details><summary>range-diff</summary>$" "$KQ_RESULTS/update.md" >n && test "$(cat n)" = 5 &&
	grep -F "$(sed -n 1p "$KQ_RESULTS/6.1.3-1/rangediff-drop.txt")" "$KQ_RESULTS/update.md"
'

test_expect_success 'the README'"'"'s make propose-update: the branch carries exactly the changed files, the PR is a draft that needs a person' '
	git -C root status --porcelain >status.before &&
	run_readme_step propose && test "$(cat walk.propose.rc)" = 0 &&
	cat walk.propose.1.out gh.log &&
	git --git-dir=remote.git rev-parse -q --verify refs/heads/update/6.1.3-1 >tip &&
	test "$(git --git-dir=remote.git rev-parse "$(cat tip)^")" = "$(cat head.before)" &&
	git --git-dir=remote.git diff --name-status main "$(cat tip)" >files &&
	printf "M\tkernel-patches/clash/series\nD\tkernel-patches/drop/0002-fs-rb-change-c.c.patch\nM\tkernel-patches/drop/series\nM\tkernel-patches/fresh/0001-fs-rb-change-b.c.patch\nM\tkernel-patches/fresh/series\n" >want &&
	test_cmp want files &&
	git --git-dir=remote.git show "$(cat tip):kernel-patches/fresh/0001-fs-rb-change-b.c.patch" >pushed &&
	test_cmp root/kernel-patches/fresh/0001-fs-rb-change-b.c.patch pushed &&
	git --git-dir=remote.git log -1 --format=%B "$(cat tip)" >msg &&
	grep "^\[needs a person\] queue: topics refreshed for linux-source 6.1.3-1; 1 topic(s) stopped at a conflict$" msg &&
	grep "^  clash 6.1: 6.1.2-1 -> 6.1.3-1: conflict$" msg &&
	grep "^  fresh 6.1: 6.1.1-1 -> 6.1.2-1: 1 refreshed$" msg &&
	git -C root status --porcelain >status.after && test_cmp status.before status.after &&
	test "$(git -C root rev-parse HEAD)" = "$(cat head.before)" &&
	sed -n 1p gh.log | grep -x "gh pr list --head update/6.1.3-1 --state open --json number --jq .\[0\].number" &&
	sed -n 2p gh.log | grep -x "gh pr create --base main --head update/6.1.3-1 --title \[needs a person\] queue: topics refreshed for linux-source 6.1.3-1; 1 topic(s) stopped at a conflict --body-file $KQ_RESULTS/update.md --draft" &&
	sed -n 3p gh.log | grep -x "gh workflow run queue.yml --ref update/6.1.3-1" &&
	test_line_count = 3 gh.log
'

test_expect_success 'the next run updates the open pull request of that branch' '
	: >gh.log && echo 7 >gh.open &&
	test_expect_code 2 make -s -C "$REPO" update >out 2>&1 &&
	propose-update --remote origin >out 2>&1 && cat out gh.log &&
	grep -x "gh pr edit 7 --title .* --body-file $KQ_RESULTS/update.md" gh.log &&
	! grep "pr create" gh.log &&
	git --git-dir=remote.git diff --name-only main update/6.1.3-1 >files2 && test_line_count = 5 files2
'

test_expect_success 'a clone with no remote-tracking ref of the branch (a depth-1 checkout) pushes the next update; a person'"'"'s commit on it is never pushed over' '
	git -C root update-ref -d refs/remotes/origin/update/6.1.3-1 &&
	: >gh.log && echo 7 >gh.open &&
	test_expect_code 2 make -s -C "$REPO" update >out 2>&1 &&
	git --git-dir=remote.git rev-parse update/6.1.3-1 >tip.before &&
	propose-update --remote origin >out 2>&1 || { cat out; false; } &&
	! git --git-dir=remote.git rev-parse update/6.1.3-1 | cmp -s - tip.before &&
	git clone -q remote.git person && git -C person checkout -q update/6.1.3-1 &&
	git -C person -c user.name=P -c user.email=p@example.org commit -q --allow-empty -m "fs: a fix of my own" &&
	git -C person push -q origin update/6.1.3-1 &&
	git --git-dir=remote.git rev-parse update/6.1.3-1 >person.tip &&
	test_expect_code 1 propose-update --remote origin >out 2>err &&
	grep "propose-update: update/6.1.3-1 on origin ends in a commit not made by propose-update (.* .fs: a fix of my own.): not overwriting it" err &&
	git --git-dir=remote.git rev-parse update/6.1.3-1 | test_cmp person.tip - &&
	git --git-dir=remote.git update-ref refs/heads/update/6.1.3-1 "$(cat person.tip)^"
'

test_expect_success 'no new packaged kernel and nothing to commit: nothing happens' '
	git -C root add -A && git -C root commit -q -m "take the update" &&
	git -C root rm -q -r kernel-patches/clash branches/clash.conf cover-letters/clash.txt &&
	git -C root commit -q -m "no clash" && : >gh.log &&
	git --git-dir=remote.git rev-parse update/6.1.3-1 >tip.before &&
	make -s -C "$REPO" update >out 2>&1 && cat out &&
	grep "^update: every topic is on the newest packaged version of its tracks$" out &&
	head -n 1 "$KQ_RESULTS/update.md" | grep -x "# Nothing to update" &&
	propose-update --remote origin >out 2>&1 &&
	grep "^propose-update: nothing to propose" out && test_must_be_empty gh.log &&
	test_cmp tip.before <(git --git-dir=remote.git rev-parse update/6.1.3-1)
'

test_expect_success 'bad input: no report, a dry run, an unknown remote; one line, exit 2' '
	test_expect_code 2 env KQ_RESULTS="$PWD/empty" propose-update 2>err &&
	test_line_count = 1 err && grep "no update report" err &&
	make -s -C "$REPO" update >/dev/null 2>&1 && rebase --update --dry-run >/dev/null 2>&1 &&
	test_expect_code 2 propose-update 2>err && test_line_count = 1 err && grep "dry-run" err &&
	make -s -C "$REPO" update >/dev/null 2>&1 &&
	test_expect_code 2 propose-update --remote nosuch 2>err && test_line_count = 1 err && grep "nosuch" err
'

test_expect_success 'the workflow: actionlint passes, the update job runs the two targets and alone may write' '
	KQ_ROOT=$REPO lint-workflows >out 2>&1 || { cat out; false; } &&
	/usr/bin/python3 - "$REPO/.github/workflows/queue.yml" <<-\EOP
	import sys, yaml
	wf = yaml.safe_load(open(sys.argv[1]))
	assert wf["permissions"] == {"contents": "read"}, wf["permissions"]
	writers = {}
	for name, job in wf["jobs"].items():
	    for scope, level in (job.get("permissions") or {}).items():
	        if level == "write":
	            writers.setdefault(name, set()).add(scope)
	assert writers == {"update": {"contents", "pull-requests", "actions"}}, writers
	up = wf["jobs"]["update"]
	runs = [st.get("run", "") for st in up["steps"]]
	lines = [l.strip() for r in runs for l in r.splitlines()]
	assert any(l.startswith("make update") for l in lines), runs
	assert any(r == "make propose-update" for r in runs), runs
	assert "schedule" in up["if"] and "inputs.update" in up["if"], up["if"]
	on = wf[True] if True in wf else wf["on"]
	assert on["workflow_dispatch"]["inputs"]["update"]["default"] is False
	EOP
'

test_done
