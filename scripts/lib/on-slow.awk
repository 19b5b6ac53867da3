# on-slow.awk -v s=SECONDS -v p=PARTS -v t=TARGET -v slow=SPO -v refs="R..."
# (scripts/bench): SECONDS/PARTS in minutes on a machine whose reference
# build reads SPO core-s/object, scaled by the mean of this run's
# yardsticks REFS (this machine's speed drifts by a fifth within hours, so
# one yardstick before a 40-minute run is not enough), with the range the
# single yardsticks give, and whether the figure is within TARGET minutes.
BEGIN {
	n = split(refs, r, " ")
	if (n == 0 || p <= 0) { print "no yardstick"; exit 1 }
	lo = r[1]; hi = r[1]
	for (i = 1; i <= n; i++) {
		m += r[i]
		if (r[i] < lo) lo = r[i]
		if (r[i] > hi) hi = r[i]
	}
	m /= n
	per = s / p / 60
	v = per * slow / m
	printf "%.1f min on the %.2f machine (x%.3f by the mean yardstick %.3f of %d; %.1f-%.1f by each alone): %s %s min\n",
		v, slow, slow / m, m, n, per * slow / hi, per * slow / lo, (v <= t ? "within" : "OVER"), t
}
