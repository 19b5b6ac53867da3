#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='run-lanes: make test runs two lanes side by side, and a failure in either fails the run'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

LANE1="t0100-real-kernel.sh t0400-boot.sh t0210-scan-real.sh t0310-check-real.sh t0720-workflow-real.sh t0510-rebase-real.sh t0800-fresh.sh"

# fake NAME [BODY]: an executable TAP script in lanes/ that runs BODY
# (shell), then passes one test.
fake() {
	printf '#!/bin/sh\n%s\necho 1..1\necho ok 1 - %s\n' "${2:-:}" "$1" >"lanes/$1" &&
	chmod +x "lanes/$1"
}

test_expect_success 'setup: a copy of the runner beside fake scripts of both lanes' '
	mkdir lanes && cp "$SHARNESS_TEST_DIRECTORY/run-lanes" lanes/ &&
	for t in $LANE1; do fake "$t" "echo $t >>\"$PWD/order\"" || return 1; done &&
	# t0100 (lane 1, first) waits for t0001 (lane 2, first) to start: the
	# lanes run at the same time or this times out
	fake t0100-real-kernel.sh "echo t0100-real-kernel.sh >>\"$PWD/order\"; i=0; while ! test -e \"$PWD/started\"; do i=\$((i + 1)); test \$i -lt 200 || exit 1; sleep 0.1; done" &&
	fake t0001-first.sh "touch \"$PWD/started\"" &&
	fake t0300-other.sh &&
	lanes/run-lanes -h >usage && grep "^usage: tests/run-lanes" usage
'

test_expect_success 'both lanes pass: exit 0, each line prefixed with its lane, lane 1 in its order' '
	lanes/run-lanes >out 2>&1 && cat out &&
	grep -E "^\[lane 1\] .*t0400-boot\.sh \.+ ok" out &&
	grep -E "^\[lane 2\] .*t0001-first\.sh \.+ ok" out &&
	grep -E "^\[lane 2\] .*t0300-other\.sh \.+ ok" out &&
	! grep -E "^\[lane 2\] .*t0400-boot" out &&
	# t0510 holds the cache lock of the user for minutes: lane 1
	grep -E "^\[lane 1\] .*t0510-rebase-real\.sh \.+ ok" out &&
	! grep -E "^\[lane 2\] .*t0510-rebase-real" out &&
	printf "%s\n" $LANE1 >want && test_cmp want order
'

test_expect_success 'a failing script in lane 2 fails the run, and says which lane' '
	fake t0300-other.sh "exit 3" &&
	test_expect_code 1 lanes/run-lanes >out 2>&1 && cat out &&
	grep "^run-lanes: lane 2 failed" out && ! grep "^run-lanes: lane 1 failed" out
'

test_expect_success 'a failing script in lane 1 fails the run, even with lane 2 green' '
	fake t0300-other.sh && fake t0310-check-real.sh "echo not ok 9; exit 1" &&
	test_expect_code 1 lanes/run-lanes >out 2>&1 && cat out &&
	grep "^run-lanes: lane 1 failed" out && ! grep "^run-lanes: lane 2 failed" out
'

test_expect_success 'a lane-1 script that does not exist: one line naming it, exit 2' '
	rm lanes/t0310-check-real.sh &&
	test_expect_code 2 lanes/run-lanes >out 2>err &&
	test_line_count = 1 err && grep "lane 1 names t0310-check-real.sh, which is not a test script" err
'

test_done
