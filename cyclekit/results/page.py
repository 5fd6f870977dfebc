"""The report page: one self-contained HTML file (figures embedded as data: URIs).

Sections, what a reader came for first: the runs and their machines (a
column per log), the comparison (two or more logs), the memory-latency
curves (mem/chase and mem64/chase; runs on silicon with a trusted timer in
one figure, emulated or untrusted runs in another: never one family of
curves), how far the results can be trusted (each run's verdict, then the
marked results and their reasons, folded), the expectation verdicts, the
raw-sample distributions, and where the samples fall inside sampled bodies
(results/sample_section.py). Tables give each result's trust marks (cyclekit/trust.py). Every figure is an <img class="figure" id="fig-..."> so a
test (or a reader) can find each one; a short script records on <body> how
many figures the browser decoded (data-figures-decoded) and any script error
(data-errors), which is how the headless-browser test sees a broken page.
"""
import base64
import datetime
import html

from cyclekit import trust
from cyclekit.results import compare, sample_section
from cyclekit.results.runlog import size_text

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; vertical-align: top; }
th { overflow-wrap: normal; word-break: normal; hyphens: none; }
td { max-width: 32em; overflow-wrap: break-word; }
table.runs th { white-space: nowrap; }
table.runs td { min-width: 12em; }
nav.contents { font-size: 0.9em; }
details > summary { cursor: pointer; margin: 0.3em 0; }
td.num { text-align: right; font-family: monospace; }
td.ratio.exceeds { background: #ffe08a; font-weight: bold; }
td.marks { font-family: monospace; }
td.marked { background: #fde9d9; }
.warn { background: #fdd; border: 1px solid #c00; padding: 0.4em; }
.note { color: #555; font-size: 0.9em; }
img.figure { border: 1px solid #ddd; margin: 4px; }
.hists img.figure { width: 380px; }
"""

CHECK_SCRIPT = """
window.addEventListener('error', function (e) {
  document.body.dataset.errors = (document.body.dataset.errors || '') + (e.message || 'resource failed') + ';';
}, true);
window.addEventListener('load', function () {
  var figs = document.querySelectorAll('img.figure'), ok = 0;
  for (var i = 0; i < figs.length; i++) if (figs[i].complete && figs[i].naturalWidth > 0) ok++;
  document.body.dataset.figures = figs.length;
  document.body.dataset.figuresDecoded = ok;
});
"""


def esc(v):
    return html.escape("-" if v is None else str(v))


def fmt(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"


def img(fig_id, png, alt):
    data = base64.b64encode(png).decode("ascii")
    return f'<img class="figure" id="{esc(fig_id)}" alt="{esc(alt)}" src="data:image/png;base64,{data}">'


def table(head, rows, row_classes=None, cls=None):
    out = [f"<table{f' class={chr(34)}{cls}{chr(34)}' if cls else ''}><tr>"
           + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(cell if cell.startswith(("<td", "<th")) else f"<td>{esc(cell)}</td>"
                                          for cell in row) + "</tr>")
    return "\n".join(out) + "</table>"


def split_by_trust(runs):
    """(silicon, apart): the runs whose timing is the hardware's, and the emulated or untrusted
    ones, each in the given order; the two are never drawn as one family of curves."""
    return [r for r in runs if not r.untrusted], [r for r in runs if r.untrusted]


def marks_cell(marks):
    return f'<td class="marks{"" if marks in ("ok", "-") else " marked"}">{esc(marks)}</td>'


def run_trust_text(run):
    state = run.trust_state
    where = state.platform or "?"
    if state.hypervisor and state.platform != "emulator":
        where += f" under {state.hypervisor}"
    n = trust.flagged_count(state, run.all_marks())
    return f"{run.trust_verdict}: {where}, {n} of {len(run.all_marks())} results marked"


def counts(run):
    """The outcome, counted as `db import` and `db runs` count it (runlog.Run.counts): the
    results by their trust marks, the expectation verdicts, the skips and faults."""
    c = run.counts()
    return (f"{run.count_text()}; of the {c['results']} results: {c['ok']} ok, {c['flagged']} flagged, "
            f"{c['untrusted']} untrusted (their marks); expectations: {c['expect_ok']} ok, "
            f"{c['expect_off']} off")


def breakable(text):
    """text escaped, with a break opportunity after each comma and slash (options, SMBIOS)."""
    return "<td>" + esc(text).replace(",", ",<wbr>").replace("/", "/<wbr>") + "</td>"


SUMMARY_FIELDS = ["machine", "platform", "firmware / OS", "SMBIOS", "microcode", "build", "run id",
                  "options", "log state", "timing trust", "outcome", "run trust"]


def summary(runs):
    """The runs and their machines: a row per field, a column per log (13 fields side by side
    left each a sliver of the page)."""
    cols = []
    for run in runs:
        trust = run.trust.get("why") if isinstance(run.trust.get("why"), str) else ""
        trust = ("trusted" if run.trusted else "NOT trusted" if run.trusted is False else "?") + (
            f": {trust}" if trust else "")
        smbios = ", ".join(f"{k}={v}" for k, v in run.smbios.items()) or "none in the log"
        state = "complete" if run.complete else "INCOMPLETE: " + "; ".join(run.problems)
        cols.append([run.machine_label(), run.platform_kind or "?",
                     str(run.platform.get("firmware") or run.platform.get("os") or "-"), breakable(smbios),
                     run.machine()["microcode"] or "-",
                     f"{run.version or '?'}, built {run.built or '?'} by {run.compiler or '?'}",
                     run.run_id or "-", breakable(run.cmdline or ""), f"{state}, status {run.status}",
                     trust, counts(run), run_trust_text(run)])
    rows = [[f"<th>{esc(field)}</th>"] + [col[k] for col in cols] for k, field in enumerate(SUMMARY_FIELDS)]
    return table(["log"] + [run.label for run in runs], rows, cls="runs")


def comparison_table(runs, rows):
    head = ["benchmark", "unit"] + [h for r in runs for h in (f"{r.label}", "trust")] + [
        f"{r.label} / {runs[0].label}" for r in runs[1:]]
    body, classes = [], []
    for row in rows:
        unit = next((c.unit for c in row.cells if c.unit), "-")
        vals = [f'<td class="num">{fmt(c.value)}' + (f" ± {fmt(c.spread)}" if c.spread is not None else "")
                + "</td>" + marks_cell(run.result(row.name).mark_text if run.result(row.name) else "-")
                for c, run in zip(row.cells, runs)]
        ratios = []
        for c in row.cells[1:]:
            mark = " *" if c.exceeds else ""
            ratios.append(f'<td class="num ratio{" exceeds" if c.exceeds else ""}">{fmt(c.ratio, 3)}{mark}</td>')
        body.append([row.name, unit] + vals + ratios)
        classes.append("exceeds" if any(c.exceeds for c in row.cells[1:]) else "")
    return table(head, body, classes)


def expectations(runs):
    rows = []
    for run in runs:
        for r in run.measured():
            if r.expect_uarch is None:
                continue
            rows.append([r.name, run.label, r.expect_uarch, f'<td class="num">{fmt(r.expect_cycles)}</td>',
                         f'<td class="num">{fmt(r.expect_tolerance)}</td>',
                         f'<td class="num">{fmt(r.cycles)}</td>', r.cycles_unit or "-", r.verdict or "-",
                         marks_cell(r.mark_text)])
    if not rows:
        return '<p class="note">No result in these logs states an expectation for its CPU.</p>'
    rows.sort(key=lambda r: (r[2] != "P5", r[0], r[1]))
    return table(["benchmark", "log", "expected on", "cycles expected", "tolerance", "cycles measured",
                  "cycles are", "verdict", "trust"], rows)


def trust_section(runs):
    """Each run's verdict and the legend, then the marked results with their reasons, folded
    (a <details> a reader opens): on an untrusted run the results marked U alone are one row
    (their reason is the run's)."""
    all_marks = [m for run in runs for m in run.all_marks()]
    key = trust.legend(all_marks)
    parts = ["<ul>" + "".join(f"<li>{esc(run.label)}: {esc(run_trust_text(run))}</li>" for run in runs) + "</ul>",
             f"<p class='note'>{esc(key) if key else 'Every result is stable on a trusted timer (ok).'}</p>"]
    rows = []
    for run in runs:
        only_u = [r for r in run.measured() if r.mark_text == "U"]
        if only_u:
            rows.append([run.label, f"{len(only_u)} results", marks_cell("U"), "-",
                         run.trust_state.why or "the timer is not trusted"])
        for r in run.measured():
            if r.mark_text not in ("ok", "U"):
                # The timer's words are the run's, said once in its row above.
                rows.append([run.label, r.name, marks_cell(r.mark_text), r.marks.judgement or "-",
                             trust.own_reason(r.marks) or "-"])
    if rows:
        parts.append(f"<details id='trust-rows'><summary>The marked results and why ({len(rows)} rows)</summary>"
                     + table(["log", "benchmark", "marks", "judgement", "reason"], rows) + "</details>")
    return "\n".join(parts)


def latency_section(runs, figs):
    silicon, apart = split_by_trust(runs)
    parts = ["<h2 id='latency'>Memory latency</h2>", "<h3 id='latency-silicon'>On silicon, trusted timer</h3>"]
    labels = ", ".join(r.label for r in silicon if r.chase_points())
    parts.append(img("fig-latency", figs["latency"], f"memory latency on silicon: {labels}") if figs.get("latency")
                 else "<p class='note'>No pointer-chase results from silicon with a trusted timer in these logs "
                      "(bench=mem/chase/* on a 32-bit run, bench=mem64/chase/* on a 64-bit one).</p>")
    if apart:
        labels = ", ".join(r.label for r in apart if r.chase_points())
        parts.append("<h3 id='latency-untrusted'>Emulated or untrusted timer: not the hardware's latency</h3>")
        parts.append(img("fig-latency-untrusted", figs["latency-untrusted"],
                         f"memory latency, emulated or untrusted: {labels}") if figs.get("latency-untrusted")
                     else "<p class='note'>No pointer-chase results in the emulated or untrusted runs.</p>")
    short = [(run, name, size, want) for run in runs for name, size, want in run.chase_short()]
    if short:
        parts.append("<ul class='note'>" + "".join(
            f"<li>{esc(run.label)}: {esc(name)} covers {esc(size_text(size))}, not {esc(size_text(want))} "
            f"(4 x the last-level cache): {esc(short_why(run, want))}</li>"
            for run, name, size, want in short) + "</ul>")
    return parts


def short_why(run, want):
    """Why a run's 4xLLC chase fell short: the runner's own note (kernel/hosted/platform.c), else
    the hosted runner's hostmem, else the machine's memory."""
    for note in run.log.of_type("note"):
        if note.get("topic") == "memory" and str(note.get("text", "")).startswith("4 x the last-level cache"):
            return str(note["text"])
    if run.platform_kind == "hosted":
        mib = run.platform.get("big_memory_mib")
        need = (want >> 20) + 2
        return (f"the hosted runner mapped {mib} MiB; hostmem={need} maps enough, where the host has the memory"
                if isinstance(mib, int) else f"hostmem={need} maps enough, where the host has the memory")
    return "the machine's memory above 1 MiB is smaller"


def render(runs, figs, hists, tables_html=""):
    """The page. figs: {"latency": png|None, "latency-untrusted": png|None, "comparison": png|None};
    hists: [(run, result, png)]; tables_html: the instruction tables' section
    (results.table_section), last."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>cyclekit report</title>"
             f"<style>{STYLE}</style><script>{CHECK_SCRIPT}</script></head><body>",
             f"<h1>cyclekit report</h1><p class='note'>{len(runs)} log(s), made {now} by cyclekit report.</p>"]
    for run in runs:
        if not run.complete:
            parts.append(f"<p class='warn'>{esc(run.path)} is incomplete: {esc('; '.join(run.problems))}. "
                         "Its records up to the cut are shown.</p>")
    sections = [("runs", "Runs and machines")] + ([("comparison", "Comparison")] if len(runs) > 1 else []) + [
        ("latency", "Memory latency"), ("trust", "Trust"), ("expectations", "Expectations"),
        ("distributions", "Distributions"), ("samples", "Where the samples fall")] + (
        [("instruction-table", "Instruction tables")] if tables_html else [])
    parts.append("<nav class='contents'>" + " · ".join(f"<a href='#{k}'>{esc(t)}</a>" for k, t in sections)
                 + "</nav>")
    parts += ["<h2 id='runs'>Runs and machines</h2>", summary(runs)]
    if len(runs) > 1:
        rows = compare.rows(runs)
        parts += ["<h2 id='comparison'>Comparison</h2>",
                  f"<p class='note'>Ratios to the first log, {esc(runs[0].label)}. Values are core "
                  "cycles where both runs have cycles, else ticks (never one divided by the other). "
                  "Values are shown ± each run's standard deviation per body; a ratio marked * (highlighted) "
                  "differs from the first log by more than the two runs' spreads together. Each value's "
                  "trust marks are beside it (the letters: <a href='#trust'>Trust</a>).</p>"]
        if figs.get("comparison"):
            parts.append(img("fig-comparison", figs["comparison"], "comparison per benchmark"))
        parts.append(comparison_table(runs, rows))
    parts += latency_section(runs, figs)
    parts += ["<h2 id='trust'>Trust</h2>", trust_section(runs)]
    parts += ["<h2 id='expectations'>Expectations (P5 and modern cores)</h2>", expectations(runs),
              "<h2 id='distributions'>Distributions of the raw samples</h2>"]
    if hists:
        parts.append("<div class='hists'>")
        for k, (run, res, png) in enumerate(hists):
            parts.append(img(f"fig-hist-{k}", png, f"{res.name} in {run.label} [{res.mark_text}]"))
        parts.append("</div>")
    else:
        parts.append("<p class='note'>No raw samples in these logs: boot with the <code>raw</code> "
                     "option to record every sample.</p>")
    parts.append(sample_section.section(runs))
    parts.append(tables_html)
    parts.append("</body></html>")
    return "\n".join(parts)
