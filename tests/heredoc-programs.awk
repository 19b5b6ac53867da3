# heredoc-programs.awk FILE...: "file:line: N lines" for every heredoc of
# more than five lines.  A program is not a message: it belongs in a file
# of its own (scripts/lib/), where it can be linted and read.
!inhd && match($0, /<<-?[\\']?[A-Z]+'?/) {
	tag = substr($0, RSTART, RLENGTH)
	gsub(/[<'\\-]/, "", tag)
	start = FNR
	inhd = 1
	next
}
inhd && $0 ~ "^[ \t]*" tag "$" {
	if (FNR - start - 1 > 5)
		printf "%s:%d: %d lines\n", FILENAME, start, FNR - start - 1
	inhd = 0
}
