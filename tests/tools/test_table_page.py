"""The instruction table's page, CSV, report section and database rows with issue 29's
columns (cyclekit/table/output.py, results/table_section.py, results/table_rows.py): the
chain's and the set's text side by side, "≤" for an upper bound, a suspect value marked
with its reason, only the disagreeing cell coloured, a legend with the run's cycles and
floors; rows from before those columns still render. Hand-made rows: structure only,
never a timing."""
import copy
import csv
import html
import json
import re

import pytest

from cyclekit.table import output, rows

ESTIMATED = "estimated from the ADD chain (no APERF in this guest)"
RUN = {"forms": 6, "measured": 5, "skipped": {"privileged (ring 0) or traps to the hypervisor": 1},
       "seconds": 2.5, "cpu_name": "Granite Rapids", "cpu_brand": "Intel(R) Xeon(R) 6",
       "model_cpu": "sapphirerapids", "llvm": "llvm-mca-16", "note": None,
       "cycles_source": ESTIMATED, "floors": {"nop_throughput": 0.167, "add_latency": 1.0}}


def made_rows():
    """Every column of rows.COLUMNS filled on the first rows; the last two as a record from
    before issue 29 (the new fields missing) and a skipped form."""
    return copy.deepcopy([
        {"opcode": "MOVSX64rr32", "isa": "gpr", "asm": "cdqe", "latency": 1.0, "latency_spread": 0.01,
         "latency_bound": None, "latency_model": 1.0, "latency_status": "measured", "latency_chain": "self",
         "chain_asm": "cdqe", "chain_insns": 1, "operand_pair": "eax -> rax", "operand_latency": None,
         "throughput": 0.25, "throughput_spread": 0.0, "throughput_model": 0.5, "throughput_status": "measured",
         "throughput_set": "8 copies, distinct registers",
         "set_asm": "movsxd rax,ecx; movsxd rbx,edx; movsxd rsi,r8d; movsxd r9,r10d",
         "set_insns": 4, "variants": [], "checks": [], "cycles_source": ESTIMATED,
         "disagree": "throughput", "model_cpu": "sapphirerapids"},
        {"opcode": "CVTSD2SSrr_Int", "isa": "sse", "asm": "cvtsd2ss xmm1,xmm2", "latency": 5.0,
         "latency_spread": 0.02, "latency_bound": "≤", "latency_model": 5.0, "latency_status": "measured",
         "latency_chain": "round trip through movsd", "chain_asm": "cvtsd2ss xmm1,xmm2; movsd xmm2,xmm1",
         "chain_insns": 2, "operand_pair": "xmm2 -> xmm1", "operand_latency": "xmm1: 0.99",
         "throughput": 1.0, "throughput_spread": 0.0, "throughput_model": 1.0, "throughput_status": "measured",
         "throughput_set": "6 copies, distinct registers, xorps zero idiom on the merge target",
         "set_asm": "xorps xmm1,xmm1; cvtsd2ss xmm1,xmm2", "set_insns": 6,
         "variants": [{"name": "pass-through", "of": "latency", "value": 0.99, "spread": 0.01,
                       "status": "measured", "asm": "cvtsd2ss xmm1,xmm2"},
                      {"name": "no dependency breaking", "of": "throughput", "value": 3.0, "spread": 0.0,
                       "status": "measured", "asm": "cvtsd2ss xmm1,xmm2"}],
         "checks": [], "cycles_source": ESTIMATED, "disagree": None, "model_cpu": "sapphirerapids"},
        {"opcode": "VMAXPDZrr", "isa": "avx512", "asm": "vmaxpd zmm0,zmm0,zmm2", "latency": 4.0,
         "latency_spread": 0.0, "latency_bound": None, "latency_model": 4.0, "latency_status": "measured",
         "latency_chain": "self", "chain_asm": "vmaxpd zmm0,zmm0,zmm2", "chain_insns": 1,
         "operand_pair": "zmm0 -> zmm0", "operand_latency": "zmm2: 4.0", "throughput": 0.01,
         "throughput_spread": 0.002, "throughput_model": 0.5,
         "throughput_status": "suspect: below the NOP floor", "throughput_set": "8 copies, distinct registers",
         "set_asm": "vmaxpd zmm0,zmm8,zmm9\nvmaxpd zmm1,zmm8,zmm9\nvmaxpd zmm2,zmm8,zmm9", "set_insns": 3,
         "variants": [{"name": "alone", "of": "throughput", "value": 0.5, "spread": 0.01,
                       "status": "measured", "asm": "vmaxpd zmm0,zmm8,zmm9"}],
         "checks": ["throughput 0.01 below the NOP floor 0.167"], "cycles_source": ESTIMATED,
         "disagree": "throughput", "model_cpu": "sapphirerapids"},
        {"opcode": "VFMADD132SSr", "isa": "avx", "asm": "vfmadd132ss xmm1,xmm2,xmm3", "latency": 0.0,
         "latency_spread": 0.0, "latency_bound": None, "latency_model": 4.0, "latency_status": "suspect",
         "latency_chain": "self", "chain_asm": "vfmadd132ss xmm1,xmm2,xmm3", "chain_insns": 1,
         "operand_pair": "xmm1 -> xmm1", "operand_latency": None, "throughput": 0.5, "throughput_spread": 0.0,
         "throughput_model": 0.5, "throughput_status": "measured", "throughput_set": "12 copies",
         "set_asm": "vfmadd132ss xmm4,xmm2,xmm3", "set_insns": 12,
         "variants": [{"name": "zero mask", "of": "throughput", "value": 0.0, "spread": 0.0,
                       "status": "suspect: a throughput of 0", "asm": "vfmadd132ss xmm4{k1},xmm2,xmm3"}],
         "checks": ["latency 0: a chain cannot take no time"], "cycles_source": "APERF",
         "disagree": "latency,throughput", "model_cpu": "sapphirerapids"},
        {"opcode": "ADD32rr", "isa": "gpr", "asm": "add eax,ebx", "latency": 1.0, "latency_spread": 0.0,
         "latency_model": 1.0, "throughput": 0.25, "throughput_model": 0.25, "latency_status": "measured",
         "throughput_status": "measured", "chain_insns": 1, "set_insns": 12, "model_cpu": "sapphirerapids"},
        {"opcode": "RDMSR", "isa": None, "asm": "rdmsr", "latency_status": "skipped: privileged",
         "throughput_status": "skipped: privileged"},
    ])


class Cells:
    """The forms table of a page: its headings' fields and each row's cells as
    (class, title, text, inner HTML), by opcode."""

    def __init__(self, page, table_id="forms"):
        start = page.index(f"id={table_id!r}" if f"id={table_id!r}" in page else f'id="{table_id}"')
        part = page[start:page.index("</table>", start)]
        self.fields = re.findall(r'<th data-col="(\w+)"', part)
        self.rows, self.row_class = {}, {}
        for tr_class, body in re.findall(r'<tr class="([^"]*)">(.*?)</tr>', part, re.S):
            cells = re.findall(r"<td([^>]*)>(.*?)</td>", body, re.S)
            parsed = []
            for attrs, inner in cells:
                cls = re.search(r'class="([^"]*)"', attrs)
                title = re.search(r'title="([^"]*)"', attrs)
                parsed.append((cls.group(1).split() if cls else [], html.unescape(title.group(1)) if title else "",
                               html.unescape(re.sub(r"<[^>]+>", " ", inner)).split(), inner))
            if parsed and self.fields:
                by = dict(zip(self.fields, parsed))
                op = " ".join(by["opcode"][2])
                self.rows[op], self.row_class[op] = by, tr_class

    def text(self, op, field):
        return " ".join(self.rows[op][field][2])

    def cls(self, op, field):
        return self.rows[op][field][0]


@pytest.fixture
def written(tmp_path):
    output.write_all(str(tmp_path), dict(RUN), made_rows())
    return tmp_path


def test_jsonl_keeps_the_structures_and_csv_writes_them_readably(written):
    lines = [json.loads(x) for x in (written / "table.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "table_run" and lines[0]["floors"] == RUN["floors"]
    assert lines[0]["cycles_source"] == ESTIMATED
    by = {r["opcode"]: r for r in lines[1:]}
    assert by["CVTSD2SSrr_Int"]["variants"][1] == {"name": "no dependency breaking", "of": "throughput",
                                                   "value": 3.0, "spread": 0.0, "status": "measured",
                                                   "asm": "cvtsd2ss xmm1,xmm2"}
    assert by["VMAXPDZrr"]["checks"] == ["throughput 0.01 below the NOP floor 0.167"]
    assert set(by["ADD32rr"]) == {"type", *rows.COLUMNS} and by["ADD32rr"]["variants"] is None
    with open(written / "table.csv", encoding="utf-8", newline="") as f:
        table = list(csv.DictReader(f))
    assert tuple(table[0]) == rows.COLUMNS
    csv_by = {r["opcode"]: r for r in table}
    assert csv_by["CVTSD2SSrr_Int"]["variants"] == \
        "pass-through: 0.99 (measured); no dependency breaking: 3.0 (measured)"
    assert csv_by["CVTSD2SSrr_Int"]["latency_bound"] == "≤"
    assert csv_by["CVTSD2SSrr_Int"]["chain_asm"] == "cvtsd2ss xmm1,xmm2; movsd xmm2,xmm1"
    assert csv_by["VFMADD132SSr"]["variants"] == "zero mask: 0.0 (suspect: a throughput of 0)"
    assert csv_by["VFMADD132SSr"]["checks"] == "latency 0: a chain cannot take no time"
    assert csv_by["MOVSX64rr32"]["variants"] == "" and csv_by["MOVSX64rr32"]["checks"] == ""
    assert csv_by["ADD32rr"]["variants"] == "" and csv_by["ADD32rr"]["set_insns"] == "12"
    assert output.checks_list("one") == ["one"] and output.variants_text("as text") == "as text"
    assert output.variants_text([{"name": "alone", "value": None}]) == "alone: -"


def test_page_shows_what_was_run_beside_each_value(written):
    page = (written / "index.html").read_text(encoding="utf-8")
    t = Cells(page)
    for field in ("chain_asm", "chain_insns", "latency_chain", "operand_pair", "set_asm", "set_insns",
                  "throughput_set", "variants", "checks", "latency", "throughput"):
        assert field in t.fields, field
    # MOVSX64rr32: the chain runs cdqe, the set movsxd; both are on the page, the set folded
    # after its first instruction with the rest inside.
    assert t.text("MOVSX64rr32", "chain_asm") == "cdqe"
    assert t.text("MOVSX64rr32", "set_asm").startswith("movsxd rax,ecx … +3 movsxd rbx,edx")
    assert "<details>" in t.rows["MOVSX64rr32"]["set_asm"][3]
    assert (t.text("MOVSX64rr32", "chain_insns"), t.text("MOVSX64rr32", "set_insns")) == ("1", "4")
    assert t.text("MOVSX64rr32", "operand_pair") == "eax -> rax"
    assert t.text("MOVSX64rr32", "throughput_set") == "8 copies, distinct registers"
    assert t.text("CVTSD2SSrr_Int", "chain_asm") == "cvtsd2ss xmm1,xmm2 movsd xmm2,xmm1"
    assert t.text("CVTSD2SSrr_Int", "latency_chain") == "round trip through movsd"
    # An upper bound reads "≤ 5.0" and sorts as 5.0.
    assert t.text("CVTSD2SSrr_Int", "latency") == "≤ 5.0"
    assert 'data-v="5.0"' in re.search(r'<td[^>]*>\s*<span class="bound">', page).group(0)
    assert t.text("MOVSX64rr32", "latency") == "1.0"
    # The variants, compactly: of, name, value.
    assert t.text("CVTSD2SSrr_Int", "variants") == "lat pass-through: 0.99 tput no dependency breaking: 3.0"
    assert t.text("ADD32rr", "variants") == ""


def test_a_suspect_value_is_marked_with_its_reason(written):
    t = Cells((written / "index.html").read_text(encoding="utf-8"))
    vmax = t.rows["VMAXPDZrr"]["throughput"]
    assert t.text("VMAXPDZrr", "throughput") == "0.01 !" and "suspect" in vmax[0]
    mark = re.search(r'<span class="sus" title="([^"]*)">!</span>', vmax[3]).group(1)
    assert html.unescape(mark) == "suspect: below the NOP floor; throughput 0.01 below the NOP floor 0.167"
    assert t.text("VMAXPDZrr", "checks") == "throughput 0.01 below the NOP floor 0.167"
    assert t.text("VMAXPDZrr", "latency") == "4.0"           # the row's other value is not marked
    fma = t.rows["VFMADD132SSr"]
    assert t.text("VFMADD132SSr", "latency") == "0.0 !"
    assert "latency 0: a chain cannot take no time" in html.unescape(fma["latency"][3])
    assert t.text("VFMADD132SSr", "throughput") == "0.5"
    assert t.text("VFMADD132SSr", "variants") == "tput zero mask: 0.0 !"    # a suspect variant too
    # A row whose cycles were obtained otherwise than the run's says so.
    assert t.text("VFMADD132SSr", "checks") == "latency 0: a chain cannot take no time cycles APERF"
    assert t.text("MOVSX64rr32", "checks") == ""


def test_only_the_disagreeing_cell_is_coloured(written):
    page = (written / "index.html").read_text(encoding="utf-8")
    t = Cells(page)
    coloured = {op: [f for f in t.fields if "off" in t.cls(op, f)] for op in t.rows}
    assert coloured == {"MOVSX64rr32": ["throughput"], "CVTSD2SSrr_Int": [], "VMAXPDZrr": ["throughput"],
                        "VFMADD132SSr": ["latency", "throughput"], "ADD32rr": [], "RDMSR": []}
    assert "LLVM's model 0.5 lies beyond" in t.rows["MOVSX64rr32"]["throughput"][1]
    # No rule colours a whole row any more.
    assert "tr.off" not in output.TABLE_STYLE and "td.off{background" in output.TABLE_STYLE
    assert t.row_class["MOVSX64rr32"] == "off" and t.row_class["RDMSR"] == "skip"


def test_legend_and_header_say_how_the_cycles_were_obtained(written):
    page = (written / "index.html").read_text(encoding="utf-8")
    head = page[:page.index('id="forms"')]
    text = html.unescape(re.sub(r"<[^>]+>", "", head))
    assert f"Cycles: {ESTIMATED}." in text
    assert '<b class="src-estimated">' in head
    legend = html.unescape(re.sub(r"<[^>]+>", "", re.search(r'<ul class="legend">.*?</ul>', head, re.S).group(0)))
    for words in ("≤ 3.0: an upper bound", "! (hover it): suspect", "red: LLVM's model lies beyond",
                  "estimated: on a guest without APERF", "one-cycle ADD chain",
                  "a NOP set ran at 0.167 cycles per NOP", "an ADD chain at 1.0 cycles per ADD"):
        assert words in legend, words
    assert "2 values suspect" in text
    # The page is self-contained and its only table rows are the forms'.
    assert page.count("<tr") == len(made_rows()) + 1 and "src=" not in page and "<link" not in page
    # A run from before the floors and the cycles' source says it has neither.
    old = output.page({"forms": 0, "measured": 0, "skipped": {}}, [])
    assert "not recorded by this run" in old and "recorded no floors" in old


def test_a_record_without_the_new_fields_still_renders(tmp_path):
    """A table written before issue 29: one `asm`, no bound, variants or checks; its text
    goes to the chain where a chain ran, to the set where only a set ran."""
    old = [{"opcode": "ADD32rr", "isa": "gpr", "asm": "add eax,ebx", "latency": 1.0, "throughput": 0.25,
            "chain_insns": 1, "set_insns": 12, "latency_status": "measured", "throughput_status": "measured"},
           {"opcode": "MOV32mr", "isa": "gpr", "asm": "mov DWORD PTR [rdi],eax; mov DWORD PTR [rdi+0x40],ebx",
            "throughput": 0.5, "set_insns": 2, "latency_status": "skipped: a store", "throughput_status": "measured"}]
    output.write_all(str(tmp_path), {"forms": 2, "measured": 2, "skipped": {}}, old)
    t = Cells((tmp_path / "index.html").read_text(encoding="utf-8"))
    assert (t.text("ADD32rr", "chain_asm"), t.text("ADD32rr", "set_asm")) == ("add eax,ebx", "")
    assert t.text("MOV32mr", "chain_asm") == ""
    assert t.text("MOV32mr", "set_asm") == "mov DWORD PTR [rdi],eax mov DWORD PTR [rdi+0x40],ebx"
    assert t.text("MOV32mr", "status") == "lat: skipped: a store tput: measured"
    assert t.text("ADD32rr", "status") == "measured"
    with open(tmp_path / "table.csv", encoding="utf-8") as f:
        assert [r["variants"] for r in csv.DictReader(f)] == ["", ""]


def _dom(browser, url):
    dom = browser.page(url)
    return dom, dom[dom.index("<body"):].split(">", 1)[0]


@pytest.mark.parametrize("view, shown", [
    # "≤ 5.0" and "0.0 !" sort by their numbers; an empty cell goes last either way.
    ("sort=-latency", ["CVTSD2SSrr_Int", "VMAXPDZrr", "MOVSX64rr32", "ADD32rr", "VFMADD132SSr", "RDMSR"]),
    ("sort=latency", ["VFMADD132SSr", "MOVSX64rr32", "ADD32rr", "VMAXPDZrr", "CVTSD2SSrr_Int", "RDMSR"]),
    # A field's name sorts its column (two columns are headed "n"), a filter hides rows.
    ("filter=suspect|movsx&sort=-set_insns", ["VFMADD132SSr", "MOVSX64rr32", "VMAXPDZrr"]),
])
def test_the_pages_script_sorts_and_filters_in_headless_chromium(written, browser, view, shown):
    dom, body = _dom(browser, "file://" + str(written / "index.html") + "#" + view)
    assert 'data-rows="6"' in body and "data-errors" not in body, body
    order = re.findall(r"<tr[^>]*>\s*<td[^>]*>(\w+)</td>", dom)
    hidden = re.findall(r'<tr[^>]*hidden[^>]*>\s*<td[^>]*>(\w+)</td>', dom)
    assert [op for op in order if op not in hidden] == shown, (order, hidden)


def test_report_section_has_the_marks_and_colours_one_cell():
    from cyclekit.results import table_section
    made = made_rows()
    section = table_section.section([("t", dict(RUN), made)])
    t = Cells(section)
    assert t.text("CVTSD2SSrr_Int", "latency") == "≤ 5.0"
    assert t.text("VMAXPDZrr", "throughput") == "0.01 !"
    assert [f for f in t.fields if "off" in t.cls("MOVSX64rr32", f)] == ["throughput"]
    assert "tr.off" not in section and '<ul class="legend">' in section
    assert ESTIMATED in section and "a NOP set ran at 0.167 cycles per NOP" in section
    assert "2 values suspect" in section
    assert table_section.comparison(made)[-1] == ["sse", 1, 1, 1, 0, "1.00", 1, 0, "1.00"]


def _imported(db_url, folder):
    from sqlalchemy import create_engine, select
    from cyclekit.results import table_rows
    engine = create_engine(db_url, future=True)
    try:
        state, message, table_id = table_rows.import_table(engine, str(folder))
        assert state == "stored", message
        with engine.connect() as conn:
            forms = {r.opcode: r for r in conn.execute(select(table_rows.instruction_forms)
                                                       .where(table_rows.instruction_forms.c.table_id == table_id))}
        stored = [t for t in table_rows.stored_tables(engine) if t["id"] == table_id][0]
    finally:
        engine.dispose()
    return stored, forms


def _check_new_columns(stored, forms):
    assert json.loads(stored["floors"]) == RUN["floors"] and stored["cycles_source"] == ESTIMATED
    cvt = forms["CVTSD2SSrr_Int"]
    assert (cvt.latency_bound, cvt.chain_asm, cvt.set_asm, cvt.operand_pair, cvt.chain_insns) == (
        "≤", "cvtsd2ss xmm1,xmm2; movsd xmm2,xmm1", "xorps xmm1,xmm1; cvtsd2ss xmm1,xmm2", "xmm2 -> xmm1", 2)
    assert cvt.throughput_set.startswith("6 copies") and cvt.cycles_source == ESTIMATED
    assert json.loads(cvt.variants) == made_rows()[1]["variants"]
    assert json.loads(forms["VMAXPDZrr"].checks) == ["throughput 0.01 below the NOP floor 0.167"]
    assert forms["VMAXPDZrr"].throughput_status == "suspect: below the NOP floor"
    assert forms["ADD32rr"].variants is None and forms["ADD32rr"].latency_bound is None


def test_db_stores_the_new_columns(written, tmp_path):
    _check_new_columns(*_imported("sqlite:///" + str(tmp_path / "r.db"), written))


def _old_instruction_tables(engine):
    """The two tables as a cyclekit before issue 29 made them (no new column)."""
    from sqlalchemy import Column, Float, ForeignKey, Integer, MetaData, String, Table, Text
    old = MetaData()
    Table("instruction_tables", old, Column("id", Integer, primary_key=True),
          Column("checksum", String(64), nullable=False, unique=True), Column("label", Text, nullable=False),
          *[Column(k, Text) for k in ("cpu_name", "cpu_brand", "model_cpu", "llvm", "note", "skipped")],
          Column("forms", Integer), Column("measured", Integer), Column("seconds", Float),
          Column("imported", Text, nullable=False))
    Table("instruction_forms", old, Column("id", Integer, primary_key=True),
          Column("table_id", Integer, ForeignKey("instruction_tables.id", ondelete="CASCADE"), nullable=False),
          *[Column(k, Text) for k in ("opcode", "isa", "asm", "latency_status", "latency_chain",
                                      "operand_latency", "throughput_status", "disagree", "model_cpu")],
          *[Column(k, Float) for k in ("latency", "latency_spread", "latency_model", "throughput",
                                       "throughput_spread", "throughput_model")],
          Column("chain_insns", Integer), Column("set_insns", Integer))
    old.create_all(engine)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_older_database_gains_the_new_columns(request, tmp_path_factory, written, kind):
    """A database whose instruction tables an older cyclekit made: `db import` adds the
    new nullable columns in place and stores the table with them (SQLite and PostgreSQL)."""
    from sqlalchemy import create_engine, inspect
    from test_db import fresh_db
    from cyclekit.results import store
    url = store.url_of(fresh_db(request, tmp_path_factory, kind, "cyclekit_table_cols"))
    engine = create_engine(url, future=True)
    _old_instruction_tables(engine)
    assert "variants" not in {c["name"] for c in inspect(engine).get_columns("instruction_forms")}
    engine.dispose()
    _check_new_columns(*_imported(url, written))
    engine = create_engine(url, future=True)
    have = {c["name"] for c in inspect(engine).get_columns("instruction_forms")}
    engine.dispose()
    assert {"latency_bound", "chain_asm", "set_asm", "operand_pair", "throughput_set", "variants", "checks",
            "cycles_source"} <= have


from test_db import postgres  # noqa: E402,F401  (the PostgreSQL fixture, skipped where none starts)
