# tool-failures.awk (awk -F'|'): from scripts/scan's unchecked list
# ("file|tool|ARCHES: reason; ARCHES: reason"), the files a tool failed on:
# spatch's own errors and unknown tracepoints; sparse stopping or a compile
# failing; x86_64's allmodconfig not preparing.  Not failures, still listed
# and counted: "not built by allmodconfig", "no cross compiler", "not run
# (--spatch-only)", and another architecture's allmodconfig that does not
# prepare (6.1's alpha): nothing was asked of a tool there; a file listed
# in scripts/sparse-limits (a sparse parser limit, reviewed).
$2 != "sparse" { print; next }
# reviewed by hand, listed with its reason: not a failure
index($3, "known sparse limit (scripts/sparse-limits)") { next }
{
	n = split($3, r, /; /)
	for (i = 1; i <= n; i++) {
		a = r[i]; sub(/: .*/, "", a)
		x = r[i]; sub(/^[^:]*: /, "", x)
		if (x ~ /^(not built by allmodconfig|no cross compiler in Debian .*|not run \(--spatch-only\))$/)
			continue
		if (x ~ /^make prepare failed/ && (", " a ", ") !~ /, x86_64(-[a-z]+)?, /)
			continue
		print; next
	}
}
