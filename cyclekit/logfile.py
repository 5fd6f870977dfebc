"""The log library: a cyclekit serial log's JSON records, checked for completeness.

A complete log has a begin record, then records, then an end record whose
`records` equals the number of JSON lines from begin up to it and whose
`checksum` is FNV-1a 32 over those lines (bytes of each line, no newline).
The begin record names the build and the run (Log.version, .built,
.compiler, .run); an end record whose `run` is not the begin record's makes
the log corrupt. Anything else is truncated or corrupt, and says why:
parse() never raises, whatever the bytes (a record nested too deeply to decode is "not valid
JSON"); of a Log, only one() raises (LookupError). table() copes with records
that lack or mistype the fields it shows. `cyclekit log` (verbs/log.py) is the
command line over this library.
"""
import json
import math

MARK = '{"type":'
SCHEMA = 2                  # what this kernel writes
SCHEMAS = (1, 2)            # what this reader reads: 2 added records and fields, changed none


def fnv1a32(data: bytes, h: int = 0x811C9DC5) -> int:
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


class Log:
    def __init__(self, records, end, complete, problems, text):
        self.records = records          # every record from begin to end, end excluded
        self.end = end                  # the end record, or None
        self.complete = complete
        self.problems = problems        # why it is not complete (empty when it is)
        self.text = text                # the whole log as text

    def _begin(self, key):
        return self.records[0].get(key) if self.records else None

    @property
    def version(self):
        """`git describe` of the build ("unknown" outside git), None in older logs."""
        return self._begin("version")

    @property
    def built(self):
        return self._begin("built")

    @property
    def compiler(self):
        return self._begin("compiler")

    @property
    def run(self):
        """The run id ("0x" and 16 hex digits): the begin record's, repeated by the end record."""
        return self._begin("run")

    def identity_problems(self):
        """What is missing or malformed in the run's identity (begin record's
        version, built, compiler, run; the end record repeating the run; the
        banner line naming the version): an empty list when all is in order."""
        import re
        problems = []
        if not isinstance(self.version, str) or not self.version:
            problems.append(f"version {self.version!r} is not a describe string")
        if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(self.built)):
            problems.append(f"built {self.built!r} is not a UTC date and time")
        if not str(self.compiler).startswith("gcc "):
            problems.append(f"compiler {self.compiler!r} does not name gcc")
        if not re.fullmatch(r"0x[0-9a-f]{16}", str(self.run)):
            problems.append(f"run {self.run!r} is not 0x and 16 hex digits")
        if not self.end or self.end.get("run") != self.run:
            problems.append("the end record does not repeat the run id")
        if f"cyclekit {self.version}: x86 benchmark" not in self.text:
            problems.append("no banner line names the version")
        return problems

    @property
    def truncated(self):
        return not self.complete

    @property
    def status(self):
        return self.end.get("status") if self.end else None

    def of_type(self, kind):
        return [r for r in self.records if r.get("type") == kind]

    def one(self, kind):
        found = self.of_type(kind)
        if len(found) != 1:
            raise LookupError(f"expected one {kind!r} record, found {len(found)}")
        return found[0]

    def notes(self, level=None, topic=None):
        return [n for n in self.of_type("note")
                if (level is None or n.get("level") == level) and (topic is None or n.get("topic") == topic)]

    def unknown_options(self):
        """The kernel's notes about options it did not know (it ignores them and runs on)."""
        return [str(n.get("text", "")) for n in self.notes(topic="cmdline")
                if "unknown option" in str(n.get("text", ""))]


def parse(data) -> Log:
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    text = data.decode("utf-8", "replace")
    lines = []
    for raw in data.split(b"\n"):
        raw = raw.rstrip(b"\r")
        at = raw.find(MARK.encode())
        if at >= 0:
            lines.append(raw[at:])
    # The run is what follows the last begin record (a reboot starts a new one).
    start = None
    for i, line in enumerate(lines):
        if line.startswith(b'{"type":"begin"'):
            start = i
    problems = []
    if start is None:
        return Log([], None, False, ["no begin record"], text)
    records, end, checksum = [], None, 0x811C9DC5
    for line in lines[start:]:
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError) as e:  # RecursionError: nested too deeply
            problems.append(f"record {len(records) + 1} is not valid JSON ({getattr(e, 'msg', e)})")
            break
        if rec.get("type") == "end":
            end = rec
            break
        records.append(rec)
        checksum = fnv1a32(line, checksum)
    if records and records[0].get("schema") not in SCHEMAS:
        problems.append(f"schema {records[0].get('schema')} is not one this reader knows {SCHEMAS}")
    if end is None:
        problems.append(f"no end record after {len(records)} records: the log is truncated")
    else:
        if end.get("records") != len(records):
            problems.append(f"end record counts {end.get('records')} records, the log has {len(records)}")
        if end.get("checksum") != f"0x{checksum:x}":
            problems.append(f"checksum {end.get('checksum')} does not match the records (0x{checksum:x})")
        if records and "run" in end and end.get("run") != records[0].get("run"):
            problems.append(f"end record's run {end.get('run')} is not the begin record's ({records[0].get('run')})")
    return Log(records, end, not problems, problems, text)


def parse_file(path) -> Log:
    with open(path, "rb") as f:
        return parse(f.read())


def _number(v):
    """v as a finite float, or None (missing, not a number, too large)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    try:
        v = float(v)
    except OverflowError:
        return None
    return v if math.isfinite(v) else None


def field_text(v):
    return v if isinstance(v, str) else "?" if v is None else json.dumps(v)


def _fixed(v):
    v = _number(v)
    return "-" if v is None else f"{v:.2f}"


def table(log, tsv=False):
    """Results and skips, a row each, with each result's trust marks (cyclekit/trust.py); under
    the table, the run's verdict and a legend of the marks that occur (not with tsv)."""
    from cyclekit import trust
    run = trust.run_trust(log.records, log.end)
    rows = [("benchmark", "ticks", "cycles", "unit", "expected", "trust", "verdict")]
    marks = []
    for r in log.records:
        if r.get("type") == "result":
            exp = r.get("expect")
            m = trust.result_marks(r, run).marks
            marks.append(m)
            rows.append((field_text(r.get("name")), _fixed(r.get("ticks")), _fixed(r.get("cycles")),
                         field_text(r.get("cycles_unit", "")),
                         f'{field_text(exp.get("uarch"))} {_fixed(exp.get("cycles"))}' if isinstance(exp, dict)
                         else "-", m, field_text(r.get("verdict"))))
        elif r.get("type") == "skip":
            rows.append((field_text(r.get("name")), "-", "-", "", "-", "-",
                         "skipped: " + field_text(r.get("reason"))))
    if tsv:
        return "\n".join("\t".join(row) for row in rows)
    widths = [max(len(row[i]) for row in rows) for i in range(6)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row[:6], widths)) + "  " + row[6] for row in rows]
    lines.append("run trust: " + trust.verdict_text(run, marks))
    key = trust.legend(marks)
    return "\n".join(lines + ([key] if key else []))
