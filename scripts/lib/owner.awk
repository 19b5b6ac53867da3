# owner.awk -v f=FILE: the owner of FILE, from get_maintainer.pl --sections
# (every MAINTAINERS entry that matches FILE, in hash order): the entry
# whose F: pattern matches FILE most closely (the file itself, else the
# longest literal prefix), "THE REST" when no other entry matches.
function score(p,   pre) {
	if (p == f) return 100000
	pre = p; sub(/[*?[].*/, "", pre)
	if (substr(f, 1, length(pre)) != pre) return -1
	return length(pre)
}
/^[^ \t].*/ && !/^[A-Z]:\t/ { sec = $0; next }
/^F:\t/ { s = score($2); if (sec != "THE REST" && s > best) { best = s; who = sec } }
BEGIN { best = -1 }
END { print (who == "" ? "THE REST" : who) }
