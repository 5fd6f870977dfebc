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


def write(dest, recs, run=None, status=0, end_fields=None):
    """A complete log of recs: one JSON line each, then the end record (with end_fields)."""
    recs = [dict(r) for r in recs]
    if run is not None:
        recs[0]["run"] = run
    lines = [json.dumps(r, separators=(",", ":")).encode() for r in recs]
    h = 0x811C9DC5
    for line in lines:
        h = logfile.fnv1a32(line, h)
    end = {"type": "end", "records": len(lines), "checksum": f"0x{h:x}", "status": status, "errors": 0,
           "run": recs[0].get("run"), **(end_fields or {})}
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


# Small logs of the trust contract (docs/log-format.md): a run on silicon under KVM and a QEMU TCG
# run, each either as an older kernel wrote it (stable and trusted only) or with the kernel's
# own judgement, flags, reason and marks (and the end record's trust and flagged).
KVM_CPU = {"type": "cpu", "vendor": "Intel", "vendor_string": "GenuineIntel", "family": 6, "model": 167,
           "stepping": 1, "name": "Rocket Lake", "brand": "Intel(R) Xeon(R) Processor",
           "hypervisor": "KVMKVMKVM", "hypervisor_name": "KVM"}
TCG_CPU = {"type": "cpu", "vendor": "AMD", "vendor_string": "AuthenticAMD", "family": 6, "model": 6,
           "stepping": 3, "name": "K7 (Palomino)", "brand": "QEMU TCG CPU version 2.5+",
           "hypervisor": "TCGTCGTCGTCG", "hypervisor_name": "QEMU TCG"}
TCG_WHY = "QEMU TCG emulates this CPU: its clocks follow host time, not the emulated work"


def _result(name, ticks, cycles, **fields):
    rec = {"type": "result", "name": name, "unroll": 8, "loops": 100, "samples": 31, "ticks": ticks,
           "ticks_min": ticks, "cycles": cycles, "cycles_unit": "estimate", "time_unit": "tsc",
           "stats": {"stddev": 0.01}, "negative": 0, "stable": True, "trusted": True, "smi": None,
           "expect": None, "verdict": "no expectation"}
    rec.update(fields)
    return rec


def trust_records(platform, new):
    """The records of a small run (begin first, end excluded) and the end record's extra fields:
    platform "kvm" (silicon, trusted timer) or "tcg" (emulator); new: the kernel writes the
    trust fields. The silicon run's results: lat/add ok, lat/imul unstable, calib/empty with 10
    of 31 samples negative, mem/chase/1K ok, mem/chase/4K in two modes (new) or ok (old),
    lat/smi with 2 SMIs; the TCG run's
    the same names, each on an untrusted timer."""
    tcg = platform == "tcg"
    recs = [{"type": "begin", "schema": 2, "program": "cyclekit", "version": "synthetic", "built": "-",
             "compiler": "-", "platform": "hosted" if not tcg else "bare", "cmdline": "bench=synthetic",
             "run": "0x00000000000000%s" % ("0c" if tcg else "0a")},
            dict(TCG_CPU if tcg else KVM_CPU),
            {"type": "timer", "mode": "lfence+rdtsc / rdtscp+lfence", "hz": 2600000000},
            {"type": "trust", "trusted": not tcg,
             "why": TCG_WHY if tcg else "plausible (1000 dependent ADDs: 770 ticks)", "add_ticks": 0.77,
             "cycles": "estimate"}]
    results = [_result("lat/add", 0.38, 1.0), _result("lat/imul", 1.16, 3.0, stable=False),
               _result("calib/empty", 0.0, 0.0, negative=10), _result("mem/chase/1K", 1.9, 5.0),
               _result("mem/chase/4K", 1.9, 5.0), _result("lat/smi", 0.38, 1.0, smi=2)]
    # What the new kernel says of each (the same order): judgement, flags, reason.
    said = [("stable", [], ""), ("unstable", ["ensembles"], "the sample ensembles disagree"),
            ("unstable", ["negatives"], "10 of 31 samples had t(2U) < t(U)"), ("stable", [], ""),
            ("unstable", ["modes"], "2 modes: 1.90 (20 of 31), 3.80 (11 of 31)"), ("stable", ["disturbed"], "2 SMIs")]
    for rec, (judgement, flags, reason) in zip(results, said):
        if tcg:
            rec["trusted"] = False
            rec["verdict"] = "untrusted timing"
        if new:
            flags = (["untrusted-timer"] if tcg else []) + flags
            letters = "".join(c for c, f in (("U", "untrusted-timer"), ("S", "unstable"), ("N", "negatives"),
                                              ("M", "modes"), ("D", "disturbed"))
                              if f in flags or f == judgement)
            rec.update(judgement=judgement, flags=flags, reason=reason, marks=letters or "ok")
            rec["stable"] = judgement == "stable"
            if "modes" in flags:
                rec["modes"] = [{"ticks": 1.9, "count": 20}, {"ticks": 3.8, "count": 11}]
                rec["linearity"] = {"u": 1.9, "2u": 1.91, "4u": 1.9}
    recs += results
    end = {}
    if new:
        marked = sum(1 for r in results if r["marks"] != "ok")
        end = {"trust": "untrusted" if tcg else "flagged" if marked else "trusted", "flagged": marked}
    return recs, end


def trust_log(dest, platform, new):
    recs, end = trust_records(platform, new)
    return write(dest, recs, end_fields=end)
