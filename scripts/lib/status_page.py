#!/usr/bin/env python3
"""The status page: every record of every topic on the given kernels.

usage: status_page.py LISTING RESULTS OUT TEMPLATE TOOL
LISTING (written by scripts/status) has a line per kernel,
"V<TAB>track<TAB>version", and per active topic,
"T<TAB>name<TAB>tracks<TAB>sent-version<TAB>build-only<TAB>description<TAB>merged-in<TAB>merged-reason<TAB>boot".
Reads RESULTS/<version>/{apply,rebase,check,send}-<topic>.json and boot.json
(links go to rangediff-<topic>.txt, check-<topic>.build.log and
boot.console.log).  Writes, in OUT: status.md (also printed), index.html
(TEMPLATE with @@BODY@@ filled in), badges/<topic>-<track>.svg and the
status record status.json (TOOL: the git hash of the code).
Exit 0 when every cell is pass or warn, 1 when one fails or lacks records.
"""
import html
import os
import sys
import time
import urllib.parse
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402


def main(argv):
    if len(argv) != 6:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    listing, results, out, template, tool = argv[1:]
    t_start = time.time()
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    versions, topics = [], []
    for line in open(listing):
        f = line.rstrip("\n").split("\t")
        if f[0] == "V":
            versions.append((f[1], f[2]))
        else:
            topics.append({"name": f[1], "tracks": f[2].split(), "sent": f[3], "build_only": f[4], "desc": f[5],
                           "merged_in": f[6].split() if len(f) > 6 else [],
                           "merged_why": f[7] if len(f) > 7 else "",
                           "boot": f[8].split() if len(f) > 8 else []})

    load = records.load

    def rel(path):
        # links are relative to the page, which lives in out/
        return urllib.parse.quote(os.path.relpath(path, out))

    RANK = {"pass": 0, "warn": 1, "missing": 2, "fail": 3}

    def cell(t, track, v):
        if track in t["merged_in"]:
            return {"state": "na", "chips": [("na", "merged upstream: " + t["merged_why"], None)]}
        if track not in t["tracks"]:
            return {"state": "na", "chips": [("na", "not on " + track, None)]}
        d = os.path.join(results, v)
        chips = []
        tip = None
        ap = load(os.path.join(d, "apply-%s.json" % t["name"])) or {}
        if ap.get("status") == "ok":
            tip = ap.get("tip")
            n = ap.get("patches") or 0
            chips.append(("pass", "applied, %d patch%s" % (n, "" if n == 1 else "es"), None))
        elif ap.get("status") == "fail":
            chips.append(("fail", "conflict: " + (ap.get("failed") or "?")[:80], None))
        else:
            chips.append(("missing", "not applied", None))
        rb = load(os.path.join(d, "rebase-%s.json" % t["name"]))
        if rb:
            outs = [p.get("outcome", "") for p in rb.get("patches", [])]
            rd = os.path.join(d, "rangediff-%s.txt" % t["name"])
            link = rel(rd) if os.path.exists(rd) else None
            if rb.get("status") == "conflict" or "conflict" in outs:
                chips.append(("fail", "rebase conflict from " + rb.get("from", "?"), link))
            else:
                kinds = [k for k in ("refreshed", "dropped") if k in outs]
                words = ", ".join("%d %s" % (outs.count(k), k) for k in kinds) or "unchanged"
                chips.append(("warn" if "dropped" in outs else "pass", "rebase: " + words, link))
        ck = load(os.path.join(d, "check-%s.json" % t["name"]))
        log = os.path.join(d, "check-%s.build.log" % t["name"])
        link = rel(log) if os.path.exists(log) else None
        if not ck:
            chips.append(("missing", "no checks", None))
        else:
            stale = tip is not None and ck.get("tip") != tip
            for key, label in (("checkpatch", "checkpatch"), ("sparse", "sparse"), ("w1", "W=1"), ("build", "build")):
                c = ck.get("checks", {}).get(key, {})
                st = c.get("status", "missing")
                # error: the check could not judge; shown as a failure
                shown = "fail" if st in ("fail", "error") else "warn" if stale else st
                # what the base already had is shown, not judged
                kept = len(c.get("kept") or [])
                info = " (%d kept from base)" % kept if kept else ""
                chips.append((shown if shown in RANK else "missing", label + " " + st + info + (" (stale)" if stale else ""), link))
        bt = load(os.path.join(d, "boot.json"))
        console = os.path.join(d, "boot.console.log")
        link = rel(console) if os.path.exists(console) else None
        if not bt:
            chips.append(("missing", "no boot", None))
        else:
            mine = [x for x in bt.get("topics", []) if x.get("topic") == t["name"]]
            how = mine[0].get("how", "") if mine else ""
            if not mine:
                chips.append(("missing", "boot %s without it" % bt["verdict"], link))
            elif bt.get("verdict") != "PASS":
                chips.append(("fail", "boot %s (%s)" % (bt["verdict"], how), link))
            elif tip is not None and mine[0].get("tip") not in (None, tip):
                chips.append(("warn", "boot PASS (%s, stale)" % how, link))
            elif how != "booted":
                # nothing in the guest runs this topic's code: a person must
                # know that the boot proves only that it builds and merges
                chips.append(("warn", "boot PASS (%s: %s)" % (how, t["build_only"] or mine[0].get("detail", "")), link))
            else:
                chips.append(("pass", "boot PASS (%s)" % how, link))
            # the kernel's own mm selftests, for the topics they judge
            n = records.mm_counts(bt)
            if "mm" in t["boot"] and n:
                chips.append(("fail" if n["fail"] else "pass",
                              "mm selftests: %d pass, %d skipped, %d new failures%s" % (
                                  n["ok"], n["skip"], n["fail"],
                                  ", %d fail on base too" % n["fails-on-base"] if n["fails-on-base"] else ""),
                              link))
        sd = load(os.path.join(d, "send-%s.json" % t["name"]))
        if t["sent"]:
            chips.append(("pass", "sent v" + t["sent"], rel(os.path.join(d, "send-%s.json" % t["name"])) if sd else None))
        else:
            chips.append(("na", "not sent", None))
        states = [c[0] for c in chips if c[0] in RANK]
        state = max(states, key=RANK.get) if states else "missing"
        return {"state": state, "chips": chips}

    grid = {t["name"]: {v: cell(t, tr, v) for tr, v in versions} for t in topics}

    # Markdown
    md = ["| topic | " + " | ".join("%s (%s)" % (v, tr) for tr, v in versions) + " |",
          "|---|" + "---|" * len(versions)]
    for t in topics:
        row = []
        for tr, v in versions:
            c = grid[t["name"]][v]
            if c["state"] == "na":
                row.append("—")
                continue
            txt = " · ".join(("**%s**" % label) if st == "fail" else label for st, label, _ in c["chips"])
            row.append("%s %s" % (c["state"].upper(), txt))
        md.append("| %s | %s |" % (t["name"], " | ".join(row)))
    counts = {}
    for t in topics:
        for tr, v in versions:
            s = grid[t["name"]][v]["state"]
            counts[s] = counts.get(s, 0) + 1
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    summary = ", ".join("%d %s" % (counts[k], k) for k in ("pass", "warn", "fail", "missing") if k in counts)
    md.append("")
    md.append("%d topics x %d kernels: %s (%s)" % (len(topics), len(versions), summary, stamp))
    open(os.path.join(out, "status.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md))

    # badges: one per topic and track, for the newest version given of the track
    COL = {"pass": "#2da44e", "warn": "#bf8700", "fail": "#cf222e", "missing": "#8c959f"}
    def badge(left, right, color):
        lw, rw = 6 * len(left) + 12, 6 * len(right) + 12
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s">'
                '<title>%s: %s</title><rect width="%d" height="20" fill="#555"/>'
                '<rect x="%d" width="%d" height="20" fill="%s"/>'
                '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
                '<text x="6" y="14">%s</text><text x="%d" y="14">%s</text></g></svg>\n') % (
            lw + rw, html.escape(left), right, html.escape(left), right, lw + rw, lw, rw, color,
            html.escape(left), lw + 6, right)
    badges = []
    for t in topics:
        for tr, v in versions:
            c = grid[t["name"]][v]
            if c["state"] == "na":
                continue
            name = "%s-%s.svg" % (t["name"], tr)
            svg = badge("%s %s" % (t["name"], tr), c["state"], COL[c["state"]])
            open(os.path.join(out, "badges", name), "w").write(svg)
            badges.append((name, svg))

    # HTML: one page, CSS and badges inline, links relative to it
    e = html.escape

    def cell_summary(c):
        """The cell's one line: its state and the first record that decided
        it (the whole label in its title); for a pass, what was sent."""
        st = c["state"]
        if st == "na":
            label = c["chips"][0][1]
            return '<span title="%s">%s</span>' % (e(label), e(label.split(":")[0]))
        why = next((label for cs, label, _ in c["chips"] if cs == st), "") if st != "pass" else \
            next((label for cs, label, _ in c["chips"] if label.startswith("sent ")), "")
        return '<b>%s</b> <span class="what" title="%s">%s</span>' % (st.upper(), e(why), e(why))
    body = ["<h1>vm_fault_t conversion queue</h1>",
            '<p class="meta">%d topics &times; %d kernels: %s &middot; generated %s</p>' % (
                len(topics), len(versions), e(summary), e(stamp)),
            '<table id="matrix"><thead><tr><th>topic</th>' +
            "".join("<th>%s<br><small>%s</small></th>" % (e(v), e(tr)) for tr, v in versions) +
            "</tr></thead><tbody>"]
    for t in topics:
        tds = []
        for tr, v in versions:
            c = grid[t["name"]][v]
            chips = []
            for st, label, link in c["chips"]:
                inner = '<a href="%s">%s</a>' % (e(link), e(label)) if link else e(label)
                chips.append('<span class="chip %s">%s</span>' % (st, inner))
            # compact: the verdict and what decided it on one line; every
            # record's chip one click away
            tds.append('<td class="cell %s" data-state="%s"><details><summary>%s</summary>%s</details></td>' % (
                c["state"], c["state"], cell_summary(c), "".join(chips)))
        why = '<br><span class="why">build-only: %s</span>' % e(t["build_only"]) if t["build_only"] else ""
        body.append('<tr data-topic="%s"><th class="topic" title="%s">%s%s</th>%s</tr>' % (
            e(t["name"]), e(t["desc"]), e(t["name"]), why, "".join(tds)))
    body.append("</tbody></table>")
    body.append('<details class="badges"><summary>badges (%d)</summary><ul class="badges">%s</ul></details>' % (
        len(badges), "".join('<li>%s</li>' % svg.strip() for _, svg in badges)))
    page = open(template).read().replace("@@BODY@@", "\n".join(body))
    open(os.path.join(out, "index.html.tmp"), "w").write(page)
    os.rename(os.path.join(out, "index.html.tmp"), os.path.join(out, "index.html"))
    records.write(os.path.join(out, "status.json"), {
        "kind": "status", "kernel": None, "topic": None, "tool": tool, "started": started,
        "duration_s": round(time.time() - t_start, 1), "reproducer": "make status",
        "kernels": [{"track": tr, "kernel": v} for tr, v in versions],
        "cells": [{"topic": t["name"], "kernel": v, "state": grid[t["name"]][v]["state"],
                   "chips": [{"state": st, "text": label, "link": link}
                             for st, label, link in grid[t["name"]][v]["chips"]]}
                  for t in topics for tr, v in versions],
        "counts": {k: counts.get(k, 0) for k in ("pass", "warn", "fail", "missing")},
    })
    return 1 if counts.get("fail") or counts.get("missing") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
