"""The report's figures as PNG bytes, drawn by matplotlib's Agg backend (no display).

Each function returns the PNG of one figure, or None when the runs hold
nothing to draw (the page then says why instead of showing an empty plot).
"""
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

from cyclekit.results import runlog  # noqa: E402



def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


size_text = runlog.size_text


def latency_curve(runs, title="Memory latency: pointer chase"):
    """Pointer-chase latency against the working-set size (log2 axis): one
    line per run and chase family (mem/chase, 32-bit pointers; mem64/chase,
    the 64-bit runners' own), and each run's data/unified cache sizes (cpu
    record) as dashed lines in the run's colour. A point whose result is
    marked (not "ok": cyclekit/trust.py) is drawn hollow; a 4xLLC chase that
    got less memory than 4x the cache is labelled with what it covers. The
    caller draws silicon and untrusted (emulated) runs in separate figures,
    never as one family."""
    curves = [(run, run.chase_families()) for run in runs]
    curves = [(run, fams) for run, fams in curves if fams]
    if not curves:
        return None
    fig, ax = plt.subplots(figsize=(9, 5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    marked, hollow = [], False
    for i, (run, fams) in enumerate(curves):
        colour = colours[i % len(colours)]
        for k, (family, pts) in enumerate(fams.items()):
            units = sorted({p[2] for p in pts})
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-" if k == 0 else ":", color=colour,
                    label=f"{run.label}: {family} ({'/'.join(units)} per load)")
            for filled in (True, False):
                sel = [p for p in pts if (p[3] == "ok") is filled]
                hollow |= bool(sel) and not filled
                ax.plot([p[0] for p in sel], [p[1] for p in sel], "o", color=colour,
                        markerfacecolor=colour if filled else "none")
        for name, size, want in run.chase_short():
            y = next(p[1] for pts in fams.values() for p in pts if p[0] == size)
            ax.annotate(f"{name.rsplit('/', 1)[1]}: {size_text(size)}, not {size_text(want)}",
                        xy=(size, y), xytext=(-8, -4), textcoords="offset points", ha="right", va="top", fontsize=8,
                        bbox=dict(facecolor="white", edgecolor="none", alpha=0.85),
                        color=colour)
        for name, size in run.caches():
            if any(m[0] == size and m[1].startswith(name + " ") for m in marked):
                continue    # the same cache of another run (the same CPU model) is marked once
            ax.axvline(size, color=colour, linestyle="--", linewidth=1, alpha=0.7)
            marked.append((size, f"{name} {size_text(size)}", colour))
    for k, (size, text, colour) in enumerate(marked):
        ax.annotate(text, xy=(size, 1), xycoords=("data", "axes fraction"), xytext=(3, -12 - 11 * (k % 4)),
                    textcoords="offset points", fontsize=8, color=colour)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: size_text(int(v)) if v >= 1 else ""))
    ax.set_xlabel("working set (bytes, log scale)")
    ax.set_ylabel("latency per load (log scale)")
    ax.set_title(f"{title} (dashed: cache sizes from the cpu record"
                 + ("; hollow: a marked result" if hollow else "") + ")", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    # Below the axes, so no curve is hidden behind it.
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    return _png(fig)


def histograms(items):
    """[(result, png)] for (result, run_label) items with two or more raw
    samples: the distribution of ticks per body. Samples far outside the
    middle are counted in the title rather than squeezing the plot. One
    figure is redrawn for all (creating a figure per result costs more
    than drawing it)."""
    fig, ax = plt.subplots(figsize=(4.2, 2.6))
    out = []
    for result, run_label in items:
        values = sorted(result.per_body())
        if len(values) < 2:
            continue
        ax.clear()
        n = len(values)
        lo_q, hi_q = values[int(0.05 * (n - 1))], values[int(0.95 * (n - 1))]
        pad = max((hi_q - lo_q) * 0.5, 0.01)
        shown = [v for v in values if lo_q - pad <= v <= hi_q + pad]
        ax.hist(shown, bins=min(30, max(5, len(shown) // 2)), color="#4472c4")
        if result.ticks is not None:
            ax.axvline(result.ticks, color="#c00000", linewidth=1.5, label=f"result {result.ticks:.2f}")
            ax.legend(fontsize=7)
        outside = n - len(shown)
        ax.set_title(f"{result.name} ({run_label}) [{result.mark_text}]: {n} samples"
                     + (f", {outside} outside" if outside else ""), fontsize=8)
        ax.set_xlabel("ticks per body", fontsize=8)
        ax.tick_params(labelsize=7)
        fig.subplots_adjust(left=0.12, right=0.97, top=0.88, bottom=0.2)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90)
        out.append((result, buf.getvalue()))
    plt.close(fig)
    return out


def comparison(runs, rows):
    """Each run's value relative to the first run's, per benchmark (log
    scale); a bar whose difference exceeds both runs' spread is solid, one
    within the spread is hatched and pale; the bars of a pair in which a run
    is emulated or untrusted are outlined in red, and its legend says so."""
    if len(runs) < 2:
        return None
    rows = [r for r in rows if any(c.ratio is not None for c in r.cells[1:])]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(9, 0.13 * len(rows) * (len(runs) - 1) + 1.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    height = 0.8 / (len(runs) - 1)
    handles = []
    for j, run in enumerate(runs[1:], start=1):
        ys, widths, alphas = [], [], []
        for i, row in enumerate(rows):
            cell = row.cells[j]
            if cell.ratio is None or cell.ratio <= 0:
                continue
            ys.append(i + (j - 1) * height)
            widths.append(cell.ratio)
            alphas.append(1.0 if cell.exceeds else 0.35)
        colour = colours[j % len(colours)]
        none = "" if ys else " (no benchmark in common)"
        # An emulated or untrusted run against silicon (or the reverse) is no hardware
        # comparison: its bars are outlined in red and its legend entry says so.
        apart = run.untrusted != runs[0].untrusted or run.untrusted
        edge = dict(edgecolor="#c00000", linewidth=1.2) if apart else {}
        for y, w, a in zip(ys, widths, alphas):
            ax.barh(y, w - 1.0, height=height, left=1.0, color=colour, alpha=a,
                    hatch=None if a == 1.0 else "//", **edge)
        handles.append(Patch(facecolor=colour, label=f"{run.label} / {runs[0].label}"
                             + (" (UNTRUSTED run: emulator or timer)" if run.untrusted else
                                " (UNTRUSTED baseline: emulator or timer)" if apart else "") + none, **edge))
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(rows))])
    ax.set_yticklabels([r.name for r in rows], fontsize=7)
    ax.set_ylim(len(rows) - 0.1, -0.3)     # the first benchmark on top, no empty margin
    ax.set_xlabel(f"ratio to {runs[0].label} (log scale; pale and hatched: within the runs' spread)")
    # The legend above the bars, under the title: never over a bar, whatever the values.
    ax.set_title("Comparison per benchmark", pad=8 + 13 * len(handles))
    ax.legend(handles=handles, fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), frameon=False,
              borderaxespad=0.2)
    return _png(fig)
