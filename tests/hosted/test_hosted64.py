"""The 64-bit hosted runner (build/cyclekit-hosted64): the portable harness
built for x86_64, with only the 64-bit benchmark files (bench/*64_*.c), run
natively on this machine's CPU. Asserted on its parsed JSON log: the run is
complete, every 64-bit benchmark it declares gives a result or a skip with
a reason (never "64-bit body": here 64-bit code is native), the self-test's
ring-3 faults are caught in long mode. And the 32-bit runner skips every
64-bit body with its reason.

No timing thresholds: this machine's numbers go in notes, not in CI.
"""
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from cyclekit import logfile as cyclekit_log
import test_hosted  # noqa: E402  (the 32-bit runner's launcher and cache)

RUNNER64 = os.path.join(ROOT, "build", "cyclekit-hosted64")
PREFIXES = ("lat64/", "simd64/", "mem64/")
ALL64 = "bench=lat64/*,simd64/*,mem64/*"
SKIP_64 = "64-bit body: "
# The reasons bench_unmet gives for a CPU or OS that lacks something.
UNMET = ("needs ", "AVX needs", "AVX-512 needs")

_cache = {}


def run64(*args, timeout=300):
    if args in _cache:
        return _cache[args]
    if not os.path.exists(RUNNER64):
        pytest.fail(f"{RUNNER64} missing: run make hosted first")
    proc = subprocess.run([RUNNER64, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)
    log = cyclekit_log.parse(proc.stdout)
    log.rc = proc.returncode
    log.stderr = proc.stderr.decode("utf-8", "replace")
    log.args = args
    _cache[args] = log
    return log


def declared64(log):
    """The 64-bit bodies it declares (the smp/ measurements between processors have none)."""
    names = [b["name"] for b in log.of_type("bench") if not b.get("smp")]
    assert names, "`list` printed no bench records"
    return names


def test_lists_only_64bit_benchmarks():
    log = run64("list")
    test_hosted.assert_complete(log)
    names = declared64(log)
    assert all(n.startswith(PREFIXES) for n in names), [n for n in names if not n.startswith(PREFIXES)]
    assert len(names) == len(set(names))
    # Besides them, only the smp/ measurements between processors (bench/smp_*.c).
    between = [b["name"] for b in log.of_type("bench") if b.get("smp")]
    assert between and all(n.startswith("smp/") for n in between), between


def test_every_64bit_benchmark_gives_a_result_or_a_reason():
    names = declared64(run64("list"))
    log = run64(ALL64, "samples=11")
    test_hosted.assert_complete(log)
    assert log.one("platform")["machine"] == "x86_64"
    results = {r["name"]: r for r in log.of_type("result")}
    skips = {s["name"]: s["reason"] for s in log.of_type("skip")}
    assert not log.of_type("fault"), log.of_type("fault")
    assert set(results) | set(skips) == set(names)
    assert not set(results) & set(skips)
    for name, reason in skips.items():
        assert reason.startswith(UNMET), (name, reason)
    # The always-present instructions of x86-64 run on every x86-64 CPU.
    for name in ("lat64/add", "lat64/imul", "lat64/div", "lat64/div32", "simd64/paddd_xmm"):
        assert name in results, (name, skips.get(name))
    for r in results.values():
        assert r["ticks"] >= 0 and r["cycles_unit"] in ("estimate", "exact"), r


def test_cpu_features_decide_the_skips():
    """A skip names the feature this CPU's own CPUID record lacks."""
    log = run64(ALL64, "samples=11")   # one run serves this file's three suite tests
    features = set(log.one("cpu")["features"])
    skips = {s["name"]: s["reason"] for s in log.of_type("skip")}
    results = {r["name"] for r in log.of_type("result")}
    if "avx512f" in features and int(log.one("cpu")["xcr0"], 16) & 0xE6 == 0xE6:
        assert "simd64/vpaddd_zmm" in results, skips.get("simd64/vpaddd_zmm")
    else:
        assert skips.get("simd64/vpaddd_zmm", "").startswith(("needs avx512f", "AVX-512 needs", "AVX needs"))
    if "bmi2" in features:
        assert {"lat64/mulx", "lat64/pdep", "lat64/shlx"} <= results
    else:
        assert skips["lat64/mulx"].startswith("needs bmi2"), skips["lat64/mulx"]


def test_selftest_catches_every_ring3_fault_in_long_mode():
    log = run64("selftest", "bench=none")
    test_hosted.assert_complete(log)
    cases = log.of_type("selftest")
    assert cases
    bad = [c for c in cases if not c["ok"]]
    assert not bad, bad
    body = {c["case"]: c for c in cases if "bench" in c}
    for case in ("#DE in a benchmark", "#UD in a benchmark", "#GP in a benchmark", "#PF in a benchmark"):
        assert body[case]["eip_in_body"] is True and body[case]["body_offset"] == body[case]["expected_offset"], \
            body[case]


def test_32bit_runner_skips_every_64bit_body_with_its_reason():
    log = test_hosted.run(ALL64, "samples=5")
    test_hosted.assert_complete(log)
    skips = {s["name"]: s["reason"] for s in log.of_type("skip")}
    assert skips, "the 32-bit runner declares no 64-bit benchmark"
    assert not [r["name"] for r in log.of_type("result") if r["name"].startswith(PREFIXES)]
    names64 = set(declared64(run64("list")))
    assert set(skips) == names64
    for name, reason in skips.items():
        assert reason == SKIP_64 + "the 32-bit hosted runner runs no 64-bit code (build/cyclekit-hosted64 does)", \
            (name, reason)


MEM64 = "mem64/chase/"


def chase_sizes(names):
    """The fixed sizes in bytes, from the names (16K, 1M, ...)."""
    out = {}
    for name in names:
        label = name[len(MEM64):]
        if label[-1] in "KM" and label[:-1].isdigit():
            out[name] = int(label[:-1]) << (10 if label[-1] == "K" else 20)
    return out


def test_mem64_chase_structure():
    """Every 64-bit chase runs natively on the mmap'd memory (above 4 GiB in
    an x86_64 process: 8-byte pointers), says its working set, the LLC it was
    sized from (4xLLC) and the page size Linux gave (2 MiB where transparent
    huge pages took the MADV_HUGEPAGE advice, else 4 KiB, or null with why)."""
    names = [n for n in declared64(run64("list")) if n.startswith(MEM64)]
    assert names[-1] == MEM64 + "4xLLC" and len(names) == 11, names
    log = run64(ALL64, "samples=11")
    test_hosted.assert_complete(log)
    mine = lambda kind: [r for r in log.of_type(kind) if r["name"].startswith(MEM64)]  # noqa: E731
    assert not log.of_type("fault") and not mine("skip"), (log.of_type("fault"), mine("skip"))
    results = {r["name"]: r for r in mine("result")}
    assert list(results) == names
    for name, size in chase_sizes(names).items():
        assert results[name]["working_set"] == size, results[name]
    for r in results.values():
        # A chase costs something, so the median is positive, unless the host
        # stalled the shorter runs (swap, a busy neighbour) until most of the
        # 2U-U differences went negative: the harness counts those (`negative`)
        # and takes them as 0: a zero median is allowed only where it counted some.
        assert r["ticks"] > 0 or r["negative"] > 0, r
        if r["page_size"] is None:
            assert r["page_size_reason"].startswith("mixed: "), r
        else:
            assert r["page_size"] in (4096, 2 << 20), r
    llc = results[MEM64 + "4xLLC"]
    big = log.one("platform")["big_memory_mib"] << 20
    want = 4 * llc["llc"] if llc["llc"] else 256 << 20
    assert llc["working_set"] == min(want, big - 64) // 64 * 64, (llc, big)


def test_mem64_chase_without_memory_is_skipped_with_the_reason():
    log = run64("bench=mem64/chase/16K,mem64/chase/4xLLC", "hostmem=0", "samples=3")
    test_hosted.assert_complete(log)
    skips = {s["name"]: s["reason"] for s in log.of_type("skip")}
    assert skips[MEM64 + "16K"] == "needs 16 KiB of large memory for the chain, have 0 KiB"
    assert skips[MEM64 + "4xLLC"].startswith("needs large memory for the chain (4 x LLC = "), skips
    assert skips[MEM64 + "4xLLC"].endswith(" KiB), have 0 KiB"), skips
