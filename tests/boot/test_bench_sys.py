"""sys/ benchmarks (bench/sys_serializing.c, bench/sys_msr.c) across QEMU CPU models.

Every sys/* benchmark yields a result or a skip whose reason names what is
missing; the bodies that execute RDMSR/WRMSR/RDPMC are proved in their
prepare hooks, so nothing faults even where TCG does not implement RDPMC.
"""
import pytest

from conftest import assert_complete

# name -> instructions in its body (for the -icount check)
SYS_INSNS = {
    "sys/rdmsr/tsc": 1,
    "sys/rdmsr/apic_base": 1,
    "sys/rdmsr/counter": 1,
    "sys/wrmsr/counter": 1,
    "sys/rdpmc": 1,
    "sys/cpuid/leaf_0": 3,
    "sys/cpuid/leaf_1": 3,
    "sys/cpuid/leaf_2": 3,
    "sys/cpuid/leaf_4": 3,
    "sys/cpuid/leaf_7": 3,
    "sys/cpuid/leaf_80000000": 3,
    "sys/cpuid/leaf_80000001": 3,
    "sys/cpuid/leaf_80000002": 3,
    "sys/cpuid/x2": 4,
    "sys/cpuid/x3": 6,
    "sys/rdtsc": 1,
    "sys/rdtscp": 1,
    "sys/lfence": 1,
    "sys/mfence": 1,
    "sys/serialize": 1,
    "sys/sti_cli": 2,
    "sys/pushad_popad": 2,
}

CMDLINE = "bench=sys/* samples=15"

# What each CPU model must skip, and a word the reason must contain.
# QEMU 7.2 models: pentium (CPUID max leaf 1, TSC+MSR, no SSE2/RDTSCP),
# pentium2 (max leaf 2), 486 (no TSC, no MSR), max (TCG: no SERIALIZE).
# TCG raises #UD for RDPMC, so the guarded probe must skip it everywhere.
EXPECTED_SKIPS = {
    "pentium": {
        "sys/rdtscp": "rdtscp", "sys/lfence": "sse2", "sys/mfence": "sse2",
        "sys/serialize": "serialize", "sys/rdpmc": "RDPMC",
        "sys/cpuid/leaf_2": "leaf 0x2", "sys/cpuid/leaf_4": "leaf 0x4", "sys/cpuid/leaf_7": "leaf 0x7",
        "sys/cpuid/leaf_80000000": "leaf 0x80000000", "sys/cpuid/leaf_80000001": "leaf 0x80000001",
        "sys/cpuid/leaf_80000002": "leaf 0x80000002",
    },
    "pentium2": {
        "sys/rdtscp": "rdtscp", "sys/lfence": "sse2", "sys/mfence": "sse2",
        "sys/serialize": "serialize", "sys/rdpmc": "RDPMC",
        "sys/cpuid/leaf_4": "leaf 0x4", "sys/cpuid/leaf_7": "leaf 0x7",
        "sys/cpuid/leaf_80000000": "leaf 0x80000000", "sys/cpuid/leaf_80000001": "leaf 0x80000001",
        "sys/cpuid/leaf_80000002": "leaf 0x80000002",
    },
    "486": {
        "sys/rdmsr/tsc": "msr", "sys/rdmsr/apic_base": "msr", "sys/rdmsr/counter": "msr",
        "sys/wrmsr/counter": "msr", "sys/rdpmc": "RDPMC", "sys/rdtsc": "tsc",
        "sys/rdtscp": "rdtscp", "sys/lfence": "sse2", "sys/mfence": "sse2",
        "sys/serialize": "serialize",
        "sys/cpuid/leaf_2": "leaf 0x2", "sys/cpuid/leaf_4": "leaf 0x4", "sys/cpuid/leaf_7": "leaf 0x7",
        "sys/cpuid/leaf_80000000": "leaf 0x80000000", "sys/cpuid/leaf_80000001": "leaf 0x80000001",
        "sys/cpuid/leaf_80000002": "leaf 0x80000002",
    },
    "max": {"sys/serialize": "serialize", "sys/rdpmc": "RDPMC"},
}


def outcomes(log):
    """name -> ("result" | "skip", record); each sys benchmark exactly once."""
    seen = {}
    for kind in ("result", "skip"):
        for r in log.of_type(kind):
            if r["name"].startswith("sys/"):
                assert r["name"] not in seen, f"{r['name']} reported twice"
                seen[r["name"]] = (kind, r)
    return seen


@pytest.mark.parametrize("cpu", ["pentium", "pentium2", "max", "486"])
def test_every_sys_benchmark_has_a_result_or_a_reasoned_skip(boot, cpu):
    log = boot(cpu=cpu, cmdline=CMDLINE)
    assert_complete(log)
    assert not log.of_type("fault"), log.of_type("fault")
    seen = outcomes(log)
    assert set(seen) == set(SYS_INSNS)
    skips = {n: r["reason"] for n, (k, r) in seen.items() if k == "skip"}
    assert set(skips) == set(EXPECTED_SKIPS[cpu]), skips
    for name, word in EXPECTED_SKIPS[cpu].items():
        assert word in skips[name], f"{cpu} {name}: {skips[name]!r} does not name {word!r}"
    for name, (kind, r) in seen.items():
        if kind == "result":
            assert r["samples"] == 15 and not r["cold"], f"{cpu} {name}"


def test_rdpmc_skip_says_it_faulted_when_tried(boot):
    """Where RDPMC should exist (P6) but TCG does not implement it, the probe catches the #UD."""
    log = boot(cpu="pentium2", cmdline=CMDLINE)
    skip = outcomes(log)["sys/rdpmc"][1]
    assert skip["reason"] == "RDPMC of counter 0 faults here (#UD)"


def test_rdpmc_skip_names_the_cpu_generation_on_a_486(boot):
    log = boot(cpu="486", cmdline=CMDLINE)
    skip = outcomes(log)["sys/rdpmc"][1]
    assert skip["reason"].startswith("needs RDPMC") and "family 4" in skip["reason"]


def test_sys_bodies_measure_their_instruction_count_under_icount(boot):
    """Under -icount shift=0 every executed sys body measures exactly its instruction count."""
    log = boot(cpu="max", icount=0, cmdline=CMDLINE)
    assert_complete(log)
    assert not log.of_type("fault")
    seen = outcomes(log)
    assert set(seen) == set(SYS_INSNS)
    ran = {n: r for n, (k, r) in seen.items() if k == "result"}
    assert set(ran) == set(SYS_INSNS) - set(EXPECTED_SKIPS["max"])
    for name, r in ran.items():
        assert r["ticks"] == SYS_INSNS[name], f"{name}: {r['ticks']} ticks"
        assert r["ticks_min"] == SYS_INSNS[name], name


def test_cpuid_two_versus_three_differ_by_one_cpuid_under_icount(boot):
    """Seed 001's difference: x3 - x2 is one xor + CPUID (2 instructions)."""
    log = boot(cpu="max", icount=0, cmdline=CMDLINE)
    seen = outcomes(log)
    assert seen["sys/cpuid/x3"][1]["ticks"] - seen["sys/cpuid/x2"][1]["ticks"] == 2


def test_msr_benchmarks_carry_the_p5_reference_ranges(boot):
    """On the P5 the RDMSR/WRMSR expectations are the Intel reference ranges (20-24, 30-45)."""
    log = boot(cpu="pentium", cmdline=CMDLINE)
    seen = outcomes(log)
    rd = seen["sys/rdmsr/tsc"][1]["expect"]
    wr = seen["sys/wrmsr/counter"][1]["expect"]
    assert (rd["uarch"], rd["cycles"] - rd["tolerance"], rd["cycles"] + rd["tolerance"]) == ("P5", 20.0, 24.0)
    assert (wr["uarch"], wr["cycles"] - wr["tolerance"], wr["cycles"] + wr["tolerance"]) == ("P5", 30.0, 45.0)
