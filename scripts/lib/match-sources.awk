# match-sources.awk (awk -f paths.awk -f match-sources.awk SOURCES MAP):
# the lines "source object" of MAP (make -n's view, sources as Kbuild names
# them) whose normalised source is one of SOURCES, once each
# (scripts/lib/kbuild.sh's kbuild_objects).
FILENAME == ARGV[1] { want[$1]; next }
{ s = norm($1); if ((s in want) && !(s in done)) { done[s]; print s, $2 } }
