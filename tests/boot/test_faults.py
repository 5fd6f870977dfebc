"""Faults are caught, reported and survived (the self-test mode)."""
import pytest

from conftest import KVM_PROBE, UEFI_SMP, assert_complete, kvm_boot

PROVOKED = {"divide by zero": ("#DE", 0), "invalid opcode (ud2)": ("#UD", 6),
            "general protection (bad selector)": ("#GP", 13)}


def check_selftest(log):
    assert_complete(log)
    cases = {r["case"]: r for r in log.of_type("selftest")}
    for name, (mnemonic, vector) in PROVOKED.items():
        assert cases[name]["ok"] is True and cases[name]["seen"] == mnemonic
        faults = [f for f in log.of_type("fault") if f["where"] == name]
        assert len(faults) == 1 and faults[0]["vector"] == vector
        assert faults[0]["eip"].startswith("0x1")  # inside the kernel image at 1 MiB
        assert set(faults[0]) >= {"error_code", "cr0", "cr2", "cr4", "eflags"}
    return cases["rdmsr of a nonexistent MSR"]


@pytest.mark.parametrize("cpu", ["486", "pentium", "max"])
def test_selftest_under_tcg(boot, cpu):
    msr = check_selftest(boot(cpu=cpu, cmdline="selftest"))
    # TCG reads MSRs it does not know as 0 rather than raising #GP.
    assert msr["seen"] in ("none", "#GP", "#UD")


def test_selftest_gp_error_code_is_the_selector(boot):
    log = boot(cpu="pentium", cmdline="selftest")
    gp = [f for f in log.of_type("fault") if f["vector"] == 13][0]
    assert gp["error_code"] == "0xff8"


def test_selftest_under_uefi(boot):
    check_selftest(boot(**UEFI_SMP))


def test_selftest_under_kvm_sees_gp_for_unknown_msr():
    """KVM raises #GP for an MSR it does not know (TCG reads 0): the probe's
    smallest run plus the self-test."""
    msr = check_selftest(kvm_boot("selftest " + KVM_PROBE))
    assert msr["seen"] == "#GP"


def test_default_run_provokes_nothing(boot):
    log = boot(cpu="pentium")
    assert log.of_type("selftest") == [] and log.of_type("fault") == []


# Every vector a benchmark body can raise, raised inside a benchmark (the
# self-test's private benchmarks, measured by the suite under its guard):
# name -> (mnemonic, vector, trap, offset of the faulting instruction from the
# body's end). A fault reports its own instruction (body size - its length),
# a trap the next instruction, the next copy's start (offset 0).
IN_BENCH = {
    "#DE in a benchmark": ("#DE", 0, False, 2),
    "#DB in a benchmark": ("#DB", 1, True, 0),
    "#BP in a benchmark": ("#BP", 3, True, 0),
    "#OF in a benchmark": ("#OF", 4, True, 0),
    "#BR in a benchmark": ("#BR", 5, False, 2),
    "#UD in a benchmark": ("#UD", 6, False, 2),
    "#NM in a benchmark": ("#NM", 7, False, 2),
    "#GP in a benchmark": ("#GP", 13, False, 2),
    "#SS in a benchmark": ("#SS", 12, False, 2),
    "#MF in a benchmark": ("#MF", 16, False, 1),
    "#XM in a benchmark": ("#XM", 19, False, 4),
}
NOT_RAISABLE = {"#PF in a benchmark": ("#PF", 14, "paging is off"),
                "#AC in a benchmark": ("#AC", 17, "only at CPL 3")}
# Body sizes in bytes (the encodings of bench_faults.c's bodies).
BODY_SIZE = {"#DE": 6, "#BR": 20, "#UD": 3, "#NM": 11, "#GP": 22, "#SS": 6, "#MF": 15}


def check_in_benchmark(log, cpu):
    cases = {r["case"]: r for r in log.of_type("selftest")}
    faults = {f["where"]: f for f in log.of_type("fault")}
    for name, (mnemonic, vector, why) in NOT_RAISABLE.items():
        r = cases[name]
        assert r["ok"] is True and r["seen"] == "not raisable here" and r["vector"] == vector
        assert why in r["why_not"] and "SDM" in r["why_not"]
    for name, (mnemonic, vector, trap, last_len) in IN_BENCH.items():
        r = cases[name]
        assert r["expected"] == mnemonic and r["vector"] == vector
        if mnemonic == "#XM" and cpu in ("486", "pentium"):
            assert r["seen"] == "not raisable here" and "sse" in r["why_not"]
            continue
        if mnemonic == "#XM":  # QEMU 7.2's TCG never delivers SIMD exceptions
            assert r["seen"] in ("#XM", "not raised by this CPU")
            if r["seen"] != "#XM":
                assert r["ok"] is True and "TCG" in r["why_not"]
                continue
        assert r["ok"] is True, r
        assert r["seen"] == mnemonic and r["trap"] is trap
        assert r["state"] == "restored"
        assert r["eip_in_body"] is True
        size = BODY_SIZE.get(mnemonic)
        expected = 0 if trap else size - last_len
        assert r["body_offset"] == r["expected_offset"] == expected
        f = faults["benchmark " + r["bench"]]
        assert f["vector"] == vector and f["name"] == mnemonic and f["eip"] == r["eip"]
    assert faults["benchmark selftest/gp"]["error_code"] == "0xff8"
    assert faults["benchmark selftest/ss"]["error_code"] == "0x28"  # the selector


# Contracts a body breaks, found by the harness (no CPU vector): the record
# names what broke; EBP is checked by a probe run that enters one copy with
# EBP = 0x40000001, so an intact counter reads 0x40000000 after the copy's DEC.
BROKEN = {"ESP corrupted by a benchmark": ("ESP corrupted", "selftest/esp"),
          "EBP corrupted by a benchmark": ("EBP corrupted", "selftest/ebp"),
          "stack overflow in a benchmark": ("stack overflow", "selftest/stack")}


def check_broken_contracts(log):
    cases = {r["case"]: r for r in log.of_type("selftest")}
    faults = {f["where"]: f for f in log.of_type("fault")}
    for name, (what, bench) in BROKEN.items():
        r = cases[name]
        assert r["ok"] is True and r["expected"] == r["seen"] == what and r["vector"] is None
        assert r["state"] == "restored"
        f = faults["benchmark " + bench]
        assert f["name"] == what and f["vector"] is None and f["detected_by"] == "harness"
    esp = faults["benchmark selftest/esp"]
    assert esp["seen"] != esp["expected"]
    ebp = faults["benchmark selftest/ebp"]  # XOR EBP,EBP then DEC EBP
    assert (ebp["expected"], ebp["seen"]) == ("0x40000000", "0xffffffff")
    stack = faults["benchmark selftest/stack"]  # 15000 bytes below a 16 KiB stack's top,
    top = int(esp["expected"], 16)              # inside the guard zone (its lowest 2 KiB)
    assert int(stack["expected"], 16) == top - 16384 + 2048
    assert int(stack["seen"], 16) == top - 15000  # the lowest word written: the store's

@pytest.mark.parametrize("cpu", ["486", "pentium", "max"])
def test_every_vector_inside_a_benchmark_then_exact_results(boot, cpu):
    log = boot(cpu=cpu, icount=0, cmdline="selftest bench=calib/* samples=5")
    assert_complete(log)  # every provoked fault was expected: status 0, no error notes
    assert not log.notes(level="error")
    check_in_benchmark(log, cpu)
    check_broken_contracts(log)
    # The benchmarks after all those faults measure exactly (-icount shift=0:
    # one tick per instruction of the TSC; a 486 has no TSC, only the PIT).
    if cpu == "486":
        return
    results = {r["name"]: r for r in log.of_type("result")}
    assert results["calib/empty"]["ticks"] == 0
    assert results["calib/add_chain"]["ticks"] == 1
    assert results["calib/alu7"]["ticks"] == 7 and results["calib/alu7"]["methods_agree"] is True


def test_in_benchmark_cases_only_with_selftest(boot):
    log = boot(cpu="pentium", cmdline="list")
    names = [b["name"] for b in log.of_type("bench")] if log.of_type("bench") else []
    assert not [n for n in names if n.startswith("selftest/")]
    plain = boot(cpu="pentium")
    assert not [r for r in plain.of_type("result") if r["name"].startswith("selftest/")]


def test_stack_overflow_ends_in_a_reported_double_fault(boot):
    """Option overflow: paging on with the page under the benchmark stack not
    present, then a body that pushes without end. The push into that page is
    a #PF, delivering it pushes there again: a double fault, handled by its
    own task (task gate, own TSS and stack), which reports it and ends the
    log with the kernel-fault status instead of a triple fault."""
    log = boot(cpu="pentium", cmdline="selftest overflow bench=calib/* samples=5")
    assert_complete(log, status=3)
    df = [f for f in log.of_type("fault") if f["vector"] == 8]
    assert len(df) == 1
    df = df[0]
    assert df["name"] == "#DF" and df["error_code"] == "0x0"
    assert df["where"].startswith("double fault")
    assert int(df["cr0"], 16) & 0x80000000  # paging was on
    # CR2: the first push that missed, the last word of the page under the
    # 16 KiB benchmark stack, whose top the ESP case reports.
    top = int([f for f in log.of_type("fault") if f["where"] == "benchmark selftest/esp"][0]["expected"], 16)
    assert int(df["cr2"], 16) == top - 16384 - 4
    assert any(n["text"] == df["where"] + ": no guard could catch this fault; stopping"
               for n in log.notes(level="error"))
    # Everything before it was reported; nothing after it ran.
    assert {r["case"] for r in log.of_type("selftest")} >= set(IN_BENCH) | set(BROKEN)
    assert log.of_type("result") == []
