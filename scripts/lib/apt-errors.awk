# Reads the output of `apt-get update`; prints why the suite SUITE of the
# archive URI could not be used, or nothing.  apt names a suite as
# "URI SUITE Release" in Err:/E: lines and as "URI/dists/SUITE/..." in W:
# lines; an E:/W: line says most and wins, else the reason of the Err:
# line (the indented line below it).
# (apt prints a file: archive decoded: %20 as a space.)
# usage: awk -v uri=URI -v suite=SUITE -f apt-errors.awk update.log
BEGIN { gsub(/%20/, " ", uri) }
function mine(line) {
	return index(line, uri " " suite " ") || index(line, uri "/dists/" suite "/")
}
pending { sub(/^ +/, ""); if (err == "") err = $0; pending = 0; next }
/^Err:/ && mine($0) { pending = 1; next }
/^(E|W):/ && mine($0) && msg == "" { msg = $0; sub(/^(E|W): /, "", msg) }
END { if (msg != "") print msg; else if (err != "") print err }
