#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='lint: shell scripts are shellcheck clean and answer -h'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

scripts() {
	for f in "$REPO"/scripts/* "$REPO"/scripts/lib/* "$REPO"/scripts/checks/lib.sh "$REPO"/scripts/checks/*/run "$REPO"/.ci/run; do
		test -f "$f" && head -n 1 "$f" | grep -q bash && echo "$f"
	done
}

test_expect_success 'every shell script is shellcheck clean' '
	scripts >list && test -s list &&
	(cd "$REPO" && shellcheck -x $(cat "$OLDPWD/list") tests/lib-kq.sh tests/run-lanes tests/gen-shapes tests/t[0-9]*.sh)
'

test_expect_success 'every verb prints its usage on -h and exits 0' '
	for f in $(grep /scripts/ list); do
		test -x "$f" || continue
		"$f" -h >out 2>&1 || { echo "$f -h failed"; return 1; }
		grep -q "^usage: $(basename "$f")" out || { echo "$f -h: no usage line"; return 1; }
	done
'

test_expect_success 'every Python program is pyflakes clean' '
	ls "$REPO"/scripts/lib/*.py "$REPO"/tests/*.py >py && test "$(wc -l <py)" -ge 6 &&
	pyflakes3 $(cat py)
'

test_expect_success 'no program lives in a heredoc of a script (scripts/lib/ holds them)' '
	hp="awk -f $SHARNESS_TEST_DIRECTORY/heredoc-programs.awk" &&
	printf "x <<-\\\\EOF\\n1\\n2\\n3\\n4\\n5\\n6\\nEOF\\ny <<EOF\\n1\\nEOF\\n" >probe && cat probe &&
	$hp probe >found && grep "^probe:1: 6 lines$" found && test "$(wc -l <found)" = 1 &&
	$hp $(grep /scripts/ list) >found &&
	test_must_be_empty found
'

test_expect_success 'every lib Python program answers -h with its usage' '
	for f in "$REPO"/scripts/lib/*.py; do
		python3 "$f" -h >out 2>&1; grep -q "usage: $(basename "$f")" out || { echo "$f: no usage"; cat out; return 1; }
	done
'

# In a test's && chain, "A && B || : && C" runs C even when A failed: the
# "|| :" forgives every command before it, not only B.  A command allowed
# to fail is braced: "{ B || :; } &&".
test_expect_success 'no test forgives the failures before it: "|| :" and "|| true" only inside braces' '
	{ (cd "$REPO/tests" && grep -n -E "\|\| *(:|true) *&&" t[0-9]*.sh lib-kq.sh) | grep -v -E "^[^:]+:[0-9]+:[[:space:]]*#" >forgiving || :; } &&
	test_must_be_empty forgiving &&
	# what it catches, and why: the planted chain runs its last command
	# although its first failed
	chain="false && grep x y >z |""| : && echo ran" &&
	printf "\t%s\n" "$chain" >t9999-planted.sh &&
	grep -n -E "\|\| *(:|true) *&&" t9999-planted.sh >found && test_line_count = 1 found &&
	sh -c "$chain" >ran && test "$(cat ran)" = ran
'

test_done
