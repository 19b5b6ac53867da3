#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='make fresh: the README'"'"'s set-up and the synthetic tests pass on a bare Debian 12'
# the user's cache, read before sharness resets HOME
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# Inside make fresh's own system this script would start another one.
if [ -n "${KQ_FRESH_INSIDE:-}" ]; then
	skip_all='inside make fresh already'
	test_done
fi
if [ "$(id -u)" -ne 0 ] || ! command -v mmdebstrap >/dev/null; then
	skip_all='needs root and mmdebstrap (make deps)'
	test_done
fi
# The image and the download cache are the user's (kept between runs); the
# logs go to the trash directory.
export KQ_CACHE=$REAL_CACHE KQ_RESULTS=$SHARNESS_TRASH_DIRECTORY/results

test_expect_success 'a mirror that does not answer: one line naming what failed, exit 1, the kept image untouched' '
	images() { ls -l --time-style=+%s "$KQ_CACHE"/fresh/*.tar "$KQ_CACHE"/fresh/*.tar.key 2>/dev/null || :; } &&
	images >before &&
	KQ_FRESH_MIRROR=http://127.0.0.1:9 test_expect_code 1 fresh 2>err &&
	grep "^fresh: mmdebstrap failed: " err &&
	images >after && test_cmp before after
'

# The scripts that depend on the system under them: the import (xz, dpkg-deb,
# tar), the queue's apt, the lint (shellcheck, pyflakes), Coccinelle with
# Python scripting, the workflow's steps.  `make fresh` runs them all.
FRESH_TESTS="t0002 t0004 t0010 t0530 t0710"

# make test runs them in the system make deps left (fresh --kept); without
# one (a new machine, or scripts/deps changed) the bare install takes about
# 20 minutes more than make test may: that is make fresh's own run, which
# keeps the system for the next make test.
if fresh --kept 2>kept.err; then
	test_set_prereq KEPT
else
	say "# $(cat kept.err): make fresh makes it; the run on it skipped"
fi

test_expect_success KEPT 'make fresh: on a bare Debian 12, apt-get install git make, make deps, the system-bound tests, each passing' '
	make -s -C "$REPO" fresh TESTS="$FRESH_TESTS" KQ_RESULTS="$KQ_RESULTS" >out 2>err ||
		{ cat out err; tail -n 40 "$KQ_RESULTS/fresh/test-quick.log"; false; } &&
	log=$KQ_RESULTS/fresh/test-quick.log &&
	grep -x "fresh-step: apt-get install -y -qq git make" "$log" &&
	grep -x "fresh-step: make deps" "$log" &&
	grep -x "fresh-step: make test-quick TESTS=\"$FRESH_TESTS\"" "$log" &&
	for t in $FRESH_TESTS; do
		grep "^\[[0-9:]*\] $t-[a-z-]*\.sh \.* ok" "$log" || return 1
	done &&
	grep -x "All tests successful." "$log" && grep -x "Result: PASS" "$log" &&
	grep "^fresh: test-quick passed on the bare Debian 12 in " err
'

test_expect_success KEPT 'nothing is left behind: no mount, no process, no system (checked holding the lock no run of fresh is then inside)' '
	flock "$KQ_CACHE/fresh/lock" sh -c "
		! grep -F \" $KQ_CACHE/fresh/root\" /proc/self/mountinfo &&
		! pgrep -f [/]root/fresh-run &&
		test ! -e \"$KQ_CACHE/fresh/root\""
'

test_expect_success 'bad input: an unknown argument, one line, exit 2' '
	test_expect_code 2 fresh --nosuch 2>err && test_line_count = 1 err && grep "unknown argument .--nosuch." err &&
	test_expect_code 2 make -s -C "$REPO" fresh FULL=maybe 2>err && grep "FULL=yes or nothing" err
'

test_expect_success 'fresh --kept: a cache without the kept system says so, exit 1; a stale key is not kept' '
	mkdir -p empty/fresh &&
	KQ_CACHE=$PWD/empty test_expect_code 1 fresh --kept 2>err &&
	test_line_count = 1 err && grep "no kept system for this scripts/deps" err &&
	: >empty/fresh/after-deps.tar && echo 0000 >empty/fresh/after-deps.tar.key &&
	KQ_CACHE=$PWD/empty test_expect_code 1 fresh --kept 2>err &&
	test ! -e empty/fresh/root
'

test_done
