"""Boot tests for the XSAVE state (issue 11) and the avx/ benchmarks
(bench/simd_avx.c).

On -cpu max (TCG: XSAVE, AVX, AVX2, FMA, no AVX-512) the kernel sets
CR4.OSXSAVE and XCR0 to x87|SSE|AVX, the cpu record shows it and the avx/
bodies run, measuring exactly their instructions under -icount shift=0. On
the pentium and 486 models there is no XSAVE: xcr0 is null with the reason
and every avx/ benchmark is skipped with it. The boots are the suite's
(conftest.suite_boot), shared with the other benchmark tests.
"""
import pytest

from conftest import assert_complete, bodies, group, suite_boot

AVX512 = 0xE0  # opmask, ZMM_Hi256, Hi16_ZMM (XCR0 bits 5-7)


def avx_outcomes(log):
    results = {r["name"]: r for r in log.of_type("result") if r["name"].startswith("avx/")}
    skips = {s["name"]: s for s in log.of_type("skip") if s["name"].startswith("avx/")}
    return results, skips


def test_max_enables_xsave_and_avx_state():
    log = suite_boot("max")
    assert_complete(log)
    rec = log.one("cpu")
    assert rec["osxsave"] is True, rec.get("xcr0_reason")
    xcr0 = int(rec["xcr0"], 16)
    assert xcr0 & 0x7 == 0x7, hex(xcr0)
    assert xcr0 & AVX512 == 0, hex(xcr0)   # TCG has no AVX-512
    assert xcr0 & ~int(rec["xcr0_supported"], 16) == 0, (rec["xcr0"], rec["xcr0_supported"])
    results, skips = avx_outcomes(log)
    assert not skips, skips
    assert set(results) == set(group("avx/"))


def test_avx_bodies_measure_their_instruction_counts_under_icount():
    log = suite_boot("max", icount=0)
    assert_complete(log)
    results, skips = avx_outcomes(log)
    assert not skips, skips
    assert set(results) == set(group("avx/")) and results
    for name, r in results.items():
        body = bodies()[name]
        assert body.straight, body
        assert r["ticks"] == body.insns, (name, r["ticks"], body)
        if "ticks_per_insn" in r:
            assert r["ticks_per_insn"] == 1.0, (name, r["ticks_per_insn"])


@pytest.mark.parametrize("cpu", ["pentium", "486"])
def test_no_xsave_means_null_xcr0_and_avx_skipped(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    rec = log.one("cpu")
    assert rec["osxsave"] is False
    assert rec["xcr0"] is None
    reason = rec["xcr0_reason"]
    assert "XSAVE" in reason, reason
    results, skips = avx_outcomes(log)
    assert not results, sorted(results)
    assert set(skips) == set(group("avx/"))
    for s in skips.values():
        assert s["reason"].startswith("AVX needs XCR0.SSE|AVX enabled by the OS"), s
        assert reason in s["reason"], s


def test_avx_bodies_are_warmed_until_they_settle():
    """Under -icount shift=0 every run of a body takes the same ticks, so the
    warm-up (kernel/clock/warmup.c) settles once its minimum time has passed
    and three runs agreed: at least 4 runs, never the bound (2000). Other
    bodies are not warmed this way and their records have no `warmups`."""
    log = suite_boot("max", icount=0)
    assert_complete(log)
    results, _ = avx_outcomes(log)
    assert results
    for name, r in results.items():
        assert r["warmup_settled"] is True, name
        assert 4 <= r["warmups"] < 2000, (name, r["warmups"])
    for r in log.of_type("result"):
        if not r["name"].startswith("avx/"):
            assert "warmups" not in r and "warmup_settled" not in r, r["name"]
