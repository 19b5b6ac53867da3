# insert-trailers.awk -v add=FILE PATCH: PATCH (a format-patch file) with
# the lines of FILE (trailers) inserted before its last Signed-off-by in
# the commit message (above the "---" line), where the sender's sign-off
# stays last (scripts/trailers).
FNR == NR { lines[++n] = $0; if (!done && $0 ~ /^Signed-off-by: /) last = n; if ($0 == "---") done = 1; next }
END {
	for (i = 1; i <= n; i++) {
		if (i == last) while ((getline a < add) > 0) print a
		print lines[i]
	}
}
