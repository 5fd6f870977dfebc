"""`make run`, the README's first command, as a terminal shows it (issue 31):
the build in one line, the readable lines with the results table and the
closing verdict, no JSON record and no control sequence (GRUB clears the
screen on the serial line), and the whole log saved where the last line says."""
import os
import re
import subprocess

import pytest

from conftest import ROOT
from cyclekit import logfile

ISO = os.path.join(ROOT, "build", "cyclekit.iso")


@pytest.mark.skipif(not os.path.exists(ISO), reason="needs build/cyclekit.iso (make iso)")
def test_make_run_shows_the_readable_run_and_saves_the_log(tmp_path):
    log = tmp_path / "first.log"
    # As a user types it: not under the make that runs the tests (its jobserver flags make
    # the inner make warn "jobserver unavailable" on the terminal).
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "--no-print-directory", "run", f"RUNFLAGS=--log {log} bench=calib/*,lat/add samples=5"],
                       cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, timeout=600, env=env)
    out, err = p.stdout.decode(), p.stderr.decode()
    assert p.returncode == 0, err
    assert "\x1b" not in out + err and "\r" not in out, "a control sequence reached the terminal"
    assert not [line for line in out.splitlines() if line.lstrip().startswith('{"type":')]
    header = [line for line in out.splitlines() if re.match(r"\s+benchmark\s+ticks\s+cycles\s+per insn\s+marks", line)]
    assert len(header) == 1, out
    assert re.search(r"^\s+lat/add\s+\d+\.\d\d\s", out, re.M), "the row of lat/add"
    assert re.search(r"^cyclekit: run complete: \d+ records and the end record, status 0", out, re.M)
    # The build is one line (make iso's own lines only when it fails), the log's place the last.
    lines = err.splitlines()
    assert lines[0] == "cyclekit run: building build/cyclekit.iso (make iso) ...", err
    assert not [line for line in lines if re.match(r"\s+(CC|AS|LD|GEN)\s", line)], err
    assert lines[-1].startswith(f"cyclekit run: log saved to {log} (status 0;"), err
    saved = logfile.parse_file(str(log))
    assert saved.complete and [r["name"] for r in saved.of_type("result") if r["name"] == "lat/add"]
    assert len(out.splitlines()) < len(saved.text.splitlines()), "the records stay in the log"
