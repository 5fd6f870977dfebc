"""p5/ benchmarks (bench/p5_pairing.c, p5_agi.c, p5_lockstep.c).

Under -icount shift=0 the TSC counts instructions, so every p5 body (all are
straight-line code) must measure exactly its instruction count, whatever the
pairing rules would make of it on a real Pentium. The counts below are read
off the bodies in the bench files, one instruction per line of assembly.
"""
import pytest

from conftest import assert_complete

P5_INSNS = {
    # p5_pairing.c
    "p5/pairing/pair": 2,
    "p5/pairing/raw": 3,
    "p5/pairing/raw_stream": 2,
    "p5/pairing/waw": 2,
    "p5/pairing/war": 2,
    "p5/pairing/shift_add": 2,
    "p5/pairing/shift_shift": 2,
    "p5/pairing/adc_add": 2,
    "p5/pairing/adc_adc": 2,
    "p5/pairing/disp_imm": 2,
    "p5/pairing/disp_reg": 2,
    "p5/pairing/prefix66": 2,
    "p5/pairing/push_push_pop_pop": 4,
    "p5/pairing/push_pop": 2,
    "p5/pairing/fxch_fadd": 4,
    "p5/pairing/fxch_alone": 1,
    "p5/pairing/first_run": 2,
    "p5/pairing/first_run_1byte": 2,
    "p5/pairing/warm_1byte": 2,
    # p5_agi.c
    "p5/agi/load_stall": 4,
    "p5/agi/load_nostall": 4,
    "p5/agi/lea_stall": 4,
    "p5/agi/lea_nostall": 4,
    "p5/agi/esp_explicit": 2,
    "p5/agi/esp_explicit_push": 3,
    "p5/agi/esp_implicit": 2,
    # p5_lockstep.c
    "p5/lockstep/rmw_simple": 2,
    "p5/lockstep/rmw_rmw": 2,
    "p5/lockstep/readmod_pair": 2,
    "p5/lockstep/readmod_simple": 2,
    "p5/lockstep/same_dword": 2,
    "p5/lockstep/next_dword": 2,
    "p5/lockstep/bank_conflict_store": 2,
    "p5/lockstep/bank_none_store": 2,
    "p5/lockstep/bank_conflict_load": 2,
    "p5/lockstep/bank_none_load": 2,
}

COLD = {"p5/pairing/first_run", "p5/pairing/first_run_1byte"}
P5_EVENT_NAMES = {"INSTRUCTIONS_EXECUTED", "INSTRUCTIONS_EXECUTED_V_PIPE", "PIPELINE_AGI_STALLS",
                  "MEMORY_ACCESSES_IN_BOTH_PIPES", "BANK_CONFLICTS"}

CMDLINE = "bench=p5/* samples=15"


def by_name(records):
    out = {}
    for r in records:
        assert r["name"] not in out, f"{r['name']} reported twice"
        out[r["name"]] = r
    return out


def test_p5_bodies_measure_their_instruction_count_under_icount(boot):
    log = boot(cpu="pentium", icount=0, cmdline=CMDLINE)
    assert_complete(log)
    results = by_name(log.of_type("result"))
    assert not log.of_type("skip"), log.of_type("skip")
    assert set(results) == set(P5_INSNS)
    for name, n in P5_INSNS.items():
        r = results[name]
        assert r["ticks"] == n, f"{name}: {r['ticks']} ticks, body has {n} instructions"
        assert r["ticks_min"] == n, name
        assert r["ticks_vs_empty"] == n, name
        assert r["cold"] == (name in COLD), name
        if n > 1:
            assert r["ticks_per_insn"] == 1.0, name


def test_p5_results_carry_only_p5_expectations(boot):
    log = boot(cpu="pentium", icount=0, cmdline=CMDLINE)
    results = by_name(log.of_type("result"))
    for name, r in results.items():
        if name in COLD:
            assert r["expect"] is None, name
            assert r["verdict"] == "no expectation"
        else:
            assert r["expect"]["uarch"] == "P5", name
            assert r["expect"]["cycles"] in (1.0, 2.0, 3.0, 4.0, 5.0), name


def test_p5_expectations_do_not_show_on_other_cpus(boot):
    """A P6 is not a P5: the P5 values are not printed against it."""
    log = boot(cpu="pentium2", cmdline=CMDLINE)
    assert_complete(log)
    results = by_name(log.of_type("result"))
    assert set(results) == set(P5_INSNS)
    for name, r in results.items():
        assert r["expect"] is None, name
        assert r["verdict"] == "no expectation", name


def test_p5_bodies_run_on_a_486(boot):
    """Valid i386 code (x87 where the FPU exists): they run everywhere, timed by the PIT there."""
    log = boot(cpu="486", cmdline=CMDLINE)
    assert_complete(log)
    assert not log.of_type("fault")
    assert not log.of_type("skip"), log.of_type("skip")
    results = by_name(log.of_type("result"))
    assert set(results) == set(P5_INSNS)
    for name, r in results.items():
        assert r["time_unit"].startswith("pit"), name
        assert r["expect"] is None, name


def test_p5_events_name_p5_counter_events():
    """The .events strings use the names of kernel/pmu/events_p5.c exactly."""
    import os
    import re
    from conftest import ROOT
    table = open(os.path.join(ROOT, "kernel", "pmu", "events_p5.c")).read()
    known = set(re.findall(r'EV\(0x[0-9A-Fa-f]+,\s*\w+,\s*[\w| ]+,\s*"(\w+)"', table))
    assert "INSTRUCTIONS_EXECUTED_V_PIPE" in known and "PIPELINE_AGI_STALLS" in known
    assert P5_EVENT_NAMES <= known
    used = set()
    for f in ("p5_pairing.c", "p5_agi.c", "p5_lockstep.c"):
        src = open(os.path.join(ROOT, "bench", f)).read()
        for m in re.finditer(r'#define \w+_EVENTS "([^"]*)"', src):
            used.update(m.group(1).split())
    assert used and used <= known, used - known
    assert {"INSTRUCTIONS_EXECUTED_V_PIPE", "PIPELINE_AGI_STALLS", "BANK_CONFLICTS"} <= used
