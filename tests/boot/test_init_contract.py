"""The register contract on bare metal (docs/registers.md): the registers a
snippet's --init leaves are the body's starting registers, in the probe run
as in every timed run, in 32-bit code and in long mode. One boot per mode,
every body of tests/hosted/init_bodies.py in it: each faults unless its
init's registers reached it (the #DE and #UD bodies; the pointer body's
address 1 is mapped on bare metal, so it only has to measure). The same boot
runs a body that faults: its report speaks the body's mode (RIP and RAX..R15
for a 64-bit body) and names the copy and the offset of the faulting
instruction. Records and readable lines only, no timing."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, assert_complete
from cyclekit import logfile as cyclekit_log
from cyclekit.verbs import snippet as cyclekit_snippet

from tests.hosted import init_bodies   # the bodies the hosted test runs too (pyproject.toml's pythonpath)

STATUS_BENCH_FAULT = 2   # kernel/platform/status.h
CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]


@pytest.mark.parametrize("mode", [32, 64])
def test_the_inits_registers_reach_every_body_on_bare_metal(tmp_path, mode):
    log_file = tmp_path / "init.log"
    args = init_bodies.snippet_args(mode, "init", faulting=True)
    p = subprocess.run(CYCLEKIT + ["snippet", "--no-build", "--log", str(log_file)] + args,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900, cwd=ROOT)
    log = cyclekit_log.parse_file(str(log_file))
    log.rc, log.path, log.stderr = p.returncode, str(log_file), p.stderr
    assert_complete(log, status=STATUS_BENCH_FAULT)   # the faulting body's, and only its
    faulting = init_bodies.faulting_name(mode, "init")
    assert [f["where"] for f in log.of_type("fault")] == [f"benchmark {faulting}"], log.of_type("fault")
    for name, (case, body, _, _) in init_bodies.named(mode, "init").items():
        rec = cyclekit_snippet.record_for(log.records, name)
        assert rec and rec["type"] == "result", (case, body, rec)
    if mode == 64:
        assert log.one("platform")["mode"] == 64
    placed = [r for r in log.of_type("result") if r["name"] == f"init/{list(init_bodies.BODIES[mode]).index('placed') + 1}"]
    assert placed and placed[0]["alignment"] == {"boundary": 64, "offset": 0}, placed
    rec = cyclekit_snippet.record_for(log.records, faulting)
    init_bodies.check_fault_dump(mode, rec, log.text)
    assert int(rec["cr0"], 16) & 1, "ring 0 reads CR0 (PE set)"
