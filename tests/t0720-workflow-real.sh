#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='the workflow'"'"'s topic job on the real newest 7.3, run here as a runner runs it: green on a good topic, red on one whose check fails'
# the user's cache, read before sharness resets HOME
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
need_real_kernel

GHA=$SHARNESS_TEST_DIRECTORY/gha-run
TOPIC=x86-sgx

# topic_job WORKSPACE: the workflow's topic job for $TOPIC on 7.3, the
# topic's newest track (its send step runs), in WORKSPACE, on the user's
# kernel cache and a copy of the user's records.
topic_job() {
	"$GHA" "$1/.github/workflows/queue.yml" topic --workspace "$1" \
		--env KQ_CACHE="$REAL_CACHE" --env KQ_RESULTS="$KQ_RESULTS" \
		--matrix topic="$TOPIC" --matrix track=7.3 --matrix send=true
}

test_expect_success 'setup: a home of its own, the records a copy, the workspace a checkout of the repository' '
	mkdir home && export HOME=$PWD/home &&
	export KQ_CACHE=$REAL_CACHE && use_results_copy &&
	mkdir ws && (cd "$REPO" && git ls-files -z | cpio -0pdm --quiet "$OLDPWD/ws") &&
	git -C ws init -q && git -C ws add -A &&
	git -C ws -c user.name=T -c user.email=t@example.org commit -q -m workspace
'

test_expect_success 'the topic job of a good topic is green: every step passes, the series is prepared' '
	topic_job "$PWD/ws" >out 2>err || { cat out; tail -n 30 err; false; } &&
	cat out &&
	for s in "make tree" "make apply" "make check" "make send (dry run)"; do
		grep -x "step [0-9]* $s: exit 0" out || return 1
	done &&
	grep -x "job topic: success" out &&
	grep "^send $TOPIC v[0-9]* on 7.3" out
'

test_expect_success 'the same job on a topic whose check fails (a misspelling in its message: checkpatch) is red at make check, and prepares no series' '
	p=$(sed -n "/^[^#]/p" ws/kernel-patches/$TOPIC/series-7.3) &&
	sed -i "0,/^$/s//\nTeh result of the fault is tested only./" "ws/kernel-patches/$TOPIC/$p" &&
	git -C ws -c user.name=T -c user.email=t@example.org commit -q -a -m "a misspelling" &&
	test_expect_code 1 topic_job "$PWD/ws" >out 2>err &&
	cat out &&
	grep -x "step [0-9]* make apply: exit 0" out &&
	grep -x "step [0-9]* make check: exit [1-9][0-9]*" out &&
	grep -x "step [0-9]* make send (dry run): skipped (if: matrix.send)" out &&
	grep -x "job topic: failure" out &&
	grep "^$TOPIC  *checkpatch  *fail" out
'

test_done
