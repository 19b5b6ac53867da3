# sparse-findings.awk (awk -f paths.awk -f sparse-findings.awk): read the log of a sparse pass (scripts/scan: checker_direct, or a batched `make C=2`)
# and print one line per vm_fault_t diagnostic:
#     file|line|kind|message
# Variables (awk -v):
#   src        the worktree path, stripped from file names ("a/../b" folded)
#   objs       file listing the objects the make was asked to build
#   unchecked  file to append "file|sparse|reason" to, for every object
#              sparse did not check completely (did not run, compile
#              failure, a sparse error that is not a type diagnostic)
#   checked    file to append the files sparse checked completely to
#   label      prefix for the reasons (the architecture and config)
#   types      regex of the sparse errors that are ordinary type diagnostics
#              (scripts/lib/kbuild.sh's SPARSE_TYPE_DIAGNOSTICS)
# The diagnostics sparse (evaluate.c) prints about a restricted type, and
# the lines that continue them (info(), "file:line:col:    ..."):
#   incorrect type in <where> (<why>)     expected T / got T
#   invalid assignment: <op>              left side has type T / right side has type T
#   bad assignment (<op>) to T
#   cast to T / cast from T
#   T degrades to integer
#   incompatible types in comparison expression (<why>):    T / T
#   incompatible types in conditional expression (<why>):   T / T
#   incompatible types for operation (<op>):                T / T
#   incompatible type for operation (<op>):                 T
# A diagnostic is a vm_fault_t one when any of its lines names vm_fault_t.
# ("incompatible types for 'case' statement" names no type: a case of
# another type than a vm_fault_t switch is "degrades to integer".)
function flush(   kind, m, i) {
	if (cur == "" || text !~ /vm_fault_t/) { cur = ""; text = ""; n = 0; return }
	if (head ~ /incorrect type in (assignment|initializer)/)
		kind = ex ~ /restricted vm_fault_t/ ? "int-in-fault" : "fault-in-int"
	else if (head ~ /incorrect type in return expression/)
		kind = ex ~ /restricted vm_fault_t/ ? "errno-return" : "fault-return"
	else if (head ~ /incorrect type in argument/) kind = "argument"
	else if (head ~ /^invalid assignment: /)
		kind = ex ~ /restricted vm_fault_t/ ? "int-in-fault" : "fault-in-int"
	else if (head ~ /^bad assignment \(.*\) to .*vm_fault_t/) kind = "int-in-fault"
	else if (head ~ /cast (from|to) restricted vm_fault_t/) kind = "cast"
	else if (head ~ /degrades to integer|^incompatible types? (in comparison expression|for operation)/) kind = "compare"
	else kind = "other"
	m = head
	if (ex != "") m = m "; " (head ~ /^invalid assignment/ ? "left side has type " : "expected ") ex
	if (got != "") m = m "; " (head ~ /^invalid assignment/ ? "right side has type " : "got ") got
	for (i = 1; i <= n; i++) m = m "; " cont[i]
	print cur "|" kind "|" m
	cur = ""; text = ""; n = 0
}
/^  CC / { flush(); next }
/^  CHECK / { flush(); file = norm($2); seen[file] = 1; next }
/^[^ ]+:[0-9]+:[0-9]+: (warning|error): / {
	flush()
	split($1, a, ":"); where = norm(a[1]) "|" a[2]
	msg = $0; sub(/^[^ ]+ (warning|error): /, "", msg)
	# An error that is not an ordinary type diagnostic means sparse
	# did not understand the file: its silence proves nothing.
	if ($2 == "error:" && file != "" && !(file in why) &&
	    msg !~ types)
		why[file] = "sparse error: " norm(a[1]) ":" a[2] ": " msg
	# sparse's cap (-fmax-warnings): nothing after it was reported.
	if (msg == "too many warnings" && file != "" && !(file in why))
		why[file] = "sparse stopped reporting at " norm(a[1]) ":" a[2] ": too many warnings"
	cur = where; head = msg; text = msg; ex = ""; got = ""; n = 0; next
}
/^[^ ]+:[0-9]+:[0-9]+:    [^ ]/ {
	t = $0; sub(/^[^ ]+:[0-9]+:[0-9]+: +/, "", t); text = text " " t
	if (t ~ /^expected /) ex = substr(t, 10)
	else if (t ~ /^got /) got = substr(t, 5)
	else if (t ~ /^left side has type /) ex = substr(t, 20)
	else if (t ~ /^right side has type /) got = substr(t, 21)
	else cont[++n] = t
	next
}
# sparse refusing its command line (riscv's -march=..._zicsr_zifencei in
# sparse 0.6.4) stops "make prepare" before any object: say why.
/^invalid argument to / && stopped == "" { flush(); stopped = $0; next }
# checker_direct: the checker itself exited non-zero on an object.
/^kq-checker: exit [0-9]+ on / { flush(); died[$NF] = $3; next }
/^make\[[0-9]+\]: \*\*\* .*\.o\] Error/ {
	flush(); o = $0; sub(/.*\[[^ ]*: /, "", o); sub(/\].*/, "", o); failed[o] = 1; next
}
{ flush() }
END {
	flush()
	while ((getline o < objs) > 0) {
		s = norm(o); sub(/\.o$/, ".c", s)
		if (o in died) print s "|sparse|" label "sparse exited " died[o] " (see scan log)" >> unchecked
		else if (o in failed) print s "|sparse|" label "compile failed (see scan log)" >> unchecked
		else if (!(s in seen)) print s "|sparse|" label "sparse did not run" (stopped != "" ? " (sparse: " stopped ")" : "") >> unchecked
		else if (s in why) print s "|sparse|" label why[s] >> unchecked
		else print s >> checked
	}
}
