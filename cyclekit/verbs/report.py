"""`cyclekit report LOG|TABLE... -o DIR`: an HTML page of one or more runs and
instruction tables, with figures.

DIR/index.html is self-contained (its figures are embedded), and each
figure is also written beside it as a PNG: latency.png (mem/chase and
mem64/chase against the working-set size, cache sizes marked: the runs on silicon with a
trusted timer), latency-untrusted.png (the same for emulated runs and runs
whose timer failed its trust check, never drawn with the silicon's),
comparison.png (two or more logs: each run relative to the first; an
untrusted run's bars outlined in red), hist-N.png (raw samples, `raw`
option). A sampled benchmark (sample=, cycles=) adds its body annotated:
each instruction's samples and share ± error (results/sample_section.py).
Every table shows each result's trust marks (cyclekit/trust.py). An
instruction table (`cyclekit table -o T`: T or T/table.jsonl) among the LOGs
adds its section: the forms beside LLVM's model; two or more tables (two
machines') are also compared with the first: the forms that differ, largest
difference first (results/table_compare.py, as `db compare --tables`). An incomplete log is shown
with its problem and makes the exit
status 1; a log that cannot be read is an error (exit 2).
"""
import os
import sys

VERB = "report"
HELP = "an HTML page (with PNG figures) of one or more logs and instruction tables: machines, latency " \
       "curve, comparison, verdicts, the tables' forms beside LLVM's model"

MAX_HISTOGRAMS = 48   # a full raw run has ~150 results: enough to see, not a page of hundreds


def add_arguments(parser):
    parser.add_argument("logs", nargs="+", metavar="LOG|TABLE",
                        help="serial logs (the first is the comparison's baseline) and instruction tables "
                             "(`cyclekit table -o DIR`'s DIR or its table.jsonl)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for index.html and the PNGs")
    parser.add_argument("--histograms", type=int, default=MAX_HISTOGRAMS, metavar="N",
                        help=f"at most N raw-sample histograms (default {MAX_HISTOGRAMS})")


def _label_uniquely(runs):
    seen = {}
    for run in runs:
        n = seen.get(run.label, 0)
        seen[run.label] = n + 1
        if n:
            run.label = f"{run.label}#{n + 1}"


def _tables(paths):
    """[(label, run, rows)] of the instruction tables among the paths; ValueError says why
    one cannot be read."""
    from cyclekit.results import table_rows
    out = []
    for path in paths:
        try:
            out.append((path,) + table_rows.read(path))
        except (OSError, ValueError) as e:
            raise ValueError(f"{path}: {e}") from e
    return out


def run(args):
    from cyclekit.results import compare, figures, page, runlog, table_compare, table_rows, table_section
    table_paths = [p for p in args.logs if table_rows.is_table(p)]
    try:
        tables = _tables(table_paths)
    except ValueError as e:
        print(f"cyclekit report: {e}", file=sys.stderr)
        return 2
    runs = []
    for path in [p for p in args.logs if p not in table_paths]:
        try:
            runs.append(runlog.load(path))
        except OSError as e:
            print(f"cyclekit report: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 2
    _label_uniquely(runs)
    for run in runs:
        if not run.log.records:
            print(f"cyclekit report: {run.path}: not a cyclekit log ({'; '.join(run.problems)})", file=sys.stderr)
            return 2
    os.makedirs(args.output, exist_ok=True)
    silicon, apart = page.split_by_trust(runs)
    figs = {"latency": figures.latency_curve(silicon, "Memory latency on silicon: pointer chase"),
            "latency-untrusted": figures.latency_curve(
                apart, "NOT the hardware's latency: emulated or untrusted runs, pointer chase"),
            "comparison": figures.comparison(runs, compare.rows(runs))}
    with_samples = [(run, res) for run in runs for res in run.measured() if len(res.per_body()) >= 2]
    with_samples = with_samples[:max(0, args.histograms)]
    pngs = figures.histograms([(res, run.label) for run, res in with_samples])
    hists = [(run, res, png) for (run, res), (_, png) in zip(with_samples, pngs)]
    written = []
    for name, png in list(figs.items()) + [(f"hist-{k}", h[2]) for k, h in enumerate(hists)]:
        if png:
            with open(os.path.join(args.output, name + ".png"), "wb") as f:
                f.write(png)
            written.append(name + ".png")
    index = os.path.join(args.output, "index.html")
    with open(index, "w", encoding="utf-8") as f:
        f.write(page.render(runs, figs, hists, table_section.section(tables) + table_compare.section(tables)))
    print(f"cyclekit report: {index} ({len(runs)} logs, {len(tables)} instruction tables, "
          f"{len(written)} figures)", file=sys.stderr)
    bad = [r for r in runs if not r.complete]
    for r in bad:
        print(f"cyclekit report: {r.path} is incomplete: {'; '.join(r.problems)}", file=sys.stderr)
    return 1 if bad else 0
