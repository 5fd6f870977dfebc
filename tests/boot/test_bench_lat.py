"""Boot tests for the compute benchmarks: lat/ (bench/lat_int.c, lat_x87.c),
simd/ (bench/simd_add.c) and branch/ (bench/branch.c).

On each QEMU CPU model every benchmark gives a result or a skip that names
the missing feature; under -icount shift=0 (one tick per instruction) each
body measures exactly the instructions it executes.
"""
import pytest

from conftest import assert_complete

SELECT = "bench=lat/*,simd/*,branch/*"

# LAT(...) lines: a chain of one instruction and LAT_CHAINS (4) copies.
LAT_ONE_LINE = ["add", "sub", "xor", "adc", "lea", "shl_cl", "shr_cl", "sar_cl", "rol_cl",
                "imul", "bswap", "movzx", "neg", "cmov"]
# LAT_BODIES(...) entries: instructions per independent body.
LAT_WRITTEN_OUT = {"mul": 2, "div": 3, "idiv": 3, "xchg": 2}
LAT_X87 = ["fadd", "fsub", "fmul", "fdiv"]
SIMD_INSNS = {"simd/sadd": 192, "simd/vadd/mmx": 25, "simd/vadd/sse2": 12}
BRANCH_INSNS = {"branch/taken": 7.0, "branch/not_taken": 8.0, "branch/alternate": 7.5}


def expected_ticks():
    """Instructions per body, i.e. ticks under -icount 0 (branch/random aside)."""
    t = {}
    for n in LAT_ONE_LINE:
        t[f"lat/{n}"] = 1.0
        t[f"lat/{n}/tput"] = 4.0
    for n, k in LAT_WRITTEN_OUT.items():
        t[f"lat/{n}"] = 1.0
        t[f"lat/{n}/tput"] = float(k)
    for n in LAT_X87:
        t[f"lat/x87/{n}"] = 1.0
        t[f"lat/x87/{n}/tput"] = 4.0
    t.update({k: float(v) for k, v in SIMD_INSNS.items()})
    t.update(BRANCH_INSNS)
    return t


ALL_NAMES = set(expected_ticks()) | {"branch/random"}


def outcomes(log):
    results = {r["name"]: r for r in log.of_type("result")}
    skips = {s["name"]: s for s in log.of_type("skip")}
    return results, skips


@pytest.mark.parametrize("cpu", ["pentium", "pentium2", "max"])
def test_every_benchmark_runs_or_says_why(boot, cpu):
    log = boot(cpu=cpu, cmdline=SELECT + " samples=15")
    assert_complete(log)
    assert not log.of_type("fault"), log.of_type("fault")
    results, skips = outcomes(log)
    assert not set(results) & set(skips)
    assert set(results) | set(skips) == ALL_NAMES
    features = set(log.one("cpu")["features"])
    must_skip = {
        "lat/cmov": "cmov", "lat/cmov/tput": "cmov",
        "simd/vadd/mmx": "mmx", "simd/vadd/sse2": "sse2",
    }
    for name, feature in must_skip.items():
        if feature in features:
            assert name in results, f"{name}: {skips.get(name)}"
        else:
            assert name in skips, f"{name} ran without {feature}"
            assert feature in skips[name]["reason"], skips[name]
    assert set(skips) <= set(must_skip), sorted(skips)
    for r in results.values():
        assert r["ticks"] >= 0 and r["samples"] == 15, r


def test_skip_reasons_on_pentium(boot):
    """QEMU's pentium model has MMX but neither CMOV nor SSE2."""
    log = boot(cpu="pentium", cmdline=SELECT + " samples=15")
    results, skips = outcomes(log)
    assert "simd/vadd/mmx" in results
    assert skips["simd/vadd/sse2"]["reason"].startswith("needs sse2 (CPUID 1.edx bit 26)")
    assert skips["lat/cmov"]["reason"].startswith("needs cmov (CPUID 1.edx bit 15)")


def test_bodies_measure_their_instruction_counts_under_icount(boot):
    log = boot(cpu="max", cmdline=SELECT + " samples=5", icount=0)
    assert_complete(log)
    results, skips = outcomes(log)
    assert not skips, skips
    for name, ticks in expected_ticks().items():
        assert results[name]["ticks"] == ticks, (name, results[name]["ticks"], ticks)
    # Per instruction: every straight-line tput body is N instructions in N ticks.
    for name, r in results.items():
        if "ticks_per_insn" in r and not name.startswith("branch/"):
            assert r["ticks_per_insn"] == 1.0, (name, r["ticks_per_insn"])
    # Random bits: somewhere between all-taken (7) and all-not-taken (8), not at either end.
    assert 7.2 < results["branch/random"]["ticks"] < 7.8, results["branch/random"]


def test_expectations_are_printed_only_for_the_running_uarch(boot):
    """P5 expectations show up on the pentium model only; a TCG run is untrusted."""
    p5 = outcomes(boot(cpu="pentium", cmdline=SELECT + " samples=15"))[0]
    assert p5["lat/imul"]["expect"] == {"uarch": "P5", "cycles": 9.0, "tolerance": 0.9}
    assert p5["lat/add/tput"]["expect"]["cycles"] == 2.0     # 4 ADDs, 0.50 each
    assert p5["lat/div"]["expect"]["cycles"] == 41.5
    assert p5["lat/imul"]["verdict"] == "untrusted timing"
    other = outcomes(boot(cpu="pentium2", cmdline=SELECT + " samples=15"))[0]
    assert other["lat/imul"]["expect"] is None
    assert other["lat/imul"]["verdict"] == "no expectation"
