"""Sampling (issue 32) booted: exact on the counting QEMU under -icount
shift=0 (one instruction a cycle, a PMI with no skid), time-based on plain
TCG for every CPU model, and no change to a run's results when it samples.

On the counting bed a copy's instructions are the interrupted ones in turn:
sampled every P instructions (P prime, so coprime to the loop's length) in
one long run, each instruction of the body takes the same number of samples
to one either way; sampled on branches, every sample lands right after the
body's one branch (the next copy's first instruction) or in the loop; cycle
by cycle, cycle k has retired k instructions and interrupts the (k+1)-th.
"""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, assert_complete, run_boot
from cyclekit import logfile
from test_pmu_counting import pmu_boot

# Two built-in bodies: 3 ADDs (bench/p5_pairing.c), and 7 instructions whose
# last but one is a taken JE over a NOP (bench/branch.c).
BODIES = "p5/pairing/raw,branch/taken"
INSNS = {"p5/pairing/raw": [0, 2, 4], "branch/taken": [0, 2, 5, 6, 12, 14, 16]}


def samples(log):
    return {r["name"]: r for r in log.of_type("sample")}


def test_instructions_sampled_give_each_instruction_its_share():
    log = pmu_boot(4, f"bench={BODIES} samples=5 sample=INST_RETIRED.ANY_P:997 cycles=16")
    assert_complete(log)
    for name, offsets in INSNS.items():
        s = samples(log)[name]
        assert "failed" not in s, s
        assert s["skid"] == 0 and s["skid_why"] is None, s
        assert s["storm"] is False and s["stopped"] is None, s
        assert s["samples"] == s["body"] + s["loop"] + s["handler"] + s["elsewhere"], s
        counts = {o["offset"]: o["samples"] for o in s["offsets"]}
        assert sorted(counts) == offsets, s
        assert max(counts.values()) - min(counts.values()) <= 1, counts   # the same share, to one sample
        assert sum(counts.values()) == s["body"] and s["handler"] == 0, s
        # The loop's three instructions take their share of one iteration too.
        per_position = s["body"] / (s["copies"] * len(offsets))
        assert abs(s["loop"] - 3 * per_position) <= 3 + s["elsewhere"], s


def test_cycle_by_cycle_retires_one_instruction_a_cycle_in_body_order():
    log = pmu_boot(4, f"bench={BODIES} samples=5 sample=INST_RETIRED.ANY_P:997 cycles=16")
    for c in log.of_type("cycles"):
        assert "failed" not in c, c
        offsets = INSNS[c["name"]]
        assert [s["k"] for s in c["steps"]] == list(range(16))
        for s in c["steps"]:
            assert s["taken"] and s["retired"] == s["k"], s
            copy, i = divmod(s["k"], len(offsets))
            assert (s["where"], s["copy"], s["offset"]) == ("body", copy, offsets[i]), s


def test_branches_sampled_land_right_after_the_branch():
    log = pmu_boot(4, "bench=branch/taken samples=5 sample=BR_INST_RETIRED.ALL_BRANCHES:101")
    assert_complete(log)
    s = samples(log)["branch/taken"]
    assert s["skid"] == 0, s
    # After the body's JE comes the next copy's first instruction; after the
    # last copy's, the loop's DEC; the loop's own JNZ and JMP lead to the
    # JMP and the first copy.
    assert [o["offset"] for o in s["offsets"]] == [0], s
    assert s["body"] > 0 and s["elsewhere"] <= 2, s


@pytest.mark.parametrize("mode", ["32", "64"])
def test_nmi_delivery_samples_the_same_in_either_mode(mode):
    """The LVT entry in NMI mode: the 32-bit kernel returns from a sampling NMI
    with IRET (others stay blocked after one without it), long mode with IRETQ."""
    log = pmu_boot(4, f"bench=p5/pairing/raw samples=5 mode={mode} sample=INST_RETIRED.ANY_P:997:nmi")
    assert_complete(log)
    assert log.one("platform")["mode"] == int(mode)
    s = samples(log)["p5/pairing/raw"]
    assert s["nmi"] is True and "NMI" in s["delivery"] and s["skid"] == 0, s
    counts = [o["samples"] for o in s["offsets"]]
    assert len(counts) == 3 and max(counts) - min(counts) <= 1 and s["body"] > 1000, s


def test_a_period_of_one_storms_and_is_bounded():
    """Cycles (not compensated for the handler's tail) every cycle: each PMI waits
    at the handler's return; re-arming stops, the run completes."""
    log = pmu_boot(4, "bench=p5/pairing/raw samples=5 sample=CPU_CLK_UNHALTED.THREAD_P:1")
    assert_complete(log)
    s = samples(log)["p5/pairing/raw"]
    assert s["storm"] is True and "storm" in s["stopped"], s
    assert s["samples"] <= 8192, s


def tcg(cpu, cmdline, icount=None):
    """A TCG boot through QEMU's multiboot loader (run_boot: GRUB is not what
    is tested here, and costs a boot a third more CPU, under -icount three
    times more)."""
    return run_boot(cpu=cpu, cmdline=cmdline, icount=icount)


def time_sampled(s):
    """A time-based sample record that took samples, most of them in the body."""
    assert "failed" not in s and s["source"] == "time" and s["unit"] == "us", s
    assert s["samples"] == s["body"] + s["loop"] + s["handler"] + s["elsewhere"], s
    assert s["body"] > s["samples"] // 4, s
    assert s["skid"] is None and "timer" in s["skid_why"], s


# -cpu pentium (QEMU's has an APIC: the APIC timer) is sampled in the icount
# test below; the fault test's snippet runs on run-qemu's default CPU.
@pytest.mark.parametrize("cpu,delivery", [("486", "8254 channel 0"), ("max", "local APIC timer")])
def test_time_sampling_lands_in_the_body_on_any_cpu(cpu, delivery):
    log = tcg(cpu, "bench=p5/pairing/raw samples=5 sample=time:50")
    assert_complete(log)
    s = samples(log)["p5/pairing/raw"]
    time_sampled(s)
    assert s["delivery"].startswith(delivery), s


def test_sampling_leaves_the_measurement_unchanged_under_icount():
    """The same result records, to the field, with and without sample=: the
    sampled run comes after the measurement, with its own interrupts."""
    plain = tcg("pentium", "bench=p5/pairing/raw samples=9", icount=0)
    sampled = tcg("pentium", "bench=p5/pairing/raw samples=9 sample=time:20", icount=0)
    assert_complete(plain)
    assert_complete(sampled)
    keep = ("name", "ticks", "ticks_min", "ticks_vs_empty", "cycles", "stats", "marks", "loops", "unroll")
    before = [{k: r.get(k) for k in keep} for r in plain.of_type("result")]
    after = [{k: r.get(k) for k in keep} for r in sampled.of_type("result")]
    assert before == after and len(before) == 1
    assert not plain.of_type("sample")
    time_sampled(samples(sampled)["p5/pairing/raw"])


FAULTS_LATE = ("inc dword ptr [esi+64]; cmp dword ptr [esi+64], 60000; jb 1f; ud2; 1: add eax, ebx")


def test_a_fault_in_the_sampled_body_is_reported_and_the_suite_goes_on(tmp_path):
    """A body that faults only after 60000 passes: its measurement (about 15000
    passes at L=100) completes, its sampled run (one long run) faults; the fault
    is reported where it happened and the run ends with the fault's status."""
    log_path = tmp_path / "fault.log"
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cyclekit"), "snippet", "--no-build",
                        "--asm", FAULTS_LATE, "--loops", "100", "--samples", "5", "--sample", "time:100",
                        "--log", str(log_path)], stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    log = logfile.parse(log_path.read_bytes())
    assert log.complete, p.stderr
    faults = log.of_type("fault")
    assert [(f["where"], f["name"]) for f in faults] == [("sampled run of snippet", "#UD")], faults
    assert log.of_type("result") and not log.of_type("sample")
    assert log.status == 2, log.status
