"""`cyclekit report`'s section "Where the samples fall" (cyclekit/results/sample_section.py): each
sampled body as a table of its instructions with their samples, shares ± errors and bars, the
samples outside the body, the cycles timeline, a failed record's reason, and the page as a
browser shows it."""
import contextlib
import html.parser
import io

import pytest

import logsynth
from cyclekit import cli, disasm

needs_objdump = pytest.mark.skipif(not disasm.objdump(), reason="objdump is not installed (binutils)")


class Section(html.parser.HTMLParser):
    """The samples section of a report page: its tables (class -> [rows of cell texts]), the
    bars' styles, its warnings and notes, its headings."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.bars, self.warnings, self.notes, self.headings = {}, [], [], [], []
        self.links = []
        self._in, self._table, self._row, self._cell, self._text = False, None, None, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "h2":
            self._in = a.get("id") == "samples"
        if not self._in:
            return
        if tag == "table":
            self._table = self.tables.setdefault(a.get("class"), [])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "span" and a.get("class") in ("share", "error"):
            self.bars.append((a["class"], a["style"]))
        elif tag in ("h3", "li") or (tag == "p" and a.get("class") in ("warn", "note")):
            self._text = (tag, a.get("class"), "")

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._text:
            self._text = self._text[:2] + (self._text[2] + data,)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._table.append(self._row)
            self._row = None
        elif self._text and tag == self._text[0]:
            kind, cls, text = self._text
            {"h3": self.headings, "li": self.notes}.get(kind, self.warnings if cls == "warn" else self.notes) \
                .append(" ".join(text.split()))
            self._text = None


def page_of(tmp_path, *logs):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["report", *logs, "-o", str(tmp_path / "out"), "--histograms", "0"])
    assert code == 0, err.getvalue()
    return open(tmp_path / "out" / "index.html", encoding="utf-8").read()


@pytest.fixture(scope="module")
def sampled(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sampled")
    text = page_of(tmp, logsynth.sampled_log(str(tmp / "sampled.log")), logsynth.path("pentium"))
    return tmp, text, Section(text)


@needs_objdump
def test_each_instruction_is_a_row_with_its_share_and_error(sampled):
    _, _, section = sampled
    assert section.tables["samples"] == [["offset", "instruction", "samples", "share ± error", "share"],
                                         ["0", "imul eax,ebx", "600", "60.0 % ± 1.5 %", ""],
                                         ["3", "add eax,ebx", "400", "40.0 % ± 1.5 %", ""]]
    # The bar is the share; the line across it spans ± one error, sqrt(0.24 / 1000) = 1.549 %.
    assert section.bars == [("share", "width:60.00%"), ("error", "left:58.45%;width:3.10%"),
                            ("share", "width:40.00%"), ("error", "left:38.45%;width:3.10%")]


@needs_objdump
def test_the_counts_outside_the_body_the_skid_and_the_trust_are_said(sampled):
    _, _, section = sampled
    assert section.headings[:2] == ["snippet in sampled: INST_RETIRED every 997 events",
                                    "snippet in sampled: cycle by cycle"]
    assert section.notes[1:6] == [
        "snippet: 1020 samples of INST_RETIRED every 997 events in 3 runs, 1000 in the body (8 copies of 5 bytes); "
        "shares of the 1000 samples in the body",
        "13 samples in the loop, 5 elsewhere, 2 in the interrupt handler; 7 lost (the kernel's buffer was full; "
        "not counted above)",
        "skid: 0 instructions (measured); delivery: PMI, local APIC vector 34",
        "run trust: trusted",
        "5 steps, each one run stopped after k cycles; 4 instructions retired before the first copy. Each step "
        "is one observation: where it stood moves with the interrupt's skid."]
    assert "sqrt(p(1-p)/n)" in section.notes[0] and section.warnings == []


@needs_objdump
def test_the_cycles_timeline_is_a_small_table(sampled):
    _, _, section = sampled
    assert section.tables["cycles"] == [["cycle", "retired", "copy", "offset", "instruction"],
                                        ["1", "0", "0", "0", "imul eax,ebx"],
                                        ["2", "0", "0", "0", "imul eax,ebx"],
                                        ["3", "1", "0", "3", "add eax,ebx"],
                                        ["4", "4", "-", "-", "(the loop's own instructions)"],
                                        ["5", "-", "-", "-", "(no interrupt within the run)"]]


def test_the_section_is_listed_and_comes_after_the_distributions(sampled):
    _, text, section = sampled
    assert "#samples" in section.links
    assert text.index("<h2 id='distributions'>") < text.index("<h2 id='samples'>")


def test_a_failed_record_shows_its_reason(tmp_path):
    failed = {"type": "sample", "name": "snippet", "source": "time", "event": "time", "period": 100,
              "failed": "no timer interrupt here"}
    section = Section(page_of(tmp_path, logsynth.sampled_log(str(tmp_path / "f.log"), extra=(failed,))))
    assert section.headings == ["snippet in f: time every 100 µs"]
    assert section.warnings == ["Sampling failed: no timer interrupt here"]
    assert "samples" not in section.tables


def test_without_sampled_benchmarks_the_section_says_how_to_get_them(tmp_path):
    section = Section(page_of(tmp_path, logsynth.path("pentium")))
    assert section.notes == ["No sampled benchmark in these logs: run with the options sample=EVENT:PERIOD or "
                             "cycles=K (cyclekit snippet --sample, --cycles)."]


@needs_objdump
def test_time_samples_of_an_untrusted_run_say_whose_time_they_measured(tmp_path):
    timed = dict(logsynth.SAMPLE_REC, source="time", event="time", period=100, unit="us", skid=None,
                 skid_why="time-based: no instructions event to measure it by")
    section = Section(page_of(tmp_path, logsynth.sampled_log(str(tmp_path / "t.log"), "tcg", extra=(timed,))))
    assert section.warnings == ["This run's timer is not the hardware's (an emulator, or a timer that failed its "
                                "check): time-based samples say where the emulator's time went, not the CPU's."]
    assert "run trust: untrusted" in section.notes


@needs_objdump
def test_the_page_with_its_bars_in_headless_chromium(sampled, browser):
    tmp, _, _ = sampled
    shot = tmp / "screenshot.png"
    dom = browser.page("file://" + str(tmp / "out" / "index.html"), window=(1280, 2400), screenshot=shot)
    body = dom[dom.index("<body"):].split(">", 1)[0]
    assert "data-errors" not in body, body
    assert "<h2 id=\"samples\">Where the samples fall</h2>" in dom
    assert open(shot, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
