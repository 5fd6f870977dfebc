"""The report's section "Where the samples fall": each sampled benchmark's body, annotated.

For every `sample` record of every run (cyclekit/samples.py reads and
disassembles it): a table with a row per instruction of one copy of the body,
its samples, its share of the body's samples ± the share's standard error,
and a bar drawn in HTML (the share, with a line across it spanning ± one
error: the page's other tables are HTML too, and a bar per row stays beside
its instruction, where a figure would not); under it, the samples outside the
body, what cut the sampling short, the skid and the delivery. A `cycles`
record adds the cycle-by-cycle timeline as a small table. A failed record is
shown with its reason. Every share is given with its error and the number
of samples it is a share of, and an untrusted run's time-based samples say
whose time they measured.
"""
import html

from cyclekit import sample_text, samples

STYLE = """
table.samples td.insn, table.cycles td.insn { font-family: monospace; white-space: pre; }
div.sharebar { position: relative; width: 16em; height: 0.9em; background: #eee; }
div.sharebar > span { position: absolute; display: block; }
div.sharebar > span.share { left: 0; top: 0; bottom: 0; background: #4a7ab5; }
div.sharebar > span.error { top: 40%; height: 20%; background: #000; }
"""

INTRO = ("Each instruction of one copy of the body with the samples charged to it (the instruction the "
         "interrupt found next to execute), its share of the samples that fell in the body, and ± one standard "
         "error of that share, sqrt(p(1-p)/n) for n independent samples: the true share lies within two errors "
         "of it about 19 times in 20. The bar is the share; the black line across it spans ± one error. A period "
         "that shares a factor with the body's length piles the samples onto a few instructions "
         "(docs/measuring.md, Sampling).")


def esc(v):
    return html.escape("-" if v is None else str(v))


def num(v):
    return f"<td class='num'>{esc(v)}</td>"


def bar(row):
    """The share's bar with its ± one-error line, as percentages of the cell's width."""
    if row.share is None:
        return "<td></td>"
    share = 100 * row.share
    low, high = max(0.0, share - 100 * row.error), min(100.0, share + 100 * row.error)
    return (f"<td><div class='sharebar' title='{sample_text.percent(row.share)} "
            f"{sample_text.error_text(row.error)}'><span class='share' style='width:{share:.2f}%'></span>"
            f"<span class='error' style='left:{low:.2f}%;width:{high - low:.2f}%'></span></div></td>")


def profile_table(p):
    head = "".join(f"<th>{h}</th>" for h in ("offset", "instruction", "samples", "share ± error", "share"))
    rows = [f"<tr>{num(r.offset)}<td class='insn'>{esc(r.text)}</td>{num(r.samples)}"
            f"{num(sample_text.percent(r.share) + ' ' + sample_text.error_text(r.error))}{bar(r)}</tr>"
            for r in p.rows]
    return f"<table class='samples'><tr>{head}</tr>\n" + "\n".join(rows) + "</table>"


def caution(run, p):
    """A warning where the samples cannot say what the CPU did: time on an untrusted run."""
    if run.untrusted and p.source == "time":
        return ("<p class='warn'>This run's timer is not the hardware's (an emulator, or a timer that failed its "
                "check): time-based samples say where the emulator's time went, not the CPU's.</p>")
    return ""


def profile_html(run, p, anchor):
    title = f"<h3 id='{anchor}'>{esc(p.name)} in {esc(run.label)}: {esc(sample_text.source_text(p))}</h3>"
    if p.failed is not None:
        return title + f"<p class='warn'>Sampling failed: {esc(p.failed)}</p>"
    notes = [sample_text.heading(p) + f"; shares of the {sample_text.count(p.body)} samples in the body",
             sample_text.outside_text(p)] + sample_text.ended_lines(p) + [
        sample_text.skid_text(p), f"run trust: {run.trust_verdict}"]
    if p.problem:
        notes.append(f"no instruction text: {p.problem}")
    if p.strays:
        notes.append("samples where no instruction starts (should not happen: the kernel's attribution and the "
                     "disassembly disagree): " + ", ".join(f"offset {o}: {n}" for o, n in p.strays))
    return (title + caution(run, p) + profile_table(p)
            + "<ul class='note'>" + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")


def timeline_html(run, t, anchor):
    title = f"<h3 id='{anchor}'>{esc(t.name)} in {esc(run.label)}: cycle by cycle</h3>"
    if t.failed is not None:
        return title + f"<p class='warn'>The cycle-by-cycle run failed: {esc(t.failed)}</p>"
    head = "".join(f"<th>{h}</th>" for h in ("cycle", "retired", "copy", "offset", "instruction"))
    rows = []
    for s in t.steps:
        cells = sample_text.step_cells(s)
        rows.append("<tr>" + "".join(num(c) for c in cells[:4]) + f"<td class='insn'>{esc(cells[4])}</td></tr>")
    note = (f"{len(t.steps)} steps, each one run stopped after k cycles; {sample_text.count(t.base)} instructions "
            "retired before the first copy. Each step is one observation: where it stood moves with the "
            "interrupt's skid." + (f" No instruction text: {t.problem}" if t.problem else ""))
    return (title + f"<table class='cycles'><tr>{head}</tr>\n" + "\n".join(rows) + "</table>"
            + f"<p class='note'>{esc(note)}</p>")


def section(runs):
    """The section's HTML (its heading included) for runlog.Run objects."""
    parts = ["<h2 id='samples'>Where the samples fall</h2>", f"<style>{STYLE}</style>"]
    found = [(run, samples.profiles(run.log.records), samples.timelines(run.log.records)) for run in runs]
    if not any(ps or ts for _, ps, ts in found):
        parts.append("<p class='note'>No sampled benchmark in these logs: run with the options "
                     "<code>sample=EVENT:PERIOD</code> or <code>cycles=K</code> "
                     "(<code>cyclekit snippet --sample</code>, <code>--cycles</code>).</p>")
        return "\n".join(parts)
    parts.append(f"<p class='note'>{esc(INTRO)}</p>")
    for i, (run, profiles, timelines) in enumerate(found):
        # A benchmark's timeline right under its samples; a timeline without samples after them.
        for k, p in enumerate(profiles):
            parts.append(profile_html(run, p, f"samples-{i}-{k}"))
            parts += [timeline_html(run, t, f"cycles-{i}-{j}") for j, t in enumerate(timelines) if t.name == p.name]
        named = {p.name for p in profiles}
        parts += [timeline_html(run, t, f"cycles-{i}-{j}") for j, t in enumerate(timelines) if t.name not in named]
    return "\n".join(parts)
