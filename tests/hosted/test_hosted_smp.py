"""Every core on the hosted runner (issue 12): one thread pinned to each CPU
sched_getaffinity allows (kernel/hosted/smp.c, cpus.c), the same
smp/ measurements and on= as on bare metal, on this machine's real CPUs.

Asserted on the parsed JSON log: which processors started, the shape of the
core-to-core matrices and of the TSC record, one on=all result per CPU,
cpus=1 and a one-CPU affinity (taskset), and a benchmark that faults on a
worker thread (reported with its APIC ID; the run completes without it).
Never timing values: this machine's numbers go in the README, not in CI.
"""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from cyclekit import logfile as cyclekit_log
from cyclekit import benchfile as cyclekit_module
import test_hosted  # noqa: E402  (the 32-bit runner's launcher)
from test_hosted64 import RUNNER64, run64  # noqa: E402

STATUS_BENCH_FAULT = 2  # kernel/platform/status.h: complete, a benchmark faulted
ALLOWED = sorted(os.sched_getaffinity(0))
N = len(ALLOWED)
needs_two = pytest.mark.skipif(N < 2, reason=f"only {N} CPU allowed here (os.sched_getaffinity): "
                               "nothing to start beside the main thread")
SMP_ALL = "bench=smp/*"


def smp_run():
    log = run64(SMP_ALL)
    test_hosted.assert_complete(log)
    return log


@needs_two
def test_every_allowed_cpu_is_listed_and_started():
    log = smp_run()
    topo = log.one("topology")
    assert topo["processors_from"] == "sched_getaffinity"
    ids = [p["apic_id"] for p in topo["processors"]]
    assert len(ids) == N and len(set(ids)) == N, ids
    smp = log.one("smp")
    assert smp["method"].startswith("POSIX threads")
    assert smp["trampoline"] is None
    assert smp["pinned"].startswith("the main thread is pinned to CPU ")
    assert int(smp["pinned"].split("CPU ")[1].split(",")[0]) in ALLOWED
    states = {p["apic_id"]: p["state"] for p in smp["processors"]}
    assert sorted(states) == sorted(ids)
    assert list(states.values()).count("boot") == 1
    assert states[smp["bsp"]] == "boot"
    assert sorted(s for s in states.values() if s != "boot") == ["started"] * (N - 1)
    # What each thread's own CPUID said when it checked in is recorded (it is
    # not compared with the list: under a hypervisor a vCPU's APIC ID may
    # change while the program runs, as on the VM in README.md).
    for p in smp["processors"]:
        if p["state"] == "started":
            assert isinstance(p["cpuid_apic_id"], int)
            assert p["core_type"] is None or p["core_type"] > 0
    platform = log.one("platform")
    assert [c["cpu"] for c in platform["cpus"]] == ALLOWED
    assert sorted(c["apic_id"] for c in platform["cpus"]) == sorted(ids)


@needs_two
@pytest.mark.parametrize("variant", ["rmw", "store"])
def test_c2c_matrix_is_complete(variant):
    log = smp_run()
    (m,) = [r for r in log.of_type("c2c") if r["variant"] == variant]
    started = [p["apic_id"] for p in log.one("smp")["processors"] if p["state"] in ("boot", "started")]
    assert sorted(m["apic_ids"]) == sorted(started) and len(started) == N
    assert m["lost"] == []
    assert len(m["cells"]) == N and all(len(row) == N for row in m["cells"])
    for i in range(N):
        for j in range(N):
            if i == j:
                assert m["cells"][i][j] == "empty" and m["min_ns"][i][j] is None
            else:
                assert m["cells"][i][j] == "measured", (i, j, m["cells"])
                assert isinstance(m["min_ticks"][i][j], int) and isinstance(m["median_ns"][i][j], int)
                assert m["min_ticks"][i][j] <= m["median_ticks"][i][j]


@needs_two
def test_tsc_record_has_an_offset_per_cpu_and_no_faked_tsc_adjust():
    log = smp_run()
    t = log.one("tsc_sync")
    assert t["verdict"] in ("synchronised", "offset", "drifting")
    procs = t["processors"]
    assert sorted(p["apic_id"] for p in procs) == sorted(p["apic_id"] for p in log.one("topology")["processors"])
    assert [p["boot"] for p in procs].count(True) == 1
    for p in procs:
        if not p["boot"]:
            assert p["verdict"] in ("synchronised", "offset", "drifting")
            assert len(p["offset_ticks"]) == 2 and len(p["uncertainty_ticks"]) == 2
        # Ring 3 may not read MSR 0x3B: never a made-up value.
        assert p["tsc_adjust"] is None


@needs_two
def test_on_all_gives_one_result_per_cpu():
    log = run64("on=all", "bench=lat64/add")
    test_hosted.assert_complete(log)
    results = [r for r in log.of_type("result") if r["name"] == "lat64/add"]
    started = {p["apic_id"] for p in log.one("smp")["processors"] if p["state"] in ("boot", "started")}
    assert len(results) == N and {r["cpu"] for r in results} == started
    assert not [s for s in log.of_type("skip") if s.get("name") == "lat64/add"]


@needs_two
def test_cpus_1_starts_no_thread():
    log = run64("cpus=1", SMP_ALL)
    test_hosted.assert_complete(log)
    states = [p["state"] for p in log.one("smp")["processors"]]
    assert states.count("boot") == 1 and states.count("not selected") == N - 1
    assert not log.of_type("c2c") and not log.of_type("tsc_sync")
    texts = [n["text"] for n in log.notes(topic="smp")]
    assert "smp/c2c/rmw: needs two running processors, 1 here; not measured" in texts


def test_one_cpu_affinity_uses_one_processor_with_a_note():
    taskset = shutil.which("taskset")
    if not taskset:
        pytest.skip("taskset (util-linux) is not installed")
    if not os.path.exists(RUNNER64):
        pytest.fail(f"{RUNNER64} missing: run make hosted first")
    proc = subprocess.run([taskset, "-c", str(ALLOWED[0]), RUNNER64, SMP_ALL], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    log = cyclekit_log.parse(proc.stdout)
    log.rc, log.args, log.stderr = proc.returncode, ("taskset",), proc.stderr.decode("utf-8", "replace")
    test_hosted.assert_complete(log)
    assert len(log.one("topology")["processors"]) == 1
    assert not log.of_type("smp") and not log.of_type("c2c")
    texts = [n["text"] for n in log.notes(topic="smp")]
    assert "one processor is used (the only one sched_getaffinity lists)" in texts


@needs_two
def test_fault_on_a_worker_thread_is_reported_and_the_run_goes_on(tmp_path):
    (tmp_path / "ud2.ckb").write_bytes(cyclekit_module.encode("snip/ud2", bytes.fromhex("0f0b"), mode=64))
    (tmp_path / "add.ckb").write_bytes(cyclekit_module.encode("snip/add", bytes.fromhex("4801d8"), mode=64))
    proc = subprocess.run([RUNNER64, f"module={tmp_path}/ud2.ckb,{tmp_path}/add.ckb", "bench=snip/*",
                           "on=all", "samples=5"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    log = cyclekit_log.parse(proc.stdout)
    log.rc, log.args, log.stderr = proc.returncode, ("ud2",), proc.stderr.decode("utf-8", "replace")
    test_hosted.assert_complete(log, status=STATUS_BENCH_FAULT)
    smp = log.one("smp")
    workers = [p["apic_id"] for p in smp["processors"] if p["state"] == "started"]
    errors = [n["text"] for n in log.notes(level="error", topic="fault")]
    # The main thread's guard catches it there; each worker's own guard on its thread.
    assert "benchmark snip/ud2 faulted (#UD) and was aborted; the suite goes on" in errors
    for w in workers:
        assert (f"benchmark snip/ud2 on APIC ID {w}: the processor faulted; it is abandoned and the suite "
                "goes on") in errors
    # The abandoned threads run nothing more: the next benchmark only on the main thread's CPU.
    adds = [r for r in log.of_type("result") if r["name"] == "snip/add"]
    assert [r["cpu"] for r in adds] == [smp["bsp"]]


def test_32bit_runner_on_all_gives_a_result_per_started_processor():
    """The 32-bit runner has the same threads (under qemu-i386 every thread's
    CPUID is the emulator's: repeated APIC IDs leave those CPUs out, with a
    note, rather than naming two processors alike)."""
    log = test_hosted.run("on=all", "bench=lat/add", "samples=5")
    test_hosted.assert_complete(log)
    smps = log.of_type("smp")
    started = ({p["apic_id"] for p in smps[0]["processors"] if p["state"] in ("boot", "started")}
               if smps else {log.one("topology")["processors"][0]["apic_id"]})
    results = [r for r in log.of_type("result") if r["name"] == "lat/add"]
    assert {r["cpu"] for r in results} == started and len(results) == len(started)
    ids = [p["apic_id"] for p in log.one("topology")["processors"]]
    assert len(ids) == len(set(ids))
    repeated = [n for n in log.notes(topic="smp") if "gives the APIC ID of a CPU listed before it" in n["text"]]
    assert len(ids) + len(repeated) == N
