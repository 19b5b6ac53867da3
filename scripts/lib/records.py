#!/usr/bin/env python3
"""The queue's records: the one module that writes and reads them.

Every verb leaves one JSON object per run and topic in
$KQ_RESULTS/<version>/<kind>[-<topic>].json (status: $KQ_RESULTS/status/
status.json).  Each carries the COMMON fields and the fields of its KIND,
nothing else; write() refuses a record that does not fit, so a reader can
rely on the shape.  scripts/doc/records.md's schema is printed by `schema`.

Python programs import it (sys.path gets this directory); the shell verbs
run it:

  records.py write KIND OUT KEY=SPEC...  build a record, check it against the
                                         schema, write OUT atomically
  records.py get FILE PATH...            print fields (a.b.0.c, a.*.c), one per line
                                         (a list of strings: one per element;
                                         null: an empty line)
  records.py validate FILE...            check records; one line per fault
  records.py schema                      the schema, as Markdown
  records.py rows FILE PATH FIELD...     the elements of the list at PATH, one
                                         per line, FIELDs joined by "|" (a list
                                         field comma-joined, null empty)
  records.py lists KIND PATH             the list fields of KIND's object at
                                         PATH (lists check checks.w1: new removed kept)

KEY may be dotted (checks.sparse.status) to build nested objects.  SPEC:
  str:TEXT  int:N  num:N (a trailing "s" is dropped)  bool:0|1  null:
  opt:TEXT        TEXT, or null when empty
  words:TEXT      list, split on white space
  csv:TEXT        list, split on commas
  lines:FILE      list, one string per non-empty line
  text:FILE       one string, the whole file
  table:FILE:COLS list of objects from "|"-separated lines
  tsv:FILE:COLS   the same from tab-separated lines
COLS names the columns in file order; a column may be NAME/int, NAME/list
(comma-separated) or NAME/opt; the last column takes the rest of the line.
Files are read as bytes: what is not UTF-8 (a compiler message quoting a
binary string) becomes U+FFFD, control characters are escaped by json.
"""

import json
import os
import re
import sys

# ---- the schema ------------------------------------------------------------
# A type is "str", "int", "num", "bool", "?T" (T or null), ["T"] (list of
# T), a dict (an object with exactly these fields, in this order) or a
# tuple of strings (one of these values).


def _check(fields):
    return {"status": ("pass", "warn", "fail", "error"), "summary": "str", "tool": "str"} | fields


TOPIC_CHECKS = {
    "checkpatch": _check({"details": ["str"]}),
    "sparse": _check({"new": ["str"], "removed": ["str"], "kept": ["str"],
                      "vm_fault_t_left": ["str"], "unchecked": ["str"]}),
    "w1": _check({"new": ["str"], "removed": ["str"], "kept": ["str"]}),
    "build": _check({"errors": ["str"]}),
}

COMMON = {
    "kind": "str",          # the verb that wrote it
    "kernel": "?str",       # the packaged version (null: spans several)
    "topic": "?str",        # the topic (null: not about one topic)
    "tool": "str",          # git hash of the code that wrote it
    "started": "str",       # UTC, ISO 8601
    "duration_s": "num",    # wall time of the run
    "reproducer": "str",    # the command that makes it again
}

KINDS = {
    "apply": {
        "track": "str", "status": ("ok", "fail"), "branch": "str", "base": "str",
        "tip": "?str", "patches": "int", "patches_sha1": "str",
        "failed": "?str",   # the patch, file and hunk that did not apply
    },
    "check": {
        "track": "str", "base": "str", "tip": "str", "built": "str", "config": "str",
        "objects": ["str"], "checks": TOPIC_CHECKS,
    },
    "scan": {
        "apply": ("none", "all"), "commit": "str", "configs": ["str"], "files": "int",
        "findings": [{"file": "str", "line": "int", "kind": "str", "tools": ["str"],
                      "seen_on": ["str"], "owner": "str", "topic": "str", "message": "str"}],
        "unchecked": [{"file": "str", "tool": "str", "reason": "str"}],
        "workarounds": [{"file": "str", "checker_flags": "str", "why": "str"}],
    },
    "boot": {
        "track": "str", "commit": "str", "selftest": "?str", "verdict": ("PASS", "FAIL"),
        "reasons": ["str"], "accel": "str", "qemu_exit": "int", "build_s": "num",
        "boot_s": "num", "config": "str", "console": "str",
        "results": [{"status": ("ok", "fail", "skip", "fails-on-base"), "name": "str"}],
        "topics": [{"topic": "str", "tip": "str", "how": ("booted", "build-only"), "detail": "str"}],
    },
    "rebase": {
        "from": "?str", "to": "str", "status": ("ok", "conflict", "confirm", "merged", "base", "not-applicable"),
        "dry_run": "bool", "old_tip": "?str", "new_tip": "?str",
        "patches": [{"patch": "str", "outcome": "str"}],
        "range_diff": "?str", "range_diff_summary": "?str", "resume": "?str",
    },
    "send": {
        "version": "int", "via": "str", "from": "str", "to": ["str"], "cc": ["str"],
        "subjects": ["str"], "change_id": "str", "base_commit": "str", "tip": "str",
        "tag": "str", "cover_message_id": "?str", "sent_from": "str",
    },
    "update": {
        "dry_run": "bool", "kernels": [{"track": "str", "kernel": "str"}],
        "moves": [{"topic": "str", "track": "str", "from": "str", "to": "str",
                   "status": ("ok", "conflict", "confirm", "merged"), "outcomes": "str",
                   "range_diff_summary": "?str", "resume": "?str"}],
        "conflicts": "int", "changed_files": [{"path": "str", "change": ("modified", "added", "deleted")}],
        "report": "str",
    },
    "status": {
        "kernels": [{"track": "str", "kernel": "str"}],
        "cells": [{"topic": "str", "kernel": "str", "state": ("pass", "warn", "fail", "missing", "na"),
                   "chips": [{"state": ("pass", "warn", "fail", "missing", "na"), "text": "str", "link": "?str"}]}],
        "counts": {"pass": "int", "warn": "int", "fail": "int", "missing": "int"},
    },
}

DESCRIPTIONS = {
    "apply": "apply-<topic>.json: the topic's series applied to the packaged tree",
    "check": "check-<topic>.json: checkpatch, sparse, W=1 and build of the touched objects",
    "scan": "scan-<none|all>.json: leftovers in the tree (none) or with every topic (all)",
    "boot": "boot.json (boot-<selftest>.json): the QEMU boot of the integration kernel",
    "rebase": "rebase-<topic>.json: the move of the topic onto this version",
    "send": "send-<topic>.json: the series as b4 sent it",
    "update": "update.json (beside the versions): what make update moved, for propose-update",
    "status": "status/status.json: the matrix the status page shows",
}


def _fields(kind):
    return {**COMMON, **KINDS[kind]}


def _tname(t):
    if isinstance(t, tuple):
        return "|".join(t)
    if isinstance(t, list):
        return "[" + _tname(t[0]) + "]"
    if isinstance(t, dict):
        return "{" + ", ".join(t) + "}"
    return t


def _validate(v, t, path, errs):
    if isinstance(t, str) and t.startswith("?"):
        if v is None:
            return
        t = t[1:]
    if isinstance(t, tuple):
        if v not in t:
            errs.append("%s: %r is not one of %s" % (path, v, _tname(t)))
    elif isinstance(t, list):
        if not isinstance(v, list):
            errs.append("%s: not a list" % path)
        else:
            for i, e in enumerate(v):
                _validate(e, t[0], "%s.%d" % (path, i), errs)
    elif isinstance(t, dict):
        if not isinstance(v, dict):
            errs.append("%s: not an object" % path)
            return
        for k in t:
            if k not in v:
                errs.append("%s%s: missing" % (path + "." if path else "", k))
            else:
                _validate(v[k], t[k], (path + "." if path else "") + k, errs)
        for k in v:
            if k not in t:
                errs.append("%s%s: not in the schema" % (path + "." if path else "", k))
    elif t == "str":
        if not isinstance(v, str):
            errs.append("%s: %r is not a string" % (path, v))
    elif t == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            errs.append("%s: %r is not an integer" % (path, v))
    elif t == "num":
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            errs.append("%s: %r is not a number" % (path, v))
    elif t == "bool":
        if not isinstance(v, bool):
            errs.append("%s: %r is not true/false" % (path, v))
    else:
        raise ValueError("schema: unknown type %r at %s" % (t, path))


def validate(rec):
    """The faults of a record, as "field: problem" strings (empty: valid)."""
    if not isinstance(rec, dict):
        return ["not a JSON object"]
    kind = rec.get("kind")
    if kind not in KINDS:
        return ["kind: %r is not one of %s" % (kind, ", ".join(KINDS))]
    errs = []
    _validate(rec, _fields(kind), "", errs)
    if isinstance(rec.get("started"), str) and \
            not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", rec["started"]):
        errs.append("started: %r is not YYYY-MM-DDTHH:MM:SSZ" % rec["started"])
    return errs


def _order(v, t):
    """v with its objects' fields in schema order."""
    if isinstance(t, str) and t.startswith("?"):
        t = t[1:]
    if isinstance(t, dict) and isinstance(v, dict):
        return {k: _order(v[k], t[k]) for k in t if k in v} | {k: v[k] for k in v if k not in t}
    if isinstance(t, list) and isinstance(v, list):
        return [_order(e, t[0]) for e in v]
    return v


def _compact(v):
    return json.dumps(v, ensure_ascii=False)


def dumps(rec):
    """A record as text: a field per line, a list of objects an object per
    line, so that records diff well and a line names one finding."""
    def value(v, ind):
        if isinstance(v, list) and any(isinstance(e, dict) for e in v):
            return "[\n" + ",\n".join(ind + "  " + _compact(e) for e in v) + "\n" + ind + "]"
        if isinstance(v, dict) and (not ind or any(isinstance(e, (dict, list)) for e in v.values())):
            return "{\n" + ",\n".join(ind + "  " + _compact(k) + ": " + value(e, ind + "  ")
                                      for k, e in v.items()) + "\n" + ind + "}"
        return _compact(v)
    return value(rec, "") + "\n"


def write(path, rec):
    """Validate rec and write it to path (via a temporary file and rename:
    a reader sees the old record or the new one, never half)."""
    kind = rec.get("kind")
    if kind in KINDS:
        rec = _order(rec, _fields(kind))
    errs = validate(rec)
    if errs:
        raise ValueError("%s: not a valid %s record: %s" % (path, kind, "; ".join(errs)))
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(dumps(rec))
    os.rename(tmp, path)



def mm_counts(boot):
    """The kernel's mm selftests of a boot record (results named mm.*):
    {status: count} for ok, skip, fail and fails-on-base, or None when the
    boot ran none."""
    mm = [r.get("status") for r in (boot or {}).get("results", [])
          if r.get("name", "").startswith("mm.")]
    if not mm:
        return None
    return {k: mm.count(k) for k in ("ok", "skip", "fail", "fails-on-base")}

def load(path, strict=False):
    """The record at path, or None when there is none (or, unless strict,
    when it is not JSON).  Records of older code are returned as they are:
    readers use .get() for what may lack."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except ValueError:
        if strict:
            raise
        return None


# ---- the command line ------------------------------------------------------

def _text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def _cell(val, typ):
    if typ == "int":
        return int(val)
    if typ == "list":
        return [x.strip() for x in val.split(",") if x.strip()]
    if typ == "opt":
        return val or None
    return val


def _table(path, cols, sep):
    names = [c.split("/")[0] for c in cols.split(",")]
    types = [(c.split("/") + [""])[1] for c in cols.split(",")]
    rows = []
    for line in _text(path).splitlines():
        if not line.strip():
            continue
        parts = line.split(sep, len(names) - 1)
        parts += [""] * (len(names) - len(parts))
        rows.append({n: _cell(p, t) for n, p, t in zip(names, parts, types)})
    return rows


def parse_spec(spec):
    kind, _, arg = spec.partition(":")
    if kind == "str":
        return arg
    if kind == "int":
        return int(arg)
    if kind == "num":
        return float(arg[:-1] if arg.endswith("s") else arg)
    if kind == "bool":
        return arg in ("1", "true", "yes")
    if kind == "null":
        return None
    if kind == "opt":
        return arg or None
    if kind == "words":
        return arg.split()
    if kind == "csv":
        return [x.strip() for x in arg.split(",") if x.strip()]
    if kind == "lines":
        return [l for l in _text(arg).splitlines() if l.strip()]
    if kind == "text":
        return _text(arg)
    if kind in ("table", "tsv"):
        path, _, cols = arg.rpartition(":")
        return _table(path, cols, "|" if kind == "table" else "\t")
    raise ValueError("unknown spec %r (str int num bool null opt words csv lines text table tsv)" % kind)


def _put(rec, key, val):
    *parents, last = key.split(".")
    for p in parents:
        rec = rec.setdefault(p, {})
    rec[last] = val


def _get(rec, path):
    """The field at path (a.b.0.c); "*" maps the rest over a list."""
    v = rec
    parts = path.split(".")
    for i, p in enumerate(parts):
        if p == "*" and isinstance(v, list):
            rest = ".".join(parts[i + 1:])
            return [_get(e, rest) if rest else e for e in v]
        if isinstance(v, list) and p.lstrip("-").isdigit():
            v = v[int(p)]
        elif isinstance(v, dict) and p in v:
            v = v[p]
        else:
            raise KeyError(path)
    return v


def _md(fields, ind):
    out = []
    for k, t in fields.items():
        inner = t[0] if isinstance(t, list) else t
        if isinstance(inner, dict):
            out.append("%s- `%s` %s of:" % (ind, k, "list of objects" if isinstance(t, list) else "object"))
            out += _md(inner, ind + "  ")
        else:
            out.append("%s- `%s` %s" % (ind, k, _tname(t)))
    return out


def schema_markdown():
    out = ["Types: `str`, `int`, `num`, `bool`; `?T` is T or null; `[T]` a list;",
           "`a|b` one of these values.  Common fields, first in every record:", ""]
    out += _md(COMMON, "")
    for kind, fields in KINDS.items():
        out += ["", "`%s` — %s:" % (kind, DESCRIPTIONS[kind]), ""]
        out += _md(fields, "")
    return "\n".join(out) + "\n"


def _row_cell(v):
    """A field as one cell of `rows`: lists comma-joined, null empty."""
    if v is None:
        return ""
    if isinstance(v, list):
        return ",".join(_row_cell(e) for e in v)
    return v if isinstance(v, str) else json.dumps(v)


def _rows(prog, name, rec, path, fields):
    """`rows`: the elements of the list at PATH, FIELDs "|"-joined."""
    try:
        elems = _get(rec, path)
    except (KeyError, IndexError):
        print("%s: %s: no field %s" % (prog, name, path), file=sys.stderr)
        return 1
    if not isinstance(elems, list):
        print("%s: %s: %s is not a list" % (prog, name, path), file=sys.stderr)
        return 1
    for e in elems:
        try:
            print("|".join(_row_cell(e[f]) for f in fields))
        except (KeyError, TypeError):
            print("%s: %s: an element of %s has no field among %s"
                  % (prog, name, path, " ".join(fields)), file=sys.stderr)
            return 1
    return 0


def main(argv):
    prog = "records.py"
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print("usage: records.py write|get|validate|schema ...\n" + __doc__)
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    if cmd == "write":
        if len(args) < 2:
            print("%s write KIND OUT KEY=SPEC..." % prog, file=sys.stderr)
            return 2
        kind, out = args[0], args[1]
        if kind not in KINDS:
            print("%s: unknown kind %r (%s)" % (prog, kind, " ".join(KINDS)), file=sys.stderr)
            return 2
        rec = {"kind": kind}
        for a in args[2:]:
            key, eq, spec = a.partition("=")
            if not eq:
                print("%s: %r is not KEY=SPEC" % (prog, a), file=sys.stderr)
                return 2
            try:
                _put(rec, key, parse_spec(spec))
            except (ValueError, OSError) as e:
                print("%s: %s: %s" % (prog, key, e), file=sys.stderr)
                return 2
        try:
            write(out, rec)
        except ValueError as e:
            print("%s: %s" % (prog, e), file=sys.stderr)
            return 1
        return 0
    if cmd in ("get", "rows"):
        if len(args) < (2 if cmd == "get" else 3):
            print("%s %s FILE PATH%s..." % (prog, cmd, "" if cmd == "get" else " FIELD"), file=sys.stderr)
            return 2
        try:
            rec = load(args[0], strict=True)
        except ValueError as e:
            print("%s: %s: not JSON: %s" % (prog, args[0], e), file=sys.stderr)
            return 1
        if rec is None:
            print("%s: %s: no such record" % (prog, args[0]), file=sys.stderr)
            return 1
        if cmd == "rows":
            return _rows(prog, args[0], rec, args[1], args[2:])
        for p in args[1:]:
            try:
                v = _get(rec, p)
            except (KeyError, IndexError):
                print("%s: %s: no field %s" % (prog, args[0], p), file=sys.stderr)
                return 1
            if isinstance(v, list) and all(isinstance(e, str) for e in v):
                for e in v:
                    print(e)
            else:
                print(v if isinstance(v, str) else ("" if v is None else json.dumps(v)))
        return 0
    if cmd == "validate":
        bad = 0
        for f in args:
            try:
                rec = load(f, strict=True)
                errs = ["no such file"] if rec is None else validate(rec)
            except ValueError as e:
                errs = ["not JSON: %s" % e]
            for e in errs:
                print("%s: %s" % (f, e))
            bad += bool(errs)
        return 1 if bad else 0
    if cmd == "schema":
        sys.stdout.write(schema_markdown())
        return 0
    if cmd == "lists":
        if len(args) != 2 or args[0] not in KINDS:
            print("%s: usage: lists KIND PATH (KIND: %s)" % (prog, " ".join(KINDS)), file=sys.stderr)
            return 2
        node = KINDS[args[0]]
        for k in args[1].split("."):
            if not isinstance(node, dict) or k not in node:
                print("%s: %s has no object at %s" % (prog, args[0], args[1]), file=sys.stderr)
                return 2
            node = node[k]
        print(" ".join(k for k, t in node.items() if isinstance(t, list)))
        return 0
    print("%s: unknown command %r (write get rows validate schema lists)" % (prog, cmd), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
