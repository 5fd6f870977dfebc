"""sys/ benchmarks (bench/sys_serializing.c, bench/sys_msr.c) across QEMU CPU models.

Every sys/* benchmark yields a result or a skip whose reason names what is
missing; the bodies that execute RDMSR/WRMSR/RDPMC are proved in their
prepare hooks, so nothing faults even where TCG does not implement RDPMC.
The names are the kernel's own (`list`), the instruction counts those of the
assembled bodies (build/cyclekit.elf); the boots are the whole suite's
(conftest.suite_boot), shared with test_suite_matrix.
"""
import pytest

from conftest import assert_complete, bodies, group, listing, suite_boot

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
def test_every_sys_benchmark_has_a_result_or_a_reasoned_skip(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    assert not log.of_type("fault"), log.of_type("fault")
    seen = outcomes(log)
    assert set(seen) == set(group("sys/"))
    skips = {n: r["reason"] for n, (k, r) in seen.items() if k == "skip"}
    for name, word in EXPECTED_SKIPS[cpu].items():
        assert name in skips, f"{cpu} {name} ran"
        assert word in skips[name], f"{cpu} {name}: {skips[name]!r} does not name {word!r}"
    # Beyond the facts above, a skip is one the kernel announced before
    # running anything (`list` on the same model, the same reason), and
    # every benchmark it announced is skipped.
    listed = listing(cpu)
    announced = {n for n in group("sys/") if not listed[n]["runnable"]}
    assert announced <= set(skips), announced - set(skips)
    for name in set(skips) - set(EXPECTED_SKIPS[cpu]):
        assert name in announced and listed[name]["reason"] == skips[name], \
            f"{cpu} {name}: skipped ({skips[name]!r}) but `list` said {listed[name]}"
    for name, (kind, r) in seen.items():
        if kind == "result":
            assert r["samples"] == 5 and not r["cold"], f"{cpu} {name}"


def test_rdpmc_skip_says_it_faulted_when_tried():
    """Where RDPMC should exist (P6) but TCG does not implement it, the probe catches the #UD."""
    skip = outcomes(suite_boot("pentium2"))["sys/rdpmc"][1]
    assert skip["reason"] == "RDPMC of counter 0 faults here (#UD)"


def test_rdpmc_skip_names_the_cpu_generation_on_a_486():
    skip = outcomes(suite_boot("486"))["sys/rdpmc"][1]
    assert skip["reason"].startswith("needs RDPMC") and "family 4" in skip["reason"]


def test_sys_bodies_measure_their_instruction_count_under_icount():
    """Under -icount shift=0 every executed sys body measures exactly its instruction count."""
    log = suite_boot("max", icount=0)
    assert_complete(log)
    assert not log.of_type("fault")
    seen = outcomes(log)
    assert set(seen) == set(group("sys/"))
    ran = {n: r for n, (k, r) in seen.items() if k == "result"}
    assert set(ran) == set(group("sys/")) - set(EXPECTED_SKIPS["max"])
    for name, r in ran.items():
        n = bodies()[name].insns
        assert bodies()[name].straight, bodies()[name]
        assert r["ticks"] == n, f"{name}: {r['ticks']} ticks, body has {n} instructions"
        assert r["ticks_min"] == n, name


def test_cpuid_two_versus_three_differ_by_one_cpuid_under_icount():
    """Seed 001's difference: x3 - x2 is one xor + CPUID (2 instructions)."""
    seen = outcomes(suite_boot("max", icount=0))
    assert seen["sys/cpuid/x3"][1]["ticks"] - seen["sys/cpuid/x2"][1]["ticks"] == 2


def test_msr_benchmarks_carry_the_p5_reference_ranges():
    """On the P5 the RDMSR/WRMSR expectations are the Intel reference ranges (20-24, 30-45)."""
    seen = outcomes(suite_boot("pentium"))
    rd = seen["sys/rdmsr/tsc"][1]["expect"]
    wr = seen["sys/wrmsr/counter"][1]["expect"]
    assert (rd["uarch"], rd["cycles"] - rd["tolerance"], rd["cycles"] + rd["tolerance"]) == ("P5", 20.0, 24.0)
    assert (wr["uarch"], wr["cycles"] - wr["tolerance"], wr["cycles"] + wr["tolerance"]) == ("P5", 30.0, 45.0)
