#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='the GitHub workflow: fails closed, its jobs run here as a runner runs them, its budget holds'
# the user's cache, read before sharness resets HOME
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

WF=$REPO/.github/workflows/queue.yml
GHA=$SHARNESS_TEST_DIRECTORY/gha-run

# job_if NAME EVENT: whether the job runs for EVENT (gha-run's line), no
# step run.
job_if() { "$GHA" "$WF" "$1" --event "$2" --only-if; }

test_expect_success 'setup: a home of its own (steps run git config --global), a private cache with the built tools' '
	mkdir home && export HOME=$PWD/home &&
	use_private_cache && mkdir -p "$KQ_CACHE" &&
	{ [ ! -d "$REAL_CACHE/tools" ] || ln -s "$REAL_CACHE/tools" "$KQ_CACHE/tools"; }
'

test_expect_success 'make refuses an empty KERNEL: one line naming it, exit 2, nothing run' '
	for t in check tree apply scan boot status; do
		test_expect_code 2 make -s -C "$REPO" "$t" KERNEL= >out 2>err &&
		grep "KERNEL is empty" err && test_must_be_empty out || return 1
	done
'

test_expect_success 'every step runs under bash -euo pipefail; no step sets a shell of its own; every job has a timeout' '
	/usr/bin/python3 - "$WF" <<-\EOP
	import sys, yaml
	wf = yaml.safe_load(open(sys.argv[1]))
	assert wf["defaults"]["run"]["shell"] == "bash --noprofile --norc -euo pipefail {0}", wf["defaults"]
	for name, job in wf["jobs"].items():
	    assert isinstance(job.get("timeout-minutes"), int), name
	    assert "defaults" not in job, name
	    for st in job["steps"]:
	        assert "shell" not in st, (name, st)
	EOP
'

test_expect_success 'a scheduled run does only the update; a push never the update; the update is never cancelled' '
	for j in matrix tree track topic arch status; do
		job_if $j schedule | grep -x "job $j: skipped (.*)" || return 1
	done &&
	job_if topic push | grep -x "job topic: would run for push" &&
	job_if update push | grep -x "job update: skipped (its if: is false for push)" &&
	job_if update schedule | grep -x "job update: would run for schedule" &&
	/usr/bin/python3 - "$WF" <<-\EOP
	import sys, yaml
	wf = yaml.safe_load(open(sys.argv[1]))
	up = wf["jobs"]["update"]["concurrency"]
	assert up == {"group": "queue-update", "cancel-in-progress": False}, up
	top = wf["concurrency"]
	assert "github.event_name" in top["group"], top
	assert "schedule" not in top["cancel-in-progress"] and "push" in top["cancel-in-progress"], top
	EOP
'

test_expect_success 'the budget the workflow states holds for the matrix of branches/: jobs per push, runner-hours if every job ran to its timeout' '
	ci-matrix >matrix &&
	/usr/bin/python3 - "$WF" matrix <<-\EOP
	import json, re, sys, yaml
	wf = yaml.safe_load(open(sys.argv[1]))
	text = open(sys.argv[1]).read()
	m = re.search(r"at most (\d+) jobs, and at most (\d+) runner-hours", text.replace("\n#", ""))
	assert m, "the workflow states no budget"
	max_jobs, max_hours = int(m.group(1)), int(m.group(2))
	topics, tracks, arches = (json.loads(l) for l in open(sys.argv[2]))
	legs = {"matrix": 1, "tree": len(tracks["track"]), "track": len(tracks["track"]),
	        "topic": len(topics["include"]), "arch": len(arches["include"]), "status": 1}
	jobs = wf["jobs"]
	assert set(legs) | {"update"} == set(jobs), set(jobs)
	n = sum(legs.values())
	minutes = sum(legs[j] * jobs[j]["timeout-minutes"] for j in legs)
	print("per push: %d jobs, %.1f runner-hours at most" % (n, minutes / 60))
	assert n <= max_jobs, (n, max_jobs)
	assert minutes <= max_hours * 60, (minutes, max_hours)
	# the other architectures: the newest track only, each once
	newest = sorted(tracks["track"], key=lambda t: [int(x) for x in t.split(".")])[-1]
	seen = [a for e in arches["include"] for a in e["arches"].split()]
	assert {e["track"] for e in arches["include"]} == {newest}, arches
	assert len(seen) == len(set(seen)) and len(seen) >= 10, seen
	EOP
'

test_expect_success 'merge-results: the same merge whatever the order; two jobs that disagree on a file are an error, and the destination is kept' '
	mkdir -p a/7.3 b/7.3 c/7.3 &&
	echo check >a/7.3/check-x.json && echo boot >b/7.3/boot.json && echo check >b/7.3/check-x.json &&
	echo other >c/7.3/check-x.json &&
	merge-results m1 b a >out && merge-results m2 a/ b >out2 &&
	diff -r m1 m2 && grep "2 folders into m1 (2 files)" out &&
	test_expect_code 1 merge-results m3 c a b 2>err &&
	test_line_count = 1 err && grep "7.3/check-x.json differs between a and c" err &&
	test -z "$(ls -A m3)" &&
	cp -a m1 m1.before &&
	test_expect_code 1 merge-results m1 c 2>err &&
	test_line_count = 1 err && grep "7.3/check-x.json differs between m1 and c" err &&
	diff -r m1.before m1 &&
	test_expect_code 2 merge-results m1 nosuch 2>err && grep "no such folder: nosuch" err
'

test_expect_success 'the matrix job, run here: green, and its three outputs are the matrices of branches/' '
	"$GHA" "$WF" matrix --workspace "$REPO" >out 2>err || { cat out err; false; } &&
	grep -x "job matrix: success" out &&
	grep -c "^\(topics\|tracks\|arches\)={" out >n && test "$(cat n)" = 3
'

test_expect_success 'a topic job whose track has no packaged version is red at that step, and nothing after it runs' '
	test_expect_code 1 "$GHA" "$WF" topic --workspace "$REPO" --env KQ_CACHE="$KQ_CACHE" \
		--matrix track=9.9 --matrix topic=f2fs --matrix send=true >out 2>err &&
	cat out &&
	grep -x "step [0-9]* newest packaged version: exit 2" out &&
	grep -x "step [0-9]* make tree: skipped (if: success())" out &&
	grep -x "step [0-9]* make check: skipped (if: success())" out &&
	grep -x "job topic: failure" out &&
	grep "unknown track .9.9." err
'

test_done
