"""p5/ benchmarks (bench/p5_pairing.c, p5_agi.c, p5_lockstep.c).

Under -icount shift=0 the TSC counts instructions, so every p5 body (all are
straight-line code) must measure exactly its instruction count, whatever the
pairing rules would make of it on a real Pentium. The names are the kernel's
own (`list`, every name under p5/) and each count is read off the assembled
body in build/cyclekit.elf (tests/boot/bench_bodies.py): adding a p5
benchmark is checked without editing this file.
"""
import pytest

from conftest import assert_complete, bodies, group, suite_boot

# Measured on their first execution (.cold): the descriptions say so.
COLD = {"p5/pairing/first_run", "p5/pairing/first_run_1byte"}
P5_EVENT_NAMES = {"INSTRUCTIONS_EXECUTED", "INSTRUCTIONS_EXECUTED_V_PIPE", "PIPELINE_AGI_STALLS",
                  "MEMORY_ACCESSES_IN_BOTH_PIPES", "BANK_CONFLICTS"}

SAMPLES = 15
CMDLINE = f"bench=p5/* samples={SAMPLES}"


def by_name(records):
    out = {}
    for r in records:
        assert r["name"] not in out, f"{r['name']} reported twice"
        out[r["name"]] = r
    return out


def p5_results(log):
    return by_name(r for r in log.of_type("result") if r["name"].startswith("p5/"))


def test_p5_bodies_measure_their_instruction_count_under_icount(boot):
    log = boot(cpu="pentium", icount=0, cmdline=CMDLINE)
    assert_complete(log)
    results = by_name(log.of_type("result"))
    assert not log.of_type("skip"), log.of_type("skip")
    names = group("p5/")
    assert list(results) == names              # every p5 benchmark, in the kernel's order
    assert COLD <= set(names)
    for name in names:
        r, body = results[name], bodies()[name]
        n = body.insns
        assert body.straight and n >= 1, body
        assert r["ticks"] == n, f"{name}: {r['ticks']} ticks, body has {n} instructions {body.mnemonics}"
        assert r["ticks_min"] == n, name
        assert r["ticks_vs_empty"] == n, name
        if r["cold"]:
            assert (r["samples"], r["loops"]) == (1, 1), name
        else:
            assert r["samples"] == SAMPLES, name
        if n > 1:
            # The declared .insns is the body's real count.
            assert r["ticks_per_insn"] == 1.0, name
    for name in COLD:
        assert results[name]["cold"] is True, name


def test_p5_results_carry_only_p5_expectations(boot):
    log = boot(cpu="pentium", icount=0, cmdline=CMDLINE)
    results = p5_results(log)
    assert list(results) == group("p5/")
    for name, r in results.items():
        if r["cold"]:
            assert r["expect"] is None, name
            assert r["verdict"] == "no expectation"
        else:
            # QEMU's -cpu pentium says family 5 model 4, a P55C (Pentium MMX): its own
            # rows (kernel/uarch/p55c.c) come first, the P5's for the rest.
            assert r["expect"]["uarch"] in ("P5", "P55C"), name
            assert r["expect"]["cycles"] in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 4.84), name


def test_p5_expectations_do_not_show_on_other_cpus():
    """A P6 is not a P5: the P5 values are not printed against it."""
    log = suite_boot("pentium2")
    assert_complete(log)
    results = p5_results(log)
    assert list(results) == group("p5/")
    for name, r in results.items():
        assert r["expect"] is None, name
        assert r["verdict"] == "no expectation", name


def test_p5_bodies_run_on_a_486():
    """Valid i386 code (x87 where the FPU exists): they run everywhere, timed by the PIT there."""
    log = suite_boot("486")
    assert_complete(log)
    assert not log.of_type("fault")
    assert not [s for s in log.of_type("skip") if s["name"].startswith("p5/")]
    results = p5_results(log)
    assert list(results) == group("p5/")
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
    import glob
    files = sorted(glob.glob(os.path.join(ROOT, "bench", "p5_*.c")))
    assert files
    for f in files:
        src = open(f).read()
        for m in re.finditer(r'#define \w+_EVENTS "([^"]*)"', src):
            used.update(m.group(1).split())
    assert used and used <= known, used - known
    assert {"INSTRUCTIONS_EXECUTED_V_PIPE", "PIPELINE_AGI_STALLS", "BANK_CONFLICTS"} <= used
