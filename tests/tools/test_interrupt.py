"""Ctrl-C of a run (issue 31): `run`, `run --hosted`, `snippet` and `make run`
end with 130, one "interrupted" line that names the partial log, no
traceback, and no process left behind (not even a defunct one).

A terminal's Ctrl-C sends SIGINT to the whole foreground process group: the
front door, run-qemu, QEMU or the hosted runner, make. The tests start each
command in a process group of its own, wait until its log shows the
benchmarks running, and send SIGINT to that group, as the terminal would.
"""
import os
import signal
import subprocess
import time

import pytest

from conftest import ROOT

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
ISO = os.path.join(ROOT, "build", "cyclekit.iso")
KERNEL = os.path.join(ROOT, "build", "cyclekit.elf")
HOSTED64 = os.path.join(ROOT, "build", "cyclekit-hosted64")
# How long a command may take to show it is measuring, and to end after Ctrl-C.
START_SECONDS, END_SECONDS = 240, 60
# A record every kernel writes once a benchmark's measurement begins.
RUNNING = b'{"type":"progress"'


def group_alive(pgid):
    """Is any process (a zombie too) left in the group?"""
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def interrupt(cmd, log, cwd=ROOT, env=None):
    """Starts CMD in a process group of its own, waits for RUNNING in LOG, sends SIGINT
    to the group; (exit status, stdout, stderr) once it ended, and whether the group
    emptied within END_SECONDS."""
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not (log.exists() and RUNNING in log.read_bytes()):
            assert p.poll() is None, f"ended before it was interrupted: {p.communicate()}"
            assert time.monotonic() < deadline, f"no benchmark started within {START_SECONDS} s"
            time.sleep(0.1)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=END_SECONDS)
        deadline = time.monotonic() + END_SECONDS
        while group_alive(p.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        return p.returncode, out.decode(errors="replace"), err.decode(errors="replace"), group_alive(p.pid)
    finally:
        if group_alive(p.pid):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def check(rc, err, left, log, verb, status=(130,)):
    """130, one line saying so and naming the partial log (which holds what ran), no traceback,
    nothing left running."""
    assert rc in status, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    said = [line for line in err.splitlines() if "interrupted" in line]
    assert said == [f"cyclekit {verb}: interrupted; the partial log: {log}"], err
    assert not left, "a process of the run is still there"
    assert RUNNING in log.read_bytes()


@pytest.mark.skipif(not os.path.exists(ISO), reason="needs build/cyclekit.iso (make iso)")
def test_ctrl_c_stops_a_qemu_run(tmp_path):
    log = tmp_path / "run.log"
    rc, out, err, left = interrupt([FRONT, "run", "--no-build", "--log", str(log), "samples=2001"], log)
    check(rc, err, left, log, "run")
    assert "qemu-system" not in err, "QEMU's own word on the signal is not passed on"


@pytest.mark.skipif(not os.path.exists(HOSTED64), reason="needs build/cyclekit-hosted64 (make hosted)")
def test_ctrl_c_stops_a_hosted_run(tmp_path):
    log = tmp_path / "hosted.log"
    rc, out, err, left = interrupt([FRONT, "run", "--hosted", "--bits", "64", "--no-build", "--log", str(log),
                                    "samples=2001"], log)
    check(rc, err, left, log, "run")


@pytest.mark.skipif(not os.path.exists(KERNEL), reason="needs build/cyclekit.elf (make kernel)")
def test_ctrl_c_stops_a_snippet(tmp_path):
    """Under QEMU (its BIOS loader), a body long enough to be still measuring at Ctrl-C."""
    log = tmp_path / "snippet.log"
    rc, out, err, left = interrupt([FRONT, "snippet", "--no-build", "--asm", "imul eax, ebx", "--loops", "100000",
                                    "--samples", "2001", "--options", "watchdog=0", "--log", str(log),
                                    "--save", str(tmp_path / "s.ckb")], log)
    check(rc, err, left, log, "snippet")


@pytest.mark.skipif(not os.path.exists(ISO), reason="needs build/cyclekit.iso (make iso)")
def test_ctrl_c_stops_make_run(tmp_path):
    """make itself dies of the SIGINT (a shell shows 130 for both) after its own
    "make: *** [...] Error 130" line, which is make's, not an "interrupted" one."""
    log = tmp_path / "make-run.log"
    rc, out, err, left = interrupt(["make", "--no-print-directory", "run",
                                    f"RUNFLAGS=--no-build --log {log} samples=2001"], log)
    check(rc, err, left, log, "run", status=(130, -signal.SIGINT))


# A QEMU that writes its program name and its message apart, as QEMU's error_report does,
# and ends between the two: what a loaded machine showed once (fresh-check, Nov 2026).
CUT_QEMU = """#!/bin/sh
trap 'printf "qemu-system-x86_64:" >&2; exit 1' INT TERM
printf '%s\\n' '{"type":"progress","name":"calib/empty"}'
while :; do sleep 0.1; done
"""


def test_qemus_word_cut_mid_line_by_the_stop_is_not_passed_on(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for arch in ("i386", "x86_64"):
        fake = bindir / f"qemu-system-{arch}"
        fake.write_text(CUT_QEMU)
        fake.chmod(0o755)
    log = tmp_path / "run.log"
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}")
    rc, out, err, left = interrupt([FRONT, "run", "--no-build", "--log", str(log)], log, env=env)
    check(rc, err, left, log, "run")
    assert "qemu-system" not in err, err
