"""Each mistake a new user makes with the host tools (issue 22's list), through
the front door: a non-zero exit, one clear line on stderr, no traceback."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT
import logsynth

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
ISO = os.path.join(ROOT, "build", "cyclekit.iso")


def one_line(p, *words):
    """The mistake's single stderr line, checked: exit status, no traceback, the words."""
    lines = p.stderr.strip().splitlines()
    assert p.returncode != 0, p.stderr
    assert "Traceback" not in p.stderr
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def cyclekit(*args, **kw):
    return subprocess.run([FRONT, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, **kw)


@pytest.mark.skipif(not os.path.exists(ISO), reason="needs build/cyclekit.iso (make iso)")
def test_an_unknown_kernel_option_fails_the_run(tmp_path):
    """The kernel notes the option and still runs, as on a real machine; the
    verb's exit says the run did not measure what was asked."""
    log = tmp_path / "run.log"
    p = cyclekit("run", "--no-build", "--log", str(log), "--", "unrol=4", "bench=calib/add_chain", "samples=5",
                 timeout=300)
    line = one_line(p, "unknown option 'unrol'", f"log saved to {log} (status 0")
    assert line.startswith("cyclekit run: ")
    assert "calib/add_chain" in p.stdout, "the run went on"


HOSTED64 = os.path.join(ROOT, "build", "cyclekit-hosted64")


@pytest.mark.skipif(not os.path.exists(HOSTED64), reason="needs build/cyclekit-hosted64 (make hosted)")
def test_an_empty_selection_fails_the_run_with_the_kernels_reason(tmp_path):
    """`bench=lat/nosuch`: nothing measured, the kernel's status (5) and its
    reason in the one line a script reads."""
    log = tmp_path / "run.log"
    p = cyclekit("run", "--hosted", "--bits", "64", "--no-build", "--log", str(log), "--", "bench=lat/nosuch",
                 timeout=300)
    line = one_line(p, "the kernel said: bench: no benchmark matches bench=lat/nosuch",
                    f"log saved to {log} (status 5")
    assert p.returncode == 5 and line.startswith("cyclekit run: ")


@pytest.mark.skipif(not os.path.exists(HOSTED64), reason="needs build/cyclekit-hosted64 (make hosted)")
def test_an_unknown_option_fails_a_snippet_that_measured(tmp_path):
    """The snippet is measured and shown (the kernel ignores what it does not
    know), but the exit says it was not measured as asked."""
    p = cyclekit("snippet", "--hosted", "--no-build", "--mode", "64", "--asm", "add eax, ebx",
                 "--log", str(tmp_path / "s.log"), "--save", str(tmp_path / "s.ckb"), "--options", "unrol=4",
                 timeout=300)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert "snippet" in p.stdout, "the body was measured and shown"
    said = [line for line in p.stderr.splitlines() if "the kernel said" in line]
    assert said == ["cyclekit snippet: the kernel said: unknown option 'unrol' ignored (`cyclekit-hosted64 help` "
                    "for the list); did you mean 'unroll'? the run used unroll=8 (status 0; exit 2 for the unknown "
                    "option)"]


def test_a_missing_log(tmp_path):
    missing = tmp_path / "missing.log"
    one_line(cyclekit("log", "table", str(missing)), f"cyclekit log: {missing}: No such file or directory")


def test_output_into_a_closed_pipe(tmp_path):
    """`cyclekit db show ... | head`: the reader stops after a line, long
    before the rows end (more than a pipe holds)."""
    db = str(tmp_path / "results.db")
    logs = [logsynth.variant(name, k, str(tmp_path / f"{name}-{k}.log"))
            for name in logsynth.NAMES for k in range(12)]
    assert cyclekit("db", "--db", db, "import", *logs).returncode == 0
    p = subprocess.Popen([FRONT, "db", "--db", db, "show", "*"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().startswith("benchmark")
    p.stdout.close()
    err = p.stderr.read()
    p.wait(60)
    one_line(subprocess.CompletedProcess(p.args, p.returncode, "", err), "cyclekit db: stopped",
             "closed")


def test_an_image_into_a_missing_directory(tmp_path):
    out = tmp_path / "nonexistent" / "dir" / "out.iso"
    one_line(cyclekit("snippet", "--no-build", "--asm", "add eax, ebx", "--image", str(out)),
             f"--image {out}: the directory {out.parent} does not exist")
    one_line(cyclekit("image", "--no-build", "-o", str(out)), f"the directory {out.parent} does not exist")
    assert not out.parent.exists()


def test_report_under_a_python_without_matplotlib(tmp_path):
    """A Python without the Debian modules (a bare virtualenv, like pyenv's)
    running the package names the package to install."""
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bare = str(venv / "bin" / "python")
    if subprocess.run([bare, "-c", "import matplotlib"], capture_output=True).returncode == 0:
        pytest.skip("this bare virtualenv has matplotlib after all")
    p = subprocess.run([bare, "-m", "cyclekit", "report", logsynth.path("pentium"), "-o", str(tmp_path / "r")],
                       cwd=ROOT, capture_output=True, text=True)
    one_line(p, "cyclekit report: Python module 'matplotlib' is missing", "python3-matplotlib")


@pytest.mark.parametrize("args, words", [
    (["run", "--smp", "two"], ["cyclekit run: argument --smp: invalid int value: 'two'"]),
    (["frobnicate"], ["invalid choice: 'frobnicate'"]),
    (["log", "tabel", "x.log"], ["cyclekit log: argument command: invalid choice: 'tabel'"]),
    (["log", "compare", "a.log"], ["cyclekit log compare: takes 2 logs, got 1"]),
    (["run", "--bits", "64"], ["--bits 64 chooses a hosted runner: give --hosted too"]),
    (["run", "--hosted", "--cpu", "pentium"], ["--cpu: QEMU's choices, and --hosted runs without QEMU"]),
    (["db", "show"], ["the following arguments are required: BENCH"]),
])
def test_a_bad_argument(args, words):
    one_line(cyclekit(*args), *words)
