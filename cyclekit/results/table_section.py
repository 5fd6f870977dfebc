"""The report's section for an instruction table (`cyclekit table`'s output).

For each table: where it was measured and LLVM's model beside it, the model
comparison per ISA class (forms with both values, how many the model misses
beyond the measured spread, the median ratio measured / model), and the forms
themselves, sortable and filterable with the table page's own script (the
first table of the report; more tables are shown without it, since the
script finds its table by id). The forms are the page's rows
(cyclekit/table/output.py): the chain's and the set's text, "≤" for an upper
bound, a "!" on a suspect value with its reason, only the value LLVM's model
disagrees with coloured; each table says how its cycles were obtained and its
session's floors, and the legend says what the marks mean.
"""
import html
import statistics

from cyclekit.table import output


def _ratio_median(pairs):
    ratios = [v / m for v, m in pairs if v is not None and m]
    return f"{statistics.median(ratios):.2f}" if ratios else "-"


def comparison(rows):
    """[(isa, forms, measured, latency: compared/disagree/median, throughput: ...)]."""
    out = []
    for isa in sorted({r.get("isa") or "-" for r in rows}):
        mine = [r for r in rows if (r.get("isa") or "-") == isa]
        measured = [r for r in mine if r.get("latency") is not None or r.get("throughput") is not None]
        cells = [isa, len(mine), len(measured)]
        for part in ("latency", "throughput"):
            both = [(r[part], r[f"{part}_model"]) for r in measured
                    if r.get(part) is not None and r.get(f"{part}_model") is not None]
            off = sum(1 for r in measured if part in (r.get("disagree") or "").split(","))
            cells += [len(both), off, _ratio_median(both)]
        out.append(cells)
    return out


def _summary_table(rows):
    head = ["isa", "forms", "measured", "latency: compared", "beyond spread", "median measured/model",
            "throughput: compared", "beyond spread", "median measured/model"]
    lines = ["<table class='table-comparison'><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head)
             + "</tr>"]
    for cells in comparison(rows):
        lines.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" if k == 0 else
                                      f"<td class='num'>{html.escape(str(c))}</td>"
                                      for k, c in enumerate(cells)) + "</tr>")
    return "\n".join(lines) + "</table>"


def _forms_table(rows, run, interactive):
    body = [output.row_html(row, run) for row in rows]
    ident = ' id="forms"' if interactive else ""
    tools = ("<p>Filter (regular expression): <input id='filter' size='40'> <span id='shown'>"
             f"{len(rows)}</span> shown; click a heading to sort.</p>" if interactive else "")
    return (f"{tools}<div class='table-forms-scroll'><table class='table-forms'{ident}><thead><tr>"
            f"{output.head_html()}</tr></thead><tbody>\n" + "\n".join(body) + "\n</tbody></table></div>")


def section(tables):
    """The HTML of the report's instruction-table section; tables: [(label, run, rows)]."""
    if not tables:
        return ""
    parts = ["<h2 id='instruction-table'>Instruction table and LLVM's model</h2>",
             f"<style>{output.TABLE_STYLE}\n.table-forms-scroll{{overflow-x:auto;max-width:100%}}"
             "table.table-forms td{max-width:none}</style>",
             "<p class='note'>Latency: core cycles per copy of a dependent chain; throughput: reciprocal, "
             "per instruction (docs/table.md).</p>", output.legend()]
    for k, (label, run, rows) in enumerate(tables):
        skipped = ", ".join(f"{v} {r}" for r, v in sorted((run.get("skipped") or {}).items(),
                                                         key=lambda kv: -kv[1]))
        parts.append(f"<h3>{html.escape(label)}</h3><p>{html.escape(str(run.get('cpu_name')))} "
                     f"({html.escape(str(run.get('cpu_brand')))}); LLVM model: "
                     f"{html.escape(str(run.get('model_cpu')))} ({html.escape(str(run.get('llvm')))}). "
                     f"{run.get('forms')} forms, {run.get('measured')} measured in {run.get('seconds')} s, "
                     f"{output.suspect_count(rows)} values suspect. "
                     f"{html.escape(run.get('note') or '')}</p>"
                     f"<p class='note'>{output.cycles_text(run)}; {output.floors_text(run)}; "
                     f"{output.counters_text(run)}.</p>"
                     f"<p class='note'>Skipped: {html.escape(skipped or 'none')}</p>")
        parts.append(_summary_table(rows))
        parts.append(_forms_table(rows, run, interactive=(k == 0)))
    parts.append(f"<script>{output.SCRIPT}</script>")
    return "\n".join(parts)
