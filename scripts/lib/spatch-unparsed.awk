# spatch-unparsed.awk: from `spatch --parse-c` over the scan's files, the
# fault code spatch could not parse.  spatch skips a function it cannot
# parse without a word in a normal run, so a fault code in one is not
# judged; each such file is printed as "FILE|spatch|REASON" for the scan's
# unchecked list (a tool failure: scripts/spatch-macros.h may need the
# macro spatch stumbled on).  Only a skipped region that mentions a fault
# code counts: the rest of the kernel's unparsable macros judge nothing.
/^ = File "/ {
	split($0, a, "\"")
	f = a[2]
	split($0, b, "line ")
	split(b[2], c, ",")
	l = c[1]
}
/^(bad|BAD):/ && /vm_fault_t|VM_FAULT_|vmf_[a-z_]+\(|handle_mm_fault/ && !((f, l) in done) {
	done[f, l]
	at[f] = at[f] (at[f] == "" ? "" : ", ") l
}
END {
	for (x in at)
		printf "%s|spatch|spatch could not parse the function around line %s, which holds fault code (a macro scripts/spatch-macros.h lacks?)\n", x, at[x]
}
