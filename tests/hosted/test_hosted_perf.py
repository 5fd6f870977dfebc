"""Counters in the hosted runner through Linux (kernel/hosted/perf_events.c):
the PMU_LINUX driver's proof, events= and `cyclekit snippet --events`, and
the samples the scheduler interrupted (`switched`).

Every assertion holds on this machine (a KVM guest without a virtual PMU)
and on one with a PMU: where Linux offers hardware events to this process
(a cpu event source, and root or perf_event_paranoid <= 2), their counting
must have been proved by the same loop as bare metal's; where it does not,
the refusal must name perf_event_open and Linux's errno. Software events
(page faults, context switches, task clock, migrations) exist on every
Linux and are exact where a test says so: a body that writes two pages it
first gave back takes two page faults each time.
"""
import json
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from cyclekit import logfile as cyclekit_log
import test_hosted  # noqa: E402  (the 32-bit runner's launcher and cache)
from test_hosted64 import run64  # noqa: E402

CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]
CPU_SOURCE = "/sys/bus/event_source/devices/cpu"
TOUCHED_PAGES = 64          # kernel/hosted/perf_soft_proof.c: the page-fault proof's pages
EVENTS = "events=page-faults,context-switches,task-clock,cpu-migrations"
REFUSAL = re.compile(r"^perf_event_open\(PERF_TYPE_HARDWARE instructions\): (E[A-Z]+|errno \d+): .+")
# madvise(MADV_DONTNEED) gives two pages of the scratch back, then writes them: 2 page faults a body.
TWO_PAGES = ("push rsi; lea rdi, [rsi+4096]; mov esi, 8192; mov edx, 4; mov eax, 28; syscall; pop rsi; "
             "mov byte ptr [rsi+4096], 1; mov byte ptr [rsi+8192], 1")


def paranoid():
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def hardware_offered():
    """Whether Linux lets this process count hardware events of its own thread in ring 3."""
    level = paranoid()
    return os.path.isdir(CPU_SOURCE) and (os.geteuid() == 0 or (level is not None and level <= 2))


def software_rings():
    """Where Linux lets this process count its software events: "all" (root, or
    perf_event_paranoid 1 or less), "ring3" (paranoid 2: the driver asks again
    for ring 3 only, where no context switch or migration is recorded), "none"
    (paranoid 3, Debian's patch: nothing without CAP_PERFMON)."""
    level = paranoid()
    if os.geteuid() == 0 or (level is not None and level <= 1):
        return "all"
    return "ring3" if level == 2 else "none"


def cyclekit(*args):
    return subprocess.run(CYCLEKIT + list(args), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def proof(log):
    pmu = log.one("pmu")
    return pmu, {e["check"]: e for e in pmu["evidence"]}


def test_the_hosted_runner_binds_linux_perf_events():
    log = run64("bench=lat64/add", "samples=11", EVENTS)
    test_hosted.assert_complete(log)
    pmu, _ = proof(log)
    assert (pmu["driver"], pmu["kind"]) == ("linux-perf", "linux")
    assert pmu["why"].startswith("Linux perf_event_open(2)")
    assert f"perf_event_paranoid {paranoid()}" in pmu["why"]
    assert "pmu: linux-perf (linux)" in log.text


def test_software_events_are_proved_by_what_provokes_them():
    log = run64("bench=lat64/add", "samples=11", EVENTS)
    pmu, ev = proof(log)
    rings = software_rings()
    if rings == "none":
        assert pmu["software_counting"] is False
        assert re.match(r"perf_event_open\(PERF_TYPE_SOFTWARE [a-z-]+\): E(ACCES|PERM): perf_event_paranoid",
                        pmu["software_reason"]), pmu["software_reason"]
        return
    assert pmu["software_counting"] is True
    faults = ev["page faults"]
    assert faults["event"] == "page-faults" and faults["ok"] is True
    assert faults["delta"] == faults["min"] == TOUCHED_PAGES     # one fault per fresh page, exactly
    assert ev["task clock"]["ok"] is True, (ev["task clock"], pmu.get("software_reason"))
    assert "pmu: software events counting (proved below)" in log.text
    migrations = ev["cpu migrations"]
    if rings == "ring3":     # Linux records both in the kernel: nothing left in ring 3
        assert ev["context switches"]["ok"] is False and migrations["ok"] is False
        assert "ring 3 only" in pmu["software_reason"]
        return
    assert ev["context switches"]["ok"] is True and ev["context switches"]["delta"] >= 1
    if len(os.sched_getaffinity(0)) >= 2:
        assert migrations["ok"] is True and migrations["delta"] == 2   # there and back
    else:
        assert migrations["ok"] is False


def test_hardware_events_are_proved_or_refused_with_linux_reason():
    log = run64("bench=lat64/add", "samples=11", "events=cycles,page-faults")
    pmu, ev = proof(log)
    notes = [n["text"] for n in log.of_type("note") if n["topic"] == "events"]
    result = log.one("result")
    counted = {e["event"]: e for e in result.get("events", [])}
    if hardware_offered():
        # A machine with a PMU Linux lends: counting proved as on bare metal, by difference.
        assert pmu["verdict"] == "counting", pmu["reason"]
        insn = ev["instructions"]
        assert insn["ok"] is True and insn["min"] <= insn["delta"] <= insn["max"]
        assert pmu["reads"] in ("read(2)", "rdpmc (the perf mmap page's cap_user_rdpmc), read(2) where it is off")
        assert counted["cycles"]["per_body"] > 0
    else:
        assert pmu["verdict"] == "not counting"
        assert REFUSAL.match(pmu["reason"]), pmu["reason"]
        if not os.path.isdir(CPU_SOURCE):
            assert ": ENOENT: " in pmu["reason"] and "no cpu event source" in pmu["reason"]
        assert ev["instructions"]["ok"] is False
        assert f"not counting: {pmu['reason']}" in log.text
        assert "cycles" not in counted
        assert any(n.startswith("event 'cycles' ignored: hardware events are not counted here: perf_event_open(")
                   for n in notes), notes
    assert counted["page-faults"]["per_body"] == 0.0    # a register body touches no page


def test_events_per_result_name_every_software_event():
    if software_rings() != "all":
        pytest.skip(f"perf_event_paranoid {paranoid()} without root: not every software event is proved here")
    log = run64("bench=lat64/add", "samples=11", EVENTS)
    result = log.one("result")
    names = [e["event"] for e in result["events"]]
    assert names == ["page-faults", "context-switches", "task-clock", "cpu-migrations"]
    assert all("error" not in e and e["per_body"] >= 0 for e in result["events"])
    assert "context-switches: " in log.text


def test_samples_carry_how_many_were_switched_out():
    log = run64("bench=lat64/add", "samples=11")
    result = log.one("result")
    assert 0 <= result["switched"] <= result["samples"]


def test_snippet_events_counts_two_page_faults_a_body(tmp_path):
    if software_rings() == "none":
        pytest.skip(f"perf_event_paranoid {paranoid()} without root: no perf events (the refusal is tested above)")
    log_file = tmp_path / "pages.log"
    # Every copy is a madvise(2) and two page faults: beside two busy loops (stress-ng --cpu 2
    # on two cores) a run took over the default 2 s watchdog; the test counts, it times nothing.
    p = cyclekit("snippet", "--no-build", "--hosted", "--mode", "64", "--asm", TWO_PAGES,
                 "--events", "page-faults,context-switches", "--samples", "9", "--loops", "20",
                 "--options", "watchdog=30000", "--log", str(log_file))
    assert p.returncode == 0, p.stderr
    rec = cyclekit_log.parse_file(str(log_file)).one("result")
    counted = {e["event"]: e for e in rec["events"]}
    assert counted["page-faults"]["per_body"] == 2.0
    if software_rings() == "all":
        assert "per_body" in counted["context-switches"]
    else:
        assert "event 'context-switches' ignored: its proof failed" in p.stderr
    lines = p.stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("snippet "))
    counts = [line.strip() for line in lines[row + 1:] if line.startswith("    ")]   # under the row and its why
    assert counts[:1] == ["page-faults: 2.00 per body"], p.stdout


def test_snippet_events_says_why_an_event_is_not_counted(tmp_path):
    p = cyclekit("snippet", "--no-build", "--hosted", "--mode", "64", "--asm", "add rax, rbx",
                 "--events", "cycles,nonsense", "--samples", "5", "--json", "--log", str(tmp_path / "x.log"))
    assert p.returncode == 0, p.stderr
    assert "'nonsense' is neither an event of the linux-perf driver nor a raw code" in p.stderr
    if not hardware_offered():
        assert "event 'cycles' ignored: hardware events are not counted here: perf_event_open(" in p.stderr
    else:
        assert [e["event"] for e in json.loads(p.stdout)["events"]] == ["cycles"]


def test_snippet_rejects_a_malformed_event_list():
    p = cyclekit("snippet", "--no-build", "--hosted", "--asm", "add eax, ebx", "--events", "cycles page-faults")
    assert p.returncode == 2
    assert p.stderr.startswith("cyclekit snippet: --events 'cycles page-faults': ")


def test_a_body_that_sleeps_is_switched_out_in_every_sample(tmp_path):
    """nanosleep(2) always leaves the CPU (its timer slack alone is 50 us), so
    every sample of this body sees a context switch: exact, not a timing."""
    log_file = tmp_path / "sleep.log"
    p = cyclekit("snippet", "--no-build", "--hosted", "--mode", "64",
                 "--init", "mov qword ptr [rsi+256], 0; mov qword ptr [rsi+264], 1000",
                 "--asm", "push rsi; lea rdi, [rsi+256]; xor esi, esi; mov eax, 35; syscall; pop rsi",
                 "--unroll", "1", "--loops", "1", "--samples", "5", "--json", "--log", str(log_file))
    assert p.returncode == 0, p.stderr
    rec = json.loads(p.stdout)
    assert rec["switched"] == rec["samples"] == 5


def test_the_32_bit_runner_binds_the_same_driver():
    """Natively the same proof; under qemu-i386 (CK_HOSTED32) the emulator
    passes no perf_event_open on, and the record says so in Linux's words."""
    log = test_hosted.run("bench=calib/add_chain", "samples=5", "events=page-faults")
    test_hosted.assert_complete(log)
    pmu, ev = proof(log)
    assert pmu["driver"] == "linux-perf"
    if pmu["software_counting"]:
        assert ev["page faults"]["delta"] == TOUCHED_PAGES
        assert [e["event"] for e in log.one("result")["events"]] == ["page-faults"]
    else:
        assert REFUSAL.match(pmu["reason"]), pmu["reason"]
        assert any("perf_event_open(" in n["text"] for n in log.of_type("note") if n["topic"] == "events")
