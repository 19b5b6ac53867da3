# build-warnings.awk (awk -v src=WT/ -f paths.awk -f build-warnings.awk):
# the diagnostics of a kernel build log made with C=2 W=1 (scripts/check),
# one per line: "tool|file|line|message".  tool is gcc or sparse (what
# Kbuild last ran: CC or CHECK), with "-error" appended for errors;
# sparse's expected/got lines are folded into the message; file names are
# relative to the worktree src.
function flush() { if (cur != "") print cur; cur = "" }
/^  CC/ { flush(); section = "gcc"; next }
/^  CHECK/ { flush(); section = "sparse"; next }
/^[^ ]+:[0-9]+:[0-9]+: (warning|error): / {
	flush()
	split($1, a, ":"); m = $0; sub(/^[^ ]+ (warning|error): /, "", m)
	tool = section == "sparse" ? "sparse" : "gcc"
	if ($2 == "error:") tool = tool "-error"
	cur = tool "|" norm(a[1]) "|" a[2] "|" m; next
}
/^[^ ]+:[0-9]+:[0-9]+:    (expected|got) / {
	t = $0; sub(/^[^ ]+:[0-9]+:[0-9]+: +/, "", t); cur = cur "; " t; next
}
{ flush() }
END { flush() }
