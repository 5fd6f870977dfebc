"""Boot tests for mem64/chase/ (bench/mem64_chase.c): the 64-bit pointer
chase (`movq (%rsi), %rsi`, 8-byte pointers) at mem/chase's sizes, run in
long mode through platform->call64.

Under qemu-system-x86_64 -icount shift=0 each hop is exactly one
instruction, so every size reads exactly 1.00 tick per copy; that holds only
if the chain is intact (a broken pointer faults, a pointer into the wrong
place is caught by nothing else but the fault record), the full RSI is
loaded and carried from run to run. On a 32-bit CPU every mem64 body is
skipped with the long-mode reason.
"""
import pytest

from conftest import assert_complete, bodies, group, run_boot

PREFIX = "mem64/chase/"
SKIP_64 = "64-bit body: "


def outcomes(log):
    results = {r["name"]: r for r in log.of_type("result") if r["name"].startswith(PREFIX)}
    skips = {s["name"]: s["reason"] for s in log.of_type("skip") if s["name"].startswith(PREFIX)}
    faults = [f for f in log.of_type("fault") if str(f.get("where", "")).startswith(PREFIX)]
    return results, skips, faults


def test_every_size_is_declared_like_mem_chase():
    sizes32 = [n[len("mem/chase/"):] for n in group("mem/chase/")]
    sizes64 = [n[len(PREFIX):] for n in group(PREFIX)]
    assert sizes64 == sizes32


def test_each_hop_is_one_instruction_under_icount_in_long_mode():
    log = run_boot(cpu="max", qemu="x86_64", cmdline="bench=mem64/* samples=5", icount=0)
    assert_complete(log)
    assert log.one("platform").get("mode") == 64, log.one("platform")
    results, skips, faults = outcomes(log)
    assert not faults and not skips, (faults, skips)
    assert list(results) == group(PREFIX)  # all of them, in file order (128 MiB: 64M fits)
    for name, r in results.items():
        body = bodies()[name]
        assert body.straight and body.insns == 1, body
        assert r["ticks"] == 1.0, (name, r["ticks"])
        assert r["page_size"] in (4096, 2 << 20, 1 << 30), r
    for name in group(PREFIX)[:-1]:  # the fixed sizes say their size; 4xLLC below
        label = name[len(PREFIX):]
        size = int(label[:-1]) << (10 if label.endswith("K") else 20)
        assert results[name]["working_set"] == size, results[name]
    llc = results[PREFIX + "4xLLC"]
    # 64 MiB fits (mem64/chase/64M ran): 4 x LLC exactly when that is no more.
    assert llc["llc"] > 0, llc
    if 4 * llc["llc"] <= 64 << 20:
        assert llc["working_set"] == 4 * llc["llc"], llc
    else:
        assert 64 << 20 <= llc["working_set"] < 4 * llc["llc"] and llc["working_set"] % 64 == 0, llc


@pytest.mark.parametrize("cpu", ["pentium"])
def test_32bit_cpu_skips_every_mem64_body_with_the_reason(cpu):
    log = run_boot(cpu=cpu, cmdline="bench=mem64/* samples=3")
    assert_complete(log)
    results, skips, faults = outcomes(log)
    assert not results and not faults, (results, faults)
    assert list(skips) == group(PREFIX)
    for name, reason in skips.items():
        assert reason.startswith(SKIP_64) and len(reason) > len(SKIP_64), (name, reason)
