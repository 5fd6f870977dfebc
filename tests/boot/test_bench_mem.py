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


def llc_bytes(log):
    """The last-level cache as the harness picks it: the highest level of
    data or unified cache in the cpu record, the largest at that level."""
    caches = [c for c in log.one("cpu")["caches"] if c["kind"] in ("data", "unified")]
    if not caches:
        return 0
    top = max(c["level"] for c in caches)
    return max(c["size"] for c in caches if c["level"] == top)


PAGING_OFF = "paging is off: the 32-bit core addresses physical memory directly, without pages"


@pytest.mark.parametrize("cpu", ["pentium", "pentium2", "max"])
def test_chase_reaches_four_times_the_llc(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    results, _ = outcomes(log)
    r = results["mem/chase/4xLLC"]
    llc = llc_bytes(log)
    if llc == 0:
        # QEMU's pentium describes no cache (no leaf 2 descriptors): the
        # largest chain that fits in the large memory, at most 256 MiB.
        assert cpu == "pentium"
        assert "llc" not in r
        big = log.one("platform")["usable_kib"] * 1024
        assert big // 2 < r["working_set"] < big and r["working_set"] % 64 == 0
        return
    assert r["llc"] == llc
    assert r["working_set"] == 4 * llc            # fits in 128 MiB on these models
    sizes = [results[n]["working_set"] for n in chase()]
    assert max(sizes) >= 4 * llc                  # the curve ends in DRAM


def test_chase_reaches_four_times_the_llc_with_2_gib(boot):
    log = boot(cpu="max", cmdline="bench=mem/chase/4xLLC samples=3", memory=2048)
    assert_complete(log)
    (r,) = log.of_type("result")
    assert r["working_set"] == 4 * llc_bytes(log) == 4 * r["llc"]
    assert r["page_size"] is None and r["page_size_reason"] == PAGING_OFF


def test_chase_takes_what_fits_when_memory_is_short(boot):
    """With 32 MiB of RAM, 4 x 16 MiB cannot be had: the largest chain that
    fits instead, and the record shows it falls short of 4 x LLC."""
    log = boot(cpu="max", cmdline="bench=mem/chase/4xLLC samples=3", memory=32)
    assert_complete(log)
    (r,) = log.of_type("result")
    big_kib = log.one("platform")["usable_kib"]
    assert r["llc"] == 16 << 20
    assert 16 << 20 < r["working_set"] < 4 * r["llc"]
    assert r["working_set"] % 64 == 0 and r["working_set"] < big_kib * 1024


def test_every_mem_record_says_its_page_size():
    log = suite_boot("max")
    results, _ = outcomes(log)
    for name, r in results.items():
        assert r["page_size"] is None, name
        assert r["page_size_reason"] == PAGING_OFF, name
        if name.startswith("mem/chase/"):
            assert r["working_set"] >= 1024, name
    for r in log.of_type("result"):
        if not r["name"].startswith("mem/"):
            assert "page_size" not in r, r["name"]
