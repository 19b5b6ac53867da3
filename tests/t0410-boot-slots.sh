#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='boot: the guest slots folder, shared by every run on the machine, is checked before anything is built'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

test_expect_success 'setup: a private cache' '
	use_private_cache
'

test_expect_success 'a slots folder others may write to, or a symlink, or another user'"'"'s: one line naming it, exit 1, no file written through it' '
	mkdir open && chmod 777 open &&
	test_expect_code 1 env KQ_GUEST_SLOTS="$PWD/open" boot 6.1.1 2>err &&
	test_line_count = 1 err && grep "open: the guest slots folder must be this user.s and writable by it alone" err &&
	mkdir real && ln -s real link &&
	test_expect_code 1 env KQ_GUEST_SLOTS="$PWD/link" boot 6.1.1 2>err &&
	grep "link: the guest slots folder must be" err &&
	mkdir theirs && chown nobody theirs &&
	test_expect_code 1 env KQ_GUEST_SLOTS="$PWD/theirs" boot 6.1.1 2>err &&
	grep "theirs: the guest slots folder must be" err &&
	test ! -e "$KQ_RESULTS/6.1.1-1"
'

# console LINES...: a guest console, one argument a line
console() { printf '%s\n' "$@"; }

test_expect_success 'an mm selftest that dies half way through its plan fails a result of its own; one that reports its plan does not' '
	console "kq-init: starting /mm/cow" "TAP version 13" "1..3" "ok 1 a" "ok 2 b" "ok 3 c" "kq-init: /mm/cow exit 0" \
		"kq-init: starting /mm/hmm-tests -T x" "TAP version 13" "1..4" "ok 1 one" "not ok 2 two" "kq-init: /mm/hmm-tests -T x exit 1" \
		"kq-init: starting /tests/dax" "1..5" "ok 1 d" "kq-init: /tests/dax exit 0" \
		"kq-init: starting /mm/gup_test" "1..2" "ok 1 g" >console.log &&
	awk -f "$S/lib/boot-results.awk" console.log >results &&
	cat results &&
	grep -x "fail mm.hmm-tests -T x.(results missing from its plan)" results &&
	grep -x "fail mm.gup_test.(results missing from its plan)" results &&
	! grep "cow.(results missing" results && ! grep "dax.(results missing" results &&
	test "$(grep -c "missing from its plan" results)" = 2
'

test_done
