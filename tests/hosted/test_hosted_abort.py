"""A fault no guard catches on the hosted runner ends the log the way the run
says (kernel/run/abort.c), reached through the guard's abort hook
(platform/guard.h) that the main installs: the fault record, the error note,
the end record with status 3. The runner waits for requests (serve) outside
every guard; a SIGSEGV sent to it then is such a fault. Records only."""
import json
import os
import signal
import subprocess

import pytest

from test_hosted import RUNNER, _launch, _launcher

STATUS_KERNEL_FAULT = 3


def records(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_an_unguarded_fault_ends_the_log_through_the_abort_hook():
    if not os.path.exists(RUNNER):
        pytest.fail(f"{RUNNER} missing: run make hosted first")
    _launch[:] = _launch or [_launcher()]  # the runner itself, or under qemu-i386
    p = subprocess.Popen(_launch[0] + [RUNNER, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    seen = []
    try:
        for line in p.stdout:
            seen.append(line)
            if line.startswith('{"type":"serve","state":"ready"'):
                break
        p.send_signal(signal.SIGSEGV)
        out, _ = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    recs = records("".join(seen) + out)
    assert p.returncode == STATUS_KERNEL_FAULT, out
    (fault,) = [r for r in recs if r["type"] == "fault"]
    assert fault["where"] == "hosted runner (no guard)"
    assert {"type": "note", "level": "error", "topic": "fault",
            "text": "hosted runner (no guard): no guard could catch this fault; stopping"} in recs
    end = recs[-1]
    assert end["type"] == "end" and end["status"] == STATUS_KERNEL_FAULT and end["errors"] == 1
