"""The progress record: one before each selected benchmark, i from 1 to n,
the group its name's first part, elapsed_ms never going back, and eta_ms
exactly the documented estimate (mean time so far times those left)."""
import pytest
from conftest import assert_complete

OUTCOMES = ("result", "skip", "fault")


def check_progress(log):
    progress = log.of_type("progress")
    n = len(progress)
    assert n > 0
    # Each progress record comes right before its benchmark's outcome.
    order = [r for r in log.records if r["type"] in ("progress",) + OUTCOMES]
    for k, p in enumerate(progress):
        at = order.index(p)
        assert order[at + 1]["type"] in OUTCOMES and order[at + 1]["name"] == p["name"], p
        assert (p["i"], p["n"]) == (k + 1, n)
        assert p["group"] == p["name"].split("/")[0]
    assert progress[0]["eta_ms"] is None
    if progress[0]["elapsed_ms"] is None:
        assert all(p["elapsed_by"] is None and p["elapsed_ms"] is None for p in progress)
        return progress
    assert len({p["elapsed_by"] for p in progress}) == 1, "one clock for the whole run"
    elapsed = [p["elapsed_ms"] for p in progress]
    assert elapsed == sorted(elapsed)
    for p in progress[1:]:
        assert p["eta_ms"] == p["elapsed_ms"] * (n - p["i"] + 1) // (p["i"] - 1), p
    return progress


def test_progress_records_pentium_icount(boot):
    # -icount 0: the TSC counts instructions, so the times are those of the emulated work.
    log = boot(cpu="pentium", icount=0, cmdline="bench=calib/*,p5/agi/* samples=9")
    assert_complete(log)
    progress = check_progress(log)
    assert [p["name"] for p in progress] == [r["name"] for r in log.records if r["type"] in OUTCOMES]
    assert progress[-1]["elapsed_ms"] > 0
    assert progress[0]["elapsed_by"] == "tsc"


@pytest.mark.parametrize("cpu,cmdline", [("486", ""), ("pentium", "timer=pit")])
def test_rtc_clock_without_a_tsc_rate(boot, cpu, cmdline):
    # A 486 has no TSC, and timer=pit gives it no rate: the CMOS RTC's whole
    # seconds stand in (the ETA arithmetic is checked by check_progress).
    log = boot(cpu=cpu, cmdline=f"bench=calib/* samples=9 {cmdline}")
    assert_complete(log)
    progress = check_progress(log)
    assert all(p["elapsed_by"] == "rtc" for p in progress), progress[0]
    assert all(p["elapsed_ms"] % 1000 == 0 for p in progress)
