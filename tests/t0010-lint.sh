#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='lint: shell scripts are shellcheck clean and answer -h'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

scripts() {
	for f in "$REPO"/scripts/* "$REPO"/.ci/run; do
		head -n 1 "$f" | grep -q bash && echo "$f"
	done
}

test_expect_success 'every shell script is shellcheck clean' '
	scripts >list && test -s list &&
	(cd "$REPO" && shellcheck -x $(cat "$OLDPWD/list") tests/lib-kq.sh tests/t[0-9]*.sh)
'

test_expect_success 'every verb prints its usage on -h and exits 0' '
	for f in $(grep /scripts/ list); do
		test -x "$f" || continue
		"$f" -h >out 2>&1 || { echo "$f -h failed"; return 1; }
		grep -q "^usage: $(basename "$f")" out || { echo "$f -h: no usage line"; return 1; }
	done
'

test_done
