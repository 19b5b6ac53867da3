# cc-notrun.awk (awk -v src=WT/ -f paths.awk -f cc-notrun.awk MAP LOG): the
# objects of MAP ("source object") that the build LOG has neither a
# "CC <object>" line nor a make failure for: the compiler never ran on
# them (it is missing, or make stopped first).  The checks' "error".
FILENAME == ARGV[1] { want[norm($2)]; next }
$1 == "CC" { seen[norm($NF)] }
/\*\*\* \[[^]]*\.o\] Error/ {
	o = $0; sub(/.*\[/, "", o); sub(/\].*/, "", o); sub(/^.*: /, "", o); seen[norm(o)]
}
END { for (w in want) if (!(w in seen)) print w }
