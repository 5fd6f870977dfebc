"""Counters that count: the PMU layer on the counting QEMU bed.

../shared/tools/qemu-pmu builds a QEMU whose TCG has an Intel architectural
PMU (version 2: N general and 3 fixed counters, exact to the instruction
under -icount shift=0, where cycles equal instructions). With its path in
CK_QEMU_PMU (`make check-pmu` takes the tool's default build directory),
these tests boot it with 1, 2, 4 and 8 general counters and assert what is
exact there: the proof says counting with every delta exactly the proof
loop's, every cycle figure is counted (the `c` mark), and `events=` gives
each body's own instructions, branches and cycles, on the fixed counters
too. Without the bed every test skips, saying how to build it
(docs/counters.md).

Instruction counts are not written here: they are read from the ELF
(bodies()); only branch/taken's one taken branch per body is stated."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import LOGDIR, ROOT, assert_complete, bodies, run_qemu, selected, tcg_timeout

BED = os.environ.get("CK_QEMU_PMU", "")
SEABIOS, QEMU_DATA = "/usr/share/seabios", "/usr/share/qemu"
BENCHES = ("calib/*,lat/add,lat64/add,sys/rdmsr/*,sys/wrmsr/counter,sys/rdpmc,sys/cpuid/*,"
           "branch/taken")
FIXED = ("INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.REF_TSC")
GENERAL = ("INST_RETIRED.ANY_P", "BR_INST_RETIRED.ALL_BRANCHES")
CMDLINE = f"events={','.join(GENERAL + FIXED)} bench={BENCHES} samples=5"
# The bed's PMU under -icount shift=0 (tools/qemu-pmu's header): core and
# reference cycles are both the instruction count.
CYCLES_ARE_INSTRUCTIONS = ("CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.REF_TSC")
# One taken JMP per body (bench/branch.c); every other body here is straight-line.
BRANCHES = {"branch/taken": 1}


def bed():
    if not BED:
        pytest.skip("CK_QEMU_PMU is not set: build the counting QEMU with ../shared/tools/qemu-pmu "
                    "(root, about 10 minutes) and set CK_QEMU_PMU to the binary it prints "
                    "(`make check-pmu` finds it in /var/cache/qemu-pmu)")
    if not (os.path.isfile(BED) and os.access(BED, os.X_OK)):
        pytest.skip(f"CK_QEMU_PMU={BED} is not an executable file")
    return BED


_boots = {}
BED_CPU = "max,vendor=GenuineIntel,family=6,model=85,tcg-pmu=on"


def bed_env():
    """The environment whose PATH finds the bed as `qemu-system-x86_64` (what run-qemu
    starts): a folder holding only that name, linked to the bed, comes first."""
    binary = bed()
    os.makedirs(LOGDIR, exist_ok=True)
    shim = os.path.join(LOGDIR, "qemu-pmu-bin")
    os.makedirs(shim, exist_ok=True)
    link = os.path.join(shim, "qemu-system-x86_64")
    if not os.path.islink(link) or os.readlink(link) != binary:
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(binary, link)
    return dict(os.environ, PATH=shim + os.pathsep + os.environ.get("PATH", ""))


def pmu_boot(gp, cmdline=CMDLINE):
    """A boot on the bed with `gp` general counters (cached per argument set)."""
    key = (gp, cmdline)
    if key in _boots:
        return _boots[key]
    env = bed_env()
    cpu = f"{BED_CPU},tcg-pmu-gp={gp}"
    # -nic none: the pc machine's default NIC wants an option ROM the bed's
    # data folders may lack; nothing here uses a network.
    args = ("-L", SEABIOS, "-L", QEMU_DATA, "-icount", "shift=0,align=off,sleep=off", "-nic", "none")
    name = re.sub(r"[^A-Za-z0-9_.=-]", "_", f"qemu-pmu-gp{gp}-{cmdline}")[:120]
    log = run_qemu(os.path.join(LOGDIR, name + ".log"), cpu=cpu, qemu="x86_64", cmdline=cmdline,
                   timeout=tcg_timeout(cmdline, icount=0, n=selected(cmdline)), env=env, qemu_args=args)
    _boots[key] = log
    return log


def per_body(result):
    """{event: per_body} of a result; an event that has an error fails here."""
    events = result.get("events") or []
    errors = {e["event"]: e["error"] for e in events if "error" in e}
    assert not errors, (result["name"], errors)
    return {e["event"]: e["per_body"] for e in events}


@pytest.mark.parametrize("gp", [2, 4, 8])
def test_proof_counts_with_every_delta_exact(gp):
    log = pmu_boot(gp)
    assert_complete(log)
    pmu = log.one("pmu")
    assert (pmu["driver"], pmu["gp_counters"], pmu["fixed_counters"]) == ("intel-arch-v2", gp, 3), pmu
    assert pmu["verdict"] == "counting" and pmu["fixed_counting"] is True, pmu
    assert pmu["reads"] == "rdmsr" and pmu["rounds"] >= 2
    checks = {p["check"]: p for p in pmu["evidence"]}
    assert {"instructions", "cycles", "fixed instructions", "fixed cycles", "fixed ref cycles"} <= set(checks)
    assert ("branches" in checks) == (gp >= 3)  # the third general counter proves branches
    for p in pmu["evidence"]:
        assert p["ok"] is True, p
        # The reads are inside each window (once > the loop) and cancel: the
        # difference is the loop's own count, to the instruction.
        assert p["delta"] == p["twice"] - p["once"] and p["once"] > p["delta"], p
        if p["check"] == "branches":
            assert p["delta"] == pmu["branches"], p
        else:
            assert p["delta"] == pmu["instructions"], p
    restore = log.one("pmu_restore")
    assert restore["ok"] is True and restore["mismatches"] == 0, restore


@pytest.mark.parametrize("gp", [2, 4, 8])
def test_events_and_cycles_are_exact_per_body(gp):
    log = pmu_boot(gp)
    assert_complete(log)
    results = {r["name"]: r for r in log.of_type("result")}
    assert log.of_type("skip") == [] and len(results) == selected(CMDLINE)
    for name, r in results.items():
        body = bodies()[name]
        counts = per_body(r)
        assert set(GENERAL + FIXED) <= set(counts), (name, counts)
        # Cycles come from a proved counter: exact, the readable `c` mark.
        assert r["cycles_unit"] == "exact (counter)", (name, r["cycles_unit"])
        assert counts["BR_INST_RETIRED.ALL_BRANCHES"] == BRANCHES.get(name, 0), (name, counts)
        assert counts["INST_RETIRED.ANY"] == counts["INST_RETIRED.ANY_P"], (name, counts)
        for event in CYCLES_ARE_INSTRUCTIONS:
            assert counts[event] == counts["INST_RETIRED.ANY"], (name, event, counts)
        assert r["cycles"] == counts["CPU_CLK_UNHALTED.THREAD"], (name, r["cycles"], counts)
        if body.straight:
            assert counts["INST_RETIRED.ANY"] == body.insns, (name, counts, body)
    assert set(BRANCHES) <= set(results)


def test_one_general_counter_still_counts_and_has_none_to_spare():
    """One general counter proves instructions; cycles come from the fixed
    counter; sys/wrmsr/counter has no counter its events leave alone."""
    log = pmu_boot(1)
    assert_complete(log)
    pmu = log.one("pmu")
    assert pmu["verdict"] == "counting" and pmu["gp_counters"] == 1, pmu
    results = {r["name"]: r for r in log.of_type("result")}
    assert results["calib/alu3"]["cycles_unit"] == "exact (counter)"
    assert per_body(results["calib/alu3"])["INST_RETIRED.ANY_P"] == bodies()["calib/alu3"].insns
    skip = [s for s in log.of_type("skip") if s["name"] == "sys/wrmsr/counter"]
    assert len(skip) == 1 and "no general counter to spare" in skip[0]["reason"], skip


# Forms whose bodies are straight-line: a latency chain and a throughput set each.
TABLE_FORMS = "ADD32rr,IMUL64rr,XOR64rr,MOV64rm,ADD64mr"
_tables = {}


def bed_table(tmp_path_factory):
    """cyclekit table (64-bit forms, the kernel in its serve session) on the bed under
    -icount: (the table_run record, the rows)."""
    if "t" in _tables:
        return _tables["t"]
    env = bed_env()
    if not shutil.which("llvm-exegesis-16") and not any(
            shutil.which(f"llvm-exegesis-{v}") for v in range(17, 30)):
        pytest.skip("no llvm-exegesis 16 or newer (scripts/deps installs llvm-16)")
    out = tmp_path_factory.mktemp("bed-table")
    args = ["--qemu", "--icount", "--qemu-cpu", BED_CPU] + \
        [f"--qemu-arg={a}" for a in ("-L", SEABIOS, "-L", QEMU_DATA)]
    p = subprocess.run([sys.executable, "-m", "cyclekit", "table", "--no-build", "--opcodes", TABLE_FORMS,
                        "-o", str(out)] + args, capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = [json.loads(x) for x in (out / "table.jsonl").read_text().splitlines()]
    _tables["t"] = lines[0], lines[1:]
    return _tables["t"]


def test_the_table_counts_every_rows_bodies_on_the_bed(tmp_path_factory):
    """The PMU proves itself, every request asks for the proved instructions event, and
    every row's chain and set come back counted, within 5 % of their bodies' own
    instructions (a wrong event, the loop counted in, or a copy count taken for
    another body would be off by far more), with the verdict in `counted`."""
    run, rows = bed_table(tmp_path_factory)
    assert run["counters"].startswith("counting ") and "the intel-arch-v2 PMU proved itself" in run["counters"], \
        run["counters"]
    assert {r["opcode"] for r in rows} == set(TABLE_FORMS.split(","))
    for r in rows:
        assert r["chain_insns_counted"] == pytest.approx(r["chain_insns"], rel=0.05), r
        assert r["set_insns_counted"] == pytest.approx(r["set_insns"], rel=0.05), r
        assert r["counted"] == "exact" or r["counted"].startswith("differs: "), r
    assert run["counted_exact"] + run["counted_differs"] == len(rows)


def test_the_tables_counts_are_exact_on_the_bed(tmp_path_factory):
    """Exactly the body's instructions, and cycles (one an instruction under -icount) that
    give latency and throughput 1.00. Before the count loop readied a run outside the
    counted window, a loaded body counted about 1 % more a copy (1.01 a chain, 11.02 a set
    of 11): its block's lookup, one step longer for 2U copies than for U, was counted as
    the body's (harness/count.c, measure_place_copies)."""
    run, rows = bed_table(tmp_path_factory)
    assert all(r["latency"] == 1.0 and r["throughput"] == 1.0 for r in rows), rows
    assert all(r["counted"] == "exact" for r in rows), [(r["opcode"], r["counted"]) for r in rows]
