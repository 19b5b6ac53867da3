#!/usr/bin/env python3
"""rebase --matrix: topic x packaged version, from the rebase records.

usage: rebase_matrix.py RESULTS VERSIONS TOPICS
RESULTS is $KQ_RESULTS; VERSIONS the "track version" lines of
packaged_versions (oldest first); TOPICS the active topics, space-separated.
Reads RESULTS/<version>/rebase-<topic>.json; prints one table per track,
a cell per version: = unchanged, R refreshed, D dropped (both: RD),
C conflict, x does not apply, . the series' base.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402


def cell(r):
    st = r.get("status")
    if st == "conflict":
        return "C"
    if st == "not-applicable":
        return "x"
    if st == "base":
        return "."
    out = [o["outcome"].split(":")[0] for o in r.get("patches", [])]
    c = ("R" if "refreshed" in out else "") + ("D" if "dropped" in out else "")
    return c or "="


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results, versions, topics = argv[1], argv[2].split("\n"), argv[3].split()
    tracks = {}
    for line in versions:
        if line.strip():
            t, v = line.split()
            tracks.setdefault(t, []).append(v)
    for track, vs in tracks.items():
        print("track %s: %s" % (track, "  ".join("%d=%s" % (i + 1, v) for i, v in enumerate(vs))))
        print("  %-16s %s" % ("TOPIC", " ".join("%2d" % (i + 1) for i in range(len(vs)))))
        for t in topics:
            cells = []
            for v in vs:
                r = records.load(os.path.join(results, v, "rebase-%s.json" % t))
                cells.append("%2s" % (cell(r) if r else ""))
            if any(c.strip() for c in cells):
                print("  %-16s %s" % (t, " ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
