"""The table written out (a library: no VERB): table.jsonl (one `table` record per form,
after a `table_run` record), table.csv and index.html, a self-contained page whose table
sorts on a header click and filters on a text box (vanilla JavaScript inline, nothing
fetched)."""
import csv
import html
import json
import os

from cyclekit.table.rows import COLUMNS, table_record

SCRIPT = """
window.onerror = (m) => { document.body.dataset.errors = String(m); };
const t = document.getElementById('forms'), body = t.tBodies[0];
const rows = Array.from(body.rows), input = document.getElementById('filter');
const heads = Array.from(t.tHead.rows[0].cells);
function filter(text) {
  let re; try { re = new RegExp(text, 'i'); } catch (x) { return; }
  let shown = 0;
  for (const r of rows) { const ok = re.test(r.textContent); r.hidden = !ok; shown += ok; }
  document.getElementById('shown').textContent = shown;
}
function sort(i, up) {
  const key = r => { const s = r.cells[i].textContent, n = parseFloat(s);
                     return isNaN(n) ? s : n; };
  rows.sort((a, b) => { const x = key(a), y = key(b);
    const c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
    return up ? c : -c; });
  for (const r of rows) body.appendChild(r);
  heads.forEach(h => delete h.dataset.dir); heads[i].dataset.dir = up ? 'up' : 'down';
}
input.addEventListener('input', e => filter(e.target.value));
heads.forEach((th, i) => th.addEventListener('click', () => sort(i, th.dataset.dir !== 'up')));
// A link can carry the view: #filter=REGEX&sort=COLUMN (-COLUMN: descending).
const want = new URLSearchParams(location.hash.slice(1));
if (want.get('filter')) { input.value = want.get('filter'); filter(input.value); }
const by = want.get('sort') || '', col = heads.findIndex(h => h.textContent === by.replace(/^-/, ''));
if (col >= 0) sort(col, !by.startsWith('-'));
document.body.dataset.rows = rows.length;
"""
STYLE = """body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ccc;padding:2px 6px}th{cursor:pointer;background:#eee}
td.n{text-align:right}tr.off td.m{background:#fdd}.skip{color:#888}code{font-size:12px}"""
PAGE_COLUMNS = ("opcode", "isa", "asm", "latency", "latency_model", "operand_latency", "throughput",
                "throughput_model", "latency_status", "throughput_status")


def write_all(folder, run, rows):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "table.jsonl"), "w") as f:
        f.write(json.dumps(dict({"type": "table_run"}, **run), ensure_ascii=False) + "\n")
        for row in rows:
            f.write(json.dumps(table_record(row), ensure_ascii=False) + "\n")
    with open(os.path.join(folder, "table.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        for row in rows:
            out.writerow(["" if row.get(c) is None else row.get(c) for c in COLUMNS])
    with open(os.path.join(folder, "index.html"), "w") as f:
        f.write(page(run, rows))


def cell(row, column):
    value = row.get(column)
    text = "" if value is None else str(value)
    if column == "asm":
        return f"<td><code>{html.escape(text)}</code></td>"
    cls = "n" if isinstance(value, (int, float)) else ""
    if column.endswith("_model") or column in ("latency", "throughput"):
        cls += " m"
    return f'<td class="{cls.strip()}">{html.escape(text)}</td>'


def page(run, rows):
    head = "".join(f"<th>{html.escape(c)}</th>" for c in PAGE_COLUMNS)
    body = []
    for row in rows:
        cls = "off" if row.get("disagree") else ("skip" if row.get("latency") is None
                                                 and row.get("throughput") is None else "")
        body.append(f'<tr class="{cls}">' + "".join(cell(row, c) for c in PAGE_COLUMNS) + "</tr>")
    skips = "".join(f"<li>{html.escape(k)}: {v}</li>" for k, v in sorted(run.get("skipped", {}).items()))
    facts = html.escape(f"{run.get('cpu_name')} ({run.get('cpu_brand')}); LLVM model: "
                        f"{run.get('model_cpu')} ({run.get('llvm')}); {run.get('note') or ''}")
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>cyclekit instruction table</title>
<style>{STYLE}</style></head><body><h1>Instruction table</h1>
<p>{facts}</p><p>{run.get('forms')} forms, {run.get('measured')} measured, {run.get('seconds')} s.
Latency: core cycles per instruction of a dependent chain; throughput: reciprocal, per instruction.
A red cell: LLVM's model lies beyond the measured spread.</p><ul>{skips}</ul>
<p>Filter (regular expression): <input id="filter" size="40"> <span id="shown">{len(rows)}</span> shown;
click a heading to sort.</p>
<table id="forms"><thead><tr>{head}</tr></thead><tbody>
{chr(10).join(body)}
</tbody></table><script>{SCRIPT}</script></body></html>
"""
