# The unfolded value of one header of an e-mail message (the first
# paragraph of the file), once per occurrence.
# usage: awk -v h="Subject" -f header.awk FILE
BEGIN { h = h ": " }
/^$/ { exit }
/^[ \t]/ { sub(/^[ \t]+/, " "); cur = cur $0; next }
{ if (index(cur, h) == 1) print substr(cur, length(h) + 1); cur = $0 }
END { if (index(cur, h) == 1) print substr(cur, length(h) + 1) }
