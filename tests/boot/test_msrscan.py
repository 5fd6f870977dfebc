"""The MSR sweep (option msrscan): read-only, fault-safe, reported as one
"msrscan" record after the cpu record, and absent from a default run.

What is exact under emulation: QEMU's TCG reads an MSR it does not know as 0
without a fault, so there (this QEMU) every index may read as present; the
self-test's read of a nonexistent MSR in the same boot says which behaviour
this QEMU has, and the scan must agree with it. MSRs the CPU architecturally
has (the TSC, 0x10, on anything with RDMSR; the P5's machine-check and
counter MSRs; APIC_BASE on `max`) must be present on every accelerator.
"""
import pytest

from conftest import assert_complete, kvm_boot

RANGES = [(0x0, 0x1FFF), (0xC0000000, 0xC0001FFF), (0xC0010000, 0xC0011FFF)]
READS = sum(last - first + 1 for first, last in RANGES)   # 24576
SMALL = "bench=calib/empty samples=5"
SCAN = "msrscan selftest " + SMALL

# Timeouts from the work: a small boot (generous: KVM boots here can take
# minutes) plus every read at its worst cost (TCG: an emulated RDMSR; KVM: a
# VM exit and, for a missing MSR, an injected #GP caught by the kernel).
BOOT_S = {"tcg": 60, "kvm": 300}
PER_READ_S = {"tcg": 0.0005, "kvm": 0.005}


def timeout(accel):
    return int(BOOT_S[accel] + READS * PER_READ_S[accel])


P5_MSRS = [0x0, 0x1, 0x10, 0x11, 0x12, 0x13]   # P5_MC_ADDR, P5_MC_TYPE, TSC, CESR, CTR0, CTR1
APIC_BASE_BSP = "0xfee00900"                    # 0xFEE00000, BSP (bit 8), enabled (bit 11)


def scan_of(log):
    assert_complete(log)
    return log.one("msrscan")


def runs_of(rng):
    return [(int(a, 16), int(b, 16)) for a, b in rng["runs"]]


def present(rec, msr):
    for rng in rec["ranges"]:
        if any(a <= msr <= b for a, b in runs_of(rng)):
            return True
    return False


def check_well_formed(rec):
    """The scanned record's shape and its arithmetic, exactly."""
    assert rec["status"] == "scanned"
    assert set(rec) == {"type", "status", "read", "present", "faults", "fault_vectors", "ranges"}
    assert [(int(r["first"], 16), int(r["last"], 16)) for r in rec["ranges"]] == RANGES
    assert rec["read"] == READS
    assert rec["read"] == rec["present"] + rec["faults"]
    assert rec["present"] == sum(r["present"] for r in rec["ranges"])
    assert rec["faults"] == sum(r["faults"] for r in rec["ranges"])
    assert (rec["faults"] > 0) == (rec["fault_vectors"] != [])
    for rng, (first, last) in zip(rec["ranges"], RANGES):
        assert set(rng) == {"first", "last", "read", "present", "zero", "faults", "runs", "runs_more",
                            "values", "values_more"}
        assert rng["read"] == last - first + 1 == rng["present"] + rng["faults"]
        runs = runs_of(rng)
        assert all(first <= a <= b <= last for a, b in runs)
        assert all(b1 + 1 < a2 for (_, b1), (a2, _) in zip(runs, runs[1:])), "runs sorted, apart"
        if rng["runs_more"] == 0:
            assert sum(b - a + 1 for a, b in runs) == rng["present"]
        values = {int(k, 16): int(v, 16) for k, v in rng["values"].items()}
        assert all(v != 0 and any(a <= m <= b for a, b in runs) for m, v in values.items())
        if rng["values_more"] == 0:
            assert len(values) == rng["present"] - rng["zero"]


def check_agrees_with_selftest(log, rec, accel):
    """The self-test's read of a nonexistent MSR in the same boot: a #GP
    there means the missing MSRs of the scan fault with #GP too. 'none'
    under TCG is its read-as-0 helper, which (in this QEMU) covers every
    index: nothing faults. Under KVM, 'none' means the host ignores unknown
    MSRs (kvm.ignore_msrs), which need not cover every index."""
    seen = {r["case"]: r for r in log.of_type("selftest")}["rdmsr of a nonexistent MSR"]["seen"]
    if seen == "#GP":
        assert rec["fault_vectors"] == ["#GP"] and rec["faults"] > 0
    elif accel == "tcg":
        assert seen == "none"
        assert rec["faults"] == 0 and rec["fault_vectors"] == []
        assert all(runs_of(r) == [(a, b)] for r, (a, b) in zip(rec["ranges"], RANGES))
    else:
        assert seen == "none" and rec["fault_vectors"] in ([], ["#GP"])


def text_of(log):
    return log.text.replace("\r\n", "\n")   # the serial console ends lines with CR LF


def check_order(log):
    types = [r["type"] for r in log.records if r["type"] != "step"]   # the step records announce the scan
    assert types.index("msrscan") == types.index("cpu") + 1


@pytest.mark.parametrize("cpu", ["pentium", "max"])
def test_scan_under_tcg(boot, cpu):
    log = boot(cpu=cpu, cmdline=SCAN, timeout=timeout("tcg"))
    rec = scan_of(log)
    check_well_formed(rec)
    check_agrees_with_selftest(log, rec, "tcg")
    check_order(log)
    assert log.notes(level="error") == []
    assert [f for f in log.of_type("fault") if f["where"] == "msr scan"] == []
    for msr in P5_MSRS:
        assert present(rec, msr), f"MSR {msr:#x} missing"


def test_apic_base_on_max(boot):
    rec = scan_of(boot(cpu="max", cmdline=SCAN, timeout=timeout("tcg")))
    assert rec["ranges"][0]["values"]["0x1b"] == APIC_BASE_BSP


def test_scan_readable_section(boot):
    log = boot(cpu="pentium", cmdline=SCAN, timeout=timeout("tcg"))
    text = text_of(log)
    assert "== MSR scan (reads only) ==\n" in text
    for first, last in RANGES:
        assert f"  reading 0x{first:08x}-0x{last:08x} ({last - first + 1} MSRs) ...\n" in text
    rec = log.one("msrscan")
    assert f"  total: {rec['read']} read, {rec['present']} present, {rec['faults']} faulted\n" in text


def test_cpu_without_rdmsr_is_skipped(boot):
    log = boot(cpu="486", cmdline=SCAN, timeout=timeout("tcg"))
    rec = scan_of(log)
    assert rec == {"type": "msrscan", "status": "skipped",
                   "reason": "CPUID.1:EDX.MSR is clear: this CPU has no RDMSR",
                   "read": 0, "present": 0, "faults": 0, "fault_vectors": [], "ranges": []}
    assert "  skipped: CPUID.1:EDX.MSR is clear: this CPU has no RDMSR\n" in text_of(log)
    check_order(log)


def test_not_in_a_default_run(boot):
    log = boot(cpu="max", cmdline=SMALL)
    assert_complete(log)
    assert log.of_type("msrscan") == []
    assert "MSR scan" not in log.text


def test_scan_under_kvm():
    # The probe's boot sizes the timeout; the sweep's reads come on top.
    log = kvm_boot(SCAN, extra_seconds=timeout("kvm"))
    rec = scan_of(log)
    check_well_formed(rec)
    check_agrees_with_selftest(log, rec, "kvm")
    check_order(log)
    assert [f for f in log.of_type("fault") if f["where"] == "msr scan"] == []
    assert present(rec, 0x10)
    assert int(rec["ranges"][0]["values"]["0x10"], 16) > 0   # the TSC runs
    assert rec["ranges"][0]["values"]["0x1b"] == APIC_BASE_BSP
