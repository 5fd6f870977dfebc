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
            ("unstable", ["negatives"], "10 of 31 samples had fewer ticks with 16 copies than with 8"), ("stable", [], ""),
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


# A 64-bit hosted run on silicon (issue 31): the 64-bit runner has no mem/ benchmarks, only
# mem64/chase (64-bit pointers); its host's L3 is 480 MiB, so with hostmem's 256 MiB the 4xLLC
# chase covers 256 MiB less a line, not 1920 MiB. Two benchmarks are skipped, as ring 3 skips
# the privileged ones.
HOSTED64_SIZES = (("1K", 1 << 10), ("4K", 4 << 10), ("16K", 16 << 10), ("32K", 32 << 10), ("64K", 64 << 10),
                  ("256K", 256 << 10), ("1M", 1 << 20), ("4M", 4 << 20), ("16M", 16 << 20),
                  ("64M", 64 << 20))
HOSTED64_LLC = 480 << 20
HOSTED64_CYCLES = (4.0, 4.0, 4.0, 4.0, 14.0, 14.0, 50.0, 52.0, 60.0, 110.0)


def hosted64_records(big_memory_mib=256):
    """The records of a hosted 64-bit run (begin first, end excluded): lat64/add, lat64/imul,
    mem64/chase at ten sizes and 4xLLC (working_set and llc as the kernel writes them), two skips."""
    recs = [{"type": "begin", "schema": 2, "program": "cyclekit", "version": "synthetic", "built": "-",
             "compiler": "-", "platform": "hosted", "cmdline": "bench=lat64/*,mem64/chase/*",
             "run": "0x0000000000006464"},
            {"type": "platform", "kind": "hosted", "ring": "ring 3 (hosted)", "ring0": False, "os": "Linux",
             "machine": "x86_64", "pinned_cpu": 1, "big_memory_mib": big_memory_mib},
            dict(KVM_CPU, caches=[{"kind": "data", "level": 1, "size": 48 << 10, "line": 64},
                                  {"kind": "unified", "level": 2, "size": 2 << 20, "line": 64},
                                  {"kind": "unified", "level": 3, "size": HOSTED64_LLC, "line": 64}]),
            {"type": "timer", "mode": "lfence+rdtsc / rdtscp+lfence", "hz": 2600000000},
            {"type": "trust", "trusted": True, "why": "plausible (1000 dependent ADDs: 770 ticks)",
             "add_ticks": 0.77, "cycles": "estimate"},
            _result("lat64/add", 0.38, 1.0, judgement="stable", flags=[], reason="", marks="ok"),
            _result("lat64/imul", 1.16, 3.0, judgement="stable", flags=[], reason="", marks="ok"),
            {"type": "skip", "name": "sys64/rdmsr", "reason": "privileged: ring 3"},
            {"type": "skip", "name": "sys64/cli", "reason": "privileged: ring 3"}]
    for (label, size), cycles in zip(HOSTED64_SIZES, HOSTED64_CYCLES):
        recs.append(_result(f"mem64/chase/{label}", round(cycles * 0.385, 2), cycles, working_set=size,
                            judgement="stable", flags=[], reason="", marks="ok"))
    llc_bytes = min(4 * HOSTED64_LLC, (big_memory_mib << 20) - 64) // 64 * 64
    recs.append(_result("mem64/chase/4xLLC", 46.2, 120.0, working_set=llc_bytes, llc=HOSTED64_LLC,
                        judgement="stable", flags=[], reason="", marks="ok"))
    return recs


def hosted64_log(dest, big_memory_mib=256):
    return write(dest, hosted64_records(big_memory_mib), end_fields={"trust": "trusted", "flagged": 0})


# Two machines' instruction tables (`cyclekit table -o DIR`'s table.jsonl, written here as the
# records docs/table.md gives, so a db or report test needs no measuring): the same forms, where
# the second machine's IMUL64rr latency is 4 not 3, its VPADDDZrr throughput 1.0 not 0.5, its
# ADD64rr within the spreads, and each table has a form the other lacks.
TABLE_FORMS = {
    "rocket": [("ADD64rr", "gpr", "add rax,rbx", 1.0, 0.01, 0.25, 0.01),
               ("IMUL64rr", "gpr", "imul rax,rbx", 3.0, 0.01, 1.0, 0.01),
               ("VPADDDZrr", "avx512", "vpaddd zmm0,zmm0,zmm1", 1.0, 0.0, 0.5, 0.0),
               ("DIV64r", "gpr", "div rbx", 14.0, 0.5, 10.0, 0.5),
               ("RDMSR", None, "rdmsr", None, None, None, None)],
    "zen4": [("ADD64rr", "gpr", "add rax,rbx", 1.02, 0.02, 0.25, 0.01),
             ("IMUL64rr", "gpr", "imul rax,rbx", 4.0, 0.01, 1.0, 0.01),
             ("VPADDDZrr", "avx512", "vpaddd zmm0,zmm0,zmm1", 1.0, 0.0, 1.0, 0.0),
             ("DIV64r", "gpr", "div rbx", 14.2, 0.5, 10.1, 0.5),
             ("PDEP64rr", "gpr", "pdep rax,rbx,rcx", 3.0, 0.0, 1.0, 0.0)],
}
TABLE_CPUS = {"rocket": ("Rocket Lake", "Intel(R) Xeon(R)", "sapphirerapids"),
              "zen4": ("Zen 4", "AMD EPYC 9654", "znver4")}


def table_dir(folder, machine):
    """A table folder for machine ("rocket" or "zen4"): table.jsonl alone, as `cyclekit table` writes it."""
    os.makedirs(folder, exist_ok=True)
    name, brand, model = TABLE_CPUS[machine]
    forms = TABLE_FORMS[machine]
    run = {"type": "table_run", "forms": len(forms), "measured": sum(1 for f in forms if f[3] is not None),
           "skipped": {"privileged": sum(1 for f in forms if f[3] is None)}, "cpu_name": name, "cpu_brand": brand,
           "model_cpu": model, "llvm": "llvm-mca-16", "seconds": 2.0}
    lines = [run]
    for op, isa, asm, lat, lat_s, tput, tput_s in forms:
        status = "measured" if lat is not None else "skipped: privileged"
        lines.append({"type": "table", "opcode": op, "isa": isa, "asm": asm, "latency": lat, "latency_spread": lat_s,
                      "latency_model": lat, "throughput": tput, "throughput_spread": tput_s,
                      "throughput_model": tput, "latency_status": status, "throughput_status": status,
                      "model_cpu": model})
    with open(os.path.join(folder, "table.jsonl"), "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(r) + "\n" for r in lines))
    return folder


# Where the samples fall (issue 32): a snippet sampled on INST_RETIRED and run cycle by cycle, as
# docs/log-format.md gives the `sample` and `cycles` records. Its body is IMUL EAX,EBX (0f af c3,
# offset 0) and ADD EAX,EBX (01 d8, offset 3), 32-bit; 1000 samples in the body, 600 and 400.
SAMPLED_BYTES = "0fafc301d8"
SAMPLE_REC = {"type": "sample", "name": "snippet", "source": "event", "event": "INST_RETIRED", "period": 997,
              "unit": "events", "nmi": False, "delivery": "PMI, local APIC vector 34", "runs": 3,
              "loops": 100, "samples": 1020, "body": 1000, "loop": 13, "handler": 2, "elsewhere": 5, "lost": 7,
              "storm": False, "capped": False, "stopped": None, "skid": 0, "skid_why": None,
              "copies": 8, "copy_bytes": 5, "bytes": SAMPLED_BYTES, "mode": 32,
              "offsets": [{"offset": 0, "samples": 600}, {"offset": 3, "samples": 400}]}
CYCLES_REC = {"type": "cycles", "name": "snippet", "n": 5, "base": 4, "copies": 2, "copy_bytes": 5,
              "bytes": SAMPLED_BYTES, "mode": 32,
              "steps": [{"k": 1, "retired": 0, "taken": True, "where": "body", "copy": 0, "offset": 0},
                        {"k": 2, "retired": 0, "taken": True, "where": "body", "copy": 0, "offset": 0},
                        {"k": 3, "retired": 1, "taken": True, "where": "body", "copy": 0, "offset": 3},
                        {"k": 4, "retired": 4, "taken": True, "where": "loop"},
                        {"k": 5, "taken": False, "where": "none"}]}


def sampled_records(platform="kvm", extra=()):
    """A small run (begin first, end excluded) that measured `snippet` and wrote SAMPLE_REC and
    CYCLES_REC after its result (or the records `extra` instead of those two)."""
    recs, _ = trust_records(platform, True)
    head = [r for r in recs if r["type"] != "result"]
    result = dict(next(r for r in recs if r["type"] == "result" and r["name"] == "lat/add"), name="snippet")
    return head + [result] + [dict(r) for r in (extra or (SAMPLE_REC, CYCLES_REC))]


def sampled_log(dest, platform="kvm", extra=()):
    recs = sampled_records(platform, extra)
    marked = sum(1 for r in recs if r.get("type") == "result" and r.get("marks") != "ok")
    return write(dest, recs, end_fields={"trust": "untrusted" if platform == "tcg" else
                                         "flagged" if marked else "trusted", "flagged": marked})
