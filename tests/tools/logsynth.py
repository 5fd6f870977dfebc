"""Logs for the host-tool tests: the committed logs (tests/tools/logs/) and
variants of them, re-serialized with a correct end record (count, FNV-1a
checksum, run id), so a test can have twenty distinct complete runs."""
import json
import os

from conftest import ROOT
from cyclekit import logfile

LOGS = os.path.join(ROOT, "tests", "tools", "logs")
NAMES = ("pentium", "max", "486", "hosted")


def committed(name):
    """The parsed committed log; it must be complete for the tests to mean anything."""
    p = os.path.join(LOGS, name + ".log")
    log = logfile.parse_file(p)
    assert log.complete, (f"{p} is not a complete log of this cyclekit ({'; '.join(log.problems)}): "
                          "after a change of the log format, remake the logs: tests/tools/logs/make-logs")
    return log


def path(name):
    committed(name)
    return os.path.join(LOGS, name + ".log")


def records(name):
    """The records of a committed log, begin first, end excluded."""
    return [dict(r) for r in committed(name).records]


def write(dest, recs, run=None, status=0):
    """A complete log of recs: one JSON line each, then the end record."""
    recs = [dict(r) for r in recs]
    if run is not None:
        recs[0]["run"] = run
    lines = [json.dumps(r, separators=(",", ":")).encode() for r in recs]
    h = 0x811C9DC5
    for line in lines:
        h = logfile.fnv1a32(line, h)
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
