# unchecked-reasons.awk (awk -F'|'): one line per file no pass checked,
# from "file|tool|arch: reason" lines in the order the passes ran
# (scripts/scan).  Output "file|sparse|reasons": the architectures with the
# same reason are named together, "x86_64, arm64: not built by
# allmodconfig; alpha: make prepare failed: ...".
{
	r = $0; sub(/^[^|]*\|[^|]*\|/, "", r)
	a = r; sub(/: .*/, "", a); r = substr(r, length(a) + 3)
	if (!($1 in nr)) order[++n] = $1
	k = $1 SUBSEP r
	if (!(k in who)) { rs[$1, ++nr[$1]] = r; who[k] = a } else who[k] = who[k] ", " a
}
END {
	for (i = 1; i <= n; i++) {
		f = order[i]; out = ""
		for (j = 1; j <= nr[f]; j++) out = out (j > 1 ? "; " : "") who[f, rs[f, j]] ": " rs[f, j]
		print f "|sparse|" out
	}
}
