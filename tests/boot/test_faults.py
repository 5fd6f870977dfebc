"""Faults are caught, reported and survived (the self-test mode)."""
import pytest

from conftest import KVM_PROBE, assert_complete, kvm_boot

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
    check_selftest(boot(cpu="max", qemu="x86_64", uefi=True, cmdline="selftest"))


def test_selftest_under_kvm_sees_gp_for_unknown_msr():
    """KVM raises #GP for an MSR it does not know (TCG reads 0): the probe's
    smallest run plus the self-test."""
    msr = check_selftest(kvm_boot("selftest " + KVM_PROBE))
    assert msr["seen"] == "#GP"


def test_default_run_provokes_nothing(boot):
    log = boot(cpu="pentium")
    assert log.of_type("selftest") == [] and log.of_type("fault") == []
