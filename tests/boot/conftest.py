"""Boot tests: boot the ISO under QEMU and assert on the parsed JSON records.

The `boot` fixture runs scripts/run-qemu and returns a cyclekit_log.Log with
`.rc` (the runner's exit code: the kernel status, or 124/125/126). Boots are
cached per argument set within one pytest session, so several tests can
assert on one boot.

A boot that selects no benchmarks (no bench=, list or sweep= in its
cmdline) runs only the harness's calib/* group with few samples: tests
about booting, faults or options need a complete run, not the whole suite.
Pass full=True for the whole suite.
"""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cyclekit_log  # noqa: E402

ISO = os.path.join(ROOT, "build", "cyclekit.iso")
RUNNER = os.path.join(ROOT, "scripts", "run-qemu")
LOGDIR = os.path.join(ROOT, "build", "boot-logs")


def kvm_status():
    if not os.path.exists("/dev/kvm"):
        return False, "/dev/kvm does not exist on this machine"
    try:
        os.close(os.open("/dev/kvm", os.O_RDWR))
    except OSError as e:
        return False, f"/dev/kvm cannot be opened ({e.strerror})"
    return True, ""


_cache = {}


SMALL_SUITE = "bench=calib/* samples=9"


def run_boot(cpu=None, qemu=None, accel="tcg", uefi=False, cmdline="", icount=None,
             timeout=240, memory=128, full=False):
    if not full and not any(w.startswith(("bench=", "sweep=")) or w == "list" for w in cmdline.split()):
        cmdline = (cmdline + " " + SMALL_SUITE).strip()
    key = (cpu, qemu, accel, uefi, cmdline, icount, memory)
    if key in _cache:
        return _cache[key]
    if not os.path.exists(ISO):
        pytest.fail(f"{ISO} missing: run make first")
    os.makedirs(LOGDIR, exist_ok=True)
    name = "-".join(str(p) for p in (cpu or "default", qemu or "auto", accel, "uefi" if uefi else "bios",
                                      icount if icount is not None else "", cmdline) if p != "")
    name = "".join(c if c.isalnum() or c in "-_.=" else "_" for c in name)[:120]
    log_path = os.path.join(LOGDIR, name + ".log")
    cmd = [sys.executable, RUNNER, "--iso", ISO, "--quiet", "--log", log_path,
           "--accel", accel, "--timeout", str(timeout), "--memory", str(memory)]
    if cpu:
        cmd += ["--cpu", cpu]
    if qemu:
        cmd += ["--qemu", qemu]
    if uefi:
        cmd += ["--uefi"]
    if cmdline:
        cmd += ["--cmdline", cmdline]
    if icount is not None:
        cmd += ["--icount", str(icount)]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout + 30)
    log = cyclekit_log.parse_file(log_path) if os.path.exists(log_path) else cyclekit_log.parse(b"")
    log.rc = proc.returncode
    log.path = log_path
    log.stderr = proc.stderr.decode("utf-8", "replace")
    _cache[key] = log
    return log


@pytest.fixture
def boot():
    return run_boot


def assert_complete(log, status=0):
    """The run ended with a valid end record and the expected status."""
    assert log.complete, f"{log.path}: {log.problems}\n{log.stderr}"
    assert log.status == status, f"{log.path}: end status {log.status}, expected {status}"
    assert log.rc == status, f"{log.path}: runner exit {log.rc}, expected {status}\n{log.stderr}"
