#!/usr/bin/env python3
"""Read a cyclekit serial log: the JSON records, checked for completeness.

A complete log has a begin record, then records, then an end record whose
`records` equals the number of JSON lines from begin up to it and whose
`checksum` is FNV-1a 32 over those lines (bytes of each line, no newline).
Anything else is truncated or corrupt, and says why.

  scripts/cyclekit_log.py check LOG     exit 0 complete, 1 truncated/corrupt
  scripts/cyclekit_log.py records LOG   the records, one JSON object a line
  scripts/cyclekit_log.py types LOG     a count of records by type
"""
import json
import sys

MARK = '{"type":'
SCHEMA = 1


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

    @property
    def truncated(self):
        return not self.complete

    @property
    def status(self):
        return self.end["status"] if self.end else None

    def of_type(self, kind):
        return [r for r in self.records if r.get("type") == kind]

    def one(self, kind):
        found = self.of_type(kind)
        if len(found) != 1:
            raise LookupError(f"expected one {kind!r} record, found {len(found)}")
        return found[0]

    def notes(self, level=None, topic=None):
        return [n for n in self.of_type("note")
                if (level is None or n["level"] == level) and (topic is None or n["topic"] == topic)]


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
        except ValueError as e:
            problems.append(f"record {len(records) + 1} is not valid JSON ({e.msg})")
            break
        if rec.get("type") == "end":
            end = rec
            break
        records.append(rec)
        checksum = fnv1a32(line, checksum)
    if records and records[0].get("schema") != SCHEMA:
        problems.append(f"schema {records[0].get('schema')} is not {SCHEMA}")
    if end is None:
        problems.append(f"no end record after {len(records)} records: the log is truncated")
    else:
        if end.get("records") != len(records):
            problems.append(f"end record counts {end.get('records')} records, the log has {len(records)}")
        if end.get("checksum") != f"0x{checksum:x}":
            problems.append(f"checksum {end.get('checksum')} does not match the records (0x{checksum:x})")
    return Log(records, end, not problems, problems, text)


def parse_file(path) -> Log:
    with open(path, "rb") as f:
        return parse(f.read())


def main(argv):
    if len(argv) != 3 or argv[1] not in ("check", "records", "types"):
        print(__doc__, file=sys.stderr)
        return 2
    log = parse_file(argv[2])
    if argv[1] == "records":
        for r in log.records + ([log.end] if log.end else []):
            print(json.dumps(r))
    elif argv[1] == "types":
        counts = {}
        for r in log.records:
            counts[r["type"]] = counts.get(r["type"], 0) + 1
        for k in sorted(counts):
            print(f"{counts[k]:6d} {k}")
    if log.complete:
        print(f"complete: {len(log.records)} records, status {log.status}", file=sys.stderr)
        return 0
    for p in log.problems:
        print(f"incomplete: {p}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
