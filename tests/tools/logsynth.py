"""Logs for the host-tool tests: the committed logs (tests/tools/logs/) and
variants of them, re-serialized with a correct end record (count, FNV-1a
checksum, run id), so a test can have twenty distinct complete runs."""
import json
import os

from conftest import ROOT
import cyclekit_log

LOGS = os.path.join(ROOT, "tests", "tools", "logs")
NAMES = ("pentium", "max", "486", "hosted")


def path(name):
    return os.path.join(LOGS, name + ".log")


def records(name):
    """The records of a committed log, begin first, end excluded."""
    log = cyclekit_log.parse_file(path(name))
    assert log.complete, log.problems
    return [dict(r) for r in log.records]


def write(dest, recs, run=None, status=0):
    """A complete log of recs: one JSON line each, then the end record."""
    recs = [dict(r) for r in recs]
    if run is not None:
        recs[0]["run"] = run
    lines = [json.dumps(r, separators=(",", ":")).encode() for r in recs]
    h = 0x811C9DC5
    for line in lines:
        h = cyclekit_log.fnv1a32(line, h)
    end = {"type": "end", "records": len(lines), "checksum": f"0x{h:x}", "status": status, "errors": 0,
           "run": recs[0].get("run")}
    with open(dest, "wb") as f:
        f.write(b"\n".join(lines + [json.dumps(end, separators=(",", ":")).encode()]) + b"\n")
    return dest


def variant(name, k, dest):
    """Run k of a committed log: its own run id and every value scaled by (1 + k/100)."""
    recs = records(name)
    for r in recs:
        if r.get("type") == "result":
            for key in ("ticks", "cycles"):
                if isinstance(r.get(key), (int, float)):
                    r[key] = round(r[key] * (1 + k / 100), 2)
    return write(dest, recs, run=f"0x{k:04x}{name.encode().hex()[:12]:0<12}")
