"""The table written out (a library: no VERB): table.jsonl (one `table` record per form,
after a `table_run` record), table.csv and index.html, a self-contained page whose table
sorts on a header click and filters on a text box (vanilla JavaScript inline, nothing
fetched).

The page shows what was run (issue 29): the latency chain's text beside the throughput
set's, how many instructions each holds, how each was built, the operand pair and the
named variants; an upper bound reads "≤ 3.0", a value a self-check doubts carries a "!"
whose title gives the reason; only the value LLVM's model disagrees with is coloured. A
legend says what the marks mean, how the cycles were obtained and the session's floors.
The report's table section (cyclekit/results/table_section.py) uses the same rows,
legend and script.

The JSONL keeps `variants` (a list of dicts) and `checks` (a list of texts) as they are;
the CSV writes them readably: "name: value (status); ..." and "check; check".
"""
import csv
import html
import json
import os

from cyclekit.table.rows import COLUMNS, SUSPECT, table_record

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
  // A value cell carries its number in data-v ("≤ 3.0" and "0.4 !" sort as 3.0 and 0.4);
  // an empty cell goes last either way.
  const key = r => { const c = r.cells[i], v = c.dataset.v;
                     if (v !== undefined && v !== '') return parseFloat(v);
                     const s = c.textContent.trim(), n = parseFloat(s);
                     return s === '' ? null : isNaN(n) ? s : n; };
  rows.sort((a, b) => { const x = key(a), y = key(b);
    if (x === null || y === null) return (x === null) - (y === null);
    const c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
    return up ? c : -c; });
  for (const r of rows) body.appendChild(r);
  heads.forEach(h => delete h.dataset.dir); heads[i].dataset.dir = up ? 'up' : 'down';
}
input.addEventListener('input', e => filter(e.target.value));
heads.forEach((th, i) => th.addEventListener('click', () => sort(i, th.dataset.dir !== 'up')));
// A link can carry the view: #filter=REGEX&sort=COLUMN (-COLUMN: descending); COLUMN is the
// record's field (latency, set_insns ...) or the heading's text.
const want = new URLSearchParams(location.hash.slice(1));
if (want.get('filter')) { input.value = want.get('filter'); filter(input.value); }
const by = (want.get('sort') || '').replace(/^-/, '');
const col = heads.findIndex(h => h.dataset.col === by || h.textContent === by);
if (by && col >= 0) sort(col, !want.get('sort').startsWith('-'));
document.body.dataset.rows = rows.length;
"""
# The forms table's own style (the page's and the report's): only a disagreeing value is
# red, a suspect one carries an orange "!".
TABLE_STYLE = """table.table-forms{border-collapse:collapse;font-size:13px;width:max-content}
table.table-forms td,table.table-forms th{border:1px solid #ccc;padding:2px 4px;vertical-align:top}
table.table-forms th{cursor:pointer;background:#eee;white-space:nowrap}
table.table-forms th[data-dir=up]::after{content:" \\25B2"}table.table-forms th[data-dir=down]::after{content:" \\25BC"}
table.table-forms td.n{text-align:right;white-space:nowrap}table.table-forms td.off{background:#fbb}
table.table-forms td.asm code{display:block;white-space:nowrap}table.table-forms td.pair{white-space:nowrap}
table.table-forms td.how{max-width:8em;color:#444;font-size:12px}table.table-forms td.ol{max-width:8em;font-size:12px}
table.table-forms td.st{min-width:7em;max-width:11em;font-size:12px}
table.table-forms td.chk,table.table-forms td.var{max-width:11em;font-size:12px}
table.table-forms tr.skip{color:#888}table.table-forms code{font-size:12px}
table.table-forms summary{cursor:pointer;white-space:nowrap}table.table-forms td.asm summary code{display:inline}
table.table-forms details:not([open])>:not(summary){display:none}
.sus{color:#c60;font-weight:bold;cursor:help}.bound{color:#036}
.var-of{color:#888;font-size:11px}.legend{font-size:14px}.legend li{margin:2px 0}
.src-estimated{background:#ffe9a8;padding:0 3px}"""
STYLE = "body{font-family:sans-serif;margin:1em}" + TABLE_STYLE
# (field, heading, what the heading's title says): the page's columns; a link's #sort=
# takes the field or the heading.
PAGE = (
    ("opcode", "opcode", "LLVM's opcode name"),
    ("isa", "isa", "the form's instruction set class"),
    ("chain_asm", "chain", "one copy of the latency chain as run"),
    ("chain_insns", "n", "instructions in one copy of the chain (2: a round trip through a helper)"),
    ("latency_chain", "chain built", "how the chain is closed"),
    ("operand_pair", "pair", "the latency's input -> output"),
    ("latency", "latency", "core cycles per copy of the chain"),
    ("latency_model", "LLVM", "LLVM's model of the chain (latency_model)"),
    ("operand_latency", "other inputs", "the latency through each other register input"),
    ("set_asm", "set", "one body of the throughput set as run"),
    ("set_insns", "n", "independent instructions in the set"),
    ("throughput_set", "set built", "how the set was built"),
    ("throughput", "throughput", "reciprocal throughput: cycles per instruction"),
    ("throughput_model", "LLVM", "LLVM's model of the set (throughput_model)"),
    ("variants", "variants", "the named variants: lat (latency) or tput (throughput), name, value"),
    ("checks", "checks", "why a value is not a plain measurement"),
    ("counted", "counted", "instructions counted per body against the body's own count, where a PMU "
                           "proved itself: exact, differs (by how many), or no counters (the header says why)"),
    ("status", "status", "latency_status and throughput_status (once when they are the same): "
                         "measured, suspect, skipped, fault ..."),
)
PAGE_COLUMNS = tuple(field for field, _, _ in PAGE)
SHORT_SET = 2       # a set body of more instructions shows its first, the rest unfolds


def write_all(folder, run, rows, columns=COLUMNS):
    """table.jsonl, table.csv and index.html; columns: the records' and the CSV's
    (COLUMNS, and a 32-bit P5 table's pairing columns after them: i386.PAIR_COLUMNS)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "table.jsonl"), "w") as f:
        f.write(json.dumps(dict({"type": "table_run"}, **run), ensure_ascii=False) + "\n")
        for row in rows:
            f.write(json.dumps(table_record(row, columns), ensure_ascii=False) + "\n")
    with open(os.path.join(folder, "table.csv"), "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(columns)
        for row in rows:
            out.writerow([csv_value(c, row.get(c)) for c in columns])
    with open(os.path.join(folder, "index.html"), "w", encoding="utf-8") as f:
        f.write(page(run, rows))


# ---- readable text of the list fields (CSV, report, database) -------------------------

def _num(v):
    return "-" if v is None else str(v)


def variants_text(variants):
    """"name: value (status); ..." (a variant without a status: "name: value")."""
    if variants is None:
        return ""
    if isinstance(variants, str):
        return variants
    parts = []
    for v in variants if isinstance(variants, (list, tuple)) else [variants]:
        if not isinstance(v, dict):
            parts.append(str(v))
            continue
        text = f"{v.get('name') or '?'}: {_num(v.get('value'))}"
        parts.append(text + (f" ({v['status']})" if v.get("status") else ""))
    return "; ".join(parts)


def checks_list(checks):
    """The checks as a list of texts, whatever the record held (None, a text, a list)."""
    if checks is None:
        return []
    if isinstance(checks, str):
        return [checks] if checks else []
    return [str(c) for c in checks]


def csv_value(column, value):
    if value is None:
        return ""
    if column == "variants":
        return variants_text(value)
    if column == "checks":
        return "; ".join(checks_list(value))
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


# ---- the page's cells -----------------------------------------------------------------

def _esc(v):
    return html.escape("" if v is None else str(v))


def is_suspect(status):
    return isinstance(status, str) and status.startswith(SUSPECT)


def disagreeing(row):
    """The parts ("latency", "throughput") whose value LLVM's model disagrees with."""
    return {p.strip() for p in str(row.get("disagree") or "").split(",") if p.strip()}


def _reasons(row, part):
    """Why the part's value is suspect: its status, and the checks that name the part (all
    the row's checks when none names a part)."""
    checks = checks_list(row.get("checks"))
    mine = [c for c in checks if part in c.lower()] or \
        [c for c in checks if "latency" not in c.lower() and "throughput" not in c.lower()]
    status = str(row.get(f"{part}_status") or "")
    rest = status[len(SUSPECT):].lstrip(" :,") if is_suspect(status) else ""
    return "; ".join(([rest] if rest and rest not in mine else []) + mine) or "a self-check failed"


def mark(reason):
    return f'<span class="sus" title="suspect: {_esc(reason)}">!</span>'


def _value_cell(row, part):
    value = row.get(part)
    bound = row.get("latency_bound") if part == "latency" else None
    cls, title = ["n"], []
    text = "" if value is None else _esc(value)
    if value is not None and bound:
        text = f'<span class="bound">{_esc(bound)}</span> {text}'
        title.append(f"{bound}: an upper bound (a helper's latency or a bypass is included)")
    if row.get(f"{part}_spread") is not None:
        title.append(f"spread {row.get(f'{part}_spread')}")
    if part in disagreeing(row):
        cls.append("off")
        title.append(f"LLVM's model {row.get(part + '_model')} lies beyond the measured spread")
    if value is not None and is_suspect(row.get(f"{part}_status")):
        cls.append("suspect")
        text += " " + mark(_reasons(row, part))
    data = f' data-v="{value}"' if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
    tip = f' title="{_esc("; ".join(title))}"' if title else ""
    return f'<td class="{" ".join(cls)}"{data}{tip}>{text}</td>'


def _insns(text):
    """The instructions of a chain or set text (a list, lines or "; "-separated)."""
    if text is None:
        return []
    if isinstance(text, (list, tuple)):
        return [str(t) for t in text]
    parts = str(text).replace("\n", ";").split(";")
    return [p.strip() for p in parts if p.strip()]


def _asm_cell(row, field):
    insns = _insns(row.get(field))
    title = ""
    if not insns and row.get("chain_asm") is None and row.get("set_asm") is None and row.get("asm"):
        # A row from before the two texts were kept: its one text is the chain's where a
        # chain ran, the set's where only a set ran, and LLVM's spelling where nothing ran.
        only_set = row.get("latency") is None and row.get("chain_insns") is None and (
            row.get("throughput") is not None or row.get("set_insns") is not None)
        if (field == "set_asm") == only_set:
            insns = _insns(row.get("asm")) if row.get("throughput") is not None or row.get(
                "latency") is not None else [str(row.get("asm"))]
            title = ' title="the form\'s text (asm): which body it is was not recorded"'
    if len(insns) <= SHORT_SET:
        inner = "".join(f"<code>{_esc(i)}</code>" for i in insns)
    else:
        rest = "".join(f"<code>{_esc(i)}</code>" for i in insns[1:])
        inner = (f"<details><summary><code>{_esc(insns[0])}</code> &hellip; +{len(insns) - 1}</summary>"
                 f"{rest}</details>")
    return f'<td class="asm"{title}>{inner}</td>'


def _variants_cell(row):
    variants = row.get("variants")
    if not variants:
        return '<td class="var"></td>'
    if isinstance(variants, str) or not isinstance(variants, (list, tuple)):
        return f'<td class="var">{_esc(variants_text(variants))}</td>'
    items = []
    for v in variants:
        if not isinstance(v, dict):
            items.append(_esc(v))
            continue
        tip = "; ".join(str(x) for x in (v.get("asm"), v.get("status"),
                                         f"spread {v['spread']}" if v.get("spread") is not None else None) if x)
        of = {"latency": "lat", "throughput": "tput"}.get(v.get("of"), v.get("of") or "")
        sus = " " + mark(v.get("status")) if is_suspect(v.get("status")) else ""
        items.append(f'<div title="{_esc(tip)}"><span class="var-of">{_esc(of)}</span> '
                     f"{_esc(v.get('name'))}: {_esc(_num(v.get('value')))}{sus}</div>")
    return f'<td class="var">{"".join(items)}</td>'


def _checks_cell(row, run):
    checks = checks_list(row.get("checks"))
    source = row.get("cycles_source")
    if source and source != (run or {}).get("cycles_source"):
        checks.append(f"cycles {source}")
    return f'<td class="chk">{"<br>".join(_esc(c) for c in checks)}</td>'


def _status_cell(row):
    lat, tput = row.get("latency_status"), row.get("throughput_status")
    if lat == tput:
        return f'<td class="st">{_esc(lat)}</td>'
    parts = [f"{what}: {_esc(s)}" for what, s in (("lat", lat), ("tput", tput)) if s]
    return f'<td class="st">{"<br>".join(parts)}</td>'


def _counted_cell(row):
    """The counters' verdict; its title gives the counts (and on a P5 the V-pipe counts
    and the pairing class they give); a count that differs from the body carries the "!"."""
    counted = row.get("counted")
    if counted is None:
        return '<td class="chk"></td>'
    tip = [f"{what} {row[k]:g} instructions per body" for what, k in
           (("chain", "chain_insns_counted"), ("set", "set_insns_counted"))
           if isinstance(row.get(k), (int, float))]
    if isinstance(row.get("vpipe_per_copy"), dict):
        tip.append("V pipe per copy: " + ", ".join(f"{k} {_num(v)}" for k, v in row["vpipe_per_copy"].items()))
    if row.get("pairing_counted"):
        tip.append(f"pairing by counting: {row['pairing_counted']}")
    title = f' title="{_esc("; ".join(tip))}"' if tip else ""
    sus = " " + mark(counted) if str(counted).startswith("differs") else ""
    return f'<td class="chk"{title}>{_esc(counted)}{sus}</td>'


def counters_text(run):
    """What the run counted, or why nothing: said once, in the header."""
    counters = (run or {}).get("counters")
    if not counters:
        return "Counters: not recorded by this run"
    exact, differs = (run or {}).get("counted_exact"), (run or {}).get("counted_differs")
    tally = f" ({exact} rows exact, {differs} differ)" if exact is not None and str(counters).startswith(
        "counting") else ""
    return f"Counters: <b>{_esc(counters)}</b>{_esc(tally)}"


def cell(row, column, run=None):
    """One <td> of the page's table."""
    if column == "counted":
        return _counted_cell(row)
    if column in ("latency", "throughput"):
        return _value_cell(row, column)
    if column in ("chain_asm", "set_asm"):
        return _asm_cell(row, column)
    if column == "variants":
        return _variants_cell(row)
    if column == "checks":
        return _checks_cell(row, run)
    if column == "status":
        return _status_cell(row)
    value = row.get(column)
    if column.endswith("_model") and value is not None:
        return f'<td class="n" data-v="{value}">{_esc(value)}</td>'
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<td class="n">{_esc(value)}</td>'
    cls = {"latency_chain": "how", "throughput_set": "how", "operand_latency": "ol"}.get(column)
    if column == "operand_pair" and value is not None:
        return f'<td class="pair"><code>{_esc(value)}</code></td>'
    return f'<td class="{cls}">{_esc(value)}</td>' if cls else f"<td>{_esc(value)}</td>"


def row_class(row):
    """"off" when LLVM's model disagrees with a value (only that value's cell is coloured),
    "skip" when nothing was measured."""
    if row.get("disagree"):
        return "off"
    return "skip" if row.get("latency") is None and row.get("throughput") is None else ""


def row_html(row, run=None):
    return f'<tr class="{row_class(row)}">' + "".join(cell(row, c, run) for c in PAGE_COLUMNS) + "</tr>"


def head_html():
    return "".join(f'<th data-col="{f}" title="{_esc(f + ": " + what)}">{_esc(h)}</th>' for f, h, what in PAGE)


# ---- the legend ---------------------------------------------------------------------

def cycles_text(run):
    """How the run's cycles were obtained, as HTML (an estimate highlighted)."""
    source = (run or {}).get("cycles_source")
    if not source:
        return "How the cycles were obtained: not recorded by this run"
    cls = ' class="src-estimated"' if "estimat" in str(source).lower() else ""
    return f"Cycles: <b{cls}>{_esc(source)}</b>"


def floors_text(run):
    floors = (run or {}).get("floors")
    if not isinstance(floors, dict) or not floors:
        return "this run recorded no floors (made before the self-checks)"
    nop, add = floors.get("nop_throughput"), floors.get("add_latency")
    parts = []
    if nop is not None:
        width = f", about {1 / nop:.1f} per cycle: the front end's width" if nop else ""
        parts.append(f"a NOP set ran at {_esc(nop)} cycles per NOP{width}")
    if add is not None:
        parts.append(f"an ADD chain at {_esc(add)} cycles per ADD")
    others = [f"{_esc(k)} {_esc(v)}" for k, v in floors.items() if k not in ("nop_throughput", "add_latency")]
    return "this session's floors: " + "; ".join(parts + others)


def legend(run=None):
    """The marks explained (<ul class="legend">); with a run, its cycles and floors."""
    items = [
        '<span class="bound">≤</span> 3.0: an upper bound, as uops.info prints it: the chain '
        "includes a helper instruction's latency (taken as 1 cycle) or a bypass between units, "
        "so the form's own latency is at most this.",
        f"{mark('the reason')} (hover it): suspect: a self-check failed (a throughput below the "
        "session's NOP floor, a latency of 0 or below one cycle for a chain that is no recognised "
        "idiom, a repeat in another batch that disagrees beyond the spread); the checks column "
        "says why. Such a value is never a plain measurement.",
        '<span style="background:#fbb;padding:0 3px">red</span>: LLVM\'s model lies beyond the '
        "measured spread for that value (the latency or the throughput), the other cells "
        "are not coloured.",
        '<span class="src-estimated">estimated</span>: on a guest without APERF the core clock '
        "cannot be read; the cycles are estimated from the ticks at the rate of the session's "
        "one-cycle ADD chain. A real clock counts them (APERF).",
        "chain: one copy of the latency chain, n its instructions, how it was closed and the "
        "operand pair (input -> output); set: one body of the throughput set (click to unfold "
        "it), n its instructions, how it was built; variants: the form measured another way "
        "(lat: latency, tput: throughput).",
    ]
    if run is not None:
        items.append(floors_text(run)[0].upper() + floors_text(run)[1:] + ".")
    return '<ul class="legend">' + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def suspect_count(rows):
    return sum(1 for r in rows for p in ("latency", "throughput")
               if r.get(p) is not None and is_suspect(r.get(f"{p}_status")))


def page(run, rows):
    body = [row_html(row, run) for row in rows]
    skips = "".join(f"<li>{html.escape(k)}: {v}</li>" for k, v in sorted(run.get("skipped", {}).items()))
    facts = html.escape(f"{run.get('cpu_name')} ({run.get('cpu_brand')}); LLVM model: "
                        f"{run.get('model_cpu')} ({run.get('llvm')}); {run.get('note') or ''}")
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>cyclekit instruction table</title>
<style>{STYLE}</style></head><body><h1>Instruction table</h1>
<p>{facts}</p><p>{cycles_text(run)}.</p><p>{counters_text(run)}.</p>
<p>{run.get('forms')} forms, {run.get('measured')} measured, {run.get('seconds')} s;
{suspect_count(rows)} values suspect. Latency: core cycles per copy of a dependent chain; throughput: reciprocal, per instruction.</p>
{legend(run)}<ul>{skips}</ul>
<p>Filter (regular expression): <input id="filter" size="40"> <span id="shown">{len(rows)}</span> shown;
click a heading to sort.</p>
<table id="forms" class="table-forms"><thead><tr>{head_html()}</tr></thead><tbody>
{chr(10).join(body)}
</tbody></table><script>{SCRIPT}</script></body></html>
"""
