#!/usr/bin/env python3
"""How a series was tested, written at send time from the queue's records.

usage: cover_testing.py RESULTS TOPIC VERSION TIP BOOT BUILD_ONLY [--part=WHY] TRACK=VER...

Reads (RESULTS is $KQ_RESULTS):
  RESULTS/<ver>/apply-<topic>.json did the topic apply to that packaged kernel
  RESULTS/VERSION/check-<topic>.json   checkpatch, sparse, W=1 and build
  RESULTS/VERSION/boot.json        the QEMU boot of the integration kernel
TOPIC's manifest values BOOT (topic.boot: the guest test programs or KUnit
suites that drive its code; "mm": the kernel's mm selftests) and BUILD_ONLY (topic.build-only: why nothing
can run it here) come as arguments, as do TIP (the topic branch that is
sent) and one TRACK=VER per track the topic targets (newest packaged).
--part=WHY (track.<track>.build-only-part) names the part of a booted series
that no guest can run, and why: it is said beside the boot.

Writes the paragraph to stdout.  No line of it looks like an e-mail trailer
("Word: value"), so b4 leaves it where it is in single- and multi-patch
series alike.
"""
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402
load = records.load


def upstream(ver):
    """6.12.118-1~deb12u1 -> 6.12.118: the release the package carries."""
    return ver.split(":")[-1].split("-")[0]


def item(text):
    # paths and identifiers stay whole: never broken at a hyphen
    lines = textwrap.wrap(text, width=70, break_on_hyphens=False,
                          break_long_words=False)
    out = ["- " + lines[0]] + ["  " + l for l in lines[1:]]
    # A wrapped line that starts like "word: " could be read as a trailer.
    return [re.sub(r"^(\s*[\w-]+):(\s)", r"\1 -\2", l) if i else l
            for i, l in enumerate(out)]


def main(argv):
    if len(argv) < 7 or argv[1] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results, topic, version, tip, boot, build_only = argv[1:7]
    part = "".join(a[len("--part="):] for a in argv[7:] if a.startswith("--part="))
    tracks = dict(a.split("=", 1) for a in argv[7:] if not a.startswith("--part="))
    out = ["How this series was tested (written by the vm_fault_t conversion",
           "queue from the records of this run):"]

    applied, failed = [], []
    for track in sorted(tracks, key=lambda t: [int(x) for x in t.split(".")]):
        ver = tracks[track]
        ap = records.load(os.path.join(results, ver, "apply-%s.json" % topic)) or {}
        name = "%s (upstream %s)" % (ver, upstream(ver))
        (applied if ap.get("status") == "ok" else failed).append(name)
    if applied:
        out += item("It applies to Debian's linux-source %s." % " and ".join(applied))
    if failed:
        out += item("It was not applied to %s (no record of a clean apply)."
                    % " and ".join(failed))

    ck = load(os.path.join(results, version, "check-%s.json" % topic))
    if not ck:
        out += item("There are no checks on %s for it yet." % version)
    else:
        c = ck.get("checks", {})
        st = lambda k: c.get(k, {}).get("status", "missing")
        parts = []
        parts.append("checkpatch.pl --strict is clean" if st("checkpatch") == "pass"
                     else "checkpatch.pl --strict is %s" % st("checkpatch"))
        sp = c.get("sparse", {})
        removed = [w for w in sp.get("removed", []) if "vm_fault_t" in w]
        verdict = "" if st("sparse") == "pass" else " (its verdict: %s)" % st("sparse")
        parts.append("sparse (C=2, x86_64 allmodconfig) on the touched objects "
                     "reports %d new warnings and %d vm_fault_t warnings gone%s"
                     % (len(sp.get("new", [])), len(removed), verdict))
        unchecked = sp.get("unchecked", [])
        if unchecked:
            parts.append("sparse could not check %s" % ", ".join(unchecked))
        parts.append("W=1 reports %d new warnings%s" % (
            len(c.get("w1", {}).get("new", [])),
            "" if st("w1") == "pass" else " (its verdict: %s)" % st("w1")))
        parts.append("every touched object builds" if st("build") == "pass"
                     else "the build is %s" % st("build"))
        stale = "" if ck.get("tip") == tip else " (on an earlier version of the series)"
        out += item("On %s%s, %s." % (version, stale, "; ".join(parts)))

    bt = load(os.path.join(results, version, "boot.json"))
    mine = [t for t in (bt or {}).get("topics", []) if t.get("topic") == topic]
    if build_only:
        out += item("Not run in a guest, only built: %s." % build_only.rstrip("."))
    elif not bt or not mine:
        out += item("There is no QEMU boot on %s with it yet." % version)
    else:
        progs = [w for w in re.findall(r"[\w-]+", boot) if w != "mm"]
        ran = [r for r in bt.get("results", [])
               if any(r.get("name", "").startswith(p + ".") for p in progs)]
        mm = records.mm_counts(bt)
        ok = [r["name"] for r in ran if r.get("status") == "ok"]
        how = ("Booted in QEMU (x86_64, %s) on %s with every topic of the queue "
               "merged, verdict %s" % (bt.get("accel", "tcg").upper(), version,
                                       bt.get("verdict", "?")))
        if ran:
            how += ", and %d of %d guest tests and KUnit cases that drive this code " \
                   "passed (%s)" % (len(ok), len(ran), ", ".join(r["name"] for r in ran))
        else:
            how += "; no guest test drives this code"
        out += item(how + ".")
        if "mm" in boot.split() and mm:
            n = mm.get
            onbase = n("fails-on-base")
            out += item("In the same boot, the kernel's own mm selftests "
                        "(tools/testing/selftests/mm of that tree, the programs the "
                        "queue selects for %s, hmm-tests on test_hmm among them): %d "
                        "results pass, %d skipped, %d new failures%s."
                        % (bt.get("track", "its track"), n("ok"), n("skip"), n("fail"),
                           " (%d fail on the base kernel too)" % onbase if onbase else ""))
        if part:
            out += item("Not run in a guest, only built: %s." % part.rstrip("."))

    out += item("Prepared on upstream v%s: built, checked and booted on Debian's "
                "linux-source %s, which is v%s with Debian's patches. The "
                "base-commit below names the queue's import of that package, not "
                "an upstream commit." % (upstream(version), version, upstream(version)))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
