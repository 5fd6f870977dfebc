"""Boot tests for the 64-bit benchmarks (BENCH64: bench/lat64_*.c,
bench/simd64_*.c; issue 11).

A 64-bit body runs only where the platform can call long-mode code
(platform->call64); elsewhere it is skipped with the platform's reason,
prefixed "64-bit body: ". Which of the two a boot is, the platform record
says (`"mode": 64` once the kernel enters long mode); each test asserts the
outcome that record calls for, exactly, both ways:

- 32-bit path (pentium, 486, or a kernel without long mode): every 64-bit
  benchmark is skipped, every reason starts with "64-bit body: ".
- long mode (qemu-system-x86_64, -cpu max and Skylake-Server, -icount
  shift=0): every 64-bit body is run, or skipped for a CPUID feature or XSAVE
  state the model lacks (TCG has no AVX-512: Skylake-Server's is filtered
  out), and a run body measures exactly its instruction count (read from the ELF, bench_bodies.py; a one-tick-per-instruction
  clock cancels the setup, the loop and the reads).
"""
import pytest

from conftest import assert_complete, bodies, declared, run_boot, suite_boot

PREFIXES = ("lat64/", "simd64/")
SKIP_64 = "64-bit body: "
CMDLINE = "bench=lat64/*,simd64/* samples=5"


def names64():
    names = [n for n in declared() if n.startswith(PREFIXES)]
    assert names, "no 64-bit benchmark is declared"
    return names


def outcomes(log):
    results = {r["name"]: r for r in log.of_type("result") if r["name"].startswith(PREFIXES)}
    skips = {s["name"]: s["reason"] for s in log.of_type("skip") if s["name"].startswith(PREFIXES)}
    faults = [f for f in log.of_type("fault") if str(f.get("where", "")).startswith(PREFIXES)]
    return results, skips, faults


def long_mode(log):
    return log.one("platform").get("mode") == 64


def assert_all_skipped_for_long_mode(log):
    results, skips, faults = outcomes(log)
    assert not results and not faults, (sorted(results), faults)
    assert set(skips) == set(names64())
    for name, reason in skips.items():
        assert reason.startswith(SKIP_64) and len(reason) > len(SKIP_64), (name, reason)


@pytest.mark.parametrize("cpu", ["pentium", "486"])
def test_32bit_cpus_skip_every_64bit_body_with_the_reason(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    assert not long_mode(log), "a CPU without long mode reports mode 64"
    assert_all_skipped_for_long_mode(log)


def test_max_runs_64bit_bodies_in_long_mode_or_skips_them_with_the_reason():
    log = suite_boot("max")
    assert_complete(log)
    if not long_mode(log):
        assert_all_skipped_for_long_mode(log)
        return
    results, skips, faults = outcomes(log)
    assert not faults, faults
    assert set(results) | set(skips) == set(names64())
    for name, reason in skips.items():
        assert not reason.startswith(SKIP_64), (name, reason)


@pytest.mark.parametrize("cpu", ["max", "Skylake-Server"])
def test_64bit_bodies_measure_their_instruction_counts_under_icount(cpu):
    log = run_boot(cpu=cpu, qemu="x86_64", cmdline=CMDLINE, icount=0)
    assert_complete(log)
    if "lm" in log.one("cpu")["features"]:  # a 64-bit CPU boots into long mode (no mode=32 given)
        assert long_mode(log), log.one("platform")
    if not long_mode(log):
        assert_all_skipped_for_long_mode(log)
        return
    results, skips, faults = outcomes(log)
    assert not faults, faults
    assert set(results) | set(skips) == set(names64())
    for name, reason in skips.items():  # TCG: no AVX-512; each says what is missing
        assert reason.startswith(("needs ", "AVX needs", "AVX-512 needs")), (name, reason)
    assert results, "long mode, and not one 64-bit body ran"
    for name, r in results.items():
        body = bodies()[name]
        assert body.straight, body
        assert r["ticks"] == body.insns, (name, r["ticks"], body)
        if "ticks_per_insn" in r:
            assert r["ticks_per_insn"] == 1.0, (name, r["ticks_per_insn"])
