"""Runs side by side, benchmark by benchmark, against their own spread.

A value is core cycles where both runs have cycles, else ticks where both
have ticks of the same kind (cycles and ticks, or TSC and PIT ticks, are
never divided by each other). The ratio is
run / baseline (the first run). A difference "exceeds the spread" when the
two values lie further apart than the sum of the two runs' own standard
deviations per body (each result's stats.stddev, scaled into the compared
unit): their one-sigma bands do not overlap. Heavy outliers widen a run's
deviation, so a noisy run is flagged less readily: the test is conservative.
"""
from collections import namedtuple

from cyclekit.results import runlog

Cell = namedtuple("Cell", "value unit spread ratio exceeds")
Row = namedtuple("Row", "name cells")


def _pair_value(res, unit):
    if res is None or res.kind != "result":
        return None, None
    if unit == "cycles":
        v = res.cycles
        spread = res.spread if res.value[1] == "cycles" else None
    else:
        v = res.ticks
        spread = res.stddev
    return v, spread


def common_unit(results):
    """cycles when every present result has cycles, else ticks when every one has ticks, else None."""
    present = [r for r in results if r is not None and r.kind == "result"]
    if present and all(r.cycles is not None for r in present):
        return "cycles"
    if present and all(r.ticks is not None for r in present) \
            and len({r.time_unit for r in present}) == 1:    # a TSC tick is not a PIT tick
        return "ticks"
    return None


def differs(a, sa, b, sb):
    """True/False whether |b - a| exceeds sa + sb; None when a spread is unknown."""
    if None in (a, b, sa, sb):
        return None
    return abs(b - a) > sa + sb


def rows(runs):
    """One Row per benchmark measured in any run (in first-seen order); its
    cells follow `runs`, the first being the baseline."""
    names = []
    for run in runs:
        for r in run.measured():
            if r.name not in names:
                names.append(r.name)
    out = []
    for name in names:
        found = [run.result(name) for run in runs]
        unit = common_unit(found)
        base_v, base_s = _pair_value(found[0], unit) if unit else (None, None)
        cells = []
        for res in found:
            v, s = _pair_value(res, unit) if unit else (None, None)
            ratio = v / base_v if v is not None and base_v else None
            cells.append(Cell(v, unit if v is not None else None, s, ratio, differs(base_v, base_s, v, s)))
        out.append(Row(name, cells))
    return out


def flagged(rows_):
    """The names whose difference from the baseline exceeds the spread in some run."""
    return [row.name for row in rows_ if any(c.exceeds for c in row.cells[1:])]


UNIT_LETTER = {"cycles": "c", "ticks": "t"}


def marked(text, res):
    """text with res's trust marks in brackets unless they are ok (or res is no result)."""
    marks = res.mark_text if res is not None and res.marks else "ok"
    return text if marks == "ok" else f"{text}[{marks}]"


def _cell_text(cell, res):
    return marked("-" if cell.value is None else f"{cell.value:.2f}{UNIT_LETTER[cell.unit]}", res)


def text(log_a, log_b):
    """Two Logs (logfile.parse) as text, `cyclekit log compare`: a line per
    benchmark with its value in A and in B (c: cycles, t: ticks; [marks] where
    a result is not trusted and stable, cyclekit/trust.py) and B/A. The header
    line ends with each run's trust verdict and the legend of the marks."""
    from cyclekit import trust
    a, b = runlog.Run("A", log_a), runlog.Run("B", log_b)
    key = trust.legend(a.all_marks() + b.all_marks())
    lines = [f'{"benchmark":34} {"A":>12} {"B":>12} {"B/A":>7}   (A {a.trust_verdict}, B {b.trust_verdict}'
             + (f"; {key})" if key else ")")]
    for row in rows([a, b]):
        ca, cb = row.cells
        ratio = "-" if cb.ratio is None else f"{cb.ratio:.2f}"
        lines.append(f"{row.name:34} {_cell_text(ca, a.result(row.name)):>12} "
                     f"{_cell_text(cb, b.result(row.name)):>12} {ratio:>7}")
    return "\n".join(lines)
