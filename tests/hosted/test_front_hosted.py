"""`cyclekit list` and `cyclekit snippet --hosted` through the hosted runner
(cyclekit/launch.py starts it, under qemu-i386 where Linux cannot
execute i386 programs). Exact things only: names, counts, the options that
reached the runner, and what the trust record says about the clock."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cyclekit import launch as cyclekit_launch
from cyclekit import logfile as cyclekit_log

CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]


def cyclekit(*args):
    return subprocess.run(CYCLEKIT + list(args), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def test_list_is_the_hosted_runners_own_list(tmp_path):
    prefix, _ = cyclekit_launch.hosted_launcher()
    own = subprocess.run(prefix + [cyclekit_launch.HOSTED, "list"], capture_output=True, timeout=300)
    names = [b["name"] for b in cyclekit_log.parse(own.stdout).of_type("bench")]
    want = [n for n in names if n.startswith(("calib/", "lat/x87/"))]
    p = cyclekit("list", "--no-build", "--json", "calib/*,lat/x87/*")
    assert p.returncode == 0, p.stderr
    assert [json.loads(line)["name"] for line in p.stdout.splitlines()] == want
    ring0 = [json.loads(line) for line in cyclekit("list", "--no-build", "--json", "sys/*").stdout.splitlines()]
    assert [b["name"] for b in ring0 if not b["runnable"]], "ring-0 benchmarks are listed, not runnable"


@pytest.mark.skipif(importlib.util.find_spec("cyclekit.benchfile") is None,
                    reason="needs cyclekit/benchfile.py and the runner's module= option "
                           "(issue 13, serve's half): not in this tree yet")
def test_a_snippet_runs_in_the_hosted_runner(tmp_path):
    log_file = tmp_path / "hosted.log"
    p = cyclekit("snippet", "--no-build", "--hosted", "--asm", "add eax, ebx; add ecx, edx",
                 "--samples", "7", "--loops", "50", "--json", "--log", str(log_file))
    log = cyclekit_log.parse_file(str(log_file))
    assert log.complete and p.returncode == 0, (log.problems, p.stderr)
    rec = json.loads(p.stdout)
    assert rec["type"] == "result" and rec["samples"] == 7 and rec["loops"] == 50
    assert log.one("platform")["kind"] == "hosted"
    prefix, _ = cyclekit_launch.hosted_launcher()
    if prefix:          # emulated: the clock is the host's, and the runner must say so
        assert log.one("trust")["trusted"] is False


def test_a_64_bit_snippet_runs_natively_in_the_64_bit_runner(tmp_path):
    """--hosted --mode 64 runs build/cyclekit-hosted64, an x86_64 program this
    Linux executes natively: the loaded body is wrapped by the 64-bit
    template and measured on the silicon (the value is the machine's, so
    only its record is asserted, not a number)."""
    log_file = tmp_path / "hosted64.log"
    p = cyclekit("snippet", "--no-build", "--hosted", "--mode", "64", "--asm", "add rax, rbx; add rcx, rdx",
                 "--samples", "7", "--loops", "50", "--json", "--log", str(log_file))
    log = cyclekit_log.parse_file(str(log_file))
    assert log.complete and p.returncode == 0, (log.problems, p.stderr)
    rec = json.loads(p.stdout)
    assert rec["type"] == "result" and rec["samples"] == 7 and rec["loops"] == 50
    assert isinstance(rec["cycles"], float) and rec["cycles"] > 0
    module = log.one("module")
    assert (module["accepted"], module["mode"]) == (True, 64)
