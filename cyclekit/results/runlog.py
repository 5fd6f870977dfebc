"""A cyclekit log read into a Run: who ran it (machine, build), what it measured.

The facts come from the log's records (README.md, "What the output means"):
the begin record (version, built, compiler, run id, options), the platform
record (firmware, SMBIOS identity where present), the cpu record (vendor,
name, family/model/stepping, microcode, caches), the trust record, one
result / skip / fault per benchmark, and, with the `raw` option, a samples
record right after each result (or after its `sample` and `cycles` records,
which cyclekit/samples.py reads). Reading never raises for odd records: a
field of the wrong type reads as missing.
"""
import math
import os
import re
import statistics

from cyclekit import logfile, trust

# The SMBIOS strings that name a machine (SMBIOS spec DSP0134 §7.2 system
# information, §7.3 baseboard, §7.1 BIOS information), as the platform
# record's "smbios" object carries them.
SMBIOS_IDENTITY = ("system_manufacturer", "system_product", "board_manufacturer", "board_product",
                   "bios_vendor", "bios_version", "bios_date")

# mem/chase/<size> (32-bit pointers) and mem64/chase/<size> (64-bit pointers, the 64-bit
# runners' own): the working set of one pointer-chase benchmark; <N>xLLC: N times the
# last-level cache, or all the memory there was (the record's working_set says which).
CHASE = re.compile(r"^(mem(?:64)?/chase)/(?:(\d+)([KMG])|(\d+)xLLC)$")
CHASE_FAMILIES = ("mem/chase", "mem64/chase")
UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
SAMPLING_TYPES = ("sample", "cycles")     # sample= and cycles= records, read by cyclekit/samples.py


def number(v):
    """v as a finite float, or None (missing, a string, a boolean, infinite)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def text(v):
    return v if isinstance(v, str) else None


def microcode_text(v):
    """The cpu record's microcode revision (a number, as IA32_BIOS_SIGN_ID
    bits 63:32 or AMD's patch level read it) in hex, the way vendors print
    it ("0x1000065"); None when the log has none."""
    if isinstance(v, int) and not isinstance(v, bool):
        return f"0x{v:x}"
    return text(v)


def chase_family(name):
    """"mem/chase" or "mem64/chase" for a pointer-chase benchmark's name, else None."""
    m = CHASE.match(name or "")
    return m.group(1) if m else None


def chase_bytes(name, working_set=None):
    """The working-set size in bytes of a mem/chase or mem64/chase benchmark (the record's
    working_set where it has one: a 4xLLC chase's size is the machine's), else None."""
    m = CHASE.match(name or "")
    if not m:
        return None
    if working_set:
        return int(working_set)
    return int(m.group(2)) * UNITS[m.group(3)] if m.group(2) else None


def size_text(n):
    """1K, 64M, 2032M; a size that is no whole number of its unit, to three digits (256M for 256 MiB
    less a line)."""
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= div:
            return f"{n / div:.3g}{unit}"
    return f"{n}B"


def size_key(name):
    """A sort key that orders names by their numbers' values, sizes with their units:
    mem64/chase/1K < 4K < 16K < 1M < 4xLLC (where text order gives 16K, 1K, 1M, 4K ...)."""
    key = []
    for part in re.split(r"(\d+[KMG]?(?![a-zA-Z]))", name):
        if part and part[0].isdigit():
            n = int(part.rstrip("KMG"))
            key.append((0, n * UNITS.get(part[-1], 1), ""))
        elif part:
            key.append((1, 0, part))
    return key


class Result:
    """One benchmark's outcome in one run: a result, a skip or a fault."""

    def __init__(self, rec, samples=None, run_trust=None):
        self.kind = rec.get("type")
        self.name = text(rec.get("name")) or "?"
        self.ticks = number(rec.get("ticks"))
        self.cycles = number(rec.get("cycles"))
        self.cycles_unit = text(rec.get("cycles_unit"))
        self.ns = number(rec.get("ns"))
        self.time_unit = text(rec.get("time_unit"))     # what a tick is: "tsc", "pit/1000", ...
        self.verdict = text(rec.get("verdict"))
        self.reason = text(rec.get("reason")) or text(rec.get("why"))
        self.stable = rec.get("stable") if isinstance(rec.get("stable"), bool) else None
        stats = rec.get("stats") if isinstance(rec.get("stats"), dict) else {}
        self.stddev = number(stats.get("stddev"))
        exp = rec.get("expect") if isinstance(rec.get("expect"), dict) else None
        self.expect_uarch = text(exp.get("uarch")) if exp else None
        self.expect_cycles = number(exp.get("cycles")) if exp else None
        self.expect_tolerance = number(exp.get("tolerance")) if exp else None
        self.working_set = number(rec.get("working_set"))   # a chase's bytes (mem/, mem64/)
        self.llc = number(rec.get("llc"))                   # a 4xLLC chase: the cache it is 4x of
        self.unroll = number(rec.get("unroll"))
        self.loops = number(rec.get("loops"))
        self.samples = samples          # the samples record, or None
        # How far it can be trusted (cyclekit/trust.py): None for a skip or fault.
        self.marks = trust.result_marks(rec, run_trust or trust.run_trust([]))

    @property
    def mark_text(self):
        """The marks ("ok", "USN" ...), "-" for a skip or fault."""
        return self.marks.marks if self.marks else "-"

    @property
    def value(self):
        """(number, unit): core cycles where the log has them, else ticks; (None, None) without."""
        if self.cycles is not None:
            return self.cycles, "cycles"
        if self.ticks is not None:
            return self.ticks, "ticks"
        return None, None

    @property
    def spread(self):
        """The run's own spread of this result (the samples' standard deviation
        per body), in the unit of `value`; None when unknown."""
        v, unit = self.value
        if self.stddev is None or v is None:
            return None
        if unit == "cycles":
            if not self.ticks:
                return None
            return self.stddev * v / self.ticks
        return self.stddev

    def per_body(self):
        """The raw samples as ticks per body, (t(2U) - t(U)) / (U·L) each, the
        same difference whose median is the result (README.md, "How a
        benchmark is measured"); [] without a samples record."""
        s = self.samples
        if not s or not self.unroll or not self.loops:
            return []
        tu, t2u = s.get("tU"), s.get("t2U")
        if not isinstance(tu, list) or not isinstance(t2u, list):
            return []
        scale = self.unroll * self.loops
        return [(b - a) / scale for a, b in zip(tu, t2u)
                if number(a) is not None and number(b) is not None]


class Run:
    """One log: its completeness, machine identity, build and results."""

    def __init__(self, path, log):
        self.path = path
        self.log = log
        self.label = os.path.splitext(os.path.basename(path))[0]
        self.complete = log.complete
        self.problems = log.problems
        self.checksum = text(log.end.get("checksum")) if log.end else None
        self.status = log.status
        begin = log.records[0] if log.records else {}
        self.cmdline = text(begin.get("cmdline"))
        self.platform_kind = text(begin.get("platform"))
        self.version, self.built, self.compiler, self.run_id = (
            text(log.version), text(log.built), text(log.compiler), text(log.run))
        self.cpu = self._first("cpu")
        self.platform = self._first("platform")
        self.trust = self._first("trust")
        self.trust_state = trust.run_trust(log.records, log.end)      # a trust.RunTrust
        self.results = self._results()

    def _first(self, kind):
        found = self.log.of_type(kind)
        return found[0] if found and isinstance(found[0], dict) else {}

    def _results(self):
        out, records = [], self.log.records
        for i, rec in enumerate(records):
            if rec.get("type") not in ("result", "skip", "fault") or "name" not in rec:
                continue
            # The raw samples follow the result; a sample or cycles record (where the samples fall,
            # cyclekit/samples.py) may come between them.
            nxt = next((r for r in records[i + 1:] if r.get("type") not in SAMPLING_TYPES), None)
            samples = nxt if rec.get("type") == "result" and nxt and nxt.get("type") == "samples" else None
            out.append(Result(rec, samples, self.trust_state))
        return out

    def all_marks(self):
        return [r.marks.marks for r in self.results if r.marks]

    @property
    def trust_verdict(self):
        """trusted, flagged or untrusted (the end record's, else derived: cyclekit/trust.py)."""
        return trust.run_verdict(self.trust_state, self.all_marks())

    @property
    def untrusted(self):
        """Is this run's timing not the silicon's (an emulator, or a timer that failed its check)?"""
        return trust.untrusted_run(self.trust_state) or self.trust_verdict == "untrusted"

    def measured(self):
        return [r for r in self.results if r.kind == "result"]

    def result(self, name):
        for r in self.results:
            if r.name == name:
                return r
        return None

    @property
    def smbios(self):
        s = self.platform.get("smbios")
        return {k: v for k, v in s.items() if isinstance(v, (str, int, float))} if isinstance(s, dict) else {}

    @property
    def trusted(self):
        return self.trust.get("trusted") if isinstance(self.trust.get("trusted"), bool) else None

    def machine(self):
        """The identity of the machine, as a dict of plain values: the CPU
        (vendor, decoded name, brand string, family/model/stepping,
        microcode, hypervisor) and the SMBIOS system, board and BIOS."""
        c = self.cpu
        ident = {
            "vendor": text(c.get("vendor_string")) or text(c.get("vendor")),
            "cpu_name": text(c.get("name")),
            "brand": text(c.get("brand")) or None,
            "family": c.get("family") if isinstance(c.get("family"), int) else None,
            "model": c.get("model") if isinstance(c.get("model"), int) else None,
            "stepping": c.get("stepping") if isinstance(c.get("stepping"), int) else None,
            "microcode": microcode_text(c.get("microcode")),
            "hypervisor": text(c.get("hypervisor_name")),
        }
        for key in SMBIOS_IDENTITY:
            v = self.smbios.get(key)
            ident[key] = str(v) if v is not None else None
        return ident

    def machine_label(self):
        m = self.machine()
        system = " ".join(v for v in (m["system_manufacturer"], m["system_product"]) if v)
        cpu = m["brand"] or m["cpu_name"] or "unknown CPU"
        if m["cpu_name"] and m["brand"] and m["cpu_name"] not in m["brand"]:
            cpu = f'{m["cpu_name"]}, "{m["brand"]}"'
        fms = "/".join(str(m[k]) for k in ("family", "model", "stepping") if m[k] is not None)
        where = system or m["hypervisor"] or ""
        return f'{cpu} ({m["vendor"] or "?"} {fms})' + (f" on {where}" if where else "")

    def caches(self):
        """[(label, bytes)] of the data and unified caches the cpu record lists."""
        out = []
        for c in self.cpu.get("caches") or []:
            if not isinstance(c, dict) or c.get("kind") not in ("data", "unified"):
                continue
            size, level = number(c.get("size")), c.get("level")
            if size:
                out.append((f'L{level}{"d" if c["kind"] == "data" else ""}', int(size)))
        return out

    def chase_families(self):
        """{family: [(bytes, value, unit, marks)]}: the pointer-chase results of each family
        (mem/chase, mem64/chase) that has any, smallest working set first."""
        out = {}
        for r in self.measured():
            size = chase_bytes(r.name, r.working_set)
            v, unit = r.value
            if size and v is not None:
                out.setdefault(chase_family(r.name), []).append((size, v, unit, r.mark_text))
        return {fam: sorted(pts) for fam, pts in sorted(out.items())}

    def chase_points(self):
        """[(bytes, value, unit, marks)] of every pointer-chase result, smallest first."""
        return sorted(p for pts in self.chase_families().values() for p in pts)

    def chase_short(self):
        """[(name, working set, wanted)] of the NxLLC chases that got less memory than N times
        the last-level cache (the hosted runner's hostmem, or the machine's memory)."""
        out = []
        for r in self.measured():
            m = CHASE.match(r.name)
            if m and m.group(4) and r.working_set and r.llc:
                want = int(m.group(4)) * int(r.llc)
                if r.working_set < want - 64:
                    out.append((r.name, int(r.working_set), want))
        return out

    def counts(self):
        """How many of each outcome, the one count of every view (report, db import, db runs):
        results (measured), skipped, faulted; and of the results, by trust (cyclekit/trust.py:
        ok, flagged, untrusted) and by expectation verdict (ok, off)."""
        c = dict(results=0, skipped=0, faulted=0, ok=0, flagged=0, untrusted=0, expect_ok=0, expect_off=0,
                 unstable=0)
        for r in self.results:
            if r.kind == "skip":
                c["skipped"] += 1
            elif r.kind == "fault":
                c["faulted"] += 1
            elif r.kind == "result":
                c["results"] += 1
                c[trust.level(r.mark_text)] += 1
                c["unstable"] += r.stable is False
                c["expect_ok"] += r.verdict == "ok" or (r.verdict or "").startswith("ok,")
                c["expect_off"] += r.verdict == "off" or (r.verdict or "").startswith("off,")
        return c

    def count_text(self):
        """"60 results, 18 skipped" (", 1 faulted" where one did): what a run holds."""
        c = self.counts()
        return f"{c['results']} results, {c['skipped']} skipped" + (
            f", {c['faulted']} faulted" if c["faulted"] else "")

    def chase_curve(self):
        """[(bytes, value, unit)] of the mem/chase results, smallest first."""
        return [p[:3] for p in self.chase_points()]


def load(path):
    """The Run of the log at path (complete or not: callers decide)."""
    return Run(path, logfile.parse_file(path))


def median(values):
    return statistics.median(values) if values else None
