"""`cyclekit run --hosted [--bits 32|64]`: the whole suite's runner natively
(build/cyclekit-hosted, -hosted64), with run's readable lines on stdout and
its log saved, as a boot gives them."""
import os
import re
import subprocess

import pytest

from conftest import ROOT
from cyclekit import logfile

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
# Benchmarks every x86 (x86-64) CPU runs: a result, never a skip, on any machine.
RUNNERS = {32: ("cyclekit-hosted", "lat/add"), 64: ("cyclekit-hosted64", "lat64/add")}


@pytest.mark.parametrize("bits", sorted(RUNNERS))
def test_run_hosted_streams_and_saves_the_log(bits, tmp_path):
    binary, bench = RUNNERS[bits]
    assert os.path.exists(os.path.join(ROOT, "build", binary)), "make hosted (tools-tests depends on it)"
    log_file = tmp_path / "hosted.log"
    p = subprocess.run([FRONT, "run", "--hosted", "--bits", str(bits), "--no-build", "--log", str(log_file),
                        f"bench={bench}", "samples=5"], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    log = logfile.parse_file(str(log_file))
    assert log.complete, log.problems
    assert log.records[0]["platform"] == "hosted"
    assert [r["name"] for r in log.of_type("result")] == [bench]
    assert bench in p.stdout and "run complete" in p.stdout
    assert '{"type":' not in p.stdout, "JSON records go to the log, not the terminal"
    assert re.search(rf"log saved to {re.escape(str(log_file))} \(status 0", p.stderr)
