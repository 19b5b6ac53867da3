#!/usr/bin/env python3
"""What `make update` did, for people and for the workflow that proposes it.

usage: update_report.py RESULTS WALK CHANGED TOOL STARTED DURATION DRY

RESULTS is $KQ_RESULTS.  WALK (written by rebase --update) has one line per
move tried, in walk order: "topic<TAB>track<TAB>version".  CHANGED has one
line per file of the repository that differs from HEAD (or, outside git,
that the walk changed): "modified|added|deleted<TAB>path".  The moves' outcomes come from RESULTS/<version>/rebase-<topic>.json
and the range-diffs they name.  TOOL, STARTED, DURATION: the record's common
fields; DRY is 1 for --dry-run.

Writes RESULTS/update.md (the report: the packaged versions moved to, per
topic and move the outcome of every patch, the range-diff summaries and
range-diffs, the resume command of a conflict, the changed files) and the
record RESULTS/update.json (kind "update").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402


def vkey(v):
    """Debian versions of one track sort by their numbers well enough here."""
    out = []
    for part in v.replace("~", ".").replace("-", ".").replace("+", ".").split("."):
        out.append((0, int(part), "") if part.isdigit() else (1, 0, part))
    return out


def outcome_words(patches):
    kinds = {}
    for p in patches:
        kinds.setdefault(p["outcome"].split(":")[0], []).append(p)
    words = []
    for k in ("unchanged", "refreshed", "dropped", "fixed upstream differently", "conflict"):
        if k in kinds:
            words.append("%d %s" % (len(kinds[k]), k))
    return ", ".join(words) or "no patch"


def main(argv):
    if len(argv) != 8:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results, walk, changed, tool, started, duration, dry = argv[1:]
    moves = []
    for line in open(walk):
        if not line.strip():
            continue
        topic, track, version = line.rstrip("\n").split("\t")
        r = records.load(os.path.join(results, version, "rebase-%s.json" % topic)) or {}
        moves.append({
            "topic": topic, "track": track, "from": r.get("from") or "?", "to": version,
            "status": r.get("status") if r.get("status") in ("ok", "conflict", "confirm", "merged") else "conflict",
            "patches": r.get("patches", []), "range_diff_summary": r.get("range_diff_summary"),
            "range_diff": r.get("range_diff"), "resume": r.get("resume"),
        })
    files = []
    for line in open(changed):
        if line.strip():
            how, path = line.rstrip("\n").split("\t", 1)
            files.append({"path": path, "change": how})
    # the versions the update is for: the newest tried per track (a topic
    # that stopped at a conflict belongs to the same proposal)
    newest = {}
    for m in moves:
        if vkey(m["to"]) > vkey(newest.get(m["track"], "0")):
            newest[m["track"]] = m["to"]
    kernels = [{"track": t, "kernel": newest[t]} for t in sorted(newest, key=vkey)]
    conflicts = [m for m in moves if m["status"] == "conflict"]

    md = []
    if kernels:
        md.append("# linux-source %s" % ", ".join("%s (%s)" % (k["kernel"], k["track"]) for k in kernels))
    else:
        md.append("# Nothing to update")
    md.append("")
    topics = sorted({m["topic"] for m in moves})
    if not moves:
        md.append("Every topic is on the newest packaged version of its tracks.")
    else:
        md.append("`make update`%s moved %d of %d topics through %d packaged versions%s." % (
            " --dry-run" if dry == "1" else "",
            len({m["topic"] for m in moves if m["status"] == "ok"}), len(topics),
            len({(m["track"], m["to"]) for m in moves}),
            "; %d stopped at a conflict and need a person" % len(conflicts) if conflicts else ""))
    for t in topics:
        md += ["", "## %s" % t]
        for m in (m for m in moves if m["topic"] == t):
            md.append("")
            if m["status"] == "conflict":
                md.append("### %s → %s (%s): **conflict, needs a person**" % (m["from"], m["to"], m["track"]))
            elif m["status"] == "confirm":
                md.append("### %s → %s (%s): **fixed upstream differently? a person confirms**" % (
                    m["from"], m["to"], m["track"]))
            elif m["status"] == "merged":
                md.append("### %s → %s (%s): **merged upstream**: every patch is in %s; the topic leaves"
                          " track %s" % (m["from"], m["to"], m["track"], m["to"], m["track"]))
            else:
                md.append("### %s → %s (%s): %s" % (m["from"], m["to"], m["track"], outcome_words(m["patches"])))
            md.append("")
            md.append("| patch | outcome |")
            md.append("|---|---|")
            for p in m["patches"]:
                md.append("| `%s` | %s |" % (p["patch"], p["outcome"]))
            if m["status"] in ("conflict", "confirm"):
                md += ["", "Nothing of this topic was written for %s: its patch files and branch are as they"
                       " were." % m["to"]]
                if m["resume"]:
                    md.append("To %s: %s." % ("resume" if m["status"] == "conflict" else "confirm", m["resume"]))
            if m["range_diff_summary"]:
                md += ["", "range-diff: %s (`=` same, `!` changed, `<` dropped, `>` added)" % m["range_diff_summary"]]
            rd = m["range_diff"]
            if rd and os.path.exists(rd) and os.path.getsize(rd):
                text = open(rd, encoding="utf-8", errors="replace").read().rstrip("\n")
                md += ["", "<details><summary>range-diff</summary>", "", "```", text, "```", "", "</details>"]
    md += ["", "## Files changed in the repository", ""]
    if files:
        md += ["- `%s` (%s)" % (f["path"], f["change"]) for f in files]
    else:
        md.append("None.")
    text = "\n".join(md) + "\n"
    out = os.path.join(results, "update.md")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.rename(out + ".tmp", out)
    records.write(os.path.join(results, "update.json"), {
        "kind": "update", "kernel": None, "topic": None, "tool": tool, "started": started,
        "duration_s": float(duration.rstrip("s")), "reproducer": "make update",
        "dry_run": dry == "1", "kernels": kernels,
        "moves": [{k: m[k] for k in ("topic", "track", "from", "to", "status", "range_diff_summary", "resume")}
                  | {"outcomes": outcome_words(m["patches"])} for m in moves],
        "conflicts": len(conflicts), "changed_files": files, "report": out,
    })
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
