"""format=tap: the TAP13 results beside the JSON records, checked against
those records exactly: the version line first, one test point per result,
skipped and faulted benchmark in the records' order (numbered from 1, skips
marked `# SKIP reason`, results whose marks are not "ok" `# flagged MARKS`), a YAML block after each result holding its numbers,
and the plan 1..N matching the count. Without format=tap there is no TAP."""
import re

from conftest import assert_complete

# A Pentium has no long mode: lat64/* are skipped, calib/* measured.
CMDLINE = "bench=calib/*,lat64/add* samples=9"
POINT = re.compile(r"^(ok|not ok) (\d+) - (.*?)(?: # SKIP (.*))?(?: # flagged (\S+))?$")
TAP = re.compile(r"^(TAP version 13|(ok|not ok) \d+ - .*|1\.\.\d+|  .*)$")


def tap_lines(log):
    """The TAP lines of the log, from the version line on."""
    lines = log.text.replace("\r", "").split("\n")
    start = lines.index("TAP version 13")
    return [l for l in lines[start:] if TAP.match(l) and not l.startswith("{")]


def outcomes(log):
    return [r for r in log.records if r["type"] in ("result", "skip")
            or (r["type"] == "fault" and r["where"].startswith("benchmark "))]


def test_tap_matches_the_records(boot):
    log = boot(cpu="pentium", icount=0, cmdline="format=tap " + CMDLINE)
    assert_complete(log)
    want = outcomes(log)
    assert any(r["type"] == "skip" for r in want) and any(r["type"] == "result" for r in want)
    lines = tap_lines(log)
    assert lines[0] == "TAP version 13"
    assert lines[-1] == f"1..{len(want)}"
    points = [(i, POINT.match(l)) for i, l in enumerate(lines) if POINT.match(l)]
    assert len(points) == len(want)
    for n, ((at, m), rec) in enumerate(zip(points, want), 1):
        assert int(m.group(2)) == n
        if rec["type"] == "skip":
            assert (m.group(1), m.group(3), m.group(4)) == ("ok", rec["name"], rec["reason"].replace("#", "\\#"))
        elif rec["type"] == "fault":
            assert (m.group(1), m.group(3)) == ("not ok", rec["where"][len("benchmark "):])
        else:
            assert m.group(1) == ("not ok" if rec["verdict"] == "off" else "ok")
            assert (m.group(3), m.group(4)) == (rec["name"], None)
            assert m.group(5) == (None if rec["marks"] == "ok" else rec["marks"])
            block = lines[at + 1:lines.index("  ...", at)]
            assert block[0] == "  ---"
            assert f"  ticks: {rec['ticks']:.2f}" in block
            assert f'  verdict: "{rec["verdict"]}"' in block


def test_no_tap_by_default(boot):
    log = boot(cpu="pentium", icount=0, cmdline=CMDLINE)
    assert_complete(log)
    assert "TAP version 13" not in log.text
    assert not any(POINT.match(l) for l in log.text.split("\n"))
