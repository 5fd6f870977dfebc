"""Two instruction tables side by side: which forms differ, by how much, sorted.

Used by `cyclekit db compare --tables A B` (stored tables, results/table_rows.py)
and by the report (tables given as folders). A form is known by its LLVM
opcode; a part (latency, throughput) is compared where both tables measured
it. A difference counts when the two values lie further apart than their
spreads together (the rule results/compare.py applies to runs) and by more
than RELATIVE of the first value (the table's own rounding and the floors'
noise are a few per cent). The forms are sorted by their largest difference,
as a ratio either way (2x slower and 2x faster weigh the same), largest first.
"""
import html
import math
from collections import namedtuple

PARTS = ("latency", "throughput")
RELATIVE = 0.05

Part = namedtuple("Part", "a b ratio differs")             # one of latency/throughput, or None
Form = namedtuple("Form", "opcode isa asm parts score")     # parts: {part: Part}; score: max |log ratio|


def _number(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def _part(ra, rb, part):
    a, b = _number(ra.get(part)), _number(rb.get(part))
    if a is None or b is None:
        return None
    ratio = b / a if a else None
    sa, sb = _number(ra.get(f"{part}_spread")) or 0.0, _number(rb.get(f"{part}_spread")) or 0.0
    differs = abs(b - a) > sa + sb and abs(b - a) > RELATIVE * max(abs(a), abs(b))
    return Part(a, b, ratio, differs)


def by_opcode(rows):
    """{opcode: row}, the first row of each opcode."""
    out = {}
    for r in rows:
        if r.get("opcode") and r["opcode"] not in out:
            out[r["opcode"]] = r
    return out


def compare(rows_a, rows_b):
    """(forms, only_a, only_b): a Form per opcode both tables hold with a measured part in both,
    sorted by the largest difference first (then by opcode); the opcodes only one table holds."""
    a, b = by_opcode(rows_a), by_opcode(rows_b)
    forms = []
    for op in a.keys() & b.keys():
        parts = {p: _part(a[op], b[op], p) for p in PARTS}
        if not any(parts.values()):
            continue
        score = max((abs(math.log(x.ratio)) for x in parts.values() if x and x.ratio and x.ratio > 0),
                    default=0.0)
        forms.append(Form(op, a[op].get("isa"), a[op].get("asm") or b[op].get("asm"), parts, score))
    forms.sort(key=lambda f: (-any(p and p.differs for p in f.parts.values()), -f.score, f.opcode))
    return forms, sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())


def differing(forms):
    return [f for f in forms if any(p and p.differs for p in f.parts.values())]


def summary(forms, only_a, only_b):
    """One line: how many forms both hold, how many differ in each part, how many only one holds."""
    n = {p: sum(1 for f in forms if f.parts[p] and f.parts[p].differs) for p in PARTS}
    return (f"{len(forms)} forms measured in both; {len(differing(forms))} differ "
            f"(latency {n['latency']}, throughput {n['throughput']}: beyond both spreads and by more than "
            f"{RELATIVE:.0%}); {len(only_a)} only in A, {len(only_b)} only in B")


def _cell(part, digits):
    return "-" if part is None else f"{part.a:.{digits}f}", "-" if part is None else f"{part.b:.{digits}f}", \
        "-" if part is None or part.ratio is None else f"{part.ratio:.2f}" + (" *" if part.differs else "")


def text_lines(forms, all_forms=False):
    """The forms as text, a line each (only those that differ unless all_forms): opcode, isa,
    latency A, B, B/A, throughput A, B, B/A (* beyond the spreads), the instruction."""
    lines = [f'{"form":24} {"isa":7} {"lat A":>7} {"lat B":>7} {"B/A":>7} {"tput A":>7} {"tput B":>7} '
             f'{"B/A":>7}  instruction']
    for f in forms if all_forms else differing(forms):
        la, lb, lr = _cell(f.parts["latency"], 2)
        ta, tb, tr = _cell(f.parts["throughput"], 2)
        lines.append(f"{f.opcode:24} {f.isa or '-':7} {la:>7} {lb:>7} {lr:>7} {ta:>7} {tb:>7} {tr:>7}  "
                     f"{f.asm or ''}")
    return lines


def _table_name(label, run):
    return f"{label} ({run.get('cpu_name') or '?'}, {run.get('cpu_brand') or '?'})"


def section(tables, limit=200):
    """The report's comparison of each table with the first: [(label, run, rows)] -> HTML ("" for
    fewer than two tables). Only the forms that differ, largest difference first, at most limit."""
    if len(tables) < 2:
        return ""
    base_label, base_run, base_rows = tables[0]
    parts = ["<h3 id='table-comparison'>Instruction tables compared</h3>",
             f"<p class='note'>Each table against the first, {html.escape(_table_name(base_label, base_run))}: "
             "the forms whose latency or throughput differ beyond both spreads and by more than "
             f"{RELATIVE:.0%}, largest difference first (B/A as a ratio; * marks the part that differs).</p>"]
    for label, run, rows in tables[1:]:
        forms, only_a, only_b = compare(base_rows, rows)
        shown = differing(forms)
        parts.append(f"<h4>{html.escape(_table_name(label, run))}</h4>"
                     f"<p class='note'>{html.escape(summary(forms, only_a, only_b))}"
                     + (f"; the first {limit} shown" if len(shown) > limit else "") + ".</p>")
        if not shown:
            continue
        head = ["form", "isa", "latency A", "latency B", "B/A", "throughput A", "throughput B", "B/A", "instruction"]
        out = ["<table class='table-compare'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
        for f in shown[:limit]:
            la, lb, lr = _cell(f.parts["latency"], 2)
            ta, tb, tr = _cell(f.parts["throughput"], 2)
            cells = [html.escape(f.opcode), html.escape(f.isa or "-")]
            cells += [f"<td class='num'>{html.escape(v)}</td>" for v in (la, lb, lr, ta, tb, tr)]
            cells.append(html.escape(f.asm or ""))
            out.append("<tr>" + "".join(c if c.startswith("<td") else f"<td>{c}</td>" for c in cells) + "</tr>")
        parts.append("\n".join(out) + "</table>")
    return "\n".join(parts)
