"""Boot tests for mem/ (bench/mem_chase.c, bench/mem_forward.c).

Pointer chases from 1 KiB to 64 MiB in the large memory block, and
store-forwarding round trips. Under TCG the values are not real cache
latencies, so the tests assert what must hold anyway: every size runs or is
skipped for want of memory, and each body is exactly its instructions under
-icount shift=0.
"""
import pytest

from conftest import assert_complete

SIZES = ["1K", "4K", "16K", "32K", "64K", "256K", "1M", "4M", "16M", "64M"]
CHASE = [f"mem/chase/{s}" for s in SIZES]
FORWARD = ["mem/forward/dword", "mem/forward/narrow_store", "mem/forward/line_split"]
SELECT = "bench=mem/*"


def outcomes(log):
    return ({r["name"]: r for r in log.of_type("result")},
            {s["name"]: s for s in log.of_type("skip")})


@pytest.mark.parametrize("cpu", ["pentium", "pentium2", "max"])
def test_every_size_runs_with_128_mib(boot, cpu):
    log = boot(cpu=cpu, cmdline=SELECT + " samples=5")
    assert_complete(log)
    results, skips = outcomes(log)
    assert not skips, skips
    assert list(results) == CHASE + FORWARD          # all of them, in file order
    for name in CHASE:
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


def test_bodies_are_exact_under_icount(boot):
    log = boot(cpu="max", cmdline="bench=mem/chase/1K,mem/chase/256K,mem/forward/* samples=5", icount=0)
    assert_complete(log)
    results, skips = outcomes(log)
    assert not skips
    assert results["mem/chase/1K"]["ticks"] == 1.0
    assert results["mem/chase/256K"]["ticks"] == 1.0
    for name in FORWARD:
        assert results[name]["ticks"] == 2.0, results[name]
        assert results[name]["ticks_per_insn"] == 1.0
