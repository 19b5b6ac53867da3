# scan-merge.awk (awk -F'|'): one site per finding, from the sparse and
# spatch findings sorted by file, line and tool (scripts/scan).
# Input lines:  file|line|kind|tool|arch|message
# Output lines: file|line|kind|tools|arches|message
# Two findings are one site when they are on the same line, or of the same
# kind within 8 lines (sparse and spatch point at different lines of one
# statement) and from a tool the site does not have yet.  spatch's kind and
# line win (it knows the construct); sparse's message wins (it is precise).
function out() { if (f != "") print f "|" l "|" k "|" tools "|" ar "|" m }
function msg(   t) { t = $0; sub(/^[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|/, "", t); return t }
$1 == f && ($2 == l || ($3 == k && $2 - l <= 8 && index(tools, $4) == 0)) {
	if (index(tools, $4) == 0) tools = tools "," $4
	if ($5 != "" && index("," ar ",", "," $5 ",") == 0) ar = ar (ar == "" ? "" : ",") $5
	if ($4 == "spatch") { k = $3; l = $2 }
	if (m !~ /;/ && $4 == "sparse") m = msg()
	next
}
{ out(); f = $1; l = $2; k = $3; tools = $4; ar = $5; m = msg() }
END { out() }
