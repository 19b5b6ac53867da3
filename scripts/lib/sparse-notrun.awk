# sparse-notrun.awk (awk -v src=WT/ -f paths.awk -f sparse-notrun.awk MAP LOG):
# the touched sources of MAP ("source object") that the C= build LOG has
# no "CHECK <source>" line for: sparse never ran on them (it crashed, is
# missing, or make stopped before them).  scripts/check fails sparse then.
FILENAME == ARGV[1] { want[$1]; next }
$1 == "CHECK" { seen[norm($2)] }
END { for (w in want) if (!(w in seen)) print w ": sparse did not run on it (no CHECK line in the build log)" }
