"""How far each number of a log can be trusted: the one mapping from a result
record (and its run's records) to the marks every host view prints.

The kernel writes the verdict itself (docs/log-format.md, "result" and
"end"): a result's `judgement` (stable, not judged, unstable), its `flags`,
its `reason` and `marks`, the exact string of its readable row: "ok" when
stable on a trusted timer, else letters in the order of LETTERS. An older
kernel wrote only `stable` and `trusted`; for its records the marks are
derived here from what it did write (`derived` is then true):

  U  the result's `trusted` is false, the run's trust record says the timer
     is not trusted, or the CPU is an emulator (QEMU TCG's hypervisor
     signature, or a binary translator's vendor string)
  ?  `stable` is missing (nothing was judged)
  S  `stable` is false
  N  more than 5 % of the samples had fewer ticks with twice the copies
     (t(2U) < t(U): `negative` of `samples`, the kernel's own rule,
     kernel/stats/stats_checks.h), which
     also makes the result unstable, as the kernel now judges it
  D  SMIs were counted during the measurement (`smi` > 0)

M (modes, non-linear copies) is never derived: an old record holds no
evidence of it. Reading never raises for odd records: a field of the wrong
type reads as missing.
"""
from collections import namedtuple

LETTERS = "U?SNMD"
LEGEND = {
    "U": "untrusted timer (an emulator, or the trust check failed)",
    "?": "not judged (too few or too short samples)",
    "S": "unstable",
    "N": "negative differences (fewer ticks with twice the copies in more than 5 % of the samples, "
         "or clamped to 0)",
    "M": "two or more modes, or a cost per copy that changes with the copy count",
    "D": "disturbed (a context switch or an SMI during a sample)",
}
LEVELS = ("ok", "flagged", "untrusted")     # a result's or a run's trust, for filters
RUN_VERDICTS = {"ok": "trusted", "flagged": "flagged", "untrusted": "untrusted"}
NEGATIVE_PERMILLE = 50          # kernel/stats/stats_checks.h: negative * 1000 > 50 * n
EMULATOR_HYPERVISORS = ("TCGTCGTCGTCG", "QEMU TCG")       # QEMU TCG's signature and name (kernel/cpu/cpu_vendor.c)
EMULATOR_VENDORS = ("VirtualApple", "PowerVM Lx86")       # binary translators (the same table)
TIMER_REASON = "the timer is not trusted"    # how a derived reason begins its timer's part
FLAG_LETTERS = {"untrusted-timer": "U", "negatives": "N", "clamped": "N", "modes": "M",
                "non-linear": "M", "disturbed": "D"}

RunTrust = namedtuple("RunTrust", "timer_trusted platform hypervisor why verdict flagged")
RunTrust.__doc__ = """What a run says about its timer: timer_trusted (the trust record's
verdict, None without one), platform ("emulator" or "silicon", None without a cpu record),
hypervisor (its name, or None), why (the trust record's words), and the end record's verdict
and count of flagged results where a newer kernel wrote them (else None)."""

Marks = namedtuple("Marks", "marks judgement flags reason derived")
Marks.__doc__ = """A result's trust: marks ("ok" or letters), judgement, flags (a tuple of
names), reason (text, "" when none) and derived (true when the host derived them from an old
record rather than reading the kernel's)."""


def _text(v):
    return v if isinstance(v, str) else None


def _bool(v):
    return v if isinstance(v, bool) else None


def _count(v):
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


def _first(records, kind):
    return next((r for r in records if isinstance(r, dict) and r.get("type") == kind), {})


def platform_of(hypervisor=None, hypervisor_name=None, vendor_string=None):
    """"emulator" when the CPU identifies as one (its hypervisor's signature or name, or a binary
    translator's vendor string), else "silicon" (maybe under a hypervisor)."""
    if hypervisor in EMULATOR_HYPERVISORS or hypervisor_name in EMULATOR_HYPERVISORS \
            or vendor_string in EMULATOR_VENDORS:
        return "emulator"
    return "silicon"


def run_trust(records, end=None):
    """The RunTrust of a run from its records (begin first; the end record may be among them
    or given as end)."""
    cpu, trust, timer = _first(records, "cpu"), _first(records, "trust"), _first(records, "timer")
    end = end if isinstance(end, dict) else _first(records, "end")
    timer_trusted = _bool(trust.get("trusted"))
    if timer_trusted is None:
        timer_trusted = _bool(timer.get("trusted"))
    platform = None
    if cpu:
        platform = platform_of(_text(cpu.get("hypervisor")), _text(cpu.get("hypervisor_name")),
                               _text(cpu.get("vendor_string")))
    verdict = _text(end.get("trust"))
    return RunTrust(timer_trusted, platform, _text(cpu.get("hypervisor_name")) or _text(cpu.get("hypervisor")),
                    _text(trust.get("why")) or _text(timer.get("why")),
                    verdict if verdict in RUN_VERDICTS.values() else None, _count(end.get("flagged")))


def untrusted_run(run):
    return run.timer_trusted is False or run.platform == "emulator"


def letters_of(judgement, flags):
    """The mark string of a judgement and its flag names, in the order of LETTERS."""
    found = {FLAG_LETTERS[f] for f in flags if f in FLAG_LETTERS}
    if judgement == "not judged":
        found.add("?")
    elif judgement == "unstable":
        found.add("S")
    return "".join(c for c in LETTERS if c in found) or "ok"


def _kernel_marks(rec):
    """The kernel's own verdict (new records), or None for an old record."""
    judgement = _text(rec.get("judgement"))
    flags = rec.get("flags")
    if judgement is None and not isinstance(flags, list):
        return None
    flags = tuple(f for f in flags if isinstance(f, str)) if isinstance(flags, list) else ()
    marks = _text(rec.get("marks"))
    if not marks or any(c not in LETTERS for c in marks) and marks != "ok":
        marks = letters_of(judgement, flags)
    return Marks(marks, judgement, flags, _text(rec.get("reason")) or "", False)


def _derived_marks(rec, run):
    """The marks an old record earns from its own fields and its run's (module docstring)."""
    flags, reasons = [], []
    stable = _bool(rec.get("stable"))
    judgement = {True: "stable", False: "unstable", None: "not judged"}[stable]
    if stable is None:
        reasons.append("the record says nothing of stability")
    elif not stable:
        reasons.append("the kernel found the samples unstable")
    if _bool(rec.get("trusted")) is False or untrusted_run(run) or rec.get("verdict") == "untrusted timing":
        flags.append("untrusted-timer")
        reasons.append(TIMER_REASON + (f": {run.why}" if run.why else ""))
    negative, samples = _count(rec.get("negative")), _count(rec.get("samples"))
    if negative and samples and negative * 1000 > NEGATIVE_PERMILLE * samples:
        flags.append("negatives")
        judgement = "unstable"
        u = _count(rec.get("unroll"))
        reasons.append(f"{negative} of {samples} samples had fewer ticks with "
                       + (f"{2 * u} copies than with {u}" if u else "twice the copies"))
    smi = _count(rec.get("smi"))
    if smi:
        flags.append("disturbed")
        reasons.append(f"{smi} SMIs during the measurement")
    return Marks(letters_of(judgement, flags), judgement, tuple(flags), "; ".join(reasons), True)


def result_marks(rec, run):
    """The Marks of a result record in a run (a RunTrust); None for anything but a result."""
    if not isinstance(rec, dict) or rec.get("type") != "result":
        return None
    return _kernel_marks(rec) or _derived_marks(rec, run)


def own_reason(marks):
    """The reason without the run's timer verdict (said once for the run, not per result)."""
    return "; ".join(w for w in marks.reason.split("; ") if w and not w.startswith(TIMER_REASON))


def marks_of_records(records):
    """[(record, Marks)] for every result record of a run's records."""
    run = run_trust(records)
    return [(r, result_marks(r, run)) for r in records if isinstance(r, dict) and r.get("type") == "result"]


def level(marks):
    """A mark string's class: "ok", "untrusted" (U), else "flagged"."""
    if marks == "ok":
        return "ok"
    return "untrusted" if "U" in (marks or "") else "flagged"


def run_verdict(run, all_marks):
    """A run's verdict: the end record's where the kernel wrote one, else "untrusted" for an
    untrusted timer or an emulator (or any result marked U), "flagged" when a result's marks are
    not "ok", else "trusted"."""
    if run.verdict:
        return run.verdict
    levels = {level(m) for m in all_marks if m}
    if untrusted_run(run) or "untrusted" in levels:
        return "untrusted"
    return "flagged" if "flagged" in levels else "trusted"


def flagged_count(run, all_marks):
    if run.flagged is not None:
        return run.flagged
    return sum(1 for m in all_marks if m and m != "ok")


def legend(all_marks):
    """One line explaining the letters that occur in all_marks, or None when every one is ok."""
    seen = {c for m in all_marks if m and m != "ok" for c in m}
    if not seen:
        return None
    return "marks: " + "; ".join(f"{c} {LEGEND[c]}" for c in LETTERS if c in seen)


def verdict_text(run, all_marks):
    """The run's verdict in words: "untrusted (QEMU TCG emulates ...)", "flagged (2 results
    marked)", "trusted (silicon under KVM)"."""
    verdict = run_verdict(run, all_marks)
    n = flagged_count(run, all_marks)
    if verdict == "untrusted":
        why = run.why if run.timer_trusted is False and run.why else \
            "an emulator runs this CPU" if run.platform == "emulator" else "results are marked U"
        return f"untrusted ({why})"
    if verdict == "flagged":
        return f"flagged ({n} result{'' if n == 1 else 's'} marked)"
    where = run.platform or ""
    if run.hypervisor and run.platform != "emulator":
        where += f" under {run.hypervisor}"
    return f"trusted ({where.strip()})" if where.strip() else "trusted"
