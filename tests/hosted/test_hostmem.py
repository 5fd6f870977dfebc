"""hostmem: the memory the 64-bit hosted runner maps for its chases (kernel/hosted/platform.c).

auto, the default, maps 256 MiB, or enough for 4 x the last-level cache when a 4xLLC chase is
selected, as far as MemAvailable allows; given a number, that many MiB, and a note says when
4 x the LLC is more, so the 4xLLC chase's working set is never short without a word."""
import os
import subprocess

import pytest

import test_hosted
from test_hosted64 import MEM64, RUNNER64, run64

FLOOR_MIB = 256


def _llc(log):
    caches = [c for c in log.one("cpu")["caches"] if c["kind"] in ("data", "unified")]
    top = max(c["level"] for c in caches)
    return max(c["size"] for c in caches if c["level"] == top)


def _memory_notes(log):
    return [n["text"] for n in log.of_type("note") if n.get("topic") == "memory"]


def test_auto_maps_the_floor_without_a_4xllc_chase():
    log = run64("bench=lat64/add", "samples=5")
    test_hosted.assert_complete(log)
    assert log.one("platform")["big_memory_mib"] == FLOOR_MIB
    assert _memory_notes(log) == []


def _peak_rss_mib(*args):
    """The runner's own peak resident memory (wait4's rusage), and its log."""
    proc = subprocess.Popen([RUNNER64, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, out[-2000:]
    return usage.ru_maxrss >> 10, out


def test_the_memory_is_mapped_and_touched_only_for_a_chase():
    """The platform record says what a chase would get; only a benchmark that
    builds in the large memory (.big) has it mapped and touched. Before, every
    run, serve session and snippet faulted it all in (256 MiB to 2 GiB of
    page faults, seconds on a VM) for bodies that never read it."""
    without, _ = _peak_rss_mib("bench=lat64/add", "samples=5")
    served, _ = _peak_rss_mib("serve")      # stdin at EOF: a session that ends at once
    with_chase, out = _peak_rss_mib(f"bench={MEM64}1K", "samples=5")
    assert b'"big_memory_mib":256' in out
    assert without < 64 and served < 64, (without, served)
    assert with_chase >= FLOOR_MIB, with_chase


def test_a_small_hostmem_says_why_4xllc_falls_short():
    log = run64(f"bench={MEM64}4xLLC", "hostmem=1", "samples=3")
    test_hosted.assert_complete(log)
    llc = _llc(log)
    need = ((4 * llc) >> 20) + 2
    chase = next(r for r in log.of_type("result") if r["name"] == MEM64 + "4xLLC")
    assert chase["working_set"] == (1 << 20) - 64
    assert _memory_notes(log) == [
        f"4 x the last-level cache is {(4 * llc) >> 20} MiB, more than the 1 MiB mapped (hostmem=1 asks for "
        f"no more; hostmem={need} maps enough): {MEM64}4xLLC covers 1 MiB, not DRAM alone"]


@pytest.mark.skipif(not os.path.exists("/proc/meminfo"), reason="no /proc/meminfo")
def test_auto_reaches_four_times_the_llc_where_memory_allows():
    log = run64(f"bench={MEM64}4xLLC", "samples=3", timeout=600)
    test_hosted.assert_complete(log)
    llc = _llc(log)
    need = ((4 * llc) >> 20) + 2
    mapped = log.one("platform")["big_memory_mib"]
    chase = next(r for r in log.of_type("result") if r["name"] == MEM64 + "4xLLC")
    if mapped >= need:
        assert mapped == max(need, FLOOR_MIB) and chase["working_set"] == 4 * llc
        assert _memory_notes(log) == []
    else:
        # Not enough memory here (or more than the runner maps): the run says so, and what it covered.
        notes = _memory_notes(log)
        assert chase["working_set"] < 4 * llc and len(notes) == 1, notes
        assert ("hostmem=auto takes at most 3/4 of the" in notes[0] or "this runner maps at most" in notes[0]), notes
        assert notes[0].endswith(f"covers {mapped} MiB, not DRAM alone")
