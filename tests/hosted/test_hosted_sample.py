"""Sampling in the hosted runner (sample=, kernel/hosted/sample_perf.c): Linux's
perf_event_open(2) interrupts the thread every period of an event, writes the
interrupted instruction pointer to a ring buffer, and the sampled run reads
them all back and charges each to a byte offset of the body.

Asserted on the `sample` record's structure, never on its numbers: that the
samples are all accounted for (body + loop + handler + elsewhere), that the
offsets are in order and each names an instruction's first byte (an
interrupt stops the body between instructions), that Linux's own handler,
kernel code, is never sampled by a ring-3 event, and that what cannot be
sampled here (a hardware event without a PMU, :nmi, a period shorter than
Linux's timer allows) gives a record that says why, and the run still ends
well.
"""
import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
import test_hosted  # noqa: E402  (the 32-bit runner's launcher and cache)
from test_hosted64 import run64  # noqa: E402
from test_hosted_perf import hardware_offered, software_rings  # noqa: E402

QUICK = ("quick",)  # fewer timed samples: the sampled run after them is what is checked
# One IMUL r64, r/m64 (REX.W 0F AF /r) a copy: every sample in the body is at its first byte.
IMUL64 = "480fafc3"
HW_REFUSAL = re.compile(r"^perf_event_open\(PERF_TYPE_HARDWARE cycles\): (E[A-Z]+|errno \d+): .+")
SW_REFUSAL = re.compile(r"^perf_event_open\(PERF_TYPE_SOFTWARE cpu-clock\): (E[A-Z]+|errno \d+): .+")
EVERY_100_US = "perf_event cpu-clock every 100000 ns"


def sample_of(log, name):
    test_hosted.assert_complete(log)
    recs = [r for r in log.of_type("sample") if r["name"] == name]
    assert len(recs) == 1, (log.args, recs)
    return recs[0]


def assert_accounted(rec):
    """Every sample is somewhere, once; the body's are per offset, in order,
    inside one copy."""
    assert rec["samples"] > 0, rec
    assert rec["body"] + rec["loop"] + rec["handler"] + rec["elsewhere"] == rec["samples"], rec
    offsets = [o["offset"] for o in rec["offsets"]]
    assert offsets == sorted(set(offsets)), rec["offsets"]
    assert all(0 <= o < rec["copy_bytes"] for o in offsets), rec
    assert sum(o["samples"] for o in rec["offsets"]) == rec["body"], rec
    # Linux's interrupt handler runs in the kernel, which an exclude_kernel event never samples.
    assert rec["handler"] == 0 and rec["storm"] is False, rec
    assert rec["lost"] == 0, rec


def software_sampling():
    """Whether Linux lets this process sample its own ring 3 (perf_event_paranoid
    3, Debian's patch, refuses every perf event without CAP_PERFMON)."""
    return software_rings() != "none"


@pytest.mark.parametrize("spec,source,event", [("cpu-clock", "event", "cpu-clock"), ("time:100", "time", "time")])
def test_the_timer_samples_the_body(spec, source, event):
    """sample=cpu-clock (no period: a clock event's 100 µs) and sample=time:100
    are both Linux's cpu-clock timer every 100000 ns of the thread's CPU time."""
    rec = sample_of(run64("bench=lat64/imul", f"sample={spec}", *QUICK), "lat64/imul")
    assert rec["source"] == source and rec["event"] == event, rec
    if not software_sampling():
        assert SW_REFUSAL.match(rec["failed"]), rec
        return
    assert "failed" not in rec, rec
    assert rec["delivery"].startswith(EVERY_100_US), rec
    assert rec["nmi"] is False and rec["skid"] is None, rec
    assert_accounted(rec)
    assert rec["bytes"] == IMUL64 and rec["copy_bytes"] == 4, rec
    assert [o["offset"] for o in rec["offsets"]] in ([0], []), rec["offsets"]


def test_a_hardware_event_is_refused_in_linux_words_without_a_pmu():
    """sample=cycles where Linux has no hardware PMU for this thread: the record
    says perf_event_open's errno and why, and the run ends with status 0."""
    log = run64("bench=lat64/imul", "sample=cycles", "quick")
    rec = sample_of(log, "lat64/imul")
    assert rec["source"] == "event" and rec["event"] == "cycles", rec
    if hardware_offered() and "failed" not in rec:
        assert_accounted(rec)  # a PMU that samples
        return
    assert HW_REFUSAL.match(rec["failed"]), rec
    assert "samples" not in rec, rec
    if not os.path.isdir("/sys/bus/event_source/devices/cpu"):
        assert rec["failed"].split(": ")[1] in ("ENOENT", "ENOSYS"), rec
    assert log.status == 0


@pytest.mark.parametrize("spec,why", [
    ("cpu-clock:nmi", "':nmi' has no meaning in ring 3"),
    ("cpu-clock:5000", "Linux fires cpu-clock's timer at most every 10000 ns"),
    ("time:5", "Linux fires cpu-clock's timer at most every 10000 ns"),
])
def test_what_ring_3_cannot_ask_for_is_refused(spec, why):
    """No NMI delivery in ring 3, and no period shorter than Linux's timer
    keeps (kernel/events/core.c, perf_swevent_start_hrtimer): refused before
    anything is opened, whatever this Linux allows."""
    log = run64("bench=lat64/imul", f"sample={spec}", "quick")
    rec = sample_of(log, "lat64/imul")
    assert rec["failed"].startswith(why), rec
    assert log.status == 0


def test_cpu_clock_is_for_sampling_not_counting():
    """cpu-clock is in the event table for sample=; events= says its count
    has no proof and points at task-clock."""
    log = run64("bench=lat64/add", "events=cpu-clock", "samples=3")
    test_hosted.assert_complete(log)
    notes = [n["text"] for n in log.of_type("note") if n["topic"] == "events"]
    assert any(t.startswith("event 'cpu-clock' ignored: cpu-clock is for sample=") for t in notes), notes


def test_the_32bit_runner_samples_or_says_why():
    """The 32-bit runner: samples where Linux runs it natively; under qemu-i386,
    which does not pass perf_event_open on, the refusal names ENOSYS."""
    log = test_hosted.run("bench=lat/imul", "sample=time:100", *QUICK)
    rec = sample_of(log, "lat/imul")
    assert rec["source"] == "time", rec
    if "failed" in rec:
        assert SW_REFUSAL.match(rec["failed"]), rec
        return
    assert rec["delivery"].startswith(EVERY_100_US), rec
    assert_accounted(rec)
