# split-build-log.awk -v objs=FILE -v src=TREE/ < LOG: the part of a kbuild
# log that concerns the objects listed in FILE (kbuild paths, one per
# line; TREE the source tree, which 6.x kernels print before the path of
# a CHECK line when building in a separate directory), from a
# make over more objects than those (scripts/check compiles the base side
# of every topic in one make).  With --output-sync=target each object's
# output is one block, opened by its "  CC" or "  CHECK" line; a block is
# kept when its object is listed, and so is make's error line naming a
# listed object.  Lines about no object (kbuild's SYNC or DESCEND, a
# "C=2 specified, but" line, make's own) are kept whatever the list.
BEGIN {
	while ((getline l < objs) > 0)
		want[l]
	close(objs)
	cur = ""
}
# "  CC [M]  dir/x.o", "  CC      dir/x.o": x.o's block
/^  CC( \[M\])? +[^ ]+\.o$/ { cur = $NF; if (cur in want) print; next }
# "  CHECK   dir/x.c": x.o's (an object up to date is only checked)
/^  CHECK +[^ ]+\.c$/ {
	cur = $NF
	if (src != "" && index(cur, src) == 1)
		cur = substr(cur, length(src) + 1)
	sub(/\.c$/, ".o", cur)
	if (cur in want) print
	next
}
# another target's quiet line ("  LD [M]", "  SYNC", "  DESCEND"): no object's
/^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]/ { cur = ""; print; next }
# make's error for one target: "make[4]: *** [scripts/Makefile.build:N: dir/x.o] Error 1"
/^make(\[[0-9]+\])?: \*\*\* \[[^]]*\] / {
	t = $0
	sub(/^make(\[[0-9]+\])?: \*\*\* \[/, "", t)
	sub(/\].*$/, "", t)
	sub(/^.*: /, "", t)
	cur = ""
	if (t !~ /\.o$/ || t in want)
		print
	next
}
# make's own lines (entering a directory, a target not remade): no block
# goes on past them
/^make(\[[0-9]+\])?: / { cur = ""; print; next }
cur == "" || cur in want
