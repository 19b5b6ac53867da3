#!/usr/bin/env python3
"""Sort the review replies to a sent series before b4 sees them.

usage: trailers_sort.py SENT_DIR RECORD PATCH_DIR SERIES MBOX SLOPPY OUT_MBOX

Reads:
  SENT_DIR   the messages of the last sent version (scripts/send wrote them
             with b4 send -o: results/<kernel>/send-<topic>/v<N>/*.eml)
  RECORD     that send's record (send-<topic>.json: from, to, cc)
  PATCH_DIR  kernel-patches/<topic>/ and SERIES, its series file: the patches
             as they are now
  MBOX       the replies the maintainer saved (an mbox, or a maildir)
  SLOPPY     "yes" takes trailers from people who did not receive the series
Writes OUT_MBOX: the sent messages and the replies b4 may apply; prints one
line per trailer found: "take|<n>|<trailer>" (n: 0 for the cover, else the
patch number), or "skip|<n>|<trailer>|<why>".
"""
import email
import email.policy
import email.utils
import mailbox
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402

TRAILER = re.compile(r"^((?:Reviewed|Acked|Tested|Reported|Suggested)-by|Link|Closes):\s*(.+)$")


def messages(path):
    box = mailbox.Maildir(path, create=False) if os.path.isdir(path) else mailbox.mbox(path)
    for m in box:
        yield email.message_from_bytes(m.as_bytes(), policy=email.policy.default)


def body(msg):
    part = msg.get_body(preferencelist=("plain",)) if msg.is_multipart() else msg
    return part.get_content() if part is not None else ""


def patch_id(text):
    r = subprocess.run(["git", "patch-id", "--stable"], input=text.encode(),
                       capture_output=True)
    out = r.stdout.decode().split()
    return out[0] if out else None


def main(argv):
    if len(argv) != 8 or argv[1] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sent_dir, record, patch_dir, series, mbox_path, sloppy, out_path = argv[1:]
    rec = records.load(record) or {}
    received = {a.lower() for _, a in email.utils.getaddresses(
        [rec.get("from", "")] + rec.get("to", []) + rec.get("cc", []))}
    received.add(rec.get("from", "").lower())

    sent = {}   # message-id -> (n, message)
    by_subject = {}   # the same by subject: a real send has new message-ids
    for name in sorted(os.listdir(sent_dir)):
        if not name.endswith(".eml"):
            continue
        with open(os.path.join(sent_dir, name), "rb") as f:
            m = email.message_from_binary_file(f, policy=email.policy.default)
        subj = str(m["subject"])
        num = re.search(r"\b(\d+)/(\d+)\]", subj)
        n = int(num.group(1)) if num else (0 if len(os.listdir(sent_dir)) > 1 else 1)
        sent[str(m["message-id"]).strip()] = (n, m)
        by_subject[" ".join(subj.split())] = (n, m)
    version = rec.get("version")

    # The patches as they are now, by number, to see which changed since.
    now = [l.strip() for l in open(series) if l.strip() and not l.startswith("#")]
    now_ids = {i + 1: patch_id(open(os.path.join(patch_dir, p)).read())
               for i, p in enumerate(now)}
    changed = set()
    for n, m in sent.values():
        if n and patch_id(body(m)) != now_ids.get(n):
            changed.add(n)

    out = mailbox.mbox(out_path)
    for _, m in sent.values():
        out.add(m)
    for m in messages(mbox_path):
        parent = str(m.get("in-reply-to", "")).strip()
        sender = email.utils.parseaddr(str(m.get("from", "")))[1].lower()
        found = [t for t in (TRAILER.match(l.strip()) for l in body(m).splitlines()
                             if not l.startswith(">")) if t]
        if not found:
            continue
        lines = ["%s: %s" % (t.group(1), t.group(2).strip()) for t in found]
        subj = re.sub(r"^(\s*(re|aw|sv)\s*:\s*)+", "", " ".join(str(m.get("subject", "")).split()),
                      flags=re.I)
        hit = sent.get(parent) or by_subject.get(subj)
        if not hit:
            for t in lines:
                print("skip|?|%s|a reply to \"%s\", not a message of v%s (an older version?)"
                      % (t, subj, version))
            continue
        n = hit[0]
        why = None
        if n in changed:
            why = "patch %d changed since v%s was sent" % (n, version)
        elif sloppy != "yes" and sender not in received:
            why = "%s did not receive v%s (SLOPPY=yes takes it)" % (sender, version)
        for t in lines:
            print("%s|%d|%s%s" % ("skip" if why else "take", n, t, "|" + why if why else ""))
        if not why:
            # Thread the reply onto our copy of the message it answers (a
            # real send gave the messages other ids than b4 send -o).
            mid = str(hit[1]["message-id"]).strip()
            for h in ("In-Reply-To", "References"):
                del m[h]
                m[h] = mid
            out.add(m)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
