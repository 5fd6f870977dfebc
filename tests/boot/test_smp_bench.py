"""The smp/ group declared like any benchmark (BENCH_SMP, bench/smp_between.c)
and shared-cache latency under load (smp/chase/loaded, issue 12).

The declarations are selected by bench= globs as before, listed by `list`,
`cyclekit list` and serve's list request; smp/chase/loaded gives one
`smp_loaded` record with a step per number of streamers. Timings under TCG
are untrusted: structure, counts and APIC IDs are asserted, never values."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ELF, LOGDIR, ROOT, RUNNER, UEFI_SMP, assert_complete, kvm_boot

from cyclekit import wire as cyclekit_wire

DECLARED = ["smp/tsc", "smp/sibling", "smp/c2c/rmw", "smp/c2c/store", "smp/chase/loaded"]
SMALL = "samples=5"


def listed_smp(records):
    return [b for b in records if b.get("type") == "bench" and b.get("smp")]


def test_globs_select_the_declarations_as_before(boot):
    log = boot(smp="4", cmdline=f"bench=calib/empty,smp/c2c/rmw,smp/tsc {SMALL}")
    assert_complete(log)
    assert [r["variant"] for r in log.of_type("c2c")] == ["rmw"]
    assert len(log.of_type("tsc_sync")) == 1
    assert log.of_type("sibling") == [] and log.of_type("smp_loaded") == []
    assert [s["name"] for s in log.of_type("skip")] == []
    # In the file's order: the TSC record before the matrix.
    types = [r["type"] for r in log.records if r["type"] in ("tsc_sync", "c2c")]
    assert types == ["tsc_sync", "c2c"]
    assert log.notes(level="warn") == []


def test_only_smp_declarations_selected_is_no_warning(boot):
    log = boot(smp="2", cmdline=f"bench=smp/c2c/store {SMALL}")
    assert_complete(log)
    assert [r["variant"] for r in log.of_type("c2c")] == ["store"]
    assert log.of_type("result") == []
    assert log.notes(topic="bench") == []         # not "no benchmark matches"


def test_list_shows_them_runnable_with_four_processors(boot):
    log = boot(smp="4", cmdline="list")
    assert_complete(log)
    smp = listed_smp(log.records)
    assert [b["name"] for b in smp] == DECLARED
    assert all(b["runnable"] and b["min_cpus"] == 2 and "reason" not in b for b in smp)
    assert all(not b["ring0"] and not b["loaded"] and b["desc"] for b in smp)
    assert log.of_type("c2c") == [] and log.of_type("smp_loaded") == []   # list measures nothing


def test_list_on_one_processor_says_why_not(boot):
    log = boot(cpu="pentium", cmdline="list")
    assert_complete(log)
    smp = listed_smp(log.records)
    assert [b["name"] for b in smp] == DECLARED
    assert [(b["runnable"], b["reason"]) for b in smp] == \
        [(False, "needs two running processors, 1 here")] * len(DECLARED)


def test_cyclekit_list_shows_them():
    """`cyclekit list --boot` (the kernel's own list under QEMU, one processor)."""
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cyclekit"), "list", "--boot",
                        "--no-build", "--json", "smp/*"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["name"] for r in rows] == DECLARED
    assert all(r["smp"] is True and r["runnable"] is False for r in rows)


def test_serve_list_shows_them():
    """serve's list request, with two processors started: runnable there."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    qemu = subprocess.Popen([sys.executable, RUNNER, "--kernel", ELF, "--quiet", "--smp", "2",
                             "--serial-socket", str(port), "--timeout", "300",
                             "--cmdline", "serve bench=none/"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    session = None
    try:
        session = cyclekit_wire.Session(f"socket://127.0.0.1:{port}", timeout=300)
        listed = session.list()
        end = session.end()
        assert qemu.wait(timeout=60) == 0
    finally:
        if session:
            session.close()
        if qemu.poll() is None:
            qemu.kill()
            qemu.wait()
    os.makedirs(LOGDIR, exist_ok=True)
    with open(os.path.join(LOGDIR, "serve-smp-list.log"), "w") as f:
        f.write("\n".join(session.lines) + "\n")
    smp = listed_smp(listed)
    assert [b["name"] for b in smp] == DECLARED
    assert all(b["runnable"] for b in smp)
    assert end["status"] == 0


def loaded(log):
    assert_complete(log)
    return log.one("smp_loaded")


def assert_steps(r, streamers):
    """Steps 0..N-1, step k with k streamers: distinct APIC IDs among the
    started processors (never the chaser), each with its own ticks."""
    assert [s["streamers"] for s in r["steps"]] == list(range(len(streamers) + 1))
    for k, step in enumerate(r["steps"]):
        ids = [x["apic_id"] for x in step["streams"]]
        assert len(ids) == k and len(set(ids)) == k and set(ids) <= set(streamers)
        assert 0 < step["min_ticks_per_load"] <= step["median_ticks_per_load"]
        assert step["min_ns_per_load"] is not None and step["median_ns_per_load"] is not None
        for x in step["streams"]:
            assert x["ticks"] > 0 and x["bytes"] % 4096 == 0
            assert x["bytes_per_tick"] is not None and x["mb_per_s"] is not None


@pytest.mark.parametrize("smp", ["4", "4,sockets=2,cores=2"])
def test_loaded_chase_steps_with_four_processors(boot, smp):
    r = loaded(boot(smp=smp, cmdline=f"bench=calib/empty,smp/chase/loaded {SMALL}"))
    assert r["name"] == "smp/chase/loaded" and r["apic_id"] == 0
    assert r["trusted"] is False                    # TCG: the values are the host's scheduling
    assert (r["loads"], r["samples"]) == (256, 16)
    assert r["llc"] > 0 and r["working_set"] == r["llc"] // 2
    assert r["llc"] < r["stream_bytes"] <= 2 * r["llc"]
    assert r["lost"] == []
    assert_steps(r, [1, 2, 3])


def test_loaded_chase_table_fits_80_columns(boot):
    """The readable table, on the screen too: no line past 80 characters."""
    log = boot(smp="4", cmdline=f"bench=calib/empty,smp/chase/loaded {SMALL}")
    assert_complete(log)
    table = log.text.split("== smp/chase/loaded")[1].split("\n{")[0]
    lines = ["== smp/chase/loaded" + table.splitlines()[0]] + table.splitlines()[1:]
    assert len(lines) >= 6, lines                 # heading, two lines of titles, steps 0..3
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)


def test_loaded_chase_follows_cpus(boot):
    r = loaded(boot(smp="4", cmdline=f"bench=calib/empty,smp/chase/loaded cpus=0,3 {SMALL}"))
    assert_steps(r, [3])


def test_loaded_chase_under_uefi(boot):
    """OVMF leaves less memory in one piece: the buffers may shrink below
    2 x LLC, but stay larger than the LLC. Since a UEFI boot keeps the
    firmware's boot services (the log on the stick, docs/uefi-log.md), only
    the firmware's free memory is usable: 128 MiB leaves about 42 MiB in one
    piece, too little for four streamers' buffers, so this boot has 512
    (the UEFI SMP boot test_smp and test_smp_long assert on too)."""
    r = loaded(boot(**UEFI_SMP))
    assert r["llc"] < r["stream_bytes"] <= 2 * r["llc"]
    assert_steps(r, [1, 2, 3])


def test_loaded_chase_in_long_mode(boot):
    log = boot(qemu="x86_64", cpu="max", smp="2", cmdline=f"bench=calib/empty,smp/chase/loaded {SMALL}")
    assert log.one("platform")["mode"] == 64
    assert_steps(loaded(log), [1])


def test_faulting_streamer_is_abandoned_and_the_run_completes(boot):
    """streamfault=2: APIC ID 2 faults as it starts streaming in step 2. It
    is abandoned with a warn note; step 3 would need three streamers, and
    only 1 and 3 are left, so the record ends after step 2."""
    log = boot(smp="4", cmdline=f"bench=calib/empty,smp/chase/loaded streamfault=2 {SMALL}")
    r = loaded(log)
    assert r["lost"] == [2]
    assert [s["streamers"] for s in r["steps"]] == [0, 1, 2]
    assert [x["apic_id"] for x in r["steps"][2]["streams"]] == [1, 2]
    assert r["steps"][2]["streams"][1]["ticks"] == 0 and r["steps"][2]["streams"][1]["bytes_per_tick"] is None
    assert [n["text"] for n in log.notes(level="warn", topic="smp")] == \
        ["smp/chase/loaded: the processor with APIC ID 2 faulted or did not finish; abandoned"]
    assert log.of_type("result")                   # the suite ran, the log is whole


def test_loaded_chase_needs_two_processors(boot):
    log = boot(cmdline=f"bench=smp/chase/loaded {SMALL}")
    assert_complete(log)
    assert log.of_type("smp_loaded") == []
    texts = [n["text"] for n in log.notes(topic="smp")]
    assert "smp/chase/loaded: needs two running processors, 1 here; not measured" in texts
    assert log.notes(topic="bench") == []


def test_kvm_loaded_chase_two_processors():
    """Under KVM (-smp 2, 1 GiB: room for half even a very large LLC and a
    buffer beyond it): both steps, the streamer being the other processor.
    Skipped where this machine cannot boot under KVM (the probe's reason)."""
    log = kvm_boot(cmdline=f"bench=calib/empty,smp/chase/loaded {SMALL}", smp="2", memory=1024,
                   extra_seconds=60)
    r = loaded(log)
    assert r["working_set"] == r["llc"] // 2 and r["stream_bytes"] > r["llc"]
    assert_steps(r, [1])

