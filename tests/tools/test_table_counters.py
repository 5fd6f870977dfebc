"""The table's counters column (issue 30, cyclekit/table/counters.py): which events a
session is asked for, and what the counts in its records prove, fed with kernel records
of the shape tests/boot/test_pmu_counting.py reads (`events: [{"event", "per_body"}]`).
No QEMU, no LLVM: the bodies are built here, the records synthesized."""
import csv
import json
import os
import subprocess
import sys

from conftest import ROOT
from cyclekit.table import build, counters, i386, measure
from cyclekit.table.forms import Insn
from cyclekit.verbs import table as table_verb

ADD = Insn(b"\x01\xd8", "add eax,ebx")
IMUL = Insn(b"\x0f\xaf\xc3", "imul eax,ebx")


def probe(check, event, ok=True):
    return {"check": check, "event": event, "ok": ok, "delta": 2000 if ok else 0, "min": 2000, "max": 2125}


P5_COUNTING = {"type": "pmu", "driver": "p5", "kind": "p5", "verdict": "counting", "reason": "",
               "evidence": [probe("instructions", "INSTRUCTIONS_EXECUTED"), probe("cycles", "CYCLES")]}
P5_TCG = {"type": "pmu", "driver": "p5-mmx", "kind": "p5", "verdict": "not counting",
          "reason": "counters read zero",
          "evidence": [probe("instructions", "INSTRUCTIONS_EXECUTED", ok=False)]}
ARCH_COUNTING = {"type": "pmu", "driver": "arch-perfmon", "kind": "arch", "verdict": "counting",
                 "evidence": [probe("instructions", "INST_RETIRED.ANY_P"), probe("branches", "BR")]}
LINUX_REFUSED = {"type": "pmu", "driver": "linux-perf", "kind": "linux", "verdict": "not counting",
                 "reason": "perf_event_open(PERF_TYPE_HARDWARE instructions): ENOENT: no hardware PMU in this VM"}


def result(counts, cycles=1.0):
    """A result record; counts: {event: per_body, or None for an error 0x402}."""
    events = [{"event": e, "per_body": v} if v is not None else {"event": e, "per_body": None, "error": "0x402"}
              for e, v in counts.items()]
    return {"type": "result", "name": "x", "cycles": cycles, "ticks": cycles, "marks": "ok", "stable": True,
            "stats": {"median": cycles, "mode": cycles, "mean_20_80": cycles}, "events": events}


def form_of(insn, opcode, copies=4):
    """A form with a chain of one copy, a set of COPIES copies and the three pairing bodies."""
    form = build.Form(opcode)
    form.lat = i386.Body32([], [insn])
    form.tput = i386.Body32([], [insn] * copies)
    i386.add_pairing([form])
    return form


def records_of(opcode, insns, vpipe=None):
    """{key: record}: instructions per body as given ({kind: count}); V-pipe per copy of the
    pairing bodies ({"ref", "U", "V"}), none when vpipe is None."""
    out = {}
    for kind, n in insns.items():
        counts = {"INSTRUCTIONS_EXECUTED": n}
        if vpipe is not None and kind.startswith("pair:"):
            counts[counters.VPIPE_EVENT] = vpipe[kind[5:]]
        out[(opcode, kind)] = result(counts)
    return out


def exact_counts(form):
    """Each body's own instruction count: what a proved counter must see."""
    return {k: len(counters._body(form, k).insns) for k, _ in counters.COUNTED_KINDS}


# ---- the plan: what the session is asked for --------------------------------------------

def test_a_p5_that_proved_itself_is_asked_for_instructions_and_the_v_pipe():
    plan = counters.plan(P5_COUNTING)
    assert plan.events == ["INSTRUCTIONS_EXECUTED", "INSTRUCTIONS_EXECUTED_V_PIPE"]
    assert plan.request() == "events=INSTRUCTIONS_EXECUTED,INSTRUCTIONS_EXECUTED_V_PIPE"


def test_the_proved_event_is_the_one_asked_for_elsewhere():
    # The proof's own instructions event (arch: the general INST_RETIRED.ANY_P), no V pipe.
    assert counters.plan(ARCH_COUNTING).events == ["INST_RETIRED.ANY_P"]
    # A record naming no event: the driver kind's instructions event.
    no_name = dict(ARCH_COUNTING, kind="amd", driver="amd-k7", evidence=[])
    assert counters.plan(no_name).events == ["RETIRED_INSTRUCTIONS"]


def test_no_proof_asks_nothing_and_says_why():
    for pmu, why in ((P5_TCG, "p5-mmx PMU did not prove itself: counters read zero"),
                     (LINUX_REFUSED, "ENOENT: no hardware PMU in this VM"),
                     (None, "no pmu record")):
        plan = counters.plan(pmu)
        assert plan.events == [] and plan.request() == ""
        assert plan.summary().startswith("no counters: ") and why in plan.summary(), plan.summary()


class FakeSession:
    def __init__(self, boot):
        self.boot = boot
        self.lines = []

    def load(self, data):
        return []

    def request(self, line):
        self.lines.append(line)
        return [result({}) | {"name": f"{measure.PREFIX}00"}]

    def close(self):
        pass


def test_the_run_requests_carry_the_events_only_when_proved():
    for pmu, want in ((P5_COUNTING, "run table/s* samples=5 events=INSTRUCTIONS_EXECUTED,"
                                    "INSTRUCTIONS_EXECUTED_V_PIPE"),
                      (P5_TCG, "run table/s* samples=5")):
        session = FakeSession([{"type": "cpu", "name": "P5"}, pmu])
        runner = measure.Runner(lambda: session, "samples=5")
        runner.start_session()
        assert runner.pmu is pmu
        table_verb.ask_counters(runner)
        got = runner.batch([(("ADD32rr", "lat"), lambda name: b"")])
        assert session.lines == [want]
        assert got[("ADD32rr", "lat")]["type"] == "result"


# ---- the rows: what the counts prove ------------------------------------------------------

def test_counts_equal_to_the_bodies_are_exact():
    form = form_of(ADD, "ADD32rr")
    records = records_of("ADD32rr", exact_counts(form), {"ref": 0, "U": 1, "V": 1})
    got = counters.row_fields(form, records, counters.plan(P5_COUNTING), p5=True)
    assert got["chain_insns_counted"] == 1 and got["set_insns_counted"] == 4
    assert got["counted"] == "exact"


def test_a_count_that_differs_names_the_body_and_by_how_many():
    form = form_of(ADD, "ADD32rr")
    counts = exact_counts(form)
    counts["tput"] += 1          # one instruction more per body than built (an assist, a fault)
    got = counters.instruction_fields(form, records_of("ADD32rr", counts), counters.plan(P5_COUNTING))
    assert got["set_insns_counted"] == 5
    assert got["counted"] == "differs: set 5 counted, 4 in the body (+1)"


def test_a_count_the_kernel_refused_is_no_number():
    form = form_of(ADD, "ADD32rr")
    records = {(form.opcode, k): result({"INSTRUCTIONS_EXECUTED": None}) for k, _ in counters.COUNTED_KINDS}
    got = counters.instruction_fields(form, records, counters.plan(P5_COUNTING))
    assert got["chain_insns_counted"] is None and got["set_insns_counted"] is None
    assert got["counted"].startswith("not counted: chain: the kernel gave error 0x402")


def test_no_counters_gives_no_number_even_from_records_that_carry_one():
    form = form_of(ADD, "ADD32rr")
    records = records_of("ADD32rr", exact_counts(form), {"ref": 0, "U": 1, "V": 1})
    got = counters.row_fields(form, records, counters.plan(P5_TCG), p5=True)
    assert got == {"chain_insns_counted": None, "set_insns_counted": None, "counted": "no counters",
                   "vpipe_per_copy": None, "pairing_counted": None}


# ---- the P5's V pipe: pairing by counting -------------------------------------------------

def test_v_pipe_counts_give_the_pairing_class():
    assert counters.vpipe_pairing(0, 1, 1) == ("UV", None)
    assert counters.vpipe_pairing(0, 1, 0) == ("PU", None)       # F;P pairs, P;F does not
    assert counters.vpipe_pairing(0, 0, 1) == ("PV", None)
    assert counters.vpipe_pairing(0, 0, 0) == ("NP", None)
    # The form alone after CLD can pair with nothing: a count there is no pairing.
    cls, why = counters.vpipe_pairing(1, 1, 1)
    assert cls is None and "ref 1" in why
    assert counters.vpipe_pairing(0, 2, 0)[0] is None


def test_the_row_gives_the_counted_class_beside_the_models():
    form = form_of(ADD, "ADC32rr")
    records = records_of("ADC32rr", exact_counts(form), {"ref": 0.0, "U": 1.0, "V": 0.0})
    got = counters.vpipe_fields(form, records, counters.plan(P5_COUNTING))
    assert got == {"vpipe_per_copy": {"ref": 0.0, "U": 1.0, "V": 0.0}, "pairing_counted": "PU"}
    # Without the V-pipe event (a P6's PMU) no class is counted.
    assert counters.vpipe_fields(form, records, counters.plan(ARCH_COUNTING))["pairing_counted"] is None


def p5_rows():
    """(info, rows) of a P5 table of two forms that counted: ADD32rr exact and pairing
    in both pipes, IMUL32rr's chain counted 3 (2 more than its body) and pairing in none."""
    add, imul = form_of(ADD, "ADD32rr"), form_of(IMUL, "IMUL32rr")
    records = {("pmu", "record"): P5_COUNTING}
    records.update(records_of("ADD32rr", exact_counts(add), {"ref": 0, "U": 1, "V": 1}))
    off = exact_counts(imul)
    off["lat"] = 3
    records.update(records_of("IMUL32rr", off, {"ref": 0, "U": 0, "V": 0}))
    return i386.rows_of([add, imul], records, "pentium2", lambda s: None, {})


def test_rows_of_and_the_files_carry_the_columns_and_the_reason_once(tmp_path):
    info, rows_ = p5_rows()
    by = {r["opcode"]: r for r in rows_}
    assert by["ADD32rr"]["counted"] == "exact" and by["ADD32rr"]["pairing_counted"] == "UV"
    assert by["IMUL32rr"]["counted"] == "differs: chain 3 counted, 1 in the body (+2)"
    assert by["IMUL32rr"]["pairing_counted"] == "NP"
    assert info["counted_exact"] == 1 and info["counted_differs"] == 1
    assert info["counter_events"] == ["INSTRUCTIONS_EXECUTED", "INSTRUCTIONS_EXECUTED_V_PIPE"]
    assert info["bodies"] == 10            # the pmu record is no body
    i386.write_all(str(tmp_path), info, rows_)
    with open(tmp_path / "table.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert tuple(table[0]) == i386.columns32()
    assert [r["counted"] for r in table] == ["exact", "differs: chain 3 counted, 1 in the body (+2)"]
    assert json.loads(table[0]["vpipe_per_copy"]) == {"ref": 0, "U": 1, "V": 1}
    page = (tmp_path / "index.html").read_text()
    assert "Counters: <b>counting INSTRUCTIONS_EXECUTED, INSTRUCTIONS_EXECUTED_V_PIPE" in page
    assert "1 rows exact, 1 differ" in page


def test_db_import_and_the_report_keep_the_counters_and_the_pairing(tmp_path):
    """A P5 table's counters and pairing columns are stored by `db import` (the run's
    sentence and tallies, each row's counts, verdict, classes and V-pipe counts), `db show`
    prints the verdict and the class, and the report's table section says what was counted."""
    from sqlalchemy import create_engine, select
    from cyclekit.results import table_rows, table_section
    info, rows_ = p5_rows()
    out = tmp_path / "t"
    i386.write_all(str(out), info, rows_)
    db = tmp_path / "r.db"
    front = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit"), "db", "--db", f"sqlite:///{db}"]
    p = subprocess.run(front + ["import", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    engine = create_engine(f"sqlite:///{db}", future=True)
    try:
        with engine.connect() as conn:
            table = conn.execute(select(table_rows.instruction_tables)).one()
            forms = {r.opcode: r for r in conn.execute(select(table_rows.instruction_forms))}
    finally:
        engine.dispose()
    assert table.counters == info["counters"] and (table.counted_exact, table.counted_differs) == (1, 1)
    assert json.loads(table.counter_events) == ["INSTRUCTIONS_EXECUTED", "INSTRUCTIONS_EXECUTED_V_PIPE"]
    assert (forms["ADD32rr"].counted, forms["ADD32rr"].chain_insns_counted) == ("exact", 1.0)
    assert forms["IMUL32rr"].counted == "differs: chain 3 counted, 1 in the body (+2)"
    assert (forms["ADD32rr"].pairing_counted, forms["IMUL32rr"].pairing_counted) == ("UV", "NP")
    assert json.loads(forms["ADD32rr"].vpipe_per_copy) == {"ref": 0, "U": 1, "V": 1}
    shown = subprocess.run(front + ["show", "IMUL32rr"], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert "[counted: differs: chain 3 counted, 1 in the body (+2)]" in shown.stdout
    run, rows_back = table_rows.read(str(out))
    html = table_section.section([("t", run, rows_back)])
    assert "Counters: <b>counting INSTRUCTIONS_EXECUTED, INSTRUCTIONS_EXECUTED_V_PIPE" in html
    assert "1 rows exact, 1 differ" in html


def test_without_counters_the_reason_is_in_the_header_once_and_no_row_has_a_number(tmp_path):
    add = form_of(ADD, "ADD32rr")
    records = {("pmu", "record"): P5_TCG}
    records.update(records_of("ADD32rr", exact_counts(add), {"ref": 0, "U": 1, "V": 1}))
    info, rows_ = i386.rows_of([add], records, "pentium2", lambda s: None, {})
    i386.write_all(str(tmp_path), info, rows_)
    run = json.loads((tmp_path / "table.jsonl").read_text().splitlines()[0])
    assert run["counters"] == "no counters: the p5-mmx PMU did not prove itself: counters read zero"
    row = json.loads((tmp_path / "table.jsonl").read_text().splitlines()[1])
    assert row["counted"] == "no counters"
    assert all(row[k] is None for k in ("chain_insns_counted", "set_insns_counted", "vpipe_per_copy",
                                        "pairing_counted"))
    page = (tmp_path / "index.html").read_text()
    assert page.count("counters read zero") == 1


def test_a_log_keeps_its_pmu_record():
    log = [json.dumps(P5_TCG), json.dumps(dict(result({"INSTRUCTIONS_EXECUTED": 1.0}), name="t/ADD32rr/lat"))]
    got = i386.records_from_log(log)
    assert got[("pmu", "record")]["reason"] == "counters read zero"
    assert got[("ADD32rr", "lat")]["events"][0]["per_body"] == 1.0


def test_no_counted_class_where_the_pairing_bodies_did_not_run_as_built():
    form = form_of(ADD, "ADD32rr")
    counts = exact_counts(form)
    counts["pair:U"] += 1
    records = records_of("ADD32rr", counts, {"ref": 0, "U": 1, "V": 1})
    got = counters.vpipe_fields(form, records, counters.plan(P5_COUNTING))
    assert got["vpipe_per_copy"] == {"ref": 0, "U": 1, "V": 1}
    assert got["pairing_counted"] == "none: the U body's instructions are not exact (4 counted)"


def test_a_medium_asks_for_its_families_events_unless_the_options_choose():
    """`cyclekit image --table CPU`: no session prints a PMU before the boot, so the kernel
    line carries the events the CPU's family counts instructions with (the names the
    plan of the log's pmu record then reads)."""
    from cyclekit.verbs.image import with_table_events
    p5 = with_table_events("samples=21", "pentium")
    assert p5 == "samples=21 events=INSTRUCTIONS_EXECUTED,INSTRUCTIONS_EXECUTED_V_PIPE"
    assert counters.plan(P5_COUNTING).request() == p5.split()[-1]
    assert with_table_events("", "pentium2") == "events=INST_RETIRED"
    assert with_table_events("events=CYCLES", "pentium") == "events=CYCLES"     # the user's own
    assert with_table_events("", "i486") == ""                                  # no PMU to ask
