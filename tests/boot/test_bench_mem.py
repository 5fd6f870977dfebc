"""Boot tests for mem/ (bench/mem_chase.c, bench/mem_forward.c).

Pointer chases from 1 KiB to 64 MiB in the large memory block, and
store-forwarding round trips. Under TCG the values are not real cache
latencies, so the tests assert what must hold anyway: every size runs or is
skipped for want of memory, and each body is exactly its instructions under
-icount shift=0.
"""
import pytest

from conftest import assert_complete, bodies, group, suite_boot

SELECT = "bench=mem/*"


def chase():
    return group("mem/chase/")


def outcomes(log):
    return ({r["name"]: r for r in log.of_type("result") if r["name"].startswith("mem/")},
            {s["name"]: s for s in log.of_type("skip") if s["name"].startswith("mem/")})


@pytest.mark.parametrize("cpu", ["pentium", "pentium2", "max"])
def test_every_size_runs_with_128_mib(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    results, skips = outcomes(log)
    assert not skips, skips
    assert list(results) == group("mem/")           # all of them, in file order
    assert "mem/chase/64M" in results               # the largest chain fits in 128 MiB
    for name in chase():
        r = results[name]
        assert r["ticks"] >= 0, r
        # Runs carry ESI on, so the samples walk the whole cycle with the default loop count.
        assert r["loops"] == 100, r


def test_large_sizes_skip_when_memory_is_short(boot):
    """With 32 MiB of RAM the 64 MiB chain cannot be built; 16 MiB still fits."""
    log = boot(cpu="max", cmdline="bench=mem/chase/16M,mem/chase/64M samples=3", memory=32)
    assert_complete(log)
    results, skips = outcomes(log)
    assert list(results) == ["mem/chase/16M"]
    reason = skips["mem/chase/64M"]["reason"]
    assert reason.startswith("needs 65536 KiB of large memory for the chain, have "), reason
    have_kib = int(reason.split("have ")[1].split(" KiB")[0])
    assert 16 * 1024 < have_kib < 32 * 1024


def test_bodies_are_exact_under_icount():
    log = suite_boot("max", icount=0)
    assert_complete(log)
    results, skips = outcomes(log)
    assert not skips
    assert list(results) == group("mem/")
    for name, r in results.items():
        body = bodies()[name]
        assert body.straight, body
        assert r["ticks"] == body.insns, (name, r["ticks"], body)
    for name in chase():
        assert results[name]["ticks"] == 1.0       # one load per hop: mov (%esi), %esi
    for name in group("mem/forward/"):
        assert results[name]["ticks"] == 2.0, results[name]   # a store and its load
        assert results[name]["ticks_per_insn"] == 1.0
