# compare-warnings.awk -v tool=T -v what=new|removed|kept BEFORE AFTER
# (awk -F'|'; both files from build-warnings.awk): the diagnostics of tool
# T that AFTER adds to BEFORE (new), that it no longer has (removed), or
# that both have (kept), as "file:line: message" (removed: "file:
# message").  Matched by file and message, counting duplicates: line
# numbers move when code is added above (scripts/check).
$1 != tool { next }
FILENAME == ARGV[1] { k = $2 "|" $4; before[k]++; next }
{ k = $2 "|" $4; if (before[k] > 0) { before[k]--; if (what == "kept") print $2 ":" $3 ": " $4 } else if (what == "new") print $2 ":" $3 ": " $4 }
END { if (what == "removed") for (k in before) while (before[k]-- > 0) { split(k, a, "|"); print a[1] ": " a[2] } }
