"""`cyclekit run` and `cyclekit list --boot` (cyclekit/verbs/run.py, list.py):
readable lines on the terminal, the whole log saved, the kernel's status as
the exit status; the list is the kernel's own (tests/hosted: by the hosted runner)."""
import fnmatch
import json
import os
import re
import subprocess
import sys

from conftest import ROOT, assert_complete, declared
from cyclekit import logfile as cyclekit_log

CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]


def cyclekit(*args, timeout=600):
    return subprocess.run(CYCLEKIT + list(args), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def saved_log(stderr):
    m = re.search(r"log saved to (\S+) \(status (\d+)", stderr)
    assert m, stderr
    return m.group(1), int(m.group(2))


def test_run_streams_readable_lines_and_saves_the_log(tmp_path):
    log_file = tmp_path / "run.log"
    p = cyclekit("run", "--no-build", "--cpu", "pentium", "--icount", "--log", str(log_file),
                 "bench=calib/add_chain", "samples=5")
    assert p.returncode == 0, p.stderr
    log = cyclekit_log.parse_file(str(log_file))
    log.rc, log.path, log.stderr = p.returncode, str(log_file), p.stderr
    assert_complete(log)
    assert saved_log(p.stderr) == (str(log_file), 0)
    assert [(r["name"], r["ticks"]) for r in log.of_type("result")] == [("calib/add_chain", 1.00)], \
        "--icount (shift 0) reached QEMU: one ADD is one tick"
    assert "calib/add_chain" in p.stdout and "run complete" in p.stdout
    assert '{"type":' not in p.stdout, "JSON records go to the log, not the terminal"
    shown = cyclekit("run", "--no-build", "--cpu", "pentium", "--json", "--log", str(tmp_path / "j.log"),
                     "bench=calib/add_chain", "samples=5")
    assert '{"type":"end"' in shown.stdout


def test_run_exits_with_the_kernels_status_and_logs_under_build_logs():
    # The double-fault self-test ends the run with status 3 (test_faults.py).
    p = cyclekit("run", "--no-build", "--cpu", "pentium", "selftest", "overflow", "bench=calib/*", "samples=5")
    path, status = saved_log(p.stderr)
    assert p.returncode == status == 3
    assert os.path.dirname(path) == os.path.join(ROOT, "build", "logs")
    assert re.fullmatch(r"run-\d{8}T\d{6}Z(-\d+)?\.log", os.path.basename(path))
    assert cyclekit_log.parse_file(path).status == 3
    os.unlink(path)


def test_list_by_a_boot_is_the_kernels_list():
    want = [n for n in declared() if fnmatch.fnmatchcase(n, "calib/*") or fnmatch.fnmatchcase(n, "p5/agi/*")]
    assert len(want) > 2
    p = cyclekit("list", "--no-build", "--boot", "--json", "calib/*,p5/agi/*")
    assert p.returncode == 0, p.stderr
    assert [json.loads(line)["name"] for line in p.stdout.splitlines()] == want
    assert f"{len(want)} benchmarks matching calib/*,p5/agi/*" in p.stderr
