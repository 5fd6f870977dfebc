"""The readable text of an annotated sample profile and cycles timeline (cyclekit/samples.py),
as `cyclekit snippet --sample/--cycles` prints it, in the manner of `perf annotate`: one line
per instruction of one copy of the body with its samples, its share of the body's samples,
the share's standard error and a bar of '#', then where the other samples went, the skid
and how the interrupts were delivered. Every share comes with its error and the count it is
a share of, so the reader sees how far it can be trusted.
"""

BAR_WIDTH = 40          # '#' characters for a share of 100 %
UNITS = {"events": "events", "us": "µs"}
SOURCE_UNITS = {"event": "events", "time": "us"}     # a failed record names its source, not its unit


def percent(v):
    return "-" if v is None else f"{100 * v:.1f} %"


def error_text(v):
    return "-" if v is None else f"± {100 * v:.1f} %"


def bar(share, width=BAR_WIDTH):
    return "#" * round((share or 0) * width)


def count(v):
    return "?" if v is None else str(v)


def samples_text(n):
    """"1 sample", "13 samples", "? samples"."""
    return f"{count(n)} sample" + ("" if n == 1 else "s")


def source_text(p):
    """"INST_RETIRED every 997 events", "time every 100 µs"."""
    what = p.event or ("time" if p.source == "time" else "?")
    unit = p.unit or SOURCE_UNITS.get(p.source)
    unit = UNITS.get(unit, unit or "")
    return f"{what} every {count(p.period)} {unit}".rstrip() + (" (as NMI)" if p.nmi else "")


def heading(p):
    body = f"{count(p.body)} in the body"
    if p.copies is not None and p.copy_bytes is not None:
        body += f" ({p.copies} copies of {p.copy_bytes} bytes)"
    return f"{p.name}: {samples_text(p.samples)} of {source_text(p)} in {count(p.runs)} runs, {body}"


def outside_text(p):
    """"13 samples in the loop, 0 elsewhere, 0 in the interrupt handler" (and what was lost)."""
    text = (f"{samples_text(p.loop)} in the loop, {count(p.elsewhere)} elsewhere, "
            f"{count(p.handler)} in the interrupt handler")
    if p.lost:
        text += f"; {p.lost} lost (the kernel's buffer was full; not counted above)"
    return text


def skid_text(p):
    skid = (f"{p.skid} instructions (measured)" if p.skid is not None
            else f"unknown: {p.skid_why or 'the record does not say'}")
    return f"skid: {skid}; delivery: {p.delivery or '?'}"


def ended_lines(p):
    """What cut the sampling short, where something did."""
    out = []
    if p.storm:
        out.append("interrupt storm: an interrupt came in the handler's own return; re-arming stopped "
                   "(a larger period avoids it)")
    if p.capped:
        out.append("capped: the handler stopped re-arming at its sample limit")
    if p.stopped:
        out.append(f"stopped early: {p.stopped}")
    return out


def table(head, rows, right):
    """Columns padded to their widest cell; right: which columns are numbers."""
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(row):
        return "  " + "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)).rstrip()
    return [line(head)] + [line(r) for r in rows]


def profile_lines(p):
    """The annotated body of one sample record, or its failure in one line."""
    if p.failed is not None:
        return [f"{p.name}: sampling {source_text(p)} failed: {p.failed}"]
    rows = [(str(r.offset), r.text, str(r.samples), percent(r.share), error_text(r.error), bar(r.share))
            for r in p.rows]
    lines = [heading(p)]
    lines += table(("offset", "instruction", "samples", "share", "error", ""), rows,
                   (True, False, True, True, True, False))
    lines.append(f"  share: of the {count(p.body)} samples in the body; error: one standard error, "
                 "sqrt(p(1-p)/n), for independent samples")
    if p.problem:
        lines.append(f"  no instruction text: {p.problem}")
    if p.strays:
        lines.append("  samples where no instruction starts (should not happen: the kernel's attribution and "
                     "this disassembly disagree): " + ", ".join(f"offset {o}: {n}" for o, n in p.strays))
    lines.append("  " + outside_text(p))
    lines += ["  " + line for line in ended_lines(p)]
    lines.append("  " + skid_text(p))
    return lines


def step_cells(s):
    inside = s.where == "body"
    return (count(s.k), "-" if s.retired is None else str(s.retired),
            count(s.copy) if inside else "-", count(s.offset) if inside else "-", s.text)


def timeline_lines(t):
    """The cycle-by-cycle timeline of one cycles record, or its failure in one line."""
    if t.failed is not None:
        return [f"{t.name}: cycle by cycle failed: {t.failed}"]
    lines = [f"{t.name}: cycle by cycle, {len(t.steps)} steps (a run per step, stopped after k cycles); "
             f"{count(t.base)} instructions retired before the first copy"]
    lines += table(("cycle", "retired", "copy", "offset", "instruction"), [step_cells(s) for s in t.steps],
                   (True, True, True, True, False))
    if t.problem:
        lines.append(f"  no instruction text: {t.problem}")
    lines.append("  each step is one interrupted run: where it stood moves with the interrupt's skid")
    return lines
