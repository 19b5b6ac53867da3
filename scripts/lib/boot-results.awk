# boot-results.awk CONSOLE: the results of a boot, from the guest's serial
# console (scripts/boot).  One line per TAP or KTAP result: "STATUS NAME",
# STATUS ok, fail or skip; NAME "program.test" for the guest's test
# programs (between kq-init's "starting /tests/..." and "exit" lines) and
# "suite.case" for KUnit (nested under "# Subtest: suite").  A top-level
# KTAP line is printed only when it failed (its cases say the rest).
{ sub(/\r$/, "") }
/^kq-init: starting \/(tests|selftests)\// { prog = $3; sub(/.*\//, "", prog); next }
/^kq-init: .* exit / { prog = ""; next }
/^[ \t]*# Subtest: / { suite = $0; sub(/.*# Subtest: /, "", suite); next }
/^[ \t]*(not )?ok [0-9]+ / {
	line = $0; nested = line ~ /^[ \t]/
	st = line ~ /^[ \t]*not ok/ ? "fail" : "ok"
	sub(/^[ \t]*(not )?ok [0-9]+ (- )?/, "", line)
	if (line ~ /# *SKIP/) st = "skip"
	sub(/ *#.*/, "", line)
	if (prog != "") { sub(/^global\./, "", line); print st, prog "." line }
	else if (nested) print st, suite "." line
	else if (st == "fail") print st, line
}
