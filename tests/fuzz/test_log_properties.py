"""Properties of the log parser (cyclekit/logfile.py), with hypothesis.

- parse() takes any bytes and never raises: a log is complete or says why not;
  the only documented error of a Log is LookupError from one();
- a log written the way kernel/report/log.c writes it (records between begin
  and end, the count and FNV-1a checksum, readable lines and serial noise in
  between) parses back to the same records and status;
- every cut before the end record ends is truncated, every changed character
  inside a record fails the checksum, every dropped record fails the count;
- the command-line tool answers any log with exit status 0, 1 or 2.

make check runs the "check" profile (few examples); make fuzz the "fuzz"
profile (CK_HYPOTHESIS=fuzz, CK_HYPOTHESIS_EXAMPLES examples each).
"""
import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Hypothesis keeps caches (e.g. Unicode tables) there; build/ rather than the tree.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(ROOT, "build", "hypothesis"))

from hypothesis import HealthCheck, assume, given, settings, strategies as st  # noqa: E402

from cyclekit import cli
from cyclekit import logfile as cyclekit_log

settings.register_profile("check", max_examples=50, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=int(os.environ.get("CK_HYPOTHESIS_EXAMPLES", "20000")),
                          deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("CK_HYPOTHESIS", "check"))

MARK = '{"type":'


def fnv1a(data, h=0x811C9DC5):
    """FNV-1a 32, written here again so the parser's own is checked too."""
    for b in data:
        h = ((h ^ b) * 0x01000193) % (1 << 32)
    return h


# ---- a model of the kernel's writer ----

json_scalars = st.none() | st.booleans() | st.integers(-2**63, 2**64) | \
    st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) |
                           st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)
record_types = st.sampled_from(["platform", "cpu", "pmu", "timer", "trust", "result", "skip", "fault",
                                "note", "selftest", "samples", "sweep", "bench", "pmu_restore"])
records = st.builds(lambda t, fields: {"type": t, **{k: v for k, v in fields.items() if k != "type"}},
                    record_types, st.dictionaries(st.text(max_size=10), json_values, max_size=4))
# Readable lines: anything that is not a record (the serial port also
# carries firmware and GRUB output, escape sequences, carriage returns).
readable = st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b"")) \
    .filter(lambda b: MARK.encode() not in b)


def line(rec):
    return json.dumps(rec, separators=(",", ":")).encode()


def write_log(recs, status, noise, crlf):
    """(log bytes, [(start, end) of each JSON line], where the end record ends)."""
    out, spans = bytearray(), []
    nl = b"\r\n" if crlf else b"\n"
    body = [{"type": "begin", "schema": 1, "program": "cyclekit", "platform": "bare", "cmdline": ""}]
    body += recs
    checksum = 0x811C9DC5
    for i, rec in enumerate(body):
        if noise and i < len(noise):
            out += noise[i] + nl
        data = line(rec)
        checksum = fnv1a(data, checksum)
        spans.append((len(out), len(out) + len(data)))
        out += data + nl
    end = line({"type": "end", "records": len(body), "checksum": f"0x{checksum:x}", "status": status,
                "errors": 0})
    end_at = len(out) + len(end)
    out += end + nl + b"after the end: the machine halts or reboots" + nl
    return bytes(out), spans, end_at


logs = st.builds(lambda recs, status, noise, crlf: (recs, status) + write_log(recs, status, noise, crlf),
                 st.lists(records, max_size=8), st.integers(0, 4), st.lists(readable, max_size=10),
                 st.booleans())


def check_log_object(log):
    assert isinstance(log, cyclekit_log.Log)
    assert log.complete == (not log.problems)
    assert log.truncated == (not log.complete)
    assert all(isinstance(p, str) and p for p in log.problems)
    if log.complete:
        assert log.end is not None
    log.status  # noqa: B018 - must not raise
    for kind in ("note", "result", "end"):
        log.of_type(kind)
    log.notes(level="warn")
    log.notes(topic="cmdline")
    try:
        log.one("cpu")
    except LookupError:
        pass


# ---- properties ----

@given(st.binary(max_size=2000))
def test_any_bytes_parse_without_raising(data):
    check_log_object(cyclekit_log.parse(data))


fragments = st.sampled_from([b'{"type":"begin","schema":1}', b'{"type":"begin"', b'{"type":"end"',
                             b'{"type":"end","records":1,"checksum":"0x0"}', b'{"type":', b'{"type":"end"}',
                             b'{"type":"begin","schema":1}\n{"type":"end","records":1}',
                             b'{"type":[1]}', b'{"type":{}}', b'{"type":"note"}', b'{"type":"result"}',
                             b'\xff\xfe', b'\r', b'\x00', b'}', b'"', b'\\', b'1e999', b'9' * 5000])
nested = st.integers(0, 3000).map(lambda n: b'{"type":"begin","schema":1,"x":' + b"[" * n + b"]" * n + b"}")


@given(st.lists(fragments | nested | st.binary(max_size=30), max_size=12),
       st.lists(st.sampled_from([b"\n", b"", b" ", b"\r\n"]), min_size=12, max_size=12))
def test_record_like_garbage_parses_without_raising(parts, seps):
    data = b"".join(p + s for p, s in zip(parts, seps))
    check_log_object(cyclekit_log.parse(data))
    check_log_object(cyclekit_log.parse(data.decode("latin-1")))


@given(logs)
def test_written_log_round_trips(case):
    recs, status, data, spans, end_at = case
    log = cyclekit_log.parse(data)
    assert log.complete, log.problems
    assert log.records[1:] == recs
    assert log.records[0]["type"] == "begin"
    assert log.status == status
    assert log.end["records"] == len(recs) + 1
    check_log_object(log)


@given(logs, st.data())
def test_any_cut_before_the_end_is_truncated(case, data):
    _, _, log_bytes, spans, end_at = case
    cut = data.draw(st.integers(0, end_at - 1))
    log = cyclekit_log.parse(log_bytes[:cut])
    assert log.truncated and log.problems


@given(logs, st.data())
def test_a_changed_character_fails_the_checksum(case, data):
    recs, _, log_bytes, spans, _ = case
    # Inside a string of a record after begin: still valid JSON, other content.
    where = [i for k, (a, b) in enumerate(spans) if k > 0
             for i in range(a, b) if log_bytes[i:i + 1].isalnum()]
    assume(where)
    at = data.draw(st.sampled_from(where))
    old = log_bytes[at:at + 1]
    new = data.draw(st.sampled_from([c for c in (b"a", b"Z", b"0", b"7") if c != old]))
    damaged = log_bytes[:at] + new + log_bytes[at + 1:]
    log = cyclekit_log.parse(damaged)
    assert log.truncated
    assert any("checksum" in p or "not valid JSON" in p for p in log.problems), log.problems


@given(logs, st.data())
def test_a_dropped_record_fails_the_count(case, data):
    recs, _, log_bytes, spans, _ = case
    assume(recs)
    a, b = spans[data.draw(st.integers(1, len(recs)))]
    log = cyclekit_log.parse(log_bytes[:a] + log_bytes[b:])
    assert log.truncated
    assert any("counts" in p for p in log.problems), log.problems


result_fields = st.fixed_dictionaries({}, optional={
    "name": st.text(max_size=10) | st.integers(), "ticks": json_scalars, "cycles": json_scalars,
    "cycles_unit": json_scalars, "verdict": json_scalars, "reason": json_scalars,
    "expect": json_scalars | st.fixed_dictionaries({}, optional={"uarch": json_scalars,
                                                                 "cycles": json_scalars})})
tool_records = st.builds(lambda t, f: {"type": t, **f}, st.sampled_from(["result", "skip", "note"]),
                         result_fields) | records


@given(st.lists(tool_records, max_size=6), st.lists(tool_records, max_size=6),
       st.sampled_from(["check", "records", "types", "table", "compare"]), st.integers(0, 3))
def test_the_tool_answers_any_log(tmp_path_factory, a, b, command, damage):
    paths = []
    for name, recs in (("a", a), ("b", b)):
        data = write_log(recs, 0, [], False)[0]
        data = data[:len(data) - damage * 7] if damage else data
        path = tmp_path_factory.mktemp("logs") / name
        path.write_bytes(data)
        paths.append(str(path))
    argv = ["log", command] + (paths if command == "compare" else paths[:1])
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(argv)
    assert status in (0, 1, 2)
