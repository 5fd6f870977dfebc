"""Boot tests for the compute benchmarks: lat/ (bench/lat_int.c, lat_x87.c),
simd/ (bench/simd_add.c) and branch/ (bench/branch.c).

On each QEMU CPU model every benchmark gives a result or a skip that names
the missing feature; under -icount shift=0 (one tick per instruction) each
body measures exactly the instructions it executes. The names are the
kernel's own (`list`), the instruction counts those of the assembled bodies
(build/cyclekit.elf); the boots are the whole suite's (conftest.suite_boot).
"""
import pytest

from conftest import assert_complete, bodies, group, suite_boot

GROUPS = ("lat/", "simd/", "branch/")
# What must be skipped where the CPU lacks the feature (and run where it has it).
NEEDS = {"lat/cmov": "cmov", "lat/cmov/tput": "cmov", "simd/vadd/mmx": "mmx", "simd/vadd/sse2": "sse2"}
# branch/ bodies test, jump over one instruction, or fall through it: per
# body they execute all their instructions but one (taken), all of them (not
# taken), or half a one fewer on average (alternating).
BRANCH_SKIPPED = {"branch/taken": 1.0, "branch/not_taken": 0.0, "branch/alternate": 0.5}


def names():
    return [n for g in GROUPS for n in group(g)]


def outcomes(log):
    results = {r["name"]: r for r in log.of_type("result") if r["name"].startswith(GROUPS)}
    skips = {s["name"]: s for s in log.of_type("skip") if s["name"].startswith(GROUPS)}
    return results, skips


@pytest.mark.parametrize("cpu", ["pentium", "pentium2", "max"])
def test_every_benchmark_runs_or_says_why(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    assert not log.of_type("fault"), log.of_type("fault")
    results, skips = outcomes(log)
    assert not set(results) & set(skips)
    assert set(results) | set(skips) == set(names())
    features = set(log.one("cpu")["features"])
    for name, feature in NEEDS.items():
        if feature in features:
            assert name in results, f"{name}: {skips.get(name)}"
        else:
            assert name in skips, f"{name} ran without {feature}"
            assert feature in skips[name]["reason"], skips[name]
    assert set(skips) <= set(NEEDS), sorted(skips)
    for r in results.values():
        assert r["ticks"] >= 0 and r["samples"] == 5, r


def test_skip_reasons_on_pentium():
    """QEMU's pentium model has MMX but neither CMOV nor SSE2."""
    results, skips = outcomes(suite_boot("pentium"))
    assert "simd/vadd/mmx" in results
    assert skips["simd/vadd/sse2"]["reason"].startswith("needs sse2 (CPUID 1.edx bit 26)")
    assert skips["lat/cmov"]["reason"].startswith("needs cmov (CPUID 1.edx bit 15)")


def test_bodies_measure_their_instruction_counts_under_icount():
    log = suite_boot("max", icount=0)
    assert_complete(log)
    results, skips = outcomes(log)
    assert not skips, skips
    assert set(results) == set(names())
    for name, r in results.items():
        body = bodies()[name]
        if body.straight:
            assert r["ticks"] == body.insns, (name, r["ticks"], body)
            # Per instruction: the declared .insns is the body's real count.
            if "ticks_per_insn" in r:
                assert r["ticks_per_insn"] == 1.0, (name, r["ticks_per_insn"])
        elif name in BRANCH_SKIPPED:
            assert r["ticks"] == body.insns - BRANCH_SKIPPED[name], (name, r["ticks"], body)
    assert set(BRANCH_SKIPPED) <= set(results)
    # Random bits: somewhere between all-taken and all-not-taken, not at either end.
    n = bodies()["branch/random"].insns
    assert n - 0.8 < results["branch/random"]["ticks"] < n - 0.2, results["branch/random"]


def test_expectations_are_printed_only_for_the_running_uarch():
    """P5 expectations show up on the pentium model only; a TCG run is untrusted."""
    p5 = outcomes(suite_boot("pentium"))[0]
    assert p5["lat/imul"]["expect"] == {"uarch": "P5", "cycles": 9.0, "tolerance": 0.9,
                                      "kind": "model"}
    assert p5["lat/add/tput"]["expect"]["cycles"] == 2.0     # 4 ADDs, 0.50 each
    assert p5["lat/div"]["expect"]["cycles"] == 41.5
    assert p5["lat/imul"]["verdict"] == "untrusted timing"
    other = outcomes(suite_boot("pentium2"))[0]
    assert other["lat/imul"]["expect"] is None
    assert other["lat/imul"]["verdict"] == "no expectation"
