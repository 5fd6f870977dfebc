"""Where the samples fall inside a body: the kernel's `sample` and `cycles` records, annotated.

With `sample=EVENT[:PERIOD]` (or `sample=time[:US]`) the kernel interrupts a
benchmark's loop every PERIOD events (or microseconds) and charges each
sample to the instruction it interrupted, by its byte offset in one copy of
the body; with `cycles=K` it stops the body after k = 1..K cycles and notes
the instructions retired and where it stood (docs/log-format.md, "sample"
and "cycles"). The records carry one copy's bytes and mode; here they are
disassembled (cyclekit/disasm.py) and each instruction is given the samples
at its first byte, its share of the samples in the body and the binomial
standard error of that share, sqrt(p(1-p)/n): how far the share can be
trusted when the n samples are independent draws (docs/measuring.md,
"Sampling"). A sampled offset where no instruction starts should not occur;
it is kept apart (`strays`) rather than charged to a neighbour.

Reading never raises for odd records: a field of the wrong type reads as
missing, bytes that are not hex or do not disassemble leave the offsets
without instruction text and say why (`problem`).
"""
import functools
import math

from cyclekit import disasm

WHERE_TEXT = {"loop": "(the loop's own instructions)", "handler": "(the interrupt handler)",
              "elsewhere": "(outside the body and its loop)", "none": "(no interrupt within the run)"}


def _count(v):
    """v as a count (an int >= 0), else None."""
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


def _int(v):
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _text(v):
    return v if isinstance(v, str) else None


def _bool(v):
    return v if isinstance(v, bool) else None


def share(k, n):
    """k of n as a fraction, None when n is 0 or unknown."""
    return k / n if n else None


def binomial_error(k, n):
    """The standard error of the share k/n, sqrt(p(1-p)/n) with p = k/n; None when n is 0."""
    if not n:
        return None
    p = k / n
    return math.sqrt(p * (1 - p) / n)


@functools.lru_cache(maxsize=256)
def _instructions(code, mode):
    """The instructions of one copy (cached: a report may show one body from many logs)."""
    return tuple(disasm.disassemble(code, mode))


def decode(rec):
    """(instructions, problem) of a record's `bytes` and `mode`: ([], why) when they cannot be
    read or disassembled."""
    hexed, mode = _text(rec.get("bytes")), rec.get("mode")
    try:
        code = bytes.fromhex(hexed or "")
    except ValueError:
        return [], f"its bytes {hexed!r} are not hex"
    if not code:
        return [], "the record holds no bytes of the body"
    if mode not in disasm.MODES:
        return [], f"its mode {mode!r} is neither 32 nor 64"
    try:
        return list(_instructions(code, mode)), None
    except disasm.DisasmError as e:
        return [], str(e)


class Row:
    """One instruction of the body with its samples: offset, length (None when not
    disassembled), text, samples, share of the samples in the body, and its error."""

    def __init__(self, offset, length, text, samples, body):
        self.offset, self.length, self.text, self.samples = offset, length, text, samples
        self.share = share(samples, body)
        self.error = binomial_error(samples, body)


def sampled_offsets(rec):
    """{offset: samples} of a sample record's `offsets` (well-formed entries only)."""
    out = {}
    entries = rec.get("offsets") if isinstance(rec.get("offsets"), list) else []
    for entry in entries:
        if isinstance(entry, dict) and _count(entry.get("offset")) is not None and _count(entry.get("samples")):
            out[entry["offset"]] = out.get(entry["offset"], 0) + entry["samples"]
    return out


class Profile:
    """A sample record, annotated: the counts as the kernel gave them, `rows` (one per
    instruction of one copy, in order), `strays` ([(offset, samples)] at offsets where no
    instruction starts) and `problem` (why there is no instruction text, or None)."""

    COUNTS = ("period", "runs", "loops", "samples", "body", "loop", "handler", "elsewhere", "lost", "copies",
              "copy_bytes")
    TEXTS = ("name", "source", "event", "unit", "delivery", "stopped", "skid_why", "failed")

    def __init__(self, rec):
        for key in self.COUNTS:
            setattr(self, key, _count(rec.get(key)))
        for key in self.TEXTS:
            setattr(self, key, _text(rec.get(key)))
        self.name = self.name or "?"
        self.nmi, self.storm, self.capped = (_bool(rec.get(k)) for k in ("nmi", "storm", "capped"))
        self.skid = _int(rec.get("skid"))
        self.mode = rec.get("mode") if rec.get("mode") in disasm.MODES else None
        self.rows, self.strays, self.problem = [], [], None
        if self.failed is None:
            self._annotate(rec)

    def _annotate(self, rec):
        at = sampled_offsets(rec)
        if self.body is None:
            self.body = sum(at.values())
        instructions, self.problem = decode(rec)
        starts = {i.offset for i in instructions}
        self.rows = [Row(i.offset, i.length, i.text, at.get(i.offset, 0), self.body) for i in instructions]
        if not instructions:        # no text: the sampled offsets as they are
            self.rows = [Row(off, None, "?", n, self.body) for off, n in sorted(at.items())]
            starts = set(at)
        self.strays = sorted((off, n) for off, n in at.items() if off not in starts)


class Step:
    """One step of a cycles record: k (cycles), retired, taken, where, copy, offset, and
    text (the instruction it stood at, or what `where` means)."""

    def __init__(self, entry, texts):
        self.k, self.retired = _count(entry.get("k")), _int(entry.get("retired"))
        self.taken = _bool(entry.get("taken"))
        self.where = _text(entry.get("where")) or "?"
        self.copy, self.offset = _count(entry.get("copy")), _count(entry.get("offset"))
        if self.where == "body":
            self.text = texts.get(self.offset, "? (no instruction starts at this offset)" if texts else "?")
        else:
            self.text = WHERE_TEXT.get(self.where, "?")


class Timeline:
    """A cycles record, annotated: n, base, copies, copy_bytes, mode, `steps` in order, and
    `problem` (why there is no instruction text, or None)."""

    def __init__(self, rec):
        self.name = _text(rec.get("name")) or "?"
        self.failed = _text(rec.get("failed"))
        self.n, self.base = _count(rec.get("n")), _count(rec.get("base"))
        self.copies, self.copy_bytes = _count(rec.get("copies")), _count(rec.get("copy_bytes"))
        self.mode = rec.get("mode") if rec.get("mode") in disasm.MODES else None
        self.steps, self.problem = [], None
        if self.failed is None:
            instructions, self.problem = decode(rec)
            texts = {i.offset: i.text for i in instructions}
            steps = rec.get("steps") if isinstance(rec.get("steps"), list) else []
            self.steps = [Step(s, texts) for s in steps if isinstance(s, dict)]


def profiles(records):
    """[Profile] of every sample record, in the log's order."""
    return [Profile(r) for r in records if isinstance(r, dict) and r.get("type") == "sample"]


def timelines(records):
    """[Timeline] of every cycles record, in the log's order."""
    return [Timeline(r) for r in records if isinstance(r, dict) and r.get("type") == "cycles"]


def of_benchmark(records, name):
    """(Profile or None, Timeline or None): benchmark NAME's records (the last of each kind)."""
    mine = [r for r in records if isinstance(r, dict) and r.get("name") == name]
    found, steps = profiles(mine), timelines(mine)
    return (found[-1] if found else None), (steps[-1] if steps else None)
