"""The screen layout, read through QEMU's monitor (screen_reader.py): the
header, the progress line mid-run, the table paged through with PgUp/PgDn
after the run (every result on exactly one row, its cells exactly the
record's values: nothing wrapped, nothing lost), and the summary page's
counts against the log's records."""
import json
import re

from conftest import tcg_timeout
from screen_reader import ScreenBoot

# Enough results for several pages of 21 rows. Enough samples that the run
# lasts seconds, not the third of a second 9 samples took: the progress row is
# read once the serial log (through run-qemu's pump) shows 3 progress records,
# and on a loaded machine that lag alone outlasted the whole short run.
SUITE = "bench=p5/*,lat/*,sys/cpuid* samples=101"
SHORT = {"ok": "ok", "off": "off", "untrusted timing": "untrusted", "no cycle unit": "no unit"}


def shorten(s, w):
    """kernel/report/screen.c screen_shorten: both ends kept, '~' between."""
    if len(s) <= w:
        return s
    head = (w - 1) // 2
    return s[:head] + "~" + s[len(s) - (w - 1 - head):]


def table_records(log):
    """The records that become table rows, in order."""
    return [r for r in log.records if r["type"] in ("result", "skip", "fault")
            or (r["type"] == "note" and r["level"] != "info")]


def name_width(heading):
    """The name column's width, from the heading row (`benchmark`, padded, then ' ticks')."""
    assert heading.startswith("benchmark"), heading
    return heading.index("ticks") + len("ticks") - 10


def expected_cells(rec):
    """ticks, cycles, expected, verdict, marks as the table shows them."""
    cycles = "-" if rec["cycles"] is None else f"{rec['cycles']:.2f}" + (
        "c" if rec["cycles_unit"].startswith("exact") else "~")
    exp = rec["expect"]
    expected = "-" if exp is None else f"{exp['uarch']} {exp['cycles']:.2f}"
    verdict = SHORT.get(rec["verdict"], "-") if exp else "-"
    return f"{rec['ticks']:.2f}", cycles, expected, verdict, rec["marks"]


def check_row(row, rec, w):
    name = rec.get("name") or rec.get("topic") or rec.get("where", "").replace("benchmark ", "")
    assert row.startswith(shorten(name, w).ljust(w) + " "), (row, rec)
    rest = row[w:]
    if rec["type"] == "result":
        ticks, cycles, expected, verdict, marks = expected_cells(rec)
        # Cells one blank wider than their text: a longer value (a cold
        # sample on a loaded host: 1329135.25 ticks) is shortened like a name.
        assert rest[:10].strip() == shorten(ticks, 9), (row, rec)
        assert rest[10:21].strip() == shorten(cycles, 10), (row, rec)
        assert rest[21:38].strip() == shorten(expected, 16), (row, rec)
        assert rest[38:48].strip() == verdict, (row, rec)
        assert rest[48:].strip() == marks, (row, rec)
        assert "U" in marks, (row, rec)  # TCG: every row says its timer is untrusted
    elif rec["type"] == "skip":
        assert rest.startswith(" skipped: "), row
        assert (rec["reason"]).startswith(rest[len(" skipped: "):].rstrip("~")), (row, rec)


def summary_lines(log):
    results = log.of_type("result")
    ok = sum(r["verdict"] == "ok" for r in results)
    off = sum(r["verdict"] == "off" for r in results)
    flagged = sum(r["marks"] != "ok" for r in results)
    notes = len([n for n in log.of_type("note") if n["level"] != "info"])
    return [f"Results: {len(results)} measured: ok {ok}, off {off}, no verdict {len(results) - ok - off}; "
            f"flagged {flagged}",
            f"Skipped {len(log.of_type('skip'))}, faulted {len(log.of_type('fault'))}; "
            f"warnings and errors {notes}"]


def check_end_screen(rows, log):
    begin, trust = log.records[0], log.one("trust")
    n = len(log.of_type("progress"))
    assert rows[0].startswith(f"cyclekit {begin['version']} | "), rows[0]
    assert rows[0].endswith("timings " + ("trusted" if trust["trusted"] else "NOT trusted")), rows[0]
    assert re.fullmatch(rf"run complete: {n} benchmarks in \d+:\d\d", rows[1]), rows[1]
    assert rows[2] == f"Summary: run complete, status {log.status} (nothing wrong)"
    for line in summary_lines(log):
        assert line in rows, (line, rows)
    assert any(r.startswith("Timings NOT trusted: QEMU TCG emulates this CPU") for r in rows), rows
    assert "Full log (JSON records and readable lines): serial 0x3f8 at 115200 baud 8N1" in rows


PROGRESS = re.compile(r"benchmark (\d+) of (\d+) \| group (\w+) \| elapsed (\d+:\d\d|\?) \| "
                      r"left (~\d+:\d\d|\?) \| (\S+)$")


def mid_run(sb, n_before):
    """The progress row read while the run goes on. A row is redrawn cell by
    cell, so a read can catch one half old, half new (then it disagrees
    with every record); a few reads find one that is whole."""
    errors = []
    for _ in range(5):
        try:
            return check_mid_run(sb, sb.screen(), n_before)
        except AssertionError as e:
            errors.append(str(e))
    raise AssertionError("\n".join(errors))


def check_mid_run(sb, rows, n_before):
    m = PROGRESS.match(rows[1])
    assert m, rows
    i = int(m.group(1))
    assert i >= n_before - 1  # its record goes out just before the screen is drawn
    # Whole lines only: the log is still growing.
    text = sb.wait_for(lambda t: t[:t.rfind("\n") + 1].count('"type":"progress"') >= i)
    lines = text[:text.rindex("\n")].splitlines()
    progress = [json.loads(line) for line in lines if line.startswith('{"type":"progress"')]
    rec = progress[i - 1]
    assert (rec["i"], rec["n"], rec["group"]) == (i, int(m.group(2)), m.group(3))
    assert m.group(6) == shorten(rec["name"], len(m.group(6))) or rec["name"] == m.group(6)
    assert rows[2].startswith("benchmark ") and rows[2].split()[1:3] == ["ticks", "cycles"], rows[2]
    assert rows[-1].startswith("log: serial 0x3f8 at 115200 baud 8N1 | marks: U untrusted"), rows[-1]
    return rows


FOOTER = re.compile(r"page (\d+) of (\d+): PgUp PgDn Home End")


def page_through(sb):
    """Home, then PgDn page by page to the summary: the rows of every page,
    each read as a whole frame once its footer (drawn last) names it."""
    rows = sb.screen_once(lambda r: FOOTER.match(r[-1]), "the paging footer")
    if FOOTER.match(rows[-1]).group(1) != "1":
        sb.key("home")
    seen = []
    while True:
        want = len(seen) + 1
        rows = sb.screen_once(lambda r: (FOOTER.match(r[-1]) or [None, None])[1] == str(want),
                              f"page {want}")
        pages = int(FOOTER.match(rows[-1]).group(2))
        if want == pages:
            return seen, rows
        assert want < pages, rows
        seen.append(rows)
        sb.key("pgdn")


def check_screen(cpu, uefi, suite, n):
    """Mid-run, the end, and every page of the table, on one boot."""
    timeout = tcg_timeout(suite, uefi=uefi, n=n)
    with ScreenBoot(suite + " keys=120", cpu=cpu, uefi=uefi, timeout=timeout) as sb:
        text = sb.wait_for(lambda t: t.count('"type":"progress"') >= 3)
        rows = mid_run(sb, text.count('"type":"progress"'))
        assert not rows[1].startswith("run complete"), "the run ended before the screen was read"
        log = sb.log()
        assert log.complete and log.status == 0, log.problems  # exit=halt: no runner status
        pages, summary = page_through(sb)
        check_end_screen(summary, log)
        want = table_records(log)
        got = [r for p in pages for r in p[3:-1] if r]
        assert len(got) == len(want), (len(got), len(want))
        w = name_width(pages[0][2])
        for row, rec in zip(got, want):
            check_row(row, rec, w)
        return pages, summary


def test_bios_screen_layout_progress_table_summary():
    pages, _ = check_screen("pentium", False, SUITE, 80)
    assert all(len(r) <= 80 for p in pages for r in p)


def test_uefi_framebuffer_layout_progress_table_summary():
    """OVMF's 800x600 framebuffer: 100 columns, 37 rows, read back glyph by glyph."""
    # More samples: reading the framebuffer back takes a while, the run must still be going.
    pages, summary = check_screen("max", True, "bench=lat/*,sys/cpuid* samples=501", 60)
    assert all("\x00" not in r and len(r) <= 100 for p in pages + [summary] for r in p)


def test_uefi_framebuffer_log_scrolls_without_wrapping_to_the_top():
    """screen=log: the readable lines scroll; the screen's rows are exactly the
    last lines of the serial log's readable text (long lines folded at 100)."""
    suite = "bench=calib/* samples=9 screen=log"
    with ScreenBoot(suite, cpu="max", uefi=True, timeout=tcg_timeout(suite, uefi=True, n=4)) as sb:
        text = sb.wait_for_line("the machine is halted").replace("\r", "")
        folded = []
        for line in text.split("\n")[:-1]:
            if line.startswith("{"):
                continue
            folded += [line[i:i + 100] for i in range(0, max(len(line), 1), 100)]
        folded.append("")  # the cursor's row after the last newline
        # The run's last line drawn: the row above the cursor's.
        rows = sb.screen_once(lambda r: r[-2:] == [x.rstrip() for x in folded[-2:]], "the run's last line")
    want = [r.rstrip() for r in folded[-len(rows):]]
    assert rows == want
