# boot-results.awk CONSOLE: the results of a boot, from the guest's serial
# console (scripts/boot).  One line per TAP or KTAP result: "STATUS NAME",
# STATUS ok, fail or skip; NAME "program.test" for the guest's test
# programs (between kq-init's "starting /tests/..." and "exit" lines),
# "mm.program [args].test" for the kernel's mm selftests (/mm/...) and
# "suite.case" for KUnit (nested under "# Subtest: suite").  A top-level
# KTAP line is printed only when it failed (its cases say the rest).
# An mm selftest that announced a plan (1..N) and reported fewer top-level
# results (it died or was killed half way) gets one more failed result,
# "mm.program [args].(results missing from its plan)": its missing cases
# are a failure of their own, judged against the base kernel like any.
function plan_check() {
	if (prog ~ /^mm\./ && plan != "" && seen < plan + 0)
		print "fail", prog ".(results missing from its plan)"
	plan = ""; seen = 0
}
{ sub(/\r$/, "") }
/^kq-init: starting \/(tests|selftests)\// { plan_check(); prog = $3; sub(/.*\//, "", prog); next }
# the kernel's mm selftests: mm.PROGRAM [ARGS].TEST
/^kq-init: starting \/mm\// { plan_check(); prog = $0; sub(/^kq-init: starting \/mm\//, "mm.", prog); next }
/^kq-init: .* exit / { plan_check(); prog = ""; next }
prog ~ /^mm\./ && plan == "" && /^1\.\.[0-9]+$/ { plan = substr($0, 4); next }
prog ~ /^mm\./ && /^(not )?ok [0-9]+/ { seen++ }
END { plan_check() }
/^[ \t]*# Subtest: / { suite = $0; sub(/.*# Subtest: /, "", suite); next }
/^[ \t]*(not )?ok [0-9]+ / {
	line = $0; nested = line ~ /^[ \t]/
	st = line ~ /^[ \t]*not ok/ ? "fail" : "ok"
	num = line; sub(/^[ \t]*(not )?ok /, "", num); sub(/[^0-9].*/, "", num)
	sub(/^[ \t]*(not )?ok [0-9]+ *(- )?/, "", line)
	if (line ~ /# *SKIP/) st = "skip"
	sub(/ *#.*/, "", line)
	# "ok 12 # SKIP why" (ksft_test_result_skip) has no name: its number
	if (line == "") line = "#" num
	if (prog != "") { sub(/^global\./, "", line); print st, prog "." line }
	else if (nested) print st, suite "." line
	else if (st == "fail") print st, line
}
