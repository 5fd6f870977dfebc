"""`cyclekit report` on the committed logs of three QEMU CPU models and the
hosted runner: the page's figures and tables against the logs' own numbers,
and the page rendered by a real browser (headless chromium)."""
import contextlib
import html.parser
import io

import pytest

import logsynth
from cyclekit import cli
from cyclekit.results import compare, runlog

PNG = b"\x89PNG\r\n\x1a\n"
SUMMARY_FIELDS = ["machine", "platform", "firmware / OS", "SMBIOS", "microcode", "build", "run id",
                  "options", "log state", "timing trust", "outcome", "run trust"]


def summary_of(page):
    """The Runs and machines table (a row per field, a column per log): {log: {field: text}}."""
    at = next(i for i, r in enumerate(page.rows) if r and r[0] == "log" and page.rows[i + 1][0] == "machine")
    labels = page.rows[at][1:]
    rows = page.rows[at + 1: at + 1 + len(SUMMARY_FIELDS)]
    assert [r[0] for r in rows] == SUMMARY_FIELDS
    return {label: {r[0]: r[k + 1] for r in rows} for k, label in enumerate(labels)}


def report(out, *logs, extra=()):
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        code = cli.main(["report", *logs, "-o", str(out), *extra])
    return code, e.getvalue()


class Page(html.parser.HTMLParser):
    """The figures (id -> decoded PNG bytes) and table cells of a report page."""

    def __init__(self, text):
        super().__init__()
        self.figures, self.rows, self._row, self._cell = {}, [], None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img" and "figure" in a.get("class", ""):
            import base64
            self.figures[a["id"]] = base64.b64decode(a["src"].split(",", 1)[1])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._row is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr":
            self.rows.append(self._row)
            self._row = None


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    code, err = report(out, *[logsynth.path(n) for n in logsynth.NAMES])
    assert code == 0, err
    return out, Page(open(out / "index.html", encoding="utf-8").read())


def result_rec(name, bench):
    return [r for r in logsynth.records(name) if r.get("type") == "result" and r["name"] == bench][0]


def test_every_figure_is_embedded_and_written(four):
    out, page = four
    hists = [k for k in page.figures if k.startswith("fig-hist-")]
    # Raw samples are in the pentium and max logs only: one histogram per result of those.
    n_raw = sum(len([r for r in logsynth.records(n) if r["type"] == "samples"]) for n in logsynth.NAMES)
    raw_results = sum(len([r for r in logsynth.records(n) if r["type"] == "result"]) for n in ("pentium", "max"))
    assert n_raw == raw_results > 0 and len(hists) == n_raw
    # The four committed logs are QEMU TCG runs: their curves are drawn apart, none on silicon.
    assert {"fig-latency-untrusted", "fig-comparison"} <= set(page.figures)
    assert "fig-latency" not in page.figures
    for fig_id, png in page.figures.items():
        assert png.startswith(PNG), fig_id
        assert open(out / (fig_id[4:] + ".png"), "rb").read() == png


def test_summary_names_each_machine_and_build(four):
    _, page = four
    rows = summary_of(page)
    assert list(rows) == list(logsynth.NAMES)
    assert rows["pentium"]["machine"].startswith("Pentium MMX (P55C) (GenuineIntel 5/4/3)")
    assert rows["486"]["machine"].startswith("i486DX4 (GenuineIntel 4/8/0)")
    assert rows["hosted"]["platform"] == "hosted" and rows["max"]["platform"] == "bare"
    for name in logsynth.NAMES:
        begin = logsynth.records(name)[0]
        assert rows[name]["run id"] == begin["run"]
        assert rows[name]["build"].startswith(begin["version"])
        assert rows[name]["options"] == begin["cmdline"]


def test_comparison_ratios_are_the_logs_values(four):
    _, page = four
    head = next(r for r in page.rows if r and r[0] == "benchmark" and "max / pentium" in r)
    row = next(r for r in page.rows if r and r[0] == "lat/imul" and len(r) == len(head))
    a, b = result_rec("pentium", "lat/imul"), result_rec("max", "lat/imul")
    assert row[1] == "cycles"
    assert row[head.index("max / pentium")].rstrip(" *") == f'{b["cycles"] / a["cycles"]:.3f}'


def test_spread_rule():
    # |b - a| against the sum of the two spreads: beyond, within, unknown.
    assert compare.differs(10.0, 1.0, 12.5, 1.0) is True
    assert compare.differs(10.0, 1.0, 11.5, 1.0) is False
    assert compare.differs(10.0, None, 20.0, 1.0) is None


def test_spread_is_scaled_into_cycles():
    rec = result_rec("max", "lat/imul")
    r = runlog.Result(rec)
    assert r.value == (rec["cycles"], "cycles")
    assert r.spread == pytest.approx(rec["stats"]["stddev"] * rec["cycles"] / rec["ticks"])


def test_raw_samples_give_the_result():
    # The median of (t(2U) - t(U)) / (U*L) over the samples is the result, to the log's 0.01.
    run = runlog.load(logsynth.path("pentium"))
    checked = 0
    for res in run.measured():
        vals = sorted(res.per_body())
        assert len(vals) == 31, res.name
        assert abs(vals[15] - res.ticks) <= 0.005 + 1e-9, res.name
        checked += 1
    assert checked == len([r for r in logsynth.records("pentium") if r["type"] == "result"]) > 0


def test_latency_curve_points_and_caches():
    run = runlog.load(logsynth.path("max"))
    curve = run.chase_curve()
    llc = result_rec("max", "mem/chase/4xLLC")
    # The ten sizes by name, and 4xLLC at the working set its record gives.
    assert [p[0] for p in curve] == [1 << 10, 4 << 10, 16 << 10, 32 << 10, 64 << 10, 256 << 10,
                                     1 << 20, 4 << 20, 16 << 20, 64 << 20, llc["working_set"]]
    assert curve[0][1:] == (result_rec("max", "mem/chase/1K")["cycles"], "cycles")
    assert (llc["working_set"], llc["cycles"], "cycles") in curve
    assert run.caches() == [("L1d", 65536), ("L2", 524288), ("L3", 16777216)]


def test_expectation_table_lists_p5_verdicts(four):
    _, page = four
    rows = [r for r in page.rows if r and len(r) == 9 and r[2] == "P5"]
    want = [r for r in logsynth.records("pentium") if r.get("type") == "result" and r.get("expect")]
    assert sorted(r[0] for r in rows) == sorted(r["name"] for r in want)
    assert all(r[7] == "untrusted timing" for r in rows)   # TCG: the trust check says so
    marks = {r["name"]: "U" if r["stable"] else "US" for r in want}     # none has over 5 % negatives
    assert all(r["negative"] * 1000 <= 50 * r["samples"] for r in want)
    assert {r[0]: r[8] for r in rows} == marks


def test_incomplete_log_is_shown_with_its_problem(tmp_path):
    text = open(logsynth.path("max"), "rb").read()
    cut = tmp_path / "cut.log"
    cut.write_bytes(text[: len(text) * 2 // 3])
    code, err = report(tmp_path / "out", logsynth.path("pentium"), str(cut), extra=["--histograms", "0"])
    assert code == 1
    assert "cut.log is incomplete" in err and "truncated" in err
    assert "is incomplete: " in open(tmp_path / "out" / "index.html").read()


def test_missing_log_is_an_error(tmp_path):
    code, err = report(tmp_path / "out", str(tmp_path / "nonesuch.log"))
    assert code == 2 and "cannot read" in err and "nonesuch.log" in err


def test_page_in_headless_chromium(four, browser):
    """The page as a browser shows it: loads without a script or resource
    error, and decodes every figure; the screenshot is kept beside the page."""
    out, page = four
    shot = out / "screenshot.png"
    dom = browser.page("file://" + str(out / "index.html"), window=(1280, 2400), screenshot=shot)
    body = dom[dom.index("<body"):].split(">", 1)[0]
    n = len(page.figures)
    assert f'data-figures="{n}"' in body and f'data-figures-decoded="{n}"' in body, body
    assert "data-errors" not in body, body
    assert open(shot, "rb").read(8) == PNG
    print(f"screenshot: {shot}")


def test_microcode_is_shown_in_hex():
    assert runlog.microcode_text(16777317) == "0x1000065"
    assert runlog.microcode_text(None) is None and runlog.microcode_text(True) is None


def test_ticks_of_different_clocks_are_not_compared():
    tsc = runlog.Result({"type": "result", "name": "x", "ticks": 2.0, "time_unit": "tsc"})
    pit = runlog.Result({"type": "result", "name": "x", "ticks": 0.5, "time_unit": "pit/1000"})
    assert compare.common_unit([tsc, tsc]) == "ticks"
    assert compare.common_unit([tsc, pit]) is None


def test_smbios_names_the_machine(tmp_path):
    # The platform record's SMBIOS strings (where the kernel found them) are part
    # of the machine's identity and its label; other SMBIOS data (lists) are not.
    recs = logsynth.records("pentium")
    plat = next(r for r in recs if r["type"] == "platform")
    plat["smbios"] = {"system_manufacturer": "Dell Inc.", "system_product": "OptiPlex 7010",
                      "bios_version": "A29", "memory": [{"size_mib": 4096, "speed_mts": 1600}]}
    run = runlog.load(logsynth.write(str(tmp_path / "dell.log"), recs))
    assert run.complete
    m = run.machine()
    assert (m["system_manufacturer"], m["system_product"], m["bios_version"]) == ("Dell Inc.", "OptiPlex 7010", "A29")
    assert "memory" not in m
    assert run.machine_label() == "Pentium MMX (P55C) (GenuineIntel 5/4/3) on Dell Inc. OptiPlex 7010"
    plain = runlog.load(logsynth.path("pentium"))
    from cyclekit.results import store
    assert store.identity_of(plain.machine()) != store.identity_of(m)


def silicon_log(path):
    """The committed hosted log (run under qemu-i386, so QEMU TCG) as if it had run on silicon
    under KVM with a trusted timer: its cpu and trust records changed, its numbers kept."""
    recs = logsynth.records("hosted")
    for r in recs:
        if r["type"] == "cpu":
            r.update(hypervisor="KVMKVMKVM", hypervisor_name="KVM")
        elif r["type"] == "trust":
            r.update(trusted=True, why="plausible (1000 dependent ADDs: 770 ticks)")
        elif r["type"] == "result":
            r["trusted"] = True
    return logsynth.write(str(path), recs)


def test_a_tcg_run_and_a_silicon_run_are_drawn_apart(tmp_path, monkeypatch):
    """One QEMU TCG run and one hosted run on silicon: each latency figure holds one of them
    (never one family of curves), the page says which, and the tables carry the marks."""
    from cyclekit.results import figures
    drawn = {}
    real = figures.latency_curve

    def spy(runs, title="Memory latency: pointer chase"):
        drawn[title] = [r.label for r in runs]
        return real(runs, title)
    monkeypatch.setattr(figures, "latency_curve", spy)
    out = tmp_path / "out"
    code, err = report(out, logsynth.path("max"), silicon_log(tmp_path / "kvm.log"), extra=["--histograms", "0"])
    assert code == 0, err
    assert drawn == {"Memory latency on silicon: pointer chase": ["kvm"],
                     "NOT the hardware's latency: emulated or untrusted runs, pointer chase": ["max"]}
    text = open(out / "index.html", encoding="utf-8").read()
    page = Page(text)
    assert {"fig-latency", "fig-latency-untrusted"} <= set(page.figures)
    assert 'alt="memory latency on silicon: kvm"' in text
    assert 'alt="memory latency, emulated or untrusted: max"' in text
    assert (out / "latency.png").read_bytes() == page.figures["fig-latency"]
    summary = summary_of(page)
    n = len([r for r in logsynth.records("max") if r["type"] == "result"])
    assert summary["max"]["run trust"] == f"untrusted: emulator, {n} of {n} results marked"
    # The committed hosted log: calib/empty has 6 of 31 samples negative, and six results are unstable.
    marked = {"branch/random": "S", "calib/empty": "SN", "mem/chase/1M": "S", "mem/chase/4M": "S",
              "mem/chase/16M": "S", "mem/chase/64M": "S", "mem/chase/4xLLC": "S"}
    assert summary["kvm"]["run trust"] == "flagged: silicon under KVM, 7 of 21 results marked"
    # The comparison table: a trust cell beside each run's value.
    head = next(r for r in page.rows if r and r[0] == "benchmark" and "kvm / max" in r)
    assert head[2:6] == ["max", "trust", "kvm", "trust"]
    cells = {r[0]: (r[3], r[5]) for r in page.rows if r and len(r) == len(head) and r[0] != "benchmark"}
    assert cells["lat/add"] == ("U", "ok") and cells["calib/empty"] == ("USN", "SN")
    assert cells["branch/random"] == ("US", "S")
    # The trust section: the emulated run's U-only results in one row, each silicon mark with its reason.
    trust_rows = [r for r in page.rows if r and len(r) == 5 and r[0] in ("max", "kvm")]
    assert {r[1]: r[2] for r in trust_rows if r[0] == "kvm"} == marked
    assert next(r[4] for r in trust_rows if r[1] == "calib/empty" and r[0] == "kvm") == \
        "6 of 31 samples had fewer ticks with 16 copies than with 8"
    only_u = [r for r in trust_rows if r[0] == "max" and r[1].endswith(" results")]
    assert len(only_u) == 1 and only_u[0][2] == "U" and only_u[0][4].startswith("QEMU TCG emulates this CPU")


def test_a_hosted_64_bit_log_draws_its_memory_curve(tmp_path, monkeypatch):
    """A hosted 64-bit run has mem64/chase, never mem/chase: its curve is drawn (silicon, trusted),
    its 4xLLC point at the working set it got, and the page says why that is short of 4 x the LLC."""
    from cyclekit.results import figures
    drawn = {}
    real = figures.latency_curve

    def spy(runs, title="Memory latency: pointer chase"):
        drawn[title] = {r.label: r.chase_families() for r in runs}
        return real(runs, title)
    monkeypatch.setattr(figures, "latency_curve", spy)
    out = tmp_path / "out"
    code, err = report(out, logsynth.hosted64_log(str(tmp_path / "h64.log")), extra=["--histograms", "0"])
    assert code == 0, err
    families = drawn["Memory latency on silicon: pointer chase"]["h64"]
    assert list(families) == ["mem64/chase"]
    pts = families["mem64/chase"]
    big = (256 << 20) - 64
    assert [p[0] for p in pts] == [size for _, size in logsynth.HOSTED64_SIZES] + [big]
    assert [p[1] for p in pts] == list(logsynth.HOSTED64_CYCLES) + [120.0]
    assert {p[2] for p in pts} == {"cycles"} and {p[3] for p in pts} == {"ok"}
    text = open(out / "index.html", encoding="utf-8").read()
    page = Page(text)
    assert "fig-latency" in page.figures and 'alt="memory latency on silicon: h64"' in text
    assert (out / "latency.png").read_bytes() == page.figures["fig-latency"]
    assert "No pointer-chase results" not in text and "run with bench=mem/chase" not in text
    assert ("h64: mem64/chase/4xLLC covers 256M, not 1920M (4 x the last-level cache): the hosted runner "
            "mapped 256 MiB; hostmem=1922 maps enough") in text


def test_without_a_chase_the_page_names_both_families(tmp_path):
    recs = [r for r in logsynth.hosted64_records() if "chase" not in r.get("name", "")]
    code, err = report(tmp_path / "out", logsynth.write(str(tmp_path / "nochase.log"), recs),
                       extra=["--histograms", "0"])
    assert code == 0, err
    text = open(tmp_path / "out" / "index.html", encoding="utf-8").read()
    assert "bench=mem/chase/* on a 32-bit run, bench=mem64/chase/* on a 64-bit one" in text


def test_the_outcome_counts_as_the_run_trust_and_db_import_count(four, tmp_path):
    """One count everywhere: the Runs table's outcome, its run trust and `db import` agree on a
    QEMU run (every result untrusted) and on the hosted 64-bit run (skips not counted as results)."""
    _, page = four
    rows = summary_of(page)
    for name in logsynth.NAMES:
        recs = logsynth.records(name)
        n = len([r for r in recs if r["type"] == "result"])
        skipped = len([r for r in recs if r["type"] == "skip"])
        outcome, trust_text = rows[name]["outcome"], rows[name]["run trust"]
        assert outcome.startswith(f"{n} results, {skipped} skipped; of the {n} results: 0 ok, 0 flagged, "
                                  f"{n} untrusted (their marks)"), outcome
        assert trust_text == f"untrusted: emulator, {n} of {n} results marked"
    h64 = logsynth.hosted64_log(str(tmp_path / "h64.log"))
    run = runlog.load(h64)
    assert run.counts()["results"] == 13 and run.counts()["skipped"] == 2 and run.count_text() == \
        "13 results, 2 skipped"
    db = str(tmp_path / "r.db")
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        code = cli.main(["db", "--db", db, "import", h64, logsynth.path("max")])
    assert code == 0, e.getvalue()
    lines = o.getvalue().splitlines()
    assert lines[0] == f"{h64}: stored as run 1 (13 results, 2 skipped)"
    assert lines[1].endswith("stored as run 2 (" + runlog.load(logsynth.path("max")).count_text() + ")")
    code, err = report(tmp_path / "out", h64, extra=["--histograms", "0"])
    outcome = summary_of(Page(open(tmp_path / "out" / "index.html", encoding="utf-8").read()))["h64"]["outcome"]
    assert outcome == "13 results, 2 skipped; of the 13 results: 13 ok, 0 flagged, 0 untrusted (their marks); " \
                      "expectations: 0 ok, 0 off"


def test_the_comparison_comes_before_the_folded_trust_rows(four):
    out, page = four
    text = open(out / "index.html", encoding="utf-8").read()
    order = [text.index(f"<h2 id='{k}'>") for k in ("runs", "comparison", "latency", "trust", "expectations")]
    assert order == sorted(order)
    # The marked rows are folded: a <details> whose summary says how many rows it holds.
    details = text[text.index("<details id='trust-rows'>"):text.index("</details>")]
    n = details.count("<tr>") - 1
    assert n > 4 and f"The marked results and why ({n} rows)</summary>" in details
    # Headings never break inside a word (only the values may wrap, at their commas and slashes).
    assert "overflow-wrap: anywhere" not in text and "th { overflow-wrap: normal; word-break: normal;" in text


def test_the_comparison_legend_covers_no_bar(monkeypatch):
    """The legend sits outside the axes, above them: its box and the axes' do not overlap."""
    from cyclekit.results import figures
    seen = []
    real = figures._png

    def keep(fig):
        fig.canvas.draw()
        ax = fig.axes[0]
        seen.append((ax.get_legend().get_window_extent(), ax.get_window_extent()))
        return real(fig)
    monkeypatch.setattr(figures, "_png", keep)
    runs = [runlog.load(logsynth.path(n)) for n in logsynth.NAMES]
    assert figures.comparison(runs, compare.rows(runs)).startswith(PNG)
    legend, axes = seen[0]
    assert legend.y0 >= axes.y1, (legend, axes)


def test_two_machines_tables_are_compared_in_the_report(tmp_path):
    a = logsynth.table_dir(str(tmp_path / "rocket"), "rocket")
    b = logsynth.table_dir(str(tmp_path / "zen4"), "zen4")
    code, err = report(tmp_path / "out", logsynth.path("max"), a, b, extra=["--histograms", "0"])
    assert code == 0 and "2 instruction tables" in err, err
    text = open(tmp_path / "out" / "index.html", encoding="utf-8").read()
    assert "<h3 id='table-comparison'>Instruction tables compared</h3>" in text
    page = Page(text[text.index("id='table-comparison'"):])
    head = next(r for r in page.rows if r and r[0] == "form")
    rows = [r for r in page.rows if r and len(r) == len(head) and r[0] != "form"]
    assert [(r[0], r[head.index("latency A") + 2], r[head.index("throughput A") + 2]) for r in rows] == [
        ("VPADDDZrr", "1.00", "2.00 *"), ("IMUL64rr", "1.33 *", "1.00")]
    assert "4 forms measured in both; 2 differ" in text
